import type { DieRolls } from '../../../src/rolllog/types.js';
import type { DieType } from '../../../src/dice/types.js';
import { cumulativeOf, drawIndex, seededRandom } from '../../../src/stats/random.js';

/** `n` independent face rolls of `die` with the given face odds, as the analysis receives them. */
export function simulatedRolls(label: string, die: DieType, odds: readonly number[], n: number, seed: number): DieRolls {
  const random = seededRandom(seed);
  const cumulative = cumulativeOf(odds);
  const faces = new Uint8Array(n);
  for (let i = 0; i < n; i++) faces[i] = drawIndex(cumulative, random);
  return fromFaces(label, die, faces);
}

export function fromFaces(label: string, die: DieType, faces: Uint8Array): DieRolls {
  const symbolOfFace = die.faces.map((f) => die.symbols.indexOf(f.symbol));
  const symbols = faces.map((f) => symbolOfFace[f] as number);
  return { label, die, level: 'face', faces, symbols, files: ['test'] };
}

/** Symbol-level rolls with exactly these counts, in a seeded random order. */
export function symbolRollsWithCounts(label: string, die: DieType, counts: readonly number[], seed: number): DieRolls {
  const symbols: number[] = [];
  counts.forEach((c, i) => {
    for (let j = 0; j < c; j++) symbols.push(i);
  });
  const random = seededRandom(seed);
  for (let i = symbols.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [symbols[i], symbols[j]] = [symbols[j] as number, symbols[i] as number];
  }
  return { label, die, level: 'symbol', symbols: Uint8Array.from(symbols), files: ['test'] };
}

/** Face-level rolls with exactly these counts per face, in a seeded random order. */
export function faceRollsWithCounts(label: string, die: DieType, counts: readonly number[], seed: number): DieRolls {
  const faces: number[] = [];
  counts.forEach((c, i) => {
    for (let j = 0; j < c; j++) faces.push(i);
  });
  const random = seededRandom(seed);
  for (let i = faces.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [faces[i], faces[j]] = [faces[j] as number, faces[i] as number];
  }
  return fromFaces(label, die, Uint8Array.from(faces));
}

/** Face odds with every face of `symbol` made `factor` times as likely, renormalised. */
export function loadedOdds(die: DieType, symbol: string, factor: number): number[] {
  const w = die.faces.map((f, i) => (die.faceProbabilities[i] as number) * (f.symbol === symbol ? factor : 1));
  const total = w.reduce((a, b) => a + b, 0);
  return w.map((x) => x / total);
}

/**
 * A D6 whose reader declined 40 rolls early on, while no 6 was read: the first 200 read rolls are 40 each of 1-5 with
 * the 40 unresolved rolls among them (one after every fifth read roll), then 60 each of 1-6 (the SciPy golden values
 * are in anytimeUnresolved.test.ts).
 */
export function declinedEarly(die: DieType): DieRolls & { unresolvedAt: number[] } {
  const symbols: number[] = [];
  const unresolvedAt: number[] = [];
  for (let i = 0; i < 200; i++) {
    symbols.push(i % 5);
    if (i % 5 === 4) unresolvedAt.push(symbols.length);
  }
  for (let i = 0; i < 360; i++) symbols.push(i % 6);
  return { label: 'X', die, level: 'symbol', symbols: Uint8Array.from(symbols), files: ['test'], unresolvedAt };
}
