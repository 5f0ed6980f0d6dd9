import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
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
  const initdb = ['-U', superuser, ...auth, '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'];
  // The template's name: what makes two clusters differ (not the password file's path, which is this server's own).
  const key = JSON.stringify([bin, superuser, settings.password ?? null, initdb.filter((a) => !a.startsWith('--pwfile='))]);
  const template = await templateCluster(key, (args) => asServer('initdb', [...args, ...initdb]));
  if (template !== undefined) await run('cp', ['-a', template, data]);
  else await asServer('initdb', ['-D', data, ...initdb]);
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

/**
 * A cluster's data folder made by initdb once per test run and copied for each scratch server: initdb costs 1.5-2 s of
 * CPU (most of it building the system catalogues), a copy of its 40 MB under 0.1 s; every server still runs on a
 * cluster of its own. It lies in the run's temporary folder (globalSetup sets TMPDIR), so the workers share it and it
 * goes with the run. The first caller makes it; the others wait for its `ready` mark (a lock folder made with mkdir,
 * which only one process can make). Undefined when it cannot be had in time: the caller runs initdb itself.
 * The template is never started, so a copy is a cluster shut down cleanly. `key` names what makes clusters differ
 * (the server, its superuser, its password if it asks for one, initdb's options).
 */
async function templateCluster(key: string, initdb: (args: readonly string[]) => Promise<string>): Promise<string | undefined> {
  const root = join(tmpdir(), `dicerig-pg-template-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`);
  const data = join(root, 'data');
  const ready = join(root, 'ready');
  if (existsSync(ready)) return data;
  try {
    mkdirSync(root);
  } catch {
    // Another process is making it: wait for it (initdb takes seconds; minutes on a very busy machine).
    for (let waited = 0; waited < 180_000; waited += 100) {
      if (existsSync(ready)) return data;
      if (!existsSync(root)) return undefined; // its maker failed
      await sleep(100);
    }
    return undefined;
  }
  try {
    const owner = serverUser();
    if (owner !== undefined) chownSync(root, owner.uid, owner.gid);
    await initdb(['-D', data]);
    writeFileSync(ready, '');
    return data;
  } catch (e) {
    rmSync(root, { recursive: true, force: true });
    throw e;
  }
}
