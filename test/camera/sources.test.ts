import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng } from '../../src/camera/decode.js';
import { ffmpegFrameSource } from '../../src/camera/ffmpegSource.js';
import { folderReplay } from '../../src/camera/folderReplay.js';
import { takeFrames } from '../../src/camera/frameSource.js';
import { readLabelledFolder } from '../../src/vision-io/labelledFolder.js';
import { cameraOpenError, v4l2Camera } from '../../src/camera/v4l2Camera.js';
import { DicerigError, InputError } from '../../src/core/errors.js';
import { CameraFaultError } from '../../src/camera/cameraErrors.js';
import { fakeFfmpeg } from './support/fakeFfmpeg.js';

const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dicerig-camera-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!hasFfmpeg)('ffmpeg frame source', () => {
  it('reads whole raw RGB frames from ffmpeg testsrc with frame-rate timestamps', async () => {
    const source = ffmpegFrameSource({ inputArgs: ['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-frames:v', '4'], width: 160, height: 120, fps: 10, description: 'testsrc' });
    const frames = await takeFrames(source);
    expect(frames.map((f) => f.index)).toEqual([0, 1, 2, 3]);
    expect(frames.map((f) => f.timestampMs)).toEqual([0, 100, 200, 300]);
    expect(frames[0]?.image.data.length).toBe(160 * 120 * 3);
    // testsrc animates: consecutive frames differ.
    expect(Buffer.compare(Buffer.from(frames[0]!.image.data), Buffer.from(frames[1]!.image.data))).not.toBe(0);
  });

  it('stops ffmpeg when the reader stops early', async () => {
    const source = ffmpegFrameSource({ inputArgs: ['-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=30'], width: 64, height: 48, description: 'endless testsrc' });
    const frames = await takeFrames(source, 3);
    await source.close();
    expect(frames).toHaveLength(3);
  });

  it('names the device and the fix when the camera does not exist', async () => {
    const cam = v4l2Camera({ device: '/dev/video-none-here', width: 320, height: 240 });
    await expect(takeFrames(cam, 1)).rejects.toThrow(/\/dev\/video-none-here.*(plug the camera in|check the device)/);
  });
});

describe('a V4L2 camera that stops after delivering frames (ffmpeg stand-in)', () => {
  const noCtl = '/nonexistent/v4l2-ctl';

  it('ends its frames with a camera fault naming the device and what ffmpeg last said when ffmpeg dies (the camera unplugged)', async () => {
    const cam = v4l2Camera({ device: '/dev/video7', width: 8, height: 6, ffmpegPath: await fakeFfmpeg(dir, 3, 'unplug'), v4l2CtlPath: noCtl });
    const seen: number[] = [];
    const e = await (async () => {
      for await (const f of cam) seen.push(f.index);
    })().catch((x: unknown) => x);
    expect(seen).toEqual([0, 1, 2]);
    expect(e).toBeInstanceOf(CameraFaultError);
    expect((e as Error).message).toBe('camera /dev/video7 stopped: ffmpeg exited with code 1 after 3 frames, saying "[video4linux2,v4l2 @ 0x5581] ioctl(VIDIOC_DQBUF): No such device"');
  });

  it('is closed at once while ffmpeg stalls with its pipe open, and ffmpeg is ended', async () => {
    const cam = v4l2Camera({ device: '/dev/video7', width: 8, height: 6, ffmpegPath: await fakeFfmpeg(dir, 2, 'stall'), v4l2CtlPath: noCtl });
    const iterator = cam[Symbol.asyncIterator]();
    expect((await iterator.next()).value?.index).toBe(0);
    expect((await iterator.next()).value?.index).toBe(1);
    // A third frame never comes: whoever waits for it is let go when the camera closes.
    const waiting = iterator.next();
    await cam.close();
    expect(await waiting).toMatchObject({ done: true });
  });

  it('opened again is a fresh ffmpeg on the same device, with frames numbered from 0', async () => {
    const cam = v4l2Camera({ device: '/dev/video7', width: 8, height: 6, ffmpegPath: await fakeFfmpeg(dir, 2, 'unplug'), v4l2CtlPath: noCtl });
    await expect(takeFrames(cam)).rejects.toBeInstanceOf(CameraFaultError);
    await cam.close();
    const again = cam.reopen?.();
    expect(again?.description).toBe('camera /dev/video7');
    const frames = await takeFrames(again!, 2);
    expect(frames.map((f) => f.index)).toEqual([0, 1]);
    await again?.close();
  });
});

