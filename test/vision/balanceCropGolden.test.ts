import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { balanceCrop } from '../../src/vision/d8/dieOutline.js';
import { seededRandom } from '../../src/stats/random.js';

describe("the X-Wing reader's white balance and blur of a crop", () => {
  it('gives byte for byte the floats it gave before its edge pixels were done apart, on crops from 1x1 to 120x118', () => {
    const hash = createHash('sha256');
    const random = seededRandom(17);
    // One pixel, one column, one row, tiny and die-sized crops: every edge case of the 3x3 blur.
    for (const [w, h] of [[1, 1], [1, 6], [6, 1], [2, 3], [37, 29], [120, 118]] as const) {
      const data = Uint8Array.from({ length: w * h * 3 }, () => Math.floor(256 * random()));
      const crop = balanceCrop({ width: w, height: h, data });
      hash.update(new Uint8Array(crop.data.buffer));
      hash.update(crop.gains.join(','));
    }
    // Computed by balanceCrop of commit 4bde6af (one loop testing each neighbour at every pixel), the same code on the
    // same crops (the script: this test's loop, importing that checkout's src/).
    expect(hash.digest('hex')).toBe('3efafec0159e2f12147e1e6024f00f8741b495f9d946e0cd54aabbc225dcaee3');
  });
});
