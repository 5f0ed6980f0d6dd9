import { describe, expect, it } from 'vitest';
import { createRgb } from '../../src/core/image.js';
import { DicerigError } from '../../src/core/errors.js';
import { CombinedD6Reader } from '../../src/vision/d6/combinedReader.js';
import type { CombinedD6Options, D6SecondOpinion } from '../../src/vision/d6/combinedReader.js';
import { D6PipReader } from '../../src/vision/d6/pipReader.js';
import type { DieCrop } from '../../src/vision/faceRead.js';
import { learnedD6Opinion } from '../../src/vision/learned/d6Opinion.js';
import { LearnedReader } from '../../src/vision/learned/reader.js';
import { shippedLearnedModels } from '../../src/vision/learned/shipped.js';

/** A light die with dark pips at the given centres on a grey ground (80 px crop, 56 px die). */
function die(pips: readonly (readonly [number, number])[]): DieCrop {
  const side = 80;
  const image = createRgb(side, side);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const inDie = Math.abs(x - side / 2) < 28 && Math.abs(y - side / 2) < 28;
      const inPip = pips.some(([px, py]) => Math.hypot(x - px, y - py) < 5);
      const v = inPip ? 20 : inDie ? 235 : 90;
      for (let k = 0; k < 3; k++) image.data[(y * side + x) * 3 + k] = v;
    }
  }
  return { image, sizePx: 56 };
}

/** A rule of the combined reader (the one shipped with d6-net/1): the cases below sit clearly on either side of it. */
const RULE: CombinedD6Options = { vetoProbability: 0.8, agreeProbability: 0.3, aloneProbability: 0.8, lowPipConfidence: 0.1 };

/** A second opinion that is `probability` sure of `face` for every crop (the rest spread evenly). */
function sureOf(face: number, probability: number): D6SecondOpinion {
  const p = new Float32Array(6).fill((1 - probability) / 5);
  p[face - 1] = probability;
  return { classifierVersion: 'opinion/1', probabilities: () => p };
}

describe('the pip counter with any second opinion', () => {
  it('reads a die the pip counter cannot count when the second opinion is sure of a face', () => {
    const read = new CombinedD6Reader(new D6PipReader(), sureOf(4, 0.95), RULE).read(die([]));
    expect(read.status).toBe('read');
    expect(read.symbol).toBe('4');
    expect(read.classifierVersion).toBe('d6-pips/1+opinion/1');
  });

  it('declines a blank die when the second opinion is unsure', () => {
    expect(new CombinedD6Reader(new D6PipReader(), sureOf(4, 0.5), RULE).read(die([])).status).toBe('unreadable');
  });

  it('keeps a confident pip count the second opinion does not firmly contradict', () => {
    const read = new CombinedD6Reader(new D6PipReader(), sureOf(5, 0.4), RULE).read(die([[40, 40]]));
    expect(read.status).toBe('read');
    expect(read.symbol).toBe('1');
  });

  it('declines a confident pip count the second opinion firmly reads as another face', () => {
    const read = new CombinedD6Reader(new D6PipReader(), sureOf(5, 0.95), RULE).read(die([[40, 40]]));
    expect(read.status).toBe('unreadable');
    expect(read.reason).toMatch(/pips count 1 .* firmly reads 5/);
  });
});

describe('a learned network as the second opinion', () => {
  it('refuses a network whose classes are not the D6 faces', () => {
    const xwing = new LearnedReader(shippedLearnedModels.xwing!);
    expect(() => learnedD6Opinion(xwing)).toThrow(DicerigError);
    expect(() => learnedD6Opinion(xwing)).toThrow(/not the D6 faces 1\.\.6/);
  });

  it("hands the combined reader the network's face probabilities for the pip counter's crop, under the network's version", () => {
    const net = new LearnedReader(shippedLearnedModels.d6!);
    const opinion = learnedD6Opinion(net);
    const crop = die([[28, 28], [52, 52]]);
    expect(opinion.classifierVersion).toBe(shippedLearnedModels.d6!.version);
    expect([...opinion.probabilities(crop)]).toEqual([...net.probabilities(crop)]);
    const p = opinion.probabilities(crop);
    expect(p).toHaveLength(6);
    expect(p.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 5);
    expect(new CombinedD6Reader(new D6PipReader(), opinion, RULE).read(crop).classifierVersion).toBe(`d6-pips/1+${shippedLearnedModels.d6!.version}`);
  });
});
