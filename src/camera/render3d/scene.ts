/**
 * Builds one scene of the 3D synthetic camera from a seed: the rig's camera
 * (10-32 cm above the platform, looking down within 5 degrees, 42-66 degree
 * horizontal field of view, lens distortion), the platform and its channel
 * walls, the lights, and dice at rest: lying on a face, touching each other or
 * a wall, or cocked against a wall or a die. Pure: the same seed gives the same
 * scene, and the scene says everything the browser needs to draw it and the
 * labels need to describe it.
 */
import { d6Die, greenDefenseDie, redAttackDie } from '../../dice/catalogue.js';
import type { DieType } from '../../dice/types.js';
import type { RandomSource } from '../../stats/random.js';
import { seededRandom } from '../../stats/random.js';
import type { DieShape, ShapeKind, Vec3 } from './geometry.js';
import { buildDieShape, oppositeSlot } from './geometry.js';
import type { DieTruth, PixelBox, PlacedDie } from './labels.js';
import { dieBox, dieTruth } from './labels.js';
import type { Lens } from './lens.js';
import { renderHfovDeg, sourcePixel, focalPx } from './lens.js';
import type { ArtFamily, DieLook, RenderDie } from './look.js';
import { sampleLook } from './look.js';
import type { Mat3 } from './math3d.js';
import { axisAngle, cameraBasis, cross, mulMat, mulVec, normalize, rotationBetween } from './math3d.js';
import type { P2 } from './placement.js';
import { convexHull, overlaps, rectPolygon, slideToContact, translate } from './placement.js';
import type { LightingPreset, PlatformKind, PlatformPreset, Range, Rgb, Split } from './presets.js';
import { kelvinToRgb, lightingPresets, namedLightingPresets, namedPlatformPresets, platformPresets, splitOfSeed } from './presets.js';
import type { CameraEffects, SceneLook } from './tray.js';
import { TRAY_CAMERA, TRAY_EFFECTS, sampleTrayLook, trayLightingPresets, trayPlatformPresets } from './tray.js';

export type DiceSet = 'xwing' | 'd6';

export interface SceneOptions {
  readonly seed: number;
  readonly dice: DiceSet;
  readonly width?: number;
  readonly height?: number;
  /** Probability that a die rests cocked (default 0.05). */
  readonly cockedRate?: number;
  /** How far a cocked die leans, degrees, drawn uniformly in this range (default 14..40). */
  readonly cockedTiltDeg?: Range;
  /**
   * Share of cocked dice that lean on another die rather than a wall, where both are there (default 0.4; with no die
   * placed yet a cocked die leans on a wall, on a platform without walls on a die).
   * A die leaning on a die is the reader's hardest case: its outline runs into its neighbour's.
   */
  readonly cockedOnDie?: number;
  /** Dice per scene, inclusive range (default 1..7). */
  readonly diceCount?: readonly [number, number];
  /** The dice's icon drawings (default house art). */
  readonly art?: ArtFamily;
  /** `rig` (default): a rig's webcam; `tray` (D6 only): phone photos of a dice tray (tray.ts). */
  readonly look?: SceneLook;
  /** Lighting presets to draw from, by name (rig look; of the seed's split). Default: the split's own, opt-in ones left out. */
  readonly lighting?: readonly string[];
  /** Platform presets to draw from, by name (rig look; of the seed's split). Default: the split's own, opt-in ones left out. */
  readonly platforms?: readonly string[];
  /**
   * One throw on the rig `seed` draws: the camera, platform, walls, light and the camera's effects are the seed's, the
   * dice and the sensor noise this seed's (default: the dice are the seed's too, as every set drawn before this).
   */
  readonly diceSeed?: number;
}

export interface SceneDie extends PlacedDie {
  readonly shape: ShapeKind;
  readonly look: DieLook;
  /** Quarter turns of each D6 face's pips (the 2, 3 and 6 have two orientations). */
  readonly slotTurns: readonly number[];
  /** What the die touches: walls and other dice (indexes). */
  readonly touches: readonly ('wall' | number)[];
}

export interface Wall {
  /** Centre and full size, cm (x across, y up, z along the channel). */
  readonly center: Vec3;
  readonly size: Vec3;
}

