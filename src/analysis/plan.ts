import { symbolIndexOfFace, symbolProbabilities } from '../dice/indexing.js';
import type { DieType } from '../dice/types.js';
import { InputError, LimitError } from '../core/errors.js';
import { alternativeWithGroupAt, collapseToGroup, rollsToDetect } from '../stats/power.js';
import { certifiableMarginLimit, marginsLeft } from '../stats/misreadReach.js';
import { exactShareCertifyRolls, fixedSampleCertifyRolls, sessionStoppingRolls, stoppingQuantile } from '../stats/planSimulation.js';
import { seededRandom, type RandomSource } from '../stats/random.js';
import { sessionLevel, testedLevels, type TestedLevel } from './testedLevels.js';

/** A bias to plan for: the named symbols (or faces) together come up with probability `target`. */
export interface DetectSpec {
  readonly text: string;
  readonly level: 'symbol' | 'face';
  readonly names: readonly string[];
  readonly groupIndices: readonly number[];
  readonly expected: number;
  readonly target: number;
}

/**
 * Parses `hit=0.5`, `hit+crit=0.55`, or a relative change `hit=x1.05` / `hit=+5%`
 * against the die's expected odds. Names are symbols, or face ids at face level.
 */
export function parseDetectSpec(text: string, die: DieType, level: 'symbol' | 'face'): DetectSpec {
  const m = /^\s*([^=]+?)\s*=\s*(.+?)\s*$/.exec(text);
  if (!m) throw new InputError(`--detect "${text}": expected NAME=PROBABILITY, e.g. hit=0.5, hit+crit=0.55, hit=x1.05 or hit=+5%`);
  const names = (m[1] as string).split('+').map((s) => s.trim());
  const known = level === 'face' ? die.faces.map((f) => f.id) : [...die.symbols];
  const probs = level === 'face' ? die.faceProbabilities : symbolProbabilities(die);
  const groupIndices = names.map((n) => {
    const i = known.findIndex((k) => k.toLowerCase() === n.toLowerCase());
    if (i < 0) throw new InputError(`--detect "${text}": "${n}" is not a ${level} of ${die.id} (${known.join(', ')})`);
    return i;
  });
  const expected = groupIndices.reduce((s, i) => s + (probs[i] as number), 0);
  const value = (m[2] as string).replace(/\s/g, '');
  let target: number;
  let factor: number | undefined;
  if (/^x[\d.]+$/i.test(value)) factor = Number(value.slice(1));
  else if (/^[+-][\d.]+%$/.test(value)) factor = 1 + Number(value.slice(0, -1)) / 100;
  const what = names.join('+');
  if (factor !== undefined) {
    // A relative change is a factor on the expected odds: say what is wrong with the factor, not with its product.
    if (!(factor > 0)) throw new InputError(`--detect "${text}": a factor of ${Number(factor.toPrecision(6))} would make ${what} impossible; give a factor above 0 (e.g. x0.9 or -10%)`);
    target = expected * factor;
    if (!(target < 1)) throw new InputError(`--detect "${text}": ${what} at ${Number(factor.toPrecision(6))} times its odds (${Number(expected.toPrecision(6))}) would come up ${Number(target.toPrecision(6))} of the time, not a probability below 1`);
  } else target = Number(value);
  if (!Number.isFinite(target) || target <= 0 || target >= 1) {
    throw new InputError(`--detect "${text}": the target must work out to a probability strictly between 0 and 1 (got ${value})`);
  }
  if (Math.abs(target - expected) < 1e-12) throw new InputError(`--detect "${text}": that is the expected probability (${expected}); name a different one`);
  return { text, level, names, groupIndices, expected, target };
}

export interface RigThroughput {
  /** Dice the rig rolls per throw (channels). */
  readonly channels: number;
  readonly secondsPerThrow: number;
  /** Dice to test in all. */
  readonly dice: number;
}

/** Settings of the simulations a plan runs (the product's own rules on simulated dice; stats/planSimulation.ts). */
export interface PlanSimulation {
  /** Simulated dice per session figure. */
  readonly runs: number;
  /** Simulated files per size tried for a fixed-sample figure (each a single draw of counts: cheap). */
  readonly fixedRuns: number;
  /** A fresh random source, the same stream for every figure (a plan is reproducible). */
  readonly random: () => RandomSource;
}

