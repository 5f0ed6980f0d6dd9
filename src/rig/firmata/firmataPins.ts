import { PIN_MAP } from '../protocol/pinMap.js';

/** The rig's wires as Firmata pin numbers: the same pin map our firmware is built with. */
export interface FirmataPins {
  readonly servo: number;
  readonly light: number;
  readonly limitSwitch: number;
  readonly homeSwitch: number;
  readonly statusLed: number;
  /** The current-sense input as johnny-five names analog pins, e.g. `A0`. */
  readonly motorCurrent: string;
}

function arduinoPin(name: string): number {
  const entry = PIN_MAP.find((p) => p.name === name);
  // The pin map is generated from firmware/protocol/protocol.json; a missing name is a build bug.
  if (!entry) throw new Error(`The rig pin map has no pin named "${name}".`);
  return entry.arduino;
}

function analogPinName(name: string): string {
  const entry = PIN_MAP.find((p) => p.name === name);
  if (!entry || !/^A\d+$/.test(entry.pin)) throw new Error(`The rig pin map has no analog pin named "${name}".`);
  return entry.pin;
}

/** Resolves the rig pin map (`src/rig/protocol/pinMap.ts`) for the Firmata driver. */
export function firmataPins(): FirmataPins {
  return {
    servo: arduinoPin('servo'),
    light: arduinoPin('light'),
    limitSwitch: arduinoPin('limit_switch'),
    homeSwitch: arduinoPin('home_switch'),
    statusLed: arduinoPin('status_led'),
    motorCurrent: analogPinName('motor_current'),
  };
}
