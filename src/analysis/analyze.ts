import { faceNames } from '../dice/faceNames.js';
import { oppositeIndex, symbolProbabilities } from '../dice/indexing.js';
import type { DieType } from '../dice/types.js';
import { rateDelta, type RateDelta } from '../stats/effectSize.js';
import { contingencyTest, type ContingencyResult } from '../stats/homogeneity.js';
import { benjaminiHochbergAdjust, holmAdjust } from '../stats/multiplicity.js';
import { RobustMonitor } from '../stats/robustMonitor.js';
import { DEFAULT_SERIAL_ALPHA, serialChecks, type SerialChecksResult } from '../stats/serial.js';
import type { FailedCheck, Verdict } from '../stats/verdict.js';
import type { DieRolls } from '../rolllog/types.js';
import { fixedSampleSentence } from './fixedSampleSentence.js';
import { fixedSampleVerdict, type AdjustedLevel } from './fixedSampleVerdict.js';
import { expectedRate, gameFiguresFor, type GameFigure } from './gameFigures.js';
import { analyzeLevel, countsOf, type LevelAnalysis } from './levelAnalysis.js';
import { testedLevels } from './testedLevels.js';
import { rollsInPlace } from './rollsInPlace.js';

export type Multiplicity = 'holm' | 'bh';

export interface AnalyzeOptions {
  /** Error rate of each verdict (default 0.05). */
  readonly alpha?: number;
  /** Equivalence margin for FAIR_WITHIN, absolute probability (default 0.03). */
  readonly delta?: number;
  /** Control across dice and levels: Holm (family-wise, default) or Benjamini–Hochberg (false discovery rate, for screening). */
  readonly multiplicity?: Multiplicity;
  /** Family-wise alpha of each die's rig checks (default 0.01). */
  readonly serialAlpha?: number;
}

export interface GameFigureResult {
  readonly figure: GameFigure;
  readonly result: RateDelta;
  /** The unresolved rolls its interval is widened over (from none of them in the figure to all of them), when any. */
  readonly widenedOver?: number;
}

/** The anytime-valid e-value of the whole sequence: valid evidence however the log was stopped. */
export interface AnytimeEvidence {
  /**
   * What its expected odds are of: `symbol` for the one analyze computes, which tests the die's symbols and so cannot
   * see a bias between faces that share one (hit-1 against hit-2, a D3's D6 faces). Absent for a stored session's
   * e-value, which is of what that session counted.
   */
  readonly level?: 'symbol';
  /**
   * The unresolved rolls (kept in their places in the sequence) the e-value and decision are least favourable over: the
   * minimum over every face they could have been, as a session's monitor takes it. Absent when there are none.
   */
  readonly unresolved?: number;
  readonly logE: number;
  readonly decision: Verdict['kind'];
  readonly decidedAt: number | null;
}

export interface DieAnalysis {
  readonly label: string;
  readonly die: DieType;
  readonly n: number;
  readonly files: readonly string[];
  readonly symbol: LevelAnalysis;
  readonly face?: LevelAnalysis;
  readonly adjusted: readonly AdjustedLevel[];
  readonly game: readonly GameFigureResult[];
  readonly serial: SerialChecksResult;
  readonly anytime: AnytimeEvidence;
  readonly verdict: Verdict;
  readonly sentence: string;
  /** The stored session whose verdict this is (src/analysis/sessionVerdict.ts); absent when the analysis made it. */
  readonly decidedBy?: number;
  /** That session's error control in its words (its stored statement), when it stored one. */
  readonly decidedUnder?: string;
  /** The export file whose manifest carried that session's verdict (absent when the store holds it). */
  readonly decidedIn?: string;
  /** For a session imported from an export: the exported session that made the verdict (its own id) and the file. */
  readonly decidedImportedFrom?: { readonly session: number; readonly file: string };
  /** The verdicts stored sessions made on part of its rolls, when this one is made again on all of them. */
  readonly partVerdicts?: readonly { readonly session: number; readonly kind: string; readonly sentence: string }[];
  /** Its stored rolls the reader left unresolved and nobody labelled (not among the `n` read ones), when there are any. */
  readonly unresolved?: number;
  /** For a die rolled in several stored sessions: what they show together (src/analysis/acrossSessions.ts). */
  readonly across?: AcrossSessions;
  /** The verdict its session stored, when its campaign's finding (RIG_SUSPECT: the session's rig found biased) is shown in its place. */
  readonly sessionKind?: string;
}

