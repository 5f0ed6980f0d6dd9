import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allDice } from '../../src/dice/catalogue.js';
import { openFleet } from '../../src/fleet/connect.js';
import { FleetView } from '../../src/server/fleet/fleetView.js';
import { tempDir } from '../store/support/fixtures.js';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';
import { cliProcess } from './support/cliProcess.js';
import { runCli } from '../cli/runCli.js';

const PASSWORD = 'fleet-pw';
let server: ScratchPostgres;
let dir: string;
let n = 0;
let url: string;

beforeAll(async () => {
  server = await startScratchPostgres({ password: PASSWORD });
  dir = tempDir('dicerig-fleet-login-');
  url = await server.createDatabase('login');
}, 60_000);
afterAll(async () => {
  await server?.remove();
});

/** An environment with no password anywhere: no PGPASSWORD, and a home of its own (with `pgpass` as its ~/.pgpass, mode `mode`). */
function env(pgpass?: string, mode = 0o600): NodeJS.ProcessEnv {
  const home = tempDir('dicerig-home-');
  if (pgpass !== undefined) {
    writeFileSync(join(home, '.pgpass'), pgpass);
    chmodSync(join(home, '.pgpass'), mode);
  }
  const { PGPASSWORD: _p, PGPASSFILE: _f, ...rest } = process.env;
  return { ...rest, HOME: home };
}

/** The CLI in a process of its own, and how long it took to end. */
async function timed(args: readonly string[], environment: NodeJS.ProcessEnv) {
  const started = Date.now();
  const end = await cliProcess(args, environment).ended;
  return { ...end, ms: Date.now() - started };
}

function sessionConfig(budget: number): string {
  const file = join(dir, `s${++n}.yaml`);
  writeFileSync(file, `seed: ${n}\ndice:\n  - { label: q-A, type: d6 }\n  - { label: q-B, type: d6 }\nrig:\n  driver: sim\nstopping: { budgetRolls: ${budget} }\n`);
  return file;
}

// A process that does not end on its own is held by a socket the server closes only after its authentication_timeout (60 s).
const PROMPT_MS = 15_000;