/** The default: 200 dice a session figure, 1,000 files a fixed-sample one, seeded; about a second for a d6 at the default margin. */
export const DEFAULT_PLAN_SIMULATION: PlanSimulation = { runs: 200, fixedRuns: 1000, random: () => seededRandom(20260101) };

/** The share of simulated dice a session plan's "likely" figure covers: a budget set to it leaves one die in ten undecided. */
export const LIKELY_SHARE = 0.9;
/** Simulated dice stop counting as "in reach" past this many rolls. */
const SIMULATION_CAP = 1e8;
/** A certification whose floor (exact shares) is past this many rolls is not simulated: a plan stays interactive. */
const SIMULATED_FLOOR = 1e7;

/** Rolls per die at which a share of simulated dice reach a decision (null: not within the simulation's cap). */
export interface RollQuantiles {
  /** Half of the dice by then. */
  readonly median: number | null;
  /** `share` of the dice by then. */
  readonly likely: number | null;
  readonly share: number;
  readonly medianHours: number | null;
  readonly likelyHours: number | null;
}

/** analyze's fixed-n figures for one test family: rolls per die for the bias to be found with the power asked. */
export interface FixedSampleDetection {
  /** Tests in analyze's family (dice × levels): the figures are at alpha over them (Holm's first step). */
  readonly tests: number;
  /** The levels analyze tests each die at (`tests` is the dice times their number). */
  readonly levels: readonly TestedLevel[];
  /** The omnibus test over every symbol (face, at face level) rejecting with the power asked. */
  readonly omnibusRolls: number | null;
  /** A 1-df test of the named group against the rest, decided before rolling. */
  readonly targetedRolls: number | null;
  readonly omnibusHours: number | null;
  readonly targetedHours: number | null;
}

/**
 * analyze, fixed n, on a log that records faces (the figures at top level), and, where analyze would test fewer
 * levels, on a log of symbols alone (`symbolsOnly`).
 */
export interface DetectPlan extends FixedSampleDetection {
  readonly spec: DetectSpec;
  /**
   * analyze on a log that records symbols alone (an X-Wing session's export, the one-hot layout): tested by symbol
   * only, so at alpha over fewer tests. Absent where that is the same family, or the plan is by face.
   */
  readonly symbolsOnly?: FixedSampleDetection;
  /**
   * A session: the rolls by which its monitor (e-value at dice/alpha) calls a die with this bias UNFAIR, in a share
   * `power` of simulated dice (`likely`; `median`: half of them); null where fewer reach it, e.g. a bias inside the
   * margin, which the session certifies FAIR_WITHIN first (`certifiedFirst`: the share of dice it did).
   */
  readonly session: RollQuantiles & { readonly certifiedFirst: number; readonly level: TestedLevel };
}

export interface CertifyPlan {
  readonly delta: number;
  readonly level: 'symbol' | 'face';
  /**
   * A session: rolls per die at which its monitor certifies a fair die FAIR_WITHIN(delta) (each die at alpha over the
   * session's dice; read as it falls, with misreads allowed for up to the given bounds): half of simulated fair dice by
   * `median`, 90 % by `likely`. Null figures when out of reach (misread bounds) or past the simulation's cap.
   */
  readonly session: RollQuantiles;
  /** The level the session counts and certifies at (a D3 session certifies each D6 face): `sessionLevel`. */
  readonly sessionLevel: TestedLevel;
  /** analyze on a roll file of fixed size: the size at which a fair die's file is certified with those chances (Goodman intervals at alpha); absent with misread bounds, which analyze does not take. */
  readonly fixedSample?: RollQuantiles;
  /**
   * analyze's rule on a file whose faces come up exactly at their odds: a floor under every figure (a fair die's
   * fluctuations only delay certification, and a session's intervals are wider). Null past 10⁸ rolls.
   */
  readonly exactShares: number | null;
  /** True when the floor is too far to simulate (past 10⁷ rolls): the session and fixed-sample figures are then null. */
  readonly notSimulated?: true;
  /** With misread bounds: the narrowest margin they let a fair die be certified to, however long it rolls. */
  readonly misreadLimit?: number;
  /** True when those bounds leave some face no room within delta: no number of rolls certifies. */
  readonly outOfReach?: true;
}

