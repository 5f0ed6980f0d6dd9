/**
 * Start-up of the `dicerig` command. bin/dicerig.js runs the bundled CLI (dist/cli, scripts/bundle.mjs): one file per
 * command, loaded when the command runs; the list of commands (`--help`) loads none. Beside each figure, the same run
 * of the compiled but unbundled CLI (dist/src/cli/main.js, some 500 files of ours and 900 of packages): the ratio says
 * what the bundle saves.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { median, report } from './measure.js';

const DICERIG = fileURLToPath(new URL('../../bin/dicerig.js', import.meta.url));
const UNBUNDLED = new URL('../src/cli/main.js', import.meta.url).href;
// What bin/dicerig.js does, on the unbundled entry; `dicerig` stands in for the script name in process.argv.
const RUN_UNBUNDLED = `const { main } = await import(${JSON.stringify(UNBUNDLED)}); process.exitCode = await main(process.argv);`;

function startMs(nodeArgs: readonly string[], runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const t0 = performance.now();
    execFileSync(process.execPath, nodeArgs, { stdio: 'ignore' });
    if (i > 0) times.push(performance.now() - t0); // the first run warms the disk cache
  }
  return median(times);
}

export function runCliBench(): void {
  const rows = [['--version'], ['--help'], ['odds', '--max-dice', '2'], ['sessions', '--help'], ['run', '--help']].map((args) => {
    const bundled = startMs([DICERIG, ...args], 5);
    const unbundled = startMs(['--input-type=module', '-e', RUN_UNBUNDLED, 'dicerig', ...args], 5);
    return [args.join(' '), bundled.toFixed(0), `unbundled ${unbundled.toFixed(0)}`, `ratio ${(bundled / unbundled).toFixed(2)}`];
  });
  report('cli: start-up, wall ms (median of 5), bundled (bin/dicerig.js) and the unbundled dist/src', rows);
}
