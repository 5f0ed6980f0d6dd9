/**
 * Training data for the learned reader (development time only, never part of
 * `npm test`): every labelled die of a folder, cut around its top face
 * (perspective parallax), turned into the network's input exactly as the
 * reader does it in TypeScript, plus a few shifted/scaled copies. Writes
 * `<out>.f32` (float32 inputs, N x 3 x size x size) and `<out>.json` (labels,
 * classes, groups, and the data hash: sha256 of the sorted file list and
 * contents of every image and label file used).
 *
 *   npx tsx training/learned/exportInputs.ts --images DIR --out PREFIX [--first 1 --last 80] [--classes a,b,...] [--jitters 3] [--size 32] [--scale 1.0] [--hfov 54] [--height-ratio 1] [--context 56] [--margin 1.5] [--hide-top 0.22] [--uncentred-edges]
 *
 * With `--context N` each die is written once, raw (not normalised), as N x N
 * cells at the network input's pixel density (a wider square around the same
 * centre): train.py then turns, scales, shifts, blurs and recolours it and
 * cuts and normalises the network's size x size input itself, as the reader does.
 * Every die's `radial` direction (the crop's, `topFaceCrop`: from the optical centre to the die, radians) is
 * recorded in the JSON, for a network that reads each die turned so that direction points down (train.py --radial), and
 * its angle off the lens axis (`offAxis`, degrees, from `--hfov` as the reader computes it) for a network told where the
 * die lies (train.py --off-axis-plane).
 * `--hide-top R` hides each die's top face's middle before anything is cut (`hideTopMiddle`: a disc of R die sizes around
 * the top face's centre painted in the body's colour), as the reader hides it for an outline check that says `hideTop`.
 * `--margin` is the crop's side over the box's longer side, as the reader's cutter cuts it (`LEARNED_CROP_MARGIN`, 1.5):
 * outside the crop the edge pixel repeats, so a wide context needs a wider crop to hold real surroundings.
 * A crop the frame's edge cut short is read around where its die lies (`DieCrop.center`), as the reader reads it since
 * 2026-12-01 and as the shipped learned-xwing/33 was trained; `--uncentred-edges` reads it around its middle instead, as
 * every network before learned-xwing/29 was trained (train-d6.sh, train-d6web.sh and train-xwing.sh without CENTRED=1
 * pass it, so they reproduce those networks bit for bit).
 */
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { decodeImageFile } from '../../src/camera/decode.js';
import { labelledFolderPaths } from '../../src/vision-io/labelledCrops.js';
import { readLabelledFolder } from '../../src/vision-io/labelledFolder.js';
import { topFaceCrop } from '../../src/vision/learned/crop.js';
import { hideTopMiddle } from '../../src/vision/learned/hideTop.js';
import { areaResample, learnedInput } from '../../src/vision/learned/input.js';
import { cameraFromFov, RADIAL_DOWN } from '../../src/vision/learned/topFace.js';
import { seededRandom } from '../../src/stats/random.js';
import { dataHash } from './dataHash.js';

