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

/** The settings by the names our firmware and the session config (`rig.firmata`) use. */
export interface FirmataSettingKeys {
  readonly flip_us?: number;
  readonly rest_us?: number;
  readonly flip_ms?: number;
  readonly jam_ma?: number;
  readonly jam_ms?: number;
  readonly home_ms?: number;
  readonly rig?: string;
  /** StandardFirmata's line speed: 57600 unless the sketch was changed. Not part of the rig's configuration hash. */
  readonly baud?: number;
}

export type FirmataNumericKey = Exclude<keyof FirmataSettingKeys, 'rig' | 'baud'>;

/** Each number setting: its field, and the range the driver accepts (our firmware's, but pulses from 544 µs). */
export const FIRMATA_SETTING_RANGES: Readonly<Record<FirmataNumericKey, { readonly field: Exclude<keyof FirmataRigSettings, 'rig'>; readonly min: number; readonly max: number }>> = {
  flip_us: { field: 'flipUs', min: MIN_SERVO_PULSE_US, max: MAX_SERVO_PULSE_US },
  rest_us: { field: 'restUs', min: MIN_SERVO_PULSE_US, max: MAX_SERVO_PULSE_US },
  flip_ms: { field: 'flipMs', min: 100, max: 10000 },
  jam_ma: { field: 'jamMa', min: 0, max: 5000 },
  jam_ms: { field: 'jamMs', min: 1, max: 5000 },
  home_ms: { field: 'homeMs', min: 100, max: 30000 },
};

/** A rig name, as our firmware accepts it. */
export const FIRMATA_RIG_NAME = /^[A-Za-z0-9_-]{1,16}$/;
export const FIRMATA_RIG_NAME_RULE = '1 to 16 letters, digits, "_" or "-"';

/** StandardFirmata's line speed, unless the sketch was changed. */
export const FIRMATA_DEFAULT_BAUD = 57600;

/** Line speeds a StandardFirmata sketch may be built for. */
export const FIRMATA_BAUD_RATES: readonly number[] = [9600, 19200, 38400, 57600, 115200];

/**
 * The host-side settings and line speed that config keys ask for, with defaults filled in and every value
 * checked; throws a ConfigError naming the first bad key (`rig.firmata.flip_us`).
 */
export function firmataOptionsFromKeys(keys: FirmataSettingKeys = {}): { settings: FirmataRigSettings; baudRate: number } {
  const settings: Partial<Record<keyof FirmataRigSettings, number | string>> = {};
  for (const [key, r] of Object.entries(FIRMATA_SETTING_RANGES) as [FirmataNumericKey, (typeof FIRMATA_SETTING_RANGES)[FirmataNumericKey]][]) {
    const v = keys[key];
    if (v !== undefined) settings[r.field] = v;
  }
  if (keys.rig !== undefined) settings.rig = keys.rig;
  return { settings: resolveFirmataSettings(settings as Partial<FirmataRigSettings>), baudRate: checkFirmataBaud(keys.baud ?? FIRMATA_DEFAULT_BAUD) };
}

/**
 * Reads `key=value` words (the command line's `--set`) as config keys; throws a ConfigError naming
 * `rig.firmata.KEY` for an unknown key or a value that is not a whole number. Ranges: `resolveFirmataSettings`.
 */
export function parseFirmataSettingWords(words: readonly string[]): FirmataSettingKeys {
  const out: Record<string, number | string> = {};
  const known = [...Object.keys(FIRMATA_SETTING_RANGES), 'rig', 'baud'];
  for (const word of words) {
    const eq = word.indexOf('=');
    const key = eq > 0 ? word.slice(0, eq) : word;
    const value = eq > 0 ? word.slice(eq + 1) : '';
    if (eq <= 0 || value === '') throw new ConfigError('rig.firmata', `"${word}" is not key=value (e.g. flip_us=2350)`);
    if (!known.includes(key)) throw new ConfigError(`rig.firmata.${key}`, `is not a Firmata rig setting; the settings are ${known.join(', ')}`);
    if (key === 'rig') out[key] = value;
    else if (/^\d+$/.test(value)) out[key] = Number(value);
    else throw new ConfigError(`rig.firmata.${key}`, `"${value}" is not a whole number`);
  }
  return out as FirmataSettingKeys;
}

/** Fills in defaults and checks every value; throws a ConfigError naming the first bad key. */
export function resolveFirmataSettings(partial: Partial<FirmataRigSettings> = {}): FirmataRigSettings {
  const s: FirmataRigSettings = { ...DEFAULT_FIRMATA_SETTINGS, ...partial };
  for (const [key, r] of Object.entries(FIRMATA_SETTING_RANGES)) {
    const v = s[r.field];
    if (!Number.isInteger(v) || v < r.min || v > r.max) {
      throw new ConfigError(`rig.firmata.${key}`, `${String(v)} is not a whole number from ${r.min} to ${r.max}`);
    }
  }
  if (!FIRMATA_RIG_NAME.test(s.rig)) {
    throw new ConfigError('rig.firmata.rig', `"${s.rig}" is not ${FIRMATA_RIG_NAME_RULE}`);
  }
  return s;
}

/** Checks a line speed asked for by `rig.firmata.baud`. */
export function checkFirmataBaud(baud: number): number {
  if (!FIRMATA_BAUD_RATES.includes(baud)) throw new ConfigError('rig.firmata.baud', `${baud} is not one of ${FIRMATA_BAUD_RATES.join(', ')}`);
  return baud;
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
