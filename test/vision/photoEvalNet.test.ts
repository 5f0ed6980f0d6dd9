import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/stats/random.js';
import { transformInput } from '../../src/vision/d6/augment.js';
import { netInput } from '../../src/vision/d6/netInput.js';
import { D6NetReader, decodeWeights, encodeWeights } from '../../src/vision/d6/netReader.js';
import { shippedD6Net } from '../../src/vision/d6/netWeights.js';
import { TinyNet } from '../../src/vision/d6/tinyNet.js';
import type { RgbImage } from '../../src/core/image.js';

/** A grey square crop with dark discs at the given points. */
function spots(size: number, points: readonly (readonly [number, number])[]): RgbImage {
  const data = new Uint8Array(size * size * 3).fill(200);
  for (const [x, y] of points) {
    for (let yy = 0; yy < size; yy++) for (let xx = 0; xx < size; xx++) if ((xx - x) ** 2 + (yy - y) ** 2 < 9) data.fill(30, (yy * size + xx) * 3, (yy * size + xx) * 3 + 3);
  }
  return { width: size, height: size, data };
}
const blob = (size: number, x: number, y: number): RgbImage => spots(size, [[x, y]]);

describe('the tiny network behind the learned D6 reader', () => {
  it('round-trips its weights through base64', () => {
    const w = new Float32Array([0, 1.5, -2.25, 3e-7, -1e6]);
    expect(decodeWeights(encodeWeights(w))).toEqual(w);
  });

  it('learns a simple task (one spot or three?) and trains identically from the same seed', () => {
    const spec = { channels: 3, size: 16, convs: [{ out: 4, pool: true }, { out: 8, pool: false }], classes: 2 };
    const random = seededRandom(5);
    const samples = Array.from({ length: 120 }, () => {
      const three = random() < 0.5;
      const at = (): [number, number] => [5 + random() * 30, 5 + random() * 30];
      return { input: netInput(spots(40, three ? [at(), at(), at()] : [at()]), 16, 1).data, label: three ? 1 : 0 };
    });
    const train = (): TinyNet => {
      const net = new TinyNet(spec, seededRandom(1));
      net.train(samples, { epochs: 15, batch: 8, learningRate: 0.01, weightDecay: 0, random: seededRandom(2) });
      return net;
    };
    const a = train();
    const right = samples.filter((s) => (a.predict(s.input)[1] as number) > 0.5 === (s.label === 1)).length;
    expect(right / samples.length).toBeGreaterThan(0.95);
    expect(train().weights()).toEqual(a.weights());
  });

  it('changes a net input only as labelled-preserving transforms should', () => {
    const x = netInput(blob(40, 10, 20)).data;
    expect(transformInput(x, 32, 0, 0, 1)).toEqual(x);
    // A mirror done twice, and swapping light and dark twice, give the input back.
    expect(transformInput(transformInput(x, 32, 1, 0, 1), 32, 1, 0, 1)).toEqual(x);
    expect(transformInput(transformInput(x, 32, 0, 0, -1), 32, 0, 0, -1)).toEqual(x);
  });

  it('ships a network whose weights fit its shape and that says which version read a die', () => {
    const reader = new D6NetReader(shippedD6Net);
    const read = reader.read({ image: blob(60, 30, 30), sizePx: 40 });
    expect(read.classifierVersion).toMatch(/^d6-net\/1-[0-9a-f]{8}$/);
    expect(read.confidence).toBeGreaterThan(0);
    expect(read.confidence).toBeLessThanOrEqual(1);
  });
});
