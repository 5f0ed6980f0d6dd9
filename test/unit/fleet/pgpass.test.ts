import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { passwordFromFile } from '../../../src/fleet/pgpass.js';
import { tempDir } from '../../store/support/fixtures.js';

/** A password file with these lines, private to its owner unless `mode` says otherwise; its environment. */
function pgpass(lines: readonly string[], mode = 0o600): NodeJS.ProcessEnv {
  const home = tempDir('dicerig-pgpass-');
  const file = join(home, '.pgpass');
  writeFileSync(file, `${lines.join('\n')}\n`);
  chmodSync(file, mode);
  return { HOME: home };
}

const target = { host: 'fleet.lan', port: 5432, database: 'dicerig', user: 'rig' };

describe('the password file (~/.pgpass, by libpq rules)', () => {
  it('takes the first line whose host, port, database and user match, * matching anything', () => {
    const env = pgpass(['# the fleet', 'other.lan:5432:*:rig:no', 'fleet.lan:*:dicerig:*:first', 'fleet.lan:5432:dicerig:rig:second']);
    expect(passwordFromFile(target, env).password).toBe('first');
    expect(passwordFromFile({ ...target, database: 'other' }, env).password).toBeUndefined();
  });

  it('undoes backslash escapes of : and \\ in every field, and ends the password at an unescaped colon', () => {
    const env = pgpass(['fleet\\:lan:5432:dicerig:rig:pa\\:ss\\\\word:ignored', 'fleet.lan:5432:dicerig:rig:plain']);
    expect(passwordFromFile({ ...target, host: 'fleet:lan' }, env).password).toBe('pa:ss\\word');
    // An escaped star is a star, not the wildcard.
    expect(passwordFromFile({ ...target, user: 'x' }, pgpass(['fleet.lan:5432:dicerig:\\*:star'])).password).toBeUndefined();
  });

  it('looks up a connection through the default socket folder as localhost, and any other socket folder by its path', () => {
    const env = pgpass(['localhost:5432:dicerig:rig:local', '/srv/pg:5433:dicerig:rig:socket']);
    expect(passwordFromFile({ ...target, host: '/var/run/postgresql' }, env).password).toBe('local');
    expect(passwordFromFile({ ...target, host: '/srv/pg', port: 5433 }, env).password).toBe('socket');
  });

  it('ignores a file others can read, and says why', () => {
    const found = passwordFromFile(target, pgpass(['*:*:*:*:open'], 0o644));
    expect(found.password).toBeUndefined();
    expect(found.ignored).toMatch(/others can read it.*chmod 600/);
  });

  it('reads PGPASSFILE instead of ~/.pgpass when it is set', () => {
    const env = pgpass(['*:*:*:*:from-home']);
    const other = join(tempDir('dicerig-pgpassfile-'), 'pw');
    writeFileSync(other, '*:*:*:*:from-pgpassfile\n', { mode: 0o600 });
    expect(passwordFromFile(target, { ...env, PGPASSFILE: other })).toEqual({ file: other, password: 'from-pgpassfile' });
  });
});
