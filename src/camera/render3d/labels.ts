/**
 * Ground truth of a rendered scene, computed from the scene description and
 * the same meshes the browser draws: for each die its class, the face on top
 * (the face whose normal points most upwards), whether it is cocked, its box in
 * the output image (every mesh vertex projected through the camera and the lens
 * distortion), the projected centre of its top face and that face's polygon.
 */
import type { DieShape, Vec3 } from './geometry.js';
import type { Lens } from './lens.js';
import { distortToPixel, focalPx } from './lens.js';
import type { Mat3, PinholeCamera } from './math3d.js';
import { add, cameraBasis, mulVec, scale, toImagePlane } from './math3d.js';
import type { RenderDie } from './look.js';
import { simDieClass } from '../sim/writeLabelledFolder.js';

export interface PixelBox {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface PlacedDie {
  readonly die: RenderDie;
  readonly shapeKey: string;
  /** Across flats, cm. */
  readonly sizeCm: number;
  readonly rotation: Mat3;
  readonly position: Vec3;
  /** Face id of each face slot of the shape. */
  readonly slotFaces: readonly string[];
  /** Symbol of each face slot ('hit', 'focus', ..., or '1'..'6'). */
  readonly slotSymbols: readonly string[];
  readonly cocked: boolean;
}

export interface DieTruth {
  readonly die: RenderDie;
  readonly className: string;
  readonly topFaceId: string;
  readonly topSymbol: string;
  readonly topSlot: number;
  readonly cocked: boolean;
  /** Angle between the top face's normal and straight up, degrees (0 for a die lying flat). */
  readonly tiltDeg: number;
  readonly box: PixelBox;
  readonly topCenter: readonly [number, number];
  readonly topPolygon: readonly (readonly [number, number])[];
}

export type CameraView = Pick<PinholeCamera, 'position' | 'target' | 'up'>;

/** World position of a point given in the die's own (inradius = 1) units. */
export function dieToWorld(d: Pick<PlacedDie, 'rotation' | 'position' | 'sizeCm'>, p: Vec3): Vec3 {
  return add(d.position, scale(mulVec(d.rotation, p), d.sizeCm / 2));
}

/** Output-image pixel of a world point (undefined behind the camera). */
export function projectToPixel(view: CameraView, lens: Lens, p: Vec3, basis = cameraBasis(view), f = focalPx(lens)): [number, number] | undefined {
  const q = toImagePlane(view, p, basis);
  return q ? distortToPixel(lens, q, f) : undefined;
}

/** Bounding box of a die in the output image. */
export function dieBox(view: CameraView, lens: Lens, d: PlacedDie, shape: DieShape): PixelBox | undefined {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  const basis = cameraBasis(view);
  const f = focalPx(lens);
  for (const p of shape.hull) {
    const px = projectToPixel(view, lens, dieToWorld(d, p), basis, f);
    if (!px) return undefined;
    x0 = Math.min(x0, px[0]);
    y0 = Math.min(y0, px[1]);
    x1 = Math.max(x1, px[0]);
    y1 = Math.max(y1, px[1]);
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** The slot whose world normal points most nearly up. */
export function upwardSlot(d: Pick<PlacedDie, 'rotation'>, shape: DieShape): { slot: number; tiltDeg: number } {
  let best = 0;
  let bestY = -2;
  shape.faces.forEach((f, i) => {
    const y = mulVec(d.rotation, f.normal)[1];
    if (y > bestY) {
      bestY = y;
      best = i;
    }
  });
  return { slot: best, tiltDeg: (Math.acos(Math.min(1, bestY)) * 180) / Math.PI };
}

/** Class name as the labelled-folder readers expect (the flat simulated camera's): `red-hit`, `green-blank`, `1`..`6`, or `cocked`. */
export function classOf(die: RenderDie, symbol: string, cocked: boolean): string {
  return simDieClass({ kind: die, face: symbol, cocked });
}

/** The die's truth; `box` is its dieBox when the caller has it already. */
export function dieTruth(view: CameraView, lens: Lens, d: PlacedDie, shape: DieShape, box = dieBox(view, lens, d, shape)): DieTruth {
  if (!box) throw new RangeError('A die lies behind the camera.');
  const { slot, tiltDeg } = upwardSlot(d, shape);
  const face = shape.faces[slot] as DieShape['faces'][number];
  const pixel = (p: Vec3): [number, number] => projectToPixel(view, lens, dieToWorld(d, p)) as [number, number];
  const symbol = d.slotSymbols[slot] as string;
  return {
    die: d.die,
    className: classOf(d.die, symbol, d.cocked),
    topFaceId: d.slotFaces[slot] as string,
    topSymbol: symbol,
    topSlot: slot,
    cocked: d.cocked,
    tiltDeg,
    box,
    topCenter: pixel(face.normal),
    topPolygon: face.corners.map(pixel),
  };
}
