/**
 * Which loaded channel gives which die of a roll. The rig tumbles every
 * channel together, so a roll needing more dice of a kind than there are
 * channels for it takes several throws; each throw reads only the channels it
 * uses. A kind no loaded die can give is refused before anything moves.
 */
import { SOURCES, describeLoaded, type DieKind } from './dieKinds.js';

export interface ThrowAssignment {
  /** For each die of the roll given in this throw: its index in the request and its channel. */
  readonly slots: readonly { readonly index: number; readonly channel: number }[];
}

/** Why the loaded dice cannot give these kinds, or undefined when they can. */
export function refusal(kinds: Iterable<DieKind>, channelTypes: readonly string[]): string | undefined {
  for (const kind of kinds) {
    if (!channelTypes.some((t) => SOURCES[kind].includes(t))) {
      const from = SOURCES[kind].join(' or ');
      return `no ${from} die is loaded for the ${kind} dice asked for (the rig holds ${describeLoaded(channelTypes)})`;
    }
  }
  return undefined;
}

/** Splits the dice into throws: each throw gives as many as free channels allow, kinds with fewer sources served first. */
export function planThrows(kinds: readonly DieKind[], channelTypes: readonly string[]): ThrowAssignment[] {
  const why = refusal(new Set(kinds), channelTypes);
  if (why !== undefined) throw new Error(why);
  const sources = (k: DieKind): number => channelTypes.filter((t) => SOURCES[k].includes(t)).length;
  let pending = kinds.map((kind, index) => ({ kind, index })).sort((a, b) => sources(a.kind) - sources(b.kind) || a.index - b.index);
  const throws: ThrowAssignment[] = [];
  while (pending.length > 0) {
    const free = new Set(channelTypes.map((_, c) => c));
    const slots: { index: number; channel: number }[] = [];
    const left: typeof pending = [];
    for (const p of pending) {
      let channel: number | undefined;
      for (const type of SOURCES[p.kind]) {
        channel = [...free].find((c) => channelTypes[c] === type);
        if (channel !== undefined) break;
      }
      if (channel === undefined) left.push(p);
      else {
        free.delete(channel);
        slots.push({ index: p.index, channel });
      }
    }
    throws.push({ slots });
    pending = left;
  }
  return throws;
}
