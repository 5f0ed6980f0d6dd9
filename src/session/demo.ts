/**
 * The demo session: four dice, one of them loaded, rolled by the simulated rig
 * on a simulated clock (or by the real firmware on the emulated board in real
 * time), seen by the simulated camera and read by the real vision pipeline,
 * until every die has a verdict or a per-die budget is spent.
 *
 * The loaded die favours one result 1.5×: a D6's six (0.25 instead of 1/6),
 * or an X-Wing die's hit (red: 0.5625 instead of 0.375) or evade (green). For
 * X-Wing dice the loading is of a symbol, the result the camera can tell
 * apart (three hit faces look alike). Real dice are subtler; a demo must end.
 *
 * The demo decides at alpha = 0.001 (rather than a session's default 0.01):
 * three fair dice each risk a false UNFAIR at most alpha, and a demo should
 * practically never accuse a fair die. The loaded die is still found in a few
 * hundred rolls.
 */
import { seededRandom } from '../stats/random.js';
import { checkSessionConfig, type SessionConfig, type SessionConfigInput } from './config.js';

export type DemoDice = 'd6' | 'xwing';

export interface DemoOptions {
  readonly seed: number;
  readonly dice: DemoDice;
  /** The real firmware on the emulated board, in real time (default: the simulated rig on a simulated clock). */
  readonly emulated: boolean;
  /** Per-die roll budget. */
  readonly budget: number;
  /** Camera frames: `rest` (one render per throw) or `all` (every frame). Default: rest on the simulated clock, all on the emulated board. */
  readonly frames?: 'rest' | 'all';
  /** Face-dependent declines of the simulated reader (face or symbol -> probability). */
  readonly declines?: Readonly<Record<string, number>>;
  /** Misreads of the simulated reader (`6>5` -> probability), and the held-back reads per face of the simulated calibration that measures them. */
  readonly misreads?: Readonly<Record<string, number>>;
  readonly misreadCalibration?: number;
}

export const DEMO_ALPHA = 0.001;
export const DEMO_DELTA = 0.05;
/** Default per-die budget: on the simulated clock, and on the emulated board (real time, about 2-4 s a throw). */
export const DEMO_BUDGET = 3000;
export const DEMO_EMULATED_BUDGET = 100;
export const DEMO_LOAD_FACTOR = 1.5;

/** Which channel holds the loaded die: drawn from the seed, so the demo does not always load the same one. */
export function loadedChannel(seed: number): number {
  return Math.floor(seededRandom(seed ^ 0x5eed)() * 4);
}

/** The demo's session config. */
export function demoConfig(options: DemoOptions): SessionConfig {
  const loaded = loadedChannel(options.seed);
  // A label names one physical die: each seed's demo dice are their own (one is loaded, the others fair).
  const prefix = `demo${options.seed}`;
  const dice =
    options.dice === 'd6'
      ? ['A', 'B', 'C', 'D'].map((x) => ({ label: `${prefix}-d6-${x}`, type: 'd6', symbol: '6' }))
      : [
          { label: `${prefix}-red-1`, type: 'red', symbol: 'hit' },
          { label: `${prefix}-red-2`, type: 'red', symbol: 'hit' },
          { label: `${prefix}-green-1`, type: 'green', symbol: 'evade' },
          { label: `${prefix}-green-2`, type: 'green', symbol: 'evade' },
        ];
  const input: SessionConfigInput = {
    dice: dice.map((d, i) => ({
      label: d.label,
      type: d.type,
      set: 'dicerig demo',
      ...(i === loaded ? { simulatedLoad: { symbol: d.symbol, factor: DEMO_LOAD_FACTOR }, notes: `loaded: ${d.symbol} ${DEMO_LOAD_FACTOR}x` } : {}),
    })),
    rig: { driver: options.emulated ? 'emulated' : 'sim', light: 200 },
    camera: { source: 'sim', lighting: 'studio', cockedRate: 0.02, dieSizePx: 72, fps: 30, frames: options.frames ?? (options.emulated ? 'all' : 'rest'), ...(options.declines ? { declines: { ...options.declines } } : {}), ...(options.misreads ? { misreads: { ...options.misreads } } : {}), ...(options.misreadCalibration !== undefined ? { misreadCalibration: options.misreadCalibration } : {}) },
    settle: { mode: 'detect', timeoutMs: 5000 },
    stopping: { alpha: DEMO_ALPHA, delta: DEMO_DELTA, budgetRolls: options.budget, rigCheckEvery: 250, rigCheckAlpha: 0.01, stopOnRigSuspect: true, maxConsecutiveFaults: 3, maxConsecutiveRerolls: 25, maxConsecutiveMissing: 3 },
    seed: options.seed,
    clock: 'auto',
    evidence: 'rerolls',
  };
  return checkSessionConfig(input, 'demo');
}

/** The loaded die of a demo config, for the reveal at the end. */
export function loadedDie(config: SessionConfig): { label: string; symbol: string; factor: number } | undefined {
  const d = config.dice.find((x) => x.simulatedLoad !== undefined);
  return d?.simulatedLoad ? { label: d.label, symbol: d.simulatedLoad.symbol, factor: d.simulatedLoad.factor } : undefined;
}
