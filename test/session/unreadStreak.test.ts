import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSessionConfig } from '../../src/session/config.js';
import { runSession } from '../../src/session/runner.js';
import { openSession, runnerDeps } from '../../src/session/setup.js';
import { formatSessionSummary } from '../../src/session/summary.js';
import { tempDir } from '../store/support/fixtures.js';
import { UnreadStreak } from '../../src/session/unreadStreak.js';
import type { SessionDie } from '../../src/session/sessionDie.js';
import type { ThrowOutcome } from '../../src/session/throwOutcome.js';

const die = (label: string, channel: number): SessionDie => ({ channel, record: { id: channel + 1, label, typeId: 'red', set: null, notes: null } }) as unknown as SessionDie;
const r1 = die('r1', 0);
const g1 = die('g1', 1);
const size = (px: number): string => `The die is ${px} px across; the profile was calibrated for 59-86 px (was the camera moved? recalibrate).`;

/** A throw in which both dice were declined for their size, or the first called cocked. */
function unread(px: number, cocked = false): Pick<ThrowOutcome, 'rolls' | 'problems'> {
  return {
    rolls: [
      { die: r1, confidence: 0, cocked, ...(cocked ? {} : { unresolved: true }), classifierVersion: 'v', crop: { width: 0, height: 0, data: new Uint8Array() } },
      { die: g1, confidence: 0, cocked: false, unresolved: true, classifierVersion: 'v', crop: { width: 0, height: 0, data: new Uint8Array() } },
    ],
    problems: [
      cocked ? { kind: 'cocked', die: r1, channel: 0, reason: 'it is not lying flat' } : { kind: 'unreadable', die: r1, channel: 0, reason: size(px), cause: 'die-size' },
      { kind: 'unreadable', die: g1, channel: 1, reason: size(px + 1), cause: 'die-size' },
    ],
  };
}

const oneRead: Pick<ThrowOutcome, 'rolls' | 'problems'> = {
  rolls: [{ die: r1, symbol: 'hit', confidence: 1, cocked: false, classifierVersion: 'v', crop: { width: 0, height: 0, data: new Uint8Array() } }],
  problems: [{ kind: 'unreadable', die: g1, channel: 1, reason: 'unsure', cause: 'unsure' }],
};

describe('throws in a row in which no die was read', () => {
  it('stop the session at the limit, naming what the reader said of most of their dice', () => {
    const streak = new UnreadStreak();
    for (let i = 0; i < 24; i++) streak.add(unread(109 + (i % 3), i % 4 === 0));
    expect(streak.stopReason(25)).toBeUndefined();
    streak.add(unread(110));
    const why = streak.stopReason(25) as string;
    expect(why).toMatch(/^No die was read in 25 throws in a row/);
    // 25 throws of two dice: 6 called cocked, 44 declined for their size (in several sizes, one reason).
    expect(why).toMatch(/The reader said of 44 of the 50 dice it looked at: The die is 111 px across; the profile was calibrated for 59-86 px/);
    // The sizes differ from die to die: the words quoted are one die's, and said to be.
    expect(why).toMatch(/59-86 px \(was the camera moved\? recalibrate\) \(this die's words; the figures vary from die to die\)\. Check the calibration/);
  });

  it('quotes a reason said in the same words of every die as it is, ending its sentence before what to check', () => {
    const streak = new UnreadStreak();
    const sameWords = unread(110);
    const throwOf = { ...sameWords, problems: sameWords.problems.map((p) => ({ ...p, reason: size(110) })) };
    for (let i = 0; i < 25; i++) streak.add(throwOf);
    expect(streak.stopReason(25)).toMatch(/The reader said of 50 of the 50 dice it looked at: The die is 110 px across; the profile was calibrated for 59-86 px \(was the camera moved\? recalibrate\)\. Check the calibration/);
  });

  it('start again from nothing once a die is read', () => {
    const streak = new UnreadStreak();
    for (let i = 0; i < 24; i++) streak.add(unread(110));
    streak.add(oneRead);
    expect(streak.length).toBe(0);
    for (let i = 0; i < 24; i++) streak.add(unread(110));
    expect(streak.stopReason(25)).toBeUndefined();
  });
});

describe('a session reading with a profile made for another die size', () => {
  it('stops once no die was read in 25 throws in a row, saying why, instead of spending its roll budget', async () => {
    // The shipped profile was calibrated on dice about 59-86 px across; these are 110 px.
    const config = checkSessionConfig({ seed: 5, dice: [{ label: 'r1', type: 'red' }, { label: 'g2', type: 'green' }], rig: { driver: 'sim' }, camera: { source: 'sim', dieSizePx: 110 }, stopping: { budgetRolls: 100 } });
    const db = join(tempDir('dicerig-unread-'), 'r.db');
    const opened = await openSession({ config, dbPath: db, wallNow: () => 1_700_000_000_000 });
    try {
      const result = await runSession(runnerDeps(opened), opened.plan);
      expect(result.stop).toBe('unread');
      expect(result.totals.throws).toBeLessThan(60);
      expect(result.reason).toMatch(/No die was read in 25 throws in a row.*px across; the profile was calibrated for/);
      const summary = formatSessionSummary(result, { db, simulated: true });
      expect(summary).toMatch(/^Session 1 aborted: No die was read in 25 throws in a row/);
      expect(summary).not.toMatch(/came to rest cocked/);
    } finally {
      await opened.close();
    }
  });
});
