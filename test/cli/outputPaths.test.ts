import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeJsonFile } from '../../src/vision-io/profileFile.js';
import { runCli } from './runCli.js';

const tmp = mkdtempSync(join(tmpdir(), 'dicerig-out-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const plain = join(tmp, 'existing.json');
writeFileSync(plain, '{}\n');
// No such folder of labelled photos: a command that read it before checking its output would name it instead.
const nowhere = join(tmp, 'no-photos');

describe('vision and calibrate outputs are checked before the work', () => {
  it('refuses an output under a plain file before reading any photo, in calibrate and vision adapt alike', async () => {
    const d6 = await runCli('calibrate', '--die', 'd6', '--from-labelled', nowhere, '-o', join(plain, 'x.json'));
    expect(d6.code).toBe(1);
    expect(d6.err).toContain(`${join(plain, 'x.json')}: -o cannot be written: ${plain} is a file, not a folder.`);
    const xwing = await runCli('calibrate', '--die', 'xwing', '--from-labelled', nowhere, '-o', join(plain, 'x.json'));
    expect(xwing.err).toContain(`${plain} is a file, not a folder`);
    const adapt = await runCli('vision', 'adapt', '--die', 'd6', '--images', nowhere, '--out', join(plain, 'h.json'));
    expect(adapt.err).toContain(`${join(plain, 'h.json')}: --out cannot be written: ${plain} is a file, not a folder.`);
    const folder = await runCli('calibrate', '--die', 'red', '--from-labelled', nowhere, '-o', tmp);
    expect(folder.err).toContain(`${tmp}: -o names a folder; give a file name`);
  });

  it('makes missing folders for a head as calibrate does for a profile', async () => {
    const photos = join(tmp, 'photos');
    expect((await runCli('vision', 'simulate', '--dice', 'd6', '--out', photos, '--seed', '71000', '--frames', '3', '--cocked-rate', '0.01')).code).toBe(0);
    const head = join(tmp, 'new', 'deeper', 'h.json');
    const adapt = await runCli('vision', 'adapt', '--die', 'd6', '--images', photos, '--out', head);
    expect(adapt.code, adapt.err).toBe(0);
    expect(JSON.parse(readFileSync(head, 'utf8'))).toHaveProperty('head.classes');
  }, 60_000);
});

describe('profiles, checks and heads are written whole or not at all', () => {
  it('replaces a file by renaming a complete one over it, leaving no temporary file beside it', async () => {
    const file = join(tmp, 'profile', 'p.json');
    await writeJsonFile(file, { a: 1 });
    const before = statSync(file).ino;
    await writeJsonFile(file, { a: 2 });
    // Written in place, the old file would keep its inode (and be half-written if interrupted).
    expect(statSync(file).ino).not.toBe(before);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ a: 2 });
    expect(readdirSync(join(tmp, 'profile'))).toEqual(['p.json']);
  });
});
