/**
 * A profile's misread bounds take in the flat dice called cocked (a session throws them again: their roll is replaced,
 * by the reader's choice of which) and the dice that lay cocked and were read as a face (a roll the die never made).
 * Golden bounds from SciPy:
 *   from scipy.stats import beta
 *   beta.ppf(0.95, 1, 27)  -> 0.10501923017634426   (hit: 0 misread of 27)
 *   beta.ppf(0.95, 1, 7)   -> 0.34816365513116077   (crit: 0 misread of 7)
 *   beta.ppf(0.95, 2, 17)  -> 0.23766091507463977    (blank: 1 of 18 called cocked)
 *   beta.ppf(0.95, 2, 99)  -> 0.046559811453538935  (1 cocked die read as a face among all 100 held-back dice)
 *   beta.ppf(0.95, 2, 19)  -> 0.2161061642068473    (focus: 1 misread of 20)
 */
import { describe, expect, it } from 'vitest';
import type { CalibrationProfile } from '../../src/vision/calibration/profile.js';
import { profileCockedReads, profileMisreadAssumption, profileMisreadCounts } from '../../src/vision/calibration/profileMisreads.js';

const COLUMNS = ['red-hit', 'red-crit', 'red-focus', 'red-blank', 'green-blank', 'declined', 'cocked'];
const ROWS = ['red-hit', 'red-crit', 'red-focus', 'red-blank', 'green-blank', 'cocked'];
/** 100 held-back dice: 28 hits (1 declined), 7 crits, 20 focus (1 read as a hit), 18 blanks (1 called cocked), 20 green blanks and 7 cocked dice, one read as a red blank. */
const COUNTS = [
  [27, 0, 0, 0, 0, 1, 0],
  [0, 7, 0, 0, 0, 0, 0],
  [1, 0, 19, 0, 0, 0, 0],
  [0, 0, 0, 17, 0, 0, 1],
  [0, 0, 0, 0, 20, 0, 0],
  [0, 0, 0, 1, 0, 1, 5],
];

function profileWith(confusion: { rows: string[]; columns: string[]; counts: number[][] }, checked?: { rows: string[]; columns: string[]; counts: number[][] }): Pick<CalibrationProfile, 'name' | 'hash' | 'validation' | 'checked'> {
  const validation = { heldBack: 'every 4th image', samples: 100, read: 93, correct: 91, declined: 7, cocked: 5, accuracy: 91 / 93, rejectionRate: 0.07, confidentErrors: 0, cockedReadAsFace: 1, confusion };
  return { name: 'p', hash: 'sha256:0123456789abcdef', validation, ...(checked ? { checked: { images: 30, confusion: checked } } : {}) };
}

describe('a profile’s misread measure', () => {
  it('counts a flat die called cocked as misread and a declined one as not read, and every held-back die, and those that lay cocked and were read as a face', () => {
    expect(profileCockedReads(profileWith({ rows: ROWS, columns: COLUMNS, counts: COUNTS }))).toEqual({ dice: 100, cocked: 7, readAsFace: 1 });
    expect(profileMisreadCounts(profileWith({ rows: ROWS, columns: COLUMNS, counts: COUNTS }), 'red', ['hit', 'crit', 'focus', 'blank'])).toEqual([
      { read: 27, misread: 0 },
      { read: 7, misread: 0 },
      { read: 20, misread: 1 },
      { read: 18, misread: 1 },
    ]);
  });

  it('adds the bound on cocked dice read as a face to every symbol’s bound, and says it in the statement', () => {
    const m = profileMisreadAssumption(profileWith({ rows: ROWS, columns: COLUMNS, counts: COUNTS }), 'red', ['hit', 'crit', 'focus', 'blank']);
    const cocked = 0.046559811453538935;
    const own = [0.10501923017634426, 0.34816365513116077, 0.2161061642068473, 0.23766091507463977];
    m.faces?.forEach((f, i) => expect(f.bound).toBeCloseTo((own[i] as number) + cocked, 12));
    expect(m.statement).toContain('each holds 4.7 % for a die cocked and read as a face (1 of 100 dice)');
  });

  it('takes the cocked dice from the checked dice when the profile has them, as it does the misreads', () => {
    const checkedCounts = COUNTS.map((row, i) => (i === ROWS.indexOf('cocked') ? [0, 0, 0, 0, 0, 0, 7] : row.map((n) => 2 * n)));
    const p = profileWith({ rows: ROWS, columns: COLUMNS, counts: COUNTS }, { rows: ROWS, columns: COLUMNS, counts: checkedCounts });
    expect(profileCockedReads(p)).toEqual({ dice: 193, cocked: 7, readAsFace: 0 });
  });

  it('reads a confusion without a cocked row as no cocked die read as a face among all its dice', () => {
    const p = profileWith({ rows: ROWS.slice(0, 5), columns: COLUMNS, counts: COUNTS.slice(0, 5) });
    expect(profileCockedReads(p)).toEqual({ dice: 93, cocked: 0, readAsFace: 0 });
  });
});
