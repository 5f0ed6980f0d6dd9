import { describe, expect, it, vi } from 'vitest';
import type { DieStatus, RunClock, SessionEvent } from '../../src/session/events.js';
import { estimateEtaMs, estimateFinish, formatDuration, jsonLineEvents, ProgressTracker, progressLines, TerminalProgress } from '../../src/session/progress.js';
import { runSession } from '../../src/session/runner.js';
import { MonitorSet } from '../../src/session/monitorSet.js';
import { withDiceOnDemand } from '../../src/session/diceOnDemand.js';
import { scriptedSession } from './support/fakes.js';
import { d6Die } from '../../src/dice/catalogue.js';
import { DieTrack } from '../../src/session/dieTrack.js';
import type { SessionDie } from '../../src/session/sessionDie.js';
import { sessionErrorControl } from '../../src/stats/dieVerdict.js';
import { seededRandom } from '../../src/stats/random.js';

const sessionDie: SessionDie = { channel: 0, record: { id: 1, label: 'd6-A', typeId: 'd6', set: null, notes: null }, type: d6Die, level: 'face' };

const die = (label: string, rollsNeeded: number, decided = false): DieStatus => ({
  label,
  type: 'd6',
  channel: 0,
  rolls: 100,
  state: decided ? 'UNFAIR' : 'INCONCLUSIVE',
  decided,
  rollsNeeded,
  logE: 1,
});
const clock = (elapsedMs: number, ok: number): RunClock => ({ runStartedAt: 0, elapsedMs, runThrows: ok, runOkThrows: ok, runRolls: ok * 4 });

