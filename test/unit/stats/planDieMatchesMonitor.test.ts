/**
 * The plan's simulated die (planDie.ts) repeats the session monitor's two rules without its allocations. Its golden
 * test pins both to figures of one commit; this one runs the two side by side on the same rolls, so a later change to
 * the monitor that the plan's copy of its rules does not follow fails here, not as a silently wrong plan.
 */
import { describe, expect, it } from 'vitest';
import { sessionErrorControl, sessionMonitor } from '../../../src/stats/dieVerdict.js';
import { ReadDieRules } from '../../../src/stats/planDie.js';
import { countsDrawerInto } from '../../../src/stats/planSimulation.js';
import { cumulativeOf, drawIndex, seededRandom } from '../../../src/stats/random.js';

/** Rolls one at a time up to this many, then batches of 1/200 of the rolls so far (as the plan simulation does). */
const ONE_BY_ONE = 200;

interface Case {
  readonly expected: readonly number[];
  readonly truth: readonly number[];
  readonly alpha: number;
  readonly dice: number;
  readonly delta: number;
  readonly cap: number;
}

const d6 = Array(6).fill(1 / 6) as number[];
const red = [3 / 8, 1 / 8, 2 / 8, 2 / 8];
const green = [3 / 8, 2 / 8, 3 / 8];
const CASES: Case[] = [
  { expected: d6, truth: d6, alpha: 0.05, dice: 4, delta: 0.05, cap: 4000 },
  { expected: d6, truth: [0.12, 0.16, 0.16, 0.16, 0.16, 0.24], alpha: 0.01, dice: 1, delta: 0.03, cap: 3000 },
  { expected: red, truth: [0.43, 0.1, 0.22, 0.25], alpha: 0.05, dice: 8, delta: 0.04, cap: 5000 },
  { expected: green, truth: green, alpha: 0.1, dice: 2, delta: 0.06, cap: 3000 },
  { expected: [0.5, 0.5], truth: [0.56, 0.44], alpha: 0.05, dice: 1, delta: 0.02, cap: 6000 },
];

/** Each check's decision (null while undecided), from the monitor and from the plan's die, on the same rolls. */
function sideBySide(c: Case, seed: number): { monitor: (string | null)[]; plan: (string | null)[] } {
  const control = sessionErrorControl(c.alpha, c.dice);
  const monitor = sessionMonitor(control, c.expected, { delta: c.delta });
  const die = new ReadDieRules(monitor);
  const random = seededRandom(seed);
  const cumulative = cumulativeOf(c.truth);
  const seen = { monitor: [] as (string | null)[], plan: [] as (string | null)[] };
  while (monitor.rolls < c.cap && !(monitor.decided && die.decision !== null)) {
    if (monitor.rolls < ONE_BY_ONE) {
      const face = drawIndex(cumulative, random);
      monitor.observe(face);
      die.observe(face);
    } else {
      const counts = countsDrawerInto(Math.floor(monitor.rolls / ONE_BY_ONE), c.truth)(new Float64Array(c.truth.length), random);
      monitor.observeCounts(Array.from(counts));
      die.observeCounts(counts);
    }
    seen.monitor.push(monitor.decided ? monitor.verdict().kind : null);
    seen.plan.push(die.decision);
  }
  return seen;
}

describe("the plan's simulated die", () => {
  it('decides as the session monitor does, at the same check, on fair and loaded dice of every kind', () => {
    const decisions: string[] = [];
    for (const [i, c] of CASES.entries()) {
      for (let seed = 1; seed <= 6; seed++) {
        const seen = sideBySide(c, 1000 * i + seed);
        expect(seen.plan, `case ${i}, seed ${seed}`).toEqual(seen.monitor);
        decisions.push(String(seen.monitor.at(-1)));
      }
    }
    // The comparison covers both decisions, not only undecided stretches: every one of these dice is decided within its cap.
    expect(new Set(decisions)).toEqual(new Set(['UNFAIR', 'FAIR_WITHIN']));
  });
});
