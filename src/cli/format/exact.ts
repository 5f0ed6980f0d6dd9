import type { Rational } from '../../odds/rational.js';

/** How an exact value appears in JSON output: the fraction as text, and a decimal for convenience. */
export interface ExactJson {
  readonly exact: string;
  readonly decimal: number;
}

export function exactJson(r: Rational): ExactJson {
  return { exact: r.toString(), decimal: r.toNumber() };
}

/** Decimal text with at most `digits` places and no trailing zeros: 0.9375, 1.875, 0.3333. */
export function formatDecimal(r: Rational | number, digits = 4): string {
  const x = typeof r === 'number' ? r : r.toNumber();
  const fixed = x.toFixed(digits);
  const trimmed = fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
  return trimmed === '-0' ? '0' : trimmed;
}

/** `15/16 (0.9375)`, or just `1` / `0` for whole numbers. */
export function formatExact(r: Rational, digits = 4): string {
  return r.den === 1n ? r.toString() : `${r} (${formatDecimal(r, digits)})`;
}
