/**
 * Which misreads a session's verdicts allow for, die by die (`stats/VERDICTS.md`):
 * the upper bounds of what a calibration measured on its held-back dice (an
 * X-Wing profile's confusion matrix, a D6 check's dice, or the simulated
 * reader's own simulated calibration), or, when nothing measured them, none, said as such in the
 * verdict ("misreads assumed 0: ...").
 */
import type { DieType } from '../dice/types.js';
import { ConfigError, InputError } from '../core/errors.js';
import { noMisreadMeasure, type MisreadAssumption } from '../stats/misreadRate.js';
import { profileMisreadAssumption } from '../vision/calibration/profileMisreads.js';
import type { CalibrationProfile } from '../vision/calibration/profile.js';
import { d6CheckMisreadAssumption, type D6Check } from '../vision/calibration/d6Check.js';
import { D6_CHECK_COMMAND } from './d6CheckChoice.js';
import { DEFAULT_SIM_CALIBRATION_READS, simulatedCalibration, type Misreads } from './misreadingReader.js';
import { countedCategories, type ReadLevel } from './sessionDie.js';

export interface MisreadSources {
  readonly level: ReadLevel;
  /** The profile the reader reads with (X-Wing dice). */
  readonly profile?: CalibrationProfile;
  /** The D6 check of the pip reader on the user's dice (D6-faced dice). */
  readonly d6Check?: D6Check;
  /** The simulated reader's misreads and the held-back reads per face of its simulated calibration. */
  readonly simulated?: { readonly misreads: Misreads; readonly reads?: number; readonly random: () => number; readonly declines?: Readonly<Record<string, number>> };
}

/** The misread assumption of each die type of the session (one calibration per type). */
export function misreadMeasure(sources: MisreadSources): (type: DieType) => MisreadAssumption {
  const byType = new Map<string, MisreadAssumption>();
  return (type) => {
    const known = byType.get(type.id);
    if (known !== undefined) return known;
    const labels = countedCategories({ type, level: sources.level }).labels;
    let made: MisreadAssumption;
    try {
      if (sources.simulated) made = simulatedCalibration(sources.simulated.misreads, labels, sources.simulated.reads ?? DEFAULT_SIM_CALIBRATION_READS, sources.simulated.random, sources.simulated.declines);
      else if (sources.profile && sources.level === 'symbol') made = profileMisreadAssumption(sources.profile, type.id, labels);
      else if (sources.d6Check && sources.level === 'face') made = d6CheckMisreadAssumption(sources.d6Check, labels);
      else made = noMisreadMeasure(sources.level === 'face' ? `no D6 check measured them (give one as calibration: ${D6_CHECK_COMMAND})` : 'no calibration measured them');
    } catch (e) {
      if (e instanceof InputError) throw new ConfigError(sources.simulated ? 'camera.misreadCalibration' : 'calibration', e.message);
      throw e;
    }
    byType.set(type.id, made);
    return made;
  };
}
