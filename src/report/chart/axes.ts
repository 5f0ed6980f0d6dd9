import { PALETTE } from './palette.js';
import { tickLabel, type LinearScale } from './scale.js';
import type { Shape } from './scene.js';

/** Horizontal grid lines with their values at the left, and a rotated axis title. */
export function yAxis(y: LinearScale, ticks: readonly number[], left: number, right: number, title: string, label = (v: number) => tickLabel(v, ticks)): Shape[] {
  const shapes: Shape[] = [];
  for (const t of ticks) {
    shapes.push(
      { kind: 'line', x1: left, y1: y(t), x2: right, y2: y(t), stroke: PALETTE.grid, width: 1 },
      { kind: 'text', x: left - 6, y: y(t) + 4, text: label(t), size: 11, fill: PALETTE.muted, anchor: 'end' },
    );
  }
  const [lo, hi] = y.domain;
  const mid = (y(lo) + y(hi)) / 2;
  shapes.push(
    { kind: 'line', x1: left, y1: y(lo), x2: left, y2: y(hi), stroke: PALETTE.axis, width: 1 },
    { kind: 'text', x: 14, y: mid, text: title, size: 11, fill: PALETTE.muted, anchor: 'middle', rotate: -90 },
  );
  return shapes;
}

export interface LegendEntry {
  readonly kind: 'swatch' | 'line' | 'dashed' | 'whisker';
  readonly colour: string;
  readonly text: string;
}

/** A one-line legend starting at (x, y); entries are spaced by an estimate of their text width. */
export function legend(x: number, y: number, entries: readonly LegendEntry[]): Shape[] {
  const shapes: Shape[] = [];
  let at = x;
  for (const e of entries) {
    if (e.kind === 'swatch') shapes.push({ kind: 'rect', x: at, y: y - 9, width: 12, height: 10, fill: e.colour });
    else if (e.kind === 'whisker') {
      shapes.push(
        { kind: 'line', x1: at + 6, y1: y - 10, x2: at + 6, y2: y + 1, stroke: e.colour, width: 1.5 },
        { kind: 'line', x1: at + 3, y1: y - 10, x2: at + 9, y2: y - 10, stroke: e.colour, width: 1.5 },
        { kind: 'line', x1: at + 3, y1: y + 1, x2: at + 9, y2: y + 1, stroke: e.colour, width: 1.5 },
      );
    } else shapes.push({ kind: 'line', x1: at, y1: y - 4, x2: at + 14, y2: y - 4, stroke: e.colour, width: 3, ...(e.kind === 'dashed' ? { dash: [5, 3] } : {}) });
    shapes.push({ kind: 'text', x: at + 18, y, text: e.text, size: 11, fill: PALETTE.muted });
    at += 18 + textWidth(e.text, 11) + 16;
  }
  return shapes;
}

/** A rough width of text in the chart font (average glyph ≈ 0.58 em), for layout only. */
export function textWidth(text: string, size: number): number {
  return text.length * size * 0.58;
}

/** Bold glyphs run wider than `textWidth`'s estimate (DejaVu Sans Bold, the renderer's font, about 0.66 em). */
const BOLD_EM = 0.66;
const TITLE_SIZE = 15;
const TITLE_MIN_SIZE = 11;

/**
 * A chart's title at `x`, its size brought down (to 11 px at least) so it fits in `room` pixels, and cut with an
 * ellipsis only if it still does not: a long die label must not run the title off the picture.
 */
export function chartTitle(title: string, x: number, room: number): Shape {
  const size = Math.max(TITLE_MIN_SIZE, Math.min(TITLE_SIZE, Math.floor(room / (title.length * BOLD_EM))));
  const fits = Math.floor(room / (size * BOLD_EM));
  const text = title.length <= fits ? title : `${title.slice(0, Math.max(1, fits - 1)).trimEnd()}…`;
  return { kind: 'text', x, y: 20, text, size, fill: PALETTE.ink, bold: true };
}