describe('progress figures', () => {
  it('estimates the ETA from the die needing the most rolls at the measured pace of counted throws', () => {
    // 1,000 counted throws in an hour: 3.6 s each; the slowest die needs 400 more.
    expect(estimateEtaMs([die('a', 100), die('b', 400), die('c', 0, true)], clock(3_600_000, 1000))).toBeCloseTo(400 * 3600, 6);
    expect(estimateEtaMs([die('a', 100)], clock(0, 0))).toBeUndefined();
    expect(estimateEtaMs([die('a', 0, true)], clock(10, 1))).toBe(0);
    // The time budget does not cap it (the line says that apart): 100,000 rolls at 3.6 s.
    expect(estimateEtaMs([die('a', 100_000)], clock(3_600_000, 1000))).toBeCloseTo(100_000 * 3600, 3);
    // A die stops at its roll budget.
    expect(estimateFinish([{ ...die('a', 100_000), budgetLeft: 500 }], clock(3_600_000, 1000))).toEqual({ ms: 500 * 3600, by: 'roll-budget' });
  });

  it('says the time budget ends first, and what the verdicts would need, when it ends the session before them', () => {
    const totals = { throws: 0, ok: 0, rerolled: 0, void: 0, rolls: 0, cocked: 0 };
    const t = new ProgressTracker();
    // A resumed session: 0.2 h of its 0.55 h budget rolled by earlier runs.
    t.update({ type: 'started', at: 0, sessionId: 1, resumed: true, lastThrowIndex: 10, simulated: true, dice: [die('box-D', 2454)], totals, budgetRolls: 5000, budgetHours: 0.55, rolledMs: 720_000 });
    // 7 min in, 53 counted throws (456 an hour): box-D's 2,454 rolls take about 5 h 23 min.
    t.update({ type: 'throw', at: 0, index: 63, status: 'ok', rolls: [], problems: [], dice: [die('box-D', 2454)], totals: { ...totals, throws: 53, ok: 53 }, clock: clock(420_000, 53) });
    expect(t.snapshot?.budgetLeftMs).toBeCloseTo(1_980_000 - 720_000 - 420_000, 3);
    expect(progressLines(t.snapshot!)[0]).toMatch(/; time budget ends in 14 min \(verdicts need ~5 h 2\d min at this pace\)$/);
  });

  it('says the plain ETA when the verdicts come before the time budget ends', () => {
    const totals = { throws: 0, ok: 0, rerolled: 0, void: 0, rolls: 0, cocked: 0 };
    const t = new ProgressTracker();
    t.update({ type: 'started', at: 0, sessionId: 1, resumed: false, lastThrowIndex: 0, simulated: true, dice: [die('a', 50)], totals, budgetRolls: 5000, budgetHours: 10 });
    t.update({ type: 'throw', at: 0, index: 60, status: 'ok', rolls: [], problems: [], dice: [die('a', 50)], totals: { ...totals, throws: 60, ok: 60 }, clock: clock(360_000, 60) });
    expect(progressLines(t.snapshot!)[0]).toMatch(/; ETA 5 min$/);
  });

  it('measures rolls per hour on the session clock', () => {
    const t = new ProgressTracker();
    const totals = { throws: 0, ok: 0, rerolled: 0, void: 0, rolls: 0, cocked: 0 };
    t.update({ type: 'started', at: 0, sessionId: 3, resumed: false, lastThrowIndex: 0, simulated: true, dice: [die('a', 500)], totals, budgetRolls: 3000 });
    t.update({ type: 'throw', at: 0, index: 10, status: 'ok', rolls: [], problems: [], dice: [die('a', 490)], totals: { ...totals, throws: 10, ok: 10 }, clock: clock(18_000, 10) });
    expect(t.snapshot?.rollsPerHour).toBeCloseTo((40 / 18_000) * 3_600_000, 9);
    expect(t.snapshot?.throwsPerHour).toBeCloseTo(2000, 9);
    expect(t.snapshot?.etaMs).toBeCloseTo(490 * 1800, 6);
  });

  it('renders a header and one line per die, with the rolls each still needs', () => {
    const lines = progressLines({
      sessionId: 7,
      lastThrowIndex: 1234,
      totals: { throws: 1234, ok: 1200, rerolled: 30, void: 4, rolls: 4920, cocked: 31 },
      dice: [die('red-01', 2300), die('red-02', 0, true)],
      clock: clock(3_000_000, 1200),
      rollsPerHour: 5760,
      etaMs: 5_400_000,
    });
    expect(lines[0]).toBe('session 7: throw 1,234 (1,200 counted, 30 re-tumbled, 4 void), 5,760 die-rolls/h, 50 min of rig time; ETA 1 h 30 min');
    expect(lines[1]).toMatch(/red-01 {2}ch 0 +100 rolls {2}undecided, ~2,300 more rolls needed$/);
    expect(lines[2]).toMatch(/red-02 .*UNFAIR \(decided\)$/);
    expect(formatDuration(42_000)).toBe('42 s');
    expect(formatDuration(1_492_948.5 * 3_600_000)).toBe('1,492,948 h 30 min');
  });

  it('says a die with no roll yet is not measured, and toward which verdict the rolls still needed lead', () => {
    const lines = progressLines({
      sessionId: 2,
      lastThrowIndex: 0,
      totals: { throws: 0, ok: 0, rerolled: 0, void: 0, rolls: 0, cocked: 0 },
      dice: [{ ...die('new', 0), rolls: 0, noVerdictInReach: true }, { ...die('fair', 1472), toward: 'UNFAIR' }, { ...die('close', 800), toward: 'FAIR_WITHIN' }],
      clock: clock(0, 0),
    });
    expect(lines[1]).toMatch(/new .* 0 rolls {2}undecided, not measured yet$/);
    expect(lines[2]).toMatch(/fair .*undecided, ~1,472 more rolls needed toward UNFAIR$/);
    expect(lines[3]).toMatch(/close .*undecided, ~800 more rolls needed toward FAIR_WITHIN$/);
  });

  it('tells each undecided die of a running session toward which verdict it is projected', async () => {
    const s = scriptedSession({ fallback: () => '1', rules: { budgetRolls: 3 } });
    const seen: SessionEvent[] = [];
    await runSession({ ...s.deps, onEvent: (e) => seen.push(e) }, s.plan);
    const first = seen.find((e) => e.type === 'throw');
    // A die that shows only 1s is headed for UNFAIR.
    expect(first?.type === 'throw' && first.dice.map((d) => d.toward)).toEqual(['UNFAIR', 'UNFAIR']);
  });

  it('says a die its budget retired undecided is INCONCLUSIVE because the budget is spent, not that it was decided', () => {
    const spent: DieStatus = { ...die('d6-B', 0, true), state: 'INCONCLUSIVE', budgetLeft: 0 };
    const lines = progressLines({ sessionId: 1, lastThrowIndex: 50, totals: { throws: 50, ok: 50, rerolled: 0, void: 0, rolls: 100, cocked: 0 }, dice: [spent], clock: clock(60_000, 50) });
    expect(lines[1]).toMatch(/d6-B .*INCONCLUSIVE \(budget spent\)$/);
  });

  it('says a face is never read in place of the rolls still needed, since FAIR_WITHIN is then out of reach without a review', () => {
    const lines = progressLines({
      sessionId: 7,
      lastThrowIndex: 600,
      totals: { throws: 600, ok: 600, rerolled: 0, void: 0, rolls: 1200, cocked: 0 },
      dice: [{ ...die('logo-6', 2400), unreadableFace: '6' }, die('plain', 900)],
      clock: clock(1_000_000, 600),
    });
    expect(lines[1]).toMatch(/logo-6 .*undecided, no 6 read yet: FAIR_WITHIN needs a review of its unresolved rolls$/);
    expect(lines[1]).not.toMatch(/2,400/);
    expect(lines[2]).toMatch(/plain .*undecided, ~900 more rolls needed$/);
  });
});

