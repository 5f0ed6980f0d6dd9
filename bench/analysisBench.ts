import { analyzeDice } from '../src/analysis/analyze.js';
import { resolveDieRolls } from '../src/analysis/dieRolls.js';
import { builtInDice, redAttackDie } from '../src/dice/catalogue.js';
import { mergeLogs } from '../src/rolllog/mergeLogs.js';
import { parseRollLog } from '../src/rolllog/parseRollLog.js';
import { cumulativeOf, drawIndex, seededRandom } from '../src/stats/random.js';
import { SequentialMonitor } from '../src/stats/sequential.js';
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
