import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redAttackDie } from '../../src/dice/catalogue.js';
import { seededRandom } from '../../src/stats/random.js';
import { RollStore } from '../../src/store/rollStore.js';
import { runCli } from '../cli/runCli.js';
import { fixtureStore, START, type Fixture } from './support/fixtureStore.js';

let fixture: Fixture;
/** A second real session of R1 and R2 only, in the same store. */
let again: number;

beforeAll(() => {
  fixture = fixtureStore();
  const store = RollStore.open(fixture.db);
  try {
    const dice = ['R1', 'R2'].map((l) => store.findDie(l)).filter((d) => d !== undefined);
    const s = store.createSession({ name: 'real-again', config: {}, simulated: false, startedAt: START + 9e8 });
    for (let n = 0; n < 40; n++) {
      store.recordThrow(s.id, {
        startedAt: START + 9e8 + n * 1000,
        endedAt: START + 9e8 + n * 1000 + 500,
        status: 'ok',
        rolls: dice.map((d, i) => ({ dieId: d.id, channel: i, faceId: n % 2 === 0 ? 'focus-1' : 'blank-2', symbol: n % 2 === 0 ? 'focus' : 'blank' })),
      });
    }
    // The session's own verdicts, as a session run stores them: pool shows them as is.
    store.saveVerdicts(s.id, START + 9e8 + 50_000, { errorControl: { alpha: 0.001, dice: 2 }, dice: [{ label: 'R1', kind: 'INCONCLUSIVE', sentence: 'INCONCLUSIVE: stored sentence of R1.' }] });
    again = s.id;
  } finally {
    store.close();
  }
});

afterAll(() => rmSync(fixture.dir, { recursive: true, force: true }));

interface PoolJson {
  type: string;
  sessions?: { id: number; name: string; simulated: boolean }[];
  pool: { label: string; rolls: number; score: number }[];
  ranking: { label: string; rolls: number }[];
  excluded: { label: string; reason: string }[];
  certifiedDelta: number;
}

async function pool(...args: string[]): Promise<PoolJson> {
  const r = await runCli('pool', ...args, '--json');
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.out) as PoolJson;
}

