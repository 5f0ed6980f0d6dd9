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

/**
 * Where each pixel of a turned/mirrored `size`x`size` plane comes from, by turn: made once per side and turn (a
 * reader turns every unsure die's input seven times, and working out the pixel's source per pixel and channel took
 * about as long as a tenth of a network's pass).
 */
const sources = new Map<number, Int32Array>();

function sourcesOf(size: number, turn: number): Int32Array {
  const key = size * 8 + (turn & 7);
  let from = sources.get(key);
  if (from === undefined) {
    from = new Int32Array(size * size);
    for (let y = 0; y < size; y++) {
      for (let xx = 0; xx < size; xx++) {
        let u = xx;
        let v = y;
        if (turn & 1) u = size - 1 - u;
        if (turn & 2) v = size - 1 - v;
        if (turn & 4) [u, v] = [v, u];
        from[y * size + xx] = v * size + u;
      }
    }
    sources.set(key, from);
  }
  return from;
}

/**
 * One of the 8 turns/mirrors (bit 0: mirror x, bit 1: mirror y, bit 2: transpose), a channel permutation and a sign.
 * Written into `into` (as long as `x`, not `x` itself) when given.
 */
export function transformInput(x: Float32Array, size: number, turn: number, permutation: number, sign: 1 | -1, into?: Float32Array): Float32Array {
  const plane = size * size;
  const out = into ?? new Float32Array(x.length);
  const perm = PERMUTATIONS[permutation % 6] as readonly [number, number, number];
  if (permutation % 6 === 0 && sign === 1 && (turn & 4) === 0) {
    mirrored(x, size, turn, out);
    return out;
  }
  const from = sourcesOf(size, turn);
  for (let c = 0; c < 3; c++) {
    const src = (perm[c] as number) * plane;
    const dst = c * plane;
    for (let i = 0; i < plane; i++) out[dst + i] = sign * (x[src + (from[i] as number)] as number);
  }
  return out;
}

/**
 * A reader's views that only mirror (turns 0-3: no transpose, channels in place, sign kept): row by row, each value
 * as it is (what `transformInput`'s general path gives, 1 x v being v), without the table of sources.
 */
function mirrored(x: Float32Array, size: number, turn: number, out: Float32Array): void {
  const plane = size * size;
  const flipX = (turn & 1) !== 0;
  const flipY = (turn & 2) !== 0;
  for (let c = 0; c < 3; c++) {
    for (let y = 0; y < size; y++) {
      const dst = c * plane + y * size;
      const src = c * plane + (flipY ? size - 1 - y : y) * size;
      if (flipX) for (let i = 0, j = src + size - 1; i < size; i++, j--) out[dst + i] = x[j] as number;
      else for (let i = 0; i < size; i++) out[dst + i] = x[src + i] as number;
    }
  }
}
