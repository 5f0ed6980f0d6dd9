import { describe, expect, it } from 'vitest';
import { describeSpec } from '../../src/server/rolls/describeSpec.js';
import { parseDiceText } from '../../src/server/rolls/diceText.js';
import { parseRollRequest, RollRequestError } from '../../src/server/rolls/request.js';
import { planThrows, refusal } from '../../src/server/rolls/channelPlan.js';
import { thrown } from '../support/thrown.js';

const problem = (body: unknown): string => thrown(() => parseRollRequest(body), RollRequestError).message;

describe('dice as typed in chat', () => {
  it('reads "3 red", "2d6", "d3", "1 direction" and groups joined by "and" or commas', () => {
    expect(parseDiceText('3 red')).toEqual([{ kind: 'red', count: 3 }]);
    expect(parseDiceText('2d6')).toEqual([{ kind: 'd6', count: 2 }]);
    expect(parseDiceText('D3')).toEqual([{ kind: 'd3', count: 1 }]);
    expect(parseDiceText('2 red and 1 green, 1 direction')).toEqual([
      { kind: 'red', count: 2 },
      { kind: 'green', count: 1 },
      { kind: 'direction', count: 1 },
    ]);
  });

  it('reads one die kind named twice as one group of all its dice ("1 red, 2 red" is 3 red)', () => {
    expect(parseDiceText('1 red, 2 red')).toEqual([{ kind: 'red', count: 3 }]);
    expect(parseDiceText('1d6, 1 green, 1d6')).toEqual([
      { kind: 'd6', count: 2 },
      { kind: 'green', count: 1 },
    ]);
  });

  it('names the part it cannot read, and refuses more dice than one roll may ask for', () => {
    expect(() => parseDiceText('3 blue')).toThrow('cannot read "3 blue" as dice');
    expect(() => parseDiceText('20 red, 20 green')).toThrow('40 dice is more than the 30 one roll may ask for');
    // However many digits the count has.
    for (const n of ['99', '100', '123456789012345678901234567890']) expect(() => parseDiceText(`${n} red`)).toThrow(`${n} dice is more than the 30 one roll may ask for`);
    expect(() => parseDiceText('100d6')).toThrow('100 dice is more than the 30 one roll may ask for');
  });
});

