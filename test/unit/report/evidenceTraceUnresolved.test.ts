import { describe, expect, it } from 'vitest';
import { d6Die } from '../../../src/dice/catalogue.js';
import { evidenceTrace } from '../../../src/report/evidenceTrace.js';
import { declinedEarly } from '../analysis/helpers.js';

/*
 * The die of test/unit/analysis/anytimeUnresolved.test.ts: 200 read rolls of 1–5 (no 6) with 40 unresolved rolls
 * among them, one after every fifth read roll, then 60 each of 1–6. Its least favourable log e-value over every
 * assignment of the 40 unresolved rolls, by SciPy's brute force there: -4.889771789595898; the read rolls alone:
 * 1.93703552340844, and the read-only monitor calls the die UNFAIR among the first 200.
 */
const FAIR = [1, 1, 1, 1, 1, 1].map((x) => x / 6);

describe('the report’s evidence chart of a die with unresolved rolls and no stored verdict', () => {
  it('replays the least favourable e-value with the unresolved rolls in their places, not the read rolls alone, and counts them', () => {
    const { symbols, unresolvedAt } = declinedEarly(d6Die);
    const trace = evidenceTrace(symbols, FAIR, { alpha: 0.05, delta: 0.05, family: 1, unresolvedAt });
    expect(trace.finalLogE).toBeCloseTo(-4.889771789595898, 9);
    expect(trace.decision).not.toBe('UNFAIR');
    expect(trace.unresolved).toBe(40);
    expect(trace.rolls.at(-1)).toBe(600);
    const naive = evidenceTrace(symbols, FAIR, { alpha: 0.05, delta: 0.05, family: 1 });
    expect(naive.finalLogE).toBeCloseTo(1.93703552340844, 9);
    expect(naive.decision).toBe('UNFAIR');
    expect(naive.unresolved).toBeUndefined();
  });
});
