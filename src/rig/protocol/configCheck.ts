/**
 * Firmware settings checked on the host before they are sent, against the table the firmware is built from
 * (firmware/protocol/protocol.json, generated into `configSettings.ts`): the board answers a bad one only with
 * `bad_argument`, which names neither the key nor the range. The board still checks everything it gets and has the
 * last word; this only says, before anything is sent, what it would refuse and why.
 */
import { CONFIG_SETTINGS, type ConfigSetting } from './configSettings.js';

/** What a setting takes, e.g. "1..5000 steps/s", "servo or stepper". */
export function describeSetting(s: ConfigSetting): string {
  switch (s.kind) {
    case 'number':
      return `${s.min}..${s.max}${s.unit !== undefined ? ` ${s.unit}` : ''}`;
    case 'choice':
      return s.values.join(' or ');
    case 'id':
      return `1 to ${s.maxLength} of ${s.chars}`;
  }
}

function idChars(s: Extract<ConfigSetting, { kind: 'id' }>): RegExp {
  return new RegExp(`^[${s.chars.replace(/[\]\\^]/g, '\\$&')}]{1,${s.maxLength}}$`);
}

/** What is wrong with `key=value` (the key, the value and what the firmware takes), or undefined when the firmware takes it. */
export function settingProblem(key: string, value: string): string | undefined {
  const s = CONFIG_SETTINGS.find((c) => c.key === key);
  if (s === undefined) return `"${key}" is not a firmware setting (they are ${CONFIG_SETTINGS.map((c) => c.key).join(', ')})`;
  const takes = `${key} takes ${describeSetting(s)}`;
  switch (s.kind) {
    case 'number': {
      // The firmware reads plain decimal digits, nothing else (no sign, no point, no spaces).
      if (!/^\d+$/.test(value)) return `${key}=${value} is not a whole number: ${takes}`;
      const n = Number(value);
      return n < s.min || n > s.max ? `${key}=${value} is out of range: ${takes}` : undefined;
    }
    case 'choice':
      return s.values.includes(value) ? undefined : `${key}=${value} is not a choice it has: ${takes}`;
    case 'id':
      return idChars(s).test(value) ? undefined : `${key}=${value} is not a rig id: ${takes}`;
  }
}

/** Every problem of a set of settings, one phrase each; empty when the firmware would take them all. */
export function settingProblems(settings: Readonly<Record<string, string | number>>): string[] {
  return Object.entries(settings).flatMap(([k, v]) => settingProblem(k, String(v)) ?? []);
}