/** Machine hours to give every die `rolls` rolls: each throw rolls one die per channel. */
export function machineHours(rolls: number, rig: RigThroughput): number {
  const batches = Math.ceil(rig.dice / rig.channels);
  return (batches * rolls * rig.secondsPerThrow) / 3600;
}

function quantiles(median: number | null, likely: number | null, share: number, rig: RigThroughput): RollQuantiles {
  const hours = (n: number | null) => (n === null ? null : machineHours(n, rig));
  return { median, likely, share, medianHours: hours(median), likelyHours: hours(likely) };
}

/**
 * Rolls to detect a stated bias: analyze's fixed-n tests (power from the noncentral chi-square, at alpha over the
 * tests analyze's family holds: testedLevels.ts), and a session's monitor run on simulated dice with that bias
 * (UNFAIR at dice/alpha; FAIR_WITHIN(delta) first is final, so a bias inside the margin is mostly certified instead).
 */
export function planDetection(die: DieType, spec: DetectSpec, alpha: number, power: number, delta: number, rig: RigThroughput, simulation: PlanSimulation = DEFAULT_PLAN_SIMULATION): DetectPlan {
  const probs = spec.level === 'face' ? [...die.faceProbabilities] : symbolProbabilities(die);
  const alternative = alternativeWithGroupAt(probs, spec.groupIndices, spec.target);
  const fixed = (levels: readonly TestedLevel[]) => fixedSampleDetection(probs, alternative, spec, levels, alpha, power, rig);
  // A bias named by face needs a log of faces; one named by symbol is planned for that log too, where analyze tests most.
  const withFaces = testedLevels(die, true);
  const symbolsAlone = testedLevels(die, false);
  // The session counts at its own level: a D3's bias on its 3 is a bias on faces 5 and 6, among six faces.
  const level = sessionLevel(die);
  const counted = atLevel(die, spec.level, level);
  const stops = sessionStoppingRolls({ expected: counted(probs), truth: counted(alternative), alpha, dice: rig.dice, delta, target: 'UNFAIR', runs: simulation.runs, cap: SIMULATION_CAP, random: simulation.random() });
  return {
    spec,
    ...fixed(withFaces),
    ...(spec.level === 'symbol' && symbolsAlone.length !== withFaces.length ? { symbolsOnly: fixed(symbolsAlone) } : {}),
    session: { ...quantiles(stoppingQuantile(stops.rolls, 0.5), stoppingQuantile(stops.rolls, power), power, rig), certifiedFirst: stops.other / simulation.runs, level },
  };
}

/**
 * Odds given at level `from`, as the categories of level `to`: faces summed into their symbols, or a symbol's odds
 * shared among its faces in proportion to the faces' own odds (a bias on a symbol loads each of its faces alike).
 */
function atLevel(die: DieType, from: TestedLevel, to: TestedLevel): (odds: readonly number[]) => number[] {
  if (from === to) return (odds) => [...odds];
  const symbolOf = symbolIndexOfFace(die);
  const symbolOdds = symbolProbabilities(die);
  if (from === 'face') {
    return (odds) => {
      const out = new Array<number>(die.symbols.length).fill(0);
      odds.forEach((p, face) => {
        const symbol = symbolOf[face] as number;
        out[symbol] = (out[symbol] as number) + p;
      });
      return out;
    };
  }
  return (odds) => die.faceProbabilities.map((p, face) => ((odds[symbolOf[face] as number] as number) * p) / (symbolOdds[symbolOf[face] as number] as number));
}

/**
 * analyze adjusts across every die and level (Holm): a lone biased die among fair ones must reach alpha over the
 * tests. Power is the planned level's test alone: analyze also rejects when its other level's test does, so the
 * figure errs, slightly, on the side of more rolls.
 */
