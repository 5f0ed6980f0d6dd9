import { chartTitle } from '../chart/axes.js';
import { formatCount } from '../../core/format.js';
import { PALETTE, residualColour, residualTextColour } from '../chart/palette.js';
import type { Scene, Shape } from '../chart/scene.js';
import type { TransitionTable } from '../transitionTable.js';

/** Residuals beyond this many standard deviations get the full colour. */
const RESIDUAL_LIMIT = 4;

/**
 * The transition table as a heatmap: row = the previous roll, column = the
 * next; each cell shows its count, coloured by how far it is from what
 * independent rolls give (adjusted residual, vermillion = more often, blue =
 * less often). A rig that does not tumble lights up the diagonal.
 */
export function transitionHeatmap(table: TransitionTable, title: string): Scene {
  const k = table.labels.length;
  const cell = Math.max(14, Math.min(48, Math.floor(384 / Math.max(1, k))));
  const longest = Math.max(...table.labels.map((l) => l.length));
  const labelWidth = 36 + Math.min(90, 8 + longest * 7);
  const gridSize = cell * k;
  const natural = labelWidth + gridSize + 28 + 130;
  // At least as wide as the other charts, so their text comes out the same size side by side; the grid centred.
  const width = Math.max(natural, 640);
  const left = labelWidth + (width - natural) / 2;
  const top = 48;
  const legendX = left + gridSize + 28;
  const labelRoom = cell < 48 ? Math.min(90, 12 + longest * 6) : 22;
  const height = top + gridSize + labelRoom + 30;
  const shapes: Shape[] = [chartTitle(title, 12, width - 20)];
  table.labels.forEach((label, i) => {
    const cy = top + cell * (i + 0.5);
    shapes.push({ kind: 'text', x: left - 6, y: cy + 4, text: label, size: 11, fill: PALETTE.ink, anchor: 'end' });
    const cx = left + cell * (i + 0.5);
    const below = top + gridSize + 14;
    shapes.push(
      cell < 48
        ? { kind: 'text', x: cx + 3, y: below, text: label, size: 11, fill: PALETTE.ink, anchor: 'end', rotate: -45 }
        : { kind: 'text', x: cx, y: below, text: label, size: 11, fill: PALETTE.ink, anchor: 'middle' },
    );
  });
  table.counts.forEach((row, i) =>
    row.forEach((count, j) => {
      const z = (table.residuals[i] as readonly (number | null)[])[j] ?? null;
      const x = left + cell * j;
      const y = top + cell * i;
      shapes.push({
        kind: 'rect',
        x,
        y,
        width: cell,
        height: cell,
        fill: z === null ? '#f0f2f4' : residualColour(z, RESIDUAL_LIMIT),
        stroke: '#ffffff',
        data: { role: 'cell', from: table.labels[i] as string, to: table.labels[j] as string, count, residual: z === null ? '' : Number(z.toFixed(3)) },
      });
      if (cell >= 22) {
        shapes.push({
          kind: 'text',
          x: x + cell / 2,
          y: y + cell / 2 + 4,
          text: formatCount(count),
          size: cell >= 36 ? 11 : 9,
          fill: z === null ? PALETTE.muted : residualTextColour(z, RESIDUAL_LIMIT),
          anchor: 'middle',
        });
      }
    }),
  );
  shapes.push(
    { kind: 'text', x: left - labelWidth + 14, y: top + gridSize / 2, text: 'previous roll', size: 11, fill: PALETTE.muted, anchor: 'middle', rotate: -90 },
    { kind: 'text', x: left + gridSize / 2, y: height - 6, text: 'next roll', size: 11, fill: PALETTE.muted, anchor: 'middle' },
  );
  // Colour key: a vertical bar from +limit (top) to -limit (bottom).
  const steps = 9;
  const keyHeight = Math.min(gridSize, 180);
  const stepHeight = keyHeight / steps;
  for (let s = 0; s < steps; s++) {
    const z = RESIDUAL_LIMIT - (2 * RESIDUAL_LIMIT * (s + 0.5)) / steps;
    shapes.push({ kind: 'rect', x: legendX, y: top + s * stepHeight, width: 14, height: stepHeight + 0.5, fill: residualColour(z, RESIDUAL_LIMIT) });
  }
  shapes.push(
    { kind: 'rect', x: legendX, y: top, width: 14, height: keyHeight, fill: 'none', stroke: PALETTE.axis },
    { kind: 'text', x: legendX + 20, y: top + 10, text: `+${RESIDUAL_LIMIT} sd: more often`, size: 10, fill: PALETTE.muted },
    { kind: 'text', x: legendX + 20, y: top + keyHeight / 2 + 4, text: '0: as expected', size: 10, fill: PALETTE.muted },
    { kind: 'text', x: legendX + 20, y: top + keyHeight, text: `−${RESIDUAL_LIMIT} sd: less often`, size: 10, fill: PALETTE.muted },
  );
  return { width, height, title, background: PALETTE.background, shapes };
}
