/**
 * Recall of location with no empty-platform reference (issue 11, item 2) on a
 * labelled folder (e.g. a render split): a labelled die counts as found when
 * a located blob's box holds its box centre; blobs holding no labelled die are
 * false finds. The die size given to the locator is the folder's median box
 * side (what a calibration knows). Development time only.
 *
 *   npx tsx training/learned/locateRecall.ts --images /work/data/renders/test-xwing [--area-factor 0.55]
 */
import { parseArgs } from 'node:util';
import { decodeImageFile } from '../../src/camera/decode.js';
import type { Rect } from '../../src/core/image.js';
import { labelledFolderPaths } from '../../src/vision-io/labelledCrops.js';
import { readLabelledFolder } from '../../src/vision-io/labelledFolder.js';
import { rectChannel } from '../../src/vision/channels.js';
import { locateOnAnyPlatform } from '../../src/vision/learned/platform.js';

const { values } = parseArgs({ options: { images: { type: 'string' }, 'area-factor': { type: 'string', default: '0.55' } } });
if (!values.images) throw new Error('--images is required');
const paths = labelledFolderPaths(values.images);
const folder = await readLabelledFolder(paths.images, paths.labels);
let labelled = 0;
let found = 0;
let falseFinds = 0;
let inStructure = 0;
let cockedLabelled = 0;
let cockedFound = 0;
const missedBy = new Map<string, number>();
// Per class: labelled, found, and found apart: a blob counted as one die whose box overlaps the labelled box by an
// intersection over union of 0.5 or more (what a session can cut and read; a blob of touching dice is declined).
const byClass = new Map<string, { labelled: number; found: number; apart: number }>();
const iou = (a: Rect, b: Rect): number => {
  const w = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const h = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  return (w * h) / (a.width * a.height + b.width * b.height - w * h);
};
for (const photo of folder.photos) {
  if (photo.boxes.length === 0) continue;
  const image = await decodeImageFile(photo.imagePath);
  const sides = photo.boxes.map((b) => Math.min(b.box.width * image.width, b.box.height * image.height)).sort((a, b) => a - b);
  const size = sides[sides.length >> 1] as number;
  const result = locateOnAnyPlatform(image, [rectChannel(1, { x: 0, y: 0, width: image.width, height: image.height }, photo.boxes.length)], size, Number(values['area-factor']) * size * size * 2);
  const hit = new Set<number>();
  for (const b of photo.boxes) {
    const cx = (b.box.x + b.box.width / 2) * image.width;
    const cy = (b.box.y + b.box.height / 2) * image.height;
    const i = result.dice.findIndex((d) => cx >= d.bbox.x && cx <= d.bbox.x + d.bbox.width && cy >= d.bbox.y && cy <= d.bbox.y + d.bbox.height);
    labelled++;
    const c = byClass.get(b.className) ?? { labelled: 0, found: 0, apart: 0 };
    byClass.set(b.className, c);
    c.labelled++;
    const px = { x: b.box.x * image.width, y: b.box.y * image.height, width: b.box.width * image.width, height: b.box.height * image.height };
    if (result.dice.some((d) => d.estimatedCount < 2 && iou(d.bbox, px) >= 0.5)) c.apart++;
    if (b.className === 'cocked') cockedLabelled++;
    if (i >= 0 && !result.structures.includes(result.dice[i] as (typeof result.dice)[number])) {
      found++;
      c.found++;
      if (b.className === 'cocked') cockedFound++;
      hit.add(i);
    } else if (i >= 0) inStructure++;
    else missedBy.set(photo.name, (missedBy.get(photo.name) ?? 0) + 1);
  }
  falseFinds += result.dice.filter((_, i) => !hit.has(i)).length;
}
console.log(`${folder.photos.length} images, ${labelled} labelled dice: found ${found} (recall ${((100 * found) / labelled).toFixed(1)} %; ${inStructure} more merged with a wall-sized blob), ${falseFinds} blobs holding no labelled die; cocked dice found ${cockedFound} of ${cockedLabelled}`);
for (const [name, c] of [...byClass.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
  console.log(`  ${name.padEnd(12)} ${String(c.labelled).padStart(5)} labelled, found ${((100 * c.found) / c.labelled).toFixed(1)} %, found apart ${((100 * c.apart) / c.labelled).toFixed(1)} %`);
}
const worst = [...missedBy.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
if (worst.length > 0) console.log(`most missed in: ${worst.map(([n, k]) => `${n} (${k})`).join(', ')}`);
