import type { Rational } from '../core/rational.js';
import { ATTACK_MODIFIERS, DEFENSE_MODIFIERS, expectedDamage, expectedEvades } from './xwing-dice.js';
import type { AttackModifier, DefenseModifier } from './xwing-dice.js';

/**
 * The averages players quote: expected hits + crits of 1..n red dice and
 * expected evades of 1..n green dice, per modifier. Per die they are 1/2,
 * 3/4 (focus), 3/4 (lock), 15/16 (focus + lock); 3/8 and 5/8 for evades.
 * A widely shared table prints 1.86 for two dice with focus + lock; the exact
 * value is 15/8 = 1.875, so that cell is an erratum.
 */
export interface AverageRow<M extends string> {
  readonly dice: number;
  readonly byModifier: Readonly<Record<M, Rational>>;
}

/** Expected hits + crits for 1..maxDice red dice under every attack modifier. */
export function attackAverages(maxDice = 8): AverageRow<AttackModifier>[] {
  return rows(maxDice, ATTACK_MODIFIERS, (n, m) => expectedDamage(n, m));
}

/** Expected evades for 1..maxDice green dice under every defense modifier. */
export function defenseAverages(maxDice = 8): AverageRow<DefenseModifier>[] {
  return rows(maxDice, DEFENSE_MODIFIERS, (n, m) => expectedEvades(n, m));
}

function rows<M extends string>(maxDice: number, modifiers: readonly M[], value: (n: number, m: M) => Rational): AverageRow<M>[] {
  if (!Number.isInteger(maxDice) || maxDice < 1) throw new RangeError(`A table needs at least one die, not ${maxDice}.`);
  const out: AverageRow<M>[] = [];
  for (let n = 1; n <= maxDice; n++) {
    const byModifier = {} as Record<M, Rational>;
    for (const m of modifiers) byModifier[m] = value(n, m);
    out.push({ dice: n, byModifier });
  }
  return out;
}
