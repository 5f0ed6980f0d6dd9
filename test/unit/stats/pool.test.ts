import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { selectPool, type PoolCandidate } from '../../../src/stats/pool.js';

const red = [3 / 8, 1 / 8, 2 / 8, 2 / 8];

/*
 * Scores: the largest distance from the expected odds inside each die's Goodman 95 % intervals.
 *   def goodman(counts, alpha=0.05):
 *       counts = np.array(counts, float); n = counts.sum(); k = len(counts); A = stats.chi2.isf(alpha/k, 1)
 *       lo = (A + 2*counts - np.sqrt(A*(A + 4*counts*(n - counts)/n)))/(2*(n + A))
 *       hi = (A + 2*counts + np.sqrt(A*(A + 4*counts*(n - counts)/n)))/(2*(n + A)); return lo, hi
 *   red = np.array([3/8, 1/8, 2/8, 2/8]); lo, hi = goodman(c); np.max(np.maximum(hi - red, red - lo))
 *   [3760, 1240, 2500, 2500] -> 0.01317217079142935
 *   [30, 10, 20, 20]         -> 0.13956671389815078
 *   [1900, 600, 1260, 1240]  -> 0.022284756357907276
 *   [3900, 1150, 2450, 2500] -> 0.0272475327342957
 * A pool is picked after looking at every die's bound, so each die's intervals are at alpha over the candidates:
 * among 4 candidates goodman(c, 0.05/4), among 5 goodman(c, 0.05/5):
 *   [3760, 1240, 2500, 2500] -> 0.0154165953443553 (0.05/4)
 *   [30, 10, 20, 20]         -> 0.16467787125542377 (0.05/4)
 *   [1900, 600, 1260, 1240]  -> 0.0254780646352728 (0.05/4)
 *   [3900, 1150, 2450, 2500] -> 0.029503833714613237 (0.05/4), 0.029840408050797962 (0.05/5)
 */
const wellTested: PoolCandidate = { label: 'A', counts: [3760, 1240, 2500, 2500], expected: red };
const lucky: PoolCandidate = { label: 'B', counts: [30, 10, 20, 20], expected: red };
const medium: PoolCandidate = { label: 'C', counts: [1900, 600, 1260, 1240], expected: red };
const slightlyOff: PoolCandidate = { label: 'D', counts: [3900, 1150, 2450, 2500], expected: red };
const rejected: PoolCandidate = { label: 'E', counts: [5000, 1000, 2000, 2000], expected: red, rejected: true };

