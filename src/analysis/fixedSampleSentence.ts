import { formatLogScientific } from '../core/format.js';
import { describeVerdict, type Verdict } from '../stats/verdict.js';
import { unfairLevel, type AdjustedLevel } from './fixedSampleVerdict.js';

/**
 * For a die UNFAIR by face, the symbol level when its test finds nothing: the die is off only in which of its faces
 * of one symbol come up (a D3's D6 faces 1 and 2 both read 1). Undefined otherwise.
 */
export function unbiasedReading(verdict: Verdict, levels: readonly AdjustedLevel[], alpha: number): AdjustedLevel | undefined {
  if (verdict.kind !== 'UNFAIR' || unfairLevel(levels, alpha)?.analysis.level !== 'face') return undefined;
  const symbol = levels.find((l) => l.analysis.level === 'symbol');
  return symbol !== undefined && symbol.adjustedP >= alpha ? symbol : undefined;
}

/** The sentence of a fixed-sample verdict; one UNFAIR by face alone ends saying its symbol test found nothing, with its p. */
export function fixedSampleSentence(verdict: Verdict, levels: readonly AdjustedLevel[], alpha: number): string {
  const reading = unbiasedReading(verdict, levels, alpha);
  if (reading === undefined) return describeVerdict(verdict);
  return describeVerdict(verdict, `by what it reads (${reading.analysis.labels.join(', ')}) no bias found, p = ${formatLogScientific(reading.adjustedLogP)}`);
}
