/**
 * Which face a session's camera sees, and a reader that reports the face on top.
 *
 * The reference rig's camera sits under a clear platform and sees the face lying on it. A D6-faced die's top face
 * is that face's opposite, one to one; an X-Wing profile made with `calibrate --face bottom` maps its reads itself.
 * Recording the face seen from below as the face rolled would swap faces: a die heavy on its 6 would be reported
 * heavy on 1.
 */
import { ConfigError } from '../core/errors.js';
import type { DieType } from '../dice/types.js';
import { bottomFaceReader } from '../vision/bottomFace.js';
import type { FaceReader } from '../vision/faceRead.js';

export type FaceSeen = 'top' | 'bottom';

export interface FaceSeenSources {
  readonly family: 'pips' | 'xwing';
  readonly cameraSource: string;
  /** `camera.face` as configured. */
  readonly configured?: FaceSeen | undefined;
  /** The face the calibration profile reads (X-Wing dice), and its file. */
  readonly profileFace?: FaceSeen | undefined;
  readonly profileFile?: string | undefined;
}

/** The face the camera sees; a configured face that contradicts the profile's, or one the camera cannot show, is refused. */
export function faceSeen(s: FaceSeenSources): FaceSeen {
  if (s.family === 'pips') return s.configured ?? 'top';
  const profileFace = s.profileFace ?? 'top';
  const profile = s.profileFile !== undefined ? `the calibration profile ${s.profileFile}` : 'the default calibration profile';
  if (s.cameraSource === 'sim' && s.configured === 'bottom') {
    throw new ConfigError('camera.face', 'the simulated camera draws X-Wing dice only from above (from below it draws D6-faced dice); remove camera.face');
  }
  if (s.configured !== undefined && s.configured !== profileFace) {
    throw new ConfigError(
      'camera.face',
      `camera.face is ${s.configured}, but ${profile} reads the ${profileFace} face: X-Wing dice are read as calibrated; calibrate again with --face ${s.configured}, or remove camera.face`,
    );
  }
  if (profileFace === 'bottom' && s.cameraSource === 'sim') {
    throw new ConfigError('calibration', `${profile} reads X-Wing dice from below, but the simulated camera draws them only from above; use a profile calibrated with --face top`);
  }
  return profileFace;
}

/**
 * What a session says up front about the face its camera sees: a camera below the dice (their top face recorded, the
 * opposite of the one seen), or D6-faced dice read from above by a real camera, which works only face on: a webcam
 * above an open platform sees them in perspective with their side faces, and every die would be called cocked until
 * the session gives up (`rerollStreak.ts`). Said before the first throw, not after a streak of wasted ones. The simulated
 * camera draws D6s face on: nothing to say.
 */
export function faceNotice(family: 'pips' | 'xwing', cameraSource: string, face: FaceSeen): string | undefined {
  if (face === 'bottom') return 'the camera sees each die from below: every roll is recorded by the face on top, the opposite of the one seen';
  if (family !== 'pips' || cameraSource === 'sim') return undefined;
  return (
    'D6-faced dice are read from above (camera.face: top): this works only with the camera looking at each die face on. ' +
    'The reference rig sees them from below through its clear platform (set camera.face: bottom); a webcam above an open platform sees D6s ' +
    'in perspective with their side faces, which is not supported yet: most dice would be called cocked, and the session would stop once stopping.maxConsecutiveRerolls throws in a row had no counted result.'
  );
}

/**
 * The reader that reports each D6-faced die's top face when the camera sees the bottom one. One reader serves every
 * channel, so the dice must share one opposite-face map; a session mixing layouts is refused.
 */
export function topFaceReader(reader: FaceReader, types: readonly DieType[], face: FaceSeen): FaceReader {
  if (face === 'top') return reader;
  const first = types[0];
  if (first === undefined) return reader;
  const key = (t: DieType): string => JSON.stringify(t.faces.map((f) => [f.id, t.opposite[f.id]]));
  const other = types.find((t) => key(t) !== key(first));
  if (other) {
    throw new ConfigError('camera.face', `seen from below, every die needs the same opposite faces, but ${first.id} and ${other.id} differ; run them in separate sessions`);
  }
  return bottomFaceReader(reader, () => first, 'face');
}
