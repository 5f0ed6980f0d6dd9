/**
 * `dicerig run` on a recording whose frames do not fit the platform described: it used to crash at the first throw
 * (exit 70, a RangeError from the locator) after writing the session. Now it says which key is wrong and writes nothing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { RollStore } from '../../src/store/rollStore.js';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

describe('run on a replayed folder that does not fit its platform', () => {
  it('names camera.reference with both sizes, exits 1 not 70, and writes no session', async () => {
    const dir = tempDir('dicerig-platform-mismatch-');
    mkdirSync(join(dir, 'frames'));
    await sharp({ create: { width: 1280, height: 720, channels: 3, background: '#dddddd' } }).png().toFile(join(dir, 'frames', 'throw-0001.png'));
    await sharp({ create: { width: 640, height: 360, channels: 3, background: '#dddddd' } }).png().toFile(join(dir, 'empty.png'));
    const config = join(dir, 'c.yaml');
    const lines = (reference: string): string =>
      [
        'dice:',
        '  - { label: d6-01, type: d6 }',
        'rig: { driver: sim }',
        'camera:',
        '  source: replay',
        '  folder: frames',
        `  reference: ${reference}`,
        '  dieSizePx: 72',
        '  channels:',
        '    - { x: 1000, y: 236, width: 300, height: 248 }',
        'settle: { mode: fixed }',
        'stopping: { budgetRolls: 10 }',
        '',
      ].join('\n');
    writeFileSync(config, lines('empty.png'));
    const db = join(dir, 'rolls.db');
    const wrongSize = await runCli('run', config, '--db', db, '--plain');
    expect(wrongSize.code).toBe(1);
    expect(wrongSize.err).toContain('config key "camera.reference": folder');
    expect(wrongSize.err).toContain('gave a 1280x720 frame, but the empty-platform image is 640x360');
    expect(wrongSize.err).not.toMatch(/unexpected failure/);

    // The right reference: now the channel reaching past the right edge is named.
    await sharp({ create: { width: 1280, height: 720, channels: 3, background: '#dddddd' } }).png().toFile(join(dir, 'empty-full.png'));
    writeFileSync(config, lines('empty-full.png'));
    const outside = await runCli('run', config, '--db', db, '--plain');
    expect(outside.code).toBe(1);
    expect(outside.err).toContain('config key "camera.channels[0]": the rectangle spans x 1000..1300, y 236..484, outside the 1280x720 frame');
    const store = RollStore.open(db);
    expect(store.sessions()).toEqual([]);
    store.close();
  });
});
