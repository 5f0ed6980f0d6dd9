/**
 * A real camera's picture must not re-level itself during a run: exposure, gain, focus and white balance are locked
 * with v4l2-ctl before the first frame. A fake v4l2-ctl here records what it is asked and, like many webcams, has no
 * auto-gain control.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { lockCameraControls } from '../../src/camera/v4l2Camera.js';
import { checkSessionConfig } from '../../src/session/config.js';

const dir = mkdtempSync(join(tmpdir(), 'dicerig-v4l2ctl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A v4l2-ctl that logs each --set-ctrl and refuses the controls named in `missing`. */
function fakeV4l2Ctl(missing: readonly string[]): { path: string; asked: () => string[] } {
  const log = join(dir, `asked-${missing.join('-') || 'none'}.txt`);
  const path = join(dir, `v4l2-ctl-${missing.join('-') || 'all'}`);
  const refuse = missing.map((m) => `  --set-ctrl=${m}=*) exit 1 ;;`).join('\n');
  writeFileSync(path, `#!/bin/sh\necho "$3" >> '${log}'\ncase "$3" in\n${refuse}\nesac\nexit 0\n`);
  chmodSync(path, 0o755);
  return { path, asked: () => readFileSync(log, 'utf8').trim().split('\n') };
}

it('turns auto gain off with auto exposure, sets the gain and exposure given, and says what the camera took', () => {
  const ctl = fakeV4l2Ctl(['gain_automatic']);
  const said = lockCameraControls('/dev/video3', { exposure: 150, gain: 8 }, ctl.path);
  expect(ctl.asked()).toEqual([
    '--set-ctrl=auto_exposure=1',
    '--set-ctrl=exposure_time_absolute=150',
    '--set-ctrl=gain_automatic=0',
    '--set-ctrl=gain=8',
    '--set-ctrl=focus_automatic_continuous=0',
    '--set-ctrl=white_balance_automatic=0',
  ]);
  expect(said).toBe('locked auto_exposure=1, exposure_time_absolute=150, gain=8, focus_automatic_continuous=0, white_balance_automatic=0');
});

it('keeps the current gain and exposure when none is given, still turning their automatics off', () => {
  const ctl = fakeV4l2Ctl([]);
  expect(lockCameraControls('/dev/video3', {}, ctl.path)).toBe('locked auto_exposure=1, gain_automatic=0, focus_automatic_continuous=0, white_balance_automatic=0');
});

it('takes camera.gain from a session config as a whole number of the camera’s units, and names the key when it is not', () => {
  const base = { dice: [{ label: 'A', type: 'd6' }], rig: { driver: 'sim' } };
  const config = checkSessionConfig({ ...base, camera: { source: 'device', device: '/dev/video0', gain: 8 } });
  expect(config.camera).toMatchObject({ gain: 8 });
  expect(() => checkSessionConfig({ ...base, camera: { source: 'device', device: '/dev/video0', gain: -1 } })).toThrow(/camera\.gain/);
});
