/**
 * Rig effects separated from die effects, for dice rotated across rigs.
 * The counts form a die × rig × face table. A rig that favours a face does so
 * whatever die it rolls; a die that favours a face does so on every rig. So:
 *
 * - rig effect given die: within each die, does the face depend on the rig?
 *   Generalised CMH over dice (strata) of each die's rig × face table; the
 *   stratified G (sum of the per-die likelihood-ratio statistics) is reported
 *   beside it as a check for rig effects that differ from die to die;
 * - which rig: each rig against the others (rig vs rest, CMH over dice), with
 *   per-face standardised deviations that name the face it favours;
 * - a step-down rule over the rig-vs-rest tests that flags rigs
 *   (findBiasedRigs), and dice judged on the rigs left trusted (adjustedDieTests).
 * Why CMH, and why step-down: src/stats/VERDICTS.md, "Rig effects".
 */
import { InputError } from '../core/errors.js';
import { generalizedCmh, type CmhResult } from './cmh.js';
import { gTest } from './goodnessOfFit.js';
import { contingencyTest } from './homogeneity.js';
import { holmAdjust } from './multiplicity.js';
import { unfairWhateverUnresolved } from './intervals.js';
import { differenceWhateverUnresolved, type FaceBound, type VersusRestStratum } from './differenceWhateverUnresolved.js';
import { chiSquareSf } from './special.js';

/** Counts of one die type's dice across rigs: counts[die][rig][face]. */
export interface CampaignCounts {
  readonly dice: readonly string[];
  readonly rigs: readonly string[];
  readonly faces: readonly string[];
  readonly counts: readonly (readonly (readonly number[])[])[];
  /**
   * Rolls of each die on each rig its reader left unresolved (declined, or the die not found) and nobody labelled:
   * unresolved[die][rig]. A reader's declines can depend on the face, so a finding on read rolls stands only if it
   * holds whatever faces these had. Absent: none.
   */
  readonly unresolved?: readonly (readonly number[])[];
}

export interface StratifiedG {
  readonly statistic: number;
  readonly df: number;
  readonly p: number;
  readonly logP: number;
}

export interface FactorEffect {
  /** The decision statistic: generalised CMH, (levels − 1)(faces − 1) df at most. */
  readonly cmh: CmhResult;
  /** Σ over strata of each stratum's G against independence (df = Σ (levels seen − 1)(faces seen − 1)). */
  readonly stratifiedG: StratifiedG;
}

export interface FaceDeviation {
  readonly face: string;
  readonly observed: number;
  readonly expected: number;
  /** (O − E) / sd under "this rig is like the others", summed over dice. */
  readonly z: number;
  /** (O − E) / rolls: how much more often than its dice would show elsewhere. */
  readonly excess: number;
}

export interface RigVersusRest {
  readonly rig: string;
  /** Rolls of this rig on dice that other (compared) rigs also rolled. */
  readonly rolls: number;
  readonly statistic: number;
  readonly df: number;
  readonly p: number;
  readonly logP: number;
  readonly faces: readonly FaceDeviation[];
  /** The face with the largest positive z, if any face is above expectation. */
  readonly favouredFace: string | undefined;
}

export interface RigStep {
  readonly rigsCompared: readonly string[];
  readonly effect: FactorEffect;
  /** The rig flagged at this step (the one furthest from the rest), or none when the rigs agree. */
  readonly flagged: readonly string[];
}

export interface RigFindings {
  readonly alpha: number;
  readonly steps: readonly RigStep[];
  /** Rigs found biased, with the reason in words. */
  readonly biased: readonly { readonly rig: string; readonly reason: string; readonly test: RigVersusRest }[];
  /**
   * A rig whose read rolls differ from the others' but not whatever the unresolved rolls were (the difference could
   * be its reader declining a face): not flagged, and the step-down stops there until the rolls are reviewed.
   */
  readonly unclear: readonly { readonly rig: string; readonly reason: string; readonly unresolved: number }[];
  /** Every rig against all the others, for the report. */
  readonly versusRest: readonly RigVersusRest[];
}

