// A stand-in for the firmware, a few lines long, on a simulated clock: it answers the serial driver's commands
// as firmware/PROTOCOL.md says (no cache, no faults) and records when every host line arrived. Tests of the
// host's own timing (heartbeats, the dead-man's feeding) run on it exactly and in no real time; everything
// about the real firmware is tested on the emulated board.
import type { SimulatedClock } from '../../../src/core/clock.js';
import { crcField } from '../../../src/rig/protocol/crc16.js';
import { FIRMWARE_VERSION, PROTOCOL_VERSION } from '../../../src/rig/protocol/pinMap.js';
import type { LinkOpener, SerialLink } from '../../../src/rig/serial/serialLink.js';

export interface ScriptedBoardOptions {
  /** How long a tumble runs. Default 1200 ms (the firmware's default servo flip). */
  readonly motionMs?: number;
  /** The board's dead-man time. Default 1000 ms. */
  readonly deadmanMs?: number;
  /** From a host line to its reply. Default 3 ms. */
  readonly replyMs?: number;
}

const seal = (body: string): string => `${body}*${crcField(body)}\n`;

export class ScriptedBoard {
  /** Every host line (without its CRC field) and when it arrived, on the clock. */
  readonly fromHost: { t: number; line: string }[] = [];
  /** The longest the host was silent while a motion ran (what the dead-man watches), in ms. */
  longestSilenceInMotion = 0;
  private readonly motionMs: number;
  private readonly deadmanMs: number;
  private readonly replyMs: number;
  private listeners: ((chunk: Buffer) => void)[] = [];
  private motion: { seq: number; lastHeard: number } | undefined;
  private light = 0;
  private open = false;
  /** Whether identify was answered since the reset (no motion runs before). */
  private synced = false;
  private hung = false;

  constructor(
    private readonly clock: SimulatedClock,
    options: ScriptedBoardOptions = {},
  ) {
    this.motionMs = options.motionMs ?? 1200;
    this.deadmanMs = options.deadmanMs ?? 1000;
    this.replyMs = options.replyMs ?? 3;
  }

  /** Host lines of one verb, e.g. 'ping'. */
  linesOf(verb: string): { t: number; line: string }[] {
    return this.fromHost.filter((l) => l.line.split(' ')[1] === verb);
  }

  /**
   * Resets the board: it forgets its motion and that it was identified, and sends its banner. With
   * `runsLateMotion`, the motion goes on afterwards, as when its line reached the fresh firmware after the reset
   * (the USB-serial chip held it) and the firmware ran it: a firmware without the identify gate, or one that an
   * `identify` sent before the motion line reached first. With `bannerLost`, the host never hears of the reset.
   */
  reset(options: { runsLateMotion?: boolean; bannerLost?: boolean } = {}): void {
    this.synced = options.runsLateMotion === true;
    if (!options.runsLateMotion) this.motion = undefined;
    this.light = 0;
    if (!options.bannerLost) this.send(`! boot fw=${FIRMWARE_VERSION} proto=${PROTOCOL_VERSION} reset=external rig=rig-01 cfg=2623`);
  }

  /** Hangs the board: from now on it says nothing, however often its port is opened (a stalled USB link). */
  hang(): void {
    this.hung = true;
  }

  /** Whether a motion is running now. */
  get moving(): boolean {
    return this.motion !== undefined;
  }

  /** The driver's `openLink`: opening resets the board, which then sends its banner. */
  readonly openLink: LinkOpener = async (path) => {
    this.open = true;
    this.synced = false;
    this.listeners = [];
    this.send(`! boot fw=${FIRMWARE_VERSION} proto=${PROTOCOL_VERSION} reset=external rig=rig-01 cfg=2623`);
    const link: SerialLink = {
      path,
      write: (text) => this.receive(text),
      onData: (l) => {
        this.listeners.push(l);
      },
      onClose: () => undefined,
      close: async () => {
        this.open = false;
      },
    };
    return link;
  };

  private send(body: string): void {
    if (this.hung) return;
    void this.clock.sleep(this.replyMs).then(() => {
      if (this.open) for (const l of this.listeners) l(Buffer.from(seal(body), 'latin1'));
    });
  }

  private receive(text: string): void {
    const now = this.clock.now();
    for (const raw of text.split('\n')) {
      if (raw === '') continue;
      const line = raw.slice(0, raw.lastIndexOf('*'));
      this.fromHost.push({ t: now, line });
      if (this.motion) {
        this.longestSilenceInMotion = Math.max(this.longestSilenceInMotion, now - this.motion.lastHeard);
        this.motion.lastHeard = now;
      }
      const [seq, verb, ...args] = line.split(' ');
      this.answer(Number(seq), verb ?? '', args, now);
    }
  }

  private answer(seq: number, verb: string, args: string[], now: number): void {
    const up = Math.round(now);
    switch (verb) {
      case 'identify':
        this.synced = true;
        return this.send(`${seq} ok fw=${FIRMWARE_VERSION} proto=${PROTOCOL_VERSION} rig=rig-01 cfg=2623 tumbler=servo last=${seq}`);
      case 'config':
        return this.send(
          `${seq} ok cfg=2623 tumbler=servo deadman=${this.deadmanMs} jam_ma=1500 jam_ms=100 flip_ms=${this.motionMs / 2} ` +
            `rest_us=600 flip_us=2400 steps=400 step_rate=800 home_ms=2000 rig=rig-01`,
        );
      case 'ping':
        return this.send(`${seq} ok t=${up}`);
      case 'status':
        return this.send(
          `${seq} ok state=${this.motion ? 'tumble' : 'idle'} motion=${this.motion?.seq ?? 0} light=${this.light} limit=0 home=1 ma=0 up=${up}`,
        );
      case 'light':
        this.light = args[0] === 'on' ? 255 : args[0] === 'off' ? 0 : Number(args[0]);
        return this.send(`${seq} ok light=${this.light}`);
      case 'tumble':
        return this.tumble(seq, now);
      case 'stop': {
        const stopped = this.motion?.seq ?? 0;
        this.motion = undefined;
        if (stopped) this.send(`${stopped} err 24 stopped`);
        return this.send(`${seq} ok stopped=${stopped}`);
      }
      default:
        return this.send(`${seq} err 5 unknown_command`);
    }
  }

  private tumble(seq: number, now: number): void {
    if (!this.synced) return this.send(`${seq} err 10 unsynced`);
    if (this.motion) return this.send(`${seq} err 7 busy`);
    const motion = { seq, lastHeard: now };
    this.motion = motion;
    void this.clock.sleep(this.motionMs).then(() => {
      if (this.motion !== motion) return;
      this.longestSilenceInMotion = Math.max(this.longestSilenceInMotion, this.clock.now() - motion.lastHeard);
      this.motion = undefined;
      if (this.longestSilenceInMotion > this.deadmanMs) this.send(`${seq} err 23 deadman`);
      else this.send(`${seq} ok ms=${this.motionMs} peak_ma=0`);
    });
  }
}
