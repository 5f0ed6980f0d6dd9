/**
 * The plan's simulations on many dice, levels, seeds and targets, as digests a speed-up must leave unchanged
 * (test/unit/stats/planSimulationGolden.test.ts). Takes the folder of the sources to run, so the same cases run on the
 * code before a change; the golden values in the test came from commit c367664 (before planDie.ts), run from this
 * checkout's folder by:
 *   mkdir /tmp/old && git archive c367664 src | tar -x -C /tmp/old && ln -s "$PWD/node_modules" /tmp/old/node_modules
 *   npx tsx -e "import('./test/support/planGoldenCases.ts').then(async (m) => console.log(JSON.stringify(await m.planGoldenOutput('/tmp/old/src'), null, 2)))"
 */
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';

export interface SimulationDigest {
  readonly name: string;
  readonly seed: number;
  /** Dice that reached the other decision first. */
  readonly other: number;
  /** The stopping rolls' median (null: past the cap), to read; the digest covers all of them. */
  readonly median: number | null;
  /** sha256 of the sorted stopping rolls (JSON, Infinity as null), first 16 hex digits. */
  readonly rolls: string;
}

export interface PlanFigures {
  readonly name: string;
  readonly figures: readonly (number | null)[];
}

export interface PlanGolden {
  readonly simulations: SimulationDigest[];
  readonly plans: PlanFigures[];
}

const D6 = [1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6];
const RED = [3 / 8, 1 / 8, 2 / 8, 2 / 8];
const GREEN = [3 / 8, 2 / 8, 3 / 8];
const D8 = Array<number>(8).fill(1 / 8);

/** [name, expected, truth, alpha, dice, delta, target, misread bounds, cap]. */
type Case = [string, number[], number[], number, number, number, 'FAIR_WITHIN' | 'UNFAIR', number[] | undefined, number];
const CASES: Case[] = [
  ['d6 fair, 4 dice at 0.001, ±0.05', D6, D6, 0.001, 4, 0.05, 'FAIR_WITHIN', undefined, 1e8],
  ['d6 fair, 1 die at 0.05, ±0.03', D6, D6, 0.05, 1, 0.03, 'FAIR_WITHIN', undefined, 1e8],
  ['red fair, 4 dice at 0.01, ±0.05', RED, RED, 0.01, 4, 0.05, 'FAIR_WITHIN', undefined, 1e8],
  ['green fair, 30 dice at 0.01, ±0.04', GREEN, GREEN, 0.01, 30, 0.04, 'FAIR_WITHIN', undefined, 1e8],
  ['d8 fair, 2 dice at 0.01, ±0.06', D8, D8, 0.01, 2, 0.06, 'FAIR_WITHIN', undefined, 1e8],
  ['d6 with a 6 at 0.25, UNFAIR', D6, [0.15, 0.15, 0.15, 0.15, 0.15, 0.25], 0.01, 4, 0.05, 'UNFAIR', undefined, 1e8],
  ['red hitting 0.5, UNFAIR', RED, [0.5, 0.1, 0.2, 0.2], 0.05, 1, 0.03, 'UNFAIR', undefined, 1e8],
  ['d6 biased inside the margin (mostly certified first)', D6, [0.17, 0.165, 0.165, 0.165, 0.165, 0.17], 0.01, 4, 0.05, 'UNFAIR', undefined, 1e8],
  ['d6 fair with misread bounds', D6, D6, 0.01, 4, 0.05, 'FAIR_WITHIN', [0.01, 0, 0, 0, 0, 0.02], 1e8],
  ['d6 fair, capped at 1,500 rolls', D6, D6, 0.01, 4, 0.05, 'FAIR_WITHIN', undefined, 1500],
];

function digest(values: readonly number[]): string {
  return createHash('sha256')
    .update(JSON.stringify(values.map((v) => (Number.isFinite(v) ? v : null))))
    .digest('hex')
    .slice(0, 16);
}

/** Runs the cases on the sources in `srcDir` (an absolute path). */
export async function planGoldenOutput(srcDir: string): Promise<PlanGolden> {
  const load = (path: string) => import(pathToFileURL(`${srcDir}/${path}`).href);
  const { sessionStoppingRolls, stoppingQuantile } = await load('stats/planSimulation.ts');
  const { planCertification, planDetection, parseDetectSpec } = await load('analysis/plan.ts');
  const { seededRandom } = await load('stats/random.ts');
  const catalogue = await load('dice/catalogue.ts');
  const simulations: SimulationDigest[] = [];
  for (const [name, expected, truth, alpha, dice, delta, target, misreadRates, cap] of CASES) {
    for (const seed of [1, 2, 20260101]) {
      const stops = sessionStoppingRolls({ expected, truth, alpha, dice, delta, target, runs: 40, cap, random: seededRandom(seed), ...(misreadRates ? { misreadRates } : {}) });
      simulations.push({ name, seed, other: stops.other, median: stoppingQuantile(stops.rolls, 0.5), rolls: digest(stops.rolls) });
    }
  }
  const rig = (dice: number) => ({ channels: 4, secondsPerThrow: 2.5, dice });
  const plans: PlanFigures[] = [];
  const certify: [string, 'symbol' | 'face', number, number, number][] = [
    ['d6', 'symbol', 0.05, 0.001, 4],
    ['red', 'symbol', 0.03, 0.05, 4],
    ['green', 'face', 0.04, 0.01, 2],
    ['d3', 'symbol', 0.05, 0.05, 30],
  ];
  for (const [id, level, delta, alpha, dice] of certify) {
    const p = planCertification(dieOf(catalogue, id), level, delta, alpha, rig(dice));
    plans.push({ name: `certify ${id} by ${level} ±${delta} at ${alpha}, ${dice} dice`, figures: [p.session.median, p.session.likely, p.fixedSample?.median ?? null, p.fixedSample?.likely ?? null, p.exactShares] });
  }
  const detect: [string, string, number][] = [
    ['red', 'hit=0.5', 4],
    ['d6', '6=0.2', 4],
    ['green', 'evade=x1.1', 1],
    ['d3', '3=0.4', 2],
  ];
  for (const [id, spec, dice] of detect) {
    const die = dieOf(catalogue, id);
    const p = planDetection(die, parseDetectSpec(spec, die, 'symbol'), 0.05, 0.8, 0.03, rig(dice));
    plans.push({ name: `detect ${id} ${spec}, ${dice} dice`, figures: [p.session.median, p.session.likely, p.session.certifiedFirst, p.omnibusRolls, p.targetedRolls] });
  }
  return { simulations, plans };
}

function dieOf(catalogue: Record<string, unknown>, id: string): unknown {
  const byId: Record<string, string> = { d6: 'd6Die', red: 'redAttackDie', green: 'greenDefenseDie', d3: 'd3Die' };
  return catalogue[byId[id] as string];
}
