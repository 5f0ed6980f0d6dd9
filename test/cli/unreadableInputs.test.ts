import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

/** A folder given where a file is wanted, or an empty file: one line that names the file and says what is wrong, in words. */
describe('an input file that is a folder or empty', () => {
  const dir = tempDir('dicerig-unreadable-');
  const folder = join(dir, 'a-folder');
  mkdirSync(folder);
  const empty = join(dir, 'empty.yaml');
  writeFileSync(empty, '');
  const config = join(dir, 'ok.yaml');
  writeFileSync(config, 'dice:\n  - { label: A, type: d6 }\nrig: { driver: sim }\n');

  it.each([
    ['a session config', ['run', folder, '--db', join(dir, 'r.db')], 'session config'],
    ['a dice file', ['dice', '--file', folder], 'dice file'],
    ['a calibration profile', ['plan', '--die', 'red', '--detect', 'hit=0.5', '--calibration', folder], 'calibration profile'],
  ])('%s that is a folder is named as a folder, not with Node\'s EISDIR text', async (_what, args, what) => {
    const r = await runCli(...args);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`dicerig: ${folder}: cannot read the ${what}: it is a folder, not a file${what === 'calibration profile' ? '.' : ''}\n`);
    expect(existsSync(join(dir, 'r.db'))).toBe(false);
  });

  it('an empty session config is called empty, not "(top level): expected object, received null"', async () => {
    const r = await runCli('run', empty, '--db', join(dir, 'r.db'));
    expect(r.code).toBe(1);
    expect(r.err).toBe(`dicerig: ${empty}: the session config is empty: it names at least the dice and the rig (see examples/sessions/)\n`);
    expect(existsSync(join(dir, 'r.db'))).toBe(false);
  });

  it('an empty calibration profile is called empty, not "Unexpected end of JSON input"', async () => {
    const r = await runCli('plan', '--die', 'red', '--detect', 'hit=0.5', '--calibration', empty);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`dicerig: ${empty}: the calibration profile is empty: it holds no JSON\n`);
  });

  it.each([
    ['vision eval --images', ['vision', 'eval', '--die', 'd6', '--images']],
    ['calibrate --from-labelled', ['calibrate', '--die', 'd6', '--from-labelled']],
  ])('%s given a plain file names it as a file, not "a part of the path is not a folder"', async (_what, head) => {
    const r = await runCli(...head, config, ...(head[0] === 'calibrate' ? ['-o', join(dir, 'check.json')] : []));
    expect(r.code).toBe(1);
    expect(r.err).toBe(`dicerig: ${config}: is a file, not a folder: a labelled folder holds images/ and labels/ (or is the images folder itself)\n`);
    expect(existsSync(join(dir, 'check.json'))).toBe(false);
  });

  it('a dice file that is a folder stops run before the store is made', async () => {
    const r = await runCli('run', config, '--dice-file', folder, '--db', join(dir, 'r.db'));
    expect(r.code).toBe(1);
    expect(r.err).toBe(`dicerig: ${folder}: cannot read the dice file: it is a folder, not a file\n`);
    expect(existsSync(join(dir, 'r.db'))).toBe(false);
  });

  it.each([
    ['a session config', 'session config', 'dice:\n  - { label: "D\xe9 A", type: d6 }\nrig: { driver: sim }\n', 2, (f: string) => ['run', f, '--db', join(dir, 'r.db')]],
    ['a dice file', 'dice file', '- { id: mine, faces: ["\xe9t\xe9", b] }\n', 1, (f: string) => ['dice', '--file', f]],
    ['a campaign dice box', 'dice box', 'label,die\nr\xe9d1,red\n', 2, (f: string) => ['campaign', 'create', 'c', '--rigs', '2', '--dice', f, '--db', 'postgres://127.0.0.1:1/none']],
    ['a roll log read by import', 'roll log', 'die,type,face\nA,d6,1\nA\xe9,d6,2\n', 3, (f: string) => ['import', f, '--db', join(dir, 'r.db')]],
  ])('%s saved as Latin-1 is refused with the line of its first non-UTF-8 byte, not read with its letters replaced', async (_what, what, text, line, args) => {
    const f = join(dir, `latin1-${line}.txt`);
    writeFileSync(f, Buffer.from(text, 'latin1'));
    const r = await runCli(...args(f));
    expect(r.code).toBe(1);
    expect(r.err).toBe(`dicerig: ${f}: the ${what} is not UTF-8 text (line ${line} has a byte that is not): save it as UTF-8\n`);
    expect(existsSync(join(dir, 'r.db'))).toBe(false);
  });
});

describe('a --db that is not a file', () => {
  it('a named pipe given as the roll store is named as one by run and sessions, and nothing is made beside it', async () => {
    const dir = tempDir('dicerig-unreadable-');
    const pipe = join(dir, 'pipe.db');
    execFileSync('mkfifo', [pipe]);
    const config = join(dir, 'ok.yaml');
    writeFileSync(config, 'dice:\n  - { label: A, type: d6 }\nrig: { driver: sim }\nstopping: { budgetRolls: 6 }\n');
    for (const args of [['run', config, '--db', pipe], ['sessions', '--db', pipe]]) {
      const r = await runCli(...args);
      expect(r.code).toBe(1);
      expect(r.err).toBe(`dicerig: ${pipe} is a named pipe, not a roll store file: give the store file itself; nothing was written.\n`);
    }
    expect(readdirSync(dir).sort()).toEqual(['ok.yaml', 'pipe.db']);
  });
});
