/**
 * The dice of a roll under way, as the overlay and GET /api/rolls/:id show them: one per die asked, in the order
 * asked. Each is shown before it is thrown (pending, with the channel that will give it) and filled when read; a
 * reroll takes the place of the die it rerolls, saying what that die showed, so the row never holds more dice than
 * the roll has.
 */
import type { ThrowAssignment } from '../rolls/channelPlan.js';
import type { PartialDie } from './rollJob.js';

export interface ChannelDie {
  readonly label: string;
  readonly type: string;
}

/** Marks the places these throws will fill as pending; returns, per die asked, the symbol of the die it replaces. */
export function awaitDice(partial: PartialDie[], plans: readonly ThrowAssignment[], places: readonly number[], channels: readonly ChannelDie[]): (string | undefined)[] {
  const was = places.map((p) => partial[p]?.symbol);
  for (const plan of plans) {
    for (const s of plan.slots) {
      const w = was[s.index];
      const c = channels[s.channel];
      partial[places[s.index] as number] = { channel: s.channel, label: c?.label ?? '', type: c?.type ?? '', pending: true, ...(w !== undefined ? { was: w } : {}) };
    }
  }
  return was;
}

/** The die read for one place. */
export function readDie(partial: PartialDie[], place: number, read: { channel: number; label: string; type: string; symbol: string; faceId?: string }, was: string | undefined): void {
  partial[place] = { channel: read.channel, label: read.label, type: read.type, symbol: read.symbol, ...(read.faceId !== undefined ? { faceId: read.faceId } : {}), ...(was !== undefined ? { was } : {}) };
}
