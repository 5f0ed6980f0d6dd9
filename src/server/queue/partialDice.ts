/**
 * The dice of a roll under way, as the overlay and GET /api/rolls/:id show them: one per die asked, in the order
 * asked. Each is shown before it is thrown (pending, with the channel that will give it) and filled when read; a
 * reroll takes the place of the die it rerolls, saying what that die showed, so the row never holds more dice than
 * the roll has. Each is shown as the kind asked (a D3 from a D6 channel is its numeral 1-3), as the answer shows it.
 */
import type { ThrowAssignment } from '../rolls/channelPlan.js';
import type { DieKind, RolledDie } from '../rolls/dieKinds.js';
import type { PartialDie } from './rollJob.js';

export interface ChannelDie {
  readonly label: string;
  readonly type: string;
}

/**
 * Marks the places these throws will fill as pending, each as its kind (`kinds`, per die asked); returns, per die
 * asked, the symbol of the die it replaces (as its kind shows it).
 */
export function awaitDice(partial: PartialDie[], plans: readonly ThrowAssignment[], places: readonly number[], channels: readonly ChannelDie[], kinds: readonly DieKind[]): (string | undefined)[] {
  const was = places.map((p) => partial[p]?.symbol);
  for (const plan of plans) {
    for (const s of plan.slots) {
      const w = was[s.index];
      const c = channels[s.channel];
      const kind = kinds[s.index] as DieKind;
      partial[places[s.index] as number] = { channel: s.channel, label: c?.label ?? '', type: c?.type ?? '', kind, pending: true, ...(w !== undefined ? { was: w } : {}) };
    }
  }
  return was;
}

/** The die read for one place: `die` as its kind shows it (`asKind`), with the face the channel's die showed. */
export function readDie(partial: PartialDie[], place: number, read: { channel: number; label: string; type: string; faceId?: string }, die: RolledDie, was: string | undefined): void {
  partial[place] = { channel: read.channel, label: read.label, type: read.type, kind: die.kind, symbol: die.symbol, ...(read.faceId !== undefined ? { faceId: read.faceId } : {}), ...(was !== undefined ? { was } : {}) };
}
