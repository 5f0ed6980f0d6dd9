/**
 * What both profile builders (ring-harmonics `trainProfile`, learned `buildLearnedProfile`) take and write
 * alike: the profile's name and provenance, which dice it reads, how much is held back, and the rig's
 * platform (channels, empty-platform reference, die size) when it was made on the rig.
 */
import type { DieType } from '../../dice/types.js';
import type { ChannelRegion } from '../channels.js';
import { round6 } from './heldBack.js';
import type { CalibrationProfile } from './profile.js';

export interface ProfileBuildOptions {
  readonly name: string;
  /** ISO 8601 creation time (the caller's clock). */
  readonly createdAt: string;
  /** Where the samples came from, in words (folder, camera). */
  readonly source: string;
  /** Die type ids the profile reads; default: those named by the labels. */
  readonly dice?: readonly string[];
  /** Hold back every k-th image (default 4: a quarter). */
  readonly heldBackEvery?: number;
  readonly channels?: readonly ChannelRegion[];
  readonly reference?: { readonly file: string; readonly sha256: string };
  readonly dieSizePx?: number;
  /** User-defined dice (for their symbols); built-ins otherwise. */
  readonly dieTypes?: readonly DieType[];
}

/** The profile's platform fields, rounded as stored (absent when the options give none). */
export function platformFields(options: ProfileBuildOptions): Pick<CalibrationProfile, 'channels' | 'reference' | 'dieSizePx'> {
  return {
    ...(options.channels ? { channels: options.channels.map((c) => ({ id: c.id, polygon: c.polygon.map((p) => ({ x: round6(p.x), y: round6(p.y) })), expectedDice: c.expectedDice })) } : {}),
    ...(options.reference ? { reference: { ...options.reference } } : {}),
    ...(options.dieSizePx !== undefined ? { dieSizePx: round6(options.dieSizePx) } : {}),
  };
}
