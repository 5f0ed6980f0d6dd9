import type { Analysis } from '../../analysis/analyze.js';
import type { LevelAnalysis } from '../../analysis/levelAnalysis.js';
import { VERSION } from '../../core/version.js';
import { toJson } from '../options.js';

/** The machine-readable analysis: stable field names, no internal objects (die types are referred to by id). */
export function analysisJson(a: Analysis): string {
  return toJson({
    dicerig: VERSION,
    settings: { alpha: a.alpha, delta: a.delta, multiplicity: a.multiplicity, serialAlpha: a.serialAlpha, tests: a.family },
    dice: a.dice.map((d) => ({
      label: d.label,
      type: d.die.id,
      rolls: d.n,
      files: d.files,
      verdict: d.verdict,
      sentence: d.sentence,
      symbol: level(d.symbol, d.adjusted.find((x) => x.analysis === d.symbol)?.adjustedP),
      face: d.face ? level(d.face, d.adjusted.find((x) => x.analysis === d.face)?.adjustedP) : null,
      game: d.game.map((g) => ({ name: g.figure.name, description: g.figure.description, symbols: g.figure.symbols, ...g.result })),
      serial: { suspect: d.serial.suspect, alpha: d.serial.alpha, checks: d.serial.checks },
      anytime: d.anytime,
    })),
    homogeneity: a.homogeneity.map((h) => ({
      type: h.dieType,
      level: h.level,
      dice: h.dice,
      categories: h.labels,
      pearson: h.test.pearson,
      g: h.test.g,
      cramersV: h.test.cramersV,
      residuals: h.test.residuals,
      rowsUsed: h.test.rowsUsed,
      columnsUsed: h.test.columnsUsed,
    })),
  });
}

function level(l: LevelAnalysis, adjustedP: number | undefined) {
  return {
    categories: l.labels,
    counts: l.counts,
    expected: l.expected,
    observed: l.counts.map((c) => (l.n > 0 ? c / l.n : null)),
    intervals: l.intervals,
    relativeDeviations: l.relativeDeviations,
    pearson: l.pearson,
    g: l.g,
    exact: l.exact ?? null,
    headline: l.headline,
    adjustedP: adjustedP ?? null,
    cohensW: l.cohensW,
  };
}
