/**
 * The roll rules with real dice, checked against the exact odds engine
 * (src/odds): every possible sequence of dice is run through the same
 * procedure the rig uses, and the answers' distribution must equal the
 * engine's exactly. A rule that rerolled the wrong dice, converted the wrong
 * focus or cancelled crits before hits would shift some probability.
 */
import { describe, expect, it } from 'vitest';
import type { Distribution } from '../../src/odds/distribution.js';
import type { Rational } from '../../src/core/rational.js';
import { rollWithReroll } from '../../src/odds/t9a.js';
import { attackVsDefense } from '../../src/odds/xwing-combat.js';
import { attackPool, type AttackResult } from '../../src/odds/xwing-dice.js';
import { MAX_FUMBLE_ROLLS, performRoll } from '../../src/server/rolls/procedure.js';
import { parseRollRequest } from '../../src/server/rolls/request.js';
import { enumerateRoll } from './support/enumerate.js';

function sameDistribution<T>(ours: Map<string, Rational>, engine: Distribution<T>, key: (t: T) => string): void {
  const theirs = new Map(engine.support.map((w) => [key(w.outcome), w.probability]));
  for (const k of new Set([...ours.keys(), ...theirs.keys()])) {
    const a = ours.get(k)?.toString() ?? '0';
    const b = theirs.get(k)?.toString() ?? '0';
    expect({ outcome: k, p: a }).toEqual({ outcome: k, p: b });
  }
}

const uncancelled = (o: { result: Readonly<Record<string, number>> }): string => `${o.result.uncancelledHits}:${o.result.uncancelledCrits}`;
const attackKey = (r: AttackResult): string => `${r.hits}:${r.crits}`;

describe('X-Wing attacks rolled die by die', () => {
  it('a red/green attack with focus and a target lock against a focused defense leaves the uncancelled hits and crits the odds engine gives', async () => {
    const spec = parseRollRequest({ attack: { red: 2, focus: true, lock: true }, defense: { green: 2, focus: true } });
    sameDistribution(await enumerateRoll(spec, uncancelled), attackVsDefense({ red: 2, green: 2, attackModifier: 'focus+lock', defenseModifier: 'focus' }), attackKey);
  });

  it('a target lock without focus rerolls blanks and focus results once, as the engine does', async () => {
    const spec = parseRollRequest({ attack: { red: 3, lock: true }, defense: { green: 1 } });
    sameDistribution(await enumerateRoll(spec, uncancelled), attackVsDefense({ red: 3, green: 1, attackModifier: 'lock', defenseModifier: 'none' }), attackKey);
  });

  it('a force charge turns one focus into a hit, on attack and on defense', async () => {
    const spec = parseRollRequest({ attack: { red: 2, force: true }, defense: { green: 2, force: true } });
    sameDistribution(await enumerateRoll(spec, uncancelled), attackVsDefense({ red: 2, green: 2, attackModifier: 'force', defenseModifier: 'force' }), attackKey);
  });

  it('plain red dice count hits and crits as rolled', async () => {
    const spec = parseRollRequest({ dice: '3 red' });
    sameDistribution(await enumerateRoll(spec, (o) => `${o.result.hits}:${o.result.crits}`), attackPool(3, 'none'), attackKey);
  });

  it('rerolls only the dice the lock rerolls, each once, and says what they were', async () => {
    const script = [['blank', 'hit', 'focus'], ['crit', 'blank']];
    const asked: string[][] = [];
    const answer = await performRoll(parseRollRequest({ attack: { red: 3, lock: true } }), async (kinds) => {
      asked.push([...kinds]);
      return (script[asked.length - 1] as string[]).map((symbol, i) => ({ kind: kinds[i] as 'red', symbol, channel: i, label: `r${i}` }));
    });
    expect(asked).toEqual([['red', 'red', 'red'], ['red', 'red']]);
    expect(answer.dice.map((d) => [d.rerolledFrom ?? null, d.symbol])).toEqual([['blank', 'crit'], [null, 'hit'], ['focus', 'blank']]);
    expect(answer.result).toMatchObject({ hits: 1, crits: 1, damage: 2 });
    expect(answer.line).toBe('3 red (lock): blank->crit, hit, focus->blank -> 2 damage (1 hit, 1 crit)');
  });

  it('writes the chat line the issue asks for: "3 red: hit, crit, focus -> 2 damage"', async () => {
    const answer = await performRoll(parseRollRequest({ dice: '3 red' }), async (kinds) =>
      ['hit', 'crit', 'focus'].map((symbol, i) => ({ kind: kinds[i] as 'red', symbol, channel: i, label: `r${i}` })),
    );
    expect(answer.line).toBe('3 red: hit, crit, focus -> 2 damage');
  });
});