function fixedSampleDetection(
  probs: readonly number[],
  alternative: readonly number[],
  spec: DetectSpec,
  levels: readonly TestedLevel[],
  alpha: number,
  power: number,
  rig: RigThroughput,
): FixedSampleDetection {
  const tests = rig.dice * levels.length;
  const omnibusRolls = orNull(() => rollsToDetect({ expected: probs, alternative, alpha: alpha / tests, power }));
  const collapsed = collapseToGroup(probs, alternative, spec.groupIndices);
  const targetedRolls = orNull(() => rollsToDetect({ expected: collapsed.expected, alternative: collapsed.alternative, alpha: alpha / tests, power }));
  const hours = (n: number | null) => (n === null ? null : machineHours(n, rig));
  return { tests, levels, omnibusRolls, targetedRolls, omnibusHours: hours(omnibusRolls), targetedHours: hours(targetedRolls) };
}

/**
 * Rolls to certify FAIR_WITHIN(delta) on a fair die, by the product's own rules run on simulated fair dice:
 * - a session (what `plan` is for, before a run): its monitor, each die at alpha over the session's `rig.dice` dice,
 *   allowing for the misread bounds if given; a fair die's fluctuations, not only the interval's width, set when it
 *   certifies, so the figures are quantiles (half of the dice, and 90 %);
 * - analyze on a file of a size fixed in advance: Goodman intervals at alpha over the dice (as analyze certifies
 *   each of several dice), the size at which a fair die's file certifies with the same chances.
 */
export function planCertification(
  die: DieType,
  level: 'symbol' | 'face',
  delta: number,
  alpha: number,
  rig: RigThroughput,
  misreadRates?: readonly number[],
  simulation: PlanSimulation = DEFAULT_PLAN_SIMULATION,
): CertifyPlan {
  const probs = level === 'face' ? [...die.faceProbabilities] : symbolProbabilities(die);
  // The session certifies at its own level (every face of a D3 within delta of 1/6); analyze's figures at `level`.
  const atSession = sessionLevel(die);
  const sessionProbs = atSession === 'face' ? [...die.faceProbabilities] : symbolProbabilities(die);
  if (misreadRates !== undefined && misreadRates.length !== sessionProbs.length) throw new RangeError(`${misreadRates.length} misread bounds for ${probs.length} ${level}s`);
  const misreads = misreadRates !== undefined ? { misreadLimit: certifiableMarginLimit(sessionProbs, misreadRates) } : {};
  // With misread bounds the session's check (robustIntervals.ts) leaves some face no room within delta: never certified.
  // analyze certifies each die at alpha over the dice analysed together (Bonferroni), as a session does.
  const certifyAlpha = alpha / Math.max(1, rig.dice);
  const exactShares = exactShareCertifyRolls(probs, certifyAlpha, delta, SIMULATION_CAP);
  const none = { delta, level, sessionLevel: atSession, session: quantiles(null, null, LIKELY_SHARE, rig), exactShares, ...misreads };
  if (misreadRates !== undefined && marginsLeft(sessionProbs, misreadRates, delta).some((m) => !(m > 0))) return { ...none, outOfReach: true };
  if (exactShares === null || exactShares > SIMULATED_FLOOR) return { ...none, notSimulated: true };
  const stops = sessionStoppingRolls({
    expected: sessionProbs,
    truth: sessionProbs,
    alpha,
    dice: rig.dice,
    delta,
    ...(misreadRates ? { misreadRates } : {}),
    target: 'FAIR_WITHIN',
    runs: simulation.runs,
    cap: SIMULATION_CAP,
    random: simulation.random(),
  }).rolls;
  const session = quantiles(stoppingQuantile(stops, 0.5), stoppingQuantile(stops, LIKELY_SHARE), LIKELY_SHARE, rig);
  if (misreadRates !== undefined) return { delta, level, sessionLevel: atSession, session, exactShares, ...misreads };
  const [fixedMedian, fixedLikely] = fixedSampleCertifyRolls(probs, certifyAlpha, delta, [0.5, LIKELY_SHARE], simulation.fixedRuns, SIMULATION_CAP, simulation.random) as [number | null, number | null];
  return { delta, level, sessionLevel: atSession, session, exactShares, fixedSample: quantiles(fixedMedian, fixedLikely, LIKELY_SHARE, rig) };
}

function orNull(f: () => number): number | null {
  try {
    return f();
  } catch (e) {
    if (e instanceof LimitError) return null;
    throw e;
  }
}
