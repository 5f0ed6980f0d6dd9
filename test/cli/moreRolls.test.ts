/**
 * `dicerig run CONFIG --resume SESSION --more-rolls N`: a session whose budget left dice INCONCLUSIVE ("needs about N
 * more rolls") is rolled on as the same session, each undecided die's monitor going on from where it stopped.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recomputeVerdicts } from '../../src/server/review/sessionVerdicts.js';
import type { SessionVerdicts } from '../../src/stats/dieVerdict.js';
import { openStoreForReading } from '../../src/store/openStore.js';
import { runCli } from './runCli.js';
import { copyStore } from '../support/demoStore.js';

const dir = mkdtempSync(join(tmpdir(), 'dicerig-more-rolls-'));
const config = join(dir, 'session.yaml');
writeFileSync(
  config,
  'name: roll-on\nseed: 5\ndice:\n  - { label: on-A, type: d6 }\n  - { label: on-B, type: d6 }\n  - { label: on-C, type: d6 }\n' +
    'rig: { driver: sim }\ncamera: { source: sim, lighting: studio }\nstopping: { budgetRolls: 60 }\n',
);

/** `dicerig run config` into a store of its own, run once for the tests that roll its session on: each takes a copy. */
let firstRun: ReturnType<typeof runCli> | undefined;
async function firstSession(db: string): ReturnType<typeof runCli> {
  const store = join(dir, 'first.db');
  firstRun ??= runCli('run', config, '--db', store, '--plain');
  const first = await firstRun;
  if (first.code === 0) copyStore(store, db);
  return first;
}

