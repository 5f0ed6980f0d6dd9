import { describe, expect, it } from 'vitest';
import { adjustedDieTests, findBiasedRigs, type CampaignCounts } from '../../../src/stats/rigEffects.js';
import { faceZWhateverUnresolved, differenceWhateverUnresolved, type VersusRestStratum } from '../../../src/stats/differenceWhateverUnresolved.js';
import { normalQuantile } from '../../../src/stats/special.js';

/** The textbook Mantel–Haenszel z of one face, rig vs rest, over 2 × 2 tables (a, b; c, d) per die, written out here apart from the code under test. */
function mantelHaenszelZ(tables: readonly (readonly [number, number, number, number])[]): number {
  let num = 0;
  let v = 0;
  for (const [a, b, c, d] of tables) {
    const n = a + b + c + d;
    if (n < 2) continue;
    num += a - ((a + b) * (a + c)) / n;
    v += ((a + b) * (c + d) * (a + c) * (b + d)) / (n * n * (n - 1));
  }
  return num / Math.sqrt(v);
}

/** Every way to give `u` unresolved rolls faces: how many of them are face f (the rest are other faces). */
function* splits(u: number): Generator<number> {
  for (let k = 0; k <= u; k += 1) yield k;
}

const strata: VersusRestStratum[] = [
  { mine: [14, 9, 7], rest: [20, 24, 22], mineUnresolved: 3, restUnresolved: 2 },
  { mine: [11, 12, 4], rest: [15, 18, 21], mineUnresolved: 1, restUnresolved: 4 },
];

describe('a rig-vs-rest face test that holds whatever the unresolved rolls were', () => {
  it('is the Mantel–Haenszel z of the face when no roll is unresolved', () => {
    const none = strata.map((s) => ({ ...s, mineUnresolved: 0, restUnresolved: 0 }));
    const tables = none.map((s) => {
      const a = s.mine[0]!;
      const c = s.rest[0]!;
      return [a, s.mine[1]! + s.mine[2]!, c, s.rest[1]! + s.rest[2]!] as [number, number, number, number];
    });
    expect(faceZWhateverUnresolved(none, 0, 1)).toBeCloseTo(mantelHaenszelZ(tables), 12);
    expect(faceZWhateverUnresolved(none, 0, -1)).toBeCloseTo(-mantelHaenszelZ(tables), 12);
  });

  it('never exceeds the z of any assignment of the unresolved rolls, in either direction, and is reached by none above it', () => {
    for (const f of [0, 1, 2]) {
      for (const direction of [1, -1] as const) {
        const bound = faceZWhateverUnresolved(strata, f, direction);
        let smallest = Infinity;
        for (const k0 of splits(3)) for (const j0 of splits(2)) for (const k1 of splits(1)) for (const j1 of splits(4)) {
          const ks = [[k0, j0], [k1, j1]] as const;
          const tables = strata.map((s, i) => {
            const [k, j] = ks[i]!;
            const mineN = s.mine.reduce((x, y) => x + y, 0) + s.mineUnresolved;
            const restN = s.rest.reduce((x, y) => x + y, 0) + s.restUnresolved;
            const a = s.mine[f]! + k;
            const c = s.rest[f]! + j;
            return [a, mineN - a, c, restN - c] as [number, number, number, number];
          });
          smallest = Math.min(smallest, direction * mantelHaenszelZ(tables));
        }
        expect(bound, `face ${f}, direction ${direction}`).toBeLessThanOrEqual(smallest + 1e-12);
        // A bound, but not a loose one: within a few tenths of the worst assignment on tables this size.
        expect(smallest - bound).toBeLessThan(0.3);
      }
    }
  });

  it('names the face and direction only when the bound clears the level split over faces and both directions', () => {
    const heavy: VersusRestStratum[] = [{ mine: [300, 100, 100], rest: [100, 100, 100], mineUnresolved: 10, restUnresolved: 10 }];
    const found = differenceWhateverUnresolved(heavy, 3, 0.01);
    expect(found).toMatchObject({ face: 0, direction: 1 });
    expect(found!.z).toBeGreaterThanOrEqual(normalQuantile(1 - 0.01 / 6));
    // Its read rolls lack face 0 by exactly what its unresolved rolls could hold: nothing holds.
    const declined: VersusRestStratum[] = [{ mine: [50, 100, 100], rest: [100, 100, 100], mineUnresolved: 50, restUnresolved: 0 }];
    expect(differenceWhateverUnresolved(declined, 3, 0.01)).toBeUndefined();
  });
});

