/**
 * A rendered folder read as a session reads a throw (issue 11, item 2): each image located against its empty platform
 * (`empty/<name>.jpg`, written by `npm run render -- --empty-platform`), every located die judged and read by the
 * pipeline a session runs (`readFrame`: touching dice and outlines declined, the crop centred where the profile's reader
 * looks), then matched to the labelled die whose box holds its centre. `vision eval` reads crops cut around the
 * labelled boxes instead, so it does not see what location gets wrong. Development time only.
 *
 *   npx tsx training/learned/sessionRecall.ts --images DIR --calibration PROFILE   (X-Wing dice, a profile's reader)
 *   npx tsx training/learned/sessionRecall.ts --images DIR --die d6                (D6s, the pip counter a session runs)
 *   npx tsx training/learned/sessionRecall.ts --images DIR --die d6 --learned [--hfov 54]
 *        (D6s by the shipped learned network, cut around the top face by perspective as a calibrated X-Wing reader cuts;
 *        the network's own cocked class judges tilt, the blob checks made for dice seen face on left out: what a
 *        session would read of D6s under a webcam above an open platform, which sessions do not support yet)
 *
 * `--rig` (`renderRigThrows.ts --labels` folders): every throw located against the rig's one `reference.png`, and cut
 * with the die size the profile holds (`dieSizePx`, measured by the guided calibration on the rig), as a session on
 * that rig would.
 *
 * The whole frame is one channel holding the image's labelled dice; the die size a rig calibrates is taken from the
 * image's labelled boxes (the median longest side of its flat dice) for d8s, and for D6s from the render's truth (the
 * median top face's side, by the die's size and the camera's height and field of view); the pipeline's options are a session's
 * (`sessionPipeline`). As that channel expects several dice, X-Wing location splits blobs of touching dice there
 * (`splitTouching.ts`); a session's channel of one die never does.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { decodeImageFile } from '../../src/camera/decode.js';
import type { Rect } from '../../src/core/image.js';
import { rectChannel } from '../../src/vision/channels.js';
import { classOfRead } from '../../src/vision/labelledEval.js';
import { readFrame } from '../../src/vision/pipeline.js';
import { sessionPipeline } from '../../src/session/sessionPipeline.js';
import { labelledFolderPaths } from '../../src/vision-io/labelledCrops.js';
import { readLabelledFolder } from '../../src/vision-io/labelledFolder.js';
import { readProfileFile } from '../../src/vision-io/profileFile.js';
import { chooseReader, type ChosenReader } from '../../src/vision-io/readerChoice.js';
import type { FaceReader } from '../../src/vision/faceRead.js';
import { defaultLearnedReaderOptions, LearnedReader } from '../../src/vision/learned/reader.js';
import { learnedPipelineCrop } from '../../src/vision/learned/shipped.js';
import { d6Model } from '../../src/vision/learned/weights/d6.js';

const { values } = parseArgs({
  options: { images: { type: 'string' }, calibration: { type: 'string' }, die: { type: 'string', default: 'xwing' }, learned: { type: 'boolean', default: false }, hfov: { type: 'string', default: '54' }, rig: { type: 'boolean', default: false } },
});
const family = values.die === 'd6' ? 'pips' : values.die === 'xwing' ? 'xwing' : undefined;
const hfovDeg = Number(values.hfov);
if (!values.images || family === undefined || (family === 'xwing') !== (values.calibration !== undefined) || (values.learned && family !== 'pips') || !(hfovDeg > 0 && hfovDeg < 180)) {
  throw new Error('usage: sessionRecall.ts --images DIR --calibration PROFILE (X-Wing dice) | --images DIR --die d6 [--learned [--hfov DEGREES]]');
}
const root = values.images.replace(/\/images\/?$/, '');
const paths = labelledFolderPaths(values.images);
const folder = await readLabelledFolder(paths.images, paths.labels);
/** D6s by the shipped learned network, judging tilt by its own cocked class (the blob checks are left out). */
function learnedD6(): Pick<ChosenReader, 'reader' | 'pipelineCrop'> {
  const model = d6Model;
  const network = new LearnedReader(model, defaultLearnedReaderOptions);
  const reader: FaceReader = { classifierVersion: network.classifierVersion, judgesTilt: true, read: (crop) => network.read(crop) };
  return { reader, pipelineCrop: (frame, dieSizePx) => learnedPipelineCrop(model, hfovDeg, frame, dieSizePx) };
}
const chosen = values.learned ? learnedD6() : family === 'pips' ? await chooseReader('d6', { d6: 'pips' }) : await chooseReader('xwing', { calibration: values.calibration });

