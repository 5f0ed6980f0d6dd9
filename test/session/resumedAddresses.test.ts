/**
 * A board back from a power cut as another port, or a camera renumbered, must not strand a session: a config given
 * with --resume says where the hardware is now, the session keeps every other stored setting, later resumes find it
 * there too, and a board that is not the session's rig is refused.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RigConnectError } from '../../src/rig/errors.js';
import type { RigIdentity } from '../../src/rig/driver.js';
import { checkSessionConfig, type SessionConfig } from '../../src/session/config.js';
import { HARDWARE_MOVED, movedConfig, withGivenAddresses } from '../../src/session/resumedAddresses.js';
import { requireSameRig } from '../../src/session/resumedRig.js';
import { runSession } from '../../src/session/runner.js';
import { openSession, runnerDeps } from '../../src/session/setup.js';
import { RollStore } from '../../src/store/rollStore.js';
import { tempDir } from '../store/support/fixtures.js';

const dice = [{ label: 'mv-A', type: 'd6' }];
const config = (rig: object, camera: object = { source: 'sim', dieSizePx: 72 }, stopping: object = { budgetRolls: 3 }): SessionConfig =>
  checkSessionConfig({ seed: 3, dice, rig, camera, stopping });
const device = (path: string): object => ({ source: 'device', device: path, reference: 'empty.png', dieSizePx: 72, channels: [{ x: 0, y: 0, width: 10, height: 10 }] });

describe('a resumed session whose hardware moved', () => {
  it("takes the given config's rig port and camera device, keeps every other stored setting, and says what moved", () => {
    const stored = config({ driver: 'serial', port: '/dev/ttyACM0', light: 180 }, device('/dev/video0'));
    const given = config({ driver: 'serial', port: '/dev/ttyACM1', light: 250 }, device('/dev/video2'), { budgetRolls: 99 });
    const { config: moved, moved: what } = withGivenAddresses(stored, given);
    expect(moved.rig).toEqual({ ...stored.rig, port: '/dev/ttyACM1' });
    expect(moved.camera).toEqual({ ...stored.camera, device: '/dev/video2' });
    expect(moved.stopping).toEqual(stored.stopping);
    expect(what).toEqual(['rig.port /dev/ttyACM1 (it ran on /dev/ttyACM0)', 'camera.device /dev/video2 (it ran on /dev/video0)']);
    // Another driver is not a move of the same board: nothing is taken.
    expect(withGivenAddresses(stored, config({ driver: 'firmata', port: '/dev/ttyACM1' }, device('/dev/video0'))).moved).toEqual([]);
    // A port left out means the one board plugged in.
    expect(withGivenAddresses(stored, config({ driver: 'serial' }, device('/dev/video0'))).config.rig.port).toBeUndefined();
  });

  it('reads the addresses the last hardware-moved event left, and the stored ones without such an event', () => {
    const stored = config({ driver: 'serial', port: '/dev/ttyACM0' }, device('/dev/video0'));
    const event = (detail: object, id: number): Parameters<typeof movedConfig>[1][number] => ({ id, sessionId: 1, at: id, kind: HARDWARE_MOVED, detail }) as never;
    expect(movedConfig(stored, [])).toBe(stored);
    const moved = movedConfig(stored, [event({ rigPort: '/dev/ttyACM1', cameraDevice: '/dev/video1' }, 1), event({ rigPort: '/dev/ttyACM2', cameraDevice: '/dev/video0' }, 2)]);
    expect(moved.rig.port).toBe('/dev/ttyACM2');
    expect(moved.camera).toMatchObject({ device: '/dev/video0' });
    expect(movedConfig(stored, [event({ rigPort: null, cameraDevice: null }, 1)]).rig.port).toBeUndefined();
  });

  it("refuses a board that is not the session's rig, naming both rigs and the port, and lets the same rig on another port through", () => {
    const now: RigIdentity = { driver: 'serial', firmware: '0.2.0', protocol: 2, rigId: 'tower-2', configHash: 'ab', tumbler: 'servo', port: '/dev/ttyACM1' };
    const refused = (() => {
      try {
        requireSameRig({ id: 7 }, { rigId: 'tower-1', port: '/dev/ttyACM0' }, now);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(RigConnectError);
    expect((refused as Error).message).toBe(
      'session 7 ran on rig tower-1, but the board on /dev/ttyACM1 is rig tower-2: resume it on its own rig (plug that board in and give its port as rig.port), or roll these dice in a new session on this one (analyze judges a die across sessions)',
    );
    expect(() => requireSameRig({ id: 7 }, { rigId: 'tower-2', port: '/dev/ttyACM0' }, now)).not.toThrow();
  });

  it('runs a resumed session at the port its config gives, stores the move, and a later resume without a config finds it there', async () => {
    const db = join(tempDir('dicerig-moved-'), 'rolls.db');
    const logs: string[] = [];
    const run = async (options: Omit<Parameters<typeof openSession>[0], 'dbPath' | 'wallNow'>): Promise<SessionConfig> => {
      const opened = await openSession({ ...options, dbPath: db, wallNow: () => 1_700_000_000_000, log: (m) => logs.push(m) });
      try {
        await runSession(runnerDeps(opened, {}), opened.plan);
        return opened.config;
      } finally {
        await opened.close();
      }
    };
    await run({ config: config({ driver: 'sim', port: '/dev/ttyACM0' }) });
    const resumed = await run({ config: config({ driver: 'sim', port: '/dev/ttyACM1' }), resume: '1', moreRolls: 2 });
    expect(resumed.rig.port).toBe('/dev/ttyACM1');
    expect(logs).toContain("session 1 takes from this config where its hardware is now: rig.port /dev/ttyACM1 (it ran on /dev/ttyACM0); every other setting stays the session's");
    // The notice of settings not used does not list the port it used.
    expect(logs.some((l) => /not used/.test(l))).toBe(false);
    const again = await run({ resume: '1', moreRolls: 2 });
    expect(again.rig.port).toBe('/dev/ttyACM1');
    const store = RollStore.open(db, { mustExist: true });
    try {
      expect(store.events(1).filter((e) => e.kind === HARDWARE_MOVED).map((e) => e.detail)).toEqual([{ rigPort: '/dev/ttyACM1', cameraDevice: null }]);
      expect(store.verify().ok).toBe(true);
    } finally {
      store.close();
    }
  });
});