export function validateCampaignCounts(table: CampaignCounts): void {
  if (table.faces.length < 2) throw new InputError('A rig analysis needs dice with at least two faces.');
  if (table.counts.length !== table.dice.length) throw new InputError(`The table has ${table.counts.length} dice of counts for ${table.dice.length} dice.`);
  table.counts.forEach((byRig, d) => {
    if (byRig.length !== table.rigs.length) throw new InputError(`Die ${table.dice[d]} has counts for ${byRig.length} rigs, expected ${table.rigs.length}.`);
    byRig.forEach((row, r) => {
      if (row.length !== table.faces.length) throw new InputError(`Die ${table.dice[d]} on rig ${table.rigs[r]} has ${row.length} face counts, expected ${table.faces.length}.`);
    });
  });
  if (table.unresolved === undefined) return;
  if (table.unresolved.length !== table.dice.length) throw new InputError(`The table has ${table.unresolved.length} dice of unresolved rolls for ${table.dice.length} dice.`);
  table.unresolved.forEach((byRig, d) => {
    if (byRig.length !== table.rigs.length) throw new InputError(`Die ${table.dice[d]} has unresolved rolls for ${byRig.length} rigs, expected ${table.rigs.length}.`);
    byRig.forEach((u, r) => {
      if (!(Number.isInteger(u) && u >= 0)) throw new InputError(`Die ${table.dice[d]} on rig ${table.rigs[r]} has ${u} unresolved rolls; expected a whole number, 0 or more.`);
    });
  });
}

function unresolvedOf(table: CampaignCounts, d: number, r: number): number {
  return (table.unresolved?.[d]?.[r] as number | undefined) ?? 0;
}

/** Each die's 2 × faces table of `rig` against the others in `rigIndices`, with their unresolved rolls. */
function rigStrata(table: CampaignCounts, rig: number, rigIndices: readonly number[]): VersusRestStratum[] {
  const others = rigIndices.filter((r) => r !== rig);
  return table.counts.map((byRig, d) => ({
    mine: byRig[rig] as readonly number[],
    rest: table.faces.map((_, f) => others.reduce((sum, r) => sum + ((byRig[r] as readonly number[])[f] as number), 0)),
    mineUnresolved: unresolvedOf(table, d, rig),
    restUnresolved: others.reduce((sum, r) => sum + unresolvedOf(table, d, r), 0),
  }));
}

/** Does the face depend on the rig once the die is fixed? Rigs limited to `rigIndices` (default all). */
export function rigEffectGivenDie(table: CampaignCounts, rigIndices: readonly number[] = table.rigs.map((_, i) => i)): FactorEffect {
  validateCampaignCounts(table);
  const strata = table.counts.map((byRig) => rigIndices.map((r) => byRig[r] as readonly number[]));
  return factorEffect(strata);
}

/** Does the face depend on the die once the rig is fixed? (Dice differing from each other, whatever the rig.) */
export function dieEffectGivenRig(table: CampaignCounts): FactorEffect {
  validateCampaignCounts(table);
  const strata = table.rigs.map((_, r) => table.counts.map((byRig) => byRig[r] as readonly number[]));
  return factorEffect(strata);
}

function factorEffect(strata: readonly (readonly (readonly number[])[])[]): FactorEffect {
  if (strata.length === 0 || (strata[0] as readonly unknown[]).length === 0) {
    return { cmh: generalizedCmh([[[0]]]), stratifiedG: { statistic: 0, df: 0, p: 1, logP: 0 } };
  }
  return { cmh: generalizedCmh(strata), stratifiedG: stratifiedG(strata) };
}

/** Σ of each stratum's likelihood-ratio G against independence; strata with nothing to compare add nothing. */
export function stratifiedG(strata: readonly (readonly (readonly number[])[])[]): StratifiedG {
  let statistic = 0;
  let df = 0;
  for (const stratum of strata) {
    if (stratum.every((row) => row.every((x) => x === 0))) continue;
    const g = contingencyTest(stratum).g;
    statistic += g.statistic;
    df += g.df;
  }
  if (df === 0) return { statistic: 0, df: 0, p: 1, logP: 0 };
  const tail = chiSquareSf(statistic, df);
  return { statistic, df, p: tail.p, logP: tail.logP };
}

