import { isMap, isScalar, LineCounter, parseDocument, visit, type Document } from 'yaml';

/** The most aliases a YAML file may expand: a few are convenient, an alias bomb multiplies them. */
export const MAX_YAML_ALIASES = 100;

/** A problem with YAML text, and its line when there is one. */
export interface YamlProblem {
  readonly problem: string;
  readonly line?: number;
}

/**
 * Parses a small YAML (or JSON) file a user wrote: a config or dice file.
 * Text over `maxBytes` is refused before parsing; duplicate keys are found in
 * one pass (the yaml library's own check is quadratic in a map's size); alias
 * expansion is capped. Returns the document and plain value, or the problem.
 */
export function parseYamlText(
  text: string,
  maxBytes: number,
  what: string,
): { readonly doc: Document; readonly lines: LineCounter; readonly value: unknown } | YamlProblem {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes) return { problem: tooLarge(what, bytes, maxBytes) };
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false });
  const yamlError = doc.errors[0];
  if (yamlError) return { problem: `not valid YAML or JSON: ${yamlError.message.split('\n')[0] ?? ''}`, line: lines.linePos(yamlError.pos[0]).line };
  let duplicate: YamlProblem | undefined;
  visit(doc, {
    Map(_key, map) {
      if (!isMap(map)) return undefined;
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        if (seen.has(key)) {
          const range = (pair.key as { range?: [number, number, number] } | null)?.range;
          duplicate = { problem: `the key "${String(key).slice(0, 60)}" appears twice in one map`, ...(range ? { line: lines.linePos(range[0]).line } : {}) };
          return visit.BREAK;
        }
        seen.add(key);
      }
      return undefined;
    },
  });
  if (duplicate !== undefined) return duplicate;
  try {
    return { doc, lines, value: doc.toJS({ maxAliasCount: MAX_YAML_ALIASES }) };
  } catch (e) {
    // The yaml library throws a ReferenceError when aliases expand past the cap.
    if (e instanceof ReferenceError || e instanceof RangeError) return { problem: `refused: ${e.message.split('\n')[0] ?? ''} (YAML aliases expand to more than ${MAX_YAML_ALIASES} copies)` };
    throw e;
  }
}

/** The message for a file over its size cap. */
export function tooLarge(what: string, bytes: number, maxBytes: number): string {
  return `the ${what} is too large (${bytes.toLocaleString('en-US')} bytes; at most ${maxBytes.toLocaleString('en-US')})`;
}
