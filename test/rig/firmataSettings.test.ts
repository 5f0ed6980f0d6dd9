// The Firmata driver's host-side settings and current-sense arithmetic: no board needed.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { currentSenseMilliamps } from '../../src/rig/firmata/firmataDriver.js';
import { firmataPins } from '../../src/rig/firmata/firmataPins.js';
import { canonicalFirmataConfig, firmataConfigHash, resolveFirmataSettings } from '../../src/rig/firmata/firmataSettings.js';

describe('Firmata rig settings', () => {
  it('defaults to our firmware’s defaults and prints them in the firmware’s order', () => {
    const s = resolveFirmataSettings();
    expect(canonicalFirmataConfig(s)).toBe('driver=firmata tumbler=servo jam_ma=1500 jam_ms=100 flip_ms=600 rest_us=600 flip_us=2400 home_ms=2000 rig=rig-01');
    expect(firmataConfigHash(s)).toMatch(/^[0-9A-F]{4}$/);
    expect(firmataConfigHash(resolveFirmataSettings({ flipMs: 700 }))).not.toBe(firmataConfigHash(s));
  });

  it('refuses a pulse below 544 µs, which StandardFirmata’s Servo library would read as an angle', () => {
    expect(() => resolveFirmataSettings({ restUs: 500 })).toThrow(ConfigError);
    expect(() => resolveFirmataSettings({ restUs: 500 })).toThrow(/rest_us.*544 to 2500/);
    expect(resolveFirmataSettings({ restUs: 544 }).restUs).toBe(544);
  });

  it('names the key of any value out of range, fractional or badly formed', () => {
    expect(() => resolveFirmataSettings({ flipMs: 99 })).toThrow(/flip_ms/);
    expect(() => resolveFirmataSettings({ jamMs: 1.5 })).toThrow(/jam_ms/);
    expect(() => resolveFirmataSettings({ homeMs: 30001 })).toThrow(/home_ms/);
    expect(() => resolveFirmataSettings({ rig: 'two words' })).toThrow(/rig\.firmata\.rig/);
  });
});

describe('the Firmata driver’s pins and current sense', () => {
  it('uses the rig pin map our firmware is built with', () => {
    expect(firmataPins()).toEqual({ servo: 9, light: 6, limitSwitch: 2, homeSwitch: 3, statusLed: 13, motorCurrent: 'A0' });
  });

  it('turns A0 readings into milliamps with the firmware’s integer steps (5 V over 1023, 1000 mV per A)', () => {
    // 409 * 5000 / 1023 = 1999.02 mV -> 1999 mA; 61 -> 298.14 mV -> 298 mA; full scale is 5000 mA.
    expect(currentSenseMilliamps(409)).toBe(1999);
    expect(currentSenseMilliamps(61)).toBe(298);
    expect(currentSenseMilliamps(1023)).toBe(5000);
    expect(currentSenseMilliamps(0)).toBe(0);
  });
});
