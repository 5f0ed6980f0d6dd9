import type { Distribution } from './distribution.js';
import type { Rational } from '../core/rational.js';
import { attackKey, attackPool, defensePool } from './xwing-dice.js';
import type { AttackModifier, AttackResult, DefenseModifier, GreenOdds, RedOdds } from './xwing-dice.js';

/** One attack: n red dice against m green dice, each side with its modifier. */
export interface AttackSpec {
  readonly red: number;
  readonly green: number;
  readonly attackModifier?: AttackModifier;
  readonly defenseModifier?: DefenseModifier;
  readonly redOdds?: RedOdds;
  readonly greenOdds?: GreenOdds;
}

/** What is left after evades cancel hits first, then crits. */
export function cancel(attack: AttackResult, evades: number): AttackResult {
  const onHits = Math.min(attack.hits, evades);
  const onCrits = Math.min(attack.crits, evades - onHits);
  return { hits: attack.hits - onHits, crits: attack.crits - onCrits };
}

/** Distribution of uncanceled (hits, crits) for one attack. */
export function attackVsDefense(spec: AttackSpec): Distribution<AttackResult> {
  const attack = attackPool(spec.red, spec.attackModifier ?? 'none', spec.redOdds);
  const defense = defensePool(spec.green, spec.defenseModifier ?? 'none', spec.greenOdds);
  return attack.combine(defense, cancel, attackKey);
}

/** A ship's remaining shields and hull. */
export interface Ship {
  readonly shields: number;
  readonly hull: number;
}

/** Damage one attack does to a ship. */
export interface DamageDealt {
  readonly shieldsLost: number;
  /** Facedown damage cards (from hits past the shields). */
  readonly facedown: number;
  /** Faceup damage cards (from crits past the shields). */
  readonly faceup: number;
}

const damageKey = (d: DamageDealt): string => `${d.shieldsLost}:${d.facedown}:${d.faceup}`;

/**
 * Applies uncanceled results to a ship: hits before crits, each removing a
 * shield while any remain, then dealing a facedown card (hit) or faceup card
 * (crit). Every result is dealt, even past the hull value: the game deals all
 * damage of an attack, and the ship is destroyed once its cards reach its hull.
 */
export function applyDamage(result: AttackResult, ship: Ship): DamageDealt {
  const shieldsOnHits = Math.min(ship.shields, result.hits);
  const shieldsOnCrits = Math.min(ship.shields - shieldsOnHits, result.crits);
  return { shieldsLost: shieldsOnHits + shieldsOnCrits, facedown: result.hits - shieldsOnHits, faceup: result.crits - shieldsOnCrits };
}

/** Exact effect of one attack on a ship. */
export interface DamageSummary {
  readonly damage: Distribution<DamageDealt>;
  /** P(cards dealt >= hull). */
  readonly destroyed: Rational;
  readonly expectedShieldsLost: Rational;
  readonly expectedFacedown: Rational;
  readonly expectedFaceup: Rational;
}

/** Probability of destroying the ship and the expected shields and cards, from an uncanceled-result distribution. */
export function damageOnShip(uncanceled: Distribution<AttackResult>, ship: Ship): DamageSummary {
  for (const [name, v] of [['shields', ship.shields], ['hull', ship.hull]] as const) {
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`A ship's ${name} must be a whole number >= 0, not ${v}.`);
  }
  const damage = uncanceled.map((r) => applyDamage(r, ship), damageKey);
  return {
    damage,
    destroyed: damage.probability((d) => d.facedown + d.faceup >= ship.hull),
    expectedShieldsLost: damage.expectation((d) => d.shieldsLost),
    expectedFacedown: damage.expectation((d) => d.facedown),
    expectedFaceup: damage.expectation((d) => d.faceup),
  };
}

/** Probability that an attack hits at all (some result is left uncanceled). */
export function hitProbability(uncanceled: Distribution<AttackResult>): Rational {
  return uncanceled.probability((r) => r.hits + r.crits > 0);
}
