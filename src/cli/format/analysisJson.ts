import type { Analysis, AnalysisHead, DieAnalysis } from '../../analysis/analyze.js';
import type { LevelAnalysis } from '../../analysis/levelAnalysis.js';
import { VERSION } from '../../core/version.js';
import { toJson } from '../options.js';

/** The machine-readable analysis: stable field names, no internal objects (die types are referred to by id). */
export function analysisJson(a: Analysis): string {
  const { dice, ...head } = a;
  return [...analysisJsonParts({ ...head, count: dice.length, totalRolls: 0 }, dice)].join('');
}

/** Stands in for the dice in the top-level object, which is written around them. */
const DICE_HERE = '\u0000dice\u0000';

/**
 * The same JSON text in parts (concatenated), one die at a time, so `analyze
 * --json` can write a file of 200,000 dice without building one string of
 * them (past ~512 MB a string cannot even be built).
 */
export function* analysisJsonParts(a: AnalysisHead, dice: Iterable<DieAnalysis>): Generator<string> {
  const outer = toJson({
    dicerig: VERSION,
    ...(a.simulated !== undefined ? { simulated: a.simulated } : {}),
    settings: { alpha: a.alpha, delta: a.delta, multiplicity: a.multiplicity, serialAlpha: a.serialAlpha, tests: a.family, ...(a.settingsFromSessions ? { fromSessions: a.settingsFromSessions } : {}) },
    dice: DICE_HERE,
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
      ...(h.unresolved !== undefined ? { unresolved: h.unresolved } : {}),
    })),
  });
  const at = outer.indexOf(JSON.stringify(DICE_HERE));
  yield outer.slice(0, at);
  // As JSON.stringify(…, 2) lays out an array two levels deep: "[", each die on new lines indented by four, "]"; "[]" when empty.
  let first = true;
  for (const d of dice) {
    yield `${first ? '[' : ','}\n    ${toJson(dieJson(d)).replaceAll('\n', '\n    ')}`;
    first = false;
  }
  yield first ? '[]' : '\n  ]';
  yield outer.slice(at + JSON.stringify(DICE_HERE).length);
}

function dieJson(d: DieAnalysis) {
  return {
    label: d.label,
    type: d.die.id,
    rolls: d.n,
    ...(d.unresolved !== undefined ? { unresolved: d.unresolved } : {}),
    files: d.files,
    verdict: d.verdict,
    sentence: d.sentence,
    ...(d.sessionKind !== undefined ? { sessionKind: d.sessionKind } : {}),
    ...(d.decidedBy !== undefined ? { decidedBy: { session: d.decidedBy, ...(d.decidedIn !== undefined ? { file: d.decidedIn } : {}), ...(d.decidedImportedFrom !== undefined ? { importedFrom: d.decidedImportedFrom } : {}) }, fixedSampleFigures: 'descriptive' } : {}),
    ...(d.partVerdicts !== undefined ? { sessionVerdicts: d.partVerdicts } : {}),
    ...(d.across !== undefined ? { acrossSessions: d.across, fixedSampleFigures: 'descriptive' } : {}),
    symbol: level(d.symbol, d.adjusted.find((x) => x.analysis === d.symbol)?.adjustedP),
    face: d.face ? level(d.face, d.adjusted.find((x) => x.analysis === d.face)?.adjustedP) : null,
    game: d.game.map((g) => ({ name: g.figure.name, description: g.figure.description, symbols: g.figure.symbols, ...g.result, ...(g.widenedOver !== undefined ? { widenedOver: g.widenedOver } : {}) })),
    serial: { suspect: d.serial.suspect, alpha: d.serial.alpha, checks: d.serial.checks },
    anytime: d.anytime,
  };
}

function level(l: LevelAnalysis, adjustedP: number | undefined) {
  return {
    categories: l.labels,
    // What the sentences call them, where an id could be read as another's (a D3's face 2 as its result 2).
    ...(l.names ? { names: l.names } : {}),
    counts: l.counts,
    expected: l.expected,
    observed: l.counts.map((c) => (l.n > 0 ? c / l.n : null)),
    intervals: l.intervals,
    // The unresolved rolls the intervals hold whatever they were (widened over every face they could have been).
    ...(l.widenedOver !== undefined ? { widenedOver: l.widenedOver } : {}),
    relativeDeviations: l.relativeDeviations,
    pearson: l.pearson,
    g: l.g,
    exact: l.exact ?? null,
    headline: l.headline,
    adjustedP: adjustedP ?? null,
    cohensW: l.cohensW,
  };
}
