import { analyzeDice, analyzeDiceStream } from '../src/analysis/analyze.js';
import { writeParts } from '../src/cli/io.js';
import { analysisJsonParts } from '../src/cli/format/analysisJson.js';
import { analysisTextParts } from '../src/cli/format/analysisText.js';
import { resolveDieRolls } from '../src/analysis/dieRolls.js';
import { builtInDice, redAttackDie } from '../src/dice/catalogue.js';
import { mergeLogs } from '../src/rolllog/mergeLogs.js';
import { parseRollLog } from '../src/rolllog/parseRollLog.js';
import { cumulativeOf, drawIndex, seededRandom } from '../src/stats/random.js';
import { SequentialMonitor } from '../src/stats/sequential.js';
import { performance } from 'node:perf_hooks';
import { median, report, timeIt } from './measure.js';

/**
 * 30 red dice x 20,000 rolls, the size of the largest published X-Wing test, as a CSV in memory; `withSymbol`: with a
 * symbol column beside the face, as an export writes (each face's symbol is checked).
 */
function bigCsv(withSymbol = false): string {
  const random = seededRandom(600_000);
  const cumulative = cumulativeOf(redAttackDie.faceProbabilities);
  const cells = redAttackDie.faces.map((f) => (withSymbol ? `${f.id},${f.symbol}` : f.id));
  const parts: string[] = [withSymbol ? 'throw,die,type,face,symbol' : 'throw,die,type,face'];
  for (let t = 1; t <= 20_000; t++) for (let d = 1; d <= 30; d++) parts.push(`${t},D${d},red,${cells[drawIndex(cumulative, random)]}`);
  return parts.join('\n') + '\n';
}

export function runAnalysisBench(): void {
  const text = bigCsv();
  const layouts = builtInDice.map((d) => ({ typeId: d.id, symbols: d.symbols }));
  const rows = 600_000;

  const parse = timeIt(5, () => parseRollLog(text, { file: 'bench.csv', layouts }));
  const exported = bigCsv(true);
  const parseExport = timeIt(5, () => parseRollLog(exported, { file: 'bench.csv', layouts }));
  const parsed = parseRollLog(text, { file: 'bench.csv', layouts });
  const analyse = timeIt(5, () => analyzeDice(mergeLogs([parsed]).map((l) => resolveDieRolls(l, builtInDice))));
  report('analyze 600,000 rolls (30 dice x 20,000) from CSV', [
    ['parse', `${median(parse).toFixed(0)} ms`, `${((rows / median(parse)) * 1000 / 1e6).toFixed(2)} M rows/s (target >= 1 M rows/s)`],
    ['parse with a symbol column', `${median(parseExport).toFixed(0)} ms`, `${((rows / median(parseExport)) * 1000 / 1e6).toFixed(2)} M rows/s (each face's symbol checked)`],
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

/**
 * `dicerig analyze` of a file of many distinct dice, as the command runs it:
 * parse, resolve, the family's tests, then the report written die by die (text,
 * then --json) to a sink that only counts. CPU time as well as wall time: on a
 * shared machine the wall time of a run this long includes other load.
 * Near-linear means the 200k/20k ratios are near 10 (time) and 1 (heap a die).
 */
export function runManyDiceBench(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  const layouts = builtInDice.map((d) => ({ typeId: d.id, symbols: d.symbols }));
  const rows: string[][] = [];
  const cpu: number[] = [];
  const wall: number[] = [];
  const perDieHeap: number[] = [];
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
  for (const dice of [20_000, 200_000]) {
    let text: string | undefined = manyDiceCsv(dice, 3);
    gc?.();
    const heap0 = process.memoryUsage().heapUsed;
    let peak = heap0;
    let bytes = 0;
    const sink = {
      out: (s: string) => {
        bytes += s.length;
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      },
      err: () => undefined,
      setExitCode: () => undefined,
    };
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const rolls = mergeLogs([parseRollLog(text, { file: 'many.csv', layouts })]).map((l) => resolveDieRolls(l, builtInDice));
    text = undefined;
    const stream = analyzeDiceStream(rolls);
    const headMs = performance.now() - t0;
    writeParts(sink, analysisTextParts(stream, stream.dice()), '\n');
    const textBytes = bytes;
    const ms = performance.now() - t0;
    const cpuMs = cpuMsSince(cpu0);
    const t1 = performance.now();
    const cpu1 = process.cpuUsage();
    writeParts(sink, analysisJsonParts(stream, stream.dice()));
    const jsonMs = performance.now() - t1;
    const jsonCpuMs = cpuMsSince(cpu1);
    gc?.();
    // What stays for the whole report: the coded rolls and each die's level tests.
    const retained = process.memoryUsage().heapUsed - heap0;
    cpu.push(cpuMs);
    wall.push(ms);
    perDieHeap.push(retained / dice);
    const n = dice.toLocaleString('en-US');
    rows.push([
      `${n} dice x 3 rolls, text`,
      `${(ms / 1000).toFixed(1)} s`,
      `CPU ${(cpuMs / 1000).toFixed(1)} s (${((cpuMs * 1000) / dice).toFixed(0)} us a die; tests of the family ${(headMs / 1000).toFixed(1)} s wall), ${mb(textBytes)} written`,
    ]);
    rows.push([`${n} dice, --json`, `${(jsonMs / 1000).toFixed(1)} s`, `CPU ${(jsonCpuMs / 1000).toFixed(1)} s, ${mb(bytes - textBytes)} written`]);
    rows.push([`${n} dice, heap`, `+${mb(retained)}`, `kept for the report (${(retained / dice).toFixed(0)} B a die); peak while writing +${mb(peak - heap0)}`]);
    if (stream.count !== dice) throw new Error(`analysed ${stream.count} dice of ${dice}`);
  }
  const ratio = (xs: number[]) => ((xs[1] as number) / (xs[0] as number)).toFixed(1);
  rows.push(['CPU time 200k / 20k', `${ratio(cpu)}x`, '10x is linear']);
  rows.push(['wall time 200k / 20k', `${ratio(wall)}x`, '10x is linear (other load on the machine adds to it)']);
  rows.push(['heap a die 200k / 20k', `${ratio(perDieHeap)}x`, '1x is linear']);
  report('analyze many distinct dice (labels), as `dicerig analyze` runs it', rows);
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(start);
  return (u.user + u.system) / 1000;
}
