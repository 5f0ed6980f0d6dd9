import type { Rational } from '../../core/rational.js';
import { formatDecimal } from '../../core/format.js';

/** How an exact value appears in JSON output: the fraction as text, and a decimal for convenience. */
export interface ExactJson {
  readonly exact: string;
  readonly decimal: number;
}

export function exactJson(r: Rational): ExactJson {
  return { exact: r.toString(), decimal: r.toNumber() };
}

/** `15/16 (0.9375)`, or just `1` / `0` for whole numbers. */
export function formatExact(r: Rational, digits = 4): string {
  return r.den === 1n ? r.toString() : `${r} (${formatDecimal(r, digits)})`;
}
