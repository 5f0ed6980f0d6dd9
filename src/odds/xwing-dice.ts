import { greenDefenseDie, redAttackDie } from '../dice/catalogue.js';
import { LimitError } from '../core/errors.js';
import { Distribution } from './distribution.js';
import type { OutcomeKey } from './distribution.js';
import { oddsForSymbols } from './exact-die.js';
import type { Rational } from '../core/rational.js';

/**
 * X-Wing attack and defense pools with the common modifiers, as exact
 * distributions. A die is rerolled at most once; rerolls happen before tokens
 * are spent, as in the game's modify-dice step.
 */

export type RedSymbol = 'hit' | 'crit' | 'focus' | 'blank';
export type GreenSymbol = 'evade' | 'focus' | 'blank';

/** Exact odds of each symbol on one die. */
export type RedOdds = Readonly<Record<RedSymbol, Rational>>;
export type GreenOdds = Readonly<Record<GreenSymbol, Rational>>;

export const RED_SYMBOLS: readonly RedSymbol[] = ['hit', 'crit', 'focus', 'blank'];
export const GREEN_SYMBOLS: readonly GreenSymbol[] = ['evade', 'focus', 'blank'];

/**
 * Attack modifiers:
 * - `none`: results as rolled;
 * - `focus`: a focus token turns every focus result into a hit;
 * - `force`: one force charge turns one focus result into a hit;
 * - `lock`: a target lock rerolls blanks and, having no focus token, focus results;
 * - `focus+lock`: reroll blanks with the lock, then spend focus on every focus result.
 */
export type AttackModifier = 'none' | 'focus' | 'force' | 'lock' | 'focus+lock';
export const ATTACK_MODIFIERS: readonly AttackModifier[] = ['none', 'focus', 'force', 'lock', 'focus+lock'];

/** Defense modifiers: `focus` turns every focus into an evade, `force` one focus into an evade. */
export type DefenseModifier = 'none' | 'focus' | 'force';
export const DEFENSE_MODIFIERS: readonly DefenseModifier[] = ['none', 'focus', 'force'];

/** Hits and crits left on the attack dice. */
export interface AttackResult {
  readonly hits: number;
  readonly crits: number;
}

export const attackKey: OutcomeKey<AttackResult> = (r) => `${r.hits}:${r.crits}`;
const symbolKey = (s: string): string => s;

/** Largest pool the exact tables accept; the state space grows as n^3, and no game rolls more. */
export const MAX_POOL = 30;

/** The catalogue's red die odds: hit 3/8, crit 1/8, focus 1/4, blank 1/4. */
export function defaultRedOdds(): RedOdds {
  return oddsForSymbols(redAttackDie, RED_SYMBOLS);
}

/** The catalogue's green die odds: evade 3/8, focus 1/4, blank 3/8. */
export function defaultGreenOdds(): GreenOdds {
  return oddsForSymbols(greenDefenseDie, GREEN_SYMBOLS);
}

function oneDie<S extends string>(odds: Readonly<Record<S, Rational>>, symbols: readonly S[]): Distribution<S> {
  return Distribution.of(
    symbols.map((s) => ({ outcome: s, probability: odds[s] })),
    symbolKey,
  );
}

/** Distribution of a summary of how many of n dice show each symbol (multinomial, order never enumerated). */
function tally<S extends string, C>(die: Distribution<S>, n: number, summary: (bySymbol: Partial<Record<S, number>>) => C, key: OutcomeKey<C>): Distribution<C> {
  const symbols = die.support.map((e) => e.outcome);
  return die.counts(n).map((counts) => {
    const bySymbol: Partial<Record<S, number>> = {};
    symbols.forEach((s, i) => (bySymbol[s] = counts[i] ?? 0));
    return summary(bySymbol);
  }, key);
}

function checkPool(n: number, what: string): void {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`The number of ${what} dice must be a whole number >= 0, not ${n}.`);
  if (n > MAX_POOL) throw new LimitError(`Exact odds are computed for at most ${MAX_POOL} ${what} dice, not ${n}.`);
}

/** Distribution of (hits, crits) for n red dice after the modifier. */
export function attackPool(n: number, modifier: AttackModifier = 'none', odds: RedOdds = defaultRedOdds()): Distribution<AttackResult> {
  checkPool(n, 'attack');
  let die = oneDie(odds, RED_SYMBOLS);
  if (modifier === 'lock') die = die.rerollOnce((s) => s === 'blank' || s === 'focus');
  if (modifier === 'focus+lock') die = die.rerollOnce((s) => s === 'blank');
  // Count focus results too: a force charge converts only one of them, so it is not a per-die rule.
  const counts = tally(die, n, (c) => ({ hits: c.hit ?? 0, crits: c.crit ?? 0, focus: c.focus ?? 0 }), (c) => `${c.hits}:${c.crits}:${c.focus}`);
  const converted = (focus: number): number => (modifier === 'focus' || modifier === 'focus+lock' ? focus : modifier === 'force' ? Math.min(1, focus) : 0);
  return counts.map((c) => ({ hits: c.hits + converted(c.focus), crits: c.crits }), attackKey);
}

/** Distribution of evades for n green dice after the modifier. */
export function defensePool(n: number, modifier: DefenseModifier = 'none', odds: GreenOdds = defaultGreenOdds()): Distribution<number> {
  checkPool(n, 'defense');
  const counts = tally(oneDie(odds, GREEN_SYMBOLS), n, (c) => ({ evades: c.evade ?? 0, focus: c.focus ?? 0 }), (c) => `${c.evades}:${c.focus}`);
  const converted = (focus: number): number => (modifier === 'focus' ? focus : modifier === 'force' ? Math.min(1, focus) : 0);
  return counts.map((c) => c.evades + converted(c.focus), String);
}

/** Exact expected hits + crits of n red dice with a modifier. */
export function expectedDamage(n: number, modifier: AttackModifier = 'none', odds?: RedOdds): Rational {
  return attackPool(n, modifier, odds).expectation((r) => r.hits + r.crits);
}

/** Exact expected evades of n green dice with a modifier. */
export function expectedEvades(n: number, modifier: DefenseModifier = 'none', odds?: GreenOdds): Rational {
  return defensePool(n, modifier, odds).expectation((e) => e);
}
