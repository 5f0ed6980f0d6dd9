/**
 * A simulated die and reader for the verdict simulations: the die's true face
 * is drawn from its odds; the reader declines face i with probability
 * declines[i] and, when it reads, reads face i as `misreadAs[i]` with
 * probability misreadRates[i] (one confused face per face, as a calibration
 * finds misreads concentrated on one face pair).
 */
import { cumulativeOf, drawIndex, type RandomSource } from '../../src/stats/random.js';
import type { RobustMonitor } from '../../src/stats/robustMonitor.js';
import type { SequentialMonitor } from '../../src/stats/sequential.js';

export interface ReaderModel {
  readonly declines?: readonly number[];
  readonly misreadRates?: readonly number[];
  readonly misreadAs?: readonly number[];
}

export type Read = { readonly face: number } | { readonly declined: true; readonly truth: number };

export class SimulatedDie {
  private readonly cumulative: number[];
  constructor(
    odds: readonly number[],
    private readonly reader: ReaderModel,
    private readonly random: RandomSource,
  ) {
    this.cumulative = cumulativeOf(odds);
  }

  /**
   * The odds of each face being READ, for a reader that declines nothing:
   * q_j = p_j (1 − m_j) + Σ_{i: misreadAs_i = j} p_i m_i.
   */
  static readOdds(odds: readonly number[], reader: ReaderModel): number[] {
    const q = odds.map((p, i) => p * (1 - (reader.misreadRates?.[i] ?? 0)));
    odds.forEach((p, i) => {
      const m = reader.misreadRates?.[i] ?? 0;
      const to = reader.misreadAs?.[i] as number;
      if (m > 0) q[to] = (q[to] as number) + p * m;
    });
    return q;
  }

  /** One throw: the true face, as the reader reports it. */
  roll(): Read {
    const truth = drawIndex(this.cumulative, this.random);
    if (this.random() < (this.reader.declines?.[truth] ?? 0)) return { declined: true, truth };
    if (this.random() < (this.reader.misreadRates?.[truth] ?? 0)) return { face: this.reader.misreadAs?.[truth] as number };
    return { face: truth };
  }
}

/**
 * TODAY's handling: a declined die is re-tumbled until it is read, and only
 * read rolls reach the monitor. Runs to the monitor's decision or budget.
 */
export function runOldHandling(monitor: SequentialMonitor, die: SimulatedDie): SequentialMonitor {
  while (!monitor.decided) {
    const r = die.roll();
    if ('face' in r) monitor.observe(r.face);
  }
  return monitor;
}

/**
 * The new handling: a declined roll stays in the sequence as unresolved. Runs
 * to the monitor's decision or budget, and returns the declined rolls' positions
 * with their true faces, for a simulated person to review afterwards.
 */
export function runNewHandling(monitor: RobustMonitor, die: SimulatedDie): { position: number; truth: number }[] {
  const declined: { position: number; truth: number }[] = [];
  while (!monitor.decided) {
    const r = die.roll();
    if ('face' in r) monitor.observe(r.face);
    else declined.push({ position: monitor.observeUnresolved(), truth: r.truth });
  }
  return declined;
}
