import { describe, expect, it } from 'vitest';
import { getDieType } from '../../../src/dice/catalogue.js';
import { dieTypesProblems, sameDieType, storedDieTypes } from '../../../src/dice/dieTypeData.js';
import type { DieType } from '../../../src/dice/types.js';

const d6 = getDieType('d6');
const claim: DieType = { ...d6, id: 'loaded-claim', name: 'loaded-claim (extends D6)', faceProbabilities: [0.1, 0.1, 0.15, 0.15, 0.2, 0.3] };

describe('die types kept with a session', () => {
  it('read back as they were written, through JSON', () => {
    const [back] = storedDieTypes(JSON.parse(JSON.stringify({ dice: [], dieTypes: [claim] })));
    expect(back).toEqual(claim);
    expect(sameDieType(back as DieType, claim)).toBe(true);
    expect(storedDieTypes({ dice: [] })).toEqual([]);
  });

  it('are refused when unsound, given twice, or a built-in with other odds; a built-in with its own layout passes', () => {
    expect(dieTypesProblems([{ ...claim, faceProbabilities: [0.5, 0.5, 0.1, 0.1, 0.1, 0.1] }])[0]).toMatchObject({ path: [0, 'faces'], problem: expect.stringMatching(/sum to 1\.4/) });
    expect(dieTypesProblems([claim, { ...claim, id: 'Loaded-Claim' }])).toEqual([{ path: [1, 'id'], problem: 'die "Loaded-Claim" is already defined at [0]' }]);
    expect(dieTypesProblems([{ ...d6, faceProbabilities: claim.faceProbabilities }])[0]?.problem).toMatch(/"d6" is the built-in die "d6": its faces, symbols and odds are the game's/);
    expect(dieTypesProblems([{ ...d6, opposite: { '1': '2', '2': '1', '3': '4', '4': '3', '5': '6', '6': '5' }, notes: 'ours' }])).toEqual([]);
  });

  it('say which stored type is damaged', () => {
    expect(() => storedDieTypes({ dieTypes: [{ ...claim, opposite: { '1': '6' } }] })).toThrow(/stored die types are damaged: dieTypes\[0\]\.opposite: face "2" has no opposite face/);
    expect(() => storedDieTypes({ dieTypes: [{ id: 'x' }] })).toThrow(/stored die types are damaged: dieTypes\[0\]\.name/);
  });

  it('are one definition only when odds, layout, name and notes all agree', () => {
    expect(sameDieType(claim, { ...claim, notes: 'other' })).toBe(false);
    expect(sameDieType(claim, { ...claim, faceProbabilities: [0.1, 0.1, 0.15, 0.15, 0.3, 0.2] })).toBe(false);
    expect(sameDieType(claim, { ...claim, opposite: { ...claim.opposite } })).toBe(true);
  });
});