describe('dicerig pool from sessions in the store', () => {
  it('shows the verdicts the sessions made and stored, as is', async () => {
    const r = await runCli('pool', 'real-600', 'real-again', '--db', fixture.db, '--size', '1', '--colour', 'red', '--json');
    expect(r.code, r.err).toBe(0);
    const json = JSON.parse(r.out) as { sessionVerdicts?: Record<string, { session: number; kind: string; sentence: string }[]> };
    expect(json.sessionVerdicts).toEqual({ R1: [{ session: again, kind: 'INCONCLUSIVE', sentence: 'INCONCLUSIVE: stored sentence of R1.' }] });
    const text = await runCli('pool', 'real-600', 'real-again', '--db', fixture.db, '--size', '1', '--colour', 'red');
    expect(text.out).toContain(`Verdicts as the sessions made them:\n  R1 (session ${again}): INCONCLUSIVE: stored sentence of R1.`);
  });

  it('pools the dice of a session by its name, leaving the loaded die out', async () => {
    const json = await pool('real-600', '--db', fixture.db, '--size', '1', '--colour', 'red');
    expect(json.sessions).toEqual([{ id: fixture.sessions.real.id, name: 'real-600', simulated: false }]);
    expect(json.pool.map((d) => d.label)).toEqual(['R1']);
    expect(json.excluded).toEqual([{ label: 'R2', reason: 'rejected as unfair after multiplicity control' }]);
    expect(json.pool[0]?.rolls).toBe(fixture.sessions.real.ok);
    expect(json.certifiedDelta).toBe(json.pool[0]?.score);
  });

  it('joins a die’s rolls across sessions given by id and name', async () => {
    const json = await pool(String(fixture.sessions.real.id), 'real-again', '--db', fixture.db, '--size', '1', '--colour', 'red', '--alpha', '0.01');
    const rolls = Object.fromEntries([...json.ranking, ...json.pool].map((d) => [d.label, d.rolls]));
    expect(rolls.R1).toBe(fixture.sessions.real.ok + 40);
  });

  it('still reads roll-log files, also next to sessions', async () => {
    const file = join(fixture.dir, 'extra.csv');
    const random = seededRandom(5);
    const faces = redAttackDie.faces.map((f) => f.id);
    writeFileSync(file, `die,type,face\n${Array.from({ length: 200 }, () => `X9,red,${faces[Math.floor(random() * 8)]}`).join('\n')}\n`);
    const json = await pool(file, 'real-600', '--db', fixture.db, '--size', '2', '--colour', 'red');
    expect(json.ranking.map((d) => d.label).sort()).toEqual(['R1', 'X9']);
    const text = await runCli('pool', file, 'real-600', '--db', fixture.db, '--size', '1', '--colour', 'red');
    expect(text.out.split('\n')[0]).toBe(`From session ${fixture.sessions.real.id} (real-600).`);
  });

  it('never pools simulated rolls with real ones', async () => {
    const r = await runCli('pool', 'demo-loaded', 'real-600', '--db', fixture.db, '--size', '1', '--colour', 'red');
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `dicerig: session ${fixture.sessions.main.id} (demo-loaded) is simulated and cannot be pooled with session ${fixture.sessions.real.id} (real-600): simulated rolls never mix with real ones\n`,
    );
  });

  it('refuses a simulated session beside a real roll-log file and a real session beside a simulated export, and tells a simulated session given with its own export that it would count twice', async () => {
    const real = join(fixture.dir, 'real-rows.csv');
    const faces = redAttackDie.faces.map((f) => f.id);
    writeFileSync(real, `die,type,face\n${Array.from({ length: 40 }, (_, i) => `X8,red,${faces[i % 8]}`).join('\n')}\n`);
    const mixed = await runCli('analyze', real, 'demo-loaded', '--db', fixture.db);
    expect(mixed.code).toBe(1);
    expect(mixed.err).toBe(`dicerig: session ${fixture.sessions.main.id} (demo-loaded) is simulated and cannot be pooled with ${real}: simulated rolls never mix with real ones\n`);

    const ownExport = join(fixture.dir, 'demo-loaded.csv');
    expect((await runCli('export', 'demo-loaded', '--db', fixture.db, '--out', ownExport)).code).toBe(0);
    const twice = await runCli('analyze', ownExport, 'demo-loaded', '--db', fixture.db);
    expect(twice.code).toBe(1);
    expect(twice.err).toMatch(/count twice/);
    expect(twice.err).not.toMatch(/simulated and cannot be pooled/);

    const realBeside = await runCli('analyze', ownExport, 'real-600', '--db', fixture.db);
    expect(realBeside.code).toBe(1);
    expect(realBeside.err).toBe(`dicerig: ${ownExport} is simulated and cannot be pooled with session ${fixture.sessions.real.id} (real-600): simulated rolls never mix with real ones\n`);
  });

  it('refuses a session beside a copy of its export without the manifest, and two copies of one export, as one record counted twice', async () => {
    const exported = join(fixture.dir, 'real-600.csv');
    expect((await runCli('export', 'real-600', '--db', fixture.db, '--out', exported)).code).toBe(0);
    const copy = join(fixture.dir, 'real-600-copy.csv');
    copyFileSync(exported, copy);
    const beside = await runCli('analyze', 'real-600', copy, '--db', fixture.db);
    expect(beside.code).toBe(1);
    expect(beside.err).toMatch(new RegExp(`^dicerig: session ${fixture.sessions.real.id} \\(real-600\\) and ${copy.replace(/[.]/g, '\\.')} hold the same 600 rolls of die \\S+, in the same order: one is a copy of the other \\(an export without its manifest, say\\), and its rolls would count twice: give one of them\n$`));
    const twoCopies = await runCli('pool', exported, copy, '--size', '1', '--colour', 'red');
    expect(twoCopies.code).toBe(1);
    expect(twoCopies.err).toMatch(/hold the same 600 rolls of die \S+, in the same order: one is a copy of the other/);
  });

  it('says a simulated session’s pool is simulated', async () => {
    const r = await runCli('pool', 'demo-loaded', '--db', fixture.db, '--size', '1', '--colour', 'red');
    expect(r.err).toBe('');
    expect(r.out.split('\n')[0]).toBe(`From session ${fixture.sessions.main.id} (demo-loaded) (SIMULATED rolls: not evidence about real dice).`);
  });

  it('names the argument that is neither a file nor a session, and the sessions there are', async () => {
    const r = await runCli('pool', 'no-such-thing', '--db', fixture.db, '--size', '1');
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `dicerig: no-such-thing: no such file, and there is no session "no-such-thing" in ${fixture.db}; sessions: 1 (demo-loaded), 2 (real-600), 3 (all-void), ${again} (real-again).\n`,
    );
    const none = await runCli('pool', 'x.csv', '--db', join(fixture.dir, 'absent.db'), '--size', '1');
    expect(none.err).toBe(`dicerig: x.csv: no such file, and no roll store to look it up in as a session (There is no roll store at ${join(fixture.dir, 'absent.db')}.)\n`);
  });
});
