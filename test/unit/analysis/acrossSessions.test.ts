import { describe, expect, it } from 'vitest';
import { combineSessions, type SessionPart } from '../../../src/analysis/acrossSessions.js';
import { pearsonTest } from '../../../src/stats/goodnessOfFit.js';
import { drawMultinomial, seededRandom } from '../../../src/stats/random.js';
import { RobustMonitor } from '../../../src/stats/robustMonitor.js';

const D6 = [1, 1, 1, 1, 1, 1].map(() => 1 / 6);
const FACES = ['1', '2', '3', '4', '5', '6'];

/** One session of `rolls` rolls of a die with odds `p`, judged by its own monitor at `alpha`: what it stores. */
function session(id: number, p: readonly number[], rolls: number, alpha: number, random: () => number): SessionPart & { counts: number[] } {
  const m = new RobustMonitor(D6, { alpha, delta: 0.05, labels: FACES });
  const counts = drawMultinomial(rolls, p, random);
  m.observeCounts(counts);
  const s = m.state();
  return {
    session: id,
    kind: s.decision.kind,
    logE: s.logE,
    alphaPerDie: alpha,
    faces: s.confidenceSequence.map((iv, i) => ({ label: FACES[i] as string, lower: iv.lower, upper: iv.upper })),
    counts,
  };
}

describe("a die judged across its stored sessions", () => {
  it('keeps its error rate when the die is rolled again whenever the pooled rolls look nearly unfair, where a fixed-n test on them does not', () => {
    // A fair die, rolled in sessions of 60 until the pooled rolls' Pearson p is not in [0.05, 0.3) (someone who rolls
    // again while it "looks nearly unfair"), at most 6 sessions. The fixed-n test on the pooled rolls at each look
    // rejects far more often than its 5 %; the product of the sessions' e-values, looked at after each session, does not.
    const alpha = 0.05;
    const random = seededRandom(2026);
    const reps = 1500;
    let fixedWrong = 0;
    let productWrong = 0;
    for (let r = 0; r < reps; r++) {
      const parts: SessionPart[] = [];
      const pooled = [0, 0, 0, 0, 0, 0];
      let fixed = false;
      let product = false;
      for (let k = 0; k < 6; k++) {
        const s = session(k + 1, D6, 60, alpha, random);
        parts.push(s);
        s.counts.forEach((c, i) => (pooled[i] = (pooled[i] as number) + c));
        const p = pearsonTest(pooled, D6).p;
        fixed ||= p < alpha;
        product ||= combineSessions(parts, D6, FACES, { alpha, delta: 0.05, family: 1 }).decision === 'UNFAIR';
        if (!(p >= 0.05 && p < 0.3)) break;
      }
      if (fixed) fixedWrong++;
      if (product) productWrong++;
    }
    // Monte Carlo slack: three standard errors of a 5 % rate over 1,500 dice.
    const slack = 3 * Math.sqrt((alpha * (1 - alpha)) / reps);
    expect(productWrong / reps).toBeLessThanOrEqual(alpha + slack);
    expect(fixedWrong / reps).toBeGreaterThan(alpha + slack);
  });

  it('certifies a die within the margin only by its sessions\u2019 intervals together, and never one that is off by more', () => {
    // A die whose 6 comes up 0.23 (0.063 over): its sessions' intervals must not together place it within ±0.05.
    const loaded = [0.154, 0.154, 0.154, 0.154, 0.154, 0.23];
    const random = seededRandom(7);
    let certified = 0;
    for (let r = 0; r < 300; r++) {
      const parts = [1, 2, 3].map((id) => session(id, loaded, 400, 0.01, random));
      if (combineSessions(parts, D6, FACES, { alpha: 0.05, delta: 0.05, family: 1 }).decision === 'FAIR_WITHIN') certified++;
    }
    expect(certified).toBe(0);
    // A fair die over three long sessions is certified within ±0.05, and the claim's error is the sum of the sessions' alphas.
    const fair = [1, 2, 3].map((id) => session(id, D6, 3000, 0.01, seededRandom(100 + id)));
    const c = combineSessions(fair, D6, FACES, { alpha: 0.05, delta: 0.05, family: 1 });
    expect(c.decision).toBe('FAIR_WITHIN');
    expect(c.certified?.alpha).toBeCloseTo(0.03, 12);
    // Each face's interval is the tightest bound any session gave it.
    for (let i = 0; i < 6; i++) {
      expect(c.intervals?.[i]?.lower).toBe(Math.max(...fair.map((p) => p.faces![i]!.lower)));
      expect(c.intervals?.[i]?.upper).toBe(Math.min(...fair.map((p) => p.faces![i]!.upper)));
    }
    // Their alphas adding up past the analysis's share, nothing is certified.
    expect(combineSessions(fair, D6, FACES, { alpha: 0.05, delta: 0.05, family: 2 }).decision).toBe('INCONCLUSIVE');
  });

  it('multiplies the e-values, leaves out a session whose rig checks failed, and says when the intervals do not meet', () => {
    const part = (session: number, logE: number, kind = 'INCONCLUSIVE', lower = 0.1, upper = 0.25): SessionPart => ({
      session,
      kind,
      logE,
      alphaPerDie: 0.001,
      faces: FACES.map((label) => ({ label, lower, upper })),
    });
    const s = { alpha: 0.05, delta: 0.05, family: 4 };
    // log(4 / 0.05) = 4.382: two sessions of e = 10 each (log 2.303) reach it together; neither alone does.
    expect(combineSessions([part(1, Math.log(10))], D6, FACES, s).decision).not.toBe('UNFAIR');
    const two = combineSessions([part(1, Math.log(10)), part(2, Math.log(10))], D6, FACES, s);
    expect(two.logE).toBeCloseTo(Math.log(100), 12);
    expect(two.logThreshold).toBeCloseTo(Math.log(80), 12);
    expect(two.decision).toBe('UNFAIR');
    // An e-value below 1 counts against the die as much as one above counts for it: no session is left out for it.
    expect(combineSessions([part(1, Math.log(10)), part(2, Math.log(10)), part(3, Math.log(0.5))], D6, FACES, s).decision).toBe('INCONCLUSIVE');
    // A RIG_SUSPECT session brings no evidence of unfairness, but its evidence against it still counts.
    expect(combineSessions([part(1, Math.log(10)), part(2, Math.log(1e6), 'RIG_SUSPECT')], D6, FACES, s).logE).toBeCloseTo(Math.log(10), 12);
    expect(combineSessions([part(1, Math.log(10)), part(2, Math.log(0.5), 'RIG_SUSPECT')], D6, FACES, s).logE).toBeCloseTo(Math.log(5), 12);
    // Intervals that do not meet on a face certify nothing.
    const apart = combineSessions([part(1, 0, 'INCONCLUSIVE', 0.1, 0.15), part(2, 0, 'INCONCLUSIVE', 0.16, 0.2)], D6, FACES, s);
    expect(apart.apart).toBe(true);
    expect(apart.certified).toBeUndefined();
    expect(apart.decision).toBe('INCONCLUSIVE');
  });
});