/** One rig against the pooled others among `rigIndices`, within each die (CMH over dice, 2 × faces per die). */
export function rigVersusRest(table: CampaignCounts, rig: number, rigIndices: readonly number[] = table.rigs.map((_, i) => i)): RigVersusRest {
  validateCampaignCounts(table);
  const others = rigIndices.filter((r) => r !== rig);
  const strata = table.counts.map((byRig) => {
    const mine = byRig[rig] as readonly number[];
    const rest = table.faces.map((_, f) => others.reduce((sum, r) => sum + ((byRig[r] as readonly number[])[f] as number), 0));
    return [mine, rest];
  });
  const cmh = generalizedCmh(strata);
  const mineObserved = cmh.observed[0] as number[];
  const rolls = mineObserved.reduce((a, b) => a + b, 0);
  const faces = table.faces.map((face, f) => {
    const observed = mineObserved[f] as number;
    const expected = (cmh.expected[0] as number[])[f] as number;
    const sd = Math.sqrt((cmh.variance[0] as number[])[f] as number);
    return { face, observed, expected, z: sd > 0 ? (observed - expected) / sd : 0, excess: rolls > 0 ? (observed - expected) / rolls : 0 };
  });
  const top = faces.reduce<FaceDeviation | undefined>((best, f) => (f.z > 0 && (best === undefined || f.z > best.z) ? f : best), undefined);
  return { rig: table.rigs[rig] as string, rolls, statistic: cmh.statistic, df: cmh.df, p: cmh.p, logP: cmh.logP, faces, favouredFace: top?.face };
}

/**
 * Flags biased rigs by step-down (Holm's rule over the rigs still compared):
 * test each compared rig against the others (CMH within each die); if the
 * smallest p-value, times the number of rigs compared, is at most `alpha`,
 * flag that rig (the one furthest from the rest), drop it and test the rest
 * again. With two rigs left that disagree, which one is off cannot be told:
 * both are flagged. The omnibus test of all compared rigs (rigEffectGivenDie)
 * is kept with each step as a figure. Rigs never sharing a die with another
 * rig cannot be judged and are left out. A rig whose difference its unresolved rolls could make (or that they could
 * make match another rig) is unclear: taken out, not flagged, and the others compared on at the same level.
 */
