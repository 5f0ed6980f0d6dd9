/**
 * A campaign's one verdict per die: its rolls on the trusted rigs pooled, decided under the campaign's error control
 * (campaignErrorControl.ts), with its legs (its verdict on each rig it visited, as that session made it) as detail.
 * A leg that says otherwise is named, with what the campaign makes of its rig, so that nobody acts on a leg alone;
 * a die every rig of which was set aside is said to have no trusted rig left, not shown as a row of zeros.
 */
import { formatCount, formatProbability, listWords } from '../../core/format.js';
import { symbolProbabilities } from '../../dice/indexing.js';
import type { DieType } from '../../dice/types.js';
import { rigVersusRest, type AdjustedDieTest, type CampaignCounts, type RigFindings } from '../../stats/rigEffects.js';
import { shareWhatever, shareWords } from '../../stats/verdict.js';
import { thresholdWords } from './campaignErrorControl.js';

/** What of the campaign's analysis the verdicts are made from (campaignAnalysis.ts). */
export interface CampaignVerdictInput {
  readonly alpha: number;
  readonly errorControl: { readonly dice: number; readonly rigAlphaPerType: number };
  readonly types: readonly { readonly die: string; readonly counts: CampaignCounts; readonly rigs: RigFindings; readonly dice: readonly AdjustedDieTest[] }[];
  readonly biasedRigs: readonly { readonly rig: string }[];
  readonly legs: readonly { readonly label: string; readonly rig: string; readonly rolls: number; readonly kind: string; readonly sessionKind?: string }[];
}

export interface CampaignDieVerdict {
  readonly label: string;
  /** Its die type. */
  readonly die: string;
  /**
   * UNFAIR (its pooled test rejects under the campaign's error control); INCONCLUSIVE (not shown unfair across
   * the trusted rigs: the pooled test certifies no margin); RIG_SUSPECT (every rig that rolled it was set aside);
   * PENDING (nothing of it synced yet).
   */
  readonly kind: 'UNFAIR' | 'INCONCLUSIVE' | 'RIG_SUSPECT' | 'PENDING';
  readonly sentence: string;
  /** The trusted rigs whose rolls it pools. */
  readonly rigs: readonly string[];
  readonly rolls: number;
  readonly unresolved: number;
  /** Holm over every die of the box; null with no rolls. */
  readonly pHolm: number | null;
  /** Each leg whose own verdict says otherwise, and what the campaign makes of it. */
  readonly disagreements: readonly string[];
}

export function campaignDieVerdicts(a: CampaignVerdictInput, types: ReadonlyMap<string, DieType>): CampaignDieVerdict[] {
  const flagged = new Set(a.biasedRigs.map((b) => b.rig));
  return a.types.flatMap((t) => t.dice.map((d, i) => dieVerdict(a, t, d, i, flagged, types.get(t.die))));
}

function dieVerdict(a: CampaignVerdictInput, t: CampaignVerdictInput['types'][number], d: AdjustedDieTest, index: number, flagged: ReadonlySet<string>, type: DieType | undefined): CampaignDieVerdict {
  const byRig = t.counts.counts[index] ?? [];
  const rolledOn = (r: number): boolean => (byRig[r] ?? []).some((x) => x > 0) || (t.counts.unresolved?.[index]?.[r] ?? 0) > 0;
  const rigs = t.counts.rigs.filter((rig, r) => !flagged.has(rig) && rolledOn(r));
  const setAside = t.counts.rigs.filter((rig, r) => flagged.has(rig) && rolledOn(r));
  const legs = a.legs.filter((l) => l.label === d.die);
  const base = { label: d.die, die: t.die, rigs, rolls: d.rolls, unresolved: d.unresolved };
  const held = `p = ${pWords(d.pHolm)}, Holm over the ${a.errorControl.dice} dice of the box`;
  const across = rigs.length === 1 ? `on its one trusted rig, rig ${rigs[0] as string}` : `across rigs ${listWords(rigs)}`;
  if (d.rolls === 0 && d.unresolved === 0) {
    if (setAside.length > 0) {
      const which = setAside.length === 1 ? `rig ${setAside[0] as string}, the only rig that rolled it, was` : `rigs ${listWords(setAside)}, every rig that rolled it, were`;
      const leftOut = legs.flatMap((l) => disagreement(l, 'RIG_SUSPECT', '', t, a.errorControl.rigAlphaPerType, flagged));
      return { ...base, kind: 'RIG_SUSPECT', pHolm: null, disagreements: leftOut, sentence: `RIG_SUSPECT: no trusted rig left for this die: ${which} found biased, so no verdict on the die itself; roll it on a rig not found biased.` };
    }
    return { ...base, kind: 'PENDING', pHolm: null, disagreements: [], sentence: 'PENDING: none of its rolls is in the fleet store yet.' };
  }
  let kind: CampaignDieVerdict['kind'];
  let sentence: string;
  if (d.unfair) {
    kind = 'UNFAIR';
    sentence = `UNFAIR ${across}: ${leadingFace(t.counts.faces, d.counts, type, d.unresolved)} (G test, ${held}, at most ${thresholdWords(a.alpha)}).`;
  } else if (d.reviewFirst) {
    kind = 'INCONCLUSIVE';
    sentence = `INCONCLUSIVE: unfair ${across} on its read rolls (${held}), but not whatever its ${formatCount(d.unresolved)} unresolved rolls were: review them (dicerig review), then sync.`;
  } else {
    kind = 'INCONCLUSIVE';
    sentence = `INCONCLUSIVE: not shown unfair ${across} (${held}; UNFAIR needs at most ${thresholdWords(a.alpha)}); no margin is certified.`;
  }
  const set = setAside.length > 0 ? ` Its rolls on rig${setAside.length === 1 ? '' : 's'} ${listWords(setAside)} are left out: found biased.` : '';
  return { ...base, kind, pHolm: d.pHolm, sentence: `${sentence}${set}`, disagreements: legs.flatMap((l) => disagreement(l, kind, across, t, a.errorControl.rigAlphaPerType, flagged)) };
}

