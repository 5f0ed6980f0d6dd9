import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { RollStore } from '../../src/store/rollStore.js';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

describe('a session whose camera is absent', () => {
  it('says so in one line before any session is written (none is left never-started)', async () => {
    const dir = tempDir('dicerig-nocam-');
    await sharp({ create: { width: 200, height: 100, channels: 3, background: { r: 40, g: 40, b: 40 } } })
      .png()
      .toFile(join(dir, 'empty.png'));
    const cfg = join(dir, 'cam.yaml');
    writeFileSync(
      cfg,
      `dice:
  - { label: C1, type: d6 }
rig:
  driver: sim
camera:
  source: device
  device: /dev/video9
  width: 200
  height: 100
  reference: empty.png
  dieSizePx: 30
  channels:
    - { x: 0, y: 0, width: 100, height: 100 }
stopping: { budgetRolls: 3 }
`,
    );
    const db = join(dir, 'rolls.db');
    const r = await runCli('run', cfg, '--db', db, '--plain');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/\/dev\/video9/);
    expect(r.err).not.toMatch(/\n\s+at /);
    // The camera is checked before the session's row is written: nothing is left to resume or to clash by name.
    expect(r.err).toContain('no session was written');
    const store = RollStore.open(db, { mustExist: true });
    try {
      expect(store.sessions()).toEqual([]);
      expect(store.verify().ok).toBe(true);
    } finally {
      store.close();
    }
  });
});
