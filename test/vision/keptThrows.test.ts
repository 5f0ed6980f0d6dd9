/**
 * A guided calibration keeps its throws on disk as they are taken, replays them
 * as a camera, and once its dice are named writes labels that make the folder a
 * labelled folder whose boxes cut the dice where they were cut.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simCalibrationCamera } from '../../src/session/calibrationCameras.js';
import { decodeImageFile } from '../../src/camera/decode.js';
import { InputError } from '../../src/core/errors.js';
import { holdsKeptThrows, keepingCamera, keptThrowsCamera, writeThrowLabels } from '../../src/vision-io/keptThrows.js';
import { readLabelledFolder } from '../../src/vision-io/labelledFolder.js';
import { tempDir } from '../store/support/fixtures.js';
import type { RgbImage } from '../../src/core/image.js';

/** Whether two images hold the same pixels (vitest's deep equality walks 2.7 million numbers one by one). */
function same(a: RgbImage, b: RgbImage): boolean {
  return a.width === b.width && a.height === b.height && Buffer.from(a.data).equals(Buffer.from(b.data));
}

const platform = { channels: 4, dicePerChannel: 2, dieSizePx: 72, simulated: true, seed: 1 };
const live = () => simCalibrationCamera({ seed: 31, lighting: 'studio', channels: 4, dicePerChannel: 2, dice: 'xwing' });

describe('kept throws', () => {
  it('keeps the reference and every throw as they are taken, and gives the flow the frame as kept', async () => {
    const dir = join(tempDir('dicerig-kept-'), 'x.throws');
    const camera = await keepingCamera(live(), dir, platform);
    const reference = await camera.emptyPlatform();
    const first = await camera.nextThrow(0);
    const second = await camera.nextThrow(1);
    expect(holdsKeptThrows(dir)).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'kept.json'), 'utf8'))).toEqual({ camera: 'the simulated camera (seed 31, studio lighting)', ...platform });
    // The PNG reference is lossless; each throw is what decoding its JPEG gives, so a replay sees the same pixels.
    expect(same(await decodeImageFile(join(dir, 'reference.png')), reference)).toBe(true);
    expect(same(await decodeImageFile(join(dir, 'images', 'throw-0001.jpg')), first.image)).toBe(true);
    expect(same(await decodeImageFile(join(dir, 'images', 'throw-0002.jpg')), second.image)).toBe(true);
    // The simulator's truth still comes with the throw.
    expect(first.truth?.length).toBe(8);
  });

  it('replays the kept throws in order, saying how many there are and what took them', async () => {
    const dir = join(tempDir('dicerig-kept-'), 'x.throws');
    const camera = await keepingCamera(live(), dir, platform);
    await camera.emptyPlatform();
    const taken = [await camera.nextThrow(0), await camera.nextThrow(1), await camera.nextThrow(2)];
    const { camera: replay, manifest } = await keptThrowsCamera(dir);
    expect(manifest).toEqual({ camera: 'the simulated camera (seed 31, studio lighting)', ...platform });
    expect(replay.kept).toBe(3);
    expect(replay.description).toBe(`the throws kept in ${dir} (taken with the simulated camera (seed 31, studio lighting))`);
    for (const [i, t] of taken.entries()) {
      const again = await replay.nextThrow(i);
      expect(same(again.image, t.image)).toBe(true);
      // The simulated camera knows its dice: the replay says what they were, as the throw did.
      expect(again.truth).toEqual(t.truth);
    }
  });

  it('refuses to keep throws in a folder that holds anything, naming how to reuse it', async () => {
    const dir = join(tempDir('dicerig-kept-'), 'x.throws');
    mkdirSync(dir);
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    await expect(keepingCamera(live(), dir, platform)).rejects.toThrow(new RegExp(`${dir}: the folder for this calibration's throws already holds files .*--camera ${dir}`));
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('refuses a folder of no kept throws, and images out of sequence', async () => {
    const empty = tempDir('dicerig-kept-');
    await expect(keptThrowsCamera(empty)).rejects.toThrow(InputError);
    await expect(keptThrowsCamera(empty)).rejects.toThrow(/no kept throws here: a calibration's throws folder holds reference\.png, kept\.json and images\//);
    const dir = join(tempDir('dicerig-kept-'), 'x.throws');
    const camera = await keepingCamera(live(), dir, platform);
    await camera.emptyPlatform();
    await camera.nextThrow(0);
    await camera.nextThrow(1);
    renameSync(join(dir, 'images', 'throw-0002.jpg'), join(dir, 'images', 'throw-0003.jpg'));
    await expect(keptThrowsCamera(dir)).rejects.toThrow(/throw-0003\.jpg: kept throws are named throw-0001\.jpg, throw-0002\.jpg and so on, in sequence; "throw-0003\.jpg" is not the next one/);
  });

  it('writes labels that read back as the boxes named, to a thousandth of a pixel', async () => {
    const dir = join(tempDir('dicerig-kept-'), 'x.throws');
    const camera = await keepingCamera(live(), dir, platform);
    await camera.emptyPlatform();
    const image = (await camera.nextThrow(0)).image;
    await camera.nextThrow(1);
    const boxes = [
      { box: { x: 100.123456, y: 200.654321, width: 71.4999, height: 71.4999 }, label: 'red-hit' },
      { box: { x: 900.5, y: 33.25, width: 71.4999, height: 71.4999 }, label: 'cocked' },
    ];
    const classes = ['red-hit', 'red-blank', 'cocked'];
    const named = await writeThrowLabels(dir, classes, [
      { index: 0, image, dice: boxes },
      { index: 1, image, dice: [] },
    ]);
    expect(named).toBe(2);
    const folder = await readLabelledFolder(join(dir, 'images'));
    expect(folder.classes).toEqual(classes);
    expect(folder.photos.map((p) => p.name)).toEqual(['throw-0001', 'throw-0002']);
    expect(folder.photos[1]?.boxes).toEqual([]);
    const read = folder.photos[0]?.boxes ?? [];
    expect(read.map((b) => b.className)).toEqual(['red-hit', 'cocked']);
    read.forEach((b, i) => {
      const want = boxes[i]?.box as { x: number; y: number; width: number; height: number };
      expect(Math.abs(b.box.x * image.width - want.x)).toBeLessThan(1e-3);
      expect(Math.abs(b.box.y * image.height - want.y)).toBeLessThan(1e-3);
      expect(Math.abs(b.box.width * image.width - want.width)).toBeLessThan(1e-3);
    });
    expect(existsSync(join(dir, 'labels', 'throw-0002.txt'))).toBe(true);
  });
});
