/**
 * Renders labelled datasets with the 3D synthetic camera (src/camera/render3d):
 *
 *   npm run render -- --dice xwing --split train --count 1500 --out /work/data/renders/train-xwing
 *   npm run render -- --dice d6 --split test --count 300 --out /work/data/renders/test-d6 [--offset 0] [--cocked-rate 0.05] [--cocked-tilt 14,40]
 *
 * Seeds come from the split's range (see src/camera/render3d/README.md), so
 * train, tune and test sets never share a scene or a lighting/platform preset.
 * `--art foreign-1|foreign-2|foreign-3` draws the icons in artwork the reader is never trained on; `--art random` (train split
 * only) gives every die its own icon style (see look.ts).
 * `--cocked-tilt LOW,HIGH` makes cocked dice lean LOW..HIGH degrees (default 14,40): low leans are the hardest to catch.
 * `--cocked-on-die SHARE` is the share of cocked dice that lean on another die rather than a wall, where both are there
 * (default 0.4): dice leaning on dice are the ones the reader most often reads as a face.
 * `--lighting NAME[,NAME]` lights every scene by one of the named presets of the split (presets.ts), opt-in ones
 * such as `ceiling-panel-bright` included; by default a scene draws from the split's own, opt-in ones left out.
 * `--look tray` (D6 only) draws phone photos of a dice tray instead of a rig's webcam (see tray.ts).
 * `--dice-per-image N` or `MIN,MAX` sets how many dice a scene holds (default 1..7; 1 is a rig's channel holding one die).
 * `--offset` starts further into the split's range (to render more, or a disjoint
 * second set); `--reuse` copies images of seeds an existing complete folder
 * already holds (to grow a set without re-rendering it; refused unless its summary.json names this renderer: Chromium's
 * version and the drawing code's hash). `--empty-platform` also writes `empty/<name>.jpg`, each scene's platform without
 * its dice (what a session locates dice against; `training/learned/sessionRecall.ts` reads a folder as a session would).
 * The folder is written as <out>.partial and renamed when complete.
 */
import { parseArgs } from 'node:util';
import { BrowserRenderer } from '../src/camera/render3d/browserRenderer.js';
import { describeRenderer } from '../src/camera/render3d/drawingHash.js';
import type { Split } from '../src/camera/render3d/presets.js';
import { namedLightingPresets, SEED_RANGES, SPLITS } from '../src/camera/render3d/presets.js';
import type { DiceSet } from '../src/camera/render3d/scene.js';
import type { ArtFamily } from '../src/camera/render3d/look.js';
import { ART_FAMILIES } from '../src/camera/render3d/look.js';
import type { SceneLook } from '../src/camera/render3d/tray.js';
import { SCENE_LOOKS } from '../src/camera/render3d/tray.js';
import { writeRenderedFolder } from '../src/camera/render3d/writeRenderedFolder.js';

function fail(message: string): never {
  process.stderr.write(`render-dataset: ${message}\n`);
  process.exit(2);
}

const USAGE =
  `usage: npm run render -- --dice xwing|d6 --split ${SPLITS.join('|')} --count N --out DIR [--offset N] [--cocked-rate R] ` +
  `[--cocked-tilt LOW,HIGH] [--cocked-on-die SHARE] [--art ${ART_FAMILIES.join('|')}] [--look ${SCENE_LOOKS.join('|')}] [--lighting NAME[,NAME]] [--dice-per-image N|MIN,MAX] [--reuse] [--empty-platform]`;

if (process.argv.includes('--help')) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

const OPTIONS = {
  dice: { type: 'string' },
  split: { type: 'string' },
  count: { type: 'string' },
  out: { type: 'string' },
  offset: { type: 'string', default: '0' },
  'cocked-rate': { type: 'string' },
  'cocked-tilt': { type: 'string' },
  'cocked-on-die': { type: 'string' },
  reuse: { type: 'boolean', default: false },
  art: { type: 'string', default: 'house' },
  look: { type: 'string', default: 'rig' },
  lighting: { type: 'string' },
  'empty-platform': { type: 'boolean', default: false },
  'dice-per-image': { type: 'string' },
} as const;

let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>;
try {
  parsed = parseArgs({ options: OPTIONS });
} catch (err) {
  // An unknown or misspelt option: one line naming it and the usage, not a stack trace.
  fail(`${(err as Error).message}\n${USAGE}`);
}
const { values } = parsed;

