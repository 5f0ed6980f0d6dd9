import { describe, expect, it } from 'vitest';
import { distinctFigures, percent, percentFigures, probabilityFromLog, signedPercent } from '../../../src/core/format.js';
import { toJson } from '../../../src/cli/options.js';
import { chiSquareSf } from '../../../src/stats/special.js';

describe('percent', () => {
  it('writes every percentage the same way: the number, a space, then the sign', () => {
    expect(percent(0.1234)).toBe('12.3 %');
    expect(percent(1, 2)).toBe('100.00 %');
    expect(percentFigures(0.999)).toBe('99.9 %');
    expect(signedPercent(0.05)).toBe('+5 %');
    expect(signedPercent(-0.123)).toBe('-12.3 %');
  });

  it('writes the missing mark when there is nothing to rate', () => {
    expect(percent(null)).toBe('-');
    expect(percent(Number.NaN, 1, '—')).toBe('—');
  });
});

describe('distinctFigures', () => {
  it('gives the figures at which two numbers print apart, never fewer than asked', () => {
    expect(distinctFigures(0.5, 0.375)).toBe(4);
    expect(distinctFigures(0.375 * 1.0001, 0.375)).toBe(5);
    expect(Number((0.375 * 1.0001).toPrecision(5))).toBe(0.37504);
    expect(distinctFigures(0.375 * (1 + 1e-10), 0.375)).toBe(11);
    expect(distinctFigures(0.2, 0.2)).toBe(17);
  });
});

describe('probabilityFromLog', () => {
  it('keeps a normal double as the number it is', () => {
    expect(probabilityFromLog(0.0312, Math.log(0.0312))).toBe(0.0312);
    expect(probabilityFromLog(1e-300, Math.log(1e-300))).toBe(1e-300);
  });

  it('writes a subnormal p-value from its log instead of a mantissa with few true digits', () => {
    // 5.7276e-321 is stored as a subnormal whose shortest text is 5.726e-321.
    const p = Number('5.7276e-321');
    expect(String(p)).toBe('5.726e-321');
    expect(probabilityFromLog(p, -320.2420 * Math.LN10)).toBe('10^-320.24');
    // 2.93e-324 has no double of its own: its exp is the smallest subnormal, 5e-324.
    expect(String(Math.exp(-323.533 * Math.LN10))).toBe('5e-324');
    expect(probabilityFromLog(5e-324, -323.533 * Math.LN10)).toBe('10^-323.53');
  });

  it('prints the tail of a huge chi-square statistic in JSON from its log, even where exp(log p) underflows', () => {
    /*
     * Golden values from mpmath (SciPy's chi2.logsf returns -inf here):
     *   import mpmath as mp; mp.mp.dps = 40
     *   for x in (1500, 1520): print(mp.nstr(mp.log10(mp.gammainc(2.5, x/2, mp.inf, regularized=True)), 8))
     *   -> -321.53104 (p = 2.944e-322, subnormal), -325.86537 (p = 1.36e-326, below the smallest double)
     */
    const subnormal = chiSquareSf(1500, 5);
    const underflow = chiSquareSf(1520, 5);
    expect(underflow.p).toBe(0);
    const json = JSON.parse(toJson({ subnormal, underflow })) as Record<string, { p: unknown }>;
    expect(json.subnormal?.p).toBe('10^-321.53');
    expect(json.underflow?.p).toBe('10^-325.87');
  });
});
