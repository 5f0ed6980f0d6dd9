/**
 * Scripted stand-ins for the throw loop's dependencies: a rig whose tumbles
 * succeed or fault as a script says, a camera whose frames move then stay
 * still, a vision pipeline that returns scripted readings, all on a
 * simulated clock, and an in-memory roll store with one session.
 */
import type { Frame } from '../../../src/camera/frameSource.js';
import { SimulatedClock } from '../../../src/core/clock.js';
import { getDieType } from '../../../src/dice/catalogue.js';
import type { FaultKind, LinkStats, MotionResult, RigDriver, RigFault, RigIdentity, RigStatus } from '../../../src/rig/driver.js';
import { RigConnectError, RigFaultError, RigTimeoutError } from '../../../src/rig/errors.js';
import { ErrorCode } from '../../../src/rig/protocol/errorCodes.js';
import type { RunnerDeps, RunnerPlan, StoppingRules } from '../../../src/session/runner.js';
import type { SessionDie } from '../../../src/session/sessionDie.js';
import type { ThrowCamera } from '../../../src/session/throwCamera.js';
import { RollStore } from '../../../src/store/rollStore.js';
import type { FaceRead } from '../../../src/vision/faceRead.js';
import { createRgb, type RgbImage } from '../../../src/core/image.js';
import type { LocatedDie } from '../../../src/vision/locate.js';
import type { FrameReading } from '../../../src/vision/pipeline.js';

export const IDENTITY: RigIdentity = { driver: 'simulated', firmware: 'test', protocol: 1, rigId: 'scripted', configHash: 'cfg', tumbler: 'servo' };

/** What one tumble does: finish, or fail in one of the ways a rig fails. */
export type TumbleStep = 'ok' | FaultKind | 'refused' | 'timeout' | 'lost';

/** A rig that follows a script of tumble outcomes (then tumbles fine), on a simulated clock. */
export class ScriptedRig implements RigDriver {
  readonly kind = 'simulated' as const;
  readonly isSimulated = true;
  tumbles = 0;
  homes = 0;
  lights: number[] = [];
  /** Failures of `home` still to come (for recovery that fails too). */
  homeFailures = 0;
  /** Refusals of `home` as busy still to come (a board still running a motion). */
  homeBusy = 0;
  /** Called when a tumble starts (e.g. to abort a session mid-throw). */
  onTumble?: (n: number) => void;

  constructor(
    readonly clock: SimulatedClock,
    private readonly script: TumbleStep[] = [],
    readonly tumbleMs = 1200,
  ) {}

  async connect(): Promise<RigIdentity> {
    return IDENTITY;
  }
  async identify(): Promise<RigIdentity> {
    return IDENTITY;
  }
  async tumble(): Promise<MotionResult> {
    this.tumbles++;
    this.onTumble?.(this.tumbles);
    const step = this.script.shift() ?? 'ok';
    await this.clock.sleep(step === 'ok' ? this.tumbleMs : this.tumbleMs / 2);
    switch (step) {
      case 'ok':
        return { durationMs: this.tumbleMs };
      case 'refused':
        throw new RigFaultError('The board refused the tumble: busy.', 'refused', false, { command: 'tumble' });
      case 'timeout':
        throw new RigTimeoutError('No reply to the tumble within 1 s after 3 retransmits.', { command: 'tumble' });
      case 'lost':
        throw new RigConnectError('The rig went away and did not come back within 15 s.', { command: 'tumble' });
      default:
        throw new RigFaultError(`The tumble was stopped: ${step}. The motion did not finish, so this throw is void.`, step, true, { command: 'tumble' });
    }
  }
  async home(): Promise<MotionResult> {
    this.homes++;
    if (this.homeBusy > 0) {
      this.homeBusy--;
      await this.clock.sleep(4);
      throw new RigFaultError('The board refused the home (seq 9): busy.', 'refused', false, { command: 'home', seq: 9 }, ErrorCode.busy);
    }
    await this.clock.sleep(200);
    if (this.homeFailures > 0) {
      this.homeFailures--;
      throw new RigFaultError('The home switch did not close in time.', 'home_timeout', true, { command: 'home' });
    }
    return { durationMs: 200 };
  }
  async setLight(level: number): Promise<number> {
    this.lights.push(level);
    return level;
  }
  async status(): Promise<RigStatus> {
    return { state: 'idle', light: this.lights.at(-1) ?? 0, limitPressed: false, homePressed: true };
  }
  linkStats(): LinkStats {
    return { commands: 0, retransmits: 0, crcFailures: 0, timeouts: 0, reconnects: 0, roundTripsMs: [] };
  }
  onFault(_listener: (fault: RigFault) => void): () => void {
    return () => undefined;
  }
  async close(): Promise<void> {}
}

