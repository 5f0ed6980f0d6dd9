import { describe, expect, it } from 'vitest';
import { LimitError } from '../../../src/core/errors.js';
import { atLeast, d3, d6, rollTotal, rollWithReroll } from '../../../src/odds/t9a.js';
import type { RerollRule, RollSpec } from '../../../src/odds/t9a.js';

/*
 * Golden values: independent enumeration in Python with exact fractions — every
 * sequence of D6 results, sorted, the kept dice summed; a reroll replaces a
 * result by a fresh roll of the same kind (second result final).
 *
 * from fractions import Fraction as F
 * from itertools import product
 * from collections import defaultdict
 *
 * def total(dice, maximised=0, minimised=0):
 *     """Distribution of the kept total: roll dice + |net| D6, keep the highest (net > 0) or lowest (net < 0)."""
 *     net = maximised - minimised
 *     rolled = dice + abs(net)
 *     d = defaultdict(F)
 *     for r in product(range(1, 7), repeat=rolled):
 *         s = sorted(r)
 *         kept = s[len(s) - dice:] if net >= 0 else s[:dice]
 *         d[sum(kept)] += F(1, 6 ** rolled)
 *     return d
 *
 * def reroll_once(d, reroll):
 *     """Rerolled results take the distribution again; the second result is final."""
 *     p_re = sum(p for v, p in d.items() if reroll(v))
 *     out = defaultdict(F)
 *     for v, p in d.items():
 *         if not reroll(v):
 *             out[v] += p
 *         out[v] += p_re * p
 *     return out
 *
 * def at_least(target, dice=1, maximised=0, minimised=0, reroll='none'):
 *     d = total(dice, maximised, minimised)
 *     if reroll == 'failures':
 *         d = reroll_once(d, lambda v: v < target)
 *     elif reroll == 'successes':
 *         d = reroll_once(d, lambda v: v >= target)
 *     elif reroll == 'ones':
 *         d = reroll_once(d, lambda v: v == 1)
 *     return sum(p for v, p in d.items() if v >= target)
 *
 * for t in range(2, 7):
 *     print(f"  [{t}, " + ', '.join(f"'{at_least(t, **kw)}'" for kw in [
 *         {}, {'reroll': 'failures'}, {'reroll': 'ones'}, {'reroll': 'successes'},
 *         {'maximised': 1}, {'minimised': 1}, {'maximised': 2}, {'maximised': 1, 'reroll': 'failures'}, {'maximised': 2, 'minimised': 1}]) + '],')
 * for dice, mx, mn in [(2, 0, 0), (2, 1, 0), (2, 0, 1), (3, 0, 0), (3, 1, 0), (3, 0, 1), (3, 2, 0), (2, 1, 1)]:
 *     d = total(dice, mx, mn)
 *     print(f"  [{dice}, {mx}, {mn}, '" + ' '.join(f'{v}={p}' for v, p in sorted(d.items())) + "'],")
 */

const N_PLUS_COLUMNS: [RollSpec, RerollRule][] = [
  [{}, 'none'],
  [{}, 'failures'],
  [{}, 'ones'],
  [{}, 'successes'],
  [{ maximised: 1 }, 'none'],
  [{ minimised: 1 }, 'none'],
  [{ maximised: 2 }, 'none'],
  [{ maximised: 1 }, 'failures'],
  [{ maximised: 2, minimised: 1 }, 'none'],
];

const N_PLUS_PYTHON: [number, ...string[]][] = [
  [2, '5/6', '35/36', '35/36', '25/36', '35/36', '25/36', '215/216', '1295/1296', '35/36'],
  [3, '2/3', '8/9', '7/9', '4/9', '8/9', '4/9', '26/27', '80/81', '8/9'],
  [4, '1/2', '3/4', '7/12', '1/4', '3/4', '1/4', '7/8', '15/16', '3/4'],
  [5, '1/3', '5/9', '7/18', '1/9', '5/9', '1/9', '19/27', '65/81', '5/9'],
  [6, '1/6', '11/36', '7/36', '1/36', '11/36', '1/36', '91/216', '671/1296', '11/36'],
];

