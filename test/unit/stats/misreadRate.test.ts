import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { measuredMisreads, misreadRateBounds, ThinMisreadMeasure } from '../../../src/stats/misreadRate.js';

describe('misreadRateBounds', () => {
  it('gives the one-sided Clopper–Pearson upper bounds SciPy gives', () => {
    // from scipy.stats import beta
    // beta.ppf(0.95, 1, 217)  -> 0.013710362830302095   (0 misread of 217: 1 - 0.05**(1/217))
    // beta.ppf(0.95, 3, 97)   -> 0.06222809568671874    (2 misread of 99: Beta(x + 1, n - x))
    // beta.ppf(0.99, 1, 30)   -> 0.14230410140910588    (0 misread of 30, 99 %)
    const [a, b] = misreadRateBounds([
      { read: 217, misread: 0 },
      { read: 99, misread: 2 },
    ]);
    expect(a).toBeCloseTo(0.013710362830302095, 12);
    expect(b).toBeCloseTo(0.06222809568671874, 12);
    expect(misreadRateBounds([{ read: 30, misread: 0 }], 0.99)[0]).toBeCloseTo(0.14230410140910588, 12);
  });

  it('knows nothing about a face never read, and refuses impossible counts', () => {
    expect(misreadRateBounds([{ read: 0, misread: 0 }])).toEqual([1]);
    expect(() => misreadRateBounds([{ read: 5, misread: 6 }])).toThrow(InputError);
    expect(() => misreadRateBounds([{ read: 5, misread: 1 }], 1)).toThrow(RangeError);
  });
});

describe('measuredMisreads with cocked dice read as faces', () => {
  // from scipy.stats import beta
  // beta.ppf(0.95, 1, 27)  -> 0.10501923017634426   (hit: 0 misread of 27)
  // beta.ppf(0.95, 1, 7)   -> 0.34816365513116077   (crit: 0 misread of 7)
  // beta.ppf(0.95, 2, 149) -> 0.03123381692094287   (1 cocked die read as a face among 150 held-back dice)
  // beta.ppf(0.95, 1, 60)  -> 0.04870291331009749   (0 misread of 60)
  // beta.ppf(0.95, 4, 5)   -> 0.7107591834981906    (3 cocked dice read as faces among 8)
  const SOURCE = 'calibration profile "p" (0123456789ab, validation dice)';

  it("adds the bound on cocked dice read as a face to every face's own bound, and says so", () => {
    const m = measuredMisreads(SOURCE, ['hit', 'crit'], [{ read: 27, misread: 0 }, { read: 7, misread: 0 }], 0.95, { dice: 150, cocked: 8, readAsFace: 1 });
    expect(m.faces?.[0]?.bound).toBeCloseTo(0.10501923017634426 + 0.03123381692094287, 12);
    expect(m.faces?.[1]?.bound).toBeCloseTo(0.34816365513116077 + 0.03123381692094287, 12);
    expect(m.cocked?.bound).toBeCloseTo(0.03123381692094287, 12);
    expect(m.cocked).toMatchObject({ dice: 150, cocked: 8, readAsFace: 1 });
    expect(m.statement).toBe(`misreads allowed for up to the 95 % upper bounds measured by ${SOURCE}: hit ≤ 14 % (0 of 27), crit ≤ 38 % (0 of 7); each holds 3.1 % for a die cocked and read as a face (1 of 150 dice); the error control holds where these bounds do (each misses its face's rate at most 5 % of the time)`);
  });

  it('leaves the bounds as measured when no cocked dice were measured', () => {
    const m = measuredMisreads(SOURCE, ['hit'], [{ read: 27, misread: 0 }]);
    expect(m.faces?.[0]?.bound).toBeCloseTo(0.10501923017634426, 12);
    expect(m.cocked).toBeUndefined();
    expect(m.statement).not.toContain('cocked');
  });

  it('refuses a face read too few times, saying how often it was misread in words that count', () => {
    expect(() => measuredMisreads(SOURCE, ['crit'], [{ read: 3, misread: 1 }])).toThrow(/"crit" was misread 1 time in 3 reads it measured/);
    expect(() => measuredMisreads(SOURCE, ['crit'], [{ read: 3, misread: 0 }])).toThrow(/"crit" was misread 0 times in 3 reads it measured/);
  });

  it('says more dice will not help a face shown to be misread often, and asks for more dice where the count is only thin', () => {
    // Lower 95 % bounds on the misread rate (Clopper-Pearson), from SciPy:
    //   from scipy.stats import beta; beta.ppf(0.05, 10, 20 - 10 + 1) -> 0.3019539112864935 (>= 0.25: misread, not thin)
    //   beta.ppf(0.05, 6, 12 - 6 + 1) -> 0.24529980127412515 (< 0.25: thin), beta.ppf(0.05, 90, 1) -> 0.9672619661664654
    const why = (read: number, misread: number): string => {
      try {
        measuredMisreads(SOURCE, ['6'], [{ read, misread }]);
      } catch (e) {
        return (e as ThinMisreadMeasure).why;
      }
      throw new Error('not refused');
    };
    const often = 'more dice will not narrow a rate that high: check the labels of that face, and whether your dice show it as the reader knows it (a logo in place of pips or an icon is not read)';
    expect(why(20, 10)).toContain(often);
    expect(why(90, 90)).toBe(`"6" was misread 90 times in 90 reads it measured, which bounds its misread rate only at 100 %; ${often}`);
    expect(why(12, 6)).toMatch(/; calibrate with more dice of that face$/);
    expect(why(3, 1)).toMatch(/; calibrate with more dice of that face$/);
  });

  it('refuses a measure whose cocked dice read as faces bound every face at 1/2 or more, naming them and not the face', () => {
    let thrown: unknown;
    try {
      measuredMisreads(SOURCE, ['hit'], [{ read: 60, misread: 0 }], 0.95, { dice: 8, cocked: 4, readAsFace: 3 });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ThinMisreadMeasure);
    expect((thrown as ThinMisreadMeasure).why).toBe('3 of 8 dice it measured lay cocked and were read as a face, which with "hit"\'s own misreads bounds its misread rate only at 76 %; calibrate with more dice');
    expect((thrown as Error).message).toContain(SOURCE);
    // 0.04870291331009749 + 0.7107591834981906 = 0.759…
  });
});