describe('selectPool', () => {
  it('ranks a die with fewer rolls but a luckier estimate below a well-tested die', () => {
    // B's point estimates are exactly the expected odds; A's are not, but A is measured 125 times as much.
    const { ranking } = selectPool([lucky, wellTested], { size: 1 });
    expect(ranking.map((d) => d.label)).toEqual(['A', 'B']);
  });

  it('scores each die by the largest deviation its simultaneous intervals allow', () => {
    const { ranking } = selectPool([lucky, wellTested, medium, slightlyOff], { size: 2 });
    const scores = Object.fromEntries(ranking.map((d) => [d.label, d.score]));
    expect(scores.A).toBeCloseTo(0.0154165953443553, 13);
    expect(scores.B).toBeCloseTo(0.16467787125542377, 13);
    expect(scores.C).toBeCloseTo(0.0254780646352728, 13);
    expect(scores.D).toBeCloseTo(0.029503833714613237, 13);
    // One die alone is scored at alpha itself.
    expect(selectPool([slightlyOff], { size: 1 }).ranking[0]?.score).toBeCloseTo(0.0272475327342957, 13);
    expect(ranking.map((d) => d.label)).toEqual(['A', 'C', 'D', 'B']);
  });

  it('widens a die\'s intervals over every face its unresolved rolls could have, so a reader\'s face-dependent declines cannot flatter its score', () => {
    /*
     * SciPy, with goodman's Wilson ends above: n = 5000 read + 500 unresolved; each face's lower end with none of the
     * 500 (counts c over 5500), its upper end with all of them (c + 500 over 5500):
     *   c = np.array([1900, 600, 1260, 1240.]); u = 500; n = c.sum() + u; A = stats.chi2.isf(0.05/2/4, 1)
     *   np.max(np.maximum(wilson_hi(c + u, n, A) - red, red - wilson_lo(c, n, A)))  -> 0.09015097078636092
     * (two candidates: alpha 0.05/2 each; with isf(0.05/4, 1), alpha alone, 0.08880817544094705)
     */
    const withDeclines: PoolCandidate = { ...medium, label: 'C2', unresolved: 500 };
    const { ranking } = selectPool([medium, withDeclines], { size: 1 });
    const c2 = ranking.find((d) => d.label === 'C2');
    expect(c2?.score).toBeCloseTo(0.09015097078636092, 13);
    expect(c2?.unresolved).toBe(500);
    expect(ranking.map((d) => d.label)).toEqual(['C', 'C2']);
    // Every way the 500 could fall, here all on one face, gives Goodman intervals inside the widened ones.
    for (let face = 0; face < 4; face++) {
      const counts = medium.counts.map((c, i) => c + (i === face ? 500 : 0));
      const own = selectPool([{ label: 'X', counts, expected: red }], { size: 1 }).ranking[0];
      own?.intervals.forEach((iv, i) => {
        expect(iv.lower).toBeGreaterThanOrEqual((c2?.intervals[i]?.lower as number) - 1e-15);
        expect(iv.upper).toBeLessThanOrEqual((c2?.intervals[i]?.upper as number) + 1e-15);
      });
    }
    expect(() => selectPool([{ ...medium, unresolved: -1 }], { size: 1 })).toThrow(/Die "C": -1 unresolved rolls is not a count/);
  });

  it('ranks a die by the intervals it was given (a session\'s own), as they are, and refuses intervals that do not match its faces', () => {
    const fair = [0.5, 0.5];
    const given: PoolCandidate = { label: 'S', counts: [50, 50], expected: fair, intervals: [{ lower: 0.3, upper: 0.62 }, { lower: 0.38, upper: 0.7 }] };
    const computed: PoolCandidate = { label: 'F', counts: [50, 50], expected: fair };
    const picked = selectPool([given, computed], { size: 2 });
    const s = picked.ranking.find((r) => r.label === 'S')!;
    expect(s.intervals).toEqual(given.intervals);
    expect(s.score).toBeCloseTo(0.2, 12);
    // The same rolls without given intervals: the pool's own Goodman bound, narrower here.
    expect(picked.ranking.find((r) => r.label === 'F')!.score).toBeLessThan(0.2);
    expect(() => selectPool([{ ...given, intervals: [{ lower: 0, upper: 1 }] }], { size: 1 })).toThrow('Die "S": 1 intervals given for 2 faces.');
  });

  it('takes the lowest scores, certifies the worst of them and reports the balance across the pool', () => {
    const selection = selectPool([lucky, wellTested, medium, slightlyOff, rejected], { size: 3 });
    expect(selection.pool.map((d) => d.label)).toEqual(['A', 'C', 'D']);
    expect(selection.certifiedDelta).toBeCloseTo(0.029840408050797962, 13);
    const hit = selection.balance[0]!;
    expect(hit.min).toBeCloseTo(0.376, 15); // A: 3760 / 10000
    expect(hit.max).toBeCloseTo(0.39, 15); // D: 3900 / 10000
    expect(hit.spread).toBeCloseTo(0.014, 15);
  });

  it('excludes dice rejected after multiplicity control, with the reason', () => {
    const selection = selectPool([wellTested, rejected, medium], { size: 2 });
    expect(selection.excluded).toEqual([{ label: 'E', reason: expect.stringMatching(/rejected/) }]);
    expect(selection.ranking.map((d) => d.label)).not.toContain('E');
  });

  it('says how many dice qualified when there are too few', () => {
    const call = (): unknown => selectPool([wellTested, rejected, medium], { size: 3 });
    expect(call).toThrow(InputError);
    expect(call).toThrow(/Only 2 of 3 dice qualify for a pool of 3/);
  });

  it('refuses to mix dice with different numbers of faces', () => {
    expect(() => selectPool([wellTested, { label: 'G', counts: [1, 1, 1], expected: [3 / 8, 2 / 8, 3 / 8] }], { size: 1 })).toThrow(
      /one kind/,
    );
  });

  it('names the die whose counts are invalid', () => {
    expect(() => selectPool([{ label: 'bad', counts: [1, -1, 1, 1], expected: red }], { size: 1 })).toThrow(/Die "bad"/);
  });
});
