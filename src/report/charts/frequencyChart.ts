import type { LevelAnalysis } from '../../analysis/levelAnalysis.js';
import { confidenceLabel, formatCount, formatProbability } from '../../core/format.js';
import { chartTitle, legend, yAxis } from '../chart/axes.js';
import { PALETTE } from '../chart/palette.js';
import { linearScale, niceTicks } from '../chart/scale.js';
import type { Scene, Shape } from '../chart/scene.js';

export const FREQUENCY_CHART_SIZE = { width: 640, height: 320 } as const;

/**
 * Observed proportion of each face (or symbol) as a bar, its simultaneous
 * interval as a whisker and the expected odds as a line across the bar. A bar
 * whose interval misses the expected line is drawn in the warning colour. A level
 * widened over unresolved rolls draws (and colours by) its widened intervals, and
 * says so under the chart: the read rolls alone can make a fair die look biased.
 */
export function frequencyChart(level: LevelAnalysis, title: string, alpha: number): Scene {
  const { width, height } = FREQUENCY_CHART_SIZE;
  const k = level.labels.length;
  const left = 60;
  const right = width - 16;
  const top = 52;
  const bottom = height - 58;
  const observed = level.counts.map((c) => (level.n > 0 ? c / level.n : 0));
  const highest = Math.max(...level.intervals.map((iv) => iv.upper), ...level.expected, ...observed);
  const ticks = niceTicks(0, Math.min(1, highest * 1.05), 5);
  const y = linearScale(0, ticks[ticks.length - 1] as number, bottom, top);
  const band = (right - left) / k;
  const barWidth = Math.min(56, band * 0.56);
  const rotateLabels = band < 56;
  const shapes: Shape[] = [
    chartTitle(title, left, width - left - 8),
    ...yAxis(y, ticks, left, right, 'share of rolls'),
    ...legend(left, 40, [
      { kind: 'swatch', colour: PALETTE.bar, text: 'observed' },
      { kind: 'swatch', colour: PALETTE.barOff, text: 'interval misses expected' },
      { kind: 'line', colour: PALETTE.expected, text: 'expected' },
      { kind: 'whisker', colour: PALETTE.interval, text: `${confidenceLabel(alpha)} simultaneous interval` },
    ]),
  ];
  level.labels.forEach((label, i) => {
    const cx = left + band * (i + 0.5);
    const iv = level.intervals[i] as { lower: number; upper: number };
    const expected = level.expected[i] as number;
    const obs = observed[i] as number;
    const off = expected < iv.lower || expected > iv.upper;
    shapes.push({
      kind: 'rect',
      x: cx - barWidth / 2,
      y: y(obs),
      width: barWidth,
      height: Math.max(0, y(0) - y(obs)),
      fill: off ? PALETTE.barOff : PALETTE.bar,
      data: { role: 'bar', label, observed: obs, expected, lower: iv.lower, upper: iv.upper, count: level.counts[i] as number },
    });
    const cap = barWidth * 0.3;
    shapes.push(
      { kind: 'line', x1: cx, y1: y(iv.lower), x2: cx, y2: y(iv.upper), stroke: PALETTE.interval, width: 1.5, data: { role: 'interval', label, ...(level.widenedOver !== undefined ? { widened: level.widenedOver } : {}) } },
      { kind: 'line', x1: cx - cap, y1: y(iv.lower), x2: cx + cap, y2: y(iv.lower), stroke: PALETTE.interval, width: 1.5 },
      { kind: 'line', x1: cx - cap, y1: y(iv.upper), x2: cx + cap, y2: y(iv.upper), stroke: PALETTE.interval, width: 1.5 },
      { kind: 'line', x1: cx - band * 0.42, y1: y(expected), x2: cx + band * 0.42, y2: y(expected), stroke: PALETTE.expected, width: 3, data: { role: 'expected', label, value: expected } },
    );
    const labelY = bottom + 16;
    shapes.push(
      rotateLabels
        ? { kind: 'text', x: cx + 4, y: labelY, text: label, size: 11, fill: PALETTE.ink, anchor: 'end', rotate: -35 }
        : { kind: 'text', x: cx, y: labelY, text: label, size: 12, fill: PALETTE.ink, anchor: 'middle' },
    );
    if (!rotateLabels) {
      shapes.push({ kind: 'text', x: cx, y: labelY + 15, text: `${formatProbability(obs)} (${formatCount(level.counts[i] as number)})`, size: 10, fill: PALETTE.muted, anchor: 'middle' });
    }
  });
  if (level.widenedOver !== undefined) {
    const rolls = level.widenedOver === 1 ? 'the unresolved roll' : `the ${formatCount(level.widenedOver)} unresolved rolls`;
    shapes.push({ kind: 'text', x: left, y: height - 8, text: `Whiskers widened over every ${level.level} ${rolls} could have been; bars: the read rolls.`, size: 10, fill: PALETTE.muted });
  }
  return { width, height, title, background: PALETTE.background, shapes };
}
