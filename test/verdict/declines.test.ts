/**
 * Issue 10, done-means 1: fair dice read by a reader that declines some faces
 * more than others. Declines by face (the issue's `--declines 6=0.3,1=0.05`,
 * in between linearly): 1: 5 %, 2: 10 %, 3: 15 %, 4: 20 %, 5: 25 %, 6: 30 %.
 * Counted after re-tumbling the declined rolls away, a fair die shows a 6 at
 * 0.7/4.95 = 0.141 and a 1 at 0.95/4.95 = 0.192.
 *
 * Monte Carlo slack: a procedure with error rate exactly alpha would call
 * Binomial(D, alpha) of D fair dice UNFAIR; we allow up to its 0.999 quantile,
 * so a correct procedure fails a seed at most 1 time in 1,000 (SciPy):
 *   scipy.stats.binom.ppf(0.999, 100, 0.01) = 5   (sf at 5: 0.00053)
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/stats/random.js';
import { RobustMonitor } from '../../src/stats/robustMonitor.js';
import { SequentialMonitor } from '../../src/stats/sequential.js';
import { runNewHandling, runOldHandling, SimulatedDie } from './simulatedReader.js';

const D6 = [1, 1, 1, 1, 1, 1].map(() => 1 / 6);
const DECLINES = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3];
const ALPHA = 0.01; // a session's default
const DELTA = 0.05;
const BUDGET = 3000;
const FAIR_DICE = 100;
const SLACK_100_AT_1_PERCENT = 5;

function monitorOptions() {
  return { alpha: ALPHA, delta: DELTA, maxRolls: BUDGET };
}

describe('fair dice, a reader that declines 6s six times as often as 1s', () => {
  it("today's handling (declined dice re-tumbled away) calls far more than alpha of them UNFAIR: the mechanism the issue describes", () => {
    const random = seededRandom(10_001);
    let unfair = 0;
    for (let d = 0; d < FAIR_DICE; d++) {
      const m = runOldHandling(new SequentialMonitor(D6, monitorOptions()), new SimulatedDie(D6, { declines: DECLINES }, random));
      if (m.verdict().kind === 'UNFAIR') unfair++;
    }
    // alpha would be 1 die in 100; the selection makes most of them "unfair".
    expect(unfair).toBeGreaterThan(30);
  });

  it('the new handling (declined rolls kept as unresolved, verdicts robust to them) calls no more than alpha of them UNFAIR, before and after review', () => {
    const random = seededRandom(10_002);
    let unfair = 0;
    let unfairAfterReview = 0;
    let blockedByUnresolved = 0;
    for (let d = 0; d < FAIR_DICE; d++) {
      const m = new RobustMonitor(D6, monitorOptions());
      const declined = runNewHandling(m, new SimulatedDie(D6, { declines: DECLINES }, random));
      const s = m.state();
      if (s.decision.kind === 'UNFAIR') unfair++;
      if (s.reason === 'unresolved reads') blockedByUnresolved++;
      expect(s.unresolved).toBe(declined.length);
      // A person labels every unresolved roll with its true face afterwards.
      for (const r of declined) m.review(r.position, r.truth);
      if (m.verdict().kind === 'UNFAIR') unfairAfterReview++;
    }
    expect(unfair).toBeLessThanOrEqual(SLACK_100_AT_1_PERCENT);
    expect(unfairAfterReview).toBeLessThanOrEqual(SLACK_100_AT_1_PERCENT);
    // With ~17 % of rolls unresolved, the honest answer for most is "review them".
    expect(blockedByUnresolved).toBeGreaterThan(50);
  });
});

describe('loaded dice, the same reader', () => {
  it('flags every die loaded on the 1 (a 1 at 0.25, which the reader rarely declines) within the budget', () => {
    const random = seededRandom(10_003);
    const odds = [0.25, 0.15, 0.15, 0.15, 0.15, 0.15];
    const decidedAt: number[] = [];
    for (let d = 0; d < 50; d++) {
      const m = new RobustMonitor(D6, monitorOptions());
      runNewHandling(m, new SimulatedDie(odds, { declines: DECLINES }, random));
      expect(m.verdict().kind).toBe('UNFAIR');
      decidedAt.push(m.state().decidedAt as number);
    }
    decidedAt.sort((a, b) => a - b);
    // Measured: median about 550 rolls (unresolved ones included).
    expect(decidedAt[25]).toBeLessThan(1000);
  });

  it('flags every die loaded on the 6 (a 6 at 0.25, the face the reader declines most) once its unresolved rolls are reviewed, and says to review them before', () => {
    const random = seededRandom(10_004);
    const odds = [0.15, 0.15, 0.15, 0.15, 0.15, 0.25];
    for (let d = 0; d < 50; d++) {
      const m = new RobustMonitor(D6, monitorOptions());
      const declined = runNewHandling(m, new SimulatedDie(odds, { declines: DECLINES }, random));
      // The unresolved rolls (~19 %) could all be the faces that came up less: no verdict holds for every assignment...
      const s = m.state();
      expect(s.decision.kind).toBe('INCONCLUSIVE');
      expect(s.reason).toBe('unresolved reads');
      expect(s.readsToReview).toBeGreaterThan(0);
      expect(s.readsToReview).toBeLessThanOrEqual(s.unresolved);
      // ...until a person reviews them.
      for (const r of declined) m.review(r.position, r.truth);
      expect(m.verdict().kind).toBe('UNFAIR');
    }
  });
});
