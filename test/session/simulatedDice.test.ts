import { describe, expect, it } from 'vitest';
import { SimulatedCamera, type ThrowTruth } from '../../src/camera/sim/simulatedCamera.js';
import { getDieType } from '../../src/dice/catalogue.js';
import { loadedOdds, loadProblem, SimulatedDice } from '../../src/session/simulatedDice.js';
import { seededRandom } from '../../src/stats/random.js';

/*
 * Acceptance bounds: central 99.999 % binomial intervals from SciPy, computed once:
 *
 *   from scipy.stats import binom
 *   for n, p in [(6000, 0.1), (6000, 0.15), (6000, 0.25), (6000, 1/6),
 *                (3000, 0.5625), (3000, 0.0875), (3000, 0.175), (3000, 0.375), (3000, 0.125), (3000, 0.25),
 *                (6000, 0.125), (6000, 0.2), (6000, 0.3)]:
 *       print(n, p, binom.interval(0.99999, n, p))
 *
 *   6000 0.1     (500, 705)      6000 0.15   (780, 1024)    6000 0.25  (1353, 1650)   6000 1/6  (875, 1130)
 *   3000 0.5625  (1567, 1807)    3000 0.0875 (197, 333)     3000 0.175 (435, 619)
 *   3000 0.375   (1009, 1243)    3000 0.125  (297, 457)     3000 0.25  (647, 856)
 *   6000 0.125   (639, 865)      6000 0.2    (1065, 1339)   6000 0.3   (1644, 1958)
 *
 * Each bound fails a correct simulation once in 100,000 draws; a test checks at most 16 counts, so a seeded run that
 * passes is a fair sample (and the seeds keep it from flaking), while a load on the wrong face misses them by far.
 */
const BOUNDS: Record<string, readonly [number, number]> = {
  '6000 0.1': [500, 705],
  '6000 0.15': [780, 1024],
  '6000 0.25': [1353, 1650],
  '6000 0.1667': [875, 1130],
  '3000 0.5625': [1567, 1807],
  '3000 0.0875': [197, 333],
  '3000 0.175': [435, 619],
  '3000 0.375': [1009, 1243],
  '3000 0.125': [297, 457],
  '3000 0.25': [647, 856],
  '6000 0.125': [639, 865],
  '6000 0.2': [1065, 1339],
  '6000 0.3': [1644, 1958],
};
const bound = (n: number, p: number): readonly [number, number] => BOUNDS[`${n} ${Number(p.toFixed(4))}`] as readonly [number, number];

function tally(truths: readonly ThrowTruth[], channel: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of truths) {
    const d = t.dice.find((x) => x.channel === channel);
    if (d && !d.cocked) out.set(d.face, (out.get(d.face) ?? 0) + 1);
  }
  return out;
}