const TOTALS_PYTHON: [number, number, number, string][] = [
  [2, 0, 0, '2=1/36 3=1/18 4=1/12 5=1/9 6=5/36 7=1/6 8=5/36 9=1/9 10=1/12 11=1/18 12=1/36'],
  [2, 1, 0, '2=1/216 3=1/72 4=7/216 5=1/18 6=19/216 7=1/8 8=17/108 9=1/6 10=17/108 11=1/8 12=2/27'],
  [2, 0, 1, '2=2/27 3=1/8 4=17/108 5=1/6 6=17/108 7=1/8 8=19/216 9=1/18 10=7/216 11=1/72 12=1/216'],
  [3, 0, 0, '3=1/216 4=1/72 5=1/36 6=5/108 7=5/72 8=7/72 9=25/216 10=1/8 11=1/8 12=25/216 13=7/72 14=5/72 15=5/108 16=1/36 17=1/72 18=1/216'],
  [3, 1, 0, '3=1/1296 4=1/324 5=5/648 6=7/432 7=19/648 8=31/648 9=91/1296 10=61/648 11=37/324 12=167/1296 13=43/324 14=10/81 15=131/1296 16=47/648 17=1/24 18=7/432'],
  [3, 0, 1, '3=7/432 4=1/24 5=47/648 6=131/1296 7=10/81 8=43/324 9=167/1296 10=37/324 11=61/648 12=91/1296 13=31/648 14=19/648 15=7/432 16=5/648 17=1/324 18=1/1296'],
  [3, 2, 0, '3=1/7776 4=5/7776 5=5/2592 6=41/7776 7=5/432 8=85/3888 9=37/972 10=235/3888 11=665/7776 12=881/7776 13=1055/7776 14=385/2592 15=1111/7776 16=935/7776 17=305/3888 18=23/648'],
  [2, 1, 1, '2=1/36 3=1/18 4=1/12 5=1/9 6=5/36 7=1/6 8=5/36 9=1/9 10=1/12 11=1/18 12=1/36'],
];

describe('T9A D6 rolls', () => {
  it('gives N+ odds on one D6 with rerolls and Maximised / Minimised Roll as the Python enumeration does', () => {
    for (const [target, ...python] of N_PLUS_PYTHON) {
      const ours = N_PLUS_COLUMNS.map(([spec, reroll]) => atLeast(target, spec, reroll).toString());
      expect(ours, `${target}+`).toEqual(python);
    }
  });

  it('gives the totals of 2D6 and 3D6, plain, maximised, minimised and stacked, as the Python enumeration does', () => {
    for (const [dice, maximised, minimised, python] of TOTALS_PYTHON) {
      const ours = rollTotal({ dice, maximised, minimised })
        .sorted((a, b) => a - b)
        .map((e) => `${e.outcome}=${e.probability}`)
        .join(' ');
      expect(ours, `${dice}D6 max ${maximised} min ${minimised}`).toBe(python);
    }
  });

  it('lets one Maximised cancel one Minimised', () => {
    const cancelled = rollTotal({ dice: 2, maximised: 1, minimised: 1 });
    const plain = rollTotal({ dice: 2 });
    for (let s = 2; s <= 12; s++) expect(cancelled.probabilityOf(s).equals(plain.probabilityOf(s))).toBe(true);
  });

  it('reads a D3 as a D6 halved and rounded up, each result 1/3', () => {
    expect(d3().sorted((a, b) => a - b).map((e) => `${e.outcome}=${e.probability}`)).toEqual(['1=1/3', '2=1/3', '3=1/3']);
    expect(d6().expectation((v) => v).toString()).toBe('7/2');
  });

  it('rerolls failures of a 3+ roll once, so the chance is 1 - (1/3)^2', () => {
    expect(atLeast(3, {}, 'failures').toString()).toBe('8/9');
  });

  it('refuses rerolls it cannot define and rolls it does not support', () => {
    expect(() => rollWithReroll({ dice: 2 }, 'ones')).toThrow(/single-die/);
    expect(() => rollWithReroll({}, 'failures')).toThrow(/needs a target/);
    expect(() => rollTotal({ dice: 0 })).toThrow(RangeError);
    expect(() => rollTotal({ maximised: -1 })).toThrow(RangeError);
    expect(() => rollTotal({ dice: 10, maximised: 3 })).toThrow(LimitError);
    expect(() => atLeast(3.5)).toThrow(RangeError);
  });
});
