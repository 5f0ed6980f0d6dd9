import { escapeHtml } from './escape.js';

type Attributes = Readonly<Record<string, string | number>>;

/** A table cell: text (escaped) or ready-made `html`, right-aligned when `num`. */
export interface Cell {
  readonly text?: string;
  readonly html?: string;
  readonly num?: boolean;
  readonly className?: string;
  readonly attrs?: Attributes;
}

export interface Row {
  readonly cells: readonly (Cell | string)[];
  readonly attrs?: Attributes;
}

/**
 * An HTML table in a scrolling wrapper (wide tables scroll on a phone instead of breaking the page). Its caption names
 * it to a screen reader (hidden on screen, where the heading above names it), and each row's first cell heads its row,
 * so a cell is read with its row's label as well as its column's.
 */
export function htmlTable(headers: readonly (string | { text: string; num?: boolean })[], rows: readonly Row[], className = '', caption?: string): string {
  const head = headers
    .map((h) => (typeof h === 'string' ? `<th scope="col">${escapeHtml(h)}</th>` : `<th scope="col"${h.num ? ' class="num"' : ''}>${escapeHtml(h.text)}</th>`))
    .join('');
  const body = rows.map((r) => `<tr${attributes(r.attrs)}>${r.cells.map((c, i) => cell(c, i === 0 ? 'th' : 'td')).join('')}</tr>`).join('\n');
  const named = caption !== undefined ? `<caption class="sr-only">${escapeHtml(caption)}</caption>\n` : '';
  return `<div class="table-wrap"><table${className ? ` class="${className}"` : ''}>\n${named}<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody></table></div>`;
}

function cell(c: Cell | string, tag: 'th' | 'td'): string {
  const scope = tag === 'th' ? ' scope="row"' : '';
  if (typeof c === 'string') return `<${tag}${scope}>${escapeHtml(c)}</${tag}>`;
  const classes = [c.num ? 'num' : '', c.className ?? ''].filter(Boolean).join(' ');
  const content = c.html ?? escapeHtml(c.text ?? '');
  return `<${tag}${scope}${classes ? ` class="${classes}"` : ''}${attributes(c.attrs)}>${content}</${tag}>`;
}

/** ` key="value"` pairs, escaped; `data-` keys are written as given. */
export function attributes(attrs: Attributes | undefined): string {
  if (attrs === undefined) return '';
  return Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${escapeHtml(String(v))}"`)
    .join('');
}
