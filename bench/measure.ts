import { performance } from 'node:perf_hooks';

/** Runs `fn` `runs` times after one warm-up and returns each run's milliseconds. */
export function timeIt(runs: number, fn: () => unknown): number[] {
  fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return times;
}

export { median } from '../src/stats/median.js';

export function percentile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
}

/** Prints one benchmark's figures as an aligned block. */
export function report(title: string, rows: readonly (readonly string[])[]): void {
  const w0 = Math.max(...rows.map((r) => (r[0] ?? '').length));
  const w1 = Math.max(...rows.map((r) => (r[1] ?? '').length));
  console.log(`\n${title}`);
  for (const r of rows) console.log(`  ${(r[0] ?? '').padEnd(w0)}  ${(r[1] ?? '').padStart(w1)}  ${r[2] ?? ''}`.trimEnd());
}
