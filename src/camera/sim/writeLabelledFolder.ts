/**
 * Renders a labelled folder from the simulated camera, in the layout of the
 * shared real-photo dataset: `images/*.jpg` (or png), `labels/<name>.txt` with
 * one YOLO line per die (`<class> <cx> <cy> <w> <h>`, fractions of the image)
 * and `labels/classes.txt`, and with `emptyPlatform` `empty/<name>.<ext>`, the
 * platform without its dice. Seeded: the same options write the same folder.
 * Used by tests and to make the shipped default calibration profiles.
 */
import { existsSync } from 'node:fs';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../../core/errors.js';
import type { Rect, RgbImage } from '../../core/image.js';
import { encodeJpeg, encodePng } from '../decode.js';
import type { LightingPresetName } from './lighting.js';
import { SimulatedCamera } from './simulatedCamera.js';
import type { SimDieKind, SimDieTruth } from './simulatedCamera.js';
import { simFitProblem } from './simFit.js';
import { makeFolders } from '../../core/makeFolders.js';

/** Which dice a folder shows: one X-Wing colour, both mixed in every frame, or D6s. */
export type SimFolderDice = 'red' | 'green' | 'xwing' | 'd6';

export interface SimFolderOptions {
  /** Root folder; `images/` and `labels/` are made inside it. */
  readonly dir: string;
  readonly dice: SimFolderDice;
  readonly seed: number;
  readonly frames: number;
  /** Lighting per session, cycled (a session is a new camera: new die looks, new glare spots). */
  readonly lighting: readonly LightingPresetName[];
  /** Frames per session (default 10). */
  readonly framesPerSession?: number;
  readonly channels?: number;
  readonly dicePerChannel?: number;
  readonly cockedRate?: number;
  readonly dieSizePx?: number;
  readonly format?: 'jpg' | 'png';
  /** JPEG quality (default 90). */
  readonly quality?: number;
  /** D6s only: the face every die shows as a logo instead of pips (its label stays the face's number). */
  readonly logoFace?: string;
  /** Also write `empty/<name>.<format>`: each frame's platform without its dice, the locator's reference (a session's view). */
  readonly emptyPlatform?: boolean;
  /** Replace what an earlier folder left in `dir` (its images/, labels/ and empty/; nothing else), instead of refusing a folder that holds anything. */
  readonly replace?: boolean;
}

/** The folders a simulated labelled folder is made of: all `replace` clears. */
export const SIM_FOLDER_PARTS = ['images', 'labels', 'empty'] as const;

export interface SimFolderSummary {
  readonly images: number;
  readonly dice: number;
  readonly classes: readonly string[];
  readonly perClass: Readonly<Record<string, number>>;
}

/** The class names a folder of these dice uses, in `classes.txt` order. */
export function simFolderClasses(dice: SimFolderDice): string[] {
  const red = ['red-hit', 'red-crit', 'red-focus', 'red-blank'];
  const green = ['green-evade', 'green-focus', 'green-blank'];
  const faces = dice === 'red' ? red : dice === 'green' ? green : dice === 'xwing' ? [...red, ...green] : ['1', '2', '3', '4', '5', '6'];
  return [...faces, 'cocked'];
}

/** The class of one simulated die: `cocked`, `<kind>-<icon>` for a d8, the pip count for a D6. */
export function simDieClass(die: Pick<SimDieTruth, 'kind' | 'face' | 'cocked'>): string {
  if (die.cocked) return 'cocked';
  return die.kind === 'd6' ? die.face : `${die.kind}-${die.face}`;
}

/**
 * The die's box in pixels: the rotated outline (hexagon for a d8, square for a
 * D6). A cocked die's tilt is not in the truth, so its box is the flat outline's
 * (a little loose; the crop only needs to contain the die).
 */
export function simDieBox(die: Pick<SimDieTruth, 'kind' | 'center' | 'angleDeg' | 'sizePx' | 'cocked'>): Rect {
  const a = (die.angleDeg * Math.PI) / 180;
  const pts: [number, number][] = [];
  if (die.kind === 'd6') {
    const h = (die.sizePx / 2) * (die.cocked ? 1.2 : 1);
    for (const [u, v] of [[-h, -h], [h, -h], [h, h], [-h, h]] as const) pts.push([u, v]);
  } else {
    const r = die.sizePx / 2;
    for (let i = 0; i < 6; i++) pts.push([r * Math.cos((i * Math.PI) / 3 - Math.PI / 2), r * Math.sin((i * Math.PI) / 3 - Math.PI / 2)]);
  }
  const xs = pts.map(([u, v]) => die.center.x + u * Math.cos(a) - v * Math.sin(a));
  const ys = pts.map(([u, v]) => die.center.y + u * Math.sin(a) + v * Math.cos(a));
  const x0 = Math.min(...xs);
  const y0 = Math.min(...ys);
  return { x: x0, y: y0, width: Math.max(...xs) - x0, height: Math.max(...ys) - y0 };
}

/** YOLO label text for one frame's dice. */
export function yoloLines(dice: readonly Pick<SimDieTruth, 'kind' | 'face' | 'cocked' | 'center' | 'angleDeg' | 'sizePx'>[], classes: readonly string[], width: number, height: number): string {
  return dice
    .map((d) => {
      const cls = classes.indexOf(simDieClass(d));
      if (cls < 0) throw new RangeError(`Simulated die class "${simDieClass(d)}" is not among the folder's classes.`);
      const b = simDieBox(d);
      const f = (v: number): string => v.toFixed(6);
      return `${cls} ${f((b.x + b.width / 2) / width)} ${f((b.y + b.height / 2) / height)} ${f(b.width / width)} ${f(b.height / height)}`;
    })
    .join('\n');
}

