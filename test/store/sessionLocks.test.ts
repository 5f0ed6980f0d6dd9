import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { pidNamespace } from '../../src/store/processLiveness.js';
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
  // `unshare --pid` needs root (CI runs as root); elsewhere this case cannot be made and is skipped.
  const canUnshare = process.getuid?.() === 0 && spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']).status === 0;
  it.runIf(canUnshare)('refuses, unless told to take it over, a claim held by a live process in another PID namespace on this host (a container), whose pid names another process here', async () => {
    const path = tempDbPath();
    const a = RollStore.open(path);
    const session = a.createSession({ config: {}, simulated: true, startedAt: 1 });
    a.close();
    // A real process in a PID namespace of its own (pid 1 there) claims the session and holds it until told to end.
    const store = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'src', 'store', 'rollStore.js');
    const script = `const { RollStore } = await import(${JSON.stringify(store)}); const s = RollStore.open(${JSON.stringify(path)}); s.claimSession(${session.id}); console.log(process.pid); process.stdin.on('data', () => {}); process.stdin.on('end', () => { s.close(); });`;
    const child = spawn('unshare', ['--pid', '--fork', '--mount-proc', process.execPath, '--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const [line] = (await once(child.stdout, 'data')) as [Buffer];
      expect(Number(line.toString().trim())).toBe(1);
      const raw = openDatabase(path, { readonly: true });
      const held = raw.prepare('SELECT pid, pid_ns AS pidNs FROM session_locks WHERE session_id = ?').get(session.id) as { pid: number; pidNs: string };
      raw.close();
      expect(held.pid).toBe(1);
      expect(held.pidNs).toMatch(/^pid:\[\d+\]$/);
      expect(held.pidNs).not.toBe(pidNamespace());
      const b = RollStore.open(path);
      try {
        // Pid 1 here is this machine's init, alive and started at another time: judged by it, the claim looked dead.
        const e = errorOf(() => b.claimSession(session.id));
        expect(e).toBeInstanceOf(SessionLockedError);
        expect(e.message).toContain(`process 1 in another PID namespace (a container) on host ${hostname()}`);
        expect(e.message).toContain('resume with --take-over');
        expect(b.claimSession(session.id, { takeOver: true })).toMatchObject({ why: 'taken-over', tookOverFrom: { pid: 1, pidNs: held.pidNs } });
      } finally {
        b.close();
      }
    } finally {
      child.stdin.end();
      await once(child, 'exit');
    }
  }, 30_000);
});
