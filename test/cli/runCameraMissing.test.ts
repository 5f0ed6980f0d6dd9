import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { RollStore } from '../../src/store/rollStore.js';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

describe('run with a live camera that is not there', () => {
  it('names the device and camera.device, writes no session, and the same command works again once fixed (no "session exists")', async () => {
    const dir = tempDir('dicerig-nocam-');
    await sharp({ create: { width: 1280, height: 720, channels: 3, background: '#dddddd' } }).png().toFile(join(dir, 'empty.png'));
    const config = join(dir, 'c.yaml');
    writeFileSync(
      config,
      [
        'name: no-camera',
        'dice:',
        '  - { label: d6-01, type: d6 }',
        'rig:',
        '  driver: sim',
        'camera:',
        '  source: device',
        '  device: /dev/video-missing-dicerig',
        '  width: 1280',
        '  height: 720',
        '  reference: empty.png',
        '  dieSizePx: 72',
        '  channels:',
        '    - { x: 219, y: 236, width: 203, height: 248 }',
        '',
      ].join('\n'),
    );
    const db = join(dir, 'rolls.db');
    for (let attempt = 0; attempt < 2; attempt++) {
      const r = await runCli('run', config, '--db', db);
      expect(r.code).not.toBe(0);
      expect(r.err).toContain('config key "camera.device": Camera /dev/video-missing-dicerig could not be opened: it does not exist: plug the camera in');
      expect(r.err).toContain('no session was written');
      expect(r.err).not.toContain('already exists');
    }
    const store = RollStore.open(db, { mustExist: true });
    expect(store.sessions()).toEqual([]);
    store.close();
  }, 60_000);
});
