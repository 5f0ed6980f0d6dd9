/**
 * A guided calibration's throws kept on disk as they are taken, so none is lost
 * to a wrong answer or a stopped run: `DIR/reference.png` (the empty
 * platform), `DIR/images/throw-0001.jpg`... and `DIR/kept.json` (the camera and
 * the platform they were taken with); with a camera that knows its dice (the
 * simulated one; renders), `DIR/truth/` too. Once the groups are named, `DIR/labels/`
 * makes it a labelled folder (`calibrate --from-labelled DIR`). The kept throws
 * replay as a camera, so the groups can be named again without throwing again.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { InputError } from '../core/errors.js';
import { meanDifference } from '../core/meanDifference.js';
import type { Rect, RgbImage } from '../core/image.js';
import { decodeImageBytes, decodeImageFile, encodeJpeg, encodePng } from '../camera/decode.js';
import type { CalibrationCamera } from '../vision/calibration/guidedThrows.js';
import { throwName } from '../vision/calibration/guidedThrows.js';
import { makeFolders } from '../core/makeFolders.js';

/** JPEG quality of a kept throw: a webcam's frames are JPEG already, and at 95 a throw takes some 200 kB, not 2 MB. */
const KEPT_JPEG_QUALITY = 95;
const MANIFEST = 'kept.json';

/** What the throws were taken with: a replay locates the dice as the first run did. */
export interface KeptThrowsManifest {
  readonly camera: string;
  readonly channels: number;
  readonly dicePerChannel: number;
  /** The die size given for locating, pixels: a d8 across corners, a D6 a side. */
  readonly dieSizePx: number;
  /** Taken by the simulated camera (whose flat-drawn dice the ring reader reads). */
  readonly simulated: boolean;
  /** The seed the groups were formed with: a replay forms the same groups, so names given to them still fit. */
  readonly seed: number;
  /** The dice thrown, as --die names them (absent in throws kept before it was recorded). */
  readonly dice?: string;
  /** The face the camera sees (absent in throws kept before it was recorded: taken as given then). */
  readonly face?: 'top' | 'bottom';
}

/** Whether `dir` holds kept throws (a reference and a manifest). */
export function holdsKeptThrows(dir: string): boolean {
  return existsSync(join(dir, MANIFEST)) && existsSync(join(dir, 'reference.png'));
}

