import { describe, expect, it } from 'vitest';
import { applyDamage, attackVsDefense, cancel, damageOnShip, hitProbability } from '../../../src/odds/xwing-combat.js';
import type { AttackModifier, DefenseModifier } from '../../../src/odds/xwing-dice.js';
import { fumbleDirectionOdds, fumbleLandsInPlay, rugbyDefenseDice, rugbyPassOdds } from '../../../src/odds/xwing-rugby.js';

/*
 * Golden values: an independent brute-force enumeration in Python with exact
 * fractions, over the physical faces of every die (8 faces each), with rerolls
 * enumerated face by face. Run with python3 (3.12).
 *
 * --- xwing.py ---
 * from fractions import Fraction as F
 * from itertools import product
 * from collections import defaultdict
 *
 * RED = ['hit', 'hit', 'hit', 'crit', 'focus', 'focus', 'blank', 'blank']
 * GREEN = ['evade', 'evade', 'evade', 'focus', 'focus', 'blank', 'blank', 'blank']
 *
 * def one_die(faces, reroll):
 *     """(symbol, probability) pairs for one die, rerolling once the symbols in `reroll`."""
 *     out = []
 *     for f in faces:
 *         if f in reroll:
 *             out += [(g, F(1, len(faces) ** 2)) for g in faces]
 *         else:
 *             out.append((f, F(1, len(faces))))
 *     return out
 *
 * def pool(faces, n, reroll):
 *     die = one_die(faces, reroll)
 *     for combo in product(die, repeat=n):
 *         p = F(1)
 *         for _, q in combo:
 *             p *= q
 *         yield [s for s, _ in combo], p
 *
 * ATTACK_REROLL = {'none': set(), 'focus': set(), 'force': set(), 'lock': {'blank', 'focus'}, 'focus+lock': {'blank'}}
 *
 * def attack(n, mod):
 *     d = defaultdict(F)
 *     for syms, p in pool(RED, n, ATTACK_REROLL[mod]):
 *         hits, crits, focus = syms.count('hit'), syms.count('crit'), syms.count('focus')
 *         if mod in ('focus', 'focus+lock'):
 *             hits += focus
 *         elif mod == 'force':
 *             hits += min(1, focus)
 *         d[(hits, crits)] += p
 *     return d
 *
 * def defense(m, mod):
 *     d = defaultdict(F)
 *     for syms, p in pool(GREEN, m, set()):
 *         ev, focus = syms.count('evade'), syms.count('focus')
 *         if mod == 'focus':
 *             ev += focus
 *         elif mod == 'force':
 *             ev += min(1, focus)
 *         d[ev] += p
 *     return d
 *
 * def versus(n, m, amod, dmod):
 *     out = defaultdict(F)
 *     for (h, c), p in attack(n, amod).items():
 *         for e, q in defense(m, dmod).items():
 *             ch = min(h, e)
 *             cc = min(c, e - ch)
 *             out[(h - ch, c - cc)] += p * q
 *     return out
 */

type Mods = [AttackModifier, DefenseModifier];
function parseCase(key: string): { red: number; green: number; mods: Mods } {
  const [red, green, a, d] = key.split(',') as [string, string, AttackModifier, DefenseModifier];
  return { red: Number(red), green: Number(green), mods: [a, d] };
}

