/**
 * A campaign's plan: which dice go to which rig. Each die is cut into legs,
 * one per rig it visits; a leg is one session of that die on that rig, up to
 * `rollsPerLeg` rolls. With rotation (the default from two rigs on) each die
 * visits `legsPerDie` rigs, chosen cyclically (die i on rigs i, i+1, …), so
 * every rig shares dice with the next one and rig effects can be told from
 * die effects (src/stats/rigEffects.ts). Without rotation each die stays on
 * one rig (round robin).
 *
 * What a rig rolls next is decided from what is done, not fixed in advance
 * (`nextDiceDue`): rigs run at different speeds, and a die can only be in one
 * rig at a time.
 */
import { InputError } from '../../core/errors.js';
import type { BoxDie } from './box.js';

export interface CampaignSettings {
  readonly rigs: number;
  /** Dice a rig rolls at once (its channels). */
  readonly channels: number;
  readonly rotate: boolean;
  /** Rigs each die visits when rotating (2..rigs). */
  readonly legsPerDie: number;
  /** Roll budget of one leg (one die's session on one rig). */
  readonly rollsPerLeg: number;
}

export interface Leg {
  readonly label: string;
  readonly die: string;
  /** Rig id, "1".."N". */
  readonly rig: string;
  /** The leg's place in the die's tour (0 first). */
  readonly step: number;
}

export interface CampaignPlan {
  readonly settings: CampaignSettings;
  readonly rigs: readonly string[];
  readonly legs: readonly Leg[];
}

/** Defaults: rotate from two rigs on, each die on two rigs. */
export function campaignSettings(input: { rigs: number; channels: number; rotate?: boolean; legsPerDie?: number; rollsPerLeg: number }): CampaignSettings {
  const { rigs, channels, rollsPerLeg } = input;
  if (!Number.isInteger(rigs) || rigs < 1 || rigs > 100) throw new InputError(`--rigs must be a whole number from 1 to 100, got ${rigs}`);
  if (!Number.isInteger(channels) || channels < 1 || channels > 16) throw new InputError(`--channels must be a whole number from 1 to 16, got ${channels}`);
  if (!Number.isInteger(rollsPerLeg) || rollsPerLeg < 1) throw new InputError(`--rolls must be a positive whole number, got ${rollsPerLeg}`);
  const rotate = input.rotate ?? rigs >= 2;
  if (rotate && rigs < 2) throw new InputError('--rotate needs at least two rigs: a die rotated over one rig tells nothing about the rig');
  // --legs is the rotation's: kept silently, a campaign planned as the user did not ask would be found out only at its report.
  if (!rotate && input.legsPerDie !== undefined && input.legsPerDie !== 1) {
    throw new InputError(
      input.rotate === false
        ? `--legs ${input.legsPerDie} sets how many rigs each die visits when rotating, but --no-rotate keeps each die on one rig: give one or the other`
        : `--legs ${input.legsPerDie} sets how many rigs each die visits when rotating, and with one rig there is no rotating: give --rigs 2 or more`,
    );
  }
  const legsPerDie = rotate ? (input.legsPerDie ?? 2) : 1;
  if (!Number.isInteger(legsPerDie) || legsPerDie < 1 || legsPerDie > rigs) throw new InputError(`--legs must be a whole number from 1 to the number of rigs (${rigs}), got ${legsPerDie}`);
  if (rotate && legsPerDie < 2) throw new InputError('--legs must be at least 2 when rotating: a die rolled on one rig cannot separate rig from die');
  return { rigs, channels, rotate, legsPerDie, rollsPerLeg };
}

export function rigIds(count: number): string[] {
  return Array.from({ length: count }, (_, i) => String(i + 1));
}

export function planCampaign(box: readonly BoxDie[], settings: CampaignSettings): CampaignPlan {
  const rigs = rigIds(settings.rigs);
  const legs: Leg[] = [];
  box.forEach((d, i) => {
    for (let step = 0; step < settings.legsPerDie; step++) {
      legs.push({ label: d.label, die: d.die, rig: rigs[(i + step) % settings.rigs] as string, step });
    }
  });
  return { settings, rigs, legs };
}

export type LegState = 'pending' | 'claimed' | 'done';

/** What is known of a leg now: its state, and the rig that holds its die if the die is claimed anywhere. */
export interface LegProgress {
  readonly leg: Leg;
  readonly state: LegState;
}

/**
 * The dice a rig should roll next: up to `channels` pending legs on this rig
 * whose die is not in another rig now, all of one die type (a session's
 * camera and reader are set up for its dice). Dice further behind in their
 * tour go first, so rotation keeps moving; then plan order.
 */
export function nextDiceDue(progress: readonly LegProgress[], rig: string, channels: number): Leg[] {
  const busy = new Set(progress.filter((p) => p.state === 'claimed').map((p) => p.leg.label));
  const doneLegs = new Map<string, number>();
  for (const p of progress) if (p.state === 'done') doneLegs.set(p.leg.label, (doneLegs.get(p.leg.label) ?? 0) + 1);
  const candidates = progress
    .map((p, order) => ({ ...p, order }))
    .filter((p) => p.state === 'pending' && p.leg.rig === rig && !busy.has(p.leg.label))
    .sort((a, b) => (doneLegs.get(a.leg.label) ?? 0) - (doneLegs.get(b.leg.label) ?? 0) || a.order - b.order);
  const first = candidates[0];
  if (first === undefined) return [];
  const batch: Leg[] = [];
  const labels = new Set<string>();
  for (const c of candidates) {
    if (batch.length >= channels) break;
    if (c.leg.die !== first.leg.die || labels.has(c.leg.label)) continue;
    batch.push(c.leg);
    labels.add(c.leg.label);
  }
  return batch;
}

/**
 * A preview of the campaign in rounds, as if every rig finished a batch in
 * the same time: round by round, each rig's batch from `nextDiceDue`.
 */
export function previewRounds(plan: CampaignPlan): { round: number; rig: string; dice: string[] }[][] {
  const state = new Map<Leg, LegState>(plan.legs.map((l) => [l, 'pending']));
  const rounds: { round: number; rig: string; dice: string[] }[][] = [];
  for (let round = 1; [...state.values()].some((s) => s !== 'done'); round++) {
    const batches: { round: number; rig: string; dice: string[] }[] = [];
    for (const rig of plan.rigs) {
      const legs = nextDiceDue(
        plan.legs.map((leg) => ({ leg, state: state.get(leg) as LegState })),
        rig,
        plan.settings.channels,
      );
      for (const l of legs) state.set(l, 'claimed');
      if (legs.length > 0) batches.push({ round, rig, dice: legs.map((l) => l.label) });
    }
    for (const [leg, s] of state) if (s === 'claimed') state.set(leg, 'done');
    rounds.push(batches);
  }
  return rounds;
}