const { values } = parseArgs({
  options: {
    images: { type: 'string' },
    out: { type: 'string' },
    first: { type: 'string', default: '1' },
    last: { type: 'string', default: '1000000' },
    classes: { type: 'string' },
    jitters: { type: 'string', default: '3' },
    size: { type: 'string', default: '32' },
    scale: { type: 'string', default: '1.0' },
    hfov: { type: 'string', default: '54' },
    'height-ratio': { type: 'string', default: '1' },
    seed: { type: 'string', default: '5' },
    context: { type: 'string', default: '0' },
    margin: { type: 'string', default: '1.5' },
    'hide-top': { type: 'string', default: '0' },
    'uncentred-edges': { type: 'boolean', default: false },
  },
});
if (!values.images || !values.out) throw new Error('--images and --out are required');
const paths = labelledFolderPaths(values.images);
const folder = await readLabelledFolder(paths.images, paths.labels);
const first = Number(values.first);
const last = Number(values.last);
const photos = folder.photos.slice(first - 1, last);
const classes = values.classes ? values.classes.split(',') : [...folder.classes];
const size = Number(values.size);
const scale = Number(values.scale);
const jitters = Number(values.jitters);
const heightRatio = Number(values['height-ratio']);
const context = Number(values.context);
const margin = Number(values.margin);
if (!(margin >= 1)) throw new Error(`--margin ${values.margin}: the crop's side over the box's longer side, 1 or more`);
const hideTop = Number(values['hide-top']);
if (!(hideTop >= 0 && hideTop < 0.5)) throw new Error(`--hide-top ${values['hide-top']}: the hidden disc's radius in die sizes, 0 (nothing hidden) up to 0.5`);
const random = seededRandom(Number(values.seed));
const labelsDir = paths.labels ?? join(paths.images, '..', 'labels');
const inputs: Float32Array[] = [];
const labels: number[] = [];
const groups: string[] = [];
const source: number[] = [];
const radial: number[] = [];
const offAxis: number[] = [];
for (const photo of photos) {
  const boxes = photo.boxes.filter((b) => classes.includes(b.className));
  if (boxes.length === 0) continue;
  const image = await decodeImageFile(photo.imagePath);
  const camera = cameraFromFov(image.width, image.height, Number(values.hfov));
  for (const b of boxes) {
    const box = { x: b.box.x * image.width, y: b.box.y * image.height, width: b.box.width * image.width, height: b.box.height * image.height };
    const cut = topFaceCrop(image, box, { heightRatio, camera, gain: 1, margin });
    const crop = hideTop > 0 ? hideTopMiddle(cut, hideTop) : cut;
    const middle = { x: crop.image.width / 2, y: crop.image.height / 2 };
    const c = values['uncentred-edges'] ? middle : (crop.center ?? middle);
    const record = (input: Float32Array, jitter: number): void => {
      inputs.push(input);
      labels.push(classes.indexOf(b.className));
      groups.push(photo.name);
      source.push(jitter);
      radial.push(crop.radial ?? RADIAL_DOWN);
      offAxis.push(crop.offAxisDeg ?? 0);
    };
    if (context > 0) {
      record(areaResample(crop.image, c, (crop.sizePx * scale * context) / size, context), 0);
      continue;
    }
    for (let j = 0; j <= jitters; j++) {
      const s = j === 0 ? 1 : 0.9 + random() * 0.2;
      const dx = j === 0 ? 0 : (random() - 0.5) * 0.12 * crop.sizePx;
      const dy = j === 0 ? 0 : (random() - 0.5) * 0.12 * crop.sizePx;
      record(learnedInput(crop.image, { x: c.x + dx, y: c.y + dy }, crop.sizePx * scale * s, size), j);
    }
  }
}
// One input at a time: a 96-cell context square of 22,450 dice is 2.5 GB, over what one write (or one Buffer) may hold.
const fd = openSync(`${values.out}.f32`, 'w');
try {
  for (const x of inputs) writeSync(fd, new Uint8Array(x.buffer, x.byteOffset, x.byteLength));
} finally {
  closeSync(fd);
}
const hash = dataHash(photos, labelsDir);
writeFileSync(`${values.out}.json`, JSON.stringify({ images: paths.images, first, last, photos: photos.length, classes, size, context, scale, margin, ...(hideTop > 0 ? { hideTop } : {}), jitters: context > 0 ? 0 : jitters, heightRatio, hfov: Number(values.hfov), dataHash: hash, labels, groups, jitter: source, radial, offAxis }));
console.log(`${inputs.length} inputs (${context > 0 ? labels.length : labels.length / (jitters + 1)} dice, ${photos.length} photos) -> ${values.out}.f32; data hash ${hash}`);
