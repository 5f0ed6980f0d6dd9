import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { projectionGoldenOutput } from '../../support/projectionGoldenCases.js';

// Every state of a die's monitor after every throw (least favourable e-value, running maximum, verdict with its
// margins and projected rolls, reads to review, intervals) as the code before its speed-up gave them (commit d42902e),
// on the cases of test/support/projectionGoldenCases.ts, whose header has the command that printed them. A speed-up of
// the least favourable evidence or the projection must leave every bit as it was: these are our own earlier values,
// not statistical ones (test/unit/stats/leastFavourable.test.ts checks the bound itself against brute force).

/** [case, seed, throws fed, last verdict, digest of every state after every throw]. */
const STATES: [string, number, number, string, string][] = [
  ["d6 fair, misread bounds, no declines", 1, 250, 'INCONCLUSIVE', '1ee6d3278545d410'],
  ["d6 fair, misread bounds, no declines", 2, 250, 'INCONCLUSIVE', 'f51a104891c35ea3'],
  ["d6 fair, misread bounds, no declines", 20260101, 250, 'INCONCLUSIVE', '59983d84da0988b7'],
  ["d6 fair, misread bounds, declines", 1, 250, 'INCONCLUSIVE', '6a5d9e59d62c6fc3'],
  ["d6 fair, misread bounds, declines", 2, 250, 'INCONCLUSIVE', 'cdbace97c4357e4b'],
  ["d6 fair, misread bounds, declines", 20260101, 250, 'INCONCLUSIVE', 'e67d5002f78a7825'],
  ["d6 fair, declines, no misreads", 1, 250, 'INCONCLUSIVE', 'ddc70d842cb7b89b'],
  ["d6 fair, declines, no misreads", 2, 250, 'INCONCLUSIVE', '68859bb39a8c2f29'],
  ["d6 fair, declines, no misreads", 20260101, 250, 'INCONCLUSIVE', 'e9891c64ea091cbb'],
  ["d6 with a 6 at 0.3, misread bounds, declines", 1, 213, 'UNFAIR', '72dba49004193f74'],
  ["d6 with a 6 at 0.3, misread bounds, declines", 2, 300, 'INCONCLUSIVE', 'c34c34ddd357ecf6'],
  ["d6 with a 6 at 0.3, misread bounds, declines", 20260101, 300, 'INCONCLUSIVE', 'cd0f816d3732caba'],
  ["d6 whose 1 is never read", 1, 250, 'INCONCLUSIVE', '7bf2a899debf4947'],
  ["d6 whose 1 is never read", 2, 250, 'INCONCLUSIVE', '607379319d3254ab'],
  ["d6 whose 1 is never read", 20260101, 250, 'INCONCLUSIVE', '66a61ddc79b1e660'],
  ["red fair, misread bounds, declines", 1, 250, 'INCONCLUSIVE', 'e786b3543759a088'],
  ["red fair, misread bounds, declines", 2, 250, 'INCONCLUSIVE', 'eabf355b0fe85936'],
  ["red fair, misread bounds, declines", 20260101, 250, 'INCONCLUSIVE', '5b42c19774a494a0'],
  ["red hitting 0.5, misread bounds", 1, 250, 'INCONCLUSIVE', '98943f8b119b40db'],
  ["red hitting 0.5, misread bounds", 2, 250, 'INCONCLUSIVE', 'c4cf8c76f085e477'],
  ["red hitting 0.5, misread bounds", 20260101, 250, 'INCONCLUSIVE', '15944367bbca9379'],
  ["green fair, misread bounds, declines", 1, 250, 'INCONCLUSIVE', 'f9418923bbcf00b9'],
  ["green fair, misread bounds, declines", 2, 250, 'INCONCLUSIVE', '72dc337066a8e40f'],
  ["green fair, misread bounds, declines", 20260101, 250, 'INCONCLUSIVE', 'fe86564d6fdc7fd6'],
  ["d8 fair, misread bounds, declines", 1, 250, 'INCONCLUSIVE', '3b6791b0a9729d56'],
  ["d8 fair, misread bounds, declines", 2, 250, 'INCONCLUSIVE', 'eb8f4701aa2e5bb5'],
  ["d8 fair, misread bounds, declines", 20260101, 250, 'INCONCLUSIVE', '00be7eb6b963e240'],
  ["d3 fair at \u00b10.1, misread bounds, declines", 1, 600, 'INCONCLUSIVE', '189d257d682f5eb8'],
  ["d3 fair at \u00b10.1, misread bounds, declines", 2, 600, 'INCONCLUSIVE', '8210ee21de0d5526'],
  ["d3 fair at \u00b10.1, misread bounds, declines", 20260101, 600, 'INCONCLUSIVE', '135f0b6af51bcd38'],
  ["d3 loaded, declines, no misreads", 1, 250, 'INCONCLUSIVE', 'ef60b130575e9067'],
  ["d3 loaded, declines, no misreads", 2, 250, 'INCONCLUSIVE', 'd319dd9e2ea72bc5'],
  ["d3 loaded, declines, no misreads", 20260101, 250, 'INCONCLUSIVE', '4d21e57d33eed0d6'],
];

describe('the monitor after the speed-up of its least favourable evidence and projection', () => {
  it('gives every state, verdict, e-value, margin and projected roll count it gave before, after every throw of every case and seed', async () => {
    const now = await projectionGoldenOutput(fileURLToPath(new URL('../../../src', import.meta.url)));
    expect(now.map((s) => [s.name, s.seed, s.throws, s.verdict, s.states])).toEqual(STATES);
  });
});
