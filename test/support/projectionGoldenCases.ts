/**
 * A die's monitor fed throw by throw on many dice, misread bounds, declined reads, reviews and seeds, its whole state
 * (e-values, verdict with its margins and projected rolls, intervals) digested after every throw: a speed-up of the
 * least favourable evidence or the projection must leave every digest unchanged
 * (test/unit/stats/projectionGolden.test.ts). Takes the folder of the sources to run, so the same cases run on the
 * code before a change; the golden values in the test came from commit d42902e (before the speed-up), run from this
 * checkout's folder by:
 *   mkdir /tmp/old && git archive d42902e src | tar -x -C /tmp/old && ln -s "$PWD/node_modules" /tmp/old/node_modules
 *   npx tsx -e "import('./test/support/projectionGoldenCases.ts').then(async (m) => console.log(JSON.stringify(await m.projectionGoldenOutput('/tmp/old/src'), null, 2)))"
 */
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';

export interface ProjectionDigest {
  readonly name: string;
  readonly seed: number;
  /** Throws fed before the die was decided or the case's throws ran out. */
  readonly throws: number;
  /** The last verdict's kind, to read; the digest covers every state. */
  readonly verdict: string;
  /** sha256 of every state after every throw (every number exactly: -0, NaN and infinities as strings), first 16 hex digits. */
  readonly states: string;
}

const D6 = [1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6];
const RED = [3 / 8, 1 / 8, 2 / 8, 2 / 8];
const GREEN = [3 / 8, 2 / 8, 3 / 8];
const D8 = Array<number>(8).fill(1 / 8);
const D3 = [1 / 3, 1 / 3, 1 / 3];

/** A calibration's reads per face: [read, misread]. */
type Calibration = [number, number][];
const D6_CALIBRATION: Calibration = [[200, 1], [200, 0], [180, 2], [200, 0], [210, 0], [190, 3]];
const RED_CALIBRATION: Calibration = [[150, 2], [60, 0], [100, 1], [100, 0]];
const GREEN_CALIBRATION: Calibration = [[120, 0], [80, 1], [120, 3]];
const D8_CALIBRATION: Calibration = [[100, 0], [100, 1], [100, 0], [100, 0], [100, 2], [100, 0], [100, 0], [100, 1]];

/** [name, expected, truth, alpha, delta, calibration, per-face chance a roll is declined, chance a declined roll is reviewed later, throws]. */
type Case = [string, number[], number[], number, number, Calibration | undefined, number[], number, number];
const CASES: Case[] = [
  ['d6 fair, misread bounds, no declines', D6, D6, 0.01, 0.05, D6_CALIBRATION, [0, 0, 0, 0, 0, 0], 0, 250],
  ['d6 fair, misread bounds, declines', D6, D6, 0.05, 0.05, D6_CALIBRATION, [0.02, 0.02, 0.02, 0.02, 0.02, 0.1], 0.5, 250],
  ['d6 fair, declines, no misreads', D6, D6, 0.01, 0.06, undefined, [0.05, 0, 0, 0, 0, 0.05], 0.3, 250],
  ['d6 with a 6 at 0.3, misread bounds, declines', D6, [0.14, 0.14, 0.14, 0.14, 0.14, 0.3], 0.01, 0.05, D6_CALIBRATION, [0.03, 0.03, 0.03, 0.03, 0.03, 0.03], 0.2, 300],
  ['d6 whose 1 is never read', D6, D6, 0.01, 0.05, undefined, [1, 0, 0, 0, 0, 0], 0, 250],
  ['red fair, misread bounds, declines', RED, RED, 0.01, 0.05, RED_CALIBRATION, [0.05, 0.02, 0.02, 0.02], 0.5, 250],
  ['red hitting 0.5, misread bounds', RED, [0.5, 0.1, 0.2, 0.2], 0.05, 0.03, RED_CALIBRATION, [0.01, 0.01, 0.01, 0.01], 0, 250],
  ['green fair, misread bounds, declines', GREEN, GREEN, 0.01, 0.04, GREEN_CALIBRATION, [0.02, 0.05, 0.02], 0.5, 250],
  ['d8 fair, misread bounds, declines', D8, D8, 0.01, 0.06, D8_CALIBRATION, Array<number>(8).fill(0.03), 0.4, 250],
  ['d3 fair at ±0.1, misread bounds, declines', D3, D3, 0.05, 0.1, GREEN_CALIBRATION, [0.03, 0.03, 0.03], 0.5, 600],
  ['d3 loaded, declines, no misreads', D3, [0.4, 0.3, 0.3], 0.05, 0.05, undefined, [0.1, 0.02, 0.02], 0.6, 250],
];

function digestOf(states: readonly unknown[]): string {
  const exact = (_: string, v: unknown) => (typeof v === 'number' && (Object.is(v, -0) || !Number.isFinite(v)) ? `number:${Object.is(v, -0) ? '-0' : String(v)}` : v);
  return createHash('sha256').update(JSON.stringify(states, exact)).digest('hex').slice(0, 16);
}

/** Runs the cases on the sources in `srcDir` (an absolute path). */
export async function projectionGoldenOutput(srcDir: string): Promise<ProjectionDigest[]> {
  const load = (path: string) => import(pathToFileURL(`${srcDir}/${path}`).href);
  const { RobustMonitor } = await load('stats/robustMonitor.ts');
  const { misreadRateBounds } = await load('stats/misreadRate.ts');
  const { seededRandom, cumulativeOf, drawIndex } = await load('stats/random.ts');
  const out: ProjectionDigest[] = [];
  for (const [name, expected, truth, alpha, delta, calibration, declineChance, reviewChance, throws] of CASES) {
    for (const seed of [1, 2, 20260101]) {
      const random = seededRandom(seed);
      const misreadRates = calibration ? misreadRateBounds(calibration.map(([read, misread]) => ({ read, misread }))) : undefined;
      const monitor = new RobustMonitor(expected, { alpha, delta, maxRolls: throws, ...(misreadRates ? { misreadRates } : {}) });
      const cumulative = cumulativeOf(truth);
      const waiting: [number, number][] = [];
      const states: unknown[] = [];
      let thrown = 0;
      while (thrown < throws && !monitor.decided) {
        const face = drawIndex(cumulative, random) as number;
        if (random() < (declineChance[face] as number)) {
          const position = monitor.observeUnresolved() as number;
          if (random() < reviewChance) waiting.push([position, face]);
        } else monitor.observe(face);
        thrown += 1;
        // A person reviews a waiting roll now and then (sometimes unable to tell), as a session's reviews arrive.
        if (waiting.length > 0 && random() < 0.2) {
          const [position, truthFace] = waiting.shift() as [number, number];
          if (random() < 0.2) monitor.cannotTell(position);
          else monitor.review(position, truthFace);
        }
        states.push(monitor.state());
      }
      out.push({ name, seed, throws: thrown, verdict: monitor.verdict().kind, states: digestOf(states) });
    }
  }
  return out;
}
