/**
 * What `dicerig calibrate` is told on its command line, and what every way of
 * calibrating shares: the profile's name, time and face, the learned reader's
 * top-face rule, the creation time's parsing.
 */
import { InputError } from '../../core/errors.js';
import type { CalibrationDice } from '../../vision/calibration/guided.js';

export interface CalibrateFlags {
  die?: CalibrationDice | 'd6';
  fromLabelled?: string;
  camera?: string;
  check?: string;
  images?: string;
  labels?: string;
  out?: string;
  name?: string;
  createdAt?: string;
  face: 'top' | 'bottom';
  throws: number;
  channels: number;
  dicePerChannel: number;
  dieSize: number;
  seed: number;
  lighting: string;
  groups?: number;
  labelsFrom?: string;
  minAccuracy: number;
  maxDecline: number;
  json?: boolean;
  reader?: 'learned' | 'ring';
  hfov: number;
  fineTune: boolean;
  fineTunePasses: number;
  learnFaces?: boolean;
}

/** The profile fields every way of calibrating fills alike. */
export type CommonFields = { name: string; createdAt: string; face: 'top' | 'bottom' };

export const TOP_FACE_ONLY = 'the learned reader reads the top face; for --face bottom calibrate with --reader ring.';

/** The profile's creation time: `given` (ISO 8601) or now. */
export function createdAt(given?: string): string {
  if (given === undefined) return new Date().toISOString();
  const t = new Date(given);
  if (Number.isNaN(t.getTime())) throw new InputError(`--created-at: "${given}" is not an ISO 8601 time (e.g. 2025-01-31T12:00:00Z).`);
  return t.toISOString();
}
