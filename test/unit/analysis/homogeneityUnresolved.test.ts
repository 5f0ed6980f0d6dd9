import { describe, expect, it } from 'vitest';
import type { HomogeneityGroup } from '../../../src/analysis/analyze.js';
import { homogeneityReading, homogeneityWhateverUnresolved } from '../../../src/analysis/homogeneityUnresolved.js';
import { contingencyTest } from '../../../src/stats/homogeneity.js';

const FACES = ['1', '2', '3', '4', '5', '6'];

function group(counts: number[][]): HomogeneityGroup {
  return { dieType: 'd6', level: 'symbol', dice: counts.map((_, i) => `D${i + 1}`), labels: FACES, counts, test: contingencyTest(counts) };
}

describe('are the dice alike, whatever their unresolved rolls were', () => {
  it('does not say fair dice differ when one die\'s reader declined its 6s: they differ on read rolls only', () => {
    // Three fair dice, 600 rolls each; D2's reader left 80 of its 100 sixes unresolved.
    const g = group([[100, 100, 100, 100, 100, 100], [100, 100, 100, 100, 100, 20], [100, 100, 100, 100, 100, 100]]);
    expect(g.test.pearson.p).toBeLessThan(1e-6);
    const [made] = homogeneityWhateverUnresolved([g], (label) => (label === 'D2' ? 80 : 0), 0.05);
    expect(made!.unresolved).toEqual({ rolls: 80, differ: false });
    expect(homogeneityReading(made!, 0.05)).toBe('they differ on their read rolls, but their 80 unresolved rolls could account for it: review them');
  });

  it('still says the dice differ when one is loaded and a few rolls of each are unresolved', () => {
    const g = group([[100, 100, 100, 100, 100, 100], [80, 80, 80, 80, 80, 200], [100, 100, 100, 100, 100, 100]]);
    const [made] = homogeneityWhateverUnresolved([g], () => 5, 0.05);
    expect(made!.unresolved).toEqual({ rolls: 15, differ: true });
    expect(homogeneityReading(made!, 0.05)).toBe('the dice differ whatever their 15 unresolved rolls were');
    const [one] = homogeneityWhateverUnresolved([g], (label) => (label === 'D1' ? 1 : 0), 0.05);
    expect(homogeneityReading(one!, 0.05)).toBe('the dice differ whatever their one unresolved roll was');
  });

  it('leaves a group without unresolved rolls as it was, and reads alike dice as alike', () => {
    const alike = group([[100, 100, 100, 100, 100, 100], [98, 103, 100, 99, 101, 99]]);
    const [same] = homogeneityWhateverUnresolved([alike], () => 0, 0.05);
    expect(same).toBe(alike);
    expect(homogeneityReading(same!, 0.05)).toBe('no difference found at α = 0.05');
    const [withSome] = homogeneityWhateverUnresolved([alike], () => 3, 0.05);
    expect(homogeneityReading(withSome!, 0.05)).toBe('no difference found at α = 0.05');
    expect(homogeneityReading(group([[100, 100, 100, 100, 100, 100], [80, 80, 80, 80, 80, 200]]), 0.05)).toBe('the dice differ');
  });
});
