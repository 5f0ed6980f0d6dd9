import { execFileSync } from 'node:child_process';
import { lstatSync, readFileSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { smallFinishedStore, tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

/**
 * export and salvage stage their files beside --out under a hidden temporary name: a bad --out must be named as the
 * user gave it, before anything is written, and never replace what is not a plain file.
 */
describe('an --out that cannot take the file', () => {
  const dir = tempDir('dicerig-out-');
  const db = smallFinishedStore(dir);
  const plainFile = join(dir, 'notes.txt');
  writeFileSync(plainFile, 'mine\n');

  // The store's -wal and -shm files come and go with reading it: not something the refused command wrote.
  const files = (): string[] => readdirSync(dir).filter((f) => !/-(wal|shm)$/.test(f)).sort();

  async function refused(args: string[], said: string): Promise<void> {
    const before = files();
    const r = await runCli(...args);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`dicerig: ${said}; nothing was written\n`);
    expect(files()).toEqual(before);
  }

  it.each([
    ['export', ['export', '1', '--db', db, '--out']],
    ['salvage (which makes missing folders)', ['salvage', db, '--out']],
  ])('%s names an --out under a plain file by the file, not its temporary file', async (_command, head) => {
    await refused([...head, join(plainFile, 'x.db')], `--out ${join(plainFile, 'x.db')}: ${plainFile} is a file, not a folder`);
    await refused([...head, join(plainFile, 'deeper', 'x.db')], `--out ${join(plainFile, 'deeper', 'x.db')}: ${head[0] === 'export' ? `its folder ${join(plainFile, 'deeper')} is under a file, not a folder` : `${plainFile} is a file, not a folder`}`);
  });

  it('export names an --out in a missing folder, not its temporary file', async () => {
    await refused(['export', '1', '--db', db, '--out', join(dir, 'nope', 'x.csv')], `--out ${join(dir, 'nope', 'x.csv')}: its folder ${join(dir, 'nope')} does not exist`);
  });

  it.each([
    ['report', ['report', '1', '--db', db, '--out']],
    ['vision simulate', ['vision', 'simulate', '--dice', 'd6', '--out']],
  ])('%s names an --out folder that is a plain file, or is under one, by that file', async (_command, head) => {
    await refused([...head, plainFile], `--out ${plainFile} is a file, not a folder: give a folder (a missing one is made)`);
    await refused([...head, join(plainFile, 'sub')], `--out ${join(plainFile, 'sub')}: ${plainFile} is a file, not a folder`);
  });

  it('run --keep-frames naming a plain file is refused before the store is made', async () => {
    const config = join(tempDir('dicerig-out-'), 'tiny.yaml');
    writeFileSync(config, 'dice:\n  - { label: A, type: d6 }\nrig: { driver: sim }\nstopping: { budgetRolls: 6 }\n');
    await refused(['run', config, '--db', join(dir, 'new.db'), '--keep-frames', plainFile], `--keep-frames ${plainFile} is a file, not a folder: give a folder (a missing one is made)`);
  });

  it('export names an --out that is a folder once, after --out', async () => {
    const r = await runCli('export', '1', '--db', db, '--out', dir);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`dicerig: --out ${dir} is a folder; export does not write over a file: give another --out name\n`);
  });

  it('export --force does not replace a named pipe or a symbolic link with a plain file', async () => {
    const pipe = join(dir, 'pipe');
    execFileSync('mkfifo', [pipe]);
    await refused(['export', '1', '--db', db, '--out', pipe, '--force', '--format', 'jsonl'], `--out ${pipe} is a named pipe, not a file: a new file would replace it: give the name of a file`);
    expect(lstatSync(pipe).isFIFO()).toBe(true);

    const link = join(dir, 'link.csv');
    symlinkSync(plainFile, link);
    await refused(['export', '1', '--db', db, '--out', link, '--force'], `--out ${link} is a symbolic link (to ${plainFile}): the new file would replace the link, not write where it points: give that file's own name or another one`);
    expect(readlinkSync(link)).toBe(plainFile);
    expect(readFileSync(plainFile, 'utf8')).toBe('mine\n');
  });
});
