/** Plain-text table with columns padded to their widest cell; the first column is left-aligned, the rest right-aligned. */
export function textTable(rows: readonly (readonly string[])[], indent = '  '): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows
    .map((row) => indent + row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number))).join('  ').trimEnd())
    .join('\n');
}

export function signedPercent(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const v = Number((100 * x).toFixed(1));
  return `${v > 0 ? '+' : ''}${v}%`;
}

export function fixed(x: number, digits = 3): string {
  return Number.isFinite(x) ? x.toFixed(digits) : String(x);
}
