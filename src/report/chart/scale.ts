/** A linear map from data values [d0, d1] to pixels [p0, p1]. */
export interface LinearScale {
  (value: number): number;
  readonly domain: readonly [number, number];
}

export function linearScale(d0: number, d1: number, p0: number, p1: number): LinearScale {
  const span = d1 - d0 || 1;
  const f = (v: number): number => p0 + ((v - d0) / span) * (p1 - p0);
  return Object.assign(f, { domain: [d0, d1] as const });
}

/**
 * About `count` round tick values (steps of 1, 2 or 5 × 10^k) covering
 * [lo, hi]; the first and last tick enclose the range.
 */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / Math.max(1, count);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * magnitude >= raw) ?? 10) * magnitude;
  const first = Math.floor(lo / step + 1e-9) * step;
  const ticks: number[] = [];
  for (let v = first; v < hi + step - 1e-9 * step; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/** A tick label: as few decimals as the step needs. */
export function tickLabel(value: number, ticks: readonly number[]): string {
  const step = ticks.length > 1 ? Math.abs((ticks[1] as number) - (ticks[0] as number)) : 1;
  const decimals = Math.max(0, Math.min(6, -Math.floor(Math.log10(step) + 1e-9)));
  const label = value.toFixed(decimals);
  // A tick a rounding error below zero is zero, not "-0.00".
  return /^-0(\.0*)?$/.test(label) ? label.slice(1) : label;
}