const W = 32;
const H = 16;

/** A tiny frame: a flat grey platform with a bright square at `x` (moving dice move the square). */
export function frameImage(x: number): RgbImage {
  const img = createRgb(W, H);
  img.data.fill(100);
  for (let y = 4; y < 12; y++) for (let xx = x; xx < x + 8 && xx < W; xx++) for (let c = 0; c < 3; c++) img.data[(y * W + xx) * 3 + c] = 240;
  return img;
}

/** A camera whose dice move for `movingFrames` frames after the motion, then stay still; frames every 1/fps on the clock. */
export class ScriptedCamera implements ThrowCamera {
  readonly description = 'scripted camera';
  watched = 0;

  constructor(
    private readonly clock: SimulatedClock,
    /** Moving frames per throw, throw by throw (the last value repeats). */
    private readonly moving: number[] = [9],
    readonly fps = 30,
  ) {}

  async *watch(since: number): AsyncGenerator<Frame> {
    const moving = this.moving.length > 1 ? (this.moving.shift() as number) : (this.moving[0] ?? 9);
    this.watched++;
    const dt = 1000 / this.fps;
    for (let i = 0; i < 400; i++) {
      const at = since + i * dt;
      const wait = at - this.clock.now();
      if (wait > 0) await this.clock.sleep(wait);
      yield { image: frameImage(i < moving ? (i * 3) % 20 : 20), timestampMs: at, index: i };
    }
  }
  async close(): Promise<void> {}
}

/** What the scripted vision sees in one channel: a face, or a problem. */
export type ChannelScript = string | { cocked: true } | { unreadable: true } | { missing: true } | { joined: true } | { die: string; symbol: string };

function located(channel: number | undefined, x = 10, area = 5000, estimatedCount = 1): LocatedDie {
  return { channel, center: { x, y: 10 }, bbox: { x: x - 35, y: -25, width: 70, height: 70 }, area, length: 70, breadth: 70, angleDeg: 0, estimatedCount };
}

const CROP = createRgb(4, 4);

/**
 * A vision pipeline that returns scripted readings, throw by throw: one entry
 * per channel; `extra: true` adds a die outside every channel. After the
 * script, `fallback(throwNumber, channel)` says what each channel shows.
 */
export class ScriptedVision {
  calls = 0;
  constructor(
    private readonly channels: number,
    private readonly script: { channels: ChannelScript[]; extra?: boolean }[] = [],
    private readonly fallback: (call: number, channel: number) => ChannelScript = () => '1',
  ) {}

