import { symbolProbabilities } from '../dice/indexing.js';
import type { DieType } from '../dice/types.js';
import { InputError, LimitError } from '../core/errors.js';
import { alternativeWithGroupAt, collapseToGroup, rollsToDetect } from '../stats/power.js';
import { certifiableMarginLimit, marginsLeft } from '../stats/misreadReach.js';
import { chiSquareUpperQuantile } from '../stats/special.js';

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
  if (/^x[\d.]+$/i.test(value)) target = expected * Number(value.slice(1));
  else if (/^[+-][\d.]+%$/.test(value)) target = expected * (1 + Number(value.slice(0, -1)) / 100);
  else target = Number(value);
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

export interface DetectPlan {
  readonly spec: DetectSpec;
  /** Rolls per die for the omnibus test over every symbol/face (what `analyze` runs). */
  readonly omnibusRolls: number | null;
  /** Rolls per die for a 1-df test of the named group against the rest, decided before rolling. */
  readonly targetedRolls: number | null;
  readonly omnibusHours: number | null;
  readonly targetedHours: number | null;
}

export interface CertifyPlan {
  readonly delta: number;
  readonly level: 'symbol' | 'face';
  /**
   * Rolls per die for every simultaneous interval to fit inside expected ± delta, if the die is exactly fair (read as it
   * falls, with misreads allowed for up to the given bounds); null when those bounds keep it out of reach.
   */
  readonly rolls: number | null;
  readonly hours: number | null;
  /** With misread bounds: the narrowest margin they let a fair die be certified to, however long it rolls. */
  readonly misreadLimit?: number;
}

/** Machine hours to give every die `rolls` rolls: each throw rolls one die per channel. */
export function machineHours(rolls: number, rig: RigThroughput): number {
  const batches = Math.ceil(rig.dice / rig.channels);
  return (batches * rolls * rig.secondsPerThrow) / 3600;
}

export function planDetection(die: DieType, spec: DetectSpec, alpha: number, power: number, rig: RigThroughput): DetectPlan {
  const probs = spec.level === 'face' ? [...die.faceProbabilities] : symbolProbabilities(die);
  const alternative = alternativeWithGroupAt(probs, spec.groupIndices, spec.target);
  const omnibusRolls = orNull(() => rollsToDetect({ expected: probs, alternative, alpha, power }));
  const collapsed = collapseToGroup(probs, alternative, spec.groupIndices);
  const targetedRolls = orNull(() => rollsToDetect({ expected: collapsed.expected, alternative: collapsed.alternative, alpha, power }));
  return {
    spec,
    omnibusRolls,
    targetedRolls,
    omnibusHours: omnibusRolls === null ? null : machineHours(omnibusRolls, rig),
    targetedHours: targetedRolls === null ? null : machineHours(targetedRolls, rig),
  };
}

/**
 * Rolls for FAIR_WITHIN(delta) on a fair die: every Goodman interval's half-width
 * z·sqrt(p(1−p)/n) at most delta, with z² the chi-square(1) quantile at alpha/k.
 * An optimistic floor: any real deviation adds to it.
 */
export function planCertification(die: DieType, level: 'symbol' | 'face', delta: number, alpha: number, rig: RigThroughput, misreadRates?: readonly number[]): CertifyPlan {
  const probs = level === 'face' ? [...die.faceProbabilities] : symbolProbabilities(die);
  if (misreadRates !== undefined && misreadRates.length !== probs.length) throw new RangeError(`${misreadRates.length} misread bounds for ${probs.length} ${level}s`);
  const z2 = chiSquareUpperQuantile(alpha / probs.length, 1);
  // With misread bounds the session's check (robustIntervals.ts) leaves each face less than delta of half-width.
  const margins = misreadRates === undefined ? probs.map(() => delta) : marginsLeft(probs, misreadRates, delta);
  const misreads = misreadRates !== undefined ? { misreadLimit: certifiableMarginLimit(probs, misreadRates) } : {};
  if (margins.some((m) => !(m > 0))) return { delta, level, rolls: null, hours: null, ...misreads };
  const rolls = Math.ceil(Math.max(...probs.map((p, i) => (z2 * p * (1 - p)) / (margins[i] as number) ** 2)));
  return { delta, level, rolls, hours: machineHours(rolls, rig), ...misreads };
}

function orNull(f: () => number): number | null {
  try {
    return f();
  } catch (e) {
    if (e instanceof LimitError) return null;
    throw e;
  }
}
