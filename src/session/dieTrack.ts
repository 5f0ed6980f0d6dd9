/**
 * One die's running statistics in a session: its robust sequential monitor
 * (built under the session's one error control, fed declined rolls as
 * unresolved) and its read rolls in throw order (for the rig checks). A die stops being counted
 * once its monitor has decided: the verdict is final, and the rig, which flips
 * every channel together, keeps tumbling it with the others unread.
 */
import { sessionMonitor, type ErrorControl } from '../stats/dieVerdict.js';
import { misreadRatesOf, noMisreadMeasure, type MisreadAssumption } from '../stats/misreadRate.js';
import type { RobustMonitor } from '../stats/robustMonitor.js';
import type { MonitorDecision } from '../stats/sequential.js';
import { categoryIndexer, countedCategories, type CountedCategories, type SessionDie } from './sessionDie.js';

export interface MonitorRules {
  /** The session's error control (sessionErrorControl): each die is decided at its alphaPerDie. */
  readonly control: ErrorControl;
  readonly delta: number;
  /** Per-die budget in counted rolls: reaching it undecided is INCONCLUSIVE. */
  readonly budgetRolls: number;
}

export class DieTrack {
  readonly monitor: RobustMonitor;
  readonly categories: CountedCategories;
  /** The misread assumption its verdict rests on (stored with it). */
  readonly misreads: MisreadAssumption;
  /** Category index of every read roll, in throw order. */
  readonly sequence: number[] = [];
  private readonly indexOf: ReturnType<typeof categoryIndexer>;

  constructor(
    readonly die: SessionDie,
    rules: MonitorRules,
  ) {
    this.categories = countedCategories(die);
    this.indexOf = categoryIndexer(die);
    this.misreads = die.misreads ?? noMisreadMeasure();
    const misreadRates = misreadRatesOf(this.misreads);
    this.monitor = sessionMonitor(rules.control, this.categories.expected, {
      delta: rules.delta,
      maxRolls: rules.budgetRolls,
      labels: this.categories.labels,
      names: this.categories.names,
      ...(misreadRates ? { misreadRates } : {}),
    });
  }

  /** True once the die has a verdict: it is no longer read or counted. */
  get retired(): boolean {
    return this.monitor.decided;
  }

  get rolls(): number {
    return this.monitor.rolls;
  }

  /** The category of a roll, or undefined when the roll is not one of this die's faces or symbols. */
  categoryOf(roll: { readonly faceId?: string | null; readonly symbol?: string | null }): number | undefined {
    return this.indexOf(roll);
  }

  /** Counts one roll; returns true when this roll made the decision. */
  observe(category: number): boolean {
    if (this.retired) return false;
    this.sequence.push(category);
    this.monitor.observe(category);
    return this.monitor.decided;
  }

  /** Keeps a declined roll in its place (unless retired); its position in the die's sequence, for a later review. */
  observeUnresolved(): { position: number; decided: boolean } | undefined {
    if (this.retired) return undefined;
    const position = this.monitor.observeUnresolved();
    return { position, decided: this.monitor.decided };
  }

  /** The decision if made, otherwise INCONCLUSIVE with the rolls still needed. */
  verdict(): MonitorDecision {
    return this.monitor.verdict();
  }

  /**
   * Rolls still needed for a verdict if the observed proportions hold, by the monitor's own rule (its projection, not
   * capped by the budget: a figure that stops at the budget would say what is left, not what the die needs); 0 once
   * decided, null when no verdict is in reach.
   */
  rollsStillNeeded(): number | null {
    if (this.retired) return 0;
    const v = this.monitor.verdict();
    return v.kind === 'INCONCLUSIVE' ? v.rollsNeeded : 0;
  }

  /** Rolls left in the die's budget. */
  budgetLeft(): number {
    return Math.max(0, this.monitor.maxRolls - this.monitor.rolls);
  }
}