interface Tally {
  labelled: number;
  correct: number;
  wrong: number;
  declined: Map<string, number>;
  missed: number;
}
const byClass = new Map<string, Tally>();
const tally = (c: string): Tally => {
  let t = byClass.get(c);
  if (!t) byClass.set(c, (t = { labelled: 0, correct: 0, wrong: 0, declined: new Map(), missed: 0 }));
  return t;
};
const notes: string[] = [];
const missedHow = new Map<string, number>();
/** Labelled dice in a blob of touching dice, by whether the render's truth has them touching another die. */
const touchingBlob = new Map<boolean, number>();
/** The same dice by what the pipeline called their blob (`shadow`: one die and its hard shadow; `touching`: anything else) and the truth. */
const blobCalls = new Map<string, number>();
const blobCall = (read: { readonly cause?: string }, touching: boolean): void => bump(blobCalls, `${read.cause ?? 'none'} / ${touching ? 'touching another die' : 'alone'}`);
/** One more of `key` in `counts`. */
const bump = <K>(counts: Map<K, number>, key: K): void => void counts.set(key, (counts.get(key) ?? 0) + 1);
/** Labelled dice whose located die was split from a blob of touching dice: read right, read wrong, declined. */
const split = { right: 0, wrong: 0, declined: 0 };
/** Flat labelled dice by the platform they lie on: how many, how many with a located die of their own, how many read. */
const byPlatform = new Map<string, { flat: number; own: number; read: number }>();
let phantomRead = 0;
let phantomDeclined = 0;
let images = 0;
const rigSize = values.rig && values.calibration !== undefined ? (await readProfileFile(values.calibration)).dieSizePx : undefined;
for (const photo of folder.photos) {
  const empty = values.rig ? join(root, 'reference.png') : join(root, 'empty', `${basename(photo.imagePath).replace(/\.[a-z]+$/i, '')}.jpg`);
  if (!existsSync(empty)) throw new Error(`${empty} is missing: render the folder with --empty-platform (a rig's throws: renderRigThrows.ts)`);
  if (photo.boxes.length === 0) continue;
  images++;
  const frame = await decodeImageFile(photo.imagePath);
  const reference = await decodeImageFile(empty);
  const boxes = photo.boxes.map((b) => ({ cls: b.className, x: b.box.x * frame.width, y: b.box.y * frame.height, w: b.box.width * frame.width, h: b.box.height * frame.height, read: false, readAsFace: false, touching: false }));
  // A rendered folder's truth says which dice touch another (labels in the same order as its dice).
  const truthFile = join(root, 'truth', `${photo.name}.json`);
  /** The platform the scene was rendered on (from the render's truth). */
  let platform = 'unknown platform';
  /** A D6's side as a rig states it (the top face's side, in pixels), from the render's truth. */
  let cubeSidePx: number | undefined;
  // A rig's kept truth (renderRigThrows.ts) holds only where each die lies and what it shows.
  if (!values.rig && existsSync(truthFile)) {
    const { scene, preset } = JSON.parse(readFileSync(truthFile, 'utf8')) as { preset?: { platform?: string }; scene: { placed: { touches: (number | 'wall')[]; sizeCm: number; cocked: boolean }[]; camera: { heightCm: number }; lens: { hfovDeg: number } } };
    platform = preset?.platform ?? platform;
    const placed = scene.placed;
    const focalPx = frame.width / 2 / Math.tan((scene.lens.hfovDeg * Math.PI) / 360);
    const cubeSides = placed.filter((p) => !p.cocked).map((p) => (p.sizeCm * focalPx) / (scene.camera.heightCm - p.sizeCm)).sort((a, b) => a - b);
    cubeSidePx = cubeSides[cubeSides.length >> 1];
    placed.forEach((p, i) => {
      for (const t of p.touches) {
        if (typeof t !== 'number') continue;
        if (boxes[i]) boxes[i].touching = true;
        if (boxes[t]) boxes[t].touching = true;
      }
    });
  }
  const sides = boxes.filter((b) => b.cls !== 'cocked').map((b) => Math.max(b.w, b.h)).sort((a, b) => a - b);
  // A d8's size is across its corners, which its box's longer side shows; a cube's box grows with its turn in the
  // frame (up to 1.41 times its side), so a D6's side is taken from the render's truth, as a rig's user measures it.
  const boxSize = sides.length > 0 ? (sides[sides.length >> 1] as number) : Math.max(...boxes.map((b) => Math.max(b.w, b.h)));
  const dieSizePx = rigSize ?? (family === 'pips' && cubeSidePx !== undefined ? cubeSidePx : boxSize);
  const pipeline = sessionPipeline(family, dieSizePx, chosen.pipelineCrop?.(reference, dieSizePx));
  const channel = rectChannel(1, { x: 0, y: 0, width: frame.width, height: frame.height }, boxes.length);
  const { readings } = readFrame(frame, reference, [channel], chosen.reader, pipeline);
  const inBox = (b: (typeof boxes)[number], x: number, y: number): boolean => x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h;
  const overlaps = (b: (typeof boxes)[number], r: Rect): boolean => r.x < b.x + b.w && r.x + r.width > b.x && r.y < b.y + b.h && r.y + r.height > b.y;
  for (const { die, read } of readings) {
    const { x, y } = die.center;
    const holding = boxes.filter((b) => inBox(b, x, y));
    // Touching dice are one blob: its centre may lie in either box, or between them.
    const label = holding.length === 1 ? holding[0] : undefined;
    if (label === undefined) {
      if (read.status === 'read') {
        phantomRead++;
        notes.push(`${photo.name}: a blob at (${x.toFixed(0)}, ${y.toFixed(0)}) in ${holding.length} labelled boxes read as ${classOfRead(read)} (${read.confidence.toFixed(2)})`);
      } else phantomDeclined++;
      continue;
    }
    const t = tally(label.cls);
    if (label.read) continue; // a second blob on the same die: counted once
    label.read = true;
    if (read.cause === 'touching' || read.cause === 'shadow') {
      bump(touchingBlob, label.touching);
      blobCall(read, label.touching);
    }
    if (die.splitFrom !== undefined) split[read.status !== 'read' ? 'declined' : classOfRead(read) === label.cls ? 'right' : 'wrong']++;
    if (read.status === 'read') label.readAsFace = true;
    if (read.status !== 'read') bump(t.declined, read.cause ?? read.status);
    else if (classOfRead(read) === label.cls) t.correct++;
    else {
      t.wrong++;
      notes.push(`${photo.name}: ${label.cls} read as ${classOfRead(read)} (${read.confidence.toFixed(2)})`);
    }
  }
  for (const b of boxes) {
    if (b.cls !== 'cocked') {
      const p = byPlatform.get(platform) ?? { flat: 0, own: 0, read: 0 };
      byPlatform.set(platform, { flat: p.flat + 1, own: p.own + (b.read ? 1 : 0), read: p.read + (b.readAsFace ? 1 : 0) });
    }
    const t = tally(b.cls);
    t.labelled++;
    if (b.read) continue;
    t.missed++;
    // Why no located die of its own: in a blob of touching dice, in a blob centred where its box overlaps another's
    // (dice side by side), in one die's blob centred off it (its shadow pulls the centre away), or in no blob at all.
    const inBlob = readings.find(({ die }) => overlaps(b, die.bbox));
    const blob = inBlob?.die;
    const how =
      blob === undefined
        ? 'in no blob'
        : blob.estimatedCount > 1
          ? 'in a blob of touching dice'
          : boxes.filter((o) => inBox(o, blob.center.x, blob.center.y)).length > 1
            ? "in one die's blob centred where two labelled boxes overlap"
            : "in one die's blob centred off it";
    bump(missedHow, how);
    if (blob !== undefined && blob.estimatedCount > 1) {
      bump(touchingBlob, b.touching);
      blobCall(inBlob?.read ?? {}, b.touching);
    }
  }
}
const sum = (f: (t: Tally) => number, flat: boolean): number => [...byClass.entries()].filter(([c]) => (c !== 'cocked') === flat).reduce((s, [, t]) => s + f(t), 0);
const declinedOf = (t: Tally): number => [...t.declined.values()].reduce((s, v) => s + v, 0);
const flatN = sum((t) => t.labelled, true);
const read = sum((t) => t.correct + t.wrong, true);
console.log(`${values.images}: ${images} images, ${flatN} flat and ${sum((t) => t.labelled, false)} cocked labelled dice, located against each image's empty platform and read by ${chosen.reader.classifierVersion}`);
console.log(`flat dice: read ${read} (${((100 * read) / flatN).toFixed(1)} %), correct among read ${((100 * sum((t) => t.correct, true)) / Math.max(1, read)).toFixed(2)} %, declined ${sum(declinedOf, true)} (${((100 * sum(declinedOf, true)) / flatN).toFixed(1)} %), no located die of their own ${sum((t) => t.missed, true)} (${((100 * sum((t) => t.missed, true)) / flatN).toFixed(1)} %)`);
console.log(`cocked dice read as a face: ${sum((t) => t.wrong, false)}; blobs on no single labelled die: ${phantomRead} read as a face, ${phantomDeclined} declined`);
console.log(`labelled dice with no located die of their own: ${missedHow.size === 0 ? 'none' : [...missedHow.entries()].map(([k, v]) => `${v} ${k}`).join(', ')}`);
console.log(`labelled dice located apart from the dice they touch (a blob split): ${split.right + split.wrong + split.declined}, ${split.right} read right, ${split.wrong} read wrong (cocked ones included), ${split.declined} declined`);
if (touchingBlob.size > 0) console.log(`labelled dice in a blob of touching dice: ${touchingBlob.get(true) ?? 0} touching another die in the render's truth, ${touchingBlob.get(false) ?? 0} not (their blob holds a shadow or a wall's edge)`);
if (blobCalls.size > 0) console.log(`those dice by the pipeline's call (one die and its hard shadow / anything else) and the truth: ${[...blobCalls.entries()].sort().map(([k, v]) => `${v} ${k}`).join(', ')}`);
const causes = [...new Set([...byClass.values()].flatMap((t) => [...t.declined.keys()]))].sort();
console.log(`${'face'.padEnd(12)} dice  read  wrong  missed  ${causes.map((c) => c.padStart(9)).join('')}`);
for (const [c, t] of [...byClass.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
  console.log(`${c.padEnd(12)} ${String(t.labelled).padStart(4)}  ${String(t.correct + t.wrong).padStart(4)}  ${String(t.wrong).padStart(5)}  ${String(t.missed).padStart(6)}  ${causes.map((k) => String(t.declined.get(k) ?? 0).padStart(9)).join('')}`);
}
if (byPlatform.size > 1 || !byPlatform.has('unknown platform')) {
  const pct = (a: number, b: number): string => `${((100 * a) / Math.max(1, b)).toFixed(0)} %`;
  console.log(`flat dice by platform (dice, with a located die of their own, read): ${[...byPlatform.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([k, v]) => `${k} ${v.flat}, ${pct(v.own, v.flat)}, ${pct(v.read, v.flat)}`).join('; ')}`);
}
for (const n of notes.slice(0, 20)) console.log(`  ${n}`);
