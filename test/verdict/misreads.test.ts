/**
 * Issue 10, done-means 2: misreads at a calibration's measured rate. An X-Wing
 * red die by symbol; the reader reads 4 % of crits as hits (0.5 % of all reads,
 * concentrated on one face pair), so a fair die is READ with odds
 * [0.38, 0.12, 0.25, 0.25] instead of [0.375, 0.125, 0.25, 0.25].
 *
 * The calibration that measured it: hit 0 misread of 300 reads, crit 2 of 99,
 * focus 0 of 200, blank 0 of 200; its 95 % upper bounds (Clopper–Pearson,
 * misreadRate.ts, checked against SciPy there) are
 * [0.00994, 0.0622, 0.0149, 0.0149]: the true crit rate, 0.04, is inside.
 *
 * The bias is small (0.005), so it takes long runs to show: rolls are fed in
 * batches of 1,000 (a decision is checked once per batch, which only makes it
 * rarer) up to 300,000 per die, with a margin too tight to certify (0.002), so
 * that each die runs until UNFAIR or the budget.
 *
 * Monte Carlo slack as in declines.test.ts: scipy.stats.binom.ppf(0.999, 50, 0.01) = 4.
 */
import { describe, expect, it } from 'vitest';
import { misreadRateBounds } from '../../src/stats/misreadRate.js';
import { drawMultinomial, seededRandom, type RandomSource } from '../../src/stats/random.js';
import { RobustMonitor } from '../../src/stats/robustMonitor.js';
import { SequentialMonitor } from '../../src/stats/sequential.js';
import { runNewHandling, SimulatedDie } from './simulatedReader.js';

const RED = [3 / 8, 1 / 8, 2 / 8, 2 / 8];
const RED_LABELS = ['hit', 'crit', 'focus', 'blank'];
const READER = { misreadRates: [0, 0.04, 0, 0], misreadAs: [0, 0, 0, 0] };
const CALIBRATION = misreadRateBounds([
  { read: 300, misread: 0 },
  { read: 99, misread: 2 },
  { read: 200, misread: 0 },
  { read: 200, misread: 0 },
]);
const ALPHA = 0.01;
const DICE = 50;
const SLACK_50_AT_1_PERCENT = 4;
const BATCH = 1000;
const LONG_RUN = 300_000;

/** The odds a fair die is read with: [0.38, 0.12, 0.25, 0.25]. */
const READ_ODDS = SimulatedDie.readOdds(RED, READER);

/** Reads one batch of rolls of a fair die: counts per read face, drawn from the read odds directly. */
function readBatch(random: RandomSource): number[] {
  return drawMultinomial(BATCH, READ_ODDS, random);
}

describe('a fair red die read with 4 % of crits misread as hits', () => {
  it('is read with the odds the module comment gives, and the calibration bounds cover the true misread rates', () => {
    SimulatedDie.readOdds(RED, READER).forEach((q, i) => expect(q).toBeCloseTo([0.38, 0.12, 0.25, 0.25][i]!, 15));
    expect(CALIBRATION[1]).toBeGreaterThan(0.04);
    expect(CALIBRATION[1]).toBeCloseTo(0.06222809568671874, 12);
  });

  it("today's monitor (reads taken as true faces) calls most of them UNFAIR in a long run", () => {
    const random = seededRandom(20_001);
    let unfair = 0;
    for (let d = 0; d < DICE; d++) {
      const m = new SequentialMonitor(RED, { alpha: ALPHA, delta: 0.002, maxRolls: LONG_RUN, labels: RED_LABELS });
      while (!m.decided) m.observeCounts(readBatch(random));
      if (m.verdict().kind === 'UNFAIR') unfair++;
    }
    // alpha would be 1 die in 100.
    expect(unfair).toBeGreaterThan(DICE / 2);
  });

  it('the robust monitor, allowing for the calibration misread rates, calls no more than alpha of them UNFAIR', () => {
    const random = seededRandom(20_002);
    let unfair = 0;
    for (let d = 0; d < DICE; d++) {
      const m = new RobustMonitor(RED, { alpha: ALPHA, delta: 0.002, maxRolls: LONG_RUN, labels: RED_LABELS, misreadRates: CALIBRATION });
      while (!m.decided) m.observeCounts(readBatch(random));
      if (m.verdict().kind === 'UNFAIR') unfair++;
    }
    expect(unfair).toBeLessThanOrEqual(SLACK_50_AT_1_PERCENT);
  });
});

describe('a loaded red die (hit at 0.45) read by the same reader', () => {
  it('is still flagged UNFAIR by the robust monitor within 3,000 rolls, every one of 30', () => {
    const random = seededRandom(20_003);
    const loaded = RED.map((p, i) => (i === 0 ? 0.45 : (p * 0.55) / 0.625));
    const decidedAt: number[] = [];
    for (let d = 0; d < 30; d++) {
      const m = new RobustMonitor(RED, { alpha: ALPHA, delta: 0.05, maxRolls: 3000, labels: RED_LABELS, misreadRates: CALIBRATION });
      runNewHandling(m, new SimulatedDie(loaded, READER, random));
      expect(m.verdict().kind).toBe('UNFAIR');
      decidedAt.push(m.state().decidedAt as number);
    }
    decidedAt.sort((a, b) => a - b);
    // Measured: median about 900 rolls (the misread allowance costs some: hit could be up to 0.02 higher by misreads).
    expect(decidedAt[15]).toBeLessThan(1500);
  });
});
