import type pg from 'pg';
import { fleetClientClass } from './fleetClient.js';
import { FleetError, FleetLoginError, FleetUnreachableError } from './errors.js';
import { migrateFleet, readableFleetSchema } from './migrations.js';

/** True when `text` names a PostgreSQL fleet store rather than a local roll store file. */
export function isFleetUrl(text: string | undefined): text is string {
  return text !== undefined && /^postgres(ql)?:\/\//i.test(text.trim());
}

/** The URL as it may be shown: the password (`user:PASSWORD@`, or `?password=`) replaced by `***`. */
export function redactUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:/@?]*):[^@/?]*@/i, '$1:***@').replace(/([?&]password=)[^&#]*/gi, '$1***');
}

/** Said after a command whose URL `commandUrl` left the password out of. */
export const PASSWORD_HINT = '   # the password: PGPASSWORD=... or a ~/.pgpass line';

/**
 * A shown URL (see `redactUrl`) as a command can take it: without the password, which the user then gives by
 * PGPASSWORD or ~/.pgpass (a pasted `user:***@` would log in with the password `***`). `passwordLeftOut`: the URL had one.
 */
export function commandUrl(shown: string): { url: string; passwordLeftOut: boolean } {
  const url = shown.replace(/^(postgres(?:ql)?:\/\/[^:/@?]*):\*\*\*@/i, '$1@').replace(/([?&])password=\*\*\*(&|$)/gi, (_m, before: string, after: string) => (after === '&' ? before : ''));
  return { url, passwordLeftOut: url !== shown };
}

/** Where the URL says the server is, for messages ("the socket folder /x", "host h port p"). */
function serverOf(url: string): string {
  try {
    // WHATWG URLs refuse credentials with no host (postgres://user:pw@/db?host=/sock), which pg accepts: the server is
    // named by the rest, so drop the credentials before parsing.
    const u = new URL(url.replace(/^(postgres(?:ql)?:\/\/)[^@/?]*@/i, '$1'));
    const host = u.searchParams.get('host') ?? (u.hostname === '' ? undefined : decodeURIComponent(u.hostname));
    if (host === undefined) return 'the default socket /var/run/postgresql';
    if (host.startsWith('/')) return `the unix socket in ${host}`;
    return `${host} port ${u.port === '' ? '5432' : u.port}`;
  } catch {
    return 'the server the URL names';
  }
}

// BIGINT columns hold times in ms and ids: read them as numbers (exact below 2^53), not strings.
const INT8 = 20;
const typesOf = (lib: typeof pg): { getTypeParser: typeof pg.types.getTypeParser } => ({
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === INT8 ? (v: string) => Number(v) : lib.types.getTypeParser(oid, format))) as typeof pg.types.getTypeParser,
});

/**
 * A pooled client for a unit of work. A checked-out client whose server goes
 * away emits 'error' (which would crash the process); the listener swallows
 * it, since the query in flight fails with the same error and is handled there.
 */
export async function checkout(pool: pg.Pool): Promise<{ client: pg.PoolClient; release: (broken?: boolean) => void }> {
  const client = await pool.connect();
  const ignore = (): void => undefined;
  client.on('error', ignore);
  return {
    client,
    release: (broken = false) => {
      client.off('error', ignore);
      // A client whose connection broke is dropped, never reused; keep a listener for late errors of a dropped one.
      if (broken) client.on('error', ignore);
      client.release(broken);
    },
  };
}

/** A fleet store connection pool, its schema brought up to date. */
export interface FleetDb {
  readonly pool: pg.Pool;
  /** The URL as it may be shown (no password). */
  readonly where: string;
  close(): Promise<void>;
}

/** What went wrong in words, with the code after them when the words do not hold it ("the database system is starting up, 57P03"). */
function inWords(message: string | undefined, code: string): string {
  const words = (message ?? '').trim();
  if (words === '') return code === '' ? 'no answer' : code;
  return code === '' || words.includes(code) ? words : `${words}, ${code}`;
}

/** A thrown pg or socket error as the one line a user should see: what failed and what to check. */
export function fleetFailure(e: unknown, where: string, url: string, doing: string): unknown {
  if (e instanceof FleetError) return e;
  const err = e as { code?: string; message?: string };
  const code = err.code ?? '';
  const server = serverOf(url);
  if (['ECONNREFUSED', 'ENOENT', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTFOUND', 'ECONNRESET', 'EPIPE', '57P01', '57P02', '57P03', '08006', '08001', '08003'].includes(code) || /Connection terminated|connection timeout|not queryable/i.test(err.message ?? '')) {
    return new FleetUnreachableError(
      `Cannot reach the fleet store ${where} while ${doing} (${inWords(err.message, code)}): check that PostgreSQL is running and listening on ${server}, and that this host can reach it.`,
      { url: where },
      { cause: e },
    );
  }
  if (code === '3D000') return new FleetError(`The fleet store ${where} does not exist on ${server}: create it first (e.g. \`createdb\`).`, { url: where }, { cause: e });
  if (code === '28P01' || code === '28000') return new FleetLoginError(`The fleet store ${where} refused the login (${err.message}): check the user and password (in the URL, PGPASSWORD or ~/.pgpass) and pg_hba.conf.`, { url: where }, { cause: e });
  // A reader of a database no dicerig has synced to yet (it makes no tables).
  if (code === '42P01') return new FleetError(`The fleet store ${where} holds nothing of dicerig's yet: \`dicerig sync --to URL\` (or run --fleet) from a rig host makes its tables and copies its sessions.`, { url: where }, { cause: e });
  if (code === '42501') return new FleetError(`The fleet store ${where} refused ${doing}: the user lacks permission (${err.message}).`, { url: where }, { cause: e });
  if (code !== '') return new FleetError(`The fleet store ${where} failed while ${doing}: ${err.message} (${code}).`, { url: where }, { cause: e });
  return e;
}

/**
 * Connects to the fleet store named by a `postgres://` URL (a unix socket:
 * `postgres:///DB?host=/path/to/socketdir`) and migrates it (`readOnly`: checks
 * its schema is current, or not made yet, and changes nothing). Fails with one
 * FleetError line naming the URL (without password) and what to check.
 */
export async function openFleet(url: string, options: { readonly max?: number; readonly connectTimeoutMs?: number; readonly migrate?: boolean; readonly readOnly?: boolean } = {}): Promise<FleetDb> {
  const where = redactUrl(url);
  // Loaded here, not at the top: every command that can read a fleet store (most of them) paid ~55 ms for pg.
  const lib = (await import('pg')).default;
  let pool: pg.Pool;
  try {
    pool = new lib.Pool({ connectionString: url, max: options.max ?? 4, connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000, types: typesOf(lib), Client: fleetClientClass(where, lib) });
  } catch (e) {
    throw new FleetError(`The fleet store URL ${where} cannot be read: ${(e as Error).message}. Write it as postgres://USER@HOST/DB or postgres:///DB?host=/socket/dir.`, { url: where }, { cause: e });
  }
  // An idle client losing its server (PostgreSQL restarted) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  try {
    if (options.migrate !== false) {
      const { client, release } = await checkout(pool);
      try {
        // A reader checks the schema is one it reads and leaves it as it is (see readableFleetSchema).
        if (options.readOnly === true) await readableFleetSchema(client, where);
        else await migrateFleet(client, where);
      } finally {
        release();
      }
    }
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw fleetFailure(e, where, url, 'opening it');
  }
  return { pool, where, close: () => pool.end() };
}
