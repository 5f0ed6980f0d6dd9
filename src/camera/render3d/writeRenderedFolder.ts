/**
 * Writes a labelled folder from the 3D synthetic camera, in the shared layout
 * (`images/*.jpg`, `labels/<name>.txt` YOLO lines, `labels/classes.txt`, the
 * classes the flat simulated camera and the calibration use), plus
 * `truth/<name>.json`: the full ground truth of each die (top face id, cocked,
 * box, top-face centre and polygon) and the scene's render parameters (seed,
 * presets, camera, lens, lights, post-processing).
 *
 * The folder is written under a temporary name and renamed when complete, with
 * a READY file inside, so a reader never sees half a set.
 */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { simFolderClasses } from '../sim/writeLabelledFolder.js';
import { Render3dError, type BrowserRenderer } from './browserRenderer.js';
import type { RendererIdentity } from './drawingHash.js';
import { describeRenderer, drawsAlike } from './drawingHash.js';
import type { DieTruth } from './labels.js';
import type { ArtFamily } from './look.js';
import type { DiceSet } from './scene.js';
import { buildScene, DEFAULT_COCKED_ON_DIE, DEFAULT_COCKED_TILT_DEG, emptyPlatform } from './scene.js';
import type { Range } from './presets.js';
import type { SceneLook } from './tray.js';
import { makeFolders } from '../../core/makeFolders.js';

export interface RenderedFolderOptions {
  readonly dir: string;
  readonly dice: DiceSet;
  /** First seed; scenes use seeds firstSeed .. firstSeed + count - 1 (all in one split's range). */
  readonly firstSeed: number;
  readonly count: number;
  readonly cockedRate?: number;
  /** How far cocked dice lean, degrees (default: the scene's, 14..40). */
  readonly cockedTiltDeg?: Range;
  /** Share of cocked dice leaning on a die rather than a wall (default: the scene's, 0.4). */
  readonly cockedOnDie?: number;
  /** The dice's icon drawings (default house art). */
  readonly art?: ArtFamily;
  /** The scene look (default `rig`; `tray`: phone photos of a dice tray, D6 only). */
  readonly look?: SceneLook;
  /** Lighting presets to draw from, by name (default: the split's own; see SceneOptions.lighting). */
  readonly lighting?: readonly string[];
  /** Platform presets to draw from, by name (default: the split's own; see SceneOptions.platforms). */
  readonly platforms?: readonly string[];
  /** How many dice a scene holds, fewest and most (default: the scene's, 1..7; 1,1 is a rig's channel holding one die). */
  readonly diceCount?: readonly [number, number];
  /**
   * Copy the images of seeds already rendered in a complete `dir` (with READY)
   * instead of rendering them again: for growing a set. Refused unless the set
   * records the same renderer (Chromium version and drawing code) as this one.
   * Also picks up a run of the same request that stopped before it finished
   * (`dir.partial`), keeping every image it wrote whole.
   */
  readonly reuse?: boolean;
  /**
   * Also write `empty/<name>.jpg`: each scene's platform photographed without its dice (`emptyPlatform`), the reference
   * a session locates dice against, so a folder can be read as a session reads a throw.
   */
  readonly emptyPlatform?: boolean;
  /** Called after each image (for progress). */
  readonly onImage?: (done: number, total: number) => void;
}

export interface RenderedFolderSummary {
  readonly images: number;
  readonly dice: number;
  readonly perClass: Readonly<Record<string, number>>;
  readonly seconds: number;
}

function yoloLine(t: DieTruth, classes: readonly string[], width: number, height: number): string {
  const cls = classes.indexOf(t.className);
  if (cls < 0) throw new RangeError(`Class "${t.className}" is not among the folder's classes.`);
  const f = (v: number): string => v.toFixed(6);
  const b = t.box;
  return `${cls} ${f((b.x + b.width / 2) / width)} ${f((b.y + b.height / 2) / height)} ${f(b.width / width)} ${f(b.height / height)}`;
}

export async function writeRenderedFolder(renderer: BrowserRenderer, options: RenderedFolderOptions): Promise<RenderedFolderSummary> {
  const unlock = await lockSet(options.dir);
  try {
    return await drawFolder(renderer, options);
  } finally {
    await unlock();
  }
}