  readonly readThrow = (_image: RgbImage): FrameReading => {
    this.calls++;
    const step = this.script.shift() ?? { channels: Array.from({ length: this.channels }, (_, c) => this.fallback(this.calls, c)) };
    const dice: LocatedDie[] = [];
    const readings: FrameReading['readings'][number][] = [];
    const joined: LocatedDie[] = [];
    step.channels.forEach((what, channel) => {
      if (typeof what === 'object' && 'missing' in what) return;
      const base = { confidence: 0.99, classifierVersion: 'scripted/1', crop: CROP };
      if (typeof what === 'object' && 'joined' in what) {
        // The die and its hard shadow in one blob the size of two dice, as the pipeline reports it.
        const blob = located(channel, 10 + channel * 100, 10_000, 2);
        dice.push(blob);
        joined.push(blob);
        readings.push({ channel, die: blob, read: { ...base, status: 'unreadable', cause: 'shadow', confidence: 0, reason: 'One die joined by its hard shadow' } });
        return;
      }
      const die = located(channel, 10 + channel * 100);
      dice.push(die);
      const read: FaceRead =
        typeof what === 'string'
          ? { ...base, status: 'read', symbol: what }
          : 'cocked' in what
            ? { ...base, status: 'cocked', confidence: 1, reason: 'the outline is 1.3x longer than wide' }
            : 'unreadable' in what
              ? { ...base, status: 'unreadable', confidence: 0.2, reason: 'no pip pattern fits' }
              : { ...base, status: 'read', symbol: what.symbol, die: what.die };
      readings.push({ channel, die, read });
    });
    const extra: LocatedDie[] = [...joined];
    if (step.extra) {
      const stray = located(undefined, 999);
      dice.push(stray);
      extra.push(stray);
      readings.push({ channel: undefined, die: stray, read: { status: 'read', symbol: '3', confidence: 0.9, classifierVersion: 'scripted/1', crop: CROP } });
    }
    const findings = Array.from({ length: this.channels }, (_, c) => {
      const inside = dice.filter((d) => d.channel === c);
      return { channel: c, expected: 1, dice: inside, count: inside.reduce((n, d) => n + d.estimatedCount, 0) };
    });
    const missing = findings.filter((f) => f.count < 1);
    return { located: { dice, channels: findings, missing, extra }, readings, emptyChannels: missing.map((f) => ({ channel: f.channel, crop: CROP })), classifierVersion: 'scripted/1' };
  };
}

export const RULES: StoppingRules = {
  alpha: 0.01,
  delta: 0.05,
  budgetRolls: 50,
  rigCheckEvery: 1000,
  rigCheckAlpha: 0.01,
  stopOnRigSuspect: true,
  maxConsecutiveFaults: 3,
  maxConsecutiveRerolls: 10,
  maxConsecutiveMissing: 3,
};

/** An in-memory store with `n` D6s (or other dice) registered and one running session. */
export function storeWithDice(types: readonly string[] = ['d6', 'd6'], path = ':memory:') {
  const store = RollStore.open(path);
  const rig = store.registerRig(IDENTITY);
  const dice: SessionDie[] = types.map((t, i) => {
    const type = getDieType(t);
    return { channel: i, record: store.registerDie({ label: `${t}-${i}`, typeId: t }), type, level: t === 'red' || t === 'green' ? 'symbol' : 'face' };
  });
  const session = store.createSession({ config: { test: true }, simulated: true, rigId: rig.id, startedAt: 1_700_000_000_000 });
  return { store, dice, session };
}

/**
 * A fixed wait instead of the settle detector, for the long sessions of tests whose claim is not the settle: one read a
 * throw as before, without watching a throw's scripted frames (which costs such a session most of its CPU time).
 */
export const NO_SETTLE_WATCH: RunnerPlan['settle'] = { mode: 'fixed', waitMs: 0 };

/** Everything a runner needs, scripted. */
export function scriptedSession(options: {
  types?: string[];
  rig?: TumbleStep[];
  vision?: { channels: ChannelScript[]; extra?: boolean }[];
  fallback?: (call: number, channel: number) => ChannelScript;
  rules?: Partial<StoppingRules>;
  moving?: number[];
  /** How declined dice are re-read; default none, so each scripted read is one throw's. */
  reread?: RunnerPlan['reread'];
  /** How the throw loop waits for the dice to settle; default the settle detector on the scripted frames. */
  settle?: RunnerPlan['settle'];
}) {
  const clock = new SimulatedClock(0);
  const { store, dice, session } = storeWithDice(options.types);
  const rig = new ScriptedRig(clock, options.rig);
  const camera = new ScriptedCamera(clock, options.moving);
  const vision = new ScriptedVision(dice.length, options.vision, options.fallback);
  const deps: RunnerDeps = { rig, camera, readThrow: vision.readThrow, store, clock, timeOrigin: 1_700_000_000_000 };
  const plan: RunnerPlan = { sessionId: session.id, dice, stopping: { ...RULES, ...options.rules }, settle: options.settle ?? { mode: 'detect', timeoutMs: 5000 }, light: 180, simulated: true, reread: options.reread ?? { frames: 0, lightSteps: [] } };
  return { clock, store, dice, session, rig, camera, vision, deps, plan };
}
