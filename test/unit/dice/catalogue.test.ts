import { describe, expect, it } from 'vitest';
import {
  allDice,
  builtInDice,
  faceIndexById,
  getDieType,
  oppositeIndex,
  symbolIndexOfFace,
  symbolProbabilities,
} from '../../../src/dice/catalogue.js';
import type { DieType } from '../../../src/dice/types.js';
import { checkDieType } from '../../../src/dice/validate.js';
import { InputError } from '../../../src/core/errors.js';

const die = (id: string): DieType => getDieType(id);

describe('built-in dice', () => {
  it('are all structurally sound: unique faces, declared symbols, probabilities summing to 1, paired opposites', () => {
    for (const d of builtInDice) expect(checkDieType(d), d.id).toEqual([]);
    expect(builtInDice.map((d) => d.id)).toEqual(['red', 'green', 'd6', 'd3', 'direction']);
  });

  it('give the expected symbol odds of the statistics table', () => {
    expect(die('red').symbols).toEqual(['hit', 'crit', 'focus', 'blank']);
    expect(symbolProbabilities(die('red'))).toEqual([3 / 8, 1 / 8, 2 / 8, 2 / 8]);
    expect(die('green').symbols).toEqual(['evade', 'focus', 'blank']);
    expect(symbolProbabilities(die('green'))).toEqual([3 / 8, 2 / 8, 3 / 8]);
    expect(symbolProbabilities(die('d6'))).toEqual(Array(6).fill(1 / 6));
    symbolProbabilities(die('d3')).forEach((p) => expect(p).toBeCloseTo(1 / 3, 15));
  });

  it('name every face of the red die by a stable id', () => {
    expect(die('red').faces.map((f) => f.id)).toEqual(['hit-1', 'hit-2', 'hit-3', 'crit', 'focus-1', 'focus-2', 'blank-1', 'blank-2']);
    expect(die('green').faces.map((f) => f.id)).toEqual(['evade-1', 'evade-2', 'evade-3', 'focus-1', 'focus-2', 'blank-1', 'blank-2', 'blank-3']);
  });

  it('pair D6 faces so opposite faces sum to 7, for the D6, the D3 and the direction die', () => {
    for (const id of ['d6', 'd3', 'direction']) {
      const d = die(id);
      const opp = oppositeIndex(d);
      d.faces.forEach((f, i) => expect((f.value ?? 0) + (d.faces[opp[i] as number]?.value ?? 0)).toBe(7));
    }
  });

  it('read a D3 as the D6 value halved and rounded up, keeping the natural D6 value', () => {
    const d3 = die('d3');
    expect(d3.faces.map((f) => [f.value, f.symbol])).toEqual([
      [1, '1'],
      [2, '1'],
      [3, '2'],
      [4, '2'],
      [5, '3'],
      [6, '3'],
    ]);
  });

  it('read the direction die arrow from the 5 when a 1 or 6 is rolled, else from the 1', () => {
    const dir = die('direction');
    expect(dir.faces.map((f) => f.symbol)).toEqual(['five-centre', 'one-pip', 'one-pip', 'one-pip', 'one-pip', 'five-centre']);
    expect(dir.faces.map((f) => f.value)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(dir.notes).toMatch(/single pip of the 1/);
  });

  it('say in the notes that the X-Wing opposite layout is an assumption that a user file can override', () => {
    for (const id of ['red', 'green']) expect(die(id).notes).toMatch(/assumption.*overrides/s);
  });
});

describe('index helpers', () => {
  it('map face ids to indices and faces to symbol indices', () => {
    const red = die('red');
    expect(faceIndexById(red).get('crit')).toBe(3);
    expect([...symbolIndexOfFace(red)]).toEqual([0, 0, 0, 1, 2, 2, 3, 3]);
    expect(symbolIndexOfFace(red)).toBeInstanceOf(Int32Array);
  });

  it('give an opposite index that is an involution without fixed points on every die', () => {
    for (const d of builtInDice) {
      const opp = oppositeIndex(d);
      opp.forEach((j, i) => {
        expect(j).not.toBe(i);
        expect(opp[j]).toBe(i);
      });
    }
  });

  it('refuse a die whose face shows an undeclared symbol or lacks an opposite', () => {
    const broken: DieType = { ...die('d6'), symbols: ['1', '2', '3', '4', '5'] };
    expect(() => symbolIndexOfFace(broken)).toThrow(/not one of its symbols/);
    const noOpp: DieType = { ...die('d6'), opposite: { '1': '6', '6': '1' } };
    expect(() => oppositeIndex(noOpp)).toThrow(/face "2" has no known opposite/);
  });
});

describe('getDieType', () => {
  it('finds built-in dice by id', () => {
    expect(getDieType('green').name).toMatch(/green defense/);
  });

  it('rejects an unknown id with an InputError listing the known ids', () => {
    expect(() => getDieType('blue')).toThrow(InputError);
    expect(() => getDieType('blue')).toThrow('unknown die "blue"; known dice are: red, green, d6, d3, direction.');
  });

  it('prefers a user die with the same id (a layout override) and lists user ids as known', () => {
    const mine: DieType = { ...die('red'), notes: 'mine' };
    const extra: DieType = { ...die('d6'), id: 'big-d6' };
    expect(getDieType('red', [mine]).notes).toBe('mine');
    expect(getDieType('big-d6', [extra]).id).toBe('big-d6');
    expect(() => getDieType('x', [extra])).toThrow(/direction, big-d6/);
    expect(allDice([mine, extra]).map((d) => d.id)).toEqual(['red', 'green', 'd6', 'd3', 'direction', 'big-d6']);
    expect(allDice([mine])[0]?.notes).toBe('mine');
  });
});

describe('checkDieType', () => {
  it('reports each broken rule with its path', () => {
    const d: DieType = {
      id: 'bad',
      name: 'bad',
      faces: [
        { id: 'a', symbol: 'x' },
        { id: 'a', symbol: 'y' },
        { id: 'c', symbol: 'z' },
      ],
      symbols: ['x', 'y', 'w'],
      faceProbabilities: [0.5, 0.25, 0.5],
      opposite: { a: 'a', c: 'q' },
    };
    const problems = checkDieType(d).map((p) => `${p.path}: ${p.problem}`);
    expect(problems).toEqual([
      'faces[1].id: face id "a" is already used by faces[0]',
      'faces[2].symbol: "z" is not among the declared symbols (x, y, w)',
      'symbols[2]: symbol "w" is not shown by any face',
      'faces: face probabilities sum to 1.25, not 1',
      'opposite.a: face "a" cannot be its own opposite',
      'opposite.c: opposite face "q" is not a face of this die',
    ]);
  });

  it('reports opposites that do not pair up and faces without an opposite', () => {
    const d: DieType = { ...die('d6'), opposite: { '1': '6', '6': '2', '2': '5', '5': '2', '3': '4', '4': '3' } };
    expect(checkDieType(d).map((p) => p.problem)).toEqual([
      '"1" is opposite "6", but "6" is opposite "2" (opposites must pair up)',
      '"6" is opposite "2", but "2" is opposite "5" (opposites must pair up)',
    ]);
    const missing: DieType = { ...die('d6'), opposite: { '1': '6', '6': '1' } };
    expect(checkDieType(missing).map((p) => p.problem)).toContain('face "3" has no opposite face');
  });
});