describe('attack against defense', () => {
  it('cancels hits before crits', () => {
    expect(cancel({ hits: 2, crits: 1 }, 1)).toEqual({ hits: 1, crits: 1 });
    expect(cancel({ hits: 2, crits: 1 }, 3)).toEqual({ hits: 0, crits: 0 });
    expect(cancel({ hits: 1, crits: 2 }, 2)).toEqual({ hits: 0, crits: 1 });
    expect(cancel({ hits: 0, crits: 1 }, 5)).toEqual({ hits: 0, crits: 0 });
  });

  /*
   * from xwing import versus
   * for n, m, a, d in [(2, 2, 'focus', 'none'), (3, 2, 'focus+lock', 'focus'), (2, 3, 'force', 'force'), (3, 1, 'lock', 'none'), (4, 3, 'none', 'focus')]:
   *     dist = versus(n, m, a, d)
   *     print(f"  ['{n},{m},{a},{d}', '" + ' '.join(f'{h}:{c}={p}' for (h, c), p in sorted(dist.items()) if p) + "'],")
   */
  const fullDistributions: [string, string][] = [
    ['2,2,focus,none', '0:0=379/1024 0:1=215/2048 0:2=25/4096 1:0=625/2048 1:1=125/2048 2:0=625/4096'],
    ['3,2,focus+lock,focus', '0:0=9707/131072 0:1=334415/2097152 0:2=30675/1048576 0:3=1125/2097152 1:0=505825/2097152 1:1=147375/1048576 1:2=16875/2097152 2:0=125625/524288 2:1=84375/2097152 3:0=140625/2097152'],
    ['2,3,force,force', '0:0=6355/8192 0:1=2077/32768 0:2=27/32768 1:0=4407/32768 1:1=135/16384 2:0=567/32768'],
    ['3,1,lock,none', '0:0=35/512 0:1=747/8192 0:2=675/16384 0:3=135/32768 1:0=1269/8192 1:1=5427/32768 1:2=1215/32768 2:0=7047/32768 2:1=3645/32768 3:0=3645/32768'],
    ['4,3,none,focus', '0:0=1263/2048 0:1=252707/2097152 0:2=39267/2097152 0:3=2187/2097152 0:4=27/2097152 1:0=244701/2097152 1:1=24543/524288 1:2=5589/1048576 1:3=81/524288 2:0=99873/2097152 2:1=6561/524288 2:2=729/1048576 3:0=22599/2097152 3:1=729/524288 4:0=2187/2097152'],
  ];
  for (const [key, python] of fullDistributions) {
    it(`matches the Python enumeration of uncanceled hits and crits for ${key}`, () => {
      const { red, green, mods } = parseCase(key);
      const dist = attackVsDefense({ red, green, attackModifier: mods[0], defenseModifier: mods[1] });
      const ours = dist
        .sorted((a, b) => a.hits - b.hits || a.crits - b.crits)
        .map((e) => `${e.outcome.hits}:${e.outcome.crits}=${e.probability}`)
        .join(' ');
      expect(ours).toBe(python);
    });
  }

  /*
   * from xwing import versus
   * for n in (1, 2, 3):
   *     for m in (1, 2):
   *         for a in ('none', 'focus', 'force', 'lock', 'focus+lock'):
   *             for d in ('none', 'focus', 'force'):
   *                 dist = versus(n, m, a, d)
   *                 eh = sum(p * h for (h, c), p in dist.items())
   *                 ec = sum(p * c for (h, c), p in dist.items())
   *                 p0 = dist.get((0, 0), 0)
   *                 print(f"  ['{n},{m},{a},{d}', '{eh}', '{ec}', '{p0}'],")
   */
  const grid: [string, string, string, string][] = [
    ['1,1,none,none', '15/64', '5/64', '11/16'],
    ['1,1,none,focus', '9/64', '3/64', '13/16'],
    ['1,1,none,force', '9/64', '3/64', '13/16'],
    ['1,1,focus,none', '25/64', '5/64', '17/32'],
    ['1,1,focus,focus', '15/64', '3/64', '23/32'],
    ['1,1,focus,force', '15/64', '3/64', '23/32'],
    ['1,1,force,none', '25/64', '5/64', '17/32'],
    ['1,1,force,focus', '15/64', '3/64', '23/32'],
    ['1,1,force,force', '15/64', '3/64', '23/32'],
    ['1,1,lock,none', '45/128', '15/128', '17/32'],
    ['1,1,lock,focus', '27/128', '9/128', '23/32'],
    ['1,1,lock,force', '27/128', '9/128', '23/32'],
    ['1,1,focus+lock,none', '125/256', '25/256', '53/128'],
    ['1,1,focus+lock,focus', '75/256', '15/256', '83/128'],
    ['1,1,focus+lock,force', '75/256', '15/256', '83/128'],
    ['1,2,none,none', '75/512', '25/512', '103/128'],
    ['1,2,none,focus', '27/512', '9/512', '119/128'],
    ['1,2,none,force', '27/512', '9/512', '119/128'],
    ['1,2,focus,none', '125/512', '25/512', '181/256'],
    ['1,2,focus,focus', '45/512', '9/512', '229/256'],
    ['1,2,focus,force', '45/512', '9/512', '229/256'],
    ['1,2,force,none', '125/512', '25/512', '181/256'],
    ['1,2,force,focus', '45/512', '9/512', '229/256'],
    ['1,2,force,force', '45/512', '9/512', '229/256'],
    ['1,2,lock,none', '225/1024', '75/1024', '181/256'],
    ['1,2,lock,focus', '81/1024', '27/1024', '229/256'],
    ['1,2,lock,force', '81/1024', '27/1024', '229/256'],
    ['1,2,focus+lock,none', '625/2048', '125/2048', '649/1024'],
    ['1,2,focus+lock,focus', '225/2048', '45/2048', '889/1024'],
    ['1,2,focus+lock,force', '225/2048', '45/2048', '889/1024'],
    ['2,1,none,none', '267/512', '101/512', '7/16'],
    ['2,1,none,focus', '189/512', '83/512', '9/16'],
    ['2,1,none,force', '189/512', '83/512', '9/16'],
    ['2,1,focus,none', '475/512', '113/512', '13/64'],
    ['2,1,focus,focus', '365/512', '103/512', '19/64'],
    ['2,1,focus,force', '365/512', '103/512', '19/64'],
    ['2,1,force,none', '443/512', '113/512', '29/128'],
    ['2,1,force,focus', '333/512', '103/512', '43/128'],
    ['2,1,force,force', '333/512', '103/512', '43/128'],
    ['2,1,lock,none', '1683/2048', '669/2048', '13/64'],
    ['2,1,lock,focus', '1269/2048', '603/2048', '19/64'],
    ['2,1,lock,force', '1269/2048', '603/2048', '19/64'],
    ['2,1,focus+lock,none', '9875/8192', '2425/8192', '49/1024'],
    ['2,1,focus+lock,focus', '7925/8192', '2335/8192', '79/1024'],
    ['2,1,focus+lock,force', '7925/8192', '2335/8192', '79/1024'],
    ['2,2,none,none', '735/2048', '305/2048', '151/256'],
    ['2,2,none,focus', '351/2048', '177/2048', '199/256'],
    ['2,2,none,force', '369/2048', '191/2048', '195/256'],
    ['2,2,focus,none', '1375/2048', '365/2048', '379/1024'],
    ['2,2,focus,focus', '735/2048', '237/2048', '619/1024'],
    ['2,2,focus,force', '785/2048', '259/2048', '583/1024'],
    ['2,2,force,none', '1265/2048', '365/2048', '409/1024'],
    ['2,2,force,focus', '657/2048', '237/2048', '649/1024'],
    ['2,2,force,force', '699/2048', '259/2048', '617/1024'],
    ['2,2,lock,none', '4815/8192', '2145/8192', '379/1024'],
    ['2,2,lock,focus', '2511/8192', '1377/8192', '619/1024'],
    ['2,2,lock,force', '2673/8192', '1503/8192', '583/1024'],
    ['2,2,focus+lock,none', '29375/32768', '8125/32768', '3259/16384'],
    ['2,2,focus+lock,focus', '16575/32768', '5565/32768', '7339/16384'],
    ['2,2,focus+lock,force', '17825/32768', '6115/32768', '6439/16384'],
    ['3,1,none,none', '3447/4096', '1353/4096', '17/64'],
    ['3,1,none,focus', '2673/4096', '1231/4096', '23/64'],
    ['3,1,none,force', '2673/4096', '1231/4096', '23/64'],
    ['3,1,focus,none', '6225/4096', '1479/4096', '35/512'],
    ['3,1,focus,focus', '5255/4096', '1441/4096', '53/512'],
    ['3,1,focus,force', '5255/4096', '1441/4096', '53/512'],
    ['3,1,force,none', '5521/4096', '1479/4096', '47/512'],
    ['3,1,force,focus', '4551/4096', '1441/4096', '73/512'],
    ['3,1,force,force', '4551/4096', '1441/4096', '73/512'],
    ['3,1,lock,none', '44037/32768', '17595/32768', '35/512'],
    ['3,1,lock,focus', '36531/32768', '17037/32768', '53/512'],
    ['3,1,lock,force', '36531/32768', '17037/32768', '53/512'],
    ['3,1,focus+lock,none', '517125/262144', '121875/262144', '143/32768'],
    ['3,1,focus+lock,focus', '452275/262144', '121205/262144', '233/32768'],
    ['3,1,focus+lock,force', '452275/262144', '121205/262144', '233/32768'],
    ['3,2,none,none', '20313/32768', '9063/32768', '13/32'],
    ['3,2,none,focus', '11529/32768', '6583/32768', '19/32'],
    ['3,2,none,force', '12177/32768', '6959/32768', '73/128'],
    ['3,2,focus,none', '39375/32768', '10809/32768', '329/2048'],
    ['3,2,focus,focus', '26015/32768', '9193/32768', '617/2048'],
    ['3,2,focus,force', '27415/32768', '9521/32768', '563/2048'],
    ['3,2,force,none', '34139/32768', '10701/32768', '841/4096'],
    ['3,2,force,focus', '21483/32768', '8893/32768', '1529/4096'],
    ['3,2,force,force', '22707/32768', '9269/32768', '1409/4096'],
    ['3,2,lock,none', '274131/262144', '127341/262144', '329/2048'],
    ['3,2,lock,focus', '175203/262144', '106461/262144', '617/2048'],
    ['3,2,lock,force', '184923/262144', '110565/262144', '563/2048'],
    ['3,2,focus+lock,none', '3391875/2097152', '937125/2097152', '3947/131072'],
    ['3,2,focus+lock,focus', '2413075/2097152', '873365/2097152', '9707/131072'],
    ['3,2,focus+lock,force', '2528075/2097152', '887965/2097152', '8357/131072'],
  ];
  it('matches the Python enumeration of expected hits, crits and P(no damage) on every modifier pair for 1-3 red and 1-2 green dice', () => {
    const mismatches: string[] = [];
    for (const [key, eh, ec, p0] of grid) {
      const { red, green, mods } = parseCase(key);
      const dist = attackVsDefense({ red, green, attackModifier: mods[0], defenseModifier: mods[1] });
      const ours = [dist.expectation((r) => r.hits), dist.expectation((r) => r.crits), dist.probabilityOf({ hits: 0, crits: 0 })].map(String);
      if (ours.join(' ') !== [eh, ec, p0].join(' ')) mismatches.push(`${key}: ours ${ours.join(' ')}, Python ${eh} ${ec} ${p0}`);
    }
    expect(mismatches).toEqual([]);
    expect(grid).toHaveLength(90);
  });

  it('gives the probability that an attack does any damage', () => {
    // 1 red die plain against nothing: hit or crit, 1/2.
    expect(hitProbability(attackVsDefense({ red: 1, green: 0 })).toString()).toBe('1/2');
  });
});

