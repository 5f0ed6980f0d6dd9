import { describe, expect, it } from 'vitest';
import { parseBox } from '../../../src/analysis/campaign/box.js';
import { campaignSettings, nextDiceDue, planCampaign, previewRounds, type Leg, type LegProgress } from '../../../src/analysis/campaign/campaignPlan.js';

const KNOWN = ['red', 'green', 'd6', 'd3', 'direction'];

describe('dice box', () => {
  it('reads label and die columns in any order, skipping blank and comment lines', () => {
    const box = parseBox('# my box\ndie,label\nd6,A1\n\nd6,A2\nred,R1\n', 'box.csv', KNOWN);
    expect(box).toEqual([
      { label: 'A1', die: 'd6', line: 3 },
      { label: 'A2', die: 'd6', line: 5 },
      { label: 'R1', die: 'red', line: 6 },
    ]);
  });

  it('reads a die type written in any case as the catalogue spells it, as logs and options do', () => {
    expect(parseBox('Label,Die\nA1,D6\nR1,Red\n', 'box.csv', KNOWN)).toEqual([
      { label: 'A1', die: 'd6', line: 2 },
      { label: 'R1', die: 'red', line: 3 },
    ]);
  });

  it('names the file, line and problem of a bad line', () => {
    expect(() => parseBox('label,die\nA1,d7\n', 'box.csv', KNOWN)).toThrow(/^box\.csv, line 2, column "die": "d7" is not a known die type; known dice are: red, green/);
    expect(() => parseBox('label,die\nA1,d6\nA1,d6\n', 'box.csv', KNOWN)).toThrow('box.csv, line 3, column "label": "A1" is already the label on line 2; a label names one physical die');
    expect(() => parseBox('label,die\nA1,d6,extra\n', 'box.csv', KNOWN)).toThrow('box.csv, line 2: has 3 fields but the header has 2');
    expect(() => parseBox('label,die\n ,d6\n', 'box.csv', KNOWN)).toThrow('box.csv, line 2, column "label": the die has no label');
    expect(() => parseBox('name,kind\nA1,d6\n', 'box.csv', KNOWN)).toThrow(/line 1: the header must name the columns "label" and "die"/);
    expect(() => parseBox('label,die\n', 'box.csv', KNOWN)).toThrow('box.csv: the dice box lists no dice');
  });
});

describe('campaign settings', () => {
  it('rotates from two rigs on, each die on two rigs, and not on one rig', () => {
    expect(campaignSettings({ rigs: 3, channels: 4, rollsPerLeg: 1000 })).toMatchObject({ rotate: true, legsPerDie: 2 });
    expect(campaignSettings({ rigs: 1, channels: 4, rollsPerLeg: 1000 })).toMatchObject({ rotate: false, legsPerDie: 1 });
    expect(campaignSettings({ rigs: 3, channels: 4, rollsPerLeg: 1000, rotate: false })).toMatchObject({ rotate: false, legsPerDie: 1 });
  });

  it('refuses rotation that cannot separate rig from die', () => {
    expect(() => campaignSettings({ rigs: 1, channels: 4, rollsPerLeg: 10, rotate: true })).toThrow(/--rotate needs at least two rigs/);
    expect(() => campaignSettings({ rigs: 3, channels: 4, rollsPerLeg: 10, legsPerDie: 1 })).toThrow(/--legs must be at least 2/);
    expect(() => campaignSettings({ rigs: 3, channels: 4, rollsPerLeg: 10, legsPerDie: 4 })).toThrow(/--legs must be a whole number from 1 to the number of rigs \(3\)/);
    expect(() => campaignSettings({ rigs: 0, channels: 4, rollsPerLeg: 10 })).toThrow(/--rigs/);
  });
});

const box = (n: number, die = 'd6'): { label: string; die: string; line: number }[] => Array.from({ length: n }, (_, i) => ({ label: `${die}-${i + 1}`, die, line: i + 2 }));

describe('campaign plan', () => {
  it('puts each rotated die on two different rigs, and every pair of neighbouring rigs shares dice', () => {
    const plan = planCampaign(box(9), campaignSettings({ rigs: 3, channels: 4, rollsPerLeg: 500 }));
    expect(plan.legs).toHaveLength(18);
    for (let i = 1; i <= 9; i++) {
      const rigs = plan.legs.filter((l) => l.label === `d6-${i}`).map((l) => l.rig);
      expect(new Set(rigs).size).toBe(2);
    }
    const pairs = new Set(box(9).map((d) => plan.legs.filter((l) => l.label === d.label).map((l) => l.rig).sort().join('+')));
    expect(pairs).toEqual(new Set(['1+2', '2+3', '1+3']));
  });

  it('keeps each die on one rig without rotation', () => {
    const plan = planCampaign(box(5), campaignSettings({ rigs: 2, channels: 4, rollsPerLeg: 500, rotate: false }));
    expect(plan.legs.map((l) => l.rig)).toEqual(['1', '2', '1', '2', '1']);
  });
});

describe('next dice due', () => {
  const plan = planCampaign([...box(6), ...box(2, 'red')], campaignSettings({ rigs: 2, channels: 4, rollsPerLeg: 500 }));
  const progress = (states: Map<Leg, 'claimed' | 'done'>): LegProgress[] => plan.legs.map((leg) => ({ leg, state: states.get(leg) ?? 'pending' }));

  it('hands a rig up to its channels of one die type, never a die another rig holds', () => {
    const first = nextDiceDue(progress(new Map()), '1', 4);
    expect(first.map((l) => l.label)).toEqual(['d6-1', 'd6-2', 'd6-3', 'd6-4']);
    const held = new Map(first.map((l) => [l, 'claimed' as const]));
    const second = nextDiceDue(progress(held), '2', 4);
    expect(second.every((l) => l.die === 'd6')).toBe(true);
    expect(second.map((l) => l.label)).toEqual(['d6-5', 'd6-6']);
  });

  it('gives dice further behind in their tour first', () => {
    const doneFirst = new Map(plan.legs.filter((l) => l.label === 'd6-1' && l.rig === '1').map((l) => [l, 'done' as const]));
    // d6-1 has a leg done: on rig 2 the dice with nothing done come first.
    expect(nextDiceDue(progress(doneFirst), '2', 2).map((l) => l.label)).toEqual(['d6-2', 'd6-3']);
  });

  it('has nothing to hand out when the rig has no pending leg whose die is free', () => {
    const all = new Map(plan.legs.map((l) => [l, 'done' as const]));
    expect(nextDiceDue(progress(all), '1', 4)).toEqual([]);
  });

  it('schedules every leg exactly once in the preview, with no die in two rigs in one round', () => {
    const rounds = previewRounds(plan);
    const scheduled = rounds.flat().flatMap((b) => b.dice.map((d) => `${d}@${b.rig}`));
    expect(scheduled.sort()).toEqual(plan.legs.map((l) => `${l.label}@${l.rig}`).sort());
    for (const round of rounds) {
      const dice = round.flatMap((b) => b.dice);
      expect(new Set(dice).size).toBe(dice.length);
      for (const b of round) expect(b.dice.length).toBeLessThanOrEqual(4);
    }
  });
});
