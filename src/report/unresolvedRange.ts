/**
 * A game figure (hits + crits per die, successes on 4+) as every sentence and table of a verdict says it: one range
 * per figure. With unresolved rolls, the figure over the read rolls alone can be far off (a reader's declines can
 * depend on the face), and the range it spans whatever they were leaves out sampling error; the one range a user
 * needs is the interval that holds whatever they were and allows for chance, so that is the figure given.
 */
import { confidenceLabel, formatCount, formatProbability, signedPercent } from '../core/format.js';
import type { GameFigureResult } from '../analysis/analyze.js';

export interface InPlayFigure {
  /** "0.755", or with unresolved rolls "0.552 to 0.863". */
  readonly value: string;
  /** "+51.1 %", or with unresolved rolls "99.9 % interval, whatever its 26 unresolved rolls were". */
  readonly note: string;
}

/** `g` at the analysis's `alpha` (its intervals' level), its numbers written by `format`. */
export function inPlayFigure(g: GameFigureResult, alpha: number, format: (x: number) => string = formatProbability): InPlayFigure {
  const u = g.widenedOver;
  if (u === undefined || u <= 0) return { value: format(g.result.rate), note: signedPercent(g.result.relative) };
  const rolls = u === 1 ? 'its unresolved roll was' : `its ${formatCount(u)} unresolved rolls were`;
  return { value: `${format(g.result.interval.lower)} to ${format(g.result.interval.upper)}`, note: `${confidenceLabel(alpha)} interval, whatever ${rolls}` };
}

/** "hits + crits per die: 0.552 to 0.863 instead of 0.5 (99.9 % interval, whatever its 26 unresolved rolls were)". */
export function inPlayWords(g: GameFigureResult, alpha: number): string {
  const f = inPlayFigure(g, alpha);
  return `${g.figure.description}: ${f.value} instead of ${formatProbability(g.result.expected)} (${f.note})`;
}
