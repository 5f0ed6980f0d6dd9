import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSessionConfig } from '../../src/session/config.js';
import { openSession } from '../../src/session/setup.js';
import { tempDir } from '../store/support/fixtures.js';

// What a new session's config alone rules out is refused before its roll store is created: a failed start leaves no
// empty store behind for the next run to trip over.
describe('a new session refused by its config alone', () => {
  it('leaves no store when its camera cannot see the face asked for (X-Wing dice from below on the simulated camera)', async () => {
    const db = join(tempDir('dicerig-refused-'), 'never.db');
    const config = checkSessionConfig({ seed: 3, dice: [{ label: 'r', type: 'red' }], rig: { driver: 'sim' }, camera: { source: 'sim', face: 'bottom' }, stopping: { budgetRolls: 10 } });
    await expect(openSession({ config, dbPath: db, wallNow: () => 0 })).rejects.toThrow(/config key "camera\.face".*only from above/);
    expect(existsSync(db)).toBe(false);
  });

  it('leaves no store when its calibration profile is not a profile, naming the file', async () => {
    const dir = tempDir('dicerig-refused-');
    const profile = join(dir, 'rig.json');
    writeFileSync(profile, '[]');
    const db = join(dir, 'never.db');
    const config = checkSessionConfig({ seed: 3, dice: [{ label: 'r', type: 'red' }], rig: { driver: 'sim' }, calibration: profile, stopping: { budgetRolls: 10 } });
    await expect(openSession({ config, dbPath: db, wallNow: () => 0 })).rejects.toThrow(/rig\.json: not a valid calibration profile/);
    expect(existsSync(db)).toBe(false);
  });

  it('leaves no store when it asks for a simulated clock with a real rig, naming the key', async () => {
    const db = join(tempDir('dicerig-refused-'), 'never.db');
    const config = checkSessionConfig({ seed: 3, dice: [{ label: 'A', type: 'd6' }], rig: { driver: 'emulated' }, clock: 'simulated', stopping: { budgetRolls: 10 } });
    await expect(openSession({ config, dbPath: db, wallNow: () => 0 })).rejects.toThrow(/config key "clock": a simulated clock needs the simulated rig; the "emulated" rig runs in real time/);
    expect(existsSync(db)).toBe(false);
  });
});