describe('the rolls a die still needs, beside its budget', () => {
  it("says the rolls the rule needs and that they lie beyond the budget, not the budget left as if it were the need", () => {
    const lines = progressLines({
      sessionId: 8,
      lastThrowIndex: 231,
      totals: { throws: 231, ok: 231, rerolled: 0, void: 0, rolls: 924, cocked: 0 },
      dice: [{ ...die('d6-A', 1100), budgetLeft: 169 }, { ...die('d6-B', 120), budgetLeft: 169 }, { ...die('d6-C', 1), budgetLeft: 169 }, { ...die('d6-D', 0), budgetLeft: 169, noVerdictInReach: true }],
      clock: clock(600_000, 231),
    });
    expect(lines[1]).toMatch(/d6-A .*undecided, ~1,100 more rolls needed, beyond the budget \(169 left\)$/);
    expect(lines[2]).toMatch(/d6-B .*undecided, ~120 more rolls needed$/);
    expect(lines[3]).toMatch(/d6-C .*undecided, ~1 more roll needed$/);
    expect(lines[4]).toMatch(/d6-D .*undecided, no verdict in reach if the proportions hold$/);
    // The ETA counts the rolls the dice will get: the budget stops d6-A at 169 more.
    expect(estimateEtaMs([{ ...die('d6-A', 1100), budgetLeft: 169 }], clock(3_600_000, 1000))).toBeCloseTo(169 * 3600, 6);
  });

  it("gives the monitor's own projection, the final verdict's figure, even past the budget", () => {
    const track = new DieTrack(sessionDie, { control: sessionErrorControl(0.001, 4), delta: 0.05, budgetRolls: 400 });
    const random = seededRandom(3);
    for (let i = 0; i < 231; i++) track.observe(Math.floor(random() * 6));
    const v = track.verdict();
    expect(v.kind).toBe('INCONCLUSIVE');
    const projected = v.kind === 'INCONCLUSIVE' ? v.rollsNeeded : null;
    expect(projected as number).toBeGreaterThan(track.budgetLeft());
    expect(track.rollsStillNeeded()).toBe(projected);
    expect(track.budgetLeft()).toBe(169);
  });
});