describe('camera errors', () => {
  it('tells a busy camera, a missing one and one this user may not open apart', () => {
    expect(cameraOpenError('/dev/video0', 'Device or resource busy').message).toMatch(/another program is using it/);
    expect(cameraOpenError('/dev/video0', 'Cannot open video device /dev/video0: No such file or directory').message).toMatch(/plug the camera in/);
    // A user outside the camera's group: ffmpeg says "Cannot open video device" here too, but nothing needs plugging in.
    const denied = cameraOpenError('/dev/video0', '[video4linux2,v4l2 @ 0x1] Cannot open video device /dev/video0: Permission denied').message;
    expect(denied).toMatch(/this user may not open it: add the user to the device's group \(usually `video`/);
    expect(denied).not.toMatch(/plug the camera in/);
  });

  it('reports a missing ffmpeg as a typed error with the fix', async () => {
    const source = ffmpegFrameSource({ inputArgs: ['-i', 'x'], width: 2, height: 2, description: 'x', ffmpegPath: '/nonexistent/ffmpeg' });
    await expect(takeFrames(source, 1)).rejects.toThrow(DicerigError);
    await expect(takeFrames(source, 1)).rejects.toThrow(/ffmpeg was not found.*apt-get install ffmpeg/);
  });
});

describe('folder replay and labelled folders', () => {
  it('replays an image folder in name order with decoded pixels', async () => {
    const frames = join(dir, 'frames');
    await mkdir(frames);
    const img = (v: number) => ({ width: 4, height: 2, data: new Uint8Array(24).fill(v) });
    await writeFile(join(frames, 'b.png'), await encodePng(img(200)));
    await writeFile(join(frames, 'a.png'), await encodePng(img(50)));
    const got = await takeFrames(folderReplay(frames, 10));
    expect(got.map((f) => f.image.data[0])).toEqual([50, 200]);
    expect(got.map((f) => f.timestampMs)).toEqual([0, 100]);
  });

  it('reads YOLO labels with class names and reports a bad line with file and line', async () => {
    const root = join(dir, 'set');
    await mkdir(join(root, 'images'), { recursive: true });
    await mkdir(join(root, 'labels'));
    await writeFile(join(root, 'labels', 'classes.txt'), 'red-hit\nred-crit\ncocked\n');
    await writeFile(join(root, 'images', 'p1.png'), await encodePng({ width: 2, height: 2, data: new Uint8Array(12) }));
    await writeFile(join(root, 'labels', 'p1.txt'), '2 0.5 0.5 0.2 0.4\n0 0.1 0.1 0.1 0.1\n');
    const folder = await readLabelledFolder(join(root, 'images'));
    expect(folder.classes).toEqual(['red-hit', 'red-crit', 'cocked']);
    expect(folder.photos[0]?.boxes.map((b) => b.className)).toEqual(['cocked', 'red-hit']);
    expect(folder.photos[0]?.boxes[0]?.box.x).toBeCloseTo(0.4);
    await writeFile(join(root, 'labels', 'p1.txt'), '0 0.5 0.5 0.2 0.4\n7 0.1 0.1 0.1 0.1\n');
    const err = await readLabelledFolder(join(root, 'images')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toMatch(/p1\.txt, line 2: class 7 is not in classes\.txt/);
  });
});
