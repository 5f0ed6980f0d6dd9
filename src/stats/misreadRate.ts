/**
 * Per-face misread-rate bounds from a calibration's held-back reads, for
 * RobustMonitor's `misreadRates`: the one-sided Clopper–Pearson upper bound on
 * P(a roll of this face is read as another face). Zero misreads in n reads
 * still bound the rate by 1 − γ^(1/n) (e.g. 1.4 % at 95 % for 217 reads), not 0:
 * a calibration that saw no misread has not shown there are none.
 *
 * A die that lands cocked is tumbled again, so its roll counts for nothing; read as a face instead, it puts a roll the
 * die never made into the counts, whichever face it truly leaned on: as if a roll of any face had been misread as
 * that face. So the share of all held-back dice that lay cocked and were read as a face is bounded the same way and
 * added to every face's bound (`cocked`).
 */
import { InputError } from '../core/errors.js';
import { formatCount, percentFigures } from '../core/format.js';
import { betaQuantile } from './special.js';

/**
 * How one face fared in calibration: dice of this face whose roll a session would count or replace (read, or called
 * cocked and thrown again; declines kept as unresolved rolls excluded), and how many were replaced: read as another
 * face, or called cocked.
 */
export interface FaceReads {
  readonly read: number;
  readonly misread: number;
}

/**
 * Upper `confidence` bound (default 0.95) on each face's misread rate. A face
 * never read gets 1 (nothing is known); the monitor refuses rates of 0.5 or more,
 * so calibrate every face before allowing for misreads.
 */
export function misreadRateBounds(faces: readonly FaceReads[], confidence = 0.95): number[] {
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  return faces.map((f, i) => {
    if (!(Number.isInteger(f.read) && Number.isInteger(f.misread) && f.misread >= 0 && f.misread <= f.read)) {
      throw new InputError(`Face ${i}: ${f.misread} misread of ${f.read} read is not a possible count.`);
    }
    if (f.misread === f.read) return 1;
    return betaQuantile(confidence, f.misread + 1, f.read - f.misread);
  });
}

/** One face's misread measure: held-back reads, how many were misread, and the upper bound the verdict allows for (with `cocked`'s bound in it, when measured). */
export interface FaceMisreads {
  readonly label: string;
  readonly read: number;
  readonly misread: number;
  readonly bound: number;
}

/** A measure too thin to bound some face's misreads under 1/2 (the monitor refuses such rates): `why` says which and how. */
export class ThinMisreadMeasure extends InputError {
  constructor(
    readonly source: string,
    readonly why: string,
  ) {
    super(`${source}: ${why}.`);
  }
}

/** All the dice a calibration held back, flat or cocked; how many lay cocked; and how many of those were read as a face anyway. */
export interface CockedReads {
  readonly dice: number;
  readonly cocked: number;
  readonly readAsFace: number;
}

/** `CockedReads` with the upper bound on P(a roll ends cocked and is read as a face), which every face's bound holds. */
export interface CockedMisreads extends CockedReads {
  readonly bound: number;
}

/**
 * The misread assumption a die's verdict rests on, stored with it and shown
 * as is: the calibration's measured per-face bounds, or none (misreads
 * assumed 0), with the reason, in one sentence.
 */
export interface MisreadAssumption {
  readonly kind: 'measured' | 'none';
  /** What measured the counts (a calibration profile, a simulated calibration), or why nothing did. */
  readonly source: string;
  /** Confidence of the upper bounds (null with no measure). */
  readonly confidence: number | null;
  readonly faces: readonly FaceMisreads[] | null;
  /** Cocked dice read as a face, when the calibration measured them (absent in verdicts stored before dicerig did). */
  readonly cocked?: CockedMisreads;
  readonly statement: string;
}

const pct = (x: number): string => percentFigures(x, 2);

/** The upper `confidence` bound on P(a roll ends cocked and is read as a face) from a calibration's held-back dice. */
export function cockedReadBound(cocked: CockedReads, confidence = 0.95): number {
  const [bound] = misreadRateBounds([{ read: cocked.dice, misread: cocked.readAsFace }], confidence);
  return bound as number;
}

