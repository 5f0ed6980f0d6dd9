import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/**
 * A scratch PostgreSQL server for tests: its own cluster in a temporary folder,
 * reachable only on a unix socket in that folder (no TCP), stopped and started
 * on demand (the fault tests stop it mid-sync), and removed afterwards. It never
 * touches the package's own cluster (running or not).
 *
 * PostgreSQL refuses to run as root; as root (here and in CI) the server runs as
 * the `postgres` user the Debian package creates, with its folders chowned to it.
 */
export interface ScratchPostgres {
  /** The folder holding the server's socket (`host=` of a unix-socket URL). */
  readonly socketDir: string;
  /** A URL of database `name` on this server (`postgres:///name?host=SOCKETDIR&user=postgres`; never with the password). */
  url(name: string): string;
  /** The superuser's name (`user=` of the URLs). */
  readonly user: string;
  /** Creates a fresh database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  start(): Promise<void>;
  /** `fast` rolls back open transactions and disconnects clients; `immediate` is a crash (recovery on the next start). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  readonly running: boolean;
  /** Stops the server and deletes its folder. */
  remove(): Promise<void>;
}

/** The newest installed server's bin folder (Debian: /usr/lib/postgresql/<major>/bin). */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'initdb'))) : [];
  majors.sort((a, b) => Number(b) - Number(a));
  if (majors[0] === undefined) throw new Error('PostgreSQL is not installed (no /usr/lib/postgresql/<version>/bin/initdb): run scripts/setup.sh (apt package `postgresql`).');
  return join(root, majors[0], 'bin');
}

const isRoot = (): boolean => process.getuid?.() === 0;

/** The server user's uid/gid when we are root, else undefined (the server runs as us). */
function serverUser(): { uid: number; gid: number } | undefined {
  if (!isRoot()) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (line === undefined) throw new Error('running as root, and there is no `postgres` user to run PostgreSQL as (install the Debian package `postgresql`).');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * `password`: the server asks every client for the superuser's password (SCRAM), as a fleet store on a network does;
 * without it every local client is trusted.
 */
export async function startScratchPostgres(settings: { readonly password?: string } = {}): Promise<ScratchPostgres> {
  const bin = postgresBinDir();
  const owner = serverUser();
  const base = mkdtempSync(join(tmpdir(), 'dicerig-pg-'));
  const data = join(base, 'data');
  const socketDir = join(base, 'sock');
  const log = join(base, 'server.log');
  mkdirSync(socketDir);
  if (owner !== undefined) for (const p of [base, socketDir]) chownSync(p, owner.uid, owner.gid);

  const asServer = async (tool: string, args: readonly string[]): Promise<string> => {
    const [cmd, argv] = owner !== undefined ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), [...args]];
    try {
      const { stdout } = await run(cmd, argv, { cwd: base, env: { ...process.env, LC_ALL: 'C', LANG: 'C' } });
      return stdout;
    } catch (e) {
      const err = e as Error & { stderr?: string };
      const tail = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
      throw new Error(`${tool} ${args.join(' ')} failed: ${err.stderr ?? err.message}\n${tail}`, { cause: e });
    }
  };

  const superuser = owner !== undefined ? 'postgres' : userInfo().username;
  let auth = ['--auth=trust'];
  if (settings.password !== undefined) {
    const pwfile = join(base, 'pwfile');
    writeFileSync(pwfile, `${settings.password}\n`, { mode: 0o600 });
    if (owner !== undefined) chownSync(pwfile, owner.uid, owner.gid);
    auth = ['--auth=scram-sha-256', `--pwfile=${pwfile}`];
  }
  await asServer('initdb', ['-D', data, '-U', superuser, ...auth, '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions']);
  // Tests only: no fsync (a machine crash is not what they simulate; `stop('immediate')` still exercises recovery).
  const options = `-k ${socketDir} -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60`;
  let running = false;
  const server: ScratchPostgres = {
    socketDir,
    user: superuser,
    url: (name) => `postgres:///${name}?host=${encodeURIComponent(socketDir)}&user=${superuser}`,
    async createDatabase(name) {
      const client = new pg.Client({ host: socketDir, user: superuser, database: 'postgres', ...(settings.password !== undefined ? { password: settings.password } : {}) });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      } finally {
        await client.end();
      }
      return server.url(name);
    },
    async start() {
      await asServer('pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', '-t', '60', 'start']);
      running = true;
    },
    async stop(mode = 'fast') {
      await asServer('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
      running = false;
    },
    get running() {
      return running;
    },
    async remove() {
      try {
        if (running) await server.stop('immediate');
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    },
  };
  try {
    await server.start();
  } catch (e) {
    rmSync(base, { recursive: true, force: true });
    throw e;
  }
  return server;
}
