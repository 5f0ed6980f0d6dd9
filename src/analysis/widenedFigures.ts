/**
 * A die's fixed-sample figures made to hold whatever its unresolved rolls were (src/analysis/unresolvedRolls.ts uses
 * them for the verdict it keeps): each face's simultaneous interval widened from "none of the u unresolved rolls were
 * this face" to "all of them were" (`widenedGoodmanIntervals`), a game figure's interval likewise, and the p-value of
 * the rule that calls such a die UNFAIR (some face's widened interval leaves out its odds).
 */
import { chiSquareSf } from '../stats/special.js';
import { widenedGoodmanIntervals, wilsonInterval, type Interval } from '../stats/intervals.js';
import type { DieAnalysis, GameFigureResult } from './analyze.js';
import type { LevelAnalysis } from './levelAnalysis.js';

/**
 * `d` with its level intervals (at the die's certifying level, `certifyAlpha`) and game figures (at `alpha`) widened
 * over its `unresolved` rolls: the figures of a die with unresolved rolls, whoever made its verdict (a session that
 * stored one, several sessions together, or a fixed-sample test here), so one die shows one set of figures.
 */
export function widenedFigures(d: DieAnalysis, unresolved: number, s: { readonly alpha: number; readonly certifyAlpha: number }): DieAnalysis {
  if (unresolved <= 0) return d;
  const symbol = widenedLevel(d.symbol, unresolved, s.certifyAlpha);
  const face = d.face ? widenedLevel(d.face, unresolved, s.certifyAlpha) : undefined;
  // The adjusted p-values name their level: they follow it to its widened copy.
  const adjusted = d.adjusted.map((a) => ({ ...a, analysis: a.analysis === d.face && face ? face : a.analysis === d.symbol ? symbol : a.analysis }));
  const game = d.game.map((g) => widenedGameFigure(g, d.symbol.counts, d.symbol.labels, unresolved, s.alpha));
  return { ...d, symbol, ...(face ? { face } : {}), adjusted, game };
}

/** `l` with its intervals widened over `unresolved` rolls, at `alpha` (the level its intervals were made at). */
export function widenedLevel(l: LevelAnalysis, unresolved: number, alpha: number): LevelAnalysis {
  return { ...l, intervals: widenedGoodmanIntervals(l.counts, unresolved, alpha), widenedOver: unresolved };
}

/**
 * A game figure's Wilson interval over all n + u rolls whatever the u unresolved ones were: its lower end with none of
 * them in the figure, its upper end with all of them (a Wilson end grows with its count). The rate stays the read one.
 */
export function widenedGameFigure(g: GameFigureResult, symbolCounts: readonly number[], symbols: readonly string[], unresolved: number, alpha: number): GameFigureResult {
  let successes = 0;
  let n = 0;
  symbolCounts.forEach((c, i) => {
    n += c;
    if (g.figure.symbols.includes(symbols[i] as string)) successes += c;
  });
  const interval: Interval = { lower: wilsonInterval(successes, n + unresolved, alpha).lower, upper: wilsonInterval(successes + unresolved, n + unresolved, alpha).upper };
  return { ...g, result: { ...g.result, interval }, widenedOver: unresolved };
}

/** The p-value of one level's widened rule, before control over the family: Bonferroni over its faces. */
export interface WidenedP {
  readonly p: number;
  readonly logP: number;
  /** Per face, its score statistic at the assignment of the unresolved rolls least against its odds (0 when some assignment matches them). */
  readonly z: readonly number[];
}

/**
 * The smallest level at which some face's widened Goodman interval (Bonferroni over the k faces) leaves out its
 * expected odds: a Wilson interval for c of N leaves out p0 exactly when (c − N·p0)² > z²·N·p0(1 − p0), so the face
 * whose unresolved rolls fit its odds worst decides, with z² at the assignment of those rolls nearest its odds (none of
 * them its when it came up too often, all of them when too rarely). `unfairWhateverUnresolved(counts, expected, u, a)`
 * holds exactly when this p is below a.
 */
export function widenedUnfairP(counts: readonly number[], expected: readonly number[], unresolved: number): WidenedP {
  const k = counts.length;
  const n = counts.reduce((a, b) => a + b, 0) + unresolved;
  let logTail = 0;
  const z = counts.map((c, i) => {
    const p0 = expected[i] as number;
    const over = c - n * p0;
    const under = n * p0 - (c + unresolved);
    const gap = Math.max(over, under, 0);
    if (gap === 0) return 0;
    // A face of odds 0 (or 1) seen (or missed) is left out at every level.
    const score = p0 > 0 && p0 < 1 ? gap / Math.sqrt(n * p0 * (1 - p0)) : Infinity;
    logTail = Math.min(logTail, chiSquareSf(score * score, 1).logP);
    return score;
  });
  const logP = Math.min(0, Math.log(k) + logTail);
  return { p: Math.exp(logP), logP, z };
}
