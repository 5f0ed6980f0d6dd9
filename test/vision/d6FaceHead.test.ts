/**
 * Faces learned on the user's own D6s (`calibrate --die d6 --learn-faces`): a last layer on the shipped D6 networks'
 * embedding, and the check that reads each image's dice with faces learned on the other images' only.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedCamera } from '../../src/camera/sim/simulatedCamera.js';
import { simDieClass } from '../../src/camera/sim/writeLabelledFolder.js';
import { sessionPipeline } from '../../src/session/sessionPipeline.js';
import { seededRandom } from '../../src/stats/random.js';
import { crossFitD6Reads, d6Folds, TooFewFacesError, type CheckedD6Read } from '../../src/vision/calibration/d6CrossFit.js';
import { D6FaceHeadOpinion, d6FaceHeadId, d6FaceHeadProbabilities, FIT_TURNS, fitD6FaceHead } from '../../src/vision/calibration/d6FaceHead.js';
import { CombinedD6Reader, type D6SecondOpinion } from '../../src/vision/d6/combinedReader.js';
import { d6TurnEmbeddings } from '../../src/vision/d6/netEmbedding.js';
import { d6Nets } from '../../src/vision/d6/netReader.js';
import { shippedD6Net } from '../../src/vision/d6/netWeights.js';
import { D6PipReader } from '../../src/vision/d6/pipReader.js';
import { readWholeFrame } from '../../src/vision/labelledFrame.js';

const FACES = ['1', '2', '3', '4', '5', '6'];

/** Points round six well-apart unit directions in 8 dimensions, a face each. */
function clusters(perFace: number, seed: number): { embedding: Float32Array; face: string }[] {
  const random = seededRandom(seed);
  return FACES.flatMap((face, k) =>
    Array.from({ length: perFace }, () => {
      const v = Float32Array.from({ length: 8 }, (_, c) => (c === k ? 1 : 0) + (random() - 0.5) * 0.3);
      const n = Math.hypot(...v);
      return { embedding: v.map((x) => x / n), face };
    }),
  );
}

describe('faces learned on D6 embeddings', () => {
  it('reads dice it was not fitted on as their face, surely, with probabilities that sum to 1', () => {
    const head = fitD6FaceHead(clusters(20, 1), 'nets/x');
    for (const s of clusters(5, 2)) {
      const p = d6FaceHeadProbabilities(head, s.embedding);
      expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
      const best = p.indexOf(Math.max(...p));
      expect(FACES[best]).toBe(s.face);
      expect(p[best]).toBeGreaterThan(0.9);
    }
  });

  it('is named by its numbers, so a session cannot read with other faces than the check measured', () => {
    const head = fitD6FaceHead(clusters(10, 1), 'nets/x');
    expect(d6FaceHeadId(head)).toMatch(/^d6-faces\/1@nets\/x:[0-9a-f]{12}$/);
    expect(d6FaceHeadId(fitD6FaceHead(clusters(10, 1), 'nets/x'))).toBe(d6FaceHeadId(head));
    expect(d6FaceHeadId({ ...head, weights: head.weights.map((w, i) => (i === 0 ? w + 0.001 : w)) })).not.toBe(d6FaceHeadId(head));
    expect(d6FaceHeadId({ ...head, nets: 'nets/y' })).not.toBe(d6FaceHeadId(head));
  });

  it('refuses an embedding of another length than it was fitted on, naming both', () => {
    const head = fitD6FaceHead(clusters(5, 1), 'nets/x');
    expect(() => d6FaceHeadProbabilities(head, new Float32Array(12))).toThrow(/48 weights, not 6 x 12/);
  });
});

/** Labelled reads of simulated whole frames as a session reads them, by the pip counter; every die's 6 is a logo. */
function logoReads(frames: number, seed: number): CheckedD6Read[] {
  const pipeline = sessionPipeline('pips', 72);
  const reads: CheckedD6Read[] = [];
  for (let session = 0; session < frames / 5; session++) {
    const camera = new SimulatedCamera({ seed: seed + session, channels: 6, dicePerChannel: 2, cockedRate: 0.05, logoFaces: new Array<string>(12).fill('6') });
    const reference = camera.emptyPlatform();
    for (let f = 0; f < 5; f++) {
      const { image, truth } = camera.still();
      for (const r of readWholeFrame(image, reference, 12, new D6PipReader(), pipeline).readings) {
        const known = truth.dice.find((d) => Math.hypot(d.center.x - r.die.center.x, d.center.y - r.die.center.y) < 36);
        if (known) reads.push({ group: `s${session}f${f}`, truth: simDieClass(known), read: r.read });
      }
    }
  }
  return reads;
}

