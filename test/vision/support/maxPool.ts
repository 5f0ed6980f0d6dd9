/**
 * 2x2 max pooling of `channels` planes of side `n` into `out` (planes of side n / 2), as the networks pool: the
 * reference forward passes of the network tests share it, whatever precision their planes are in.
 */
export function maxPool2x2<T extends Float32Array | Float64Array>(y: T, channels: number, n: number, out: T): T {
  const m = n >> 1;
  for (let c = 0; c < channels; c++) {
    for (let py = 0; py < m; py++) {
      for (let px = 0; px < m; px++) {
        const at = (dy: number, dx: number): number => y[(c * n + 2 * py + dy) * n + 2 * px + dx] as number;
        out[(c * m + py) * m + px] = Math.max(at(0, 0), at(0, 1), at(1, 0), at(1, 1));
      }
    }
  }
  return out;
}
