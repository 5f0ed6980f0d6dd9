/**
 * Reading the bottom face through a clear platform (the camera under it): the
 * face read is the one resting on the platform, and the result is the face on
 * the other side, from the die's opposite-face map. A symbol identifies the top
 * only when every face showing it has opposites of one symbol; otherwise the
 * die is declined (reading it as either would bias the verdict).
 */
import type { DieType } from '../dice/types.js';
import type { FaceRead, FaceReader } from './faceRead.js';

export type TopFromBottom = { readonly symbol: string } | { readonly ambiguous: readonly string[] };

/** The top symbol of `die` when `bottomSymbol` is seen underneath. */
export function topSymbolFromBottom(die: DieType, bottomSymbol: string): TopFromBottom {
  const faces = die.faces.filter((f) => f.symbol === bottomSymbol);
  if (faces.length === 0) throw new RangeError(`Die "${die.id}" has no face showing "${bottomSymbol}".`);
  const bySymbol = new Map(die.faces.map((f) => [f.id, f.symbol]));
  const tops = new Set<string>();
  for (const f of faces) {
    const opposite = die.opposite[f.id];
    const symbol = opposite === undefined ? undefined : bySymbol.get(opposite);
    if (symbol === undefined) throw new RangeError(`Die "${die.id}": face "${f.id}" has no known opposite face.`);
    tops.add(symbol);
  }
  const list = [...tops].sort();
  return list.length === 1 ? { symbol: list[0] as string } : { ambiguous: list };
}

/** For each symbol of `die`, what a bottom read of it means on top (a table for `dicerig dice` and the docs). */
export function bottomFaceTable(die: DieType): Record<string, TopFromBottom> {
  return Object.fromEntries(die.symbols.map((s) => [s, topSymbolFromBottom(die, s)]));
}

/** Maps one read made from below to the top face; other statuses pass through. */
export function mapBottomRead(read: FaceRead, die: DieType): FaceRead {
  if (read.status !== 'read' || read.symbol === undefined) return read;
  const top = topSymbolFromBottom(die, read.symbol);
  if ('symbol' in top) return { ...read, symbol: top.symbol };
  return {
    status: 'unreadable',
    confidence: read.confidence,
    classifierVersion: read.classifierVersion,
    crop: read.crop,
    ...(read.die !== undefined ? { die: read.die } : {}),
    reason: `"${read.symbol}" was read from below, but on this die its faces have ${top.ambiguous.join(' or ')} on top, so the top face is not known.`,
    ...(read.details ? { details: read.details } : {}),
  };
}

/**
 * Maps one face-level read made from below (a D6-faced die read by its pips: the symbol is the face id, as a d3's
 * '5') to the face on top, the bottom face's opposite. Every face has one opposite, so nothing is ambiguous.
 */
export function mapBottomFace(read: FaceRead, die: DieType): FaceRead {
  if (read.status !== 'read' || read.symbol === undefined) return read;
  const top = die.opposite[read.symbol];
  if (top === undefined) throw new RangeError(`Die "${die.id}": face "${read.symbol}" has no known opposite face.`);
  return { ...read, symbol: top };
}

/**
 * Wraps a reader that looks at the bottom face so it reports the top face; `dieOf` gives the die type of a read.
 * `symbol` level (X-Wing icons) declines a symbol whose opposites differ; `face` level maps face ids one to one.
 */
export function bottomFaceReader(inner: FaceReader, dieOf: (read: FaceRead) => DieType, level: 'symbol' | 'face' = 'symbol'): FaceReader {
  const version = `${inner.classifierVersion} bottom`;
  return {
    classifierVersion: version,
    ...(inner.judgesTilt !== undefined ? { judgesTilt: inner.judgesTilt } : {}),
    read(crop) {
      const read = inner.read(crop);
      const mapped = level === 'face' ? mapBottomFace(read, dieOf(read)) : mapBottomRead(read, dieOf(read));
      return { ...mapped, classifierVersion: version };
    },
  };
}