describe('roll requests', () => {
  it('takes the four kinds of request the API documents', () => {
    expect(parseRollRequest({ dice: '3 red' })).toMatchObject({ kind: 'dice' });
    expect(parseRollRequest({ attack: { red: 3, focus: true, lock: true }, defense: { green: 2, focus: false } })).toMatchObject({
      kind: 'attack',
      attack: { red: 3, focus: true, lock: true, force: false },
      defense: { green: 2, focus: false, force: false },
    });
    expect(parseRollRequest({ t9a: { dice: 4, target: '4+', reroll: 'failures' } })).toMatchObject({ kind: 't9a', t9a: { dice: 4, target: 4, reroll: 'failures', maximised: 0 } });
    expect(parseRollRequest({ t9a: { dice: 2, total: true, maximised: true } })).toMatchObject({ t9a: { maximised: 1 } });
    expect(parseRollRequest({ fumble: { exclude: [2, 1, 2] } })).toEqual({ kind: 'fumble', exclude: [1, 2] });
  });

  it('refuses a 9th Age target every roll meets or none can, naming the targets that can be both passed and failed', () => {
    expect(problem({ t9a: { dice: 2, target: '7+' } })).toBe('t9a.target: 7+ on one D6 always fails; give 2+ to 6+');
    expect(problem({ t9a: { dice: 2, target: '0+' } })).toBe('t9a.target: 0+ on one D6 always succeeds; give 2+ to 6+');
    expect(problem({ t9a: { dice: 2, total: true, target: '13+' } })).toBe('t9a.target: 13+ on a 2D6 total always fails; give 3+ to 12+');
    expect(problem({ t9a: { dice: 3, d3: true, target: '4+' } })).toBe('t9a.target: 4+ on one D3 always fails; give 2+ to 3+');
    for (const target of ['2+', '6+']) expect(parseRollRequest({ t9a: { dice: 2, target } })).toMatchObject({ t9a: { target: Number(target[0]) } });
    expect(parseRollRequest({ t9a: { dice: 2, total: true, target: '12+' } })).toMatchObject({ t9a: { target: 12 } });
  });

  it('refuses an attack whose red and green dice together are more than one roll may ask for, as plain dice are', () => {
    expect(problem({ attack: { red: 20 }, defense: { green: 11 } })).toBe('attack: 31 dice (red and green) is more than the 30 one roll may ask for');
    expect(parseRollRequest({ attack: { red: 20 }, defense: { green: 10 } })).toMatchObject({ kind: 'attack' });
  });

  it('names a 9th Age roll for the queue and the overlay as its answer does: separate dice, not a total, with each rule\'s count', () => {
    expect(describeSpec(parseRollRequest({ t9a: { dice: 3, target: '4+' } }))).toBe('3 dice at 4+');
    expect(describeSpec(parseRollRequest({ t9a: { dice: 2, total: true, target: '7+', maximised: 2, minimised: 2, reroll: 'failures' } }))).toBe('2d6 total at 7+ (maximised x2, minimised x2, reroll failures)');
    expect(describeSpec(parseRollRequest({ t9a: { dice: 1, d3: true } }))).toBe('1 D3');
  });

  it('names the problem of a malformed request in one line', () => {
    expect(problem({})).toBe('a roll needs one of "dice", "attack", "t9a" or "fumble"');
    expect(problem(null)).toBe('a roll needs one of "dice", "attack", "t9a" or "fumble"');
    expect(problem({ attack: { red: 'three' } })).toMatch(/^attack\.red: /);
    expect(problem({ t9a: { dice: 4, target: 'four' } })).toBe('t9a.target: a target is written like "4+"');
    expect(problem({ t9a: { dice: 4, reroll: 'failures' } })).toBe('t9a.target: rerolling failures needs a target such as "4+"');
    expect(problem({ dice: '3 red', colour: 'blue' })).toBe('"colour" is not a field here');
    expect(problem({ dice: 'lots' })).toMatch(/^dice: cannot read "lots" as dice/);
    expect(problem({ fumble: { exclude: [1, 2, 3, 4, 5, 6] } })).toBe('fumble.exclude: at least one direction must stay allowed');
    expect(problem({ attack: { red: 2, force: true, focus: true } })).toBe('attack: a force charge is spent alone here (not with focus or lock)');
  });
});

describe('which channel gives which die', () => {
  const xwing = ['red', 'red', 'green', 'green'];

  it('splits more dice than channels into several throws, each reading only the channels it uses', () => {
    const plan = planThrows(['red', 'red', 'red', 'green'], xwing);
    expect(plan.map((t) => t.slots.map((s) => s.channel).sort())).toEqual([[0, 1, 2], [0]]);
    expect(planThrows(['red'], xwing)).toEqual([{ slots: [{ index: 0, channel: 0 }] }]);
  });

  it('refuses dice no loaded channel can give, saying what is loaded', () => {
    expect(refusal(['d6'], xwing)).toBe('no d6 or direction die is loaded for the d6 dice asked for (the rig holds 2 red, 2 green)');
    expect(refusal(['green'], ['d6', 'd6', 'direction'])).toBe('no green die is loaded for the green dice asked for (the rig holds 2 d6, 1 direction)');
    expect(refusal(['d3', 'direction'], ['d6'])).toBeUndefined();
  });

  it('serves a direction from a direction die before a D6, and a D6 from a D6 before a direction die', () => {
    const types = ['d6', 'd6', 'direction'];
    expect(planThrows(['direction'], types)[0]?.slots).toEqual([{ index: 0, channel: 2 }]);
    expect(planThrows(['d6', 'd6', 'd6'], types).map((t) => t.slots.map((s) => s.channel))).toEqual([[0, 1, 2]]);
  });
});
