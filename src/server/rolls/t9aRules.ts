/**
 * The Ninth Age's D6 rules for one real roll, as the odds engine counts them
 * (src/odds/t9a.ts): Maximised Roll rolls an extra die and discards the lowest
 * (Minimised: the highest; each cancels one of the other); a reroll rolls the
 * whole roll again, extra dice included, once, and the second result stands.
 */
export interface T9aRollRule {
  /** Dice added into the roll (1 for an N+ roll). */
  readonly size: number;
  readonly maximised: number;
  readonly minimised: number;
  readonly d3: boolean;
}

/** How many dice one roll tumbles: its own plus one per net Maximised / Minimised. */
export function diceRolled(rule: T9aRollRule): number {
  return rule.size + Math.abs(rule.maximised - rule.minimised);
}

/** The kept total of one roll from its dice' pips, and which dice were kept. */
export function keptTotal(pips: readonly number[], rule: T9aRollRule): { readonly total: number; readonly kept: readonly boolean[] } {
  const net = rule.maximised - rule.minimised;
  const order = pips.map((v, i) => ({ v, i })).sort((a, b) => a.v - b.v || a.i - b.i);
  const keep = net >= 0 ? order.slice(order.length - rule.size) : order.slice(0, rule.size);
  const kept = pips.map(() => false);
  for (const k of keep) kept[k.i] = true;
  const total = keep.reduce((s, k) => s + (rule.d3 ? Math.ceil(k.v / 2) : k.v), 0);
  return { total, kept };
}

/** Whether the rule rerolls a roll with this total. */
export function rerollWanted(total: number, reroll: 'none' | 'failures' | 'successes' | 'ones', target: number | undefined): boolean {
  if (reroll === 'ones') return total === 1;
  if (reroll === 'none' || target === undefined) return false;
  return reroll === 'failures' ? total < target : total >= target;
}
