import { ConfigError } from '../../core/errors.js';
import { crcField } from '../protocol/crc16.js';

/**
 * What the Firmata driver does on the board, the same knobs as our firmware's `config` command
 * (same names, defaults and, where the hardware allows, ranges). With StandardFirmata the board keeps
 * no configuration: these live in the host.
 */
export interface FirmataRigSettings {
  /** Servo pulse at the flip position, µs. */
  readonly flipUs: number;
  /** Servo pulse at rest, µs. */
  readonly restUs: number;
  /** How long the servo holds each position of a tumble, ms. */
  readonly flipMs: number;
  /** Motor current (mA) at or above which, for `jamMs`, a motion is stopped as jammed; 0 turns it off. */
  readonly jamMa: number;
  readonly jamMs: number;
  /** How long `home` waits for the home switch, ms. */
  readonly homeMs: number;
  /** The rig's name, recorded with sessions. */
  readonly rig: string;
}

export const DEFAULT_FIRMATA_SETTINGS: FirmataRigSettings = {
  flipUs: 2400,
  restUs: 600,
  flipMs: 600,
  jamMa: 1500,
  jamMs: 100,
  homeMs: 2000,
  rig: 'rig-01',
};

/**
 * Shortest pulse we send: the Arduino Servo library inside StandardFirmata reads a value below 544
 * as an angle in degrees, not as microseconds, so 500 (allowed by our firmware) would swing the servo.
 */
export const MIN_SERVO_PULSE_US = 544;
export const MAX_SERVO_PULSE_US = 2500;

const RANGES: Record<Exclude<keyof FirmataRigSettings, 'rig'>, { key: string; min: number; max: number }> = {
  flipUs: { key: 'flip_us', min: MIN_SERVO_PULSE_US, max: MAX_SERVO_PULSE_US },
  restUs: { key: 'rest_us', min: MIN_SERVO_PULSE_US, max: MAX_SERVO_PULSE_US },
  flipMs: { key: 'flip_ms', min: 100, max: 10000 },
  jamMa: { key: 'jam_ma', min: 0, max: 5000 },
  jamMs: { key: 'jam_ms', min: 1, max: 5000 },
  homeMs: { key: 'home_ms', min: 100, max: 30000 },
};

/** Fills in defaults and checks every value; throws a ConfigError naming the first bad key. */
export function resolveFirmataSettings(partial: Partial<FirmataRigSettings> = {}): FirmataRigSettings {
  const s: FirmataRigSettings = { ...DEFAULT_FIRMATA_SETTINGS, ...partial };
  for (const [field, r] of Object.entries(RANGES) as [keyof typeof RANGES, (typeof RANGES)[keyof typeof RANGES]][]) {
    const v = s[field];
    if (!Number.isInteger(v) || v < r.min || v > r.max) {
      throw new ConfigError(`rig.firmata.${r.key}`, `${String(v)} is not a whole number from ${r.min} to ${r.max}`);
    }
  }
  if (!/^[A-Za-z0-9_-]{1,16}$/.test(s.rig)) {
    throw new ConfigError('rig.firmata.rig', `"${s.rig}" is not 1 to 16 letters, digits, "_" or "-"`);
  }
  return s;
}

/** The settings as one line of text, in the order our firmware prints its own configuration. */
export function canonicalFirmataConfig(s: FirmataRigSettings): string {
  return (
    `driver=firmata tumbler=servo jam_ma=${s.jamMa} jam_ms=${s.jamMs} flip_ms=${s.flipMs} ` +
    `rest_us=${s.restUs} flip_us=${s.flipUs} home_ms=${s.homeMs} rig=${s.rig}`
  );
}

/** The configuration hash recorded with sessions: CRC-16 of the canonical text, as our firmware hashes its own. */
export function firmataConfigHash(s: FirmataRigSettings): string {
  return crcField(canonicalFirmataConfig(s));
}