describe('a fleet store that asks for a password (a real PostgreSQL with SCRAM logins)', () => {
  const none = (): RegExp =>
    new RegExp(`^dicerig: The fleet store postgres:///login\\S* asks for a password, and there is no password for user ${server.user} at ${server.socketDir}:5432: put it in the URL, PGPASSWORD or \\S+/\\.pgpass\\.\\n$`);

  it('says which password is missing and ends with status 1, in sessions, sync and serve, when neither the URL, PGPASSWORD nor ~/.pgpass has one', async () => {
    const local = join(dir, 'none.db');
    // The local session to copy, made in this process: no fleet store is involved yet.
    expect((await runCli('run', sessionConfig(3), '--db', local, '--plain')).code).toBe(0);
    for (const args of [
      ['sessions', '--db', url],
      ['sync', '--db', local, '--to', url],
      ['serve', '--db', url, '--port', '0'],
    ]) {
      const end = await timed(args, env());
      expect(end.code, `${args[0]}: ${end.err}`).toBe(1);
      expect(end.err, args[0]).toMatch(none());
      expect(end.ms, args[0]).toBeLessThan(PROMPT_MS);
    }
  }, 90_000);

  it('runs a session to its end without the fleet copy when no password is known, says how to copy it later, and exits', async () => {
    const local = join(dir, 'run.db');
    const end = await timed(['run', sessionConfig(10), '--db', local, '--plain', '--fleet', url], env());
    expect(end.code, end.err).toBe(0);
    expect(end.ms).toBeLessThan(PROMPT_MS);
    expect(end.out).toMatch(/Session 1 finished/);
    // Said once, not at every retry: retrying cannot find a password.
    expect(end.err.match(/asks for a password/g)).toHaveLength(1);
    expect(end.err).toMatch(/fleet: replication to postgres:\/\/\/login\S* stopped: .*there is no password for user .* The session goes on; its throws stay in the local store/);
    expect(end.out).toMatch(new RegExp(`Fleet store postgres:///login\\S*: nothing more was copied \\(.*\\); every throw is safe in the local store: once the login works, run \`dicerig sync --db ${local.replace(/[.]/g, '\\.')} --to URL\` later\\.`));
    const later = await timed(['sync', '--db', local, '--to', url], { ...env(), PGPASSWORD: PASSWORD });
    expect(later.code, later.err).toBe(0);
    expect(later.out).toMatch(/^Copied 10 throws/);
  }, 90_000);

  it('logs in with the password of a matching ~/.pgpass line, with no deprecation warning; a ~/.pgpass others can read is ignored, and said so', async () => {
    const line = `${server.socketDir}:5432:login:${server.user}:${PASSWORD}\n`;
    const ok = await timed(['sessions', '--db', url], env(line));
    expect(ok.code, ok.err).toBe(0);
    expect(ok.err).toBe('');
    expect(ok.out).toMatch(/^fleet id .*from/);
    const open = await timed(['sessions', '--db', url], env(line, 0o644));
    expect(open.code).toBe(1);
    expect(open.err).toMatch(/put it in the URL, PGPASSWORD or \S+\/\.pgpass; that file is ignored while others can read it, as libpq ignores it: chmod 600 it\.\n$/);
  }, 60_000);

  it('shows on the fleet dashboard a report command that works when pasted: the password left out of its URL, and said how to give it', async () => {
    const local = join(dir, 'dashboard.db');
    expect((await runCli('run', sessionConfig(4), '--db', local, '--plain')).code).toBe(0);
    expect((await timed(['sync', '--db', local, '--to', url], { ...env(), PGPASSWORD: PASSWORD })).code).toBe(0);
    const withPassword = `${url}&password=${PASSWORD}`;
    const fleet = await openFleet(withPassword);
    let command: string;
    try {
      const view = new FleetView({ fleet, dice: allDice(), pollMs: 100, now: () => Date.now() });
      const shown = (await view.state()).sessions.find((x) => x.originDb === local);
      command = shown?.reportCommand ?? '';
    } finally {
      await fleet.close();
    }
    expect(command).not.toContain(PASSWORD);
    expect(command).not.toContain('***');
    expect(command).toMatch(/^dicerig report \d+ --db '[^']+' +# the password: PGPASSWORD=\.\.\. or a ~\/\.pgpass line$/);
    const [, id, db] = /^dicerig report (\d+) --db '([^']+)'/.exec(command) ?? [];
    const pasted = await timed(['report', id as string, '--db', db as string, '--json', '--out', join(dir, 'pasted')], { ...env(), PGPASSWORD: PASSWORD });
    expect(pasted.code, pasted.err).toBe(0);
  }, 60_000);

  it('prints after campaign create a rig host command that works when pasted: the password left out of its URL, and said how to give it', async () => {
    const box = join(dir, 'box.csv');
    writeFileSync(box, 'label,die\nB1,d6\nB2,d6\n');
    const created = await timed(['campaign', 'create', 'pw-box', '--dice', box, '--rigs', '1', '--channels', '2', '--rolls', '6', '--db', `${url}&password=${PASSWORD}`], env());
    expect(created.code, created.err).toBe(0);
    const line = created.out.split('\n').find((l) => l.startsWith('On each rig host: ')) ?? '';
    expect(line).not.toContain(PASSWORD);
    expect(line).not.toContain('***');
    expect(line).toMatch(/^On each rig host: dicerig campaign run pw-box --rig ID --fleet '[^']+' --db LOCAL\.db +# the password: PGPASSWORD=\.\.\. or a ~\/\.pgpass line$/);
    const [, fleetUrl] = /--fleet '([^']+)'/.exec(line) ?? [];
    const pasted = await timed(['campaign', 'run', 'pw-box', '--rig', '1', '--fleet', fleetUrl as string, '--db', join(dir, 'pw-rig.db')], { ...env(), PGPASSWORD: PASSWORD });
    expect(pasted.code, pasted.err).toBe(0);
  }, 90_000);

  it('names a wrong password as a refused login, ending at once', async () => {
    const wrong = url.replace('postgres:///', `postgres://${server.user}:not-it@/`);
    const end = await timed(['sessions', '--db', wrong], env());
    expect(end.code).toBe(1);
    expect(end.err).toMatch(/^dicerig: The fleet store postgres:\/\/\S+:\*\*\*@\/login\S* refused the login \(password authentication failed for user "\S+"\): check the user and password \(in the URL, PGPASSWORD or ~\/\.pgpass\) and pg_hba\.conf\.\n$/);
    expect(end.ms).toBeLessThan(PROMPT_MS);
  }, 60_000);
});