/** What a die's stored sessions show together: the product of their e-values, and their intervals intersected. */
export interface AcrossSessions {
  readonly sessions: readonly number[];
  readonly logE: number;
  /** log(family / alpha): the product's level for UNFAIR. */
  readonly logThreshold: number;
  /** The largest deviation their intersected intervals leave, at most `alpha` wrong; absent when they certify nothing together. */
  readonly certified?: { readonly level: 'symbol' | 'face'; readonly within: number; readonly alpha: number };
}

/** A homogeneity finding made to hold whatever the dice's unresolved rolls were (src/analysis/homogeneityUnresolved.ts). */
export interface HomogeneityUnresolved {
  /** The dice's unresolved rolls in all. */
  readonly rolls: number;
  /** The dice differ whatever faces those rolls had (the read rolls' test alone says they differ, and it holds). */
  readonly differ: boolean;
}

export interface HomogeneityGroup {
  readonly dieType: string;
  readonly level: 'symbol' | 'face';
  readonly dice: readonly string[];
  readonly labels: readonly string[];
  /** What the text calls each category, where a label could be read as another's (a D3's faces); else the labels. */
  readonly names?: readonly string[];
  /** Each die's read rolls per category (a row per die, in `dice` order). */
  readonly counts: readonly (readonly number[])[];
  readonly test: ContingencyResult;
  /** Set where some of the dice's rolls are unresolved (src/analysis/homogeneityUnresolved.ts). */
  readonly unresolved?: HomogeneityUnresolved;
}

export interface Analysis {
  readonly alpha: number;
  /** The level of each die's intervals and FAIR_WITHIN: alpha over the dice analysed (Bonferroni). */
  readonly certifyAlpha: number;
  readonly delta: number;
  readonly multiplicity: Multiplicity;
  readonly serialAlpha: number;
  /** Tests in the multiplicity family (one per die and level). */
  readonly family: number;
  readonly dice: readonly DieAnalysis[];
  readonly homogeneity: readonly HomogeneityGroup[];
}

/** Everything of an analysis but the dice themselves, known once every die's tests have been run. */
export interface AnalysisHead extends Omit<Analysis, 'dice'> {
  /** Dice analysed. */
  readonly count: number;
  /** Their rolls in all. */
  readonly totalRolls: number;
  /** Their rolls left unresolved (no face: not among `totalRolls`), when there are any. */
  readonly unresolvedRolls?: number;
  /** Of them, dice shown with the verdict their stored session made (src/analysis/sessionVerdict.ts). */
  readonly sessionVerdicts?: number;
  /** Of them, dice rolled in several stored sessions, judged on those sessions' evidence together (src/analysis/acrossSessions.ts). */
  readonly acrossSessions?: number;
  /** Of them, dice rolled only in sessions on a rig their campaign found biased: RIG_SUSPECT by the campaign's finding (src/analysis/campaign/sessionFindings.ts). */
  readonly campaignSetAside?: number;
  /** The settings taken from the stored sessions analysed (no option gave them, and the sessions agree on them). */
  readonly settingsFromSessions?: readonly ('alpha' | 'delta' | 'serialAlpha')[];
  /** The sources whose rolls are simulated, and whether all are (said first: such rolls are no evidence about real dice). */
  readonly simulated?: { readonly all: boolean; readonly sources: readonly string[] };
}

/**
 * An analysis whose dice are made one at a time when asked for and not kept:
 * a file of 200,000 dice is written out die by die in memory that does not
 * grow with the report (only each die's level tests are kept, for the
 * multiplicity control and the homogeneity tests).
 */
export interface AnalysisStream extends AnalysisHead {
  dice(): IterableIterator<DieAnalysis>;
}

/** One die's fixed-sample level tests: all of it the whole family needs. */
interface DieLevels {
  readonly r: DieRolls;
  readonly symbol: LevelAnalysis;
  readonly face?: LevelAnalysis;
  /** Index of its first level in the family. */
  readonly first: number;
}

/**
 * Analyses finished roll logs, one entry per die. Verdicts assume each die's
 * number of rolls was fixed in advance (as in published fixed-count tests);
 * the anytime-valid e-value of the die's symbols is reported beside them, and
 * stays valid however the rolling was stopped.
 */
