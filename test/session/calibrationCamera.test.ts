import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CameraFaultError } from '../../src/camera/cameraErrors.js';
import { openV4l2CalibrationCamera } from '../../src/session/calibrationCameras.js';
import { fakeFfmpeg } from '../camera/support/fakeFfmpeg.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dicerig-calcam-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the camera of a guided calibration', () => {
  it('whose ffmpeg stalls with its pipe open is a camera fault naming the device, not a calibration that waits forever', async () => {
    // A device path that exists (the stand-in ffmpeg never opens it).
    const device = join(dir, 'video7');
    await writeFile(device, '');
    const camera = await openV4l2CalibrationCamera({ device, width: 8, height: 6, ffmpegPath: await fakeFfmpeg(dir, 20, 'stall'), noFrameMs: 300 }, async () => '');
    const e = await camera.emptyPlatform().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CameraFaultError);
    expect((e as Error).message).toBe(`camera ${device} delivered no frame for 300 ms`);
    await camera.close();
  });
});
