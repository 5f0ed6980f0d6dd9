import { analyzeDice } from '../src/analysis/analyze.js';
import { resolveDieRolls } from '../src/analysis/dieRolls.js';
import { builtInDice, redAttackDie } from '../src/dice/catalogue.js';
import { mergeLogs } from '../src/rolllog/mergeLogs.js';
import { parseRollLog } from '../src/rolllog/parseRollLog.js';
import { cumulativeOf, drawIndex, seededRandom } from '../src/stats/random.js';
import { SequentialMonitor } from '../src/stats/sequential.js';
import { performance } from 'node:perf_hooks';
import { median, report, timeIt } from './measure.js';

/** 30 red dice x 20,000 rolls, the size of the largest published X-Wing test, as a CSV in memory. */
function bigCsv(): string {
  const random = seededRandom(600_000);
  const cumulative = cumulativeOf(redAttackDie.faceProbabilities);
  const ids = redAttackDie.faces.map((f) => f.id);
  const parts: string[] = ['throw,die,type,face'];
  for (let t = 1; t <= 20_000; t++) for (let d = 1; d <= 30; d++) parts.push(`${t},D${d},red,${ids[drawIndex(cumulative, random)]}`);
  return parts.join('\n') + '\n';
}

export function runAnalysisBench(): void {
  const text = bigCsv();
  const layouts = builtInDice.map((d) => ({ typeId: d.id, symbols: d.symbols }));
  const rows = 600_000;

  const parse = timeIt(5, () => parseRollLog(text, { file: 'bench.csv', layouts }));
  const parsed = parseRollLog(text, { file: 'bench.csv', layouts });
  const analyse = timeIt(5, () => analyzeDice(mergeLogs([parsed]).map((l) => resolveDieRolls(l, builtInDice))));
  report('analyze 600,000 rolls (30 dice x 20,000) from CSV', [
    ['parse', `${median(parse).toFixed(0)} ms`, `${((rows / median(parse)) * 1000 / 1e6).toFixed(2)} M rows/s (target >= 1 M rows/s)`],
    ['analysis after parsing', `${median(analyse).toFixed(0)} ms`, `${((rows / median(analyse)) * 1000 / 1e6).toFixed(2)} M rolls/s (target well under 1,000 ms)`],
    ['analysis / parse time', `${(median(analyse) / median(parse)).toFixed(2)}x`, ''],
  ]);

  const monitor = new SequentialMonitor([3 / 8, 1 / 8, 2 / 8, 2 / 8]);
  const random = seededRandom(1);
  const cumulative = cumulativeOf([3 / 8, 1 / 8, 2 / 8, 2 / 8]);
  const faces = Uint8Array.from({ length: 1_000_000 }, () => drawIndex(cumulative, random));
  const updates = timeIt(5, () => {
    for (let i = 0; i < faces.length; i++) monitor.observe(faces[i] as number);
  });
  const state = timeIt(5, () => {
    for (let i = 0; i < 1000; i++) monitor.state();
  });
  report('sequential monitor (red die, by symbol)', [
    ['observe one roll', `${((median(updates) * 1e6) / faces.length).toFixed(1)} ns`, ''],
    ['state() with verdict and confidence sequences', `${((median(state) * 1e3) / 1000).toFixed(1)} us`, ''],
  ]);
}

/** A CSV of `dice` distinct d6 labels with `rolls` rolls each (a tournament's whole box of dice, or a hostile file). */
function manyDiceCsv(dice: number, rolls: number): string {
  const random = seededRandom(dice);
  const parts: string[] = ['die,type,face'];
  for (let d = 0; d < dice; d++) for (let r = 0; r < rolls; r++) parts.push(`L${d},d6,${1 + Math.floor(random() * 6)}`);
  return `${parts.join('\n')}\n`;
}

/** Parse, resolve and analyse a file of many distinct dice; time and heap growth. Near-linear means the 200k/20k time ratio is near 10. */
export function runManyDiceBench(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  const layouts = builtInDice.map((d) => ({ typeId: d.id, symbols: d.symbols }));
  const rows: string[][] = [];
  const times: number[] = [];
  for (const dice of [20_000, 200_000]) {
    const text = manyDiceCsv(dice, 3);
    gc?.();
    const heap0 = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const parsed = parseRollLog(text, { file: 'many.csv', layouts });
    const result = analyzeDice(mergeLogs([parsed]).map((l) => resolveDieRolls(l, builtInDice)));
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    // CPU time as well as wall time: on a shared machine the wall time of a run this long includes other load.
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const heapMb = (process.memoryUsage().heapUsed - heap0) / 2 ** 20;
    times.push(cpuMs);
    rows.push([
      `${dice.toLocaleString('en-US')} dice x 3 rolls`,
      `${(ms / 1000).toFixed(1)} s`,
      `CPU ${(cpuMs / 1000).toFixed(1)} s, heap +${heapMb.toFixed(0)} MB, ${((cpuMs * 1000) / dice).toFixed(0)} us CPU a die (${result.dice.length.toLocaleString('en-US')} analysed)`,
    ]);
  }
  rows.push(['CPU time 200k / 20k', `${((times[1] as number) / (times[0] as number)).toFixed(1)}x`, '(10x is linear; the per-type grouping was quadratic: 20k dice took 8.9 s)']);
  report('analyze many distinct dice (labels)', rows);
}
