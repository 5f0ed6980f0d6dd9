import type { Rational } from './rational.js';

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

/**
 * Plain-text table, columns two spaces apart. By default the first column is
 * left-aligned and the others (numbers) right-aligned; `leftColumns` left-aligns more text columns.
 */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[], leftColumns = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i < leftColumns ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}
