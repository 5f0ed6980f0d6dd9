/**
 * The session's one error control (dieVerdict.ts): alpha bounds the chance
 * that ANY die of the session is called UNFAIR wrongly, by deciding each of
 * its K dice at alpha / K (Bonferroni over the dice's e-processes).
 *
 * Monte Carlo slack: scipy.stats.binom.ppf(0.999, 150, 0.05) = 17 (sf 0.00054).
 */
import { describe, expect, it } from 'vitest';
import { sessionErrorControl, sessionMonitor, sessionVerdicts } from '../../src/stats/dieVerdict.js';
import { seededRandom } from '../../src/stats/random.js';
import { runNewHandling, SimulatedDie } from './simulatedReader.js';

const RED = [3 / 8, 1 / 8, 2 / 8, 2 / 8];
const LOADED = [0.5, 0.1, 0.2, 0.2];
const SESSIONS = 150;
const SLACK_150_AT_5_PERCENT = 17;

describe('one error control across a session of four dice', () => {
  it('calls any fair die of a session UNFAIR in at most alpha of the sessions (family-wise), each die read with face-dependent declines', () => {
    const random = seededRandom(30_001);
    const control = sessionErrorControl(0.05, 4);
    let sessionsWithFalseUnfair = 0;
    for (let s = 0; s < SESSIONS; s++) {
      const dice = [0, 1, 2, 3].map((i) => {
        const monitor = sessionMonitor(control, RED, { delta: 0.05, maxRolls: 1500 });
        runNewHandling(monitor, new SimulatedDie(RED, { declines: [0.02, 0.08, 0.04, 0.06] }, random));
        return { label: `red-${i}`, monitor };
      });
      const verdicts = sessionVerdicts(control, dice);
      for (const v of verdicts.dice) expect(v.threshold).toBe(80);
      if (verdicts.dice.some((v) => v.kind === 'UNFAIR')) sessionsWithFalseUnfair++;
    }
    expect(sessionsWithFalseUnfair).toBeLessThanOrEqual(SLACK_150_AT_5_PERCENT);
  });

  it('still finds the loaded die among three fair ones, at the session threshold', () => {
    const random = seededRandom(30_002);
    const control = sessionErrorControl(0.05, 4);
    let found = 0;
    let falseUnfair = 0;
    for (let s = 0; s < 40; s++) {
      const dice = [LOADED, RED, RED, RED].map((odds, i) => {
        const monitor = sessionMonitor(control, RED, { delta: 0.05, maxRolls: 1500 });
        runNewHandling(monitor, new SimulatedDie(odds, {}, random));
        return { label: `red-${i}`, monitor };
      });
      const [loaded, ...fair] = sessionVerdicts(control, dice).dice;
      if (loaded!.kind === 'UNFAIR') {
        found++;
        expect(loaded!.logE).toBeGreaterThanOrEqual(Math.log(80));
        expect(loaded!.adjustedAnytimeP).toBeLessThanOrEqual(0.05);
      }
      falseUnfair += fair.filter((v) => v.kind === 'UNFAIR').length;
    }
    expect(found).toBe(40);
    expect(falseUnfair).toBeLessThanOrEqual(6); // scipy.stats.binom.ppf(0.999, 120, 0.0125) = 6
  });
});
