import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/session/events.js';
import { RollStore } from '../../src/store/rollStore.js';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

function config(dir: string, extra: string, name = 'run.yaml'): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    `seed: 4
dice:
  - { label: cli-A, type: d6 }
  - { label: cli-B, type: d6, simulatedLoad: { symbol: "6", factor: 1.5 } }
rig:
  driver: sim
${extra}`,
  );
  return file;
}

const events = (out: string): SessionEvent[] =>
  out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as SessionEvent);

describe('dicerig run', () => {
  it('runs a simulated session to its budget and prints the verdicts, the session and the report command', async () => {
    const dir = tempDir('dicerig-run-');
    const db = join(dir, 'rolls.db');
    const r = await runCli('run', config(dir, 'stopping: { budgetRolls: 15 }\n'), '--db', db, '--plain');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Starting session 1 \(simulated/);
    expect(r.out).toMatch(/Session 1 finished: The roll budget of 15 rolls a die is spent: both dice are left INCONCLUSIVE/);
    expect(r.out).toMatch(/cli-A +\(d6, channel 0, 15 rolls\) +INCONCLUSIVE/);
    expect(r.out).toMatch(/die-rolls per hour/);
    expect(r.out).toContain(`Report:  dicerig report 1 --db ${db}`);
    const store = RollStore.open(db, { mustExist: true });
    expect(store.counts(1)).toMatchObject({ ok: 15, countedRolls: 30 });
    store.close();
  });

  it("runs a config that holds serve's server: section, and never stores its tokens with the session", async () => {
    const dir = tempDir('dicerig-run-server-');
    const db = join(dir, 'r.db');
    const file = config(dir, 'stopping: { budgetRolls: 10 }\nserver: { port: 0, token: "s3cret-token-0123456789" }\n');
    const r = await runCli('run', file, '--db', db);
    expect(r.code, r.err).toBe(0);
    const store = RollStore.open(db, { mustExist: true });
    const stored = store.getSession(1)?.configJson ?? '';
    store.close();
    expect(stored).not.toContain('server');
    expect(stored).not.toContain('s3cret');
  });

  it('prints the end as JSON with --json', async () => {
    const dir = tempDir('dicerig-run-');
    const r = await runCli('run', config(dir, 'stopping: { budgetRolls: 5 }\n'), '--db', join(dir, 'r.db'), '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { state: string; dice: { label: string; rolls: number }[]; reportCommand: string; simulated: boolean };
    expect(j).toMatchObject({ state: 'finished', simulated: true });
    expect(j.dice.map((d) => d.rolls)).toEqual([5, 5]);
    expect(j.reportCommand).toMatch(/^dicerig report 1 --db /);
  });

  it('continues a session with --resume from the throw after the last one stored', async () => {
    const dir = tempDir('dicerig-run-');
    const db = join(dir, 'r.db');
    // A time budget of 0.005 h (18 s of rig time, a handful of throws) ends each run; the roll budget is far off.
    const file = config(dir, 'stopping: { budgetRolls: 500, budgetHours: 0.005 }\n');
    const first = await runCli('run', file, '--db', db, '--events');
    expect(first.code).toBe(0);
    const e1 = events(first.out);
    const lastIndex = (e1.filter((e) => e.type === 'throw').at(-1) as { index: number }).index;
    expect(e1.at(-1)).toMatchObject({ type: 'summary', stop: 'time-budget' });
    // Its time budget counts all its runs, so the finished session rolls on only for hours the resume adds.
    const second = await runCli('run', file, '--db', db, '--events', '--resume', '1', '--more-hours', '0.005');
    expect(second.code).toBe(0);
    const e2 = events(second.out);
    expect(e2[0]).toMatchObject({ type: 'started', resumed: true, lastThrowIndex: lastIndex });
    expect(e2.find((e) => e.type === 'throw')).toMatchObject({ index: lastIndex + 1 });
    const store = RollStore.open(db, { mustExist: true });
    const after = store.counts(1);
    expect(after.throws).toBe((e2.filter((e) => e.type === 'throw').at(-1) as { index: number }).index);
    expect(store.verify().ok).toBe(true);
    store.close();
  });

  it('resumes a session with no config file, with the config stored with it, and says the same command will roll it on', async () => {
    const dir = tempDir('dicerig-run-');
    const db = join(dir, 'r.db');
    const file = config(dir, 'stopping: { budgetRolls: 6 }\n');
    expect((await runCli('run', file, '--db', db, '--json')).code).toBe(0);
    const more = await runCli('run', '--resume', '1', '--db', db, '--more-rolls', '4', '--plain');
    expect(more.code, more.err).toBe(0);
    expect(more.out).toContain('session 1: roll budget raised from 6 to 10 rolls a die');
    // Without a file, the command printed to go on needs none either.
    expect(more.out).toMatch(new RegExp(`Roll on: dicerig run --resume 1 --db ${db} --more-rolls \\d+ `));
    const store = RollStore.open(db, { mustExist: true });
    try {
      expect(store.sessions()).toHaveLength(1);
      expect(store.events(1).filter((e) => e.kind === 'resumed')).toHaveLength(1);
      expect(store.dieRolls(1).every((d) => d.faces.length <= 10)).toBe(true);
      expect(store.dieRolls(1).some((d) => d.faces.length > 6)).toBe(true);
    } finally {
      store.close();
    }
  });

  it('counts one throw and one roll in the singular in its summary', async () => {
    const dir = tempDir('dicerig-run-');
    const file = join(dir, 'one.yaml');
    writeFileSync(file, 'seed: 5\ndice:\n  - { label: one-A, type: d6 }\nrig: { driver: sim }\nstopping: { budgetRolls: 1 }\n');
    const r = await runCli('run', file, '--db', join(dir, 'r.db'), '--plain');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('Session 1 finished: The roll budget of 1 roll a die is spent: the die is left INCONCLUSIVE (after 1 counted throw).');
    expect(r.out).toContain('(d6, channel 0, 1 roll)');
    expect(r.out).toContain('(the budget of 1 roll is spent)');
    expect(r.out).toMatch(/^Rig: 1 throw \(1 counted/m);
    expect(r.out).toMatch(/^This run: 1 throw in /m);
    expect(r.out).not.toMatch(/\b1 (throws|rolls)\b/);
  });

  it('still needs a config file to start a new session, and says --resume does not', async () => {
    const r = await runCli('run', '--db', join(tempDir('dicerig-run-'), 'r.db'));
    expect(r.code).toBe(1);
    expect(r.err).toContain('run needs a session config file (or --resume SESSION to continue a stored session with its stored config');
  });

  it('refuses to resume with a config whose dice differ from the session\'s', async () => {
    const dir = tempDir('dicerig-run-');
    const db = join(dir, 'r.db');
    await runCli('run', config(dir, 'stopping: { budgetRolls: 2 }\n'), '--db', db, '--json');
    const other = join(dir, 'other.yaml');
    writeFileSync(other, 'dice:\n  - { label: someone-else, type: d6 }\n  - { label: cli-B, type: d6 }\nrig: { driver: sim }\n');
    const r = await runCli('run', other, '--db', db, '--resume', '1');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/cannot resume session 1 with these dice: channel 0 holds cli-A \(d6\) in the session but someone-else \(d6\) in the config/);
  });

  it('stops with exit status 1 when the rig faults on every tumble, saying why', async () => {
    const dir = tempDir('dicerig-run-');
    const file = join(dir, 'jam.yaml');
    writeFileSync(file, 'dice:\n  - { label: J, type: d6 }\nrig:\n  driver: sim\n  sim: { faults: { jamRate: 1 } }\n');
    const jam = await runCli('run', file, '--db', join(dir, 'jam.db'), '--json');
    expect(jam.code).toBe(1);
    const j = JSON.parse(jam.out) as { state: string; reason: string; totals: { void: number } };
    expect(j.state).toBe('aborted');
    expect(j.reason).toMatch(/faulted 3 times in a row .*jammed/);
    expect(j.totals.void).toBe(3);
  });

  it('names the config file, key and line of a mistake', async () => {
    const dir = tempDir('dicerig-run-');
    const r = await runCli('run', config(dir, 'camera: { source: sim, lightin: dim }\n'), '--db', join(dir, 'r.db'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/run\.yaml: config key "camera\.lightin": is not a setting here \(line 7\)/);
  });
});