describe('loaded odds', () => {
  it('makes the loaded result factor times as likely and scales the others down in proportion', () => {
    const d6 = loadedOdds(getDieType('d6'), { symbol: '6', factor: 1.5 });
    expect(d6.get('6')).toBeCloseTo(0.25, 15);
    for (const f of ['1', '2', '3', '4', '5']) expect(d6.get(f)).toBeCloseTo(0.15, 15);
    const red = loadedOdds(getDieType('red'), { symbol: 'hit', factor: 1.5 });
    expect(red.get('hit')).toBeCloseTo(0.5625, 15);
    expect(red.get('crit')).toBeCloseTo(0.0875, 15);
    expect(red.get('focus')).toBeCloseTo(0.175, 15);
    expect([...red.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 15);
  });

  it('loads a symbol shown by several faces on each of them alike: a D3\'s 3 on faces 5 and 6, a direction die\'s five-centre on 1 and 6', () => {
    const d3 = loadedOdds(getDieType('d3'), { symbol: '3', factor: 1.5 });
    for (const f of ['5', '6']) expect(d3.get(f), `face ${f}`).toBeCloseTo(0.25, 15);
    for (const f of ['1', '2', '3', '4']) expect(d3.get(f), `face ${f}`).toBeCloseTo(0.125, 15);
    const direction = loadedOdds(getDieType('direction'), { symbol: 'five-centre', factor: 1.5 });
    for (const f of ['1', '6']) expect(direction.get(f), `face ${f}`).toBeCloseTo(0.25, 15);
    for (const f of ['2', '3', '4', '5']) expect(direction.get(f), `face ${f}`).toBeCloseTo(0.125, 15);
  });

  it('refuses a symbol the die does not show (a D3\'s face id is not its symbol) and a load that is not a probability', () => {
    expect(() => loadedOdds(getDieType('red'), { symbol: 'evade', factor: 1.5 })).toThrow(/"evade" is not a symbol of a red die \(hit, crit, focus, blank\)/);
    expect(() => loadedOdds(getDieType('d3'), { symbol: '6', factor: 1.5 })).toThrow(/simulatedLoad\.symbol.*"6" is not a symbol of a d3 die \(1, 2, 3\)/);
    expect(() => loadedOdds(getDieType('red'), { symbol: 'hit', factor: 3 })).toThrow(/simulatedLoad\.factor.*not a probability/);
    expect(loadProblem(getDieType('direction'), { symbol: 'five-centre', factor: 3 })?.key).toBe('factor');
    expect(loadProblem(getDieType('direction'), { symbol: 'five-centre', factor: 2.9 })).toBeUndefined();
  });
});

describe('the simulated dice choosing among the simulated camera\'s throws', () => {
  it('shows the loaded D6 six a quarter of the time and every other die fair, as SciPy\'s binomial bounds allow', () => {
    const camera = new SimulatedCamera({ seed: 41, channels: 4, dice: 'd6' });
    const d6 = getDieType('d6');
    const dice = new SimulatedDice([{ type: d6 }, { type: d6, load: { symbol: '6', factor: 1.5 } }, { type: d6 }, { type: d6 }], seededRandom(42));
    const truths = Array.from({ length: 6000 }, () => dice.choose(() => camera.throwSequence()).truth);
    const loaded = tally(truths, 1);
    const [lo6, hi6] = bound(6000, 0.25);
    expect(loaded.get('6')).toBeGreaterThanOrEqual(lo6);
    expect(loaded.get('6')).toBeLessThanOrEqual(hi6);
    for (const f of ['1', '2', '3', '4', '5']) {
      const [lo, hi] = bound(6000, 0.15);
      expect(loaded.get(f), `face ${f}`).toBeGreaterThanOrEqual(lo);
      expect(loaded.get(f), `face ${f}`).toBeLessThanOrEqual(hi);
    }
    for (const c of [0, 2, 3]) {
      const fair = tally(truths, c);
      for (const f of ['1', '2', '3', '4', '5', '6']) {
        const [lo, hi] = bound(6000, 1 / 6);
        expect(fair.get(f), `channel ${c} face ${f}`).toBeGreaterThanOrEqual(lo);
        expect(fair.get(f), `channel ${c} face ${f}`).toBeLessThanOrEqual(hi);
      }
    }
    // One throw in three is planned again (max weight 1.5): rejection costs planning, not rendering.
    expect(dice.rejected / 6000).toBeGreaterThan(0.4);
    expect(dice.rejected / 6000).toBeLessThan(0.6);
  });

  it('loads an X-Wing red die\'s hit to 0.5625 and leaves the green dice\'s odds alone', () => {
    const camera = new SimulatedCamera({ seed: 43, channels: 2, dice: ['red', 'green'] });
    const dice = new SimulatedDice([{ type: getDieType('red'), load: { symbol: 'hit', factor: 1.5 } }, { type: getDieType('green') }], seededRandom(44));
    const truths = Array.from({ length: 3000 }, () => dice.choose(() => camera.throwSequence()).truth);
    const red = tally(truths, 0);
    const green = tally(truths, 1);
    for (const [symbol, p] of [['hit', 0.5625], ['crit', 0.0875], ['focus', 0.175], ['blank', 0.175]] as const) {
      const [lo, hi] = bound(3000, p);
      expect(red.get(symbol), symbol).toBeGreaterThanOrEqual(lo);
      expect(red.get(symbol), symbol).toBeLessThanOrEqual(hi);
    }
    for (const [symbol, p] of [['evade', 0.375], ['focus', 0.25], ['blank', 0.375]] as const) {
      const [lo, hi] = bound(3000, p);
      expect(green.get(symbol), symbol).toBeGreaterThanOrEqual(lo);
      expect(green.get(symbol), symbol).toBeLessThanOrEqual(hi);
    }
  });

  it('shows a D3 loaded on its 3 and a direction die loaded on five-centre with those symbols\' faces a quarter of the time each', () => {
    const camera = new SimulatedCamera({ seed: 47, channels: 2, dice: 'd6' });
    const dice = new SimulatedDice(
      [
        { type: getDieType('d3'), load: { symbol: '3', factor: 1.5 } },
        { type: getDieType('direction'), load: { symbol: 'five-centre', factor: 1.5 } },
      ],
      seededRandom(48),
    );
    const truths = Array.from({ length: 6000 }, () => dice.choose(() => camera.throwSequence()).truth);
    // Both loads make their symbol 1/3 × 1.5 = 1/2, shared by two faces: 1/4 each, the other four faces 1/8 each.
    for (const [channel, loadedFaces] of [[0, ['5', '6']], [1, ['1', '6']]] as const) {
      const faces = tally(truths, channel);
      for (const f of ['1', '2', '3', '4', '5', '6']) {
        const [lo, hi] = bound(6000, (loadedFaces as readonly string[]).includes(f) ? 0.25 : 0.125);
        expect(faces.get(f), `channel ${channel} face ${f}`).toBeGreaterThanOrEqual(lo);
        expect(faces.get(f), `channel ${channel} face ${f}`).toBeLessThanOrEqual(hi);
      }
    }
  });

  it('rolls a D6 of the user\'s own with the odds it claims, though the camera draws every face alike', () => {
    const claimed = [0.1, 0.1, 0.15, 0.15, 0.2, 0.3];
    const type = { ...getDieType('d6'), id: 'loaded-claim', name: 'loaded-claim', faceProbabilities: claimed };
    const camera = new SimulatedCamera({ seed: 49, channels: 1, dice: 'd6' });
    const dice = new SimulatedDice([{ type }], seededRandom(50));
    const faces = tally(Array.from({ length: 6000 }, () => dice.choose(() => camera.throwSequence()).truth), 0);
    claimed.forEach((p, i) => {
      const [lo, hi] = bound(6000, p);
      expect(faces.get(String(i + 1)), `face ${i + 1}`).toBeGreaterThanOrEqual(lo);
      expect(faces.get(String(i + 1)), `face ${i + 1}`).toBeLessThanOrEqual(hi);
    });
  });

  it('keeps the camera\'s cocked rate on the loaded die', () => {
    const camera = new SimulatedCamera({ seed: 45, channels: 1, dice: 'd6', cockedRate: 0.1 });
    const dice = new SimulatedDice([{ type: getDieType('d6'), load: { symbol: '6', factor: 1.5 } }], seededRandom(46));
    const truths = Array.from({ length: 6000 }, () => dice.choose(() => camera.throwSequence()).truth);
    const cocked = truths.filter((t) => t.dice[0]?.cocked).length;
    const [lo, hi] = bound(6000, 0.1);
    expect(cocked).toBeGreaterThanOrEqual(lo);
    expect(cocked).toBeLessThanOrEqual(hi);
  });
});

describe('a simulated rig that favours a face', () => {
  it('gives every fair die of the type the excess on that face, and multiplies a loaded die\'s own odds by the same rig weights', () => {
    const dice = new SimulatedDice([{ type: getDieType('d6') }, { type: getDieType('d6'), load: { symbol: '1', factor: 1.5 } }], seededRandom(1), { symbol: '6', excess: 0.04 });
    expect(dice.odds(0).get('6')).toBeCloseTo(1 / 6 + 0.04, 12);
    expect(dice.odds(0).get('1')).toBeCloseTo((5 / 6 - 0.04) / 5, 12);
    const own = loadedOdds(getDieType('d6'), { symbol: '1', factor: 1.5 });
    const rigWeight6 = (1 / 6 + 0.04) / (1 / 6);
    const rigWeightOther = (5 / 6 - 0.04) / (5 / 6);
    const loaded = dice.odds(1);
    // Odds ratios between faces are the die's own times the rig's: the two-way model.
    expect((loaded.get('6') as number) / (loaded.get('2') as number)).toBeCloseTo(((own.get('6') as number) / (own.get('2') as number)) * (rigWeight6 / rigWeightOther), 12);
    expect([...loaded.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('favours a symbol on every face that shows it: a D3 rig biased to 3 favours faces 5 and 6 alike, a direction die\'s five-centre gets the excess', () => {
    const d3 = new SimulatedDice([{ type: getDieType('d3') }], seededRandom(1), { symbol: '3', excess: 0.06 }).odds(0);
    expect((d3.get('5') as number) + (d3.get('6') as number)).toBeCloseTo(1 / 3 + 0.06, 12);
    expect(d3.get('5')).toBeCloseTo(d3.get('6') as number, 12);
    // Face 3 reads 2: not favoured.
    expect(d3.get('3')).toBeCloseTo((2 / 3 - 0.06) / 4, 12);
    const direction = new SimulatedDice([{ type: getDieType('direction') }], seededRandom(1), { symbol: 'five-centre', excess: 0.05 }).odds(0);
    expect((direction.get('1') as number) + (direction.get('6') as number)).toBeCloseTo(1 / 3 + 0.05, 12);
    expect([...direction.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('refuses a face the die does not show and an excess beyond the odds, naming the config key', () => {
    expect(() => new SimulatedDice([{ type: getDieType('red') }], seededRandom(1), { symbol: '6', excess: 0.04 })).toThrow(/camera\.rigBias\.symbol.*not shown on a red die/);
    expect(() => new SimulatedDice([{ type: getDieType('d6') }], seededRandom(1), { symbol: '6', excess: 0.9 })).toThrow(/camera\.rigBias\.excess/);
  });
});
