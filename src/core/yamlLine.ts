import { isMap, isScalar, isSeq } from 'yaml';
import type { Document, LineCounter } from 'yaml';

/**
 * The line of the deepest part of `path` present in a parsed YAML (or JSON)
 * document: the key's line for a map entry (so `faces` points at `faces:`), the
 * item's line for a list entry. Used to name the line of a bad config value.
 */
export function yamlLineOf(doc: Document, lines: LineCounter, path: readonly (string | number)[]): number | undefined {
  const lineAt = (node: unknown): number | undefined => {
    const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
    return range ? lines.linePos(range[0]).line : undefined;
  };
  let node: unknown = doc.contents;
  let line = lineAt(node);
  for (const part of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => String(isScalar(p.key) ? p.key.value : p.key) === String(part));
      if (!pair) break;
      line = lineAt(pair.key) ?? line;
      node = pair.value;
    } else if (isSeq(node) && typeof part === 'number') {
      node = node.items[part];
      if (node === undefined) break;
      line = lineAt(node) ?? line;
    } else break;
  }
  return line;
}
