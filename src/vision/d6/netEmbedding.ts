/**
 * What the shipped D6 networks see in a die, for grouping dice a person then
 * names (the guided D6 check): the pooled features their last layer reads,
 * averaged over the four turns of the crop and over the ensemble, scaled to
 * length 1. The networks are not the pip counter a check measures, so dice are
 * grouped by something other than the reader the check is of.
 */
import { unitLength } from '../../core/unitLength.js';
import type { DieCrop } from '../faceRead.js';
import { transformInput } from './augment.js';
import { netInput } from './netInput.js';
import type { TinyNet } from './tinyNet.js';

/** Turns of the crop whose embeddings are averaged: a face groups whichever way it lies. */
const TURNS = 4;

export function d6Embedding(nets: readonly TinyNet[], crop: DieCrop): Float32Array {
  let sum: Float32Array | undefined;
  for (const net of nets) {
    const size = net.spec.size;
    const input = netInput(crop.image, size).data;
    for (let t = 0; t < TURNS; t++) {
      const e = net.embed(t === 0 ? input : transformInput(input, size, t, 0, 1)).embedding;
      sum ??= new Float32Array(e.length);
      if (e.length !== sum.length) throw new RangeError('the D6 networks of one model give embeddings of different lengths');
      for (let j = 0; j < e.length; j++) sum[j] = (sum[j] as number) + (e[j] as number);
    }
  }
  return unitLength(sum ?? new Float32Array(0));
}
