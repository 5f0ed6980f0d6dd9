/**
 * Development time only: throws on one rendered rig, as a guided calibration keeps them (`calibrate --camera DIR`
 * replays them): the camera, platform, walls, light and camera effects of the rig seed, the dice of each throw's own
 * seed (`SceneOptions.diceSeed`), the empty platform once, each throw's truth. With `--labels` the throws also get
 * YOLO labels from the truth, for `vision eval --calibration P --images DIR` (a rig's later rolls, read by a profile).
 *
 *   node --import tsx training/learned/renderRigThrows.ts --rig-seed 1500001 --throws 150 --art foreign-2 --out DIR [--labels] [--throw-offset N]
 *
 * Seeds: tune split 1,500,000..1,999,999 (tune presets; no other set draws from 1,500,000 up), or test split
 * 2,500,000..2,999,999 (test presets: a rig to measure a choice on once, after it was made on tune rigs). The channel
 * count is the one the empty platform shows (`detectChannelRegions`); a rig seed whose walls it cannot find is refused.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { decodeImageBytes } from '../../src/camera/decode.js';
import { BrowserRenderer } from '../../src/camera/render3d/browserRenderer.js';
import { buildScene, emptyPlatform } from '../../src/camera/render3d/scene.js';
import type { ArtFamily } from '../../src/camera/render3d/look.js';
import { simFolderClasses } from '../../src/camera/sim/writeLabelledFolder.js';
import { detectChannelRegions } from '../../src/vision/calibration/channelRegions.js';
import { throwName } from '../../src/vision/calibration/guidedThrows.js';
import { writeThrowLabels, writeThrowTruth } from '../../src/vision-io/keptThrows.js';
import type { Rect } from '../../src/core/image.js';

const { values } = parseArgs({
  options: {
    'rig-seed': { type: 'string' },
    throws: { type: 'string', default: '150' },
    art: { type: 'string', default: 'foreign-2' },
    dice: { type: 'string', default: '2,6' },
    'cocked-rate': { type: 'string', default: '0.05' },
    'dice-per-channel': { type: 'string', default: '2' },
    out: { type: 'string' },
    labels: { type: 'boolean', default: false },
    'throw-offset': { type: 'string', default: '0' },
  },
});
const rigSeed = Number(values['rig-seed']);
const rigSeedAllowed = (rigSeed >= 1_500_000 && rigSeed <= 1_999_999) || (rigSeed >= 2_500_000 && rigSeed <= 2_999_999);
if (!rigSeedAllowed || values.out === undefined) {
  process.stderr.write('renderRigThrows: --rig-seed (tune split 1500000..1999999, test split 2500000..2999999) and --out are needed\n');
  process.exit(2);
}
const out = values.out;
const throws = Number(values.throws);
// Later rolls on the same rig: other throw seeds.
const offset = Number(values['throw-offset']);
const [low, high] = (values.dice as string).split(',').map(Number) as [number, number];
const base = { seed: rigSeed, dice: 'xwing' as const, art: values.art as ArtFamily, diceCount: [low, high] as const, cockedRate: Number(values['cocked-rate']) };

const renderer = await BrowserRenderer.open();
try {
  const first = buildScene({ ...base, diceSeed: rigSeed * 1000 });
  const referencePng = await renderer.render(emptyPlatform(first.spec), 'png');
  const reference = await decodeImageBytes(referencePng, 'reference.png');
  let channels = 0;
  for (let n = 1; n <= 10 && channels === 0; n++) if (typeof detectChannelRegions(reference, n, 1) !== 'string') channels = n;
  if (channels === 0) throw new Error(`rig seed ${rigSeed}: no channel walls found on its empty platform (${first.spec.preset.platform}); try another seed`);
  await mkdir(join(out, 'images'), { recursive: true });
  await writeFile(join(out, 'reference.png'), referencePng);
  const labelled: { index: number; image: { width: number; height: number }; dice: { box: Rect; label: string }[] }[] = [];
  const sizes: number[] = [];
  for (let t = 0; t < throws; t++) {
    const scene = buildScene({ ...base, diceSeed: rigSeed * 1000 + offset + t + 1 });
    const { width, height } = scene.spec;
    await writeFile(join(out, 'images', `${throwName(t)}.jpg`), await renderer.render(scene.spec));
    await writeThrowTruth(
      out,
      t,
      scene.truth.map((d) => ({ center: { x: d.box.x + d.box.width / 2, y: d.box.y + d.box.height / 2 }, label: d.className })),
    );
    for (const d of scene.truth) if (!d.cocked) sizes.push(Math.max(d.box.width, d.box.height));
    labelled.push({ index: t, image: { width, height }, dice: scene.truth.map((d) => ({ box: d.box, label: d.className })) });
    process.stderr.write(`  ${t + 1}/${throws}\r`);
  }
  if (values.labels) await writeThrowLabels(out, simFolderClasses('xwing'), labelled);
  sizes.sort((a, b) => a - b);
  const dieSizePx = Math.round(sizes[sizes.length >> 1] ?? 72);
  const camera = `rendered rig ${rigSeed} (${first.spec.preset.platform}, ${first.spec.preset.lighting}, ${values.art} art, horizontal field of view ${first.spec.lens.hfovDeg.toFixed(1)} degrees)`;
  await writeFile(join(out, 'kept.json'), `${JSON.stringify({ camera, channels, dicePerChannel: Number(values['dice-per-channel']), dieSizePx, simulated: false, seed: 1 }, null, 2)}\n`);
  process.stderr.write(`\n${out}: ${throws} throws on ${camera}; ${channels} channels; dice about ${dieSizePx} px across\n`);
} finally {
  await renderer.close();
}