export function analyzeDice(rolls: readonly DieRolls[], options: AnalyzeOptions = {}): Analysis {
  const stream = analyzeDiceStream(rolls, options);
  const { alpha, certifyAlpha, delta, multiplicity, serialAlpha, family, homogeneity } = stream;
  return { alpha, certifyAlpha, delta, multiplicity, serialAlpha, family, dice: [...stream.dice()], homogeneity };
}

/** {@link analyzeDice}, with each die's analysis made only when it is read (and then not kept). */
export function analyzeDiceStream(rolls: readonly DieRolls[], options: AnalyzeOptions = {}): AnalysisStream {
  const alpha = options.alpha ?? 0.05;
  const delta = options.delta ?? 0.03;
  const multiplicity = options.multiplicity ?? 'holm';
  const serialAlpha = options.serialAlpha ?? DEFAULT_SERIAL_ALPHA;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be between 0 and 1, got ${alpha}`);
  if (!(delta > 0 && delta < 1)) throw new RangeError(`delta must be between 0 and 1, got ${delta}`);

  // Per die type, computed once: a file of many dice of one type shares them.
  const expectedOf = new Map<DieType, { symbol: number[]; faceLabels: string[]; faceNames?: readonly string[] }>();
  const typeFacts = (die: DieType) => {
    let facts = expectedOf.get(die);
    if (facts === undefined) {
      const faceLabels = die.faces.map((f) => f.id);
      const names = faceNames(die);
      expectedOf.set(die, (facts = { symbol: symbolProbabilities(die), faceLabels, ...(names.some((n, i) => n !== faceLabels[i]) ? { faceNames: names } : {}) }));
    }
    return facts;
  };
  let family = 0;
  let totalRolls = 0;
  // Each die's intervals (and so its FAIR_WITHIN) at alpha over the dice: a wrong FAIR_WITHIN among them all then has a
  // chance of at most alpha, as a wrong UNFAIR has under Holm (at alpha each, 30 fair-looking dice could carry ~30 alpha).
  const certifyAlpha = alpha / Math.max(1, rolls.length);
  const perDie: DieLevels[] = rolls.map((r) => {
    const facts = typeFacts(r.die);
    const symbol = analyzeLevel('symbol', r.die.symbols, countsOf(r.symbols, r.die.symbols.length), facts.symbol, certifyAlpha);
    const levels = testedLevels(r.die, r.faces !== undefined);
    const faceLevel = r.faces && levels.includes('face') ? analyzeLevel('face', facts.faceLabels, countsOf(r.faces, r.die.faces.length), r.die.faceProbabilities, certifyAlpha) : undefined;
    // A D3's face 2 would read as its result 2: its faces are named "face 2 (reads 1)" wherever they are shown.
    const face = faceLevel && facts.faceNames ? { ...faceLevel, names: facts.faceNames } : faceLevel;
    const first = family;
    family += levels.length;
    totalRolls += r.symbols.length;
    return face ? { r, symbol, face, first } : { r, symbol, first };
  });

  // One family across every die and level: with 30 dice, ~1.5 fair dice would "fail" at 0.05 by chance otherwise.
  const raw = new Array<number>(family);
  for (const d of perDie) {
    raw[d.first] = d.symbol.headline.p;
    if (d.face) raw[d.first + 1] = d.face.headline.p;
  }
  const adjustedAll = multiplicity === 'holm' ? holmAdjust(raw) : benjaminiHochbergAdjust(raw);
  const settings = { alpha, certifyAlpha, delta, serialAlpha, family };

  function* dice(): IterableIterator<DieAnalysis> {
    for (const d of perDie) yield dieAnalysis(d, adjustedAll, settings);
  }
  return { alpha, certifyAlpha, delta, multiplicity, serialAlpha, family, count: perDie.length, totalRolls, homogeneity: homogeneityGroups(perDie), dice };
}

function dieAnalysis(
  { r, symbol, face, first }: DieLevels,
  adjustedAll: readonly number[],
  { alpha, certifyAlpha, delta, serialAlpha, family }: { alpha: number; certifyAlpha: number; delta: number; serialAlpha: number; family: number },
): DieAnalysis {
  const adjusted = (face ? [symbol, face] : [symbol]).map((analysis, i) => {
    const adjustedP = adjustedAll[first + i] as number;
    // Below double range the adjusted p is bounded by m·p (Holm's largest multiplier; BH never exceeds it).
    const adjustedLogP = adjustedP > 1e-300 ? Math.log(adjustedP) : Math.min(0, analysis.headline.logP + Math.log(family));
    return { analysis, adjustedP, adjustedLogP };
  });
  const serial = runSerialChecks(r, serialAlpha);
  const failedChecks: FailedCheck[] = serial.failed.map((c) => ({ name: c.name, p: c.p, logP: c.logP, adjustedP: c.adjustedP, detail: c.detail }));
  const verdict = fixedSampleVerdict({ levels: adjusted, alpha, certifyAlpha, delta, family, failedChecks, serialAlpha });
  return {
    label: r.label,
    die: r.die,
    n: r.symbols.length,
    files: r.files,
    symbol,
    ...(face ? { face } : {}),
    adjusted,
    game: gameFiguresFor(r.die).map((figure) => ({ figure, result: figureRate(r, figure, alpha) })),
    serial,
    anytime: anytimeEvidence(r, symbol, alpha, delta, family),
    verdict,
    sentence: fixedSampleSentence(verdict, adjusted, alpha),
  };
}

function runSerialChecks(r: DieRolls, alpha: number): SerialChecksResult {
  // Face order is finer than symbol order: a sticky rig repeats the same physical face.
  const seq = Array.from(r.faces ?? r.symbols);
  if (r.faces) return serialChecks(seq, r.die.faceProbabilities, { alpha, labels: r.die.faces.map((f) => f.id), opposite: oppositeIndex(r.die) });
  return serialChecks(seq, symbolProbabilities(r.die), { alpha, labels: r.die.symbols });
}

function figureRate(r: DieRolls, figure: GameFigure, alpha: number): RateDelta {
  const inFigure = r.die.symbols.map((s) => figure.symbols.includes(s));
  let successes = 0;
  for (let i = 0; i < r.symbols.length; i++) if (inFigure[r.symbols[i] as number]) successes++;
  return rateDelta(successes, r.symbols.length, expectedRate(r.die, figure), alpha);
}

/**
 * The e-value of the die's symbols replayed as a session's monitor would take the log: its unresolved rolls in their
 * places (`DieRolls.unresolvedAt`), the e-value and decision least favourable over every face they could have been
 * (RobustMonitor), so that neither says more than holds whatever the reader declined.
 */
function anytimeEvidence(r: DieRolls, symbol: LevelAnalysis, alpha: number, delta: number, family: number): AnytimeEvidence {
  const at = r.unresolvedAt ?? [];
  const unresolved = at.length > 0 ? { unresolved: at.length } : {};
  const positive = symbol.expected.every((p) => p > 0) && symbol.expected.length >= 2;
  if (!positive) return { level: 'symbol', ...unresolved, logE: 0, decision: 'INCONCLUSIVE', decidedAt: null };
  // Bonferroni over the family keeps the anytime decisions' error rate at alpha across all dice.
  const monitor = new RobustMonitor(symbol.expected, { alpha: alpha / family, delta, labels: symbol.labels });
  for (const roll of rollsInPlace(r.symbols, at)) {
    if (roll === undefined) monitor.observeUnresolved();
    else monitor.observe(roll);
  }
  const state = monitor.state();
  return { level: 'symbol', ...unresolved, logE: state.logE, decision: state.decision.kind, decidedAt: state.decidedAt };
}

function homogeneityGroups(dice: readonly DieLevels[]): HomogeneityGroup[] {
  const byType = new Map<string, DieLevels[]>();
  for (const d of dice) {
    // Appended in place: copying the list for each die made this quadratic in the number of dice.
    const members = byType.get(d.r.die.id);
    if (members === undefined) byType.set(d.r.die.id, [d]);
    else members.push(d);
  }
  const groups: HomogeneityGroup[] = [];
  for (const [dieType, members] of byType) {
    if (members.length < 2) continue;
    const first = members[0] as DieLevels;
    const labels = members.map((m) => m.r.label);
    const symbolCounts = members.map((m) => m.symbol.counts);
    groups.push({ dieType, level: 'symbol', dice: labels, labels: first.symbol.labels, counts: symbolCounts, test: contingencyTest(symbolCounts) });
    if (members.every((m) => m.face)) {
      const faceCounts = members.map((m) => (m.face as LevelAnalysis).counts);
      const { labels: faceLabels, names } = first.face as LevelAnalysis;
      groups.push({ dieType, level: 'face', dice: labels, labels: faceLabels, ...(names ? { names } : {}), counts: faceCounts, test: contingencyTest(faceCounts) });
    }
  }
  return groups;
}
