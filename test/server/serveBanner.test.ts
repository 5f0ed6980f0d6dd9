/**
 * What serve says at its start about the parts it runs on: the rig and the camera each as what it is, and a live
 * camera that cannot be opened before the first roll needs it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodePng } from '../../src/camera/decode.js';
import { checkSessionConfig } from '../../src/session/config.js';
import { rigAndCamera } from '../../src/cli/commands/serve.js';
import { systemClock } from '../../src/core/clock.js';
import { v4l2Camera } from '../../src/camera/v4l2Camera.js';
import { cameraProblem } from '../../src/session/cameraCheck.js';
import { simServeConfig } from '../../src/server/serve.js';
import { streamThrowCamera } from '../../src/session/throwCamera.js';
import { buildFirmware } from '../rig/support/build.js';
import { startTestServer } from './support/testServer.js';

describe('the start banner', () => {
  it('calls the simulated rig and camera so', async () => {
    const s = await startTestServer();
    try {
      expect(rigAndCamera(s.opened)).toBe('SIMULATED rig and camera');
    } finally {
      await s.close();
    }
  });

  it('names the emulated board as the real firmware in simavr, and the camera apart', async () => {
    buildFirmware();
    const config = { ...simServeConfig('xwing', { clock: 'system', seed: 2 }), rig: { driver: 'emulated' as const, light: 200 } };
    const s = await startTestServer({ config });
    try {
      expect(rigAndCamera(s.opened)).toBe('rig rig-01 (EMULATED board: the firmware in simavr), SIMULATED camera');
    } finally {
      await s.close();
    }
  }, 60_000);
});

describe('the camera check at start', () => {
  it('puts a camera that cannot be opened on the console as serve starts, before any roll', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dicerig-camera-check-'));
    const reference = join(dir, 'empty.png');
    writeFileSync(reference, await encodePng({ width: 1280, height: 720, data: new Uint8Array(1280 * 720 * 3).fill(128) }));
    const config = checkSessionConfig(
      {
        dice: [{ label: 'c-d6-1', type: 'd6' }],
        rig: { driver: 'sim' },
        camera: { source: 'device', device: '/dev/video99', face: 'bottom', reference, dieSizePx: 60, channels: [{ x: 0, y: 0, width: 100, height: 100 }] },
      },
      'test',
    );
    const s = await startTestServer({ config, dir });
    try {
      expect(s.logs.join('\n')).toMatch(/^Camera \/dev\/video99 could not be opened: it does not exist: plug the camera in .*\. Rolls fail until it gives frames/m);
      expect(rigAndCamera(s.opened)).toBe('SIMULATED rig, camera /dev/video99');
    } finally {
      await s.close();
    }
  }, 60_000);

  it('says a camera device that is not there could not be opened, and to plug it in', async () => {
    const camera = streamThrowCamera(v4l2Camera({ device: '/dev/video99', width: 64, height: 48 }), systemClock);
    try {
      expect(await cameraProblem(camera, systemClock)).toMatch(/^Camera \/dev\/video99 could not be opened: it does not exist: plug the camera in/);
    } finally {
      await camera.close();
    }
  });
});
