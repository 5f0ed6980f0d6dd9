import type { RandomSource } from '../../stats/random.js';

/**
 * How long the simulated rig's motions and the dice take. The shapes follow the
 * real rig: the servo's motion is timed by the firmware (two holds of `flipMs`),
 * so a tumble varies only by a little start-up latency; dice bouncing to rest
 * has a long right tail, so settle time is log-normal.
 */
export interface SimulatedTiming {
  /** The servo holds each end this long (firmware `flip_ms`): a tumble is two holds. Default 600 ms. */
  readonly flipMs: number;
  /** Extra time per tumble, uniform on [0, jitterMs): loop and serial latency. Default 15 ms. */
  readonly jitterMs: number;
  /** A home from rest takes uniform [homeMinMs, homeMaxMs]. Default 150..300 ms. */
  readonly homeMinMs: number;
  readonly homeMaxMs: number;
  /** Dice come to rest after the motion: log-normal with this median (ms) and log-sd, clamped to [min, max]. */
  readonly settleMedianMs: number;
  readonly settleSigma: number;
  readonly settleMinMs: number;
  readonly settleMaxMs: number;
  /** Round trip of a command that is not a motion. Default 3.5 ms (the emulated board's median at 115200 baud). */
  readonly commandMs: number;
  /** Open, boot banner and identify. Default 120 ms. */
  readonly connectMs: number;
  /** Peak motor current per motion: normal, in mA. Default 450 ± 40. */
  readonly peakMeanMa: number;
  readonly peakSdMa: number;
}

export const DEFAULT_SIMULATED_TIMING: SimulatedTiming = {
  flipMs: 600,
  jitterMs: 15,
  homeMinMs: 150,
  homeMaxMs: 300,
  settleMedianMs: 350,
  settleSigma: 0.35,
  settleMinMs: 120,
  settleMaxMs: 2000,
  commandMs: 3.5,
  connectMs: 120,
  peakMeanMa: 450,
  peakSdMa: 40,
};

/** A standard normal draw (Box–Muller; always two uniforms, so the stream stays aligned). */
export function standardNormal(random: RandomSource): number {
  const u1 = random();
  const u2 = random();
  return Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
}

/** One tumble as planned before it starts. */
export interface TumblePlan {
  readonly durationMs: number;
  readonly settleMs: number;
  readonly peakMilliamps: number;
  /** A uniform draw that decides whether a random fault strikes this tumble. */
  readonly faultDraw: number;
  /** Where in the motion a fault would strike, as a fraction of its duration (0.1..0.9). */
  readonly faultAt: number;
}

/**
 * Draws one tumble. Always takes the same seven uniforms from `random`, whatever the fault
 * rates, so changing a rate does not shift the durations of later throws.
 */
export function planTumble(t: SimulatedTiming, random: RandomSource): TumblePlan {
  const jitter = random() * t.jitterMs;
  const faultDraw = random();
  const faultAt = 0.1 + 0.8 * random();
  const settle = Math.exp(Math.log(t.settleMedianMs) + t.settleSigma * standardNormal(random));
  const peak = t.peakMeanMa + t.peakSdMa * standardNormal(random);
  return {
    durationMs: 2 * t.flipMs + jitter,
    settleMs: Math.min(t.settleMaxMs, Math.max(t.settleMinMs, settle)),
    peakMilliamps: Math.max(0, Math.round(peak)),
    faultDraw,
    faultAt,
  };
}

/** A home's duration, uniform on [homeMinMs, homeMaxMs]. */
export function planHome(t: SimulatedTiming, random: RandomSource): number {
  return t.homeMinMs + (t.homeMaxMs - t.homeMinMs) * random();
}
