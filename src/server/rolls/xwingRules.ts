/**
 * X-Wing's modify-dice step for one real roll, die by die, with the odds
 * engine's rules (src/odds/xwing-dice.ts): a target lock rerolls blanks and,
 * without a focus token, focus results, each die at most once and before tokens
 * are spent; focus turns every focus into a hit (attack) or an evade
 * (defense); a force charge turns one. Evades cancel hits first, then crits
 * (the engine's `cancel`).
 */
import type { AttackModifier, AttackResult, DefenseModifier } from '../../odds/xwing-dice.js';
import { cancel } from '../../odds/xwing-combat.js';

export { cancel };

export function attackModifier(a: { readonly focus: boolean; readonly lock: boolean; readonly force: boolean }): AttackModifier {
  if (a.focus && a.lock) return 'focus+lock';
  if (a.lock) return 'lock';
  if (a.focus) return 'focus';
  return a.force ? 'force' : 'none';
}

export function defenseModifier(d: { readonly focus: boolean; readonly force: boolean } | undefined): DefenseModifier {
  if (d?.focus) return 'focus';
  return d?.force ? 'force' : 'none';
}

/** Whether a red die showing `symbol` is rerolled by the modifier's target lock. */
export function lockRerolls(symbol: string, modifier: AttackModifier): boolean {
  if (modifier === 'lock') return symbol === 'blank' || symbol === 'focus';
  if (modifier === 'focus+lock') return symbol === 'blank';
  return false;
}

/** The attack dice after tokens: each die's final symbol and the hits and crits. */
export function modifyAttack(symbols: readonly string[], modifier: AttackModifier): AttackResult & { readonly modified: readonly string[] } {
  let forceLeft = modifier === 'force' ? 1 : 0;
  const modified = symbols.map((s) => {
    if (s !== 'focus') return s;
    if (modifier === 'focus' || modifier === 'focus+lock') return 'hit';
    if (forceLeft > 0) {
      forceLeft--;
      return 'hit';
    }
    return s;
  });
  return { hits: modified.filter((s) => s === 'hit').length, crits: modified.filter((s) => s === 'crit').length, modified };
}

/** The defense dice after tokens: each die's final symbol and the evades. */
export function modifyDefense(symbols: readonly string[], modifier: DefenseModifier): { readonly evades: number; readonly modified: readonly string[] } {
  let forceLeft = modifier === 'force' ? 1 : 0;
  const modified = symbols.map((s) => {
    if (s !== 'focus') return s;
    if (modifier === 'focus') return 'evade';
    if (forceLeft > 0) {
      forceLeft--;
      return 'evade';
    }
    return s;
  });
  return { evades: modified.filter((s) => s === 'evade').length, modified };
}
