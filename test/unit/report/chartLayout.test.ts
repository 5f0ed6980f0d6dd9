import { describe, expect, it } from 'vitest';
import { chartTitle, textWidth } from '../../../src/report/chart/axes.js';
import { niceTicks, tickLabel } from '../../../src/report/chart/scale.js';
import type { TextShape } from '../../../src/report/chart/scene.js';
import { GAME_CHART_WIDTH, gameChart } from '../../../src/report/charts/gameChart.js';
import { rateDelta } from '../../../src/stats/effectSize.js';

// DejaVu Sans Bold, the renderer's font, averages about 0.66 em a glyph on such titles.
const boldWidth = (t: TextShape): number => t.text.length * t.size * 0.66;

describe('a chart title', () => {
  it('keeps its size when it fits, and is made smaller to fit a narrower room', () => {
    expect(chartTitle('A1: faces', 60, 580)).toMatchObject({ text: 'A1: faces', size: 15, bold: true });
    const long = 'demo1-d6-A: evidence against fairness as rolls accumulated (by symbol)';
    const t = chartTitle(long, 60, 572) as TextShape;
    expect(t.text).toBe(long);
    expect(t.size).toBeLessThan(15);
    expect(boldWidth(t)).toBeLessThanOrEqual(572);
  });

  it('is cut with an ellipsis only when even the smallest size does not fit', () => {
    const label = 'a die label of the longest kind a user may give, and then some more words';
    const t = chartTitle(`${label}: evidence against fairness as rolls accumulated (by symbol)`, 60, 572) as TextShape;
    expect(t.size).toBe(11);
    expect(t.text.endsWith('…')).toBe(true);
    expect(t.text.startsWith('a die label of the longest kind')).toBe(true);
    expect(boldWidth(t)).toBeLessThanOrEqual(572);
  });
});

describe('tick labels', () => {
  it('never say -0.00 for a zero reached by adding steps from below', () => {
    const ticks = niceTicks(-0.145, 0.145, 6);
    const labels = ticks.map((t) => tickLabel(t, ticks));
    expect(labels).toContain('0.00');
    expect(labels.some((l) => /^-0(\.0*)?$/.test(l))).toBe(false);
    expect(tickLabel(-1e-17, [0, 0.05])).toBe('0.00');
    expect(tickLabel(-0.05, [0, 0.05])).toBe('-0.05');
  });
});

describe('the in-play chart', () => {
  const figures = [
    { figure: { name: 'success', description: 'successes on 4+', symbols: ['4', '5', '6'] }, result: rateDelta(504, 927, 0.5, 0.001) },
    { figure: { name: 'sixes', description: 'sixes', symbols: ['6'] }, result: rateDelta(220, 927, 1 / 6, 0.001) },
  ];
  const texts = gameChart(figures, 'demo1-d6-A: in play, per die', 0.001).shapes.filter((s): s is TextShape => s.kind === 'text');

  it('leaves room on the right for every "rate vs expected (change)" label', () => {
    const rates = texts.filter((t) => / vs /.test(t.text));
    expect(rates.map((t) => t.text)).toEqual(['0.544 vs 0.5 (+8.7 %)', '0.237 vs 0.167 (+42.4 %)']);
    for (const t of rates) expect(t.x + textWidth(t.text, t.size), t.text).toBeLessThanOrEqual(GAME_CHART_WIDTH);
  });

  it('labels its zero tick 0.00, unsigned, and the others with their sign', () => {
    const ticks = texts.filter((t) => /^[+-]?\d\.\d\d$/.test(t.text)).map((t) => t.text);
    expect(ticks).toContain('0.00');
    expect(ticks.filter((t) => t !== '0.00').every((t) => /^[+-]/.test(t))).toBe(true);
    expect(ticks).not.toContain('-0.00');
    expect(ticks).not.toContain('+0.00');
  });
});
