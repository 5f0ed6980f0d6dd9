/**
 * Vision figures: the whole pipeline (settle check, location, reading four dice)
 * on 1280x720 simulated frames, the settle check alone, and reading accuracy on
 * the held-out lighting preset and the held-out half of the real tray photos.
 * Prints; asserts nothing.
 */
import { join, resolve } from 'node:path';
import { decodeImageFile } from '../src/camera/decode.js';
import { readLabelledFolder } from '../src/camera/labelledFolder.js';
import { SimulatedCamera } from '../src/camera/sim/simulatedCamera.js';
import { D6PipReader } from '../src/vision/d6Pips.js';
import { evaluateReads, formatConfusion } from '../src/vision/evaluate.js';
import type { EvalItem } from '../src/vision/evaluate.js';
import { defaultLocateOptions } from '../src/vision/locate.js';
import { cropForBox } from '../src/vision/photoCrops.js';
import { defaultCockedLimits, readFrame } from '../src/vision/pipeline.js';
import { SettleDetector } from '../src/vision/settle.js';

// Run from the checkout (npm run bench); the shared datasets sit beside it, or where DICERIG_DATASETS says.
const PHOTOS = join(process.env['DICERIG_DATASETS'] ?? resolve(process.cwd(), '..', 'shared', 'datasets'), 'd6-tray-photos', 'images');

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[s.length >> 1] ?? Number.NaN;
}

export async function runVisionBench(): Promise<void> {
  const size = 72;
  const options = { locate: { ...defaultLocateOptions, expectedDieArea: size * size * 0.97 }, cocked: defaultCockedLimits, dieSizePx: size, cropScale: 1.5 };
  const cam = new SimulatedCamera({ seed: 4242, lighting: 'evening', channels: 4, dieSizePx: size });
  const reference = cam.emptyPlatform();
  const reader = new D6PipReader();
  const frames = Array.from({ length: 60 }, () => cam.still());
  const settle = new SettleDetector();
  const settleMs: number[] = [];
  const wholeMs: number[] = [];
  let prev = frames[0]!.image;
  settle.push(prev, 0);
  for (let i = 0; i < 200; i++) {
    const f = frames[i % frames.length]!;
    let t = performance.now();
    settle.push(i % 2 === 0 ? prev : f.image, i * 33);
    settleMs.push(performance.now() - t);
    t = performance.now();
    settle.push(f.image, i * 33 + 1);
    readFrame(f.image, reference, cam.layout.channels, reader, options);
    wholeMs.push(performance.now() - t);
    prev = f.image;
  }
  console.log(`vision: settle check alone (1280x720 -> 320x180 grey, difference): median ${median(settleMs).toFixed(2)} ms (target <= 2 ms)`);
  console.log(`vision: whole pipeline (settle check, location, reading 4 dice) on 1280x720: median ${median(wholeMs).toFixed(2)} ms (target <= 15 ms)`);

  // Accuracy on the held-out lighting preset.
  let flat = 0;
  let correct = 0;
  let wrong = 0;
  let declined = 0;
  for (let s = 0; s < 6; s++) {
    const c = new SimulatedCamera({ seed: 77_000 + s, lighting: 'evening', channels: 6, dieSizePx: size });
    const ref = c.emptyPlatform();
    for (let t = 0; t < 12; t++) {
      const { image, truth } = c.still();
      const res = readFrame(image, ref, c.layout.channels, reader, options);
      for (const die of truth.dice) {
        const r = res.readings.find((x) => x.channel === die.channel);
        flat++;
        if (!r || r.read.status !== 'read') declined++;
        else if (r.read.symbol === die.face) correct++;
        else wrong++;
      }
    }
  }
  console.log(`vision: simulated D6, held-out lighting: ${flat} dice, ${correct} correct, ${wrong} misread, ${declined} declined`);

  try {
    const folder = await readLabelledFolder(PHOTOS);
    const items: EvalItem[] = [];
    for (const photo of folder.photos.slice(100)) {
      const image = await decodeImageFile(photo.imagePath);
      for (const b of photo.boxes) items.push({ group: photo.name, truth: b.className, read: reader.read(cropForBox(image, b.box)) });
    }
    const rep = evaluateReads(items, folder.classes);
    console.log(
      `vision: real tray photos (held-out half, labelled boxes as crops): ${rep.total} dice, accuracy among read ${(rep.accuracyAmongRead * 100).toFixed(2)} %, declined ${(rep.declineRate * 100).toFixed(1)} %`,
    );
    console.log(formatConfusion(rep));
  } catch (e) {
    console.log(`vision: real tray photos skipped: ${(e as Error).message}`);
  }
}
