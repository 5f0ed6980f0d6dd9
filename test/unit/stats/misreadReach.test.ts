/**
 * The margin a calibration's misread bounds let a fair die be certified to, however long it rolls, and the validation
 * reads that would bring it within a session's margin. Golden values: the limit by hand for equal bounds (below), the
 * monitor's own check at a billion rolls, and the zero-misread read counts from SciPy:
 *
 *   from scipy.stats import beta
 *   for r in (0.01, 0.02, 0.1, 0.005, 0.025 / 0.95):
 *       n = 1
 *       while beta.ppf(0.95, 1, n) > r: n += 1
 *       print(r, n)            # 299, 149, 29, 598, 113
 *   [beta.ppf(0.95, 1, n) for n in (27, 7, 20, 18)]   # 0.105019, 0.348164, 0.139108, 0.153318
 */
import { describe, expect, it } from 'vitest';
import { certifiableMarginLimit, readsToBoundMisreads, validationReadsFor } from '../../../src/stats/misreadReach.js';
import { robustInsideMargin } from '../../../src/stats/robustIntervals.js';

/** A red X-Wing die's symbols: hit, crit, focus, blank. */
const RED = [3 / 8, 1 / 8, 2 / 8, 2 / 8];
/** The bounds of a profile calibrated on 150 foreign-2 renders: 27, 7, 20 and 18 held-back reads, none wrong. */
const PROFILE_150 = [0.105019, 0.348164, 0.139108, 0.153318];

/** The monitor's FAIR_WITHIN check on a billion rolls of a fair die read as it falls. */
function certifiedAtBillion(rates: readonly number[], delta: number): boolean {
  const n = 1e9;
  return robustInsideMargin({ counts: RED.map((p) => Math.round(p * n)), unresolved: 0 }, RED, { alpha: 0.05, misreadRates: rates }, delta);
}

describe('the margin misread bounds let a fair die be certified to', () => {
  it('is 0 when no misreads are allowed for', () => {
    expect(certifiableMarginLimit(RED, [0, 0, 0, 0])).toBe(0);
  });

  it('is, for equal bounds r, r (1 − p_min) / (1 − (k − 1) r) where the rarest face’s lower end binds', () => {
    // Lower end of face i: delta > Σ_{j≠i} r (p_j + delta) = r (1 − p_i + 3 delta), so delta > r (1 − p_i) / (1 − 3 r);
    // largest for the crit (1/8): 0.05 · 0.875 / 0.85 = 0.0514706. Upper ends: delta > p r / (1 − r), at most 0.0197.
    expect(certifiableMarginLimit(RED, [0.05, 0.05, 0.05, 0.05])).toBeCloseTo((0.05 * 0.875) / 0.85, 7);
  });

  it('is where the monitor’s own check starts to certify a fair die after a billion rolls', () => {
    for (const rates of [PROFILE_150, [0.05, 0.05, 0.05, 0.05], [0.012, 0.03, 0.012, 0.02]]) {
      const limit = certifiableMarginLimit(RED, rates);
      expect(certifiedAtBillion(rates, limit * 1.02)).toBe(true);
      expect(certifiedAtBillion(rates, limit * 0.98)).toBe(false);
    }
  });

  it('leaves a 150-image profile’s red dice uncertifiable within ±5 %: no closer than ±32.4 %', () => {
    // At that margin only the hit (3/8) is above it, and its lower end binds: the others' bounds times their odds plus
    // the margin, 0.348164 (1/8 + d) + 0.139108 (2/8 + d) + 0.153318 (2/8 + d) = d at d = 0.32450.
    expect(certifiableMarginLimit(RED, PROFILE_150)).toBeCloseTo(0.3245, 4);
  });

  it('refuses bounds that do not match the faces', () => {
    expect(() => certifiableMarginLimit(RED, [0.1, 0.1])).toThrow(/2 misread bounds for 4 faces/);
  });
});

describe('validation reads that bound misreads', () => {
  it('are the Clopper–Pearson counts: 0 misreads in n reads bound the rate at 1 − 0.05^(1/n)', () => {
    expect([0.01, 0.02, 0.1, 0.005].map((r) => readsToBoundMisreads(r))).toEqual([299, 149, 29, 598]);
  });

  it('for a red die within ±5 %, bound every symbol at 0.025 / 0.95, half the margin: 113 reads of each', () => {
    const { rate, reads } = validationReadsFor(RED, 0.05);
    expect(rate).toBeCloseTo(0.025 / 0.95, 7);
    expect(reads).toBe(113);
    expect(certifiableMarginLimit(RED, RED.map(() => rate))).toBeLessThanOrEqual(0.025 + 1e-8);
  });

  it('refuses a rate or margin outside (0, 1)', () => {
    expect(() => readsToBoundMisreads(0)).toThrow(/in \(0, 1\), got 0/);
    expect(() => validationReadsFor(RED, 1)).toThrow(/margin must be in \(0, 1\), got 1/);
  });
});
