/**
 * A session warns when its dice land cocked clearly more often than the calibration's held-back dice lay cocked: the
 * bound on cocked dice read as a face was measured at the calibration's rate. "Clearly": the session's one-sided 95 %
 * Clopper–Pearson lower bound above the calibration's upper one. From SciPy:
 *   from scipy.stats import beta
 *   beta.ppf(0.05, 30, 271) -> 0.07290080342559266   (session: 30 of 300 cocked, lower bound)
 *   beta.ppf(0.95, 6, 145)  -> 0.06880518393587672   (calibration: 5 of 150 cocked, upper bound)
 *   beta.ppf(0.05, 10, 291) -> 0.018193839077633382  (session: 10 of 300, lower bound: not above)
 */
import { describe, expect, it } from 'vitest';
import { cockedShareNote } from '../../../src/stats/cockedShare.js';
import { misreadLines } from '../../../src/stats/dieVerdict.js';
import { measuredMisreads, noMisreadMeasure } from '../../../src/stats/misreadRate.js';

const SOURCE = 'calibration profile "p" (0123456789ab, validation dice)';
const misreads = measuredMisreads(SOURCE, ['hit'], [{ read: 100, misread: 0 }], 0.95, { dice: 150, cocked: 5, readAsFace: 0 });

describe('the note on a session whose dice land cocked more often than its calibration’s', () => {
  it('is given when the session’s share lies clearly above the calibration’s, naming both and what to do', () => {
    expect(cockedShareNote(misreads, { cocked: 30, rolls: 300 })).toBe(
      `This session's dice came to rest cocked in 10 % of rolls (30 of 300), more often than the dice of ${SOURCE} lay cocked (5 of 150, 3.3 %): ` +
        "its bound on cocked dice read as a face (2 %) was measured at that rate and may be too low here; measure the misreads again on throws like this session's (calibrate --check; for D6s, a new D6 check with its cocked dice labelled) and make fewer dice land cocked.",
    );
  });

  it('is not given when the shares could be alike, nor when nothing measured cocked dice', () => {
    expect(cockedShareNote(misreads, { cocked: 10, rolls: 300 })).toBeUndefined();
    expect(cockedShareNote(noMisreadMeasure(), { cocked: 30, rolls: 300 })).toBeUndefined();
    expect(cockedShareNote(measuredMisreads(SOURCE, ['hit'], [{ read: 100, misread: 0 }]), { cocked: 30, rolls: 300 })).toBeUndefined();
    expect(cockedShareNote(misreads, { cocked: 0, rolls: 0 })).toBeUndefined();
  });

  it('follows the misread lines once, whatever number of dice share the assumption', () => {
    const dice = [
      { label: 'a', misreads },
      { label: 'b', misreads },
    ];
    const lines = misreadLines(dice, { cocked: 30, rolls: 300 });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Misreads: allowed for up to/);
    expect(lines[1]).toMatch(/^This session's dice came to rest cocked in 10 %/);
    expect(misreadLines(dice)).toHaveLength(1);
  });
});
