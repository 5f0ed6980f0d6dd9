import type { MotionResult, RigIdentity, RigStatus } from '../driver.js';
import { CONFIG_SETTINGS } from '../protocol/configSettings.js';

type Fields = Readonly<Record<string, string>>;

const int = (v: string | undefined): number | undefined => (v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined);

/** The identity in an `identify` reply (or the boot banner, which carries most of it). */
export function identityFromFields(fields: Fields, port: string | undefined): RigIdentity {
  return {
    driver: 'serial',
    firmware: fields.fw ?? 'unknown',
    protocol: int(fields.proto) ?? Number.NaN,
    rigId: fields.rig ?? 'unknown',
    configHash: fields.cfg ?? 'unknown',
    tumbler: fields.tumbler === 'stepper' ? 'stepper' : 'servo',
    ...(port !== undefined ? { port } : {}),
  };
}

/** `status` reply fields as a RigStatus. */
export function statusFromFields(fields: Fields): RigStatus {
  const state = fields.state === 'tumble' || fields.state === 'home' ? fields.state : 'idle';
  const ma = int(fields.ma);
  const up = int(fields.up);
  return {
    state,
    light: int(fields.light) ?? 0,
    limitPressed: fields.limit === '1',
    homePressed: fields.home === '1',
    ...(ma !== undefined ? { motorMilliamps: ma } : {}),
    ...(up !== undefined ? { uptimeMs: up } : {}),
  };
}

/** A motion's `ok` reply (`ms=… peak_ma=…`). */
export function motionFromFields(fields: Fields): MotionResult {
  const peak = int(fields.peak_ma);
  return { durationMs: int(fields.ms) ?? Number.NaN, ...(peak !== undefined ? { peakMilliamps: peak } : {}) };
}

/** The board settings that decide how long motions take and how often the host must ping. */
export interface BoardTiming {
  readonly tumbler: 'servo' | 'stepper';
  readonly deadmanMs: number;
  readonly flipMs: number;
  readonly steps: number;
  readonly stepRate: number;
  readonly homeMs: number;
}

/** A number setting's firmware default, from the protocol table. */
function defaultOf(key: string): number {
  const s = CONFIG_SETTINGS.find((c) => c.key === key);
  if (s?.kind !== 'number') throw new Error(`the protocol table has no number setting "${key}"`);
  return s.default;
}

/** The firmware defaults (the protocol table), used until the board's own config has been read. */
export const DEFAULT_BOARD_TIMING: BoardTiming = {
  tumbler: CONFIG_SETTINGS.find((c) => c.key === 'tumbler')?.default === 'stepper' ? 'stepper' : 'servo',
  deadmanMs: defaultOf('deadman'),
  flipMs: defaultOf('flip_ms'),
  steps: defaultOf('steps'),
  stepRate: defaultOf('step_rate'),
  homeMs: defaultOf('home_ms'),
};

/** Reads the timing keys from a `config` reply, keeping defaults for anything missing. */
export function timingFromConfig(fields: Fields): BoardTiming {
  const d = DEFAULT_BOARD_TIMING;
  return {
    tumbler: fields.tumbler === 'stepper' ? 'stepper' : fields.tumbler === 'servo' ? 'servo' : d.tumbler,
    deadmanMs: int(fields.deadman) ?? d.deadmanMs,
    flipMs: int(fields.flip_ms) ?? d.flipMs,
    steps: int(fields.steps) ?? d.steps,
    stepRate: int(fields.step_rate) ?? d.stepRate,
    homeMs: int(fields.home_ms) ?? d.homeMs,
  };
}

/** How long a motion should take on this board, before any fault: what its timeout is based on. */
export function expectedMotionMs(timing: BoardTiming, motion: 'tumble' | 'home'): number {
  if (motion === 'home') return timing.homeMs;
  return timing.tumbler === 'servo' ? 2 * timing.flipMs : Math.ceil((timing.steps * 1000) / Math.max(1, timing.stepRate));
}

/** What a boot banner's `reset=` cause tells the user (firmware/PROTOCOL.md), after the cause itself. */
const RESET_CAUSES: Readonly<Record<string, string>> = {
  watchdog: 'its watchdog fired: the firmware hung and restarted itself',
  brownout: 'its supply voltage dropped (brownout): check the power supply and the motor wiring',
  power: 'it lost power',
  external: 'its reset line was pulled: the reset button, or another program opening the port',
};

/** Describes a reset from the banner's cause, e.g. "reset=watchdog: its watchdog fired: ...". */
export function resetCauseText(cause: string | undefined): string {
  const known = cause !== undefined ? RESET_CAUSES[cause] : undefined;
  return known ? `reset=${cause}: ${known}` : `reset=${cause ?? 'unknown'}`;
}
