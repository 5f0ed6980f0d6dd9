import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cameraFactories, CameraFactoryRegistry } from '../../src/camera/cameraFactory.js';
import { encodePng } from '../../src/camera/decode.js';
import { takeFrames } from '../../src/camera/frameSource.js';
import { SimulatedCamera } from '../../src/camera/sim/simulatedCamera.js';
import { ConfigError } from '../../src/core/errors.js';
import { rectChannel } from '../../src/vision/channels.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dicerig-camera-factory-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function rejection(promise: Promise<unknown>): Promise<ConfigError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ConfigError)) throw new Error(`expected a ConfigError, got ${String(error)}`);
  return error;
}

describe('camera factories', () => {
  it('names the simulated camera, a V4L2 device and a replayed folder, as the rig names its drivers', () => {
    expect(cameraFactories.names()).toEqual(['sim', 'device', 'replay']);
  });

  it('refuses a camera source it has no factory for, naming the ones it has', async () => {
    const e = await rejection(cameraFactories.open('webcam', { dice: 1, fps: 30 }));
    expect(e.key).toBe('camera.source');
    expect(e.message).toMatch(/no camera source "webcam"; choose one of sim, device, replay/);
  });

  it('refuses a factory name that config could not spell', () => {
    expect(() => new CameraFactoryRegistry().register({ name: 'Web Cam', description: '', open: () => Promise.reject(new Error('unused')) })).toThrow(RangeError);
  });

  it('opens the simulated camera with one channel per die and its own empty platform', async () => {
    const opened = await cameraFactories.open('sim', { dice: 3, fps: 30, seed: 5, dieSizePx: 60, lighting: 'studio' });
    expect(opened.simulated).toBeInstanceOf(SimulatedCamera);
    expect(opened.channels).toHaveLength(3);
    expect(opened.dieSizePx).toBe(60);
    expect(opened.reference.width).toBeGreaterThan(0);
    expect(opened.replay).toBe(false);
  });

  it('names the unknown lighting preset of a simulated camera', async () => {
    const e = await rejection(cameraFactories.open('sim', { dice: 1, fps: 30, dieSizePx: 60, lighting: 'disco' }));
    expect(e.key).toBe('camera.lighting');
  });

  it('replays a folder on the platform its profile describes, and asks for channels when neither config nor profile gives them', async () => {
    const reference = { width: 8, height: 6, data: new Uint8Array(8 * 6 * 3).fill(90) };
    const file = join(dir, 'empty.png');
    await writeFile(file, await encodePng(reference));
    await writeFile(join(dir, 'frame-000.png'), await encodePng(reference));
    const missing = await rejection(cameraFactories.open('replay', { dice: 1, fps: 10, folder: dir, referenceFile: file, dieSizePx: 4 }));
    expect(missing.key).toBe('camera.channels');
    const opened = await cameraFactories.open('replay', {
      dice: 1,
      fps: 10,
      folder: dir,
      channels: [{ x: 0, y: 0, width: 8, height: 6 }],
      profile: { referenceFile: file, dieSizePx: 4 },
    });
    expect(opened.replay).toBe(true);
    expect(opened.dieSizePx).toBe(4);
    expect(opened.reference.data).toEqual(reference.data);
    const frames = await takeFrames(opened.frames!);
    expect(frames).toHaveLength(2);
  });

  it("takes a profile's channel regions but one die in each, even from a profile calibrated with two dice a channel", async () => {
    const reference = { width: 8, height: 6, data: new Uint8Array(8 * 6 * 3).fill(90) };
    const file = join(dir, 'empty.png');
    await writeFile(file, await encodePng(reference));
    const twoEach = [rectChannel(0, { x: 0, y: 0, width: 4, height: 6 }, 2), rectChannel(1, { x: 4, y: 0, width: 4, height: 6 }, 2)];
    const opened = await cameraFactories.open('replay', { dice: 2, fps: 10, folder: dir, profile: { referenceFile: file, dieSizePx: 4, channels: twoEach } });
    expect(opened.channels.map((c) => c.polygon)).toEqual(twoEach.map((c) => c.polygon));
    expect(opened.channels.map((c) => c.expectedDice)).toEqual([1, 1]);
  });

  it('refuses, before any frame, a replayed folder whose frames are another size than its empty platform, naming both sizes', async () => {
    const folder = join(dir, 'big-frames');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'throw-0001.png'), await encodePng({ width: 16, height: 12, data: new Uint8Array(16 * 12 * 3).fill(80) }));
    const small = join(dir, 'small-empty.png');
    await writeFile(small, await encodePng({ width: 8, height: 6, data: new Uint8Array(8 * 6 * 3).fill(90) }));
    const e = await rejection(cameraFactories.open('replay', { dice: 1, fps: 10, folder, referenceFile: small, dieSizePx: 4, channels: [{ x: 0, y: 0, width: 8, height: 6 }] }));
    expect(e.key).toBe('camera.reference');
    expect(e.message).toContain(`folder ${folder} gave a 16x12 frame, but the empty-platform image is 8x6`);
  });

  it("refuses a V4L2 camera set to another size than its empty-platform image, before ffmpeg is started", async () => {
    const reference = join(dir, 'empty-8x6.png');
    await writeFile(reference, await encodePng({ width: 8, height: 6, data: new Uint8Array(8 * 6 * 3).fill(90) }));
    const e = await rejection(
      cameraFactories.open('device', { dice: 1, fps: 30, device: '/dev/video-not-here', width: 1280, height: 720, referenceFile: reference, dieSizePx: 4, channels: [{ x: 0, y: 0, width: 8, height: 6 }] }),
    );
    expect(e.key).toBe('camera.reference');
    expect(e.message).toContain(`${reference} is 8x6, but the camera is set to 1280x720 (camera.width, camera.height)`);
  });

  it('refuses a channel rectangle that reaches outside the frame, naming it by its config key, and one of a profile by the profile', async () => {
    const reference = join(dir, 'empty-8x6.png');
    await writeFile(reference, await encodePng({ width: 8, height: 6, data: new Uint8Array(8 * 6 * 3).fill(90) }));
    const inside = { x: 0, y: 0, width: 4, height: 6 };
    const fromConfig = await rejection(cameraFactories.open('device', { dice: 2, fps: 30, device: '/dev/video-not-here', width: 8, height: 6, referenceFile: reference, dieSizePx: 4, channels: [inside, { x: 4, y: 0, width: 5, height: 6 }] }));
    expect(fromConfig.key).toBe('camera.channels[1]');
    expect(fromConfig.message).toContain('spans x 4..9, y 0..6, outside the 8x6 frame');
    const folder = join(dir, 'no-frames-yet');
    await mkdir(folder, { recursive: true });
    const fromProfile = await rejection(
      cameraFactories.open('replay', { dice: 1, fps: 10, folder, profile: { referenceFile: reference, dieSizePx: 4, channels: [rectChannel(0, { x: 0, y: -2, width: 8, height: 6 })] } }),
    );
    expect(fromProfile.key).toBe('calibration');
    expect(fromProfile.message).toContain("the profile's channel 1 spans x 0..8, y -2..4");
    // Exactly the frame is inside.
    const fits = await cameraFactories.open('replay', { dice: 1, fps: 10, folder, referenceFile: reference, dieSizePx: 4, channels: [{ x: 0, y: 0, width: 8, height: 6 }] });
    expect(fits.channels).toHaveLength(1);
  });
});
