/**
 * The pip counter with a learned second opinion. The pip counter works for any
 * die and pip colour and explains itself; the learned classifier knows the dice
 * it was trained on. Together:
 * - the pip counter reads confidently and the classifier does not firmly say
 *   otherwise: that read;
 * - the pip counter found a count but is unsure, and the classifier agrees with
 *   at least `agreeProbability`: that count;
 * - the pip counter has nothing (or next to nothing), and the classifier
 *   alone is at least `aloneProbability` sure: the classifier's face;
 * - anything else (in particular a firm disagreement) is declined.
 */
import type { DieCrop, FaceRead, FaceReader } from '../faceRead.js';
import { D6PipReader } from './pipReader.js';

/** A learned second opinion: face probabilities ('1'..'6', in that order) for a crop, and its version. `D6NetReader` is one. */
export interface D6SecondOpinion {
  readonly classifierVersion: string;
  /** `counted`: the face the pip counter counted surely, if any; an opinion may look less hard once it agrees. */
  probabilities(crop: DieCrop, counted?: string): Float32Array;
}

export interface CombinedD6Options {
  /** Classifier probability that overrules a confident pip count (a firm disagreement: declined). */
  readonly vetoProbability: number;
  /** Classifier probability that, agreeing with an unsure pip count, makes it a read. */
  readonly agreeProbability: number;
  /** Classifier probability that reads a die the pip counter could not count (or counted with under `lowPipConfidence`). */
  readonly aloneProbability: number;
  readonly lowPipConfidence: number;
}

export class CombinedD6Reader implements FaceReader {
  readonly classifierVersion: string;
  /** The pip counter run without its own threshold: its count and confidence are weighed here. */
  private readonly counter: D6PipReader;

  constructor(
    readonly pips: D6PipReader,
    readonly net: D6SecondOpinion,
    /** The rule, set for that second opinion (the shipped networks carry theirs: `shippedD6Net.combined`). */
    readonly options: CombinedD6Options,
  ) {
    this.counter = new D6PipReader({ ...pips.options, minConfidence: 0 });
    this.classifierVersion = `${pips.classifierVersion}+${net.classifierVersion}`;
  }

  read(crop: DieCrop): FaceRead {
    const o = this.options;
    const pip = this.counter.read(crop);
    const count = pip.symbol;
    // A count at the pip counter's own threshold: it stands unless the opinion firmly reads another face.
    const sure = count !== undefined && pip.confidence >= this.pips.options.minConfidence;
    const p = this.net.probabilities(crop, sure ? count : undefined);
    let best = 0;
    for (let j = 1; j < p.length; j++) if ((p[j] as number) > (p[best] as number)) best = j;
    const netFace = String(best + 1);
    const netProbability = p[best] as number;
    const countProbability = count !== undefined ? (p[Number(count) - 1] ?? 0) : 0;
    const details: Record<string, number> = { ...(pip.details ?? {}), pipConfidence: pip.confidence, netFace: best + 1, netProbability, netProbabilityOfCount: countProbability };
    const base = { classifierVersion: this.classifierVersion, crop: crop.image, details };
    const read = (symbol: string, confidence: number, how: number): FaceRead => ({ ...base, status: 'read', symbol, confidence, details: { ...details, decidedBy: how } });
    if (sure && count !== undefined) {
      if (netFace !== count && netProbability >= o.vetoProbability) {
        return { ...base, status: 'unreadable', cause: 'disputed', confidence: 0, reason: `The pips count ${count} but the learned classifier firmly reads ${netFace}.` };
      }
      // 1: the pip count, not contradicted.
      return read(count, pip.confidence, 1);
    }
    if (count !== undefined && netFace === count && netProbability >= o.agreeProbability) return read(count, netProbability, 2);
    if (netProbability >= o.aloneProbability && (count === undefined || pip.confidence < o.lowPipConfidence)) return read(netFace, netProbability, 3);
    return { ...base, status: 'unreadable', cause: 'unsure', confidence: Math.max(pip.confidence, netProbability), reason: pip.reason ?? `Neither the pip count nor the learned classifier is sure (classifier: ${netFace} at ${netProbability.toFixed(2)}).` };
  }
}
