import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { smallFinishedStore, tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

/** An empty path ("" from an unset shell variable) is refused by name, never taken as the current folder. */
describe('an empty value where a path or session is wanted', () => {
  const dir = tempDir('dicerig-empty-');
  const db = smallFinishedStore(dir);
  const config = join(dir, 'tiny.yaml');
  writeFileSync(config, 'dice:\n  - { label: A, type: d6 }\nrig: { driver: sim }\nstopping: { budgetRolls: 6 }\n');

  it.each([
    [['report', '1', '--db', db, '--out', ''], '--out is empty: give a file or folder name'],
    [['export', '1', '--db', db, '--out', ''], '--out is empty: give a file or folder name'],
    [['salvage', db, '--out', ''], '--out is empty: give a file or folder name'],
    [['run', config, '--db', join(dir, 'kept.db'), '--keep-frames', ' '], '--keep-frames is empty: give a file or folder name'],
    [['sessions', '--db', ''], '--db is empty: give a file or folder name'],
    [['run', config, '--db', db, '--resume', ''], '--resume is empty: give a session id or name'],
    [['verify', ''], 'the <db> argument is empty: give its value'],
    [['analyze', join(dir, 'a.csv'), ''], 'one of the <files...> arguments is empty: give its value'],
  ])('dicerig %j is refused, naming what is empty, and writes nothing', async (args, said) => {
    const before = readdirSync(dir).sort();
    const r = await runCli(...args);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`dicerig: ${said} (an unset shell variable?)\n`);
    expect(readdirSync(dir).sort()).toEqual(before);
  });
});
