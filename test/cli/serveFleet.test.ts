/**
 * `dicerig serve --db postgres://...` refuses at start what it cannot do, in
 * one line and without the store's password: the rig options (it opens no
 * rig), a second store, and a fleet store that cannot be reached.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.js';

const GONE = 'postgres://organiser:pw-never-shown@/fleet?host=%2Fnonexistent%2Fdicerig-socket';

describe('dicerig serve with the fleet store', () => {
  it('refuses the options of a rig\'s own dashboard, naming them', async () => {
    const r = await runCli('serve', '--db', GONE, '--sim', '--mode', 'fairness', '--port', '0');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^dicerig: --sim and --mode are for a rig's own dashboard: with the fleet store \(postgres:\/\/\.\.\.\) dicerig serve only shows what the rigs stored\.\n$/);
  });

  it('takes the fleet store once, and --fleet only as a postgres:// URL', async () => {
    const twice = await runCli('serve', '--db', GONE, '--fleet', GONE, '--port', '0');
    expect(twice.err).toMatch(/^dicerig: give the fleet store once/);
    const file = await runCli('serve', '--fleet', 'fleet.db', '--port', '0');
    expect(file.err).toMatch(/^dicerig: --fleet must be a postgres:\/\/ URL of the fleet store, not "fleet\.db"\n$/);
  });

  it('says in one line, password hidden, that a fleet store it cannot reach at start cannot be reached', async () => {
    const r = await runCli('serve', '--db', GONE, '--port', '0');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^dicerig: Cannot reach the fleet store postgres:\/\/organiser:\*\*\*@\/fleet\?host=\S+ while opening it \(connect ENOENT \S+\/\.s\.PGSQL\.5432\): check that PostgreSQL is running/);
    expect(r.err.split('\n').filter((l) => l !== '')).toHaveLength(1);
    expect(r.err + r.out).not.toContain('pw-never-shown');
    // A password given as a URL parameter is hidden too.
    const param = await runCli('serve', '--db', 'postgres:///fleet?host=%2Fnonexistent%2Fdicerig-socket&password=param-pw-never-shown', '--port', '0');
    expect(param.err).toMatch(/password=\*\*\*/);
    expect(param.err).not.toContain('param-pw-never-shown');
  });
});
