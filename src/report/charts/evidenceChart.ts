import { formatCount, formatLogScientific } from '../../core/format.js';
import { chartTitle, textWidth, yAxis } from '../chart/axes.js';
import { PALETTE } from '../chart/palette.js';
import { linearScale, niceTicks } from '../chart/scale.js';
import type { Scene, Shape } from '../chart/scene.js';
import type { EvidenceTrace } from '../evidenceTrace.js';

export const EVIDENCE_CHART_SIZE = { width: 640, height: 300 } as const;

/**
 * The anytime-valid e-value against the expected odds (log scale) as rolls
 * accumulated, with the line whose crossing is an UNFAIR decision and a mark
 * where the monitor decided.
 */
export function evidenceChart(trace: EvidenceTrace, title: string): Scene {
  const { width, height } = EVIDENCE_CHART_SIZE;
  const left = 60;
  const right = width - 20;
  const top = 40;
  const bottom = height - 44;
  const log10 = trace.logE.map((l) => l / Math.LN10);
  const threshold10 = trace.thresholdLogE / Math.LN10;
  const lo = Math.floor(Math.min(0, ...log10));
  const hi = Math.ceil(Math.max(threshold10 + 0.5, ...log10));
  // Whole powers of ten only, none below the data (a long run's step of 20 decades would otherwise start at 1e-20).
  const yTicks = niceTicks(lo, hi, 6).filter((t) => Number.isInteger(t) && t >= lo);
  const y = linearScale(lo, Math.max(hi, yTicks[yTicks.length - 1] ?? hi), bottom, top);
  const n = trace.rolls[trace.rolls.length - 1] ?? 0;
  const xTicks = niceTicks(0, Math.max(1, n), 6);
  const x = linearScale(0, xTicks[xTicks.length - 1] ?? Math.max(1, n), left, right);
  const [yLo, yHi] = y.domain;
  const shapes: Shape[] = [
    chartTitle(title, left, width - left - 8),
    { kind: 'rect', x: left, y: y(yHi), width: right - left, height: Math.max(0, y(threshold10) - y(yHi)), fill: PALETTE.thresholdZone },
    ...yAxis(y, yTicks, left, right, 'e-value (log scale)', (t) => formatLogScientific(t * Math.LN10)),
  ];
  for (const t of xTicks) {
    shapes.push(
      { kind: 'line', x1: x(t), y1: bottom, x2: x(t), y2: bottom + 4, stroke: PALETTE.axis, width: 1 },
      { kind: 'text', x: x(t), y: bottom + 17, text: formatCount(t), size: 11, fill: PALETTE.muted, anchor: 'middle' },
    );
  }
  shapes.push(
    { kind: 'line', x1: left, y1: y(yLo), x2: right, y2: y(yLo), stroke: PALETTE.axis, width: 1 },
    { kind: 'text', x: (left + right) / 2, y: height - 8, text: 'rolls of this die', size: 11, fill: PALETTE.muted, anchor: 'middle' },
    { kind: 'line', x1: left, y1: y(threshold10), x2: right, y2: y(threshold10), stroke: PALETTE.threshold, width: 2, dash: [6, 4], data: { role: 'threshold', value: trace.thresholdLogE } },
  );
  const thresholdText = `UNFAIR once e ≥ ${formatLogScientific(trace.thresholdLogE)}`;
  shapes.push({ kind: 'text', x: right - 4, y: y(threshold10) - 6, text: thresholdText, size: 11, fill: PALETTE.thresholdText, anchor: 'end' });
  if (trace.unavailable !== undefined) {
    shapes.push({ kind: 'text', x: (left + right) / 2, y: (top + bottom) / 2, text: `No trace: ${trace.unavailable}.`, size: 12, fill: PALETTE.muted, anchor: 'middle' });
  } else {
    shapes.push({
      kind: 'polyline',
      points: trace.rolls.map((r, i) => [x(r), y(log10[i] as number)] as const),
      stroke: PALETTE.evidence,
      width: 2,
      data: { role: 'evidence', final: trace.finalLogE },
    });
  }
  if (trace.decidedAt !== null) {
    const at = x(trace.decidedAt);
    const text = `${trace.decision} at roll ${formatCount(trace.decidedAt)}`;
    // Keep the label inside the plot: to the right of the mark unless that would run off the edge.
    const fits = at + 6 + textWidth(text, 11) < right;
    shapes.push(
      { kind: 'line', x1: at, y1: top, x2: at, y2: bottom, stroke: PALETTE.decision, width: 1.5, dash: [3, 3], data: { role: 'decision', roll: trace.decidedAt } },
      { kind: 'text', x: fits ? at + 6 : at - 6, y: bottom - 8, text, size: 11, fill: PALETTE.decisionText, anchor: fits ? 'start' : 'end', bold: true },
    );
  }
  return { width, height, title, background: PALETTE.background, shapes };
}