describe('the terminal display of a running session', () => {
  async function run(tty: boolean): Promise<string> {
    const s = scriptedSession({ fallback: (call, c) => String(((call + c) % 6) + 1), rules: { budgetRolls: 30 } });
    let out = '';
    let wall = 0;
    const view = new TerminalProgress({ write: (x) => void (out += x), tty, now: () => (wall += 50), everyThrows: 10 });
    await runSession({ ...s.deps, onEvent: view.onEvent }, s.plan);
    return out;
  }

  it('redraws the block in place on a terminal', async () => {
    const out = await run(true);
    // Cursor up over the three lines drawn (header and two dice), then clear to the end.
    expect(out).toContain('\x1b[3A\x1b[0J');
    expect(out).toMatch(/Starting session 1 \(simulated/);
  });

  it('prints plain blocks every few throws without a terminal, and no escape codes', async () => {
    const out = await run(false);
    expect(out).not.toContain('\x1b[');
    const headers = out.split('\n').filter((l) => l.startsWith('session 1: throw'));
    // At the start, at throws 10, 20 and 30, at each budget verdict... and at the end.
    expect(headers.length).toBeGreaterThanOrEqual(4);
    expect(headers.at(-1)).toMatch(/The roll budget of 30 rolls a die is spent: .* left INCONCLUSIVE/);
  });

  it('prints a block at the start and then about once a minute without a terminal, when throws take seconds each', async () => {
    // 100 throws of 1.6 s (a real rig's pace): 250 throws would be ten minutes and more of silence.
    const s = scriptedSession({ fallback: (call, c) => String(((call + c) % 6) + 1), rules: { budgetRolls: 100 } });
    let out = '';
    const view = new TerminalProgress({ write: (x) => void (out += x), tty: false, now: () => s.clock.now() });
    await runSession({ ...s.deps, onEvent: view.onEvent }, s.plan);
    const throws = out
      .split('\n')
      .filter((l) => l.startsWith('session 1: throw'))
      .map((l) => Number(/throw (\d+)/.exec(l)?.[1]));
    expect(throws[0]).toBe(0);
    // A minute is 37.5 throws: the first throw past each minute, then the end.
    expect(throws).toEqual([0, 38, 76, 100]);
  });

  it('streams every event as one JSON line', async () => {
    const s = scriptedSession({ rig: ['jam'], fallback: () => '3', rules: { budgetRolls: 2 } });
    const lines: string[] = [];
    await runSession({ ...s.deps, onEvent: jsonLineEvents((l) => lines.push(l)) }, s.plan);
    const events = lines.map((l) => JSON.parse(l) as SessionEvent);
    expect(lines.every((l) => l.endsWith('\n') && !l.slice(0, -1).includes('\n'))).toBe(true);
    expect(events.map((e) => e.type)).toEqual(['started', 'throw', 'fault', 'recovered', 'throw', 'throw', 'decided', 'decided', 'stopped']);
  });
});

describe('the terminal display on a narrow terminal', () => {
  it('cuts lines to the terminal width so the redraw stays in place', async () => {
    const s = scriptedSession({ fallback: (call, c) => String(((call + c) % 6) + 1), rules: { budgetRolls: 3 } });
    let out = '';
    const view = new TerminalProgress({ write: (x) => void (out += x), tty: true, now: () => 0, columns: 40 });
    await runSession({ ...s.deps, onEvent: view.onEvent }, s.plan);
    const blockLines = out.split('\n').filter((l) => l.includes('session 1: throw'));
    expect(blockLines.length).toBeGreaterThan(0);
    const escape = new RegExp(`${String.fromCharCode(27)}\\[\\d*[A-Z]`, 'g');
    for (const l of blockLines) expect(l.replace(escape, '').length).toBeLessThanOrEqual(40);
  });
});

describe('the display without a terminal, the dice worked out only for the throws it shows', () => {
  /** What a display printing every 30 throws prints of a scripted session, and how often the dice statuses were worked out. */
  async function shown(fallback: (call: number, c: number) => string, rules: Parameters<typeof scriptedSession>[0]['rules'], diceOnDemand: boolean): Promise<{ out: string; statuses: number }> {
    const s = scriptedSession({ fallback, ...(rules !== undefined ? { rules } : {}) });
    let out = '';
    const view = new TerminalProgress({ write: (x) => void (out += x), tty: false, now: () => 0, everyThrows: 30 });
    const statuses = vi.spyOn(MonitorSet.prototype, 'statuses');
    try {
      await runSession({ ...s.deps, onEvent: view.onEvent, diceOnDemand }, s.plan);
      return { out, statuses: statuses.mock.calls.length };
    } finally {
      statuses.mockRestore();
    }
  }

  it('prints the very lines it prints when every throw carries its dice, with a die decided and with a rig found suspect at the last throw', async () => {
    const loaded = (call: number, c: number): string => (c === 0 ? '6' : String(((call + c) % 6) + 1));
    // Each die repeats its face three throws running: the rig check after throw 100 finds the rig suspect and ends the
    // session, after the display was told of that throw.
    const sticky = (call: number, c: number): string => String(((Math.floor(call / 3) * 5 + c) % 6) + 1);
    for (const [fallback, rules] of [
      [loaded, { budgetRolls: 80 }],
      [sticky, { budgetRolls: 1000, rigCheckEvery: 100, alpha: 1e-9 }],
    ] as const) {
      const every = await shown(fallback, rules, false);
      const onDemand = await shown(fallback, rules, true);
      expect(every.out).toMatch(/session 1: throw 30 /);
      expect(onDemand.out).toBe(every.out);
      // The start, every 30th throw and the end's (the last throw's, at the end: it was not shown): a few, not one a throw.
      expect(onDemand.statuses).toBeLessThan(every.statuses / 5);
    }
    expect((await shown(sticky, { budgetRolls: 1000, rigCheckEvery: 100, alpha: 1e-9 }, true)).out).toMatch(/rig check 1: the rig looks suspect/);
  });

  it("refuses to give a throw's dice once a later throw is stored, and keeps those read before", () => {
    let stored = 3;
    const totals = { throws: 3, ok: 3, rerolled: 0, void: 0, rolls: 3, cocked: 0 };
    const event = (index: number) => withDiceOnDemand({ type: 'throw', at: 0, index, status: 'ok', rolls: [], problems: [], dice: [], totals, clock: clock(1000, 3) }, () => [die(`after ${stored}`, 10)], () => stored);
    const read = event(3);
    const unread = event(3);
    expect(read.dice.map((d) => d.label)).toEqual(['after 3']);
    stored = 4;
    expect(read.dice.map((d) => d.label)).toEqual(['after 3']);
    expect(() => unread.dice).toThrow('the dice statuses of throw 3 were read after throw 4 was stored');
  });
});