/** A face whose misread rate is shown (lower bound) to be at least this is not thinly measured but misread: more dice would only confirm it. */
const OFTEN_MISREAD = 0.25;

/** Whether the lower `confidence` bound on the face's misread rate (Clopper-Pearson) reaches `OFTEN_MISREAD`. */
function oftenMisread(f: FaceReads, confidence: number): boolean {
  return f.misread > 0 && betaQuantile(1 - confidence, f.misread, f.read - f.misread + 1) >= OFTEN_MISREAD;
}

/**
 * The per-face upper bounds of a calibration's held-back reads, as the assumption a verdict rests on; with `cocked`,
 * each face's bound also holds the bound on cocked dice read as a face (capped at 1).
 */
export function measuredMisreads(source: string, labels: readonly string[], reads: readonly FaceReads[], confidence = 0.95, cocked?: CockedReads): MisreadAssumption {
  if (labels.length !== reads.length) throw new RangeError(`${labels.length} labels for ${reads.length} faces`);
  const cockedMeasure = cocked === undefined ? undefined : { ...cocked, bound: cockedReadBound(cocked, confidence) };
  const extra = cockedMeasure?.bound ?? 0;
  const bounds = misreadRateBounds(reads, confidence);
  const faces = reads.map((r, i) => ({ label: labels[i] as string, read: r.read, misread: r.misread, bound: Math.min(1, (bounds[i] as number) + extra) }));
  const tooFew = faces.findIndex((f) => !(f.bound < 0.5));
  if (tooFew >= 0) {
    const f = faces[tooFew] as FaceMisreads;
    // The face's own reads may bound it well enough and the cocked dice read as faces not.
    const why =
      cockedMeasure !== undefined && (bounds[tooFew] as number) < 0.5
        ? `${cockedMeasure.readAsFace} of ${formatCount(cockedMeasure.dice)} dice it measured lay cocked and were read as a face, which with "${f.label}"'s own misreads bounds its misread rate only at ${pct(f.bound)}; calibrate with more dice`
        : `"${f.label}" was misread ${f.misread} time${f.misread === 1 ? '' : 's'} in ${formatCount(f.read)} reads it measured, which bounds its misread rate only at ${pct(f.bound)}; ${
            oftenMisread(f, confidence)
              ? 'more dice will not narrow a rate that high: check the labels of that face, and whether your dice show it as the reader knows it (a logo in place of pips or an icon is not read)'
              : 'calibrate with more dice of that face'
          }`;
    throw new ThinMisreadMeasure(source, why);
  }
  const each = faces.map((f) => `${f.label} ≤ ${pct(f.bound)} (${f.misread} of ${f.read})`).join(', ');
  const withCocked =
    cockedMeasure === undefined
      ? ''
      : `; each holds ${pct(cockedMeasure.bound)} for a die cocked and read as a face (${cockedMeasure.readAsFace} of ${formatCount(cockedMeasure.dice)} dice)`;
  return {
    kind: 'measured',
    source,
    confidence,
    faces,
    ...(cockedMeasure !== undefined ? { cocked: cockedMeasure } : {}),
    // The error control's alpha is for the verdicts given these bounds: each can miss, and the statement says so.
    statement: `misreads allowed for up to the ${Math.round(confidence * 100)} % upper bounds measured by ${source}: ${each}${withCocked}; the error control holds where these bounds do (each misses its face's rate at most ${Math.round((1 - confidence) * 100)} % of the time)`,
  };
}

/** No measure of the reader's misreads: the verdict assumes none, and says why. */
export function noMisreadMeasure(why = 'no calibration measured them'): MisreadAssumption {
  return { kind: 'none', source: why, confidence: null, faces: null, statement: `misreads assumed 0: ${why}` };
}

/** The per-face rates a monitor allows for (undefined: none). */
export function misreadRatesOf(assumption: MisreadAssumption): number[] | undefined {
  return assumption.faces === null ? undefined : assumption.faces.map((f) => f.bound);
}
