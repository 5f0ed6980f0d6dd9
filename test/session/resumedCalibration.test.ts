import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { sealProfile, type CalibrationProfile } from '../../src/vision/calibration/profile.js';
import { checkSessionConfig } from '../../src/session/config.js';
import { runSession } from '../../src/session/runner.js';
import { openSession, runnerDeps } from '../../src/session/setup.js';
import { defaultProfilePath } from '../../src/vision-io/profileFile.js';
import { RollStore } from '../../src/store/rollStore.js';
import { tamper, tempDir } from '../store/support/fixtures.js';

function setUp(): { db: string; profile: string; config: ReturnType<typeof checkSessionConfig> } {
  const dir = tempDir('dicerig-resumed-calibration-');
  const profile = join(dir, 'prof.json');
  copyFileSync(defaultProfilePath('xwing'), profile);
  const config = checkSessionConfig({ seed: 3, dice: [{ label: 'R1', type: 'red' }], rig: { driver: 'sim' }, calibration: profile, stopping: { budgetRolls: 8 } });
  return { db: join(dir, 'r.db'), profile, config };
}

async function run(db: string, config: ReturnType<typeof checkSessionConfig>, resume?: string): Promise<void> {
  const opened = await openSession({ config, dbPath: db, wallNow: () => 1_700_000_000_000, ...(resume !== undefined ? { resume, moreRolls: 4 } : {}) });
  try {
    await runSession(runnerDeps(opened), opened.plan);
  } finally {
    await opened.close();
  }
}

function lastThrow(db: string): number {
  const store = RollStore.open(db, { mustExist: true });
  try {
    return store.lastThrowIndex(1);
  } finally {
    store.close();
  }
}

/** The same profile with one setting changed, sealed again: what a recalibration at the same path leaves behind. */
function changeProfile(file: string): void {
  const { hash: _hash, ...rest } = JSON.parse(readFileSync(file, 'utf8')) as CalibrationProfile;
  writeFileSync(file, JSON.stringify(sealProfile({ ...rest, rejectionThreshold: 0.9 })));
}

describe('resuming a session whose calibration file changed', () => {
  it('refuses to read with a profile whose contents changed since the session started, naming the session and what to do', async () => {
    const { db, profile, config } = setUp();
    await run(db, config);
    const throws = lastThrow(db);
    changeProfile(profile);
    const refused = run(db, config, '1');
    await expect(refused).rejects.toBeInstanceOf(ConfigError);
    await expect(refused).rejects.toThrow(/cannot resume session 1: this file's contents changed since the session started.*Put the file back as it was when the session started, or start a new session with this file/);
    await expect(refused).rejects.toThrow(profile);
    // No throw was read with the changed profile.
    expect(lastThrow(db)).toBe(throws);
  });

  it('resumes with the unchanged profile and rolls on', async () => {
    const { db, config } = setUp();
    await run(db, config);
    const throws = lastThrow(db);
    await run(db, config, '1');
    expect(lastThrow(db)).toBeGreaterThan(throws);
  });
});

describe('resuming a session read with the shipped default profile', () => {
  /** What a dicerig upgrade with another shipped default leaves: the session's rig row holds the older default's hash. */
  function startedWithAnOlderDefault(db: string): void {
    tamper(db, (sql) => sql.prepare("UPDATE rigs SET calibration_hash = 'sha256:0123456789abcdef' WHERE id = (SELECT rig_id FROM sessions WHERE id = 1)").run());
  }

  it('refuses when the shipped default changed since the session started, saying it is the shipped default and what to do', async () => {
    const { db, config } = setUp();
    const { calibration: _none, ...rest } = config;
    const uncalibrated = checkSessionConfig(rest);
    await run(db, uncalibrated);
    const throws = lastThrow(db);
    startedWithAnOlderDefault(db);
    const refused = run(db, uncalibrated, '1');
    await expect(refused).rejects.toBeInstanceOf(ConfigError);
    await expect(refused).rejects.toThrow(/cannot resume session 1: it gave no calibration, so it read with the default profile shipped with dicerig, and that shipped default changed since the session started \(it started with calibration 0123456789ab, this dicerig's default is [0-9a-f]{12}\)/);
    await expect(refused).rejects.toThrow(/Resume it with the dicerig version that started it, or start a new session/);
    await expect(refused).rejects.toThrow(defaultProfilePath('red'));
    expect(lastThrow(db)).toBe(throws);
  });

  it('resumes while the shipped default is the one the session started with', async () => {
    const { db, config } = setUp();
    const { calibration: _none, ...rest } = config;
    const uncalibrated = checkSessionConfig(rest);
    await run(db, uncalibrated);
    const throws = lastThrow(db);
    await run(db, uncalibrated, '1');
    expect(lastThrow(db)).toBeGreaterThan(throws);
  });
});
