/**
 * Does a calibration profile still hold on new rolls? Compared with what the
 * profile promised on its held-back samples, the new rolls must not misread
 * (accuracy among dice read), must not decline many more flat dice, and must
 * never read a cocked die as a face.
 */
import type { DieScore } from '../labelledEval.js';
import { COCKED_LABEL } from '../labelledEval.js';
import type { CalibrationProfile } from './profile.js';
import { percent } from '../../core/format.js';

export interface CheckLimits {
  /** Lowest accuracy among flat dice read (default 0.99). */
  readonly minAccuracy: number;
  /** Highest share of flat dice declined (default 0.05). */
  readonly maxDecline: number;
}

export const defaultCheckLimits: CheckLimits = { minAccuracy: 0.99, maxDecline: 0.05 };

export interface CheckVerdict {
  readonly holds: boolean;
  /** Why it does not hold (empty when it holds). */
  readonly reasons: readonly string[];
  readonly flat: { readonly total: number; readonly read: number; readonly correct: number; readonly declined: number; readonly accuracy: number; readonly declineRate: number };
  readonly cockedReadAsFace: number;
  /** The profile's own held-back figures, for comparison. */
  readonly promised: { readonly accuracy: number | null; readonly rejectionRate: number };
}

/** Judges the new rolls' per-die scores against the limits. */
export function judgeProfileCheck(profile: CalibrationProfile, perDie: readonly DieScore[], limits: CheckLimits = defaultCheckLimits): CheckVerdict {
  const flatDice = perDie.filter((d) => d.die !== COCKED_LABEL);
  const sum = (f: (d: DieScore) => number): number => flatDice.reduce((a, d) => a + f(d), 0);
  const total = sum((d) => d.total);
  const read = sum((d) => d.read);
  const correct = sum((d) => d.correct);
  const declined = sum((d) => d.declined);
  const accuracy = read > 0 ? correct / read : Number.NaN;
  const declineRate = total > 0 ? declined / total : Number.NaN;
  const cockedReadAsFace = perDie.find((d) => d.die === COCKED_LABEL)?.wrong ?? 0;
  const reasons: string[] = [];
  if (total === 0) reasons.push('there are no labelled flat dice of the profile\'s classes to check it on');
  if (read === 0 && total > 0) reasons.push('no die was read at all');
  if (read > 0 && accuracy < limits.minAccuracy) reasons.push(`accuracy among dice read is ${percent(accuracy, 2)}, under ${percent(limits.minAccuracy, 2)} (${read - correct} misread of ${read})`);
  if (total > 0 && declineRate > limits.maxDecline) reasons.push(`${percent(declineRate, 2)} of flat dice were declined, over ${percent(limits.maxDecline, 2)}`);
  if (cockedReadAsFace > 0) reasons.push(`${cockedReadAsFace} cocked ${cockedReadAsFace === 1 ? 'die was' : 'dice were'} read as a face`);
  return {
    holds: reasons.length === 0,
    reasons,
    flat: { total, read, correct, declined, accuracy, declineRate },
    cockedReadAsFace,
    promised: { accuracy: profile.validation.accuracy, rejectionRate: profile.validation.rejectionRate },
  };
}