function kindsFor(dice: SimFolderDice): SimDieKind | SimDieKind[] {
  return dice === 'xwing' ? ['red', 'green'] : dice;
}

async function encode(image: RgbImage, format: 'jpg' | 'png', quality: number): Promise<Buffer> {
  return format === 'png' ? encodePng(image) : encodeJpeg(image, quality);
}

/** The channel of two dice laid over each other (their outlines may cross), or undefined: the camera's tries to lay a die clear ran out. */
function overlapping(dice: readonly Pick<SimDieTruth, 'kind' | 'channel' | 'center' | 'sizePx'>[]): number | undefined {
  for (const [i, a] of dice.entries()) {
    for (const b of dice.slice(i + 1)) {
      // A square's outline reaches its corners, a hexagon's its radius: closer than that, two may cross.
      const reach = Math.max(a.sizePx, b.sizePx) * (a.kind === 'd6' ? Math.SQRT2 : 1);
      if (a.channel === b.channel && Math.hypot(a.center.x - b.center.x, a.center.y - b.center.y) < reach) return a.channel;
    }
  }
  return undefined;
}

/** Refuses a folder that holds anything (a mixed set would pass for one); with `replace`, clears only what a simulated folder is made of. */
async function clearFor(dir: string, replace: boolean): Promise<void> {
  if (!existsSync(dir)) return;
  const entries = (await readdir(dir)).sort();
  if (entries.length === 0) return;
  if (!replace) {
    const few = entries.length <= 4 ? entries.join(', ') : `${entries.slice(0, 4).join(', ')} and ${entries.length - 4} more`;
    throw new InputError(`the folder is not empty (it holds ${few}): written into, it would mix two sets of photos. Give a new or empty folder, or --force to replace its ${SIM_FOLDER_PARTS.join('/, ')}/ (nothing else in it is touched).`, { file: dir });
  }
  for (const part of SIM_FOLDER_PARTS) await rm(join(dir, part), { recursive: true, force: true });
}

/** Renders and writes the folder; returns what it wrote. */
export async function writeSimLabelledFolder(options: SimFolderOptions): Promise<SimFolderSummary> {
  if (options.lighting.length === 0) throw new RangeError('At least one lighting preset is needed.');
  if (options.logoFace !== undefined && (options.dice !== 'd6' || !/^[1-6]$/.test(options.logoFace))) throw new RangeError(`A logo face is one of a D6's faces, 1 to 6, on D6s only (got ${options.logoFace} on ${options.dice} dice).`);
  const channels = options.channels ?? 6;
  const dicePerChannel = options.dicePerChannel ?? 2;
  const fit = simFitProblem(channels, dicePerChannel, options.dieSizePx ?? 72, options.dice === 'd6');
  if (fit !== undefined) throw new InputError(fit);
  await clearFor(options.dir, options.replace === true);
  const images = join(options.dir, 'images');
  const labels = join(options.dir, 'labels');
  makeFolders(images);
  makeFolders(labels);
  if (options.emptyPlatform) makeFolders(join(options.dir, 'empty'));
  const classes = simFolderClasses(options.dice);
  await writeFile(join(labels, 'classes.txt'), `${classes.join('\n')}\n`);
  const perSession = options.framesPerSession ?? 10;
  const format = options.format ?? 'jpg';
  const perClass: Record<string, number> = {};
  let dice = 0;
  let camera: SimulatedCamera | undefined;
  for (let f = 0; f < options.frames; f++) {
    const session = Math.floor(f / perSession);
    if (f % perSession === 0) {
      // The last session's camera is done with: the next one takes its sensor memory.
      camera?.release();
      camera = new SimulatedCamera({
        seed: options.seed + session,
        lighting: options.lighting[session % options.lighting.length] as LightingPresetName,
        channels,
        dice: kindsFor(options.dice),
        dicePerChannel,
        cockedRate: options.cockedRate ?? 0.08,
        ...(options.logoFace !== undefined ? { logoFaces: new Array<string>((options.channels ?? 6) * (options.dicePerChannel ?? 2)).fill(options.logoFace) } : {}),
        ...(options.dieSizePx !== undefined ? { dieSizePx: options.dieSizePx } : {}),
      });
    }
    const planned = (camera as SimulatedCamera).plannedStill();
    const { truth } = planned;
    const name = `sim-${options.seed}-s${String(session).padStart(3, '0')}-f${String(f % perSession).padStart(3, '0')}`;
    const hidden = overlapping(truth.dice);
    if (hidden !== undefined) {
      throw new InputError(`${name}: the camera could not lay a die of channel ${hidden} clear of the others, so one would hide part of another and be labelled visible; ${f} frames were written. Give fewer dice per channel or smaller dice, and --force to write the folder again.`, { file: options.dir });
    }
    const image = planned.render();
    await writeFile(join(images, `${name}.${format}`), await encode(image, format, options.quality ?? 90));
    await writeFile(join(labels, `${name}.txt`), `${yoloLines(truth.dice, classes, image.width, image.height)}\n`);
    if (options.emptyPlatform) await writeFile(join(options.dir, 'empty', `${name}.${format}`), await encode((camera as SimulatedCamera).emptyPlatform(), format, options.quality ?? 90));
    for (const d of truth.dice) perClass[simDieClass(d)] = (perClass[simDieClass(d)] ?? 0) + 1;
    dice += truth.dice.length;
  }
  camera?.release();
  return { images: options.frames, dice, classes, perClass };
}
