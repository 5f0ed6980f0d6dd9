/**
 * The dice a roll can ask for, and which loaded channels can give them. A die
 * kind is what the rules need (an X-Wing red die, a D6, a D3...); a channel
 * holds one physical die type. A D6 can come from any pip die (a direction die
 * is a D6 with pips), a D3 from a D3 die or a D6 halved.
 */
export type DieKind = 'red' | 'green' | 'd6' | 'd3' | 'direction';
export const DIE_KINDS: readonly DieKind[] = ['red', 'green', 'd6', 'd3', 'direction'];

/** Channel die types that can give each kind, best first. */
export const SOURCES: Readonly<Record<DieKind, readonly string[]>> = {
  red: ['red'],
  green: ['green'],
  d6: ['d6', 'direction'],
  d3: ['d3', 'd6', 'direction'],
  direction: ['direction', 'd6'],
};

/** One die as the rules see it. */
export interface RolledDie {
  readonly kind: DieKind;
  /** X-Wing symbol (hit, crit, focus, blank, evade), or a D6's pips ("1".."6"), or a D3's value ("1".."3"). */
  readonly symbol: string;
  /** Number value for D6, D3 and direction dice. */
  readonly value?: number;
  readonly channel: number;
  readonly label: string;
  /** Which evidence frame shows it (set by whoever rolled it). */
  readonly ref?: string;
}

/** What a channel read means for a kind: a D6 read is its pips, a D3 from a D6 is the pips halved rounded up. */
export function asKind(kind: DieKind, read: { readonly type: string; readonly faceId?: string; readonly symbol: string; readonly channel: number; readonly label: string }): RolledDie {
  const base = { kind, channel: read.channel, label: read.label };
  if (kind === 'red' || kind === 'green') return { ...base, symbol: read.symbol };
  const pips = Number(read.faceId ?? read.symbol);
  if (kind === 'd3') {
    const value = read.type === 'd3' && read.faceId === undefined ? Number(read.symbol) : Math.ceil(pips / 2);
    return { ...base, symbol: String(value), value };
  }
  return { ...base, symbol: String(pips), value: pips };
}

/** "2 red and 2 green" for messages. */
export function describeLoaded(types: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const t of types) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts].map(([t, n]) => `${n} ${t}`).join(', ');
}
