/**
 * Start-up of the `dicerig` command: each run loads only the file of the command it names (src/cli/commands/index.ts).
 * `--help` loads every command, as every run did before; the ratios say what naming one saves.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { median, report } from './measure.js';

const DICERIG = fileURLToPath(new URL('../../bin/dicerig.js', import.meta.url));

function startMs(args: readonly string[], runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const t0 = performance.now();
    execFileSync(process.execPath, [DICERIG, ...args], { stdio: 'ignore' });
    if (i > 0) times.push(performance.now() - t0); // the first run warms the disk cache
  }
  return median(times);
}

export function runCliBench(): void {
  const all = startMs(['--help'], 5);
  const rows = [
    ['--version', startMs(['--version'], 5)],
    ['odds --max-dice 2', startMs(['odds', '--max-dice', '2'], 5)],
    ['sessions --help', startMs(['sessions', '--help'], 5)],
    ['run --help', startMs(['run', '--help'], 5)],
  ] as const;
  report('cli: start-up, wall ms (median of 5; --help loads every command)', [
    ['--help', all.toFixed(0), 'ratio 1.00'],
    ...rows.map(([name, ms]) => [name, ms.toFixed(0), `ratio ${(ms / all).toFixed(2)}`]),
  ]);
}
