import { describe, expect, it } from 'vitest';
import { checkRig, lookAlpha } from '../../src/session/rigCheck.js';
import { cumulativeOf, drawIndex, seededRandom } from '../../src/stats/random.js';

const D6 = [1, 1, 1, 1, 1, 1].map((x) => x / 6);
const D6_OPPOSITE = [5, 4, 3, 2, 1, 0];
const labels = ['1', '2', '3', '4', '5', '6'];

function fairSequence(n: number, seed: number): number[] {
  const r = seededRandom(seed);
  const cum = cumulativeOf(D6);
  return Array.from({ length: n }, () => drawIndex(cum, r));
}

/** A rig that lets the die slide: with probability `sticky` the face stays what it was. */
function stickySequence(n: number, sticky: number, seed: number): number[] {
  const r = seededRandom(seed);
  const cum = cumulativeOf(D6);
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(i > 0 && r() < sticky ? (out[i - 1] as number) : drawIndex(cum, r));
  return out;
}

describe('rig checks over every die together', () => {
  it('spends the session\'s alpha over the looks: look j gets alpha·6/(π² j²), and all looks together never exceed alpha', () => {
    expect(lookAlpha(0.01, 1)).toBeCloseTo((0.01 * 6) / Math.PI ** 2, 15);
    expect(lookAlpha(0.01, 3)).toBeCloseTo(lookAlpha(0.01, 1) / 9, 15);
    let sum = 0;
    for (let j = 1; j <= 100_000; j++) sum += lookAlpha(0.01, j);
    expect(sum).toBeLessThan(0.01);
    expect(sum).toBeGreaterThan(0.00999);
    expect(() => lookAlpha(0.01, 0)).toThrow(RangeError);
  });

  it('passes four independent fair dice', () => {
    const dice = [1, 2, 3, 4].map((s) => ({ label: `d${s}`, sequence: fairSequence(1000, s), expected: D6, labels, opposite: D6_OPPOSITE }));
    const r = checkRig(dice, 1, 0.01);
    expect(r.suspect).toBe(false);
    expect(r.verdict).toBeNull();
    expect(r.rolls).toBe(4000);
    // Four checks per die (repeat, same-or-opposite, transitions, runs), Holm-adjusted as one family.
    expect(r.checks).toHaveLength(16);
  });

  it('calls a rig suspect when one die of four slides 10 % of the time, naming the die and the check', () => {
    const dice = [1, 2, 3, 4].map((s) => ({ label: `d${s}`, sequence: s === 3 ? stickySequence(2000, 0.1, s) : fairSequence(2000, s), expected: D6, labels, opposite: D6_OPPOSITE }));
    const r = checkRig(dice, 2, 0.01);
    expect(r.suspect).toBe(true);
    expect(r.alpha).toBeCloseTo(lookAlpha(0.01, 2), 15);
    expect(r.verdict?.kind).toBe('RIG_SUSPECT');
    expect(r.verdict?.failedChecks.some((c) => c.name === 'repeat' && c.detail.startsWith('d3:'))).toBe(true);
  });

  it('adjusts across dice: the smallest p of the look is multiplied by the number of checks that ran', () => {
    const dice = [1, 2].map((s) => ({ label: `d${s}`, sequence: fairSequence(600, 10 + s), expected: D6, labels }));
    const r = checkRig(dice, 1, 0.01);
    const smallest = r.checks.reduce((m, c) => (c.p < m.p ? c : m));
    expect(smallest.adjustedP).toBeCloseTo(Math.min(1, smallest.p * r.checks.length), 12);
  });

  it('has nothing to test on dice with too few rolls', () => {
    const r = checkRig([{ label: 'd1', sequence: [0, 1], expected: D6, labels }], 1, 0.01);
    expect(r.suspect).toBe(false);
    expect(r.checks.every((c) => c.adjustedP <= 1)).toBe(true);
  });
});
