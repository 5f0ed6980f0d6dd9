import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { planGoldenOutput } from '../../support/planGoldenCases.js';

// The plan's simulations as the code before its speed-up gave them (commit c367664, the session monitor itself run on
// every simulated die), on the cases of test/support/planGoldenCases.ts, whose header has the command that printed
// them. A speed-up must leave every stopping roll as it was: these are our own earlier figures, not statistical ones
// (test/verdict/planAgainstProcedure.test.ts checks the figures against the procedure itself).

/** [case, seed, dice that reached the other decision first, median stopping roll, digest of all 40 stopping rolls]. */
const SIMULATIONS: [string, number, number, number | null, string][] = [
  ["d6 fair, 4 dice at 0.001, \u00b10.05", 1, 0, 2252, '7795f6632f56ff78'],
  ["d6 fair, 4 dice at 0.001, \u00b10.05", 2, 0, 2038, 'b72b9bd80096550f'],
  ["d6 fair, 4 dice at 0.001, \u00b10.05", 20260101, 0, 2098, 'bcc704eee4d6674b'],
  ["d6 fair, 1 die at 0.05, \u00b10.03", 1, 2, 3539, 'c27bafa287e0bd39'],
  ["d6 fair, 1 die at 0.05, \u00b10.03", 2, 2, 3522, 'ea8cd7dc23642ea0'],
  ["d6 fair, 1 die at 0.05, \u00b10.03", 20260101, 4, 3471, 'b81f7d317f83aafd'],
  ["red fair, 4 dice at 0.01, \u00b10.05", 1, 0, 1945, '338e99bbea5edae3'],
  ["red fair, 4 dice at 0.01, \u00b10.05", 2, 0, 2158, '536d4667ccf24cd8'],
  ["red fair, 4 dice at 0.01, \u00b10.05", 20260101, 0, 2168, '0a0e8c08ad937431'],
  ["green fair, 30 dice at 0.01, \u00b10.04", 1, 0, 4054, '6b2548a5f73534cf'],
  ["green fair, 30 dice at 0.01, \u00b10.04", 2, 0, 4298, 'c1d23e8ad983e6d6'],
  ["green fair, 30 dice at 0.01, \u00b10.04", 20260101, 0, 3938, '3ecf699427359c1b'],
  ["d8 fair, 2 dice at 0.01, \u00b10.06", 1, 0, 1051, '12961a01ac7303ff'],
  ["d8 fair, 2 dice at 0.01, \u00b10.06", 2, 0, 1036, 'b30f3f37f5ae27af'],
  ["d8 fair, 2 dice at 0.01, \u00b10.06", 20260101, 0, 1106, '1a115f533bc06c25'],
  ["d6 with a 6 at 0.25, UNFAIR", 1, 0, 414, '3cafa82c9554cc5b'],
  ["d6 with a 6 at 0.25, UNFAIR", 2, 0, 384, '966cf5cdfe6d2bf7'],
  ["d6 with a 6 at 0.25, UNFAIR", 20260101, 0, 360, '84c70bdeda98a72a'],
  ["red hitting 0.5, UNFAIR", 1, 0, 190, '2343b1ba71794ec9'],
  ["red hitting 0.5, UNFAIR", 2, 0, 174, '77cf2eaae34d30a0'],
  ["red hitting 0.5, UNFAIR", 20260101, 0, 156, '5b01dcf376a9bef3'],
  ["d6 biased inside the margin (mostly certified first)", 1, 40, null, '33c629622f61da85'],
  ["d6 biased inside the margin (mostly certified first)", 2, 40, null, '33c629622f61da85'],
  ["d6 biased inside the margin (mostly certified first)", 20260101, 39, null, '637b388abc47374d'],
  ["d6 fair with misread bounds", 1, 0, 2128, 'e19c8b8e8b4c2347'],
  ["d6 fair with misread bounds", 2, 0, 1981, '50e4c7dcf74e1cb5'],
  ["d6 fair with misread bounds", 20260101, 0, 2068, '049d41b2369bff68'],
  ["d6 fair, capped at 1,500 rolls", 1, 0, null, 'c242a35a727a7be2'],
  ["d6 fair, capped at 1,500 rolls", 2, 0, null, '2e541de4809f40d7'],
  ["d6 fair, capped at 1,500 rolls", 20260101, 0, null, '4366bb90a1b81d45'],
];

/** [plan, its figures: a certification's session median and 9-in-10, fixed-sample median and 9-in-10, exact-share floor; a detection's session median and power quantile, share certified first, analyze's omnibus and targeted rolls]. */
const PLANS: [string, (number | null)[]][] = [
  ["certify d6 by symbol \u00b10.05 at 0.001, 4 dice", [2148, 2688, 1915, 2514, 1141]],
  ["certify red by symbol \u00b10.03 at 0.05, 4 dice", [5075, 7119, 3933, 5923, 2339]],
  ["certify green by face \u00b10.04 at 0.01, 2 dice", [3121, 4425, 1959, 2559, 1008]],
  ["certify d3 by symbol \u00b10.05 at 0.05, 30 dice", [1936, 2418, 1845, 2772, 1128]],
  ["detect red hit=0.5, 4 dice", [214, 308, 0, 251, 192]],
  ["detect d6 6=0.2, 4 dice", [2586, 4134, 0, 2150, 1394]],
  ["detect green evade=x1.1, 1 dice", [1517, 2766, 0, 1916, 1585]],
  ["detect d3 3=0.4, 2 dice", [645, 1196, 0, 666, 558]],
];

describe('the plan simulation after its speed-up', () => {
  it('stops every simulated die at the roll the session monitor stopped it before, on every case, seed and plan', async () => {
    const now = await planGoldenOutput(fileURLToPath(new URL('../../../src', import.meta.url)));
    expect(now.simulations.map((s) => [s.name, s.seed, s.other, s.median, s.rolls])).toEqual(SIMULATIONS);
    expect(now.plans.map((p) => [p.name, p.figures])).toEqual(PLANS);
  }, 120_000);
});