export function findBiasedRigs(table: CampaignCounts, alpha: number): RigFindings {
  validateCampaignCounts(table);
  if (!(alpha > 0 && alpha < 1)) throw new InputError(`alpha must be between 0 and 1, got ${alpha}.`);
  const all = table.rigs.map((_, i) => i);
  const versusRest = all.map((r) => rigVersusRest(table, r, all));
  let active = all.filter((r) => (versusRest[r] as RigVersusRest).rolls > 0);
  const steps: RigStep[] = [];
  const biased: { rig: string; reason: string; test: RigVersusRest }[] = [];
  const unclear: { rig: string; reason: string; unresolved: number }[] = [];
  // A rig left unclear is taken out without being found biased: the rigs after it are still tested at the level of
  // the step that took it out (Bonferroni over the rigs compared then), never at a looser one.
  let atLeast = 0;
  while (active.length >= 2) {
    const effect = rigEffectGivenDie(table, active);
    const compared = active.map((r) => table.rigs[r] as string);
    const tests = active.map((r) => ({ r, test: rigVersusRest(table, r, active) })).filter(({ test }) => test.df > 0);
    const worst = tests.reduce<(typeof tests)[number] | undefined>((a, b) => (a === undefined || b.test.logP < a.test.logP ? b : a), undefined);
    // Bonferroni over the rigs compared, in logs so that p-values below 1e-300 still compare.
    const compares = Math.max(active.length, atLeast);
    if (worst === undefined || worst.test.logP + Math.log(compares) > Math.log(alpha)) {
      steps.push({ rigsCompared: compared, effect, flagged: [] });
      break;
    }
    const pAdjusted = Math.min(1, worst.test.p * compares);
    const check = checkWhateverUnresolved(table, worst.r, active, alpha / compares);
    // Against a rest that holds another biased rig, a rig whose reader declined a face can "differ whatever" only
    // through that rig: it is set aside only if it differs, whatever its unresolved rolls were, from every other rig
    // compared on its own too. Else which rig is off is for its unresolved rolls to tell.
    const matched = check.holds && check.unresolved > 0 && active.length > 2 ? active.find((r) => r !== worst.r && !checkWhateverUnresolved(table, worst.r, [worst.r, r], alpha / compares).holds) : undefined;
    const doubt = !check.holds
      ? `could be the faces that make the difference: review them (dicerig review) before setting ${active.length === 2 ? 'either' : 'it'} aside`
      : matched !== undefined
        ? `could make it match rig ${table.rigs[matched]}, so another rig may be the one off: review them (dicerig review) before setting it aside`
        : undefined;
    if (doubt !== undefined) {
      const who = active.length === 2 ? `rigs ${compared.join(' and ')} disagree on their read rolls` : `rig ${worst.test.rig} differs from the other rigs on its read rolls`;
      unclear.push({
        rig: worst.test.rig,
        unresolved: check.unresolved,
        reason: `${who} (p = ${formatP(pAdjusted)}, ${active.length} rigs compared), but the ${check.unresolved} unresolved rolls of the dice compared ${doubt}`,
      });
      steps.push({ rigsCompared: compared, effect, flagged: [] });
      if (active.length === 2) break;
      // The others are still compared among themselves: a biased rig among them is not kept for want of this one's review.
      atLeast = compares;
      active = active.filter((r) => r !== worst.r);
      continue;
    }
    const whatever = check.bound === undefined ? '' : `; ${table.faces[check.bound.face]} ${check.bound.direction === 1 ? 'more' : 'less'} often than on the other rigs whatever the ${check.unresolved} unresolved rolls were`;
    if (active.length === 2) {
      for (const { test } of tests) {
        biased.push({ rig: test.rig, test, reason: `rigs ${compared.join(' and ')} disagree on the same dice (p = ${formatP(pAdjusted)}); with two rigs left, which one is off cannot be told${whatever}` });
      }
      steps.push({ rigsCompared: compared, effect, flagged: compared });
      break;
    }
    const face = worst.test.favouredFace;
    biased.push({
      rig: worst.test.rig,
      test: worst.test,
      reason: `rig ${worst.test.rig} differs from the other rigs on the same dice (p = ${formatP(pAdjusted)}, ${active.length} rigs compared)${face === undefined ? '' : `, favouring ${face}`}${whatever}`,
    });
    steps.push({ rigsCompared: compared, effect, flagged: [worst.test.rig] });
    active = active.filter((r) => r !== worst.r);
  }
  return { alpha, steps, biased, unclear, versusRest };
}

/**
 * Whether `rig`'s difference from the others in `rigIndices` holds at `alpha` whatever their unresolved rolls were
 * (src/stats/differenceWhateverUnresolved.ts). With none, the read rolls are every roll and the rig-vs-rest test stands
 * as it is.
 */
function checkWhateverUnresolved(table: CampaignCounts, rig: number, rigIndices: readonly number[], alpha: number): { unresolved: number; holds: boolean; bound?: FaceBound } {
  const rolled = (xs: readonly number[], u: number): boolean => u > 0 || xs.some((x) => x > 0);
  const strata = rigStrata(table, rig, rigIndices).filter((s) => rolled(s.mine, s.mineUnresolved) && rolled(s.rest, s.restUnresolved));
  const unresolved = strata.reduce((a, s) => a + s.mineUnresolved + s.restUnresolved, 0);
  if (unresolved === 0) return { unresolved, holds: true };
  const bound = differenceWhateverUnresolved(strata, table.faces.length, alpha);
  return { unresolved, holds: bound !== undefined, ...(bound !== undefined ? { bound } : {}) };
}