describe('damage on a ship', () => {
  it('spends shields on hits first, then deals facedown cards for hits and faceup cards for crits', () => {
    expect(applyDamage({ hits: 1, crits: 2 }, { shields: 2, hull: 3 })).toEqual({ shieldsLost: 2, facedown: 0, faceup: 1 });
    expect(applyDamage({ hits: 3, crits: 1 }, { shields: 1, hull: 3 })).toEqual({ shieldsLost: 1, facedown: 2, faceup: 1 });
    expect(applyDamage({ hits: 0, crits: 0 }, { shields: 4, hull: 3 })).toEqual({ shieldsLost: 0, facedown: 0, faceup: 0 });
  });

  /*
   * from xwing import versus
   * from fractions import Fraction as F
   *
   * def ship(dist, shields, hull):
   *     destroyed = lost = down = up = F(0)
   *     for (h, c), p in dist.items():
   *         s = shields
   *         sh = min(s, h); s -= sh
   *         sc = min(s, c)
   *         fd, fu = h - sh, c - sc
   *         lost += p * (sh + sc); down += p * fd; up += p * fu
   *         if fd + fu >= hull:
   *             destroyed += p
   *     return destroyed, lost, down, up
   *
   * for n, m, a, d, s, h in [(3, 2, 'focus', 'none', 2, 3), (4, 1, 'focus+lock', 'focus', 1, 2), (3, 0, 'lock', 'none', 0, 2), (4, 2, 'force', 'force', 2, 1)]:
   *     print([n, m, a, d, s, h], [str(x) for x in ship(versus(n, m, a, d), s, h)])
   */
  const cases: [number, number, AttackModifier, DefenseModifier, number, number, string[]][] = [
    [3, 2, 'focus', 'none', 2, 3, ['0', '2799/2048', '3125/32768', '2275/32768']],
    [4, 1, 'focus+lock', 'focus', 1, 2, ['111375/131072', '130995/131072', '12785625/8388608', '5045175/8388608']],
    [3, 0, 'lock', 'none', 0, 2, ['27/32', '0', '27/16', '9/16']],
    [4, 2, 'force', 'force', 2, 1, ['375/2048', '21639/16384', '3267/32768', '3597/32768']],
  ];
  for (const [red, green, a, d, shields, hull, python] of cases) {
    it(`matches the Python enumeration for ${red} red (${a}) vs ${green} green (${d}) on a ship with ${shields} shields and ${hull} hull`, () => {
      const s = damageOnShip(attackVsDefense({ red, green, attackModifier: a, defenseModifier: d }), { shields, hull });
      expect([s.destroyed, s.expectedShieldsLost, s.expectedFacedown, s.expectedFaceup].map(String)).toEqual(python);
      expect(s.damage.totalProbability().toString()).toBe('1');
    });
  }

  it('refuses a negative or fractional ship', () => {
    const dist = attackVsDefense({ red: 1, green: 0 });
    expect(() => damageOnShip(dist, { shields: -1, hull: 2 })).toThrow(/shields/);
    expect(() => damageOnShip(dist, { shields: 0, hull: 1.5 })).toThrow(/hull/);
  });
});

