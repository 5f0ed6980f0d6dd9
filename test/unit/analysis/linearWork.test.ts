import { Session } from 'node:inspector/promises';
import { setFlagsFromString } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeDiceStream } from '../../../src/analysis/analyze.js';
import { resolveDieRolls } from '../../../src/analysis/dieRolls.js';
import { analysisJsonParts } from '../../../src/cli/format/analysisJson.js';
import { analysisTextParts } from '../../../src/cli/format/analysisText.js';
import { builtInDice } from '../../../src/dice/catalogue.js';
import { mergeLogs } from '../../../src/rolllog/mergeLogs.js';
import { parseRollLog } from '../../../src/rolllog/parseRollLog.js';

/**
 * Work, not time: V8's precise coverage counts every call of every function and
 * every run of every block (loop bodies included), exactly and the same on a
 * loaded machine. `dicerig analyze` of ten times the dice must do about ten
 * times the work in every one of our functions (n log n, e.g. sorting the
 * family for Holm, is ~16x here; quadratic would be 100x). Work inside
 * built-ins (an array spread, a string join) is not counted.
 */

const layouts = builtInDice.map((d) => ({ typeId: d.id, symbols: d.symbols }));

/** `dice` labels of d6s and d3s with a few rolls each, as in a tournament's box of dice (or a hostile file). */
function manyDice(dice: number): string {
  const rows = ['die,type,face'];
  for (let d = 0; d < dice; d++) {
    const sides = d % 3 === 0 ? 3 : 6;
    for (let r = 0; r < 3; r++) rows.push(`L${d},${sides === 3 ? 'd3' : 'd6'},${1 + ((d * 7 + r * (d % 5 + 1)) % sides)}`);
  }
  return `${rows.join('\n')}\n`;
}

/** Parse, analyse and write both reports, as the command does; the characters written. */
function analyzeAndWrite(dice: number, multiplicity: 'holm' | 'bh'): number {
  const rolls = mergeLogs([parseRollLog(manyDice(dice), { file: 'many.csv', layouts })]).map((l) => resolveDieRolls(l, builtInDice));
  const stream = analyzeDiceStream(rolls, { multiplicity });
  let chars = 0;
  for (const part of analysisTextParts(stream, stream.dice())) chars += part.length;
  for (const part of analysisJsonParts(stream, stream.dice())) chars += part.length;
  return chars;
}

interface Coverage {
  result: { url: string; functions: { functionName: string; ranges: { startOffset: number; count: number }[] }[] }[];
}

/** Calls plus block runs of each function of src/, keyed by file, name and place. */
async function workSince(session: Session): Promise<Map<string, number>> {
  const { result } = (await session.post('Profiler.takePreciseCoverage')) as Coverage;
  const work = new Map<string, number>();
  for (const script of result) {
    if (!script.url.includes('/src/') || script.url.includes('node_modules')) continue;
    for (const f of script.functions) {
      const key = `${script.url.slice(script.url.indexOf('/src/'))} ${f.functionName || '(anonymous)'}@${f.ranges[0]?.startOffset ?? 0}`;
      work.set(key, (work.get(key) ?? 0) + f.ranges.reduce((s, r) => s + r.count, 0));
    }
  }
  return work;
}

const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

describe('analysing many dice does near-linear work', () => {
  // One coverage session for both tests: counters are exact only for code compiled while it is on.
  const session = new Session();
  beforeAll(async () => {
    // Optimised code does not count calls: a function the Holm test made hot ran uncounted through the BH test's
    // small run (0 calls, then 2,001 in the large one), now and then, as tiering's timing fell. Without the
    // optimising compilers every call is counted (standalone, that run failed 5 times of 5 with them, 0 of 3 without).
    setFlagsFromString('--no-opt');
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  });
  afterAll(async () => {
    await session.post('Profiler.stopPreciseCoverage');
    session.disconnect();
  });

  for (const multiplicity of ['holm', 'bh'] as const) {
    it(`ten times the dice cost about ten times the work in every function, reports included (${multiplicity})`, async () => {
      {
        analyzeAndWrite(30, multiplicity); // compile everything first
        await workSince(session);
        // 30 and 300 dice: unoptimised (beforeAll), 100 and 1,000 took twice as long as they did optimised, and 60 and 600
        // half as long again as these. Every die adds the same work (a few rolls, its own tests), some 28,000 counts, so
        // the ratio is no nearer its bounds at this size (10.2 at 60 and 600); a quadratic function still grows 100x.
        const n = 30;
        analyzeAndWrite(n, multiplicity);
        const small = await workSince(session);
        analyzeAndWrite(10 * n, multiplicity);
        const large = await workSince(session);

        expect(total(small)).toBeGreaterThan(1000 * n); // the counter sees the analysis at all
        const ratio = total(large) / total(small);
        console.log(multiplicity, total(small), total(large), ratio);
        expect(ratio).toBeGreaterThan(8);
        expect(ratio).toBeLessThan(12);
        // Per function: up to n log n (16x here), with a little room for work that does not grow at all.
        const superlinear = [...large]
          .filter(([key, w]) => w > 20 * (small.get(key) ?? 0) + 100)
          .map(([key, w]) => `${key}: ${small.get(key) ?? 0} -> ${w}`);
        expect(superlinear).toEqual([]);
      }
    }, 120_000);
  }
});
