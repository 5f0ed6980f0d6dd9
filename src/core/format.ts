/**
 * Number formatting, written once for every layer: the CLI, the report, the
 * session's progress lines and the verdict sentences all print numbers through
 * here, so a percentage or a p-value reads the same wherever it appears.
 *
 * Percentages are written the SI way, the number, a space, then `%` ("12.3 %").
 */

import type { Rational } from './rational.js';

/** A fraction as a percentage with a fixed number of decimals: 0.1234 -> "12.3 %", 1 -> "100.00 %" (2 decimals); `missing` when there is no number. */
export function percent(x: number | null, decimals = 1, missing = '-'): string {
  if (x === null || !Number.isFinite(x)) return missing;
  return `${(100 * x).toFixed(decimals)} %`;
}

/** A fraction as a percentage to `figures` significant figures, without trailing zeros: 0.999 -> "99.9 %", 0.95 -> "95 %". */
export function percentFigures(x: number, figures = 3): string {
  if (!Number.isFinite(x)) return String(x);
  return `${Number((100 * x).toPrecision(figures))} %`;
}

/** A relative change as a signed percentage with one decimal at most: 0.05 -> "+5 %", -0.123 -> "-12.3 %", 0 -> "0 %". */
export function signedPercent(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const v = Number((100 * x).toFixed(1));
  return `${v > 0 ? '+' : ''}${v} %`;
}

/**
 * The confidence that goes with an error rate, as people write it: 0.05 -> "95 %", 0.001 -> "99.9 %",
 * 0.00025 -> "99.975 %". Truncated, never rounded up: a tiny alpha must not read as 100 %.
 */
export function confidenceLabel(alpha: number): string {
  if (!(alpha > 0 && alpha < 1)) return percentFigures(1 - alpha, 4);
  // One decimal more than it takes to reach alpha's first digit in percent.
  const decimals = Math.max(0, Math.ceil(-Math.log10(100 * alpha))) + 1;
  const scale = 10 ** decimals;
  return `${Math.floor(100 * (1 - alpha) * scale + 1e-6) / scale} %`;
}

/** A number with a fixed number of decimals; Infinity and NaN as words. */
export function fixed(x: number, digits = 3): string {
  return Number.isFinite(x) ? x.toFixed(digits) : String(x);
}

/** Decimal text with at most `digits` places and no trailing zeros: 0.9375, 1.875, 0.3333. */
export function formatDecimal(value: Rational | number, digits = 4): string {
  const text = (typeof value === 'number' ? value : value.toNumber()).toFixed(digits);
  const trimmed = text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
  return trimmed === '-0' ? '0' : trimmed;
}

/** A probability to three significant figures, without trailing zeros: 0.375, 0.47, 0.0312. */
export function formatProbability(p: number): string {
  if (!Number.isFinite(p)) return String(p);
  if (p === 0) return '0';
  return String(Number(p.toPrecision(3)));
}

/**
 * The fewest significant figures, at least `least`, at which `a` and `b` print differently (at most 17, where
 * every two doubles do): a bias asked for as x1.0001 on 0.375 shows as 0.37504 beside 0.375, not as 0.375 twice.
 */
export function distinctFigures(a: number, b: number, least = 4): number {
  let figures = least;
  while (figures < 17 && Number(a.toPrecision(figures)) === Number(b.toPrecision(figures))) figures++;
  return figures;
}

/** An integer with thousands separators (locale-independent): 2,300. */
export function formatCount(n: number): string {
  const rounded = Math.round(n);
  const sign = rounded < 0 ? '-' : '';
  const digits = String(Math.abs(rounded));
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A count and its noun, singular for one: "1 throw", "2,300 throws", "1 die", "3 dice". */
export function formatCountOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${Math.round(n) === 1 ? singular : plural}`;
}

/**
 * A positive number given by its natural log, in short scientific form:
 * log(31000) -> "3.1e4", log(2.3e-5) -> "2.3e-5", values 0.001..1000 plainly.
 * Working from the log keeps e-values beyond 1e308 and p-values below 1e-308 exact.
 */
export function formatLogScientific(logValue: number): string {
  if (logValue === -Infinity) return '0';
  if (logValue === Infinity) return 'Infinity';
  const log10 = logValue / Math.LN10;
  if (log10 >= -3 && log10 < 3) return String(Number(Math.exp(logValue).toPrecision(2)));
  let exponent = Math.floor(log10);
  let mantissa = Number((10 ** (log10 - exponent)).toFixed(1));
  if (mantissa >= 10) {
    mantissa = 1;
    exponent += 1;
  }
  return `${mantissa}e${exponent}`;
}

/** The smallest positive normal double: below it a double keeps fewer than 16 significant digits (subnormal), down to none at 5e-324. */
export const MIN_NORMAL = 2.2250738585072014e-308;

/**
 * A probability for machine output (JSON): the number itself while it is a
 * normal double, else, when its log says it lies below 1e-308, the power of ten
 * written from the log ("10^-320.24"), because `Math.exp(log p)` there keeps
 * few true digits (5.7276e-321 prints as 5.726e-321, 2.93e-324 as 5e-324) or
 * underflows to 0.
 */
export function probabilityFromLog(p: number, logP: number): number | string {
  if (!Number.isFinite(logP) || p >= MIN_NORMAL || logP >= Math.log(MIN_NORMAL)) return p;
  return `10^${(logP / Math.LN10).toFixed(2)}`;
}

/** A word as a shell reads it back: quoted when it holds anything but plain characters (for commands printed for the user to paste). */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

/** Items in a sentence: `1`, `1 and 2`, `1, 2 and 3`. */
export function listWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] as string}`;
}