/** Makes `dir` a folder of kept throws for `manifest`; a folder that holds anything is refused with `refusal`. */
async function startKeptThrows(dir: string, manifest: KeptThrowsManifest, refusal: string): Promise<void> {
  if (existsSync(dir) && (await readdir(dir)).length > 0) throw new InputError(refusal, { file: dir });
  makeFolders(join(dir, 'images'));
  await writeFile(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Writes throw `index`'s frame (JPEG) and, when known, its truth; returns the JPEG bytes and the file. */
async function keepThrow(dir: string, index: number, image: RgbImage, truth?: ThrowTruth): Promise<{ jpeg: Buffer; file: string }> {
  const file = join(dir, 'images', `${throwName(index)}.jpg`);
  const jpeg = await encodeJpeg(image, KEPT_JPEG_QUALITY);
  await writeFile(file, jpeg);
  if (truth) await writeThrowTruth(dir, index, truth);
  return { jpeg, file };
}

/**
 * Wraps a live camera so every frame it gives is kept in `dir` first; the flow then sees the frame as kept (decoded
 * from its file), so a replay of the folder groups exactly the same dice. Refuses a folder that holds anything.
 */
export async function keepingCamera(camera: CalibrationCamera, dir: string, manifest: Omit<KeptThrowsManifest, 'camera'>): Promise<CalibrationCamera> {
  await startKeptThrows(dir, { camera: camera.description, ...manifest }, `the folder for this calibration's throws already holds files (an earlier calibration's?); name its throws with --camera ${dir} to use them again, or choose another --out`);
  return {
    description: camera.description,
    async emptyPlatform(): Promise<RgbImage> {
      const png = await encodePng(await camera.emptyPlatform());
      await writeFile(join(dir, 'reference.png'), png);
      return decodeImageBytes(png, join(dir, 'reference.png'));
    },
    async nextThrow(index: number) {
      const taken = await camera.nextThrow(index);
      const { jpeg, file } = await keepThrow(dir, index, taken.image, taken.truth);
      return { image: await decodeImageBytes(jpeg, file), ...(taken.truth ? { truth: taken.truth } : {}) };
    },
    // The kept file decodes to the very frame `nextThrow` gave.
    reread: (index: number) => decodeImageFile(join(dir, 'images', `${throwName(index)}.jpg`)),
  };
}

/** Keeps a session's settled frames, one after another, as kept throws. */
export interface FrameKeeper {
  /** Keeps the next frame (with what the simulated camera knows it holds); resolves once it is on disk. */
  keep(image: RgbImage, truth?: ThrowTruth): Promise<void>;
  /** Frames kept so far. */
  readonly kept: number;
}

/** Mean difference (levels) under which two frames of the empty platform are one platform seen again. */
const SAME_PLATFORM = 6;

/** The manifest fields a resumed session's frames must share with the ones kept before them. */
const SAME_RIG: readonly (keyof KeptThrowsManifest)[] = ['camera', 'channels', 'dicePerChannel', 'dieSizePx', 'simulated', 'dice'];

/**
 * Where an earlier run of the same session left off in `dir` (the frames it kept), or why its frames cannot be
 * continued: another rig or dice, another empty platform, or throws named already.
 */
async function continuedFrames(dir: string, manifest: KeptThrowsManifest, reference: RgbImage): Promise<number> {
  const refuse = (why: string): never => {
    throw new InputError(`the folder to keep the frames in holds ${why}: keep this run's frames in a new folder`, { file: dir });
  };
  if (!holdsKeptThrows(dir)) refuse('files that are not kept throws');
  if (existsSync(join(dir, 'labels'))) refuse('throws named already (labels/)');
  const { manifest: before } = await keptThrowsCamera(dir);
  const differs = SAME_RIG.filter((k) => before[k] !== manifest[k]);
  if (differs.length > 0) refuse(`frames kept with another ${differs.join(', ')} (${differs.map((k) => `${String(before[k])}, not ${String(manifest[k])}`).join('; ')})`);
  // A new frame of the empty platform differs by sensor noise (2.3 levels between two simulated ones); another light
  // or a moved camera by far more (another simulated light: 18 or more), and the kept frames would not match it.
  const difference = meanDifference(await decodeImageFile(join(dir, 'reference.png')), reference);
  if (!(difference <= SAME_PLATFORM)) refuse(`frames kept against another empty platform (reference.png differs from this run's by ${difference.toFixed(1)} levels on average, over ${SAME_PLATFORM})`);
  return (await readdir(join(dir, 'images'))).length;
}

/**
 * A folder of kept throws filled by a session on its rig (`dicerig run --keep-frames DIR`): the empty platform it
 * reads against, then every frame it reads a throw from, so the rig throws the dice a guided calibration or D6 check
 * names (`calibrate --camera DIR`). A new or empty folder, or (`resumed`: the session continues after a stop) one
 * an earlier run of it filled, whose frames are continued.
 */
export async function frameKeeper(dir: string, manifest: KeptThrowsManifest, reference: RgbImage, resumed = false): Promise<FrameKeeper> {
  let kept = 0;
  if (resumed && existsSync(dir) && (await readdir(dir)).length > 0) {
    kept = await continuedFrames(dir, manifest, reference);
  } else {
    await startKeptThrows(dir, manifest, 'the folder to keep the frames in already holds files: choose an empty or new folder');
    await writeFile(join(dir, 'reference.png'), await encodePng(reference));
  }
  return {
    get kept() {
      return kept;
    },
    async keep(image, truth) {
      await keepThrow(dir, kept, image, truth);
      kept++;
    },
  };
}

/** The throws kept in `dir`, as a camera that gives them again in order; with the manifest they were taken with. */
export async function keptThrowsCamera(dir: string): Promise<{ camera: CalibrationCamera; manifest: KeptThrowsManifest }> {
  if (!holdsKeptThrows(dir)) throw new InputError(`no kept throws here: a calibration's throws folder holds reference.png, ${MANIFEST} and images/`, { file: dir });
  let manifest: KeptThrowsManifest;
  try {
    manifest = JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as KeptThrowsManifest;
  } catch (e) {
    throw new InputError(`cannot read the kept throws' manifest: ${(e as Error).message}`, { file: join(dir, MANIFEST) }, { cause: e });
  }
  const files = (await readdir(join(dir, 'images'))).filter((f) => ['.jpg', '.jpeg', '.png'].includes(extname(f).toLowerCase())).sort();
  if (files.length === 0) throw new InputError('the kept throws folder holds no images', { file: join(dir, 'images') });
  // Labels are written by throw name: an image named otherwise would be labelled as another throw.
  const odd = files.find((f, i) => f.slice(0, f.length - extname(f).length) !== throwName(i));
  if (odd !== undefined) throw new InputError(`kept throws are named ${throwName(0)}.jpg, ${throwName(1)}.jpg and so on, in sequence; "${odd}" is not the next one`, { file: join(dir, 'images', odd) });
  return {
    manifest,
    camera: {
      description: `the throws kept in ${dir} (taken with ${manifest.camera})`,
      kept: files.length,
      emptyPlatform: () => decodeImageFile(join(dir, 'reference.png')),
      nextThrow: async (index: number) => {
        const image = await decodeImageFile(join(dir, 'images', files[index] as string));
        const truth = await readThrowTruth(dir, index);
        return { image, ...(truth ? { truth } : {}) };
      },
      reread: (index: number) => decodeImageFile(join(dir, 'images', files[index] as string)),
    },
  };
}

export type ThrowTruth = readonly { readonly center: { readonly x: number; readonly y: number }; readonly label: string }[];

/**
 * Keeps what a camera that knows its dice (the simulated one; renders) says each throw holds, `DIR/truth/NAME.json`:
 * a replay's groups then show it, as the first run's did.
 */
export async function writeThrowTruth(dir: string, index: number, truth: ThrowTruth): Promise<void> {
  makeFolders(join(dir, 'truth'));
  await writeFile(join(dir, 'truth', `${throwName(index)}.json`), `${JSON.stringify(truth.map((t) => ({ center: { x: t.center.x, y: t.center.y }, label: t.label })))}\n`);
}

async function readThrowTruth(dir: string, index: number): Promise<ThrowTruth | undefined> {
  const file = join(dir, 'truth', `${throwName(index)}.json`);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(await readFile(file, 'utf8')) as ThrowTruth;
  } catch (e) {
    throw new InputError(`cannot read a kept throw's truth: ${(e as Error).message}`, { file }, { cause: e });
  }
}

/** Writes `DIR/labels/` for kept throws: `classes.txt` and one YOLO file per throw (none where no die was named). */
export async function writeThrowLabels(dir: string, classes: readonly string[], throws: readonly { readonly index: number; readonly image: Pick<RgbImage, 'width' | 'height'>; readonly dice: readonly { readonly box: Rect; readonly label: string }[] }[]): Promise<number> {
  const labels = join(dir, 'labels');
  makeFolders(labels);
  await writeFile(join(labels, 'classes.txt'), `${classes.join('\n')}\n`);
  let named = 0;
  // Nine decimals: the box read back cuts the die where it was cut here, to well under a pixel.
  const f = (v: number): string => v.toFixed(9);
  for (const t of throws) {
    const lines = t.dice.map((d) => {
      const cls = classes.indexOf(d.label);
      if (cls < 0) throw new RangeError(`"${d.label}" is not among the classes ${classes.join(', ')}`);
      return `${cls} ${f((d.box.x + d.box.width / 2) / t.image.width)} ${f((d.box.y + d.box.height / 2) / t.image.height)} ${f(d.box.width / t.image.width)} ${f(d.box.height / t.image.height)}`;
    });
    named += lines.length;
    await writeFile(join(labels, `${throwName(t.index)}.txt`), lines.length > 0 ? `${lines.join('\n')}\n` : '');
  }
  return named;
}
