/**
 * A frame's sensor noise is noise[k0 + stride], noise[k0 + 2 stride], ... (indices modulo the table's length, a power
 * of two). The stride is odd, so that sequence is the table reordered, read in turn from some start: filled once a
 * frame and read in order, it stays in the cache, where jumping through the table waited on memory for every channel
 * of every pixel.
 */

/** The x with a x = 1 modulo mask + 1 (a power of two), for odd a: each step of Newton's iteration doubles the correct low bits. */
function inverseOfOdd(a: number, mask: number): number {
  let x = a; // right to 3 bits: an odd square is 1 modulo 8
  for (let i = 0; i < 5; i++) x = Math.imul(x, 2 - Math.imul(a, x)) & mask;
  return x;
}

/**
 * Fills `into` with `noise` in the order a stride of `stride` from `k0` visits it, and returns u such that the
 * n-th value visited (n = 1, 2, ...) is into[(u + n) & mask].
 */
export function noiseInTurn(noise: Float32Array, k0: number, stride: number, into: Float32Array): number {
  const mask = noise.length - 1;
  if ((noise.length & mask) !== 0 || into.length !== noise.length || stride % 2 !== 1) throw new RangeError(`noiseInTurn: a power-of-two table of ${noise.length} values, a table as long to fill (${into.length}) and an odd stride (${stride})`);
  for (let v = 0; v < into.length; v++) into[v] = noise[Math.imul(stride, v) & mask] as number;
  // stride u = k0 (mod the length), so stride (u + n) = k0 + n stride.
  return Math.imul(k0, inverseOfOdd(stride, mask)) & mask;
}
