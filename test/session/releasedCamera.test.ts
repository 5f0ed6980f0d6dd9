import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SensorReleasedError } from '../../src/camera/sim/sensor.js';
import { SimulatedCamera } from '../../src/camera/sim/simulatedCamera.js';
import { checkSessionConfig } from '../../src/session/config.js';
import { runSession } from '../../src/session/runner.js';
import { openSession, runnerDeps, type OpenedSession } from '../../src/session/setup.js';
import { simCalibrationCamera } from '../../src/session/calibrationCameras.js';
import { tempDir } from '../store/support/fixtures.js';

const config = checkSessionConfig({ seed: 5, dice: [{ label: 'A', type: 'd6' }, { label: 'B', type: 'd6' }], rig: { driver: 'sim' }, camera: { source: 'sim', cockedRate: 0 }, stopping: { budgetRolls: 4 } });

/**
 * How many simulated cameras were made from now on (each one its empty platform was taken of), and each release by
 * the camera's number in that order (numbers, not cameras: a failure's diff of two 38 MB cameras would take minutes).
 */
function watchCameras(): { made: () => number; released: () => number[] } {
  const empty = vi.spyOn(SimulatedCamera.prototype, 'emptyPlatform');
  const release = vi.spyOn(SimulatedCamera.prototype, 'release');
  const made = (): SimulatedCamera[] => [...new Set(empty.mock.contexts as SimulatedCamera[])];
  return { made: () => made().length, released: () => (release.mock.contexts as SimulatedCamera[]).map((c) => made().indexOf(c)) };
}

/** The session's throw loop to its budget, then its close; its stored rolls a die. */
async function rollAndClose(opened: OpenedSession): Promise<number[]> {
  try {
    const result = await runSession(runnerDeps(opened), opened.plan);
    expect(result.state).toBe('finished');
    return result.dice.map((d) => d.rolls);
  } finally {
    await opened.close();
  }
}

/** What the session's throw camera gives when asked for a throw's frame: "a frame", or the error it throws. */
async function nextFrame(opened: OpenedSession): Promise<string> {
  try {
    for await (const frame of opened.camera.watch(0, { durationMs: 100 })) return `a frame ${frame.image.width}x${frame.image.height}`;
    return 'no frame';
  } catch (e) {
    return e instanceof SensorReleasedError ? 'SensorReleasedError' : String(e);
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a simulated session's camera", () => {
  it('is released once when the session ends, after its last frame, and the next session in the process rolls on a camera that works', async () => {
    const cameras = watchCameras();
    const dir = tempDir('dicerig-released-');
    const first = await openSession({ config, dbPath: join(dir, 'first.db'), wallNow: () => 0 });
    expect(await rollAndClose(first)).toEqual([4, 4]);
    expect(cameras.made()).toBe(1);
    expect(cameras.released()).toEqual([0]);
    expect(await nextFrame(first)).toBe('SensorReleasedError');

    const second = await openSession({ config, dbPath: join(dir, 'second.db'), wallNow: () => 0 });
    expect(await rollAndClose(second)).toEqual([4, 4]);
    expect(cameras.made()).toBe(2);
    expect(cameras.released()).toEqual([0, 1]);
  }, 60_000);

  it('is released when the session fails to open after its camera was made (its frames folder refused)', async () => {
    const cameras = watchCameras();
    const dir = tempDir('dicerig-released-');
    const frames = join(dir, 'frames');
    mkdirSync(frames);
    writeFileSync(join(frames, 'someone-else.png'), '');
    await expect(openSession({ config, dbPath: join(dir, 'refused.db'), keepFrames: frames, wallNow: () => 0 })).rejects.toThrow(/already holds files/);
    expect(cameras.made()).toBe(1);
    expect(cameras.released()).toEqual([0]);
  }, 60_000);
});

describe("the guided calibration's simulated camera", () => {
  it('throws until it is closed, and is released by its close', async () => {
    const cameras = watchCameras();
    const camera = simCalibrationCamera({ seed: 7, lighting: 'studio', channels: 2, dice: 'd6', dieSizePx: 72 });
    await camera.emptyPlatform();
    expect((await camera.nextThrow(0)).truth).toHaveLength(2);
    expect(cameras.released()).toEqual([]);
    await camera.close();
    expect(cameras.made()).toBe(1);
    expect(cameras.released()).toEqual([0]);
    await expect(async () => camera.nextThrow(1)).rejects.toThrow(SensorReleasedError);
  }, 60_000);
});
