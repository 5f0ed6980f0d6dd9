/**
 * Training figures: one training step (forward, gradients and the Adam update, batch 16) per sample for the shipped
 * learned networks' shapes, as calibration's fine-tuning runs them on the user's dice, against one inference of the
 * same network (the WebAssembly kernel). The networks start from their shipped weights; the inputs are seeded noise,
 * so the figures are of the arithmetic, not of what is learned. Prints; asserts nothing.
 */
import { decodeWeights } from '../src/vision/d6/netReader.js';
import { TinyNet } from '../src/vision/d6/tinyNet.js';
import { seededRandom } from '../src/stats/random.js';
import type { LearnedModel } from '../src/vision/learned/model.js';
import { xwingModel } from '../src/vision/learned/weights/xwing.js';
import { xwingCockedModel } from '../src/vision/learned/weights/xwingCocked.js';
import { median, report } from './measure.js';

function figures(model: LearnedModel): string[][] {
  const net = new TinyNet(model.spec, undefined, decodeWeights(model.weightsBase64));
  const random = seededRandom(11);
  const length = model.spec.channels * model.spec.size * model.spec.size;
  const samples = Array.from({ length: 64 }, (_, i) => ({ input: Float32Array.from({ length }, () => random() * 2 - 1), label: i % model.spec.classes }));
  // A first run warms the code up; then the median of three.
  const step = (): number => {
    const t0 = performance.now();
    net.train(samples, { epochs: 1, batch: 16, learningRate: 1e-4, weightDecay: 0, random: seededRandom(5) });
    return (performance.now() - t0) / samples.length;
  };
  step();
  const train = median([step(), step(), step()]);
  for (const s of samples) net.predict(s.input);
  const t0 = performance.now();
  for (let k = 0; k < 4; k++) for (const s of samples) net.predict(s.input);
  const infer = (performance.now() - t0) / (4 * samples.length);
  const convs = model.spec.convs.map((c) => `${c.out}${c.pool ? 'p' : ''}`).join(',');
  return [
    [`${model.version}: training step per sample`, `${train.toFixed(2)} ms`, `${model.spec.channels}x${model.spec.size}x${model.spec.size}, convs ${convs}; ${(1000 / train).toFixed(0)} samples/s`],
    ['  one inference (WebAssembly)', `${infer.toFixed(3)} ms`, `training step / inference ${(train / infer).toFixed(1)}x`],
  ];
}

export function runTrainingBench(): void {
  report('training: the plain convolutions fine-tuning runs at calibration (bit-for-bit reproducible sums)', [...figures(xwingModel), ...figures(xwingCockedModel)]);
}
