/**
 * Which process writes a rig session. Two processes resuming one session would both append throws to it (every roll
 * stored twice, the budget spent twice over), so a session is claimed by the process that writes it: one row per
 * session, read and written in one IMMEDIATE transaction, so two claims made at the same moment are serialised by
 * SQLite and the second sees the first's row. The row names the process (pid, host, boot, start time, PID namespace), so a claim
 * left by a process that died (kill -9, a power loss) is told from a live one and taken over; one held on another
 * host cannot be judged from here and is taken over only when the user says so.
 */
import { randomUUID } from 'node:crypto';
import { SessionLockedError } from './errors.js';
import { inOtherPidNamespace, liveness, thisProcess, type ProcessIdentity } from './processLiveness.js';
import type { Database } from './sqlite.js';

/** A claim as stored: the process and when it took the session. */
export interface SessionLockHolder extends ProcessIdentity {
  readonly takenAt: number;
}

export interface ClaimOptions {
  /** Take over a claim held on another host (whose process cannot be seen from here): the user says it is gone. */
  readonly takeOver?: boolean;
}

/** What a claim found: undefined (free, or this connection's already), or the dead (or given up) holder it replaced. */
export type ClaimResult = { readonly tookOverFrom: SessionLockHolder; readonly why: 'dead' | 'taken-over' } | undefined;

interface LockRow {
  token: string;
  pid: number;
  host: string;
  bootId: string;
  procStart: string;
  pidNs: string;
  takenAt: number;
}

export class SessionLocks {
  /** This connection's claims carry it; closing the store releases them. */
  private readonly token = randomUUID();

  constructor(
    private readonly db: Database,
    private readonly path: string,
  ) {}

  /** Claims the session for this connection, in the caller's transaction if there is one (else its own, IMMEDIATE). */
  claim(sessionId: number, options: ClaimOptions = {}): ClaimResult {
    return this.db.transaction((): ClaimResult => {
      const row = this.db
        .prepare<LockRow>('SELECT token, pid, host, boot_id AS bootId, proc_start AS procStart, pid_ns AS pidNs, taken_at AS takenAt FROM session_locks WHERE session_id = ?')
        .get(sessionId);
      if (row?.token === this.token) return undefined;
      let result: ClaimResult;
      if (row !== undefined) {
        const { token: _token, ...holder } = row;
        const state = liveness(holder);
        if (state === 'alive' || (state === 'unknown' && options.takeOver !== true)) throw this.lockedError(sessionId, holder, state);
        result = { tookOverFrom: holder, why: state === 'dead' ? 'dead' : 'taken-over' };
      }
      const me = thisProcess();
      this.db
        .prepare('INSERT OR REPLACE INTO session_locks (session_id, token, pid, host, boot_id, proc_start, pid_ns, taken_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(sessionId, this.token, me.pid, me.host, me.bootId, me.procStart, me.pidNs, Date.now());
      return result;
    }).immediate();
  }

  /** Every session's claim as stored, by session id: who last took it and has not let it go (`sessions` tells a dead holder from a live one). */
  holders(): Map<number, SessionLockHolder> {
    const rows = this.db
      .prepare<LockRow & { sessionId: number }>('SELECT session_id AS sessionId, token, pid, host, boot_id AS bootId, proc_start AS procStart, pid_ns AS pidNs, taken_at AS takenAt FROM session_locks')
      .all();
    return new Map(rows.map(({ sessionId, token: _token, ...holder }) => [sessionId, holder]));
  }

  /** Releases every claim of this connection (the store is closing: its process writes no more). */
  releaseAll(): void {
    this.db.prepare('DELETE FROM session_locks WHERE token = ?').run(this.token);
  }

  private lockedError(sessionId: number, holder: SessionLockHolder, state: 'alive' | 'unknown'): SessionLockedError {
    const since = new Date(holder.takenAt).toISOString();
    const container = inOtherPidNamespace(holder);
    const who = `process ${holder.pid} ${container ? `in another PID namespace (a container) on host ${holder.host}` : `on host ${holder.host}`} (since ${since})`;
    const todo =
      state === 'alive'
        ? `Wait for it to end, or stop it (Ctrl-C in its terminal, or kill -INT ${holder.pid}: it stops after the current throw), then resume again.`
        : container
          ? `This process cannot see that one's processes: stop it in its container, or, if it is gone (the container stopped), resume with --take-over.`
          : `This host cannot tell whether it still runs: stop it on ${holder.host}, or, if that process is gone (its host crashed or is off), resume with --take-over.`;
    return new SessionLockedError(
      `Session ${sessionId} in ${this.path} is being run by ${who}; a second run would store every throw twice, so this one writes nothing. ${todo}`,
      { db: this.path, session: sessionId, pid: holder.pid, host: holder.host },
    );
  }
}

/** How a take-over is said: whose claim was replaced and why that was safe. */
export function takeOverNotice(sessionId: number, claim: NonNullable<ClaimResult>): string {
  const h = claim.tookOverFrom;
  const why = claim.why === 'dead' ? 'which is no longer running (killed, crashed, or the machine restarted)' : 'as --take-over asked';
  return `session ${sessionId} was left claimed by process ${h.pid} on host ${h.host} (since ${new Date(h.takenAt).toISOString()}), ${why}: this run takes it over`;
}
