import { describe, expect, it } from 'vitest';
import { sessionIntervalsAt } from '../../../src/analysis/sessionIntervalsAt.js';
import { robustFaceIntervals } from '../../../src/stats/robustIntervals.js';

/*
 * SciPy golden (the beta-mixture confidence sequence of a face at alpha/6, prior 1000·p0, as a session's monitor makes
 * it; lower end at the face's count, upper end with the 10 unresolved rolls added):
 *   from scipy.special import betaln; from scipy.optimize import brentq
 *   def interval(s, n, a, b, alpha):
 *       lm = betaln(a + s, b + n - s) - betaln(a, b)
 *       f = lambda p: lm - s * math.log(p) - (n - s) * math.log1p(-p) - math.log(1 / alpha)
 *       return brentq(f, 1e-15, s / n), brentq(f, s / n, 1 - 1e-15)
 *   counts = [30, 22, 25, 28, 24, 11], u = 10, n = 150, a = 1000/6, b = 5000/6
 *   face i: (interval(c_i, n, a, b, alpha/6)[0], interval(c_i + u, n, a, b, alpha/6)[1])
 *   alpha 0.0125:  face 1 (0.0994815179, 0.4464280914), face 6 (0.0116086627, 0.2621269555)
 *   alpha 0.00625: face 1 (0.0955155852, 0.4526804484), face 6 (0.0107857003, 0.2692990813)
 */
describe("a session's intervals made again at a pool's stricter level", () => {
  const expected = Array(6).fill(1 / 6) as number[];
  const partial = { counts: [30, 22, 25, 28, 24, 11], unresolved: 10 };
  const stored = {
    alphaPerDie: 0.0125,
    partial,
    faces: robustFaceIntervals(partial, expected, { alpha: 0.0125 }).map((iv, i) => ({ label: String(i + 1), expected: 1 / 6, ...iv })),
  };

  it('gives the session’s own intervals at its level, and wider ones, by the same sequence, at a stricter level', () => {
    expect(stored.faces[0]?.lower).toBeCloseTo(0.0994815179, 8);
    expect(stored.faces[5]?.upper).toBeCloseTo(0.2621269555, 8);
    expect(sessionIntervalsAt(stored, 0.05)).toBe(stored.faces);
    expect(sessionIntervalsAt(stored, 0.0125)).toBe(stored.faces);
    const stricter = sessionIntervalsAt(stored, 0.00625);
    expect(stricter?.map((f) => f.label)).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(stricter?.[0]?.lower).toBeCloseTo(0.0955155852, 8);
    expect(stricter?.[0]?.upper).toBeCloseTo(0.4526804484, 8);
    expect(stricter?.[5]?.lower).toBeCloseTo(0.0107857003, 8);
    expect(stricter?.[5]?.upper).toBeCloseTo(0.2692990813, 8);
  });

  it('gives nothing where it cannot make them again: no counts, counts that do not give back the stored intervals, or none stored', () => {
    const { partial: _, ...withoutCounts } = stored;
    expect(sessionIntervalsAt(withoutCounts, 0.00625)).toBeUndefined();
    // Counts that are not the ones the stored intervals were made from (or intervals made by another rule).
    expect(sessionIntervalsAt({ ...stored, partial: { ...partial, unresolved: 9 } }, 0.00625)).toBeUndefined();
    expect(sessionIntervalsAt({ alphaPerDie: 0.0125, partial }, 0.00625)).toBeUndefined();
    // With misread bounds, made again with them (the stored ones were made with them too).
    const misreadRates = [0.01, 0.01, 0.01, 0.01, 0.01, 0.02];
    const withMisreads = { ...stored, partial: { ...partial, misreadRates }, faces: robustFaceIntervals(partial, expected, { alpha: 0.0125, misreadRates }).map((iv, i) => ({ label: String(i + 1), expected: 1 / 6, ...iv })) };
    const again = sessionIntervalsAt(withMisreads, 0.00625);
    expect(again).toEqual(robustFaceIntervals(partial, expected, { alpha: 0.00625, misreadRates }).map((iv, i) => ({ label: String(i + 1), expected: 1 / 6, ...iv })));
    expect(sessionIntervalsAt({ ...withMisreads, partial }, 0.00625)).toBeUndefined();
  });
});
