/**
 * What the D6 networks made of a die, remembered for a command (`D6NetOutputs`): a guided check that learns faces on
 * kept throws groups their dice, then learns from the same dice cut again from the same files.
 */
import { describe, expect, it, vi } from 'vitest';
import type { RgbImage } from '../../src/core/image.js';
import { seededRandom } from '../../src/stats/random.js';
import { D6NetOutputs, d6NetView, d6TurnEmbeddings } from '../../src/vision/d6/netEmbedding.js';
import { d6Nets } from '../../src/vision/d6/netReader.js';
import { shippedD6Net } from '../../src/vision/d6/netWeights.js';

const nets = d6Nets(shippedD6Net);

function noise(seed: number): RgbImage {
  const random = seededRandom(seed);
  const data = new Uint8Array(72 * 72 * 3);
  for (let i = 0; i < data.length; i++) data[i] = Math.floor(random() * 256);
  return { width: 72, height: 72, data };
}

/** Calls of the networks' reads while `f` runs. */
function reads(f: () => void): number {
  const spies = nets.map((n) => vi.spyOn(n, 'embed'));
  try {
    f();
    return spies.reduce((s, spy) => s + spy.mock.calls.length, 0);
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

describe('the D6 networks\' outputs remembered for a command', () => {
  it('gives a die cut again with the same pixels what the networks made of it, without their reading it again', () => {
    const image = noise(7);
    const outputs = new D6NetOutputs();
    let view: ReturnType<typeof d6NetView> | undefined;
    expect(reads(() => (view = d6NetView(nets, { image, sizePx: 72 }, outputs)))).toBe(4 * nets.length);
    const again = { image: { ...image, data: image.data.slice() }, sizePx: 72 };
    let turns: Float32Array[] = [];
    expect(reads(() => (turns = d6TurnEmbeddings(nets, again, 4, 0, outputs)))).toBe(0);
    // Exactly what the networks make of it, turn by turn and all turns together.
    expect(turns).toEqual(d6TurnEmbeddings(nets, { image, sizePx: 72 }, 4));
    expect(d6TurnEmbeddings(nets, again, 4, 2, outputs)).toEqual(d6TurnEmbeddings(nets, { image, sizePx: 72 }, 4, 2));
    expect(view).toEqual(d6NetView(nets, { image: noise(7), sizePx: 72 }));
  });

  it('has the networks read a die whose pixels differ, and what they made of it is its own', () => {
    const outputs = new D6NetOutputs();
    const image = noise(8);
    d6TurnEmbeddings(nets, { image, sizePx: 72 }, 1, 0, outputs);
    const other = noise(9);
    let turns: Float32Array[] = [];
    expect(reads(() => (turns = d6TurnEmbeddings(nets, { image: other, sizePx: 72 }, 1, 0, outputs)))).toBe(nets.length);
    expect(turns).toEqual(d6TurnEmbeddings(nets, { image: other, sizePx: 72 }, 1));
    // The first turn was remembered alone: the others are read when asked for.
    expect(reads(() => d6TurnEmbeddings(nets, { image, sizePx: 72 }, 4, 0, outputs))).toBe(3 * nets.length);
  });
});
