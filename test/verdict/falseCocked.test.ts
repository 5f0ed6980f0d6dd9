/**
 * A flat die the reader calls cocked is thrown again (`session/throwOutcome.ts`): its roll is replaced by another.
 * When the reader calls some faces cocked more than others, that is a face-dependent selection: a fair red die whose
 * flat crits are called cocked 6 % of the time is counted with odds q_i = p_i (1 − s_i) / (1 − Σ p_j s_j) =
 * [0.3778, 0.1184, 0.2519, 0.2519] (s = [0, 0.06, 0, 0]). That is exactly a misread of 6 % of crits to faces drawn
 * from q, so a calibration that counts its flat dice called cocked as misread (`profileMisreadCounts`) bounds it.
 *
 * The calibration (checked on many rolls): 3,000 hits, 1,000 crits (60 called cocked), 2,000 focus and 2,000 blanks,
 * none read wrong; no cocked die read as a face among all 8,000 dice. 95 % upper bounds (SciPy):
 *   beta.ppf(0.95, 61, 941) -> 0.07377591790783614   (crit: 60 of 1,000 called cocked)
 *   beta.ppf(0.95, 1, 940)  -> 0.003181876294986801  (crit: 0 of 940, were the 60 left out)
 * Monte Carlo slack as in declines.test.ts: scipy.stats.binom.ppf(0.999, 50, 0.01) = 4.
 */
import { describe, expect, it } from 'vitest';
import { drawMultinomial, seededRandom, type RandomSource } from '../../src/stats/random.js';
import { measuredMisreads, misreadRatesOf } from '../../src/stats/misreadRate.js';
import { RobustMonitor } from '../../src/stats/robustMonitor.js';
import { SequentialMonitor } from '../../src/stats/sequential.js';
import { profileMisreadAssumption, profileMisreadCounts } from '../../src/vision/calibration/profileMisreads.js';
import type { CalibrationProfile } from '../../src/vision/calibration/profile.js';

const RED = [3 / 8, 1 / 8, 2 / 8, 2 / 8];
const RED_LABELS = ['hit', 'crit', 'focus', 'blank'];
const CALLED_COCKED = [0, 0.06, 0, 0];
const ALPHA = 0.01;
const DICE = 50;
const SLACK_50_AT_1_PERCENT = 4;
const BATCH = 1000;
const LONG_RUN = 300_000;

const COLUMNS = ['red-hit', 'red-crit', 'red-focus', 'red-blank', 'declined', 'cocked'];
const PROFILE = {
  name: 'cal',
  hash: 'sha256:00112233445566778899',
  validation: {
    heldBack: 'every 4th image',
    samples: 8000,
    read: 7940,
    correct: 7940,
    declined: 60,
    cocked: 60,
    accuracy: 1,
    rejectionRate: 60 / 8000,
    confidentErrors: 0,
    cockedReadAsFace: 0,
    confusion: {
      rows: ['red-hit', 'red-crit', 'red-focus', 'red-blank'],
      columns: COLUMNS,
      counts: [
        [3000, 0, 0, 0, 0, 0],
        [0, 940, 0, 0, 0, 60],
        [0, 0, 2000, 0, 0, 0],
        [0, 0, 0, 2000, 0, 0],
      ],
    },
  },
} as unknown as Pick<CalibrationProfile, 'name' | 'hash' | 'validation' | 'checked'>;

/** One counted roll of a fair die: a flat die called cocked is thrown again, and only the roll that stands is counted. */
function countedRoll(random: RandomSource): number {
  for (;;) {
    const [face] = drawMultinomial(1, RED, random).flatMap((n, i) => (n > 0 ? [i] : []));
    if (random() >= (CALLED_COCKED[face as number] as number)) return face as number;
  }
}

const ps = RED.reduce((s, p, i) => s + p * (CALLED_COCKED[i] as number), 0);
const COUNTED_ODDS = RED.map((p, i) => (p * (1 - (CALLED_COCKED[i] as number))) / (1 - ps));

describe('a fair red die whose flat crits are called cocked 6 % of the time and thrown again', () => {
  it('is counted with the odds the module comment gives, and the calibration counts the crits called cocked as misread', () => {
    const random = seededRandom(31_001);
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 200_000; i++) (counts[countedRoll(random)] as number)++;
    // 200,000 rolls: a share's standard error is at most 0.0011.
    counts.forEach((n, i) => expect(Math.abs(n / 200_000 - (COUNTED_ODDS[i] as number))).toBeLessThan(0.004));
    COUNTED_ODDS.forEach((q, i) => expect(q).toBeCloseTo([0.3778, 0.1184, 0.2519, 0.2519][i] as number, 4));
    expect(profileMisreadCounts(PROFILE, 'red', RED_LABELS)[1]).toEqual({ read: 1000, misread: 60 });
  });

  it('is called UNFAIR in a long run by a monitor that takes the counts as they fall', () => {
    const random = seededRandom(31_002);
    let unfair = 0;
    for (let d = 0; d < DICE; d++) {
      const m = new SequentialMonitor(RED, { alpha: ALPHA, delta: 0.002, maxRolls: LONG_RUN, labels: RED_LABELS });
      while (!m.decided) m.observeCounts(drawMultinomial(BATCH, COUNTED_ODDS, random));
      if (m.verdict().kind === 'UNFAIR') unfair++;
    }
    expect(unfair).toBeGreaterThan(DICE / 2);
  });

  it('is called UNFAIR in no more than alpha of the dice by the robust monitor allowing for the profile’s bounds', () => {
    const misreads = profileMisreadAssumption(PROFILE, 'red', RED_LABELS);
    const rates = misreadRatesOf(misreads) as number[];
    // The crit's bound holds its own and the cocked-read one (0 of 8,000 dice), and covers the 6 %.
    expect(rates[1]).toBeGreaterThan(0.07377591790783614);
    const random = seededRandom(31_003);
    let unfair = 0;
    for (let d = 0; d < DICE; d++) {
      const m = new RobustMonitor(RED, { alpha: ALPHA, delta: 0.002, maxRolls: LONG_RUN, labels: RED_LABELS, misreadRates: rates });
      while (!m.decided) m.observeCounts(drawMultinomial(BATCH, COUNTED_ODDS, random));
      if (m.verdict().kind === 'UNFAIR') unfair++;
    }
    expect(unfair).toBeLessThanOrEqual(SLACK_50_AT_1_PERCENT);
  });

  it('is called UNFAIR in many dice when the crits called cocked are left out of the calibration’s count, as they were before', () => {
    const leftOut = measuredMisreads('crits called cocked not counted', RED_LABELS, [
      { read: 3000, misread: 0 },
      { read: 940, misread: 0 },
      { read: 2000, misread: 0 },
      { read: 2000, misread: 0 },
    ], 0.95, { dice: 8000, cocked: 0, readAsFace: 0 });
    expect(leftOut.faces?.[1]?.bound).toBeLessThan(0.004);
    const random = seededRandom(31_004);
    let unfair = 0;
    for (let d = 0; d < DICE; d++) {
      const m = new RobustMonitor(RED, { alpha: ALPHA, delta: 0.002, maxRolls: LONG_RUN, labels: RED_LABELS, misreadRates: misreadRatesOf(leftOut) as number[] });
      while (!m.decided) m.observeCounts(drawMultinomial(BATCH, COUNTED_ODDS, random));
      if (m.verdict().kind === 'UNFAIR') unfair++;
    }
    expect(unfair).toBeGreaterThan(DICE / 2);
  });
});