/** Three D6 rigs, dice A, B, C each on two of them; `six(rig)` is the 6s of 600 rolls a die shows there, and `declined(rig)` of those 6s its reader left unresolved. */
function campaign(six: (rig: number) => number, declined: (rig: number) => number, otherUnresolved = 0): CampaignCounts {
  const legs = [[0, 1], [1, 2], [2, 0]];
  const counts = legs.map((rigs) =>
    [0, 1, 2].map((r) => {
      if (!rigs.includes(r)) return [0, 0, 0, 0, 0, 0];
      const s = six(r);
      const other = Math.round((600 - s) / 5);
      return [other - otherUnresolved, other, other, other, other, s - declined(r)];
    }),
  );
  const unresolved = legs.map((rigs) => [0, 1, 2].map((r) => (rigs.includes(r) ? declined(r) + otherUnresolved : 0)));
  return { dice: ['A', 'B', 'C'], rigs: ['1', '2', '3'], faces: ['1', '2', '3', '4', '5', '6'], counts, unresolved };
}

describe('rigs and dice judged with unresolved rolls', () => {
  it('does not set aside a rig whose reader declines the 6: its read rolls differ, and it is named as unclear', () => {
    // Every rig fair (100 sixes in 600); rig 2's camera leaves 60 of them unresolved.
    const t = campaign(() => 100, (r) => (r === 1 ? 60 : 0));
    const onRead = findBiasedRigs({ ...t, unresolved: undefined }, 0.01);
    expect(onRead.biased.map((b) => b.rig)).toEqual(['2']);
    const f = findBiasedRigs(t, 0.01);
    expect(f.biased).toEqual([]);
    expect(f.unclear.map((u) => u.rig)).toEqual(['2']);
    expect(f.unclear[0]!.unresolved).toBe(120);
    expect(f.unclear[0]!.reason).toMatch(/^rig 2 differs from the other rigs on its read rolls \(p = .*, 3 rigs compared\), but the 120 unresolved rolls of the dice compared could be the faces that make the difference: review them \(dicerig review\) before setting it aside$/);
  });

  it('still sets aside a rig that favours the 6 when a few rolls on every rig are unresolved, saying it holds whatever they were', () => {
    const t = campaign((r) => (r === 1 ? 160 : 100), () => 0, 6);
    const f = findBiasedRigs(t, 0.01);
    expect(f.unclear).toEqual([]);
    expect(f.biased.map((b) => b.rig)).toEqual(['2']);
    expect(f.biased[0]!.reason).toMatch(/favouring 6; 6 more often than on the other rigs whatever the 24 unresolved rolls were$/);
  });

  it('does not set aside a rig whose camera cannot read the 6 for differing from a rest that holds a rig favouring the 6: it could match the fair rig, so it is unclear', () => {
    // Rig 1 reads no 6 (all 100 a die shows left unresolved), rig 2 favours the 6 (200 in 600), rig 3 is fair: against
    // rigs 2 and 3 together, rig 1 shows fewer 6s whatever its unresolved rolls were.
    const t = campaign((r) => (r === 1 ? 200 : 100), (r) => (r === 0 ? 100 : 0));
    const f = findBiasedRigs(t, 0.01);
    expect(f.unclear.map((u) => u.rig)).toEqual(['1']);
    expect(f.unclear[0]!.reason).toMatch(/^rig 1 differs from the other rigs on its read rolls \(p = .*, 3 rigs compared\), but the \d+ unresolved rolls of the dice compared could make it match rig 3, so another rig may be the one off: review them \(dicerig review\) before setting it aside$/);
    // The others are still compared, at the level of the step that took rig 1 out: rigs 2 and 3 disagree, and with
    // two rigs left which is off cannot be told, so the rig favouring the 6 is not kept.
    expect(f.biased.map((b) => b.rig)).toEqual(['2', '3']);
    expect(f.biased[0]!.reason).toMatch(/^rigs 2 and 3 disagree on the same dice \(p = /);
    // Once its 6s are labelled, the rig favouring the 6 is the one set aside.
    const reviewed = campaign((r) => (r === 1 ? 200 : 100), () => 0);
    expect(findBiasedRigs(reviewed, 0.01).biased.map((b) => b.rig)).toEqual(['2']);
  });

  it('still sets aside a rig favouring the 6 when another rig is left unclear by a 6 its camera cannot read', () => {
    // Rig 1 fair, rig 2 reads no 6 (all its 6s unresolved), rig 3 favours the 6 (200 in 600).
    const t = campaign((r) => (r === 2 ? 200 : 100), (r) => (r === 1 ? 100 : 0));
    const f = findBiasedRigs(t, 0.01);
    expect(f.biased.map((b) => b.rig)).toContain('3');
    expect(f.unclear.map((u) => u.rig)).toEqual(['2']);
  });

  it('reads a table without unresolved rolls exactly as before', () => {
    const t = campaign((r) => (r === 1 ? 160 : 100), () => 0);
    const withZeros = findBiasedRigs(t, 0.01);
    const without = findBiasedRigs({ ...t, unresolved: undefined }, 0.01);
    expect(withZeros).toEqual(without);
    expect(without.biased[0]!.reason).toMatch(/favouring 6$/);
  });

  it('calls a die unfair on the trusted rigs only if it is whatever its unresolved rolls were', () => {
    // Die A: fair, its reader declined 60 of its 100 sixes on rig 1. Die B: loaded (200 sixes in 600), 5 rolls unresolved.
    const t: CampaignCounts = {
      dice: ['A', 'B'],
      rigs: ['1'],
      faces: ['1', '2', '3', '4', '5', '6'],
      counts: [[[100, 100, 100, 100, 100, 40]], [[80, 80, 80, 80, 75, 200]]],
      unresolved: [[60], [5]],
    };
    const expected = [1, 1, 1, 1, 1, 1].map((x) => x / 6);
    const [a, b] = adjustedDieTests(t, expected, [], 0.01);
    expect(a).toMatchObject({ die: 'A', unresolved: 60, unfair: false, reviewFirst: true });
    expect(a!.pHolm).toBeLessThan(1e-6);
    expect(b).toMatchObject({ die: 'B', unresolved: 5, unfair: true, reviewFirst: false });
  });

  it('refuses unresolved rolls that do not line up with the dice and rigs, or are not whole', () => {
    const t = campaign(() => 100, () => 0);
    expect(() => findBiasedRigs({ ...t, unresolved: [[0, 0, 0]] }, 0.01)).toThrow(/3 dice.*1 dice|1 dice of unresolved rolls for 3 dice/);
    expect(() => findBiasedRigs({ ...t, unresolved: [[0, 0], [0, 0, 0], [0, 0, 0]] }, 0.01)).toThrow(/Die A has unresolved rolls for 2 rigs, expected 3/);
    expect(() => findBiasedRigs({ ...t, unresolved: [[0, -1, 0], [0, 0, 0], [0, 0, 0]] }, 0.01)).toThrow(/Die A on rig 2 has -1 unresolved rolls/);
  });
});