export interface LightSpec {
  readonly kind: 'directional' | 'spot';
  readonly position: Vec3;
  readonly target: Vec3;
  readonly color: readonly [number, number, number];
  readonly intensity: number;
  /** PCF shadow radius in texels. */
  readonly softness: number;
  readonly mapSize: number;
}

export interface PostSpec {
  /** Gaussian read noise (0..255 units) and shot-noise factor. */
  readonly readNoise: number;
  readonly shotNoise: number;
  /** Defocus blur sigma, pixels. */
  readonly blurSigma: number;
  /** Motion blur (camera shake) length in pixels and direction, radians. */
  readonly motionPx: number;
  readonly motionAngle: number;
  readonly vignette: number;
  /** White-balance error of the camera (gains per channel). */
  readonly gains: readonly [number, number, number];
  readonly jpegQuality: number;
  readonly noiseSeed: number;
}

export interface SceneSpec {
  readonly seed: number;
  readonly split: Split;
  readonly dice: DiceSet;
  /** Present only for the tray look (rig scenes are described as before it existed). */
  readonly look?: 'tray';
  readonly preset: { readonly lighting: string; readonly platform: string };
  readonly width: number;
  readonly height: number;
  readonly lens: Lens;
  readonly camera: { readonly position: Vec3; readonly target: Vec3; readonly up: Vec3; readonly renderHfovDeg: number; readonly heightCm: number; readonly tiltDeg: number };
  readonly platform: { readonly kind: PlatformKind; readonly color: Rgb; readonly roughness: number; readonly texture: number; readonly textureSeed: number; readonly center: Vec3 };
  readonly walls: { readonly boxes: readonly Wall[]; readonly color: Rgb; readonly roughness: number };
  readonly lights: {
    readonly key: LightSpec;
    readonly second?: LightSpec;
    readonly hemisphere: { readonly sky: readonly [number, number, number]; readonly ground: readonly [number, number, number]; readonly intensity: number };
    readonly environment: number;
    readonly exposure: number;
  };
  readonly placed: readonly SceneDie[];
  readonly post: PostSpec;
}

export interface Scene {
  readonly spec: SceneSpec;
  readonly truth: readonly DieTruth[];
}

const ROUNDNESS: Readonly<Record<ShapeKind, readonly number[]>> = { d8: [9, 12, 16], d6: [5, 7, 9] };

/** A rig webcam's effects (the tray look's are in tray.ts). */
const RIG_EFFECTS: CameraEffects = { readNoise: [1, 5], shotNoise: [0.03, 0.2], blurShare: 0.7, blurSigma: [0.3, 1.1], motionShare: 0.3, motionPx: [0.5, 4], vignette: [0, 0.35], gains: [0.92, 1.08], jpegQuality: [62, 95] };

const shapeCache = new Map<string, DieShape>();

/** The mesh of a shape key like `d8-12` (kind and rounding exponent), built once. */
export function shapeOf(key: string): DieShape {
  let s = shapeCache.get(key);
  if (!s) {
    const [kind, p] = key.split('-') as [ShapeKind, string];
    s = buildDieShape(kind, Number(p));
    shapeCache.set(key, s);
  }
  return s;
}

/** Every shape key a scene may use. */
export const SHAPE_KEYS: readonly string[] = (['d8', 'd6'] as const).flatMap((k) => ROUNDNESS[k].map((p) => `${k}-${p}`));

