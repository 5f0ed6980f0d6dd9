/**
 * Per-face misread-rate bounds from a calibration's held-back reads, for
 * RobustMonitor's `misreadRates`: the one-sided Clopper–Pearson upper bound on
 * P(a roll of this face is read as another face). Zero misreads in n reads
 * still bound the rate by 1 − γ^(1/n) (e.g. 1.4 % at 95 % for 217 reads), not 0:
 * a calibration that saw no misread has not shown there are none.
 */
import { InputError } from '../core/errors.js';
import { betaQuantile } from './special.js';

/** How one face fared in calibration: dice of this face that were read (declines excluded), and how many of them were read as another face. */
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
