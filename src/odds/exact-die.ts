import { InputError } from '../core/errors.js';
import { symbolProbabilities } from '../dice/indexing.js';
import type { DieType } from '../dice/types.js';
import { Rational } from '../core/rational.js';

/**
 * Exact symbol odds of a die. `DieType` stores doubles (0.125, 0.1666…); the
 * exact fraction is recovered as the simplest one within 1e-14 (relative) whose
 * denominator is at most a million, which is exact for every die a person
 * writes down (1/8, 1/6, 3/8) and fails loudly for anything else.
 */
export function exactSymbolProbabilities(die: DieType): Map<string, Rational> {
  const floats = symbolProbabilities(die);
  const out = new Map<string, Rational>();
  die.symbols.forEach((symbol, i) => {
    const x = floats[i] ?? 0;
    const r = Rational.approximate(x);
    if (!r) throw new InputError(`die "${die.id}": the probability ${x} of "${symbol}" is not a simple fraction, so exact odds cannot be computed.`);
    out.set(symbol, r);
  });
  return out;
}

/**
 * The exact odds of the named symbols, in the order asked, checking that the
 * die has exactly these symbols (a red-die game rule cannot read a D6).
 */
export function oddsForSymbols<S extends string>(die: DieType, symbols: readonly S[]): Record<S, Rational> {
  const exact = exactSymbolProbabilities(die);
  const missing = symbols.filter((s) => !exact.has(s));
  const extra = [...exact.keys()].filter((s) => !(symbols as readonly string[]).includes(s));
  if (missing.length > 0 || extra.length > 0) {
    throw new InputError(`die "${die.id}" has symbols ${die.symbols.join(', ')}, but these odds need exactly ${symbols.join(', ')}.`);
  }
  const out = {} as Record<S, Rational>;
  for (const s of symbols) out[s] = exact.get(s) as Rational;
  return out;
}
