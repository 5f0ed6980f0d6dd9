import type { DieType } from './types.js';

/**
 * Index views of a die for hot loops and tables: statistics work on arrays of
 * counts, not on face ids. All assume a die that passed `checkDieType`.
 */

/** Face id -> face index. */
export function faceIndexById(die: DieType): Map<string, number> {
  return new Map(die.faces.map((f, i) => [f.id, i]));
}

/** For each face index, the index of its symbol in `die.symbols`. */
export function symbolIndexOfFace(die: DieType): Int32Array {
  const bySymbol = new Map(die.symbols.map((s, i) => [s, i]));
  return Int32Array.from(die.faces, (f) => {
    const i = bySymbol.get(f.symbol);
    if (i === undefined) throw new RangeError(`Die "${die.id}": face "${f.id}" shows "${f.symbol}", which is not one of its symbols.`);
    return i;
  });
}

/** Expected probability of each symbol, aligned with `die.symbols` (sum of its faces' probabilities). */
export function symbolProbabilities(die: DieType): number[] {
  const out = die.symbols.map(() => 0);
  const idx = symbolIndexOfFace(die);
  die.faces.forEach((_, i) => {
    out[idx[i] as number]! += die.faceProbabilities[i] ?? 0;
  });
  return out;
}

/** For each face index, the index of the face on the other side. */
export function oppositeIndex(die: DieType): number[] {
  const byId = faceIndexById(die);
  return die.faces.map((f) => {
    const other = die.opposite[f.id];
    const i = other === undefined ? undefined : byId.get(other);
    if (i === undefined) throw new RangeError(`Die "${die.id}": face "${f.id}" has no known opposite face.`);
    return i;
  });
}

/** A die whose faces are a D6's, ids '1' to '6' (d6, d3, direction dice): read by its pips, counted by face. */
export function isD6Faced(type: Pick<DieType, 'faces'>): boolean {
  return type.faces.length === 6 && type.faces.every((f, i) => f.id === String(i + 1));
}
