import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { SessionLockedError } from '../../src/store/errors.js';
import { RollStore } from '../../src/store/rollStore.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { simRig, tempDbPath } from './support/fixtures.js';

function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

describe('session locks', () => {
  it('keeps a rig session to the connection that created it until that connection closes', () => {
    const path = tempDbPath();
    const a = RollStore.open(path);
    const rig = a.registerRig(simRig);
    const session = a.createSession({ config: {}, simulated: true, rigId: rig.id, startedAt: 1 });
    const b = RollStore.open(path);
    try {
      const e = errorOf(() => b.resumeSession(session.id, 2));
      expect(e).toBeInstanceOf(SessionLockedError);
      expect(e.message).toContain(`Session ${session.id} in ${path} is being run by process ${process.pid} on host ${hostname()}`);
      expect((e as SessionLockedError).context).toMatchObject({ db: path, session: session.id, pid: process.pid, host: hostname() });
      // Refused before anything was written.
      expect(b.events(session.id)).toEqual([]);
      // A new session beside it is another session: both stores write at once.
      const other = b.createSession({ config: {}, simulated: true, rigId: rig.id, startedAt: 3 });
      expect(other.id).not.toBe(session.id);
      a.close();
      expect(b.resumeSession(session.id, 4).lastThrowIndex).toBe(0);
    } finally {
      a.close();
      b.close();
    }
  });

  it('takes over a claim whose process has ended, and says whose it was', () => {
    const path = tempDbPath();
    const a = RollStore.open(path);
    const session = a.createSession({ config: {}, simulated: true, startedAt: 1 });
    a.close();
    // A real process that has ended: its pid names nobody now.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(gone.stdout);
    const raw = openDatabase(path);
    raw.prepare("INSERT INTO session_locks (session_id, token, pid, host, taken_at) VALUES (?, 'crashed', ?, ?, 5)").run(session.id, deadPid, hostname());
    raw.close();
    const b = RollStore.open(path);
    try {
      expect(b.claimSession(session.id)).toMatchObject({ why: 'dead', tookOverFrom: { pid: deadPid, host: hostname(), takenAt: 5 } });
      // Claimed again by the same connection: nothing to take over.
      expect(b.claimSession(session.id)).toBeUndefined();
    } finally {
      b.close();
    }
  });

  it('refuses a claim held on another host unless told to take it over', () => {
    const path = tempDbPath();
    const a = RollStore.open(path);
    const session = a.createSession({ config: {}, simulated: true, startedAt: 1 });
    a.close();
    const raw = openDatabase(path);
    raw.prepare("INSERT INTO session_locks (session_id, token, pid, host, taken_at) VALUES (?, 'elsewhere', 4242, 'other-rig-host', 5)").run(session.id);
    raw.close();
    const b = RollStore.open(path);
    try {
      const e = errorOf(() => b.claimSession(session.id));
      expect(e.message).toContain('process 4242 on host other-rig-host');
      expect(e.message).toContain('resume with --take-over');
      expect(b.claimSession(session.id, { takeOver: true })).toMatchObject({ why: 'taken-over', tookOverFrom: { pid: 4242 } });
    } finally {
      b.close();
    }
  });
});
