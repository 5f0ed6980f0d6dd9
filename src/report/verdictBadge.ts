import { escapeHtml } from './escape.js';

/** CSS class of a verdict kind: `UNFAIR` -> `unfair`, `FAIR_WITHIN` -> `fair-within`. */
export function verdictClass(kind: string): string {
  return kind.toLowerCase().replace(/_/g, '-');
}

/** A coloured badge naming the verdict (its text carries the meaning; the colour only helps). */
export function verdictBadge(kind: string, text = kind): string {
  return `<span class="badge ${verdictClass(kind)}" data-verdict="${escapeHtml(kind)}">${escapeHtml(text)}</span>`;
}
