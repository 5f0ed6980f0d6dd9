/**
 * Plain-text table, columns two spaces apart. By default the first column is
 * left-aligned and the others (numbers) right-aligned; `leftColumns` left-aligns more text columns.
 * Every line starts with `indent`; the table ends with a newline.
 */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[], leftColumns = 1, indent = ''): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    indent +
    cells
      .map((c, i) => (i < leftColumns ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}