const dice = values.dice as DiceSet;
if (dice !== 'xwing' && dice !== 'd6') fail('--dice must be xwing or d6.');
const split = values.split as Split;
if (!SPLITS.includes(split)) fail(`--split must be one of ${SPLITS.join(', ')}.`);
const count = Number(values.count);
if (!Number.isInteger(count) || count < 1) fail('--count must be a whole number of images, at least 1.');
const offset = Number(values.offset);
if (!Number.isInteger(offset) || offset < 0) fail('--offset must be a whole number, at least 0.');
if (!values.out) fail('--out names the folder to write.');
const [lo, hi] = SEED_RANGES[split];
// X-Wing and D6 sets of one split use different halves of its range, so they never share a seed.
const mid = lo + Math.floor((hi - lo) / 2);
const [first, last] = dice === 'd6' ? [mid, hi] : [lo, mid - 1];
const firstSeed = first + offset;
// A seed says its scene's split: an offset past the half would silently draw another split's presets.
if (firstSeed + count - 1 > last) {
  fail(`--offset ${offset} with --count ${count} runs past the ${split} split's ${dice} seeds (${first}..${last}): offset + count may be at most ${last - first + 1}.`);
}
const art = values.art as ArtFamily;
if (!ART_FAMILIES.includes(art)) fail(`--art must be one of ${ART_FAMILIES.join(', ')}.`);
if (art === 'random' && split !== 'train') fail(`--art random is for training only (--split train): the ${split} split is measured in the artwork it names.`);
const look = values.look as SceneLook;
if (!SCENE_LOOKS.includes(look)) fail(`--look must be one of ${SCENE_LOOKS.join(', ')}.`);
if (look === 'tray' && dice !== 'd6') fail('--look tray draws D6 dice only (--dice d6).');
let lighting: string[] | undefined;
if (values.lighting !== undefined) {
  if (look === 'tray') fail('--lighting is for the rig look: the tray look has its own lighting presets.');
  lighting = values.lighting.split(',').map((n) => n.trim());
  try {
    namedLightingPresets(split, lighting);
  } catch (err) {
    fail(`--lighting: ${(err as Error).message}`);
  }
}
const cockedRate = values['cocked-rate'] !== undefined ? Number(values['cocked-rate']) : undefined;
let cockedTiltDeg: [number, number] | undefined;
if (values['cocked-tilt'] !== undefined) {
  const parts = values['cocked-tilt'].split(',').map(Number);
  const [tlo, thi] = parts;
  if (parts.length !== 2 || tlo === undefined || thi === undefined || !(tlo > 0 && tlo <= thi && thi < 90)) {
    fail(`--cocked-tilt must be LOW,HIGH degrees within 0..90, low first (got "${values['cocked-tilt']}").`);
  }
  cockedTiltDeg = [tlo as number, thi as number];
}
let cockedOnDie: number | undefined;
if (values['cocked-on-die'] !== undefined) {
  cockedOnDie = Number(values['cocked-on-die']);
  if (values['cocked-on-die'].trim() === '' || !(cockedOnDie >= 0 && cockedOnDie <= 1)) {
    fail(`--cocked-on-die must be a share within 0..1 (got "${values['cocked-on-die']}").`);
  }
}
let diceCount: [number, number] | undefined;
if (values['dice-per-image'] !== undefined) {
  // N, or MIN,MAX: 1 is what a rig's channel holds; the scene's own default is 1..7.
  const parts = values['dice-per-image'].split(',').map(Number);
  const [nlo, nhi = nlo] = parts;
  if (parts.length > 2 || nlo === undefined || !Number.isInteger(nlo) || !Number.isInteger(nhi) || nlo < 1 || (nhi as number) < nlo || (nhi as number) > 12) {
    fail(`--dice-per-image must be N or MIN,MAX whole dice within 1..12, fewest first (got "${values['dice-per-image']}").`);
  }
  if (look === 'tray') fail('--dice-per-image is for the rig look: the tray look has its own dice counts.');
  diceCount = [nlo as number, nhi as number];
}

const renderer = await BrowserRenderer.open();
try {
  let last = Date.now();
  const summary = await writeRenderedFolder(renderer, {
    dir: values.out,
    dice,
    firstSeed,
    count,
    reuse: values.reuse,
    emptyPlatform: values['empty-platform'],
    art,
    look,
    ...(cockedRate !== undefined ? { cockedRate } : {}),
    ...(cockedTiltDeg !== undefined ? { cockedTiltDeg } : {}),
    ...(cockedOnDie !== undefined ? { cockedOnDie } : {}),
    ...(lighting !== undefined ? { lighting } : {}),
    ...(diceCount !== undefined ? { diceCount } : {}),
    onImage: (done, total) => {
      if (Date.now() - last > 10_000 || done === total) {
        last = Date.now();
        process.stderr.write(`  ${done}/${total}\n`);
      }
    },
  });
  process.stdout.write(
    `${values.out}: ${summary.images} images, ${summary.dice} dice, seeds ${firstSeed}..${firstSeed + count - 1} (${split}), ` +
      `${(summary.images / summary.seconds).toFixed(2)} images/s\n  per class: ${JSON.stringify(summary.perClass)}\n  drawn by ${describeRenderer(renderer.identity)}\n`,
  );
} finally {
  await renderer.close();
}