const between = (r: RandomSource, [lo, hi]: Range): number => lo + (hi - lo) * r();
const scaled = (c: Rgb, k: number): Rgb => c.map((v) => Math.min(255, Math.round(v * k))) as unknown as Rgb;
const pickOf = <T>(r: RandomSource, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;

function dieTypeOf(die: RenderDie): DieType {
  return die === 'red' ? redAttackDie : die === 'green' ? greenDefenseDie : d6Die;
}

/**
 * Assigns the die's faces to the shape's slots, keeping the catalogue's
 * opposite pairs on opposite slots; which pair goes where (and which way round)
 * varies per die, since the physical layout of X-Wing dice is not documented.
 */
function assignFaces(type: DieType, shape: DieShape, r: RandomSource): string[] {
  const ids = type.faces.map((f) => f.id);
  const pairs: [string, string][] = [];
  const done = new Set<string>();
  for (const id of ids) {
    if (done.has(id)) continue;
    const other = type.opposite[id] as string;
    pairs.push([id, other]);
    done.add(id).add(other);
  }
  const slotPairs: [number, number][] = [];
  const used = new Set<number>();
  shape.faces.forEach((_, i) => {
    if (used.has(i)) return;
    const j = oppositeSlot(shape.faces, i);
    slotPairs.push([i, j]);
    used.add(i).add(j);
  });
  for (let i = slotPairs.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [slotPairs[i], slotPairs[j]] = [slotPairs[j] as [number, number], slotPairs[i] as [number, number]];
  }
  const out: string[] = new Array<string>(shape.faces.length);
  pairs.forEach(([a, b], k) => {
    const [s, t] = slotPairs[k] as [number, number];
    const flip = r() < 0.5;
    out[flip ? t : s] = a;
    out[flip ? s : t] = b;
  });
  return out;
}

function symbolOf(type: DieType, faceId: string): string {
  return type.faces.find((f) => f.id === faceId)?.symbol ?? faceId;
}

/** Orientation of a die resting with `slot` on top, spun by `spin` about the vertical. */
function flatRotation(shape: DieShape, slot: number, spin: number): Mat3 {
  const n = (shape.faces[slot] as DieShape['faces'][number]).normal;
  return mulMat(axisAngle([0, 1, 0], spin), rotationBetween(n, [0, 1, 0]));
}

/** Height of the die's centre when its lowest point touches the table. */
function restHeight(shape: DieShape, rot: Mat3, half: number): number {
  let minY = Infinity;
  for (const p of shape.hull) {
    const y = rot[3] * p[0] + rot[4] * p[1] + rot[5] * p[2];
    if (y < minY) minY = y;
  }
  return -minY * half;
}

function footprintOf(shape: DieShape, rot: Mat3, half: number): P2[] {
  return convexHull(shape.coarseHull.map((p) => {
    const q = mulVec(rot, p);
    return [q[0] * half, q[2] * half] as P2;
  }));
}

/** The world point on the plane y = `y` seen at output pixel (x, y) of the camera. */
function groundPointAt(view: { position: Vec3; target: Vec3; up: Vec3 }, lens: Lens, px: number, py: number, y: number): Vec3 | undefined {
  const f = focalPx(lens);
  const [sx, sy] = sourcePixel(lens, px, py, f, 1);
  const u = (sx - lens.width / 2) / f;
  const v = (sy - lens.height / 2) / f;
  const b = cameraBasis(view);
  const dir: Vec3 = [u * b.x[0] - v * b.y[0] - b.z[0], u * b.x[1] - v * b.y[1] - b.z[1], u * b.x[2] - v * b.y[2] - b.z[2]];
  if (dir[1] >= -1e-6) return undefined;
  const t = (y - view.position[1]) / dir[1];
  return [view.position[0] + dir[0] * t, y, view.position[2] + dir[2] * t];
}

/** Whether the segment from a to b passes through the axis-aligned box (slab test). */
function segmentHitsBox(a: Vec3, b: Vec3, box: Wall): boolean {
  let t0 = 0;
  let t1 = 1;
  for (let k = 0; k < 3; k++) {
    const lo = (box.center[k] as number) - (box.size[k] as number) / 2;
    const hi = (box.center[k] as number) + (box.size[k] as number) / 2;
    const from = a[k] as number;
    const d = (b[k] as number) - from;
    if (Math.abs(d) < 1e-12) {
      if (from < lo || from > hi) return false;
      continue;
    }
    let ta = (lo - from) / d;
    let tb = (hi - from) / d;
    if (ta > tb) [ta, tb] = [tb, ta];
    t0 = Math.max(t0, ta);
    t1 = Math.min(t1, tb);
    if (t0 > t1) return false;
  }
  return true;
}

/**
 * Whether a channel wall hides any part of the die from the camera
 * (a die on the far side of a wall taller than it, seen at an angle): such a
 * die's box would include pixels that show the wall, so it is placed elsewhere.
 */
export function hiddenByWall(die: Pick<PlacedDie, 'rotation' | 'position' | 'sizeCm'>, shape: DieShape, camera: Vec3, walls: readonly Wall[]): boolean {
  if (walls.length === 0) return false;
  const half = die.sizeCm / 2;
  for (const p of shape.coarseHull) {
    const q = mulVec(die.rotation, p);
    const w: Vec3 = [die.position[0] + q[0] * half, die.position[1] + q[1] * half, die.position[2] + q[2] * half];
    if (walls.some((box) => segmentHitsBox(w, camera, box))) return true;
  }
  return false;
}

interface Placing {
  readonly die: SceneDie;
  readonly footprint: P2[];
  /** Its box in the image, as placing it checked it (and its truth gives it). */
  readonly box: PixelBox;
}

/** A cocked die leans 14..40 degrees unless told otherwise (the least a tumbled die rests at against a wall or die). */
export const DEFAULT_COCKED_TILT_DEG: Range = [14, 40];

/** Where both a die and a wall are there, a cocked die leans on the die this often unless told otherwise. */
export const DEFAULT_COCKED_ON_DIE = 0.4;

/** Builds the scene for `options.seed`; the seed's range decides the split and its presets. */
export function buildScene(options: SceneOptions): Scene {
  const seed = options.seed;
  const split = splitOfSeed(seed);
  const tray = options.look === 'tray';
  if (tray && options.dice !== 'd6') throw new RangeError(`The tray look draws D6 dice only, not ${options.dice}.`);
  let r = seededRandom(seed);
  const width = options.width ?? (tray ? TRAY_CAMERA.width : 1280);
  const height = options.height ?? (tray ? TRAY_CAMERA.height : 720);
  if (tray && options.lighting) throw new RangeError('The tray look has its own lighting presets; a lighting choice is for the rig look.');
  const lighting: LightingPreset = pickOf(r, tray ? trayLightingPresets(split) : options.lighting ? namedLightingPresets(split, options.lighting) : lightingPresets(split));
  if (tray && options.platforms) throw new RangeError('The tray look has its own platform presets; a platform choice is for the rig look.');
  const platformPreset: PlatformPreset = pickOf(r, tray ? trayPlatformPresets(split) : options.platforms ? namedPlatformPresets(split, options.platforms) : platformPresets(split));
  const cockedRate = options.cockedRate ?? 0.05;
  const cockedTilt = options.cockedTiltDeg ?? DEFAULT_COCKED_TILT_DEG;
  if (options.cockedOnDie !== undefined && !(options.cockedOnDie >= 0 && options.cockedOnDie <= 1)) {
    throw new RangeError(`The share of cocked dice leaning on a die must be within 0..1 (got ${options.cockedOnDie}).`);
  }
  // 1 - 0.4 is the double 0.6 the scenes always drew against, so existing sets render unchanged.
  const cockedOnWall = 1 - (options.cockedOnDie ?? DEFAULT_COCKED_ON_DIE);
  if (!(cockedTilt[0] > 0 && cockedTilt[0] <= cockedTilt[1] && cockedTilt[1] < 90)) {
    throw new RangeError(`A cocked die's lean must be a range of degrees within 0..90, low first (got ${cockedTilt.join('..')}).`);
  }

  // Camera: field of view, die size and height chosen together so dice are 55-170 px across (tray: tray.ts).
  const sizeBase = tray ? between(r, TRAY_CAMERA.diceCm) : options.dice === 'd6' ? between(r, [1.2, 1.9]) : between(r, [1.5, 1.8]);
  const across = options.dice === 'd6' ? 1.25 : 1.42;
  const [heightMin, heightMax]: Range = tray ? TRAY_CAMERA.heightCm : [10, 32];
  let hfovDeg = 54;
  let heightCm = 20;
  for (let i = 0; i < 200; i++) {
    hfovDeg = between(r, tray ? TRAY_CAMERA.hfovDeg : [42, 66]);
    const px = between(r, tray ? TRAY_CAMERA.acrossPx : [62, 150]);
    const f = width / 2 / Math.tan((hfovDeg * Math.PI) / 360);
    heightCm = (f * sizeBase * across) / px + sizeBase / 2;
    if (heightCm >= heightMin && heightCm <= heightMax) break;
  }
  heightCm = Math.min(heightMax, Math.max(heightMin, heightCm));
  const lens: Lens = { width, height, hfovDeg, k1: between(r, [-0.02, 0.12]), k2: between(r, [-0.01, 0.03]) };
  const tiltDeg = between(r, tray ? TRAY_CAMERA.tiltDeg : [0, 5]);
  const tiltDir = r() * Math.PI * 2;
  const roll = (r() < 0.6 ? 0 : pickOf(r, [90, 180, 270])) + between(r, [-4, 4]);
  const rollRad = (roll * Math.PI) / 180;
  const position: Vec3 = [between(r, [-3, 3]), heightCm, between(r, [-3, 3])];
  const tan = Math.tan((tiltDeg * Math.PI) / 180) * heightCm;
  const target: Vec3 = [position[0] + tan * Math.cos(tiltDir), 0, position[2] + tan * Math.sin(tiltDir)];
  const up: Vec3 = [Math.sin(rollRad), 0, -Math.cos(rollRad)];
  const view = { position, target, up };

  // Platform and channel walls (the rig's channels run along z).
  const platform = {
    kind: platformPreset.kind,
    // A tray's grey is jittered in brightness only (a phone's white balance keeps it grey); a rig's per channel.
    color: (tray ? scaled(pickOf(r, platformPreset.colors), between(r, [0.92, 1.06])) : pickOf(r, platformPreset.colors).map((v) => Math.min(255, Math.round(v * between(r, [0.92, 1.08]))))) as unknown as Rgb,
    roughness: between(r, platformPreset.roughness),
    texture: between(r, platformPreset.texture),
    textureSeed: Math.floor(r() * 2 ** 31),
    center: [position[0], 0, position[2]] as Vec3,
  };
  const walls: Wall[] = [];
  const wallPolys: P2[][] = [];
  const viewWidth = 2 * heightCm * Math.tan((hfovDeg * Math.PI) / 360);
  // A tray has no channels (its rim is outside the dice's crops).
  if (r() < 0.88 && !tray) {
    const channelWidth = Math.max(3.2 * sizeBase, between(r, [0.25, 0.7]) * viewWidth);
    const thickness = between(r, [0.3, 1.2]);
    const wallHeight = between(r, [1.4, 3]);
    const x0 = position[0] + between(r, [-channelWidth, channelWidth]);
    for (let k = -8; k <= 8; k++) {
      const x = x0 + k * (channelWidth + thickness);
      if (Math.abs(x - position[0]) > viewWidth + 10) continue;
      walls.push({ center: [x, wallHeight / 2, position[2]], size: [thickness, wallHeight, 120] });
      wallPolys.push(rectPolygon(x - thickness / 2, position[2] - 60, x + thickness / 2, position[2] + 60));
    }
  }
  const wallLook = { color: pickOf(r, platformPreset.walls), roughness: between(r, [0.3, 0.9]) };

  // Lights.
  const azimuth = r() * Math.PI * 2;
  const elevation = (between(r, lighting.elevationDeg) * Math.PI) / 180;
  const dir: Vec3 = [Math.cos(elevation) * Math.cos(azimuth), Math.sin(elevation), Math.cos(elevation) * Math.sin(azimuth)];
  const keyIntensity = between(r, lighting.intensity);
  const lamp = lighting.key === 'lamp';
  const keyDistance = lamp ? between(r, [35, 70]) : 80;
  const keyColor = kelvinToRgb(between(r, lighting.temperatureK));
  const key: LightSpec = {
    kind: lamp ? 'spot' : 'directional',
    position: [target[0] + dir[0] * keyDistance, dir[1] * keyDistance, target[2] + dir[2] * keyDistance],
    target,
    color: keyColor,
    intensity: keyIntensity,
    softness: between(r, lighting.softness),
    mapSize: 1024,
  };
  let second: LightSpec | undefined;
  if (lighting.second) {
    const az2 = azimuth + between(r, [1.5, 4.7]);
    const el2 = (between(r, [35, 70]) * Math.PI) / 180;
    const d2: Vec3 = [Math.cos(el2) * Math.cos(az2), Math.sin(el2), Math.cos(el2) * Math.sin(az2)];
    const dist2 = between(r, [40, 70]);
    second = {
      kind: 'spot',
      position: [target[0] + d2[0] * dist2, d2[1] * dist2, target[2] + d2[2] * dist2],
      target,
      color: kelvinToRgb(between(r, lighting.second.temperatureK)),
      intensity: keyIntensity * between(r, lighting.second.share),
      softness: between(r, [2, 8]),
      mapSize: 1024,
    };
  }
  const ambient = between(r, lighting.ambient);
  const skyK = kelvinToRgb(between(r, [5500, 8000]));
  const lights = {
    key,
    ...(second ? { second } : {}),
    hemisphere: { sky: skyK, ground: platform.color.map((v) => (v / 255) * 0.6 + 0.2) as unknown as [number, number, number], intensity: ambient * keyIntensity },
    environment: between(r, lighting.environment),
    exposure: between(r, lighting.exposure),
  };

  // Dice: a throw of its own on the rig, or the scene's.
  const rig = r;
  const throwRandom = options.diceSeed !== undefined ? seededRandom(options.diceSeed) : undefined;
  r = throwRandom ?? r;
  const kinds: RenderDie[] = options.dice === 'd6' ? ['d6'] : ['red', 'green'];
  const [nMin, nMax] = options.diceCount ?? (tray ? TRAY_CAMERA.diceCount : [1, 7]);
  const wanted = nMin + Math.floor(r() * (nMax - nMin + 1));
  const placed: Placing[] = [];
  const margin = 3;
  for (let n = 0; n < wanted; n++) {
    const die = pickOf(r, kinds);
    const type = dieTypeOf(die);
    const shapeKind: ShapeKind = die === 'd6' ? 'd6' : 'd8';
    const shapeKey = `${shapeKind}-${pickOf(r, tray ? TRAY_CAMERA.roundness : ROUNDNESS[shapeKind])}`;
    const shape = shapeOf(shapeKey);
    const sizeCm = sizeBase * between(r, [0.97, 1.03]);
    const half = sizeCm / 2;
    const slotFaces = assignFaces(type, shape, r);
    const slotSymbols = slotFaces.map((id) => symbolOf(type, id));
    const look = tray ? sampleTrayLook(r) : sampleLook(die, r, options.art);
    const slotTurns = shape.faces.map(() => Math.floor(r() * 4));
    for (let attempt = 0; attempt < 40; attempt++) {
      const topSlot = Math.floor(r() * shape.faces.length);
      let rotation = flatRotation(shape, topSlot, r() * Math.PI * 2);
      const others = placed.map((p) => p.footprint);
      const wantCocked = r() < cockedRate && (wallPolys.length > 0 || placed.length > 0);
      const mode = wantCocked ? 'cocked' : pickOf(r, ['free', 'free', 'die', 'die', 'wall']);
      let leanDir: P2 | undefined;
      let leanOn: 'wall' | number | undefined;
      const pixel: P2 = [between(r, [margin + 60, width - margin - 60]), between(r, [margin + 60, height - margin - 60])];
      const ground = groundPointAt(view, lens, pixel[0], pixel[1], half);
      if (!ground) continue;
      let start: P2 = [ground[0], ground[2]];
      // Choose what to touch (a wall or a die) and the direction towards it.
      if (mode !== 'free') {
        const useWall = mode === 'wall' || (mode === 'cocked' && (placed.length === 0 || r() < cockedOnWall));
        if (useWall && wallPolys.length > 0) {
          const nearest = walls.map((w, i) => ({ i, dx: w.center[0] - start[0] })).sort((a, b) => Math.abs(a.dx) - Math.abs(b.dx))[0];
          if (nearest) {
            leanDir = [Math.sign(nearest.dx) || 1, 0];
            leanOn = 'wall';
          }
        } else if (placed.length > 0) {
          const k = Math.floor(r() * placed.length);
          const o = (placed[k] as Placing).die.position;
          const dx = o[0] - start[0];
          const dz = o[2] - start[1];
          const len = Math.hypot(dx, dz);
          if (len > 1e-6) {
            leanDir = [dx / len, dz / len];
            leanOn = k;
          }
        }
        if (!leanDir) continue;
      }
      const cocked = mode === 'cocked' && leanDir !== undefined;
      if (cocked && leanDir) {
        const t: Vec3 = [leanDir[0], 0, leanDir[1]];
        const axis = normalize(cross([0, 1, 0], t));
        rotation = mulMat(axisAngle(axis, (between(r, cockedTilt) * Math.PI) / 180), rotation);
      }
      const foot = footprintOf(shape, rotation, half);
      if (leanDir && leanOn !== undefined) {
        const targetPoly = leanOn === 'wall' ? wallPolys : [(placed[leanOn] as Placing).footprint];
        let best: P2 | undefined;
        for (const tp of targetPoly) {
          const hit = slideToContact(foot, start, leanDir, tp, 12);
          if (hit && (!best || Math.hypot(hit[0] - start[0], hit[1] - start[1]) < Math.hypot(best[0] - start[0], best[1] - start[1]))) best = hit;
        }
        if (!best) continue;
        start = best;
      }
      const world = translate(foot, start[0], start[1]);
      if (wallPolys.some((w) => overlaps(world, w)) || others.some((o) => overlaps(world, o))) continue;
      const y = restHeight(shape, rotation, half);
      const candidate: SceneDie = {
        die,
        shape: shapeKind,
        shapeKey,
        sizeCm,
        rotation,
        position: [start[0], y, start[1]],
        slotFaces,
        slotSymbols,
        cocked,
        look,
        slotTurns,
        touches: leanOn === undefined ? [] : [leanOn],
      };
      if (hiddenByWall(candidate, shape, position, walls)) continue;
      const box = dieBox(view, lens, candidate, shape);
      if (!box || box.x < margin || box.y < margin || box.x + box.width > width - margin || box.y + box.height > height - margin) continue;
      placed.push({ die: candidate, footprint: world, box });
      break;
    }
  }

  r = rig;
  const effects = tray ? TRAY_EFFECTS : RIG_EFFECTS;
  const post: PostSpec = {
    readNoise: between(r, effects.readNoise),
    shotNoise: between(r, effects.shotNoise),
    blurSigma: r() < effects.blurShare ? between(r, effects.blurSigma) : 0,
    motionPx: r() < effects.motionShare ? between(r, effects.motionPx) : 0,
    motionAngle: r() * Math.PI,
    vignette: between(r, effects.vignette),
    gains: [between(r, effects.gains), 1, between(r, effects.gains)],
    jpegQuality: Math.round(between(r, effects.jpegQuality)),
    noiseSeed: Math.floor((throwRandom ?? r)() * 2 ** 31),
  };

  const spec: SceneSpec = {
    seed,
    split,
    dice: options.dice,
    ...(tray ? { look: 'tray' as const } : {}),
    preset: { lighting: lighting.name, platform: platformPreset.name },
    width,
    height,
    lens,
    camera: { position, target, up, renderHfovDeg: renderHfovDeg(lens), heightCm, tiltDeg },
    platform,
    walls: { boxes: walls, ...wallLook },
    lights,
    placed: placed.map((p) => p.die),
    post,
  };
  return { spec, truth: placed.map((p) => dieTruth(view, lens, p.die, shapeOf(p.die.shapeKey), p.box)) };
}

/** The scene with one die removed (same camera, light and platform): for checking where a die's pixels are. */
export function withoutDie(spec: SceneSpec, index: number): SceneSpec {
  return { ...spec, placed: spec.placed.filter((_, i) => i !== index) };
}

/**
 * The platform the scene's dice lie on, photographed empty: the same camera, light, platform and walls, no dice, and
 * sensor noise of its own (a rig takes its empty-platform reference at another moment than any throw). What a session
 * locates dice against.
 */
export function emptyPlatform(spec: SceneSpec): SceneSpec {
  return { ...spec, placed: [], post: { ...spec.post, noiseSeed: (spec.post.noiseSeed + 0x9e3779b1) % 2 ** 31 } };
}