export interface AdjustedDieTest {
  readonly die: string;
  /** Rolls on the trusted rigs, per face. */
  readonly counts: readonly number[];
  readonly rolls: number;
  readonly g: { readonly statistic: number; readonly df: number; readonly p: number; readonly logP: number };
  /** Holm-adjusted across the dice tested together (`decideDieTests`' family). */
  readonly pHolm: number;
  /** Unfair at alpha after Holm and, when some of its rolls are unresolved, whatever faces they had. */
  readonly unfair: boolean;
  /** Its unresolved rolls on the trusted rigs. */
  readonly unresolved: number;
  /** Its read rolls look unfair (Holm), but its unresolved rolls could be the faces they lack: to be reviewed. */
  readonly reviewFirst: boolean;
}

/** A die's G test on the trusted rigs, before any decision: what `decideDieTests` decides on, with the die's odds. */
export interface TrustedDieTest extends Omit<AdjustedDieTest, 'pHolm' | 'unfair' | 'reviewFirst'> {
  readonly expected: readonly number[];
}

/**
 * Each die's counts on the rigs not in `excludeRigs`, tested against its
 * expected odds (G test). Rolls of a biased rig are left out rather than
 * modelled: what that rig shows is the rig, not the die.
 */
export function trustedDieTests(table: CampaignCounts, expected: readonly number[], excludeRigs: readonly string[]): TrustedDieTest[] {
  validateCampaignCounts(table);
  if (expected.length !== table.faces.length) throw new InputError(`Expected odds have ${expected.length} faces, the table ${table.faces.length}.`);
  const trusted = table.rigs.map((rig, i) => ({ rig, i })).filter(({ rig }) => !excludeRigs.includes(rig));
  return table.counts.map((byRig, d) => {
    const counts = table.faces.map((_, f) => trusted.reduce((sum, { i }) => sum + ((byRig[i] as readonly number[])[f] as number), 0));
    const rolls = counts.reduce((a, b) => a + b, 0);
    const g = rolls > 0 ? gTest(counts, expected) : { statistic: 0, df: 0, p: 1, logP: 0 };
    const unresolved = trusted.reduce((sum, { i }) => sum + unresolvedOf(table, d, i), 0);
    return { die: table.dice[d] as string, counts, rolls, unresolved, expected, g: { statistic: g.statistic, df: g.df, p: g.p, logP: g.logP } };
  });
}

/**
 * The dice's tests decided as one family: Holm across all of them at `alpha` (a campaign's dice of every type
 * together, so that its error rate is alpha however many types it has). A die with unresolved rolls is unfair only
 * if it is whatever faces they had.
 */
export function decideDieTests(tests: readonly TrustedDieTest[], alpha: number): AdjustedDieTest[] {
  const adjusted = tests.length > 0 ? holmAdjust(tests.map((t) => t.g.p)) : [];
  return tests.map(({ expected, ...t }, i) => {
    const onReadRolls = (adjusted[i] as number) <= alpha;
    // As analyze and pool judge a die with unresolved rolls (src/analysis/unresolvedRolls.ts): unfair whatever they were, at its Bonferroni share.
    const holds = t.unresolved === 0 || unfairWhateverUnresolved(t.counts, expected, t.unresolved, alpha / tests.length);
    return { ...t, pHolm: adjusted[i] as number, unfair: onReadRolls && holds, reviewFirst: onReadRolls && !holds };
  });
}

/** One table's dice on the rigs not in `excludeRigs`, Holm across them alone (trustedDieTests, then decideDieTests). */
export function adjustedDieTests(table: CampaignCounts, expected: readonly number[], excludeRigs: readonly string[], alpha: number): AdjustedDieTest[] {
  return decideDieTests(trustedDieTests(table, expected, excludeRigs), alpha);
}

function formatP(p: number): string {
  return p < 1e-4 ? p.toExponential(1) : p.toPrecision(2);
}
