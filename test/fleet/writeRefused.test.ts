import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/runCli.js';

describe('commands that write a roll store, given the fleet store', () => {
  const url = 'postgres://rig:s3cret@fleet.example/dicerig';
  it.each([
    ['demo', ['demo', '--budget', '5']],
    ['review', ['review', '1']],
    ['import', ['import', 'examples/one-hot/green-07.csv']],
  ])('%s refuses a postgres:// --db in one line, hides its password and creates no local file named after it', async (_name, args) => {
    const r = await runCli(...args, '--db', url);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/^dicerig: --db postgres:\/\/rig:\*\*\*@fleet\.example\/dicerig is the fleet store \(PostgreSQL\): this command needs a local roll store file\. .*--fleet URL.*\n$/);
    expect(r.err).not.toContain('s3cret');
    expect(existsSync(resolve(url))).toBe(false);
  });

  it('serve with --sim refuses a postgres:// --db in one line (the fleet dashboard opens no rig), hides its password and creates no local file', async () => {
    const r = await runCli('serve', '--sim', '--port', '0', '--db', url);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/^dicerig: --sim is for a rig's own dashboard: with the fleet store \(postgres:\/\/\.\.\.\) dicerig serve only shows what the rigs stored\.\n$/);
    expect(r.err).not.toContain('s3cret');
    expect(existsSync(resolve(url))).toBe(false);
  });
});
