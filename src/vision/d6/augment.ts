/**
 * Label-preserving changes of a D6 net input: a pip count does not change when
 * the die is turned by quarter turns or mirrored (the views a reader averages),
 * when its colours are swapped among channels, or when light and dark are
 * exchanged (dark pips on a light die become light pips on a dark one; training
 * makes the same changes, training/d6net/train_d6net.py).
 */
const PERMUTATIONS: readonly (readonly [number, number, number])[] = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
];

/** One of the 8 turns/mirrors (bit 0: mirror x, bit 1: mirror y, bit 2: transpose), a channel permutation and a sign. */
export function transformInput(x: Float32Array, size: number, turn: number, permutation: number, sign: 1 | -1): Float32Array {
  const plane = size * size;
  const out = new Float32Array(x.length);
  const perm = PERMUTATIONS[permutation % 6] as readonly [number, number, number];
  for (let c = 0; c < 3; c++) {
    const src = (perm[c] as number) * plane;
    const dst = c * plane;
    for (let y = 0; y < size; y++) {
      for (let xx = 0; xx < size; xx++) {
        let u = xx;
        let v = y;
        if (turn & 1) u = size - 1 - u;
        if (turn & 2) v = size - 1 - v;
        if (turn & 4) [u, v] = [v, u];
        out[dst + y * size + xx] = sign * (x[src + v * size + u] as number);
      }
    }
  }
  return out;
}