describe('9th Age rolls die by die', () => {
  it('a Maximised roll rerolling failures at 4+ gives the odds engine’s distribution of kept results', async () => {
    const spec = parseRollRequest({ t9a: { dice: 1, target: '4+', reroll: 'failures', maximised: true } });
    sameDistribution(await enumerateRoll(spec, (o) => String(o.result.total)), rollWithReroll({ dice: 1, maximised: 1 }, 'failures', 4), String);
  });

  it('a 2D6 total with Minimised Roll rerolling successes at 7+ matches the engine', async () => {
    const spec = parseRollRequest({ t9a: { dice: 2, total: true, target: '7+', reroll: 'successes', minimised: 1 } });
    sameDistribution(await enumerateRoll(spec, (o) => String(o.result.total)), rollWithReroll({ dice: 2, minimised: 1 }, 'successes', 7), String);
  });

  it('rerolling ones on a single die matches the engine', async () => {
    const spec = parseRollRequest({ t9a: { dice: 1, reroll: 'ones' } });
    sameDistribution(await enumerateRoll(spec, (o) => String(o.result.total)), rollWithReroll({ dice: 1 }, 'ones'), String);
  });

  it('four 4+ rolls rerolling failures reroll only the failed dice and count successes', async () => {
    const script = [[2, 5, 1, 6], [4, 3]];
    const asked: number[] = [];
    const answer = await performRoll(parseRollRequest({ t9a: { dice: 4, target: '4+', reroll: 'failures' } }), async (kinds) => {
      asked.push(kinds.length);
      return (script[asked.length - 1] as number[]).map((v, i) => ({ kind: 'd6', symbol: String(v), value: v, channel: i, label: `d${i}` }));
    });
    expect(asked).toEqual([4, 2]);
    expect(answer.result).toEqual({ total: 4 + 5 + 3 + 6, successes: 3 });
    expect(answer.line).toBe('4 dice at 4+ (reroll failures): 2->4, 5, 1->3, 6 -> 3 successes');
  });
});

describe('the X-Wing Rugby fumble', () => {
  it('rolls the direction again while it points outside the play area, keeping the first allowed one', async () => {
    const script = [2, 1, 5];
    let n = 0;
    const answer = await performRoll(parseRollRequest({ fumble: { exclude: [1, 2] } }), async () => {
      const v = script[n++] as number;
      return [{ kind: 'direction', symbol: String(v), value: v, channel: 3, label: 'dir' }];
    });
    expect(answer.result).toEqual({ direction: 5, rolls: 3 });
    expect(answer.dice.map((d) => d.kept)).toEqual([false, false, true]);
    expect(answer.line).toBe('fumble (not 1, 2): 2 -> 1 -> 5 -> ball scatters to direction 5');
  });

  it('gives up, saying so, when no allowed direction comes up in its bounded number of rolls', async () => {
    let n = 0;
    const spec = parseRollRequest({ fumble: { exclude: [1, 2, 3, 4, 5] } });
    await expect(
      performRoll(spec, async () => {
        n++;
        return [{ kind: 'direction', symbol: '1', value: 1, channel: 0, label: 'dir' }];
      }),
    ).rejects.toThrow(`the fumble roll found no allowed direction in ${MAX_FUMBLE_ROLLS} rolls`);
    expect(n).toBe(MAX_FUMBLE_ROLLS);
  });
});

describe('plain dice in several groups', () => {
  it('counts each group of plain dice only with its own dice, even two groups of one kind', async () => {
    const spec = { kind: 'dice' as const, groups: [{ kind: 'd6' as const, count: 1 }, { kind: 'd6' as const, count: 2 }] };
    const answer = await performRoll(spec, async (kinds) => [4, 1, 5].map((value, i) => ({ kind: kinds[i] as 'd6', symbol: String(value), value, channel: i, label: `d${i}` })));
    expect(answer.line).toBe('1d6: 4; 2d6: 1, 5 -> 6');
  });
});
