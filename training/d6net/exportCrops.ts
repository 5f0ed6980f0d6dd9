/**
 * Training and rule-setting data for the D6 second opinion (development time only, never part of `npm test`).
 * Every labelled die of a folder is cut exactly as `vision eval` and a session cut it (`cropForBox`, 1.3x the box),
 * turned into the D6 network's input (`netInput`: body-colour relative, 32x32) and, with `--jitters J`, J more
 * copies whose sampled square is shifted and scaled. For each die it also records what
 * the pip counter says (count and confidence, with no threshold of its own), so the combined reader's rule can be
 * replayed off line. Writes `<out>.f32` (float32, dice x (1+J) x 3 x 32 x 32) and `<out>.json` (labels, photo of
 * each die, pip reads, data hash: sha256 of the sorted image names, image bytes and label files).
 *
 * With `--context N` each die is written once, raw (not normalised), as N x N cells at the input's density around the
 * same centre: train_d6net.py turns it by any angle, scales and shifts it, cuts the 32 x 32 input and normalises it
 * as netInput does.
 *
 *   npx tsx training/d6net/exportCrops.ts --images DIR --out PREFIX [--size 32] [--jitters 7 | --context 40] [--seed 7]
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { labelledFolderPaths, readLabelledCrops } from '../../src/vision-io/labelledCrops.js';
import { readLabelledFolder } from '../../src/vision-io/labelledFolder.js';
import { NET_INPUT_FRACTION, NET_INPUT_SIZE, netInput, samplePlanes } from '../../src/vision/d6/netInput.js';
import { D6PipReader, defaultD6PipOptions } from '../../src/vision/d6/pipReader.js';
import { seededRandom } from '../../src/stats/random.js';
import { dataHash } from '../learned/dataHash.js';

const { values } = parseArgs({
  options: {
    images: { type: 'string' },
    out: { type: 'string' },
    jitters: { type: 'string', default: '0' },
    seed: { type: 'string', default: '7' },
    context: { type: 'string', default: '0' },
    size: { type: 'string', default: String(NET_INPUT_SIZE) },
  },
});
if (!values.images || !values.out) throw new Error('--images DIR and --out PREFIX are required');
const jitters = Number(values.jitters);
if (!Number.isInteger(jitters) || jitters < 0) throw new Error(`--jitters must be a whole number >= 0, not "${values.jitters}"`);
const size = Number(values.size);
if (!Number.isInteger(size) || size < 8) throw new Error(`--size must be a whole number >= 8, not "${values.size}"`);
const context = Number(values.context);
if (!Number.isInteger(context) || (context !== 0 && context < size)) throw new Error(`--context must be 0 or a whole number >= --size (${size}), not "${values.context}"`);
if (context > 0 && jitters > 0) throw new Error('--context writes each die once, raw: train_d6net.py turns, scales and shifts it; give no --jitters');
const paths = labelledFolderPaths(values.images);
const labelsDir = paths.labels ?? join(paths.images, '..', 'labels');
const folder = await readLabelledFolder(paths.images, paths.labels);
const { crops } = await readLabelledCrops(paths.images, paths.labels);
const counter = new D6PipReader({ ...defaultD6PipOptions, minConfidence: 0 });
const random = seededRandom(Number(values.seed));
const side = 3 * (context || size) ** 2;
const all = new Float32Array(crops.length * (1 + jitters) * side);
const labels: number[] = [];
const groups: string[] = [];
const pipCount: number[] = [];
const pipConfidence: number[] = [];
crops.forEach((c, i) => {
  for (let j = 0; j <= jitters; j++) {
    const shift = j === 0 ? { dx: 0, dy: 0, scale: 1 } : { dx: (random() - 0.5) * 0.08, dy: (random() - 0.5) * 0.08, scale: 0.92 + random() * 0.16 };
    const planes = context > 0 ? samplePlanes(c.crop.image, context, (NET_INPUT_FRACTION * context) / size) : netInput(c.crop.image, size, NET_INPUT_FRACTION, shift).data;
    all.set(planes, (i * (1 + jitters) + j) * side);
  }
  labels.push(Number(c.label) - 1);
  groups.push(c.group);
  const pip = counter.read(c.crop);
  pipCount.push(pip.symbol === undefined ? 0 : Number(pip.symbol));
  pipConfidence.push(pip.confidence);
});
writeFileSync(`${values.out}.f32`, Buffer.from(all.buffer));
const hash = dataHash(folder.photos, labelsDir);
writeFileSync(
  `${values.out}.json`,
  JSON.stringify({ images: paths.images, photos: folder.photos.length, size, context, copies: 1 + jitters, dataHash: hash, labels, groups, pipCount, pipConfidence, pipMinConfidence: defaultD6PipOptions.minConfidence }),
);
console.log(`${crops.length} dice x ${1 + jitters} copies (${folder.photos.length} photos) -> ${values.out}.f32; data hash ${hash}`);
