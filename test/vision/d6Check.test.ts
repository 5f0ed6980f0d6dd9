/**
 * A D6 check: the pip reader's reads of a user's labelled D6s, kept with a content hash, and the misread bounds a
 * session's verdicts allow for with it. Golden bounds (one-sided Clopper–Pearson, 95 %) from SciPy:
 *   from scipy.stats import beta
 *   beta.ppf(0.95, 1, 50)  -> 0.05815507911697225   (face 1: 0 of 50)
 *   beta.ppf(0.95, 3, 38)  -> 0.14915196127321298   (face 4: 2 of 40, one read as 2 and one flat die called cocked)
 *   beta.ppf(0.95, 2, 30)  -> 0.14409039131834475   (face 6: 1 of 31)
 *   beta.ppf(0.95, 2, 273) -> 0.017195540185661325  (1 cocked die read as a face among all 274 dice)
 */
import { describe, expect, it } from 'vitest';
import { D6_CHECK_FORMAT, D6_CHECK_VERSION, d6CheckDeclines, d6CheckMisreadAssumption, parseD6Check, sealD6Check, type D6Check } from '../../src/vision/calibration/d6Check.js';

const FACES = ['1', '2', '3', '4', '5', '6'];
const CHECK: D6Check = sealD6Check({
  format: D6_CHECK_FORMAT,
  version: D6_CHECK_VERSION,
  name: 'my-dice',
  createdAt: '2026-12-04T00:00:00.000Z',
  reader: 'd6-pips/1',
  face: 'bottom',
  source: 'labelled folder /somewhere (30 images, 274 dice)',
  images: 30,
  confusion: {
    rows: [...FACES, 'cocked'],
    columns: [...FACES, 'declined', 'cocked'],
    counts: [
      [50, 0, 0, 0, 0, 0, 5, 0],
      [0, 40, 0, 0, 0, 0, 3, 0],
      [0, 0, 45, 0, 0, 0, 0, 0],
      [0, 1, 0, 38, 0, 0, 2, 1],
      [0, 0, 0, 0, 44, 0, 0, 0],
      [0, 0, 1, 0, 0, 30, 4, 0],
      [0, 0, 0, 0, 0, 1, 0, 9],
    ],
  },
});

describe('a D6 check', () => {
  it("counts each face's dice and the ones its reader declined, which a session keeps unresolved", () => {
    expect(d6CheckDeclines(CHECK, FACES)).toEqual([
      { face: '1', dice: 55, declined: 5 },
      { face: '2', dice: 43, declined: 3 },
      { face: '3', dice: 45, declined: 0 },
      { face: '4', dice: 42, declined: 2 },
      { face: '5', dice: 44, declined: 0 },
      { face: '6', dice: 35, declined: 4 },
    ]);
  });

  it('bounds each face by its dice read or called cocked, plus cocked dice read as a face among all, as SciPy does', () => {
    const m = d6CheckMisreadAssumption(CHECK, FACES);
    expect(m.source).toBe(`D6 check "my-dice" (${CHECK.hash.slice(7, 19)}, dice on 30 images)`);
    const faces = m.faces ?? [];
    expect(faces.map((f) => [f.read, f.misread])).toEqual([
      [50, 0],
      [40, 0],
      [45, 0],
      [40, 2],
      [44, 0],
      [31, 1],
    ]);
    const cocked = 0.017195540185661325;
    expect(faces[0]?.bound).toBeCloseTo(0.05815507911697225 + cocked, 10);
    expect(faces[3]?.bound).toBeCloseTo(0.14915196127321298 + cocked, 10);
    expect(faces[5]?.bound).toBeCloseTo(0.14409039131834475 + cocked, 10);
    expect(m.statement).toMatch(/; each holds 1\.7 % for a die cocked and read as a face \(1 of 274 dice\); the error control holds where these bounds do/);
  });

  it('reads back as it was written, and refuses one edited after it was made, one of another format and a broken one', () => {
    expect(parseD6Check(JSON.parse(JSON.stringify(CHECK)), 'c.json')).toEqual(CHECK);
    // The name, time and source may change; what the dice showed may not.
    expect(parseD6Check({ ...CHECK, name: 'renamed', source: 'elsewhere' }).hash).toBe(CHECK.hash);
    const edited = { ...CHECK, confusion: { ...CHECK.confusion, counts: CHECK.confusion.counts.map((r, i) => (i === 5 ? [0, 0, 0, 0, 0, 31, 4, 0] : r)) } };
    expect(() => parseD6Check(edited, 'c.json')).toThrow(/the content does not match its hash \(it was changed after it was made; make the check again/);
    // The die size a check read whole frames with is part of what it measured: it may not be added or changed either.
    const framed = sealD6Check({ ...CHECK, dieSizePx: 72 });
    expect(parseD6Check(JSON.parse(JSON.stringify(framed))).dieSizePx).toBe(72);
    expect(() => parseD6Check({ ...framed, dieSizePx: 60 })).toThrow(/the content does not match its hash/);
    expect(() => parseD6Check({ ...CHECK, dieSizePx: 72 })).toThrow(/the content does not match its hash/);
    expect(() => parseD6Check({ version: 1, dice: ['red'] }, 'p.json')).toThrow(/^p\.json: not a D6 check \(format missing\): D6-faced dice take the file "dicerig calibrate --die d6 --from-labelled DIR" writes/);
    expect(() => parseD6Check({ ...CHECK, face: 'side' })).toThrow(/^not a valid D6 check: face: /);
    const ragged = sealD6Check({ ...CHECK, confusion: { ...CHECK.confusion, counts: CHECK.confusion.counts.slice(1) } });
    expect(() => parseD6Check(ragged)).toThrow(/confusion counts do not match its rows and columns/);
  });

  it('refuses a D6 check of another version as clearly as an X-Wing profile of another: which it is, which this reads, and what to do', () => {
    expect(() => parseD6Check({ ...CHECK, version: 2 }, 'future.json')).toThrow(/^future\.json: D6 check version 2 is not supported \(this dicerig reads version 1\); make the check again \(dicerig calibrate --die d6\)\.$/);
    expect(() => parseD6Check({ ...CHECK, version: undefined })).toThrow(/^D6 check version \(missing\) is not supported/);
  });

  it('refuses to bound a face it holds no die of', () => {
    const thin = sealD6Check({ ...CHECK, confusion: { ...CHECK.confusion, rows: CHECK.confusion.rows.filter((r) => r !== '5'), counts: CHECK.confusion.counts.filter((_, i) => i !== 4) } });
    expect(() => d6CheckMisreadAssumption(thin, FACES)).toThrow(/"5"/);
  });
});