/**
 * One render at a time for a set: two drawing the same `.partial` folder would each take the other's images for their
 * own. `DIR.lock` holds the drawing process's id; a lock whose process is gone (a run killed) is taken over.
 */
async function lockSet(dir: string): Promise<() => Promise<void>> {
  const lock = `${dir}.lock`;
  makeFolders(dirname(dir));
  for (;;) {
    try {
      await writeFile(lock, `${process.pid}\n`, { flag: 'wx' });
      return () => rm(lock, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(holder) && holder > 0 && processAlive(holder)) {
        throw new Render3dError(`${dir} is being rendered by process ${holder} (${lock}): render another set, or stop that run first.`, { dir, pid: holder });
      }
      await rm(lock, { force: true });
    }
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function drawFolder(renderer: BrowserRenderer, options: RenderedFolderOptions): Promise<RenderedFolderSummary> {
  const started = Date.now();
  const tmp = `${options.dir}.partial`;
  // What the unfinished folder is being drawn for: a run that stopped (killed, a machine gone) is picked up by the same
  // request only (the same seeds, scene options and renderer), so every image in the set is one of its scenes, drawn
  // by this renderer, and none is left over from another. Every option but where to write, whether to reuse and the
  // progress callback says what is drawn, so an option added later is part of the request too.
  const { dir: _dir, reuse: _reuse, onImage: _onImage, ...drawn } = options;
  const request = `${JSON.stringify({ renderer: renderer.identity, ...drawn }, null, 2)}\n`;
  const requestFile = join(tmp, 'request.json');
  const resuming = options.reuse === true && existsSync(requestFile) && (await readFile(requestFile, 'utf8')) === request;
  if (!resuming) {
    await rm(tmp, { recursive: true, force: true });
    makeFolders(tmp);
    await writeFile(requestFile, request);
  }
  const images = join(tmp, 'images');
  const labels = join(tmp, 'labels');
  const truthDir = join(tmp, 'truth');
  makeFolders(images);
  makeFolders(labels);
  makeFolders(truthDir);
  if (options.emptyPlatform) makeFolders(join(tmp, 'empty'));
  const classes = simFolderClasses(options.dice);
  await writeFile(join(labels, 'classes.txt'), `${classes.join('\n')}\n`);
  const perClass: Record<string, number> = {};
  let dice = 0;
  const art = options.art ?? 'house';
  const look = options.look ?? 'rig';
  const reusable = options.reuse === true && existsSync(join(options.dir, 'READY'));
  if (reusable) {
    const previous = JSON.parse(await readFile(join(options.dir, 'summary.json'), 'utf8')) as { art?: string; look?: string; cockedTiltDeg?: Range; cockedOnDie?: number; lighting?: string[]; platforms?: string[]; diceCount?: [number, number]; renderer?: RendererIdentity };
    // Images drawn by other code (an icon drawing changed, three.js or Chromium updated) would not be this renderer's images.
    const drawnBy = previous.renderer;
    if (!drawsAlike(drawnBy?.drawing, renderer.identity.drawing) || drawnBy?.chromium !== renderer.identity.chromium) {
      throw new RangeError(
        `${options.dir} was drawn by ${describeRenderer(drawnBy)}, not by this renderer (${describeRenderer(renderer.identity)}); cannot reuse its images: render the set again without reuse.`,
      );
    }
    // Images drawn in other artwork must not be copied into this set (folders from before art families are house art).
    if ((previous.art ?? 'house') !== art) throw new RangeError(`${options.dir} holds ${previous.art ?? 'house'} art; cannot reuse its images for ${art} art.`);
    // Folders from before scene looks are rig looks.
    if ((previous.look ?? 'rig') !== look) throw new RangeError(`${options.dir} holds ${previous.look ?? 'rig'}-look images; cannot reuse them for the ${look} look.`);
    const tilt = (t: Range | undefined): string => (t ?? DEFAULT_COCKED_TILT_DEG).join('..');
    if (tilt(previous.cockedTiltDeg) !== tilt(options.cockedTiltDeg)) {
      throw new RangeError(`${options.dir} holds cocked dice leaning ${tilt(previous.cockedTiltDeg)} degrees; cannot reuse its images for ${tilt(options.cockedTiltDeg)}.`);
    }
    const onDie = (share: number | undefined): string => `${share ?? DEFAULT_COCKED_ON_DIE}`;
    if (onDie(previous.cockedOnDie) !== onDie(options.cockedOnDie)) {
      throw new RangeError(`${options.dir} holds scenes where a share of ${onDie(previous.cockedOnDie)} of cocked dice lean on a die; cannot reuse them for ${onDie(options.cockedOnDie)}.`);
    }
    const presets = (l: readonly string[] | undefined): string => (l ? l.join(',') : "the split's own");
    if (presets(previous.lighting) !== presets(options.lighting)) {
      throw new RangeError(`${options.dir} holds images lit by ${presets(previous.lighting)} presets; cannot reuse them for ${presets(options.lighting)}.`);
    }
    if (presets(previous.platforms) !== presets(options.platforms)) {
      throw new RangeError(`${options.dir} holds dice lying on ${presets(previous.platforms)} platform presets; cannot reuse them for ${presets(options.platforms)}.`);
    }
    const counted = (c: readonly number[] | undefined): string => (c ? `${c[0]}..${c[1]}` : "the scene's own");
    if (counted(previous.diceCount) !== counted(options.diceCount)) {
      throw new RangeError(`${options.dir} holds scenes of ${counted(previous.diceCount)} dice; cannot reuse them for ${counted(options.diceCount)}.`);
    }
  }
  // The scene options a set is drawn with and records in summary.json (the scene's own defaults left unsaid), in one place.
  const recorded = {
    ...(options.cockedTiltDeg !== undefined ? { cockedTiltDeg: options.cockedTiltDeg } : {}),
    ...(options.cockedOnDie !== undefined ? { cockedOnDie: options.cockedOnDie } : {}),
    ...(options.lighting !== undefined ? { lighting: options.lighting } : {}),
    ...(options.platforms !== undefined ? { platforms: options.platforms } : {}),
    ...(options.diceCount !== undefined ? { diceCount: options.diceCount } : {}),
  };
  for (let i = 0; i < options.count; i++) {
    const seed = options.firstSeed + i;
    const scene = buildScene({ seed, dice: options.dice, ...(options.cockedRate !== undefined ? { cockedRate: options.cockedRate } : {}), ...(options.art !== undefined ? { art: options.art } : {}), ...recorded, look });
    const name = `r3d-${options.dice}-${seed}`;
    const truthFile = join(truthDir, `${name}.json`);
    // An image's truth file is written last, and whole (renamed into place): with it, the image is all there.
    if (!(resuming && existsSync(truthFile))) {
      const previous = join(options.dir, 'images', `${name}.jpg`);
      const jpeg = reusable && existsSync(previous) ? await readFile(previous) : await renderer.render(scene.spec);
      const { width, height } = scene.spec;
      await writeFile(join(images, `${name}.jpg`), jpeg);
      if (options.emptyPlatform) await writeFile(join(tmp, 'empty', `${name}.jpg`), await renderer.render(emptyPlatform(scene.spec)));
      await writeFile(join(labels, `${name}.txt`), scene.truth.map((t) => yoloLine(t, classes, width, height)).join('\n') + (scene.truth.length ? '\n' : ''));
      await writeFile(`${truthFile}.tmp`, `${JSON.stringify({ image: `images/${name}.jpg`, seed, split: scene.spec.split, preset: scene.spec.preset, dice: scene.truth, scene: scene.spec }, null, 1)}\n`);
      await rename(`${truthFile}.tmp`, truthFile);
    }
    for (const t of scene.truth) perClass[t.className] = (perClass[t.className] ?? 0) + 1;
    dice += scene.truth.length;
    options.onImage?.(i + 1, options.count);
  }
  const seconds = (Date.now() - started) / 1000;
  const summary: RenderedFolderSummary = { images: options.count, dice, perClass, seconds };
  await writeFile(join(tmp, 'summary.json'), `${JSON.stringify({ ...summary, diceSet: options.dice, firstSeed: options.firstSeed, art, look, ...recorded, ...(options.emptyPlatform ? { emptyPlatform: true } : {}), classes, renderer: renderer.identity }, null, 2)}\n`);
  await rm(requestFile);
  await writeFile(join(tmp, 'READY'), '');
  // Swap in the finished folder; an older set is moved aside first, then removed.
  const old = `${options.dir}.old`;
  await rm(old, { recursive: true, force: true });
  if (existsSync(options.dir)) await rename(options.dir, old);
  await rename(tmp, options.dir);
  await rm(old, { recursive: true, force: true });
  return summary;
}