describe('a D6 check with faces learned on its own dice', () => {
  const nets = d6Nets(shippedD6Net);
  const reads = logoReads(20, 4100);
  const heads = new Map<string, D6SecondOpinion>();
  const fit = crossFitD6Reads(reads, {
    nets,
    netsVersion: shippedD6Net.version,
    readerWith: (opinion) => {
      heads.set(opinion.classifierVersion, opinion);
      return new CombinedD6Reader(new D6PipReader(), opinion, shippedD6Net.combined);
    },
    seen: (label) => label,
    sizePx: 72,
    folds: 4,
    seed: 1,
    minPerFace: 10,
  });

  it('reads the logo faces the pip counter declines, and reads each image with faces not learned on it', () => {
    const sixes = reads.filter((r) => r.truth === '6' && r.read.status !== 'cocked');
    expect(sixes.length).toBeGreaterThan(20);
    // The pip counter alone reads none of them.
    expect(sixes.filter((r) => r.read.status === 'read')).toEqual([]);
    const learned = fit.reads.filter((r) => r.truth === '6' && r.read.status !== 'cocked');
    expect(learned.filter((r) => r.read.symbol === '6').length).toBeGreaterThanOrEqual(0.95 * sixes.length);
    expect(fit.reads.filter((r) => r.read.status === 'read' && r.read.symbol !== r.truth)).toEqual([]);

    // Each image's dice were read with the head fitted on exactly the other folds' dice.
    const fold = d6Folds(reads.map((r) => r.group), fit.folds, 1);
    // Each die is learned in each of its turns (each die's embedded once here: it is in all folds' heads but its own).
    const embedded = new Map<CheckedD6Read, { embedding: Float32Array; face: string }[]>();
    const samplesOf = (r: CheckedD6Read): { embedding: Float32Array; face: string }[] => {
      const known = embedded.get(r) ?? d6TurnEmbeddings(nets, { image: r.read.crop, sizePx: 72 }, FIT_TURNS).map((embedding) => ({ embedding, face: r.truth }));
      embedded.set(r, known);
      return known;
    };
    // The dice the reader was asked about: not those the pipeline called cocked, touching or joined by a shadow.
    const asked = (r: CheckedD6Read): boolean => r.read.status !== 'cocked' && r.read.cause !== 'touching' && r.read.cause !== 'shadow';
    const flat = reads.filter((r) => asked(r) && FACES.includes(r.truth));
    for (let k = 0; k < fit.folds; k++) {
      const expected = fitD6FaceHead(flat.filter((r) => fold.get(r.group) !== k).flatMap(samplesOf), shippedD6Net.version);
      const versions = new Set(fit.reads.filter((r) => fold.get(r.group) === k && asked(r)).map((r) => r.read.classifierVersion));
      expect([...versions]).toEqual([`d6-pips/1+${d6FaceHeadId(expected)}`]);
    }
    // The head a session reads with learned from every flat die, and is none of the folds'.
    expect(heads.has(d6FaceHeadId(fit.head))).toBe(false);
    expect(new D6FaceHeadOpinion(nets, fit.head).classifierVersion).toBe(d6FaceHeadId(fit.head));
  });

  it("reads each image's dice exactly as a session reading with that fold's faces does (the check reuses the turns it fitted on)", () => {
    const byVersion = new Map([...heads.values()].map((o) => [`d6-pips/1+${o.classifierVersion}`, (o as D6FaceHeadOpinion).head]));
    let compared = 0;
    reads.forEach((r, i) => {
      const checked = fit.reads[i] as CheckedD6Read;
      const head = byVersion.get(checked.read.classifierVersion);
      if (head === undefined) return;
      // A session's reader: the same faces, the networks run afresh on the die.
      const session = new CombinedD6Reader(new D6PipReader(), new D6FaceHeadOpinion(nets, head), shippedD6Net.combined);
      expect(checked.read).toEqual(session.read({ image: r.read.crop, sizePx: 72 }));
      compared++;
    });
    expect(compared).toBeGreaterThan(0.8 * reads.length);
  });

  it('looks at one turn of a die when it agrees with the sure pip count or is sure itself, and at four otherwise', () => {
    const opinion = new D6FaceHeadOpinion(nets, fit.head);
    const turnsOf = (r: CheckedD6Read): Float32Array[] => d6TurnEmbeddings(nets, { image: r.read.crop, sizePx: 72 }, FIT_TURNS).map((e) => d6FaceHeadProbabilities(fit.head, e));
    const mean = (ps: Float32Array[]): number[] => Array.from(ps[0] as Float32Array, (_, j) => ps.reduce((a, p) => a + (p[j] as number), 0) / ps.length);
    let unsure = 0;
    for (const r of reads.filter((x) => x.read.status !== 'cocked' && x.read.cause === undefined).slice(0, 40)) {
      const turns = turnsOf(r);
      const first = turns[0] as Float32Array;
      const best = FACES[first.indexOf(Math.max(...first))] as string;
      const crop = { image: r.read.crop, sizePx: 72 };
      expect(Array.from(opinion.probabilities(crop, best))).toEqual(Array.from(first));
      const alone = Array.from(opinion.probabilities(crop));
      if (Math.max(...first) >= 0.99) expect(alone).toEqual(Array.from(first));
      else {
        unsure++;
        alone.forEach((v, j) => expect(v).toBeCloseTo(mean(turns)[j] as number, 6));
      }
    }
    expect(unsure).toBeGreaterThan(0);
  });

  it("leaves the pipeline's own verdicts as they were: a die the outline called cocked, or touching another, is not read again", () => {
    const cocked = reads.map((r, i) => [r, fit.reads[i]] as const).filter(([r]) => r.read.status === 'cocked' || r.read.cause === 'touching');
    expect(cocked.some(([r]) => r.read.cause === 'touching')).toBe(true);
    expect(cocked.length).toBeGreaterThan(0);
    for (const [before, after] of cocked) expect(after).toBe(before);
  });

  it('refuses to learn faces it has too few dice of, naming each and its count', () => {
    const few = reads.filter((r) => r.truth !== '3' || r.group === 's0f0');
    const threes = few.filter((r) => r.truth === '3' && r.read.status !== 'cocked').length;
    expect(() => crossFitD6Reads(few, { nets, netsVersion: 'v', readerWith: (o) => new CombinedD6Reader(new D6PipReader(), o, shippedD6Net.combined), seen: (l) => l, sizePx: 72, folds: 4, seed: 1, minPerFace: 10 })).toThrow(
      new TooFewFacesError([{ face: '3', dice: threes }], 10),
    );
    expect(new TooFewFacesError([{ face: '3', dice: threes }], 10).message).toBe(`too few dice of 3 (${threes}) to learn their faces: at least 10 flat dice of each face are needed`);
  });
});
