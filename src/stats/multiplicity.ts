/**
 * Multiplicity control across dice: with 30 dice tested at alpha 0.05, about
 * 1.5 fair dice "fail" by chance. Holm controls the family-wise error (the
 * default for verdicts); Benjamini–Hochberg the false discovery rate (for
 * screening many dice). Both return adjusted p-values in the input order.
 */
import { InputError } from '../core/errors.js';

function checkPValues(pValues: readonly number[]): void {
  for (let i = 0; i < pValues.length; i++) {
    const p = pValues[i] as number;
    if (!(p >= 0 && p <= 1)) throw new InputError(`p-value ${i} is ${p}; p-values must be between 0 and 1.`);
  }
}

/** Indices of `pValues` in ascending order of p (stable, so ties keep input order). */
function ascendingOrder(pValues: readonly number[]): number[] {
  return pValues.map((_, i) => i).sort((a, b) => (pValues[a] as number) - (pValues[b] as number));
}

/**
 * Holm (1979) step-down adjusted p-values: the i-th smallest (1-based) becomes
 * max over j ≤ i of min(1, (m − j + 1) p_(j)). Reject where adjusted <= alpha.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  checkPValues(pValues);
  const m = pValues.length;
  const order = ascendingOrder(pValues);
  const adjusted = new Array<number>(m);
  let running = 0;
  for (let j = 0; j < m; j++) {
    const index = order[j] as number;
    running = Math.max(running, Math.min(1, (m - j) * (pValues[index] as number)));
    adjusted[index] = running;
  }
  return adjusted;
}

/**
 * Benjamini–Hochberg (1995) step-up adjusted p-values: the i-th smallest
 * becomes min over j ≥ i of min(1, m p_(j) / j). Reject where adjusted <= q.
 */
export function benjaminiHochbergAdjust(pValues: readonly number[]): number[] {
  checkPValues(pValues);
  const m = pValues.length;
  const order = ascendingOrder(pValues);
  const adjusted = new Array<number>(m);
  let running = 1;
  for (let j = m - 1; j >= 0; j--) {
    const index = order[j] as number;
    const p = pValues[index] as number;
    // m / (j + 1) >= 1, so the term is never below p; the max only undoes rounding in m·p / m.
    running = Math.min(running, Math.max(p, (m * p) / (j + 1)));
    adjusted[index] = running;
  }
  return adjusted;
}
