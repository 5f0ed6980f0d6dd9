import type { GameFigureResult } from '../../analysis/analyze.js';
import { confidenceLabel, formatCount, formatProbability, signedPercent } from '../../core/format.js';
import { chartTitle, legend, textWidth } from '../chart/axes.js';
import { PALETTE } from '../chart/palette.js';
import { linearScale, niceTicks, tickLabel } from '../chart/scale.js';
import type { Scene, Shape } from '../chart/scene.js';

export const GAME_CHART_WIDTH = 720;
const ROW = 46;

/** Height of the game chart for this many figures. */
export function gameChartHeight(figures: number): number {
  return 70 + ROW * figures + 36;
}

/** A tick as a signed difference: "+0.05", "-0.05", and "0.00" for zero (however it was rounded). */
function signedTick(t: number, ticks: readonly number[]): string {
  const label = tickLabel(t, ticks);
  return Number(label) > 0 ? `+${label}` : label;
}

/**
 * What the die does in play: each game figure (hits + crits per die, with and
 * without focus; evades...) as its difference from the expected rate, with
 * its interval, on one shared axis centred on "as expected". Figures widened over
 * unresolved rolls draw (and colour by) their widened intervals, and the title says so.
 */
export function gameChart(game: readonly GameFigureResult[], title: string, alpha: number): Scene {
  const width = GAME_CHART_WIDTH;
  const height = gameChartHeight(game.length);
  // Room for the longest figure name on the left, for "0.52 vs 0.5 (+4%)" on the right.
  const left = Math.min(320, 24 + Math.max(80, ...game.map((g) => textWidth(g.figure.description, 12))));
  const rateText = (r: GameFigureResult['result']): string => `${formatProbability(r.rate)} vs ${formatProbability(r.expected)} (${signedPercent(r.relative)})`;
  // Room on the right for the longest "0.237 vs 0.167 (+42.4 %)", at the size it is drawn.
  const right = width - Math.max(140, 24 + Math.max(0, ...game.map((g) => textWidth(rateText(g.result), 11))));
  const top = 60;
  const bottom = top + ROW * game.length;
  const reach = Math.max(0.05, ...game.flatMap((g) => [Math.abs(g.result.interval.lower - g.result.expected), Math.abs(g.result.interval.upper - g.result.expected)])) * 1.1;
  const ticks = niceTicks(-reach, reach, 6);
  const x = linearScale(ticks[0] as number, ticks[ticks.length - 1] as number, left, right);
  const shapes: Shape[] = [
    chartTitle(title + widenedClause(game), 12, width - 20),
    ...legend(left, 44, [
      { kind: 'swatch', colour: PALETTE.bar, text: 'observed − expected' },
      { kind: 'whisker', colour: PALETTE.interval, text: `${confidenceLabel(alpha)} interval` },
    ]),
  ];
  for (const t of ticks) {
    shapes.push(
      { kind: 'line', x1: x(t), y1: top, x2: x(t), y2: bottom, stroke: PALETTE.grid, width: 1 },
      { kind: 'text', x: x(t), y: bottom + 16, text: signedTick(t, ticks), size: 11, fill: PALETTE.muted, anchor: 'middle' },
    );
  }
  shapes.push(
    { kind: 'line', x1: x(0), y1: top - 4, x2: x(0), y2: bottom, stroke: PALETTE.expected, width: 2.5, data: { role: 'as-expected' } },
    { kind: 'text', x: (left + right) / 2, y: bottom + 32, text: 'difference from the expected rate (per die)', size: 11, fill: PALETTE.muted, anchor: 'middle' },
  );
  game.forEach((g, i) => {
    const cy = top + ROW * (i + 0.5);
    const r = g.result;
    const off = r.expected < r.interval.lower || r.expected > r.interval.upper;
    const lo = x(r.interval.lower - r.expected);
    const hi = x(r.interval.upper - r.expected);
    shapes.push(
      { kind: 'text', x: left - 10, y: cy + 4, text: g.figure.description, size: 12, fill: PALETTE.ink, anchor: 'end' },
      { kind: 'line', x1: lo, y1: cy, x2: hi, y2: cy, stroke: PALETTE.interval, width: 1.5 },
      { kind: 'line', x1: lo, y1: cy - 6, x2: lo, y2: cy + 6, stroke: PALETTE.interval, width: 1.5 },
      { kind: 'line', x1: hi, y1: cy - 6, x2: hi, y2: cy + 6, stroke: PALETTE.interval, width: 1.5 },
      { kind: 'circle', cx: x(r.delta), cy, r: 6, fill: off ? PALETTE.barOff : PALETTE.bar, data: { role: 'game', figure: g.figure.name, rate: r.rate, expected: r.expected } },
      {
        kind: 'text',
        x: right + 10,
        y: cy + 4,
        text: rateText(r),
        size: 11,
        fill: off ? PALETTE.barOff : PALETTE.ink,
      },
    );
  });
  return { width, height, title, background: PALETTE.background, shapes };
}

/** "; intervals whatever its 50 unresolved rolls were" when the figures are widened over them (else empty). */
function widenedClause(game: readonly GameFigureResult[]): string {
  const u = game.find((g) => g.widenedOver !== undefined)?.widenedOver;
  if (u === undefined) return '';
  return `; intervals whatever its ${u === 1 ? 'unresolved roll was' : `${formatCount(u)} unresolved rolls were`}`;
}
