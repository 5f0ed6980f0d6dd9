import { oppositeIndex, symbolProbabilities } from '../dice/indexing.js';
import type { DieType } from '../dice/types.js';
import { rateDelta, type RateDelta } from '../stats/effectSize.js';
import { contingencyTest, type ContingencyResult } from '../stats/homogeneity.js';
import { benjaminiHochbergAdjust, holmAdjust } from '../stats/multiplicity.js';
import { SequentialMonitor } from '../stats/sequential.js';
import { DEFAULT_SERIAL_ALPHA, serialChecks, type SerialChecksResult } from '../stats/serial.js';
import { describeVerdict, type FailedCheck, type Verdict } from '../stats/verdict.js';
import type { DieRolls } from '../rolllog/types.js';
import { fixedSampleVerdict, type AdjustedLevel } from './fixedSampleVerdict.js';
import { expectedRate, gameFiguresFor, type GameFigure } from './gameFigures.js';
import { analyzeLevel, countsOf, type LevelAnalysis } from './levelAnalysis.js';

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
}

/** The anytime-valid e-value of the whole sequence: valid evidence however the log was stopped. */
export interface AnytimeEvidence {
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
}

export interface HomogeneityGroup {
  readonly dieType: string;
  readonly level: 'symbol' | 'face';
  readonly dice: readonly string[];
  readonly labels: readonly string[];
  readonly test: ContingencyResult;
}

export interface Analysis {
  readonly alpha: number;
  readonly delta: number;
  readonly multiplicity: Multiplicity;
  readonly serialAlpha: number;
  /** Tests in the multiplicity family (one per die and level). */
  readonly family: number;
  readonly dice: readonly DieAnalysis[];
  readonly homogeneity: readonly HomogeneityGroup[];
}

/**
 * Analyses finished roll logs, one entry per die. Verdicts assume each die's
 * number of rolls was fixed in advance (as in published fixed-count tests);
 * the anytime-valid e-value is reported beside them, and stays valid however
 * the rolling was stopped.
 */
export function analyzeDice(rolls: readonly DieRolls[], options: AnalyzeOptions = {}): Analysis {
  const alpha = options.alpha ?? 0.05;
  const delta = options.delta ?? 0.03;
  const multiplicity = options.multiplicity ?? 'holm';
  const serialAlpha = options.serialAlpha ?? DEFAULT_SERIAL_ALPHA;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be between 0 and 1, got ${alpha}`);
  if (!(delta > 0 && delta < 1)) throw new RangeError(`delta must be between 0 and 1, got ${delta}`);

  const perDie = rolls.map((r) => {
    const symbolExpected = symbolProbabilities(r.die);
    const symbol = analyzeLevel('symbol', r.die.symbols, countsOf(r.symbols, r.die.symbols.length), symbolExpected, alpha);
    // A face-level test adds information only where faces share a symbol (d8s, D3); for a D6 it would repeat the symbol test.
    const face = r.faces && r.die.faces.length > r.die.symbols.length ? analyzeLevel('face', r.die.faces.map((f) => f.id), countsOf(r.faces, r.die.faces.length), r.die.faceProbabilities, alpha) : undefined;
    return { r, symbol, face, levels: face ? [symbol, face] : [symbol] };
  });

  // One family across every die and level: with 30 dice, ~1.5 fair dice would "fail" at 0.05 by chance otherwise.
  const all = perDie.flatMap((d) => d.levels);
  const raw = all.map((l) => l.headline.p);
  const adjustedAll = multiplicity === 'holm' ? holmAdjust(raw) : benjaminiHochbergAdjust(raw);
  const family = all.length;
  let cursor = 0;

  const dice = perDie.map(({ r, symbol, face, levels }) => {
    const adjusted = levels.map((analysis) => {
      const adjustedP = adjustedAll[cursor++] as number;
      // Below double range the adjusted p is bounded by m·p (Holm's largest multiplier; BH never exceeds it).
      const adjustedLogP = adjustedP > 1e-300 ? Math.log(adjustedP) : Math.min(0, analysis.headline.logP + Math.log(family));
      return { analysis, adjustedP, adjustedLogP };
    });
    const serial = runSerialChecks(r, serialAlpha);
    const failedChecks: FailedCheck[] = serial.failed.map((c) => ({ name: c.name, p: c.p, logP: c.logP, adjustedP: c.adjustedP, detail: c.detail }));
    const verdict = fixedSampleVerdict({ levels: adjusted, alpha, delta, family, failedChecks, serialAlpha });
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
      sentence: describeVerdict(verdict),
    };
  });

  return { alpha, delta, multiplicity, serialAlpha, family, dice, homogeneity: homogeneityGroups(dice) };
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

function anytimeEvidence(r: DieRolls, symbol: LevelAnalysis, alpha: number, delta: number, family: number): AnytimeEvidence {
  const positive = symbol.expected.every((p) => p > 0) && symbol.expected.length >= 2;
  if (!positive) return { logE: 0, decision: 'INCONCLUSIVE', decidedAt: null };
  // Bonferroni over the family keeps the anytime decisions' error rate at alpha across all dice.
  const monitor = new SequentialMonitor(symbol.expected, { alpha: alpha / family, delta, labels: symbol.labels });
  for (let i = 0; i < r.symbols.length; i++) monitor.observe(r.symbols[i] as number);
  const state = monitor.state();
  return { logE: state.logE, decision: state.decision.kind, decidedAt: state.decidedAt };
}

function homogeneityGroups(dice: readonly DieAnalysis[]): HomogeneityGroup[] {
  const byType = new Map<string, DieAnalysis[]>();
  for (const d of dice) {
    // Appended in place: copying the list for each die made this quadratic in the number of dice.
    const members = byType.get(d.die.id);
    if (members === undefined) byType.set(d.die.id, [d]);
    else members.push(d);
  }
  const groups: HomogeneityGroup[] = [];
  for (const [dieType, members] of byType) {
    if (members.length < 2) continue;
    const first = members[0] as DieAnalysis;
    groups.push({ dieType, level: 'symbol', dice: members.map((m) => m.label), labels: first.symbol.labels, test: contingencyTest(members.map((m) => [...m.symbol.counts])) });
    if (members.every((m) => m.face)) {
      groups.push({
        dieType,
        level: 'face',
        dice: members.map((m) => m.label),
        labels: (first.face as LevelAnalysis).labels,
        test: contingencyTest(members.map((m) => [...(m.face as LevelAnalysis).counts])),
      });
    }
  }
  return groups;
}
