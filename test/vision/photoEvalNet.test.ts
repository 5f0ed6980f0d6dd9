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

  it('ships networks whose weights fit their shapes and that say which version read a die', () => {
    const reader = new D6NetReader(shippedD6Net);
    const read = reader.read({ image: blob(60, 30, 30), sizePx: 40 });
    expect(read.classifierVersion).toBe(shippedD6Net.version);
    expect(read.confidence).toBeGreaterThan(0);
    expect(read.confidence).toBeLessThanOrEqual(1);
  });

  it('runs every shipped D6 network exactly as the training framework did (its probe input gives the same probabilities)', () => {
    expect(shippedD6Net.nets.length).toBeGreaterThan(0);
    for (const n of shippedD6Net.nets) {
      const net = new TinyNet(n.spec, undefined, decodeWeights(n.weightsBase64));
      const p = net.predict(new Float32Array(3 * n.spec.size * n.spec.size).map((_, i) => 2 * Math.sin(0.37 * i)));
      expect(n.probe).toHaveLength(6);
      n.probe.forEach((v, j) => expect(p[j]).toBeCloseTo(v, 4));
    }
    expect(shippedD6Net.dataHash).toMatch(/^[0-9a-f]{64}$/);
    expect(shippedD6Net.command).toContain('training/d6net/train-d6net.sh');
  });

  it('averages its networks and views: one network of an ensemble read alone gives its own probabilities, the pair their mean', () => {
    const crop = { image: spots(60, [[20, 20], [40, 40]]), sizePx: 40 };
    const first = shippedD6Net.nets[0]!;
    const one = (nets: typeof shippedD6Net.nets, views: number): Float32Array => new D6NetReader({ ...shippedD6Net, nets }, { minProbability: 0.5, views, earlyAt: 2 }).probabilities(crop);
    const a = one([first], 1);
    const direct = new TinyNet(first.spec, undefined, decodeWeights(first.weightsBase64)).predict(netInput(crop.image, first.spec.size).data);
    [...direct].forEach((v, j) => expect(a[j]).toBeCloseTo(v, 6));
    const mirrored = new TinyNet(first.spec, undefined, decodeWeights(first.weightsBase64)).predict(transformInput(netInput(crop.image, first.spec.size).data, first.spec.size, 1, 0, 1));
    const two = one([first], 2);
    [...direct].forEach((v, j) => expect(two[j]).toBeCloseTo((v + (mirrored[j] as number)) / 2, 6));
    const pair = one([first, first], 2);
    [...two].forEach((v, j) => expect(pair[j]).toBeCloseTo(v, 6));
  });

  it('stops after the first view of every network when they are sure enough, and reads every view otherwise', () => {
    const crop = { image: spots(60, [[20, 20], [40, 40]]), sizePx: 40 };
    const read = (views: number, earlyAt: number): number[] => [...new D6NetReader(shippedD6Net, { minProbability: 0.5, views, earlyAt }).probabilities(crop)];
    const firstViews = read(1, 2);
    const allViews = read(4, 2);
    expect(allViews).not.toEqual(firstViews);
    const best = Math.max(...firstViews);
    // Sure enough: the first views are the answer. Not sure enough: all four views, as if there were no early stop.
    expect(read(4, best)).toEqual(firstViews);
    expect(read(4, best + 1e-6)).toEqual(allViews);
  });

  it('refuses a model with no network, or one whose network is not a D6 face reader', () => {
    expect(() => new D6NetReader({ ...shippedD6Net, nets: [] })).toThrow(/holds no network/);
    const first = shippedD6Net.nets[0]!;
    expect(() => new D6NetReader({ ...shippedD6Net, nets: [{ ...first, spec: { ...first.spec, classes: 8 } }] })).toThrow(/not 3 into the 6 faces/);
  });
});