/** What a leg says that its die's campaign verdict does not, and what the campaign makes of its rig (none when they agree). */
function disagreement(
  leg: CampaignVerdictInput['legs'][number],
  kind: CampaignDieVerdict['kind'],
  across: string,
  t: CampaignVerdictInput['types'][number],
  rigAlpha: number,
  flagged: ReadonlySet<string>,
): string[] {
  if (flagged.has(leg.rig)) {
    const said = leg.sessionKind;
    return said === 'UNFAIR' || said === 'FAIR_WITHIN' ? [`rig ${leg.rig}'s leg is left out: its session said ${said}, but rig ${leg.rig} was found biased.`] : [];
  }
  const contradicts = (leg.kind === 'UNFAIR' && kind === 'INCONCLUSIVE') || (leg.kind === 'FAIR_WITHIN' && kind === 'UNFAIR');
  if (!contradicts) return [];
  const campaign = `${across} the die is ${kind === 'UNFAIR' ? 'UNFAIR' : 'not shown unfair'}`;
  return [`rig ${leg.rig}'s leg alone says ${leg.kind} (its session's verdict, at that session's α); ${campaign}.${rigWords(leg.rig, t, rigAlpha, flagged)}`];
}

/**
 * How the rig compares with the other trusted rigs on this die type's dice (a rig set aside is left out of "the
 * others", as the step-down leaves it out), and why it was not set aside when that comparison is the one the
 * step-down judged it by.
 */
function rigWords(rig: string, t: CampaignVerdictInput['types'][number], rigAlpha: number, flagged: ReadonlySet<string>): string {
  const table = t.counts;
  const rolled = (r: number): boolean => table.counts.some((byRig) => (byRig[r] ?? []).some((x) => x > 0));
  const trusted = table.rigs.map((_, r) => r).filter((r) => !flagged.has(table.rigs[r] as string) && rolled(r));
  const index = table.rigs.indexOf(rig);
  if (index < 0 || trusted.length < 2 || !trusted.includes(index)) return '';
  const test = rigVersusRest(table, index, trusted);
  if (test.df === 0) return '';
  const last = t.rigs.steps[t.rigs.steps.length - 1];
  const judged = last !== undefined && last.flagged.length === 0 && last.rigsCompared.length === trusted.length && trusted.every((r) => last.rigsCompared.includes(table.rigs[r] as string));
  const why = judged ? `; not set aside: that needs p × ${trusted.length} rigs ≤ ${thresholdWords(rigAlpha)}` : '';
  const p = `p = ${pWords(test.p)} against the other ${trusted.length === 2 ? 'trusted rig' : 'trusted rigs'}${why}`;
  return test.favouredFace !== undefined ? ` Rig ${rig} may favour ${test.favouredFace} (${p}).` : ` Rig ${rig}: ${p}.`;
}

/**
 * The face furthest from its odds on the pooled rolls, as a verdict sentence says it: with unresolved rolls, furthest
 * whatever they were, its share as the range it spans over all the rolls (verdict.ts), not of the read ones alone.
 */
function leadingFace(faces: readonly string[], counts: readonly number[], type: DieType | undefined, unresolved: number): string {
  const read = counts.reduce((x, y) => x + y, 0);
  const n = read + unresolved;
  const expected = type !== undefined ? symbolProbabilities(type) : faces.map(() => 1 / faces.length);
  const face = (f: number) => ({ count: counts[f] as number, observed: (counts[f] as number) / read, expected: expected[f] as number });
  // How far outside its range the face's odds are (negative: inside; with no unresolved rolls, |share - odds|).
  const off = (f: number) => {
    const { low, high } = shareWhatever(face(f), n, unresolved);
    return Math.max(low - (expected[f] as number), (expected[f] as number) - high);
  };
  let best = 0;
  for (let f = 1; f < faces.length; f++) if (off(f) > off(best)) best = f;
  return `${faces[best] as string} comes up ${shareWords(face(best), n, unresolved)} instead of ${formatProbability(expected[best] as number)} over ${formatCount(n)} rolls`;
}

function pWords(p: number): string {
  return p < 1e-4 ? p.toExponential(1) : p.toPrecision(2);
}