describe('X-Wing Rugby pass', () => {
  /*
   * Enumerated face by face, independently of the odds engine (python3, ~40 s):
   *
   * from fractions import Fraction as F
   * from itertools import product
   * RED = ['hit','hit','hit','crit','focus','focus','blank','blank']
   * GREEN = ['evade','evade','evade','focus','focus','blank','blank','blank']
   * def pass_odds(attack, rng, obstructed, focus_attack=False, focus_defense=False):
   *     m = rng + (1 if obstructed else 0)
   *     caught = fumble = inter = F(0)
   *     w = F(1, 8 ** (attack + m))
   *     for reds in product(RED, repeat=attack):
   *         s = sum(1 for r in reds if r in ('hit', 'crit') or (focus_attack and r == 'focus'))
   *         for greens in product(GREEN, repeat=m):
   *             e = sum(1 for g in greens if g == 'evade' or (focus_defense and g == 'focus'))
   *             if s > e: caught += w
   *             elif obstructed and e > s: inter += w   # only an obstructing ship intercepts
   *             else: fumble += w                       # the pass misses: the receiver fumbles
   *     return caught, fumble, inter
   * for n in (1, 2, 3, 4):
   *     for rng in (1, 2, 3):
   *         for ob in (False, True):
   *             c, f, i = pass_odds(n, rng, ob)
   *             print(f"    [{n}, {rng}, {'true' if ob else 'false'}, '{c}', '{f}', '{i}'],")
   * print(pass_odds(2, 2, True, focus_attack=True), pass_odds(2, 2, False, focus_attack=True))
   * # (975/2048, 1345/4096, 801/4096) (645/1024, 379/1024, 0)
   */
  const python: [number, 1 | 2 | 3, boolean, string, string, string][] = [
    [1, 1, false, '5/16', '11/16', '0'],
    [1, 1, true, '25/128', '55/128', '3/8'],
    [1, 2, false, '25/128', '103/128', '0'],
    [1, 2, true, '125/1024', '175/512', '549/1024'],
    [1, 3, false, '125/1024', '899/1024', '0'],
    [1, 3, true, '625/8192', '2125/8192', '2721/4096'],
    [2, 1, false, '9/16', '7/16', '0'],
    [2, 1, true, '105/256', '47/128', '57/256'],
    [2, 2, false, '105/256', '151/256', '0'],
    [2, 2, true, '75/256', '355/1024', '369/1024'],
    [2, 3, false, '75/256', '181/256', '0'],
    [2, 3, true, '3375/16384', '4975/16384', '4017/8192'],
    [3, 1, false, '47/64', '17/64', '0'],
    [3, 1, true, '19/32', '71/256', '33/256'],
    [3, 2, false, '19/32', '13/32', '0'],
    [3, 2, true, '955/2048', '77/256', '477/2048'],
    [3, 3, false, '955/2048', '1093/2048', '0'],
    [3, 3, true, '11725/32768', '9715/32768', '177/512'],
    [4, 1, false, '27/32', '5/32', '0'],
    [4, 1, true, '375/512', '199/1024', '75/1024'],
    [4, 2, false, '375/512', '137/512', '0'],
    [4, 2, true, '1263/2048', '1943/8192', '1197/8192'],
    [4, 3, false, '1263/2048', '785/2048', '0'],
    [4, 3, true, '33165/65536', '8483/32768', '15405/65536'],
  ];
  it('matches the Python enumeration of caught, fumble and interception for attack 1-4 at every range', () => {
    for (const [attack, range, obstructed, caught, fumble, interception] of python) {
      const odds = rugbyPassOdds({ attack, range, obstructed });
      expect([odds.caught, odds.fumble, odds.interception].map(String), `${attack} ${range} ${obstructed}`).toEqual([caught, fumble, interception]);
      expect(odds.caught.add(odds.fumble).add(odds.interception).toString()).toBe('1');
    }
  });

  it('rolls one defense die per range band, one more when obstructed', () => {
    expect([1, 2, 3].map((r) => rugbyDefenseDice(r))).toEqual([1, 2, 3]);
    expect(rugbyDefenseDice(3, true)).toBe(4);
    expect(() => rugbyDefenseDice(4)).toThrow(/range must be 1, 2 or 3/);
  });

  it('makes a focused pass more likely to be caught, with the exact odds of the Python enumeration', () => {
    const plain = rugbyPassOdds({ attack: 2, range: 2 });
    const focused = rugbyPassOdds({ attack: 2, range: 2, attackModifier: 'focus' });
    expect(focused.caught.compare(plain.caught)).toBe(1);
    expect([focused.caught, focused.fumble, focused.interception].map(String)).toEqual(['645/1024', '379/1024', '0']);
    const obstructed = rugbyPassOdds({ attack: 2, range: 2, obstructed: true, attackModifier: 'focus' });
    expect([obstructed.caught, obstructed.fumble, obstructed.interception].map(String)).toEqual(['975/2048', '1345/4096', '801/4096']);
  });

  it('never lets an unobstructed pass be intercepted: every miss is a fumble', () => {
    for (const attack of [0, 1, 3, 6]) {
      for (const range of [1, 2, 3] as const) {
        const odds = rugbyPassOdds({ attack, range, defenseModifier: 'focus' });
        expect(odds.interception.toString(), `${attack} at range ${range}`).toBe('0');
        expect(odds.caught.add(odds.fumble).toString()).toBe('1');
      }
    }
  });

  it('scatters a fumble evenly over the directions that keep the ball in play, rerolling the rest', () => {
    expect(fumbleDirectionOdds([]).map((d) => d.probability.toString())).toEqual(['1/6', '1/6', '1/6', '1/6', '1/6', '1/6']);
    expect(fumbleDirectionOdds([1, 2]).map((d) => [d.direction, d.probability.toString()])).toEqual([
      [1, '0'], [2, '0'], [3, '1/4'], [4, '1/4'], [5, '1/4'], [6, '1/4'],
    ]);
    expect(fumbleLandsInPlay(3, [1, 2])).toBe(true);
    expect(fumbleLandsInPlay(2, [1, 2])).toBe(false);
  });

  it('refuses a fumble exclusion that is not a D6 side or leaves the ball nowhere to land', () => {
    expect(() => fumbleDirectionOdds([7])).toThrow(/1 to 6; 7 is not one/);
    expect(() => fumbleDirectionOdds([1, 2, 3, 4, 5, 6])).toThrow(/Every fumble direction is excluded/);
  });
});