describe('rolling on a session whose budget was spent', () => {
  it('raises its budget as a chained event, rolls its undecided dice on in the same session, and a review after it keeps the raised budget', async () => {
    const db = join(dir, 'rolls.db');
    const first = await firstSession(db);
    expect(first.code, first.err).toBe(0);
    // The command names the config file the session was run from (it used to print a <config> placeholder).
    const hint = new RegExp(`Roll on: dicerig run ${config} --resume 1 --db \\S+ --more-rolls (\\d+) {3}\\(the same session: its undecided dice keep their evidence\\)`).exec(first.out);
    expect(hint, first.out).not.toBeNull();
    expect(Number(hint![1]) % 100).toBe(0);

    // 40 more rolls show the raise as well as 140 did (an undecided die still rolls on past 60, to the new budget), for
    // some 100 fewer throws of three dice read by the vision pipeline.
    const on = await runCli('run', config, '--db', db, '--resume', '1', '--more-rolls', '40', '--plain');
    expect(on.code, on.err).toBe(0);
    expect(on.out).toContain('session 1: roll budget raised from 60 to 100 rolls a die; its undecided dice are rolled on, on the same evidence');
    const opened = openStoreForReading(db);
    try {
      const { store } = opened;
      expect(store.sessions()).toHaveLength(1);
      const raised = store.events(1).filter((e) => e.kind === 'budget-raised');
      expect(raised.map((e) => e.detail)).toEqual([{ from: 60, to: 100 }]);
      const stored = store.storedVerdicts(1)?.verdicts as SessionVerdicts;
      for (const d of stored.dice) {
        // Each die either kept its verdict (made before the budget ran out) or was rolled on to the new budget.
        expect(d.rolls === 100 || d.kind === 'UNFAIR' || d.kind === 'FAIR_WITHIN', `${d.label}: ${d.rolls} rolls, ${d.kind}`).toBe(true);
        if (d.kind === 'INCONCLUSIVE') expect(d.sentence, d.label).toContain('the budget of 100 rolls is spent');
      }
      expect(stored.dice.some((d) => d.rolls > 60)).toBe(true);
      // A review remakes the verdicts from the store with the raised budget: the same verdicts as the run stored.
      expect(recomputeVerdicts(store, 1).dice.map((d) => [d.label, d.kind, d.rolls])).toEqual(stored.dice.map((d) => [d.label, d.kind, d.rolls]));
    } finally {
      opened.close();
    }
    const verified = await runCli('verify', '--db', db);
    expect(verified.code, verified.err).toBe(0);
    expect(verified.out).toContain('every hash chain verifies');
  });

  it('rolls a demo session on too, and its summary names the demo command to do it', async () => {
    const db = join(dir, 'demo.db');
    const first = await runCli('demo', '--budget', '40', '--seed', '4', '--db', db, '--plain');
    expect(first.code, first.err).toBe(0);
    expect(first.out).toMatch(/Roll on: dicerig demo --seed 4 --dice d6 --budget 40 --resume 1 --db \S+ --more-rolls \d+00 {3}\(the same session/);
    // 20 more rolls show a demo rolled on as well as 60 did, for 40 fewer throws of four dice.
    const on = await runCli('demo', '--budget', '40', '--seed', '4', '--db', db, '--resume', '1', '--more-rolls', '20', '--plain');
    expect(on.code, on.err).toBe(0);
    expect(on.out).toContain('session 1: roll budget raised from 40 to 60 rolls a die');
    expect(on.out).toMatch(/\(d6, channel 0, 60 rolls\)/);
  });

  it('sizes --more-rolls for the dice in reach and names apart, with their machine time, the dice that need over ten times the rolls they have had', async () => {
    // Misread bounds wide (6 read as 5 a fifth of the time), so a die's need to be decided is the noise of its shares.
    // Seed 6 at 100 rolls a die leaves one die in reach (demo6-d6-C, about 230 more) and three far past ten times
    // their 100 rolls, one of them (demo6-d6-D, about 14,000) past anything the run should ask for: the split 360
    // rolls of seed 3 showed, for 72 % fewer throws (of the seeds tried at 100 to 240 rolls, seed 2 at 150 had no die in reach).
    const db = join(dir, 'far.db');
    const r = await runCli('demo', '--seed', '6', '--budget', '100', '--misreads', '6>5=0.2,1>2=0.05', '--misread-calibration', '200', '--db', db, '--plain');
    expect(r.code, r.err).toBe(0);
    const asked = Number(/--more-rolls (\d+) {3}\(the same session/.exec(r.out)?.[1]);
    expect(asked).toBeLessThanOrEqual(6000);
    const far = /^Far past that \(over ten times the rolls they have had, if the observed shares hold\): (.*); roll on for them only if that time is worth it\.$/m.exec(r.out)?.[1] ?? '';
    expect(far).toMatch(/demo6-d6-D about [\d,]{6,} more rolls \([\d,]+ h \d+ min at this run's pace\)/);
    // Each die named apart needs ten times its 100 rolls or more, and more than the run asks for.
    const needs = [...far.matchAll(/about ([\d,]+) more rolls/g)].map((m) => Number((m[1] as string).replace(/,/g, '')));
    expect(needs.length).toBeGreaterThan(0);
    for (const need of needs) expect(need).toBeGreaterThanOrEqual(1000);
    for (const need of needs) expect(need).toBeGreaterThan(asked);
  }, 240_000); // a 100-roll demo with misread bounds: some 3 s of CPU (the 600-roll one it once was took over 90 s in a loaded full-suite run)

  it('refuses to raise the budget of a session whose every die has a verdict, and stores nothing', async () => {
    const loaded = join(dir, 'loaded.yaml');
    writeFileSync(
      loaded,
      'seed: 3\ndice:\n  - { label: all-A, type: d6, simulatedLoad: { symbol: "6", factor: 4 } }\n  - { label: all-B, type: d6, simulatedLoad: { symbol: "1", factor: 4 } }\n' +
        'rig: { driver: sim }\ncamera: { source: sim, lighting: studio }\nstopping: { budgetRolls: 400 }\n',
    );
    const db = join(dir, 'decided.db');
    const first = await runCli('run', loaded, '--db', db, '--plain');
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain('Every die has a verdict');
    const events = (): string[] => {
      const opened = openStoreForReading(db);
      try {
        return opened.store.events(1).map((e) => e.kind);
      } finally {
        opened.close();
      }
    };
    const before = events();
    const on = await runCli('run', loaded, '--db', db, '--resume', '1', '--more-rolls', '100', '--plain');
    expect(on.code).toBe(1);
    expect(on.err).toContain('every die of session 1 has a verdict; nothing to roll on');
    expect(on.err).toContain('nothing was stored');
    expect(on.out).not.toContain('roll budget raised');
    expect(events()).toEqual(before);
  });

  it('prints how to raise the time budget after a finish on it, refuses a plain resume of it, and rolls on for the hours raised', async () => {
    const timed = join(dir, 'timed.yaml');
    writeFileSync(timed, 'seed: 5\ndice:\n  - { label: hr-A, type: d6 }\n  - { label: hr-B, type: d6 }\nrig: { driver: sim }\nstopping: { budgetRolls: 5000, budgetHours: 0.01 }\n');
    const db = join(dir, 'timed.db');
    const first = await runCli('run', timed, '--db', db, '--plain');
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain("Session 1 finished: The time budget of 0.01 h is spent (rolling time over all of the session's runs)");
    const hint = new RegExp(`Roll on: dicerig run ${timed} --resume 1 --db \\S+ --more-hours ([\\d.]+) {3}\\(the same session: its undecided dice keep their evidence; about [\\d,]+ more rolls at this run's [\\d,]+ counted throws/h\\)`).exec(first.out);
    expect(hint, first.out).not.toBeNull();
    const again = await runCli('run', timed, '--db', db, '--resume', '1', '--plain');
    expect(again.code).toBe(1);
    expect(again.err).toContain('session 1 finished on its time budget: its 0.01 h of rolling (over all its runs) are spent, so a resume would roll nothing');
    const on = await runCli('run', timed, '--db', db, '--resume', '1', '--more-hours', '0.005', '--json');
    expect(on.code, on.err).toBe(0);
    expect(on.err).toContain('session 1: time budget raised from 0.01 h to 0.015 h of rolling over all its runs');
    const j = JSON.parse(on.out) as { stop: string; clock: { elapsedMs: number } };
    expect(j.stop).toBe('time-budget');
    // The hours raised, not a fresh 0.015 h.
    expect(j.clock.elapsedMs).toBeLessThan(0.007 * 3_600_000);
    const alone = await runCli('run', timed, '--db', db, '--more-hours', '1');
    expect(alone.err).toContain('--more-hours raises the time budget of a stored session: give the session with --resume SESSION');
  });

  it('names each setting a config given with --resume changes, and runs with the stored ones', async () => {
    const db = join(dir, 'changed.db');
    expect((await firstSession(db)).code).toBe(0);
    const changed = join(dir, 'changed.yaml');
    writeFileSync(
      changed,
      'name: roll-on\nseed: 5\ndice:\n  - { label: on-A, type: d6 }\n  - { label: on-B, type: d6, simulatedLoad: { symbol: "6", factor: 2 } }\n  - { label: on-C, type: d6 }\n' +
        'rig: { driver: sim, light: 90 }\ncamera: { source: sim, lighting: studio }\nstopping: { budgetRolls: 500, alpha: 0.05 }\n',
    );
    const on = await runCli('run', changed, '--db', db, '--resume', '1', '--plain');
    expect(on.code, on.err).toBe(0);
    expect(on.out).toContain(
      "session 1 runs with the config stored with it, so its verdicts stay under its own rules; this config's dice[1].simulatedLoad ({\"symbol\":\"6\",\"factor\":2} in this config, unset in the session), " +
        'rig.light (90 in this config, 200 in the session), stopping.alpha (0.05 in this config, 0.01 in the session), stopping.budgetRolls (500 in this config, 60 in the session) are not used; to roll on past its budget, give --more-rolls N',
    );
    const opened = openStoreForReading(db);
    try {
      // The stored rules stood: no die was rolled past the session's own budget.
      const stored = opened.store.storedVerdicts(1)?.verdicts as SessionVerdicts;
      expect(Math.max(...stored.dice.map((d) => d.rolls))).toBeLessThanOrEqual(60);
    } finally {
      opened.close();
    }
    // The config the session ran with says nothing.
    const same = await runCli('run', config, '--db', db, '--resume', '1', '--plain');
    expect(same.code, same.err).toBe(0);
    expect(same.out).not.toContain('are not used');
    expect(same.out).not.toContain('is not used');
  });

  it('asks for the session to roll on when --more-rolls comes without --resume, and refuses a budget that is not a positive whole number', async () => {
    const alone = await runCli('run', config, '--db', join(dir, 'other.db'), '--more-rolls', '100');
    expect(alone.code).toBe(1);
    expect(alone.err).toContain('--more-rolls raises the roll budget of a stored session: give the session with --resume SESSION');
    const demoAlone = await runCli('demo', '--db', join(dir, 'other.db'), '--more-rolls', '100');
    expect(demoAlone.code).toBe(1);
    expect(demoAlone.err).toContain('--more-rolls raises the roll budget of a stored session: give the session with --resume SESSION');
    const bad = await runCli('run', config, '--db', join(dir, 'other.db'), '--resume', '1', '--more-rolls', '-5');
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/more-rolls/);
  });
});
