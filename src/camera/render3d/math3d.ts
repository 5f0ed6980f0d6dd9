/**
 * The little 3D algebra the scene builder and the labels need: rotations as
 * row-major 3x3 matrices, and the pinhole camera three.js uses (looking along
 * its own -z, with `lookAt` built the way Matrix4.lookAt builds it).
 */
import type { Vec3 } from './geometry.js';

export type Mat3 = readonly [number, number, number, number, number, number, number, number, number];

export const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: Vec3, k: number): Vec3 => [a[0] * k, a[1] * k, a[2] * k];
export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const length = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);
export const normalize = (a: Vec3): Vec3 => scale(a, 1 / length(a));

export const IDENTITY: Mat3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];

export function mulMat(a: Mat3, b: Mat3): Mat3 {
  const o: number[] = [];
  const at = (m: Mat3, i: number): number => m[i] as number;
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) o.push(at(a, r * 3) * at(b, c) + at(a, r * 3 + 1) * at(b, 3 + c) + at(a, r * 3 + 2) * at(b, 6 + c));
  return o as unknown as Mat3;
}

export function mulVec(m: Mat3, v: Vec3): Vec3 {
  return [m[0] * v[0] + m[1] * v[1] + m[2] * v[2], m[3] * v[0] + m[4] * v[1] + m[5] * v[2], m[6] * v[0] + m[7] * v[1] + m[8] * v[2]];
}

export function transpose(m: Mat3): Mat3 {
  return [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]];
}

/** Rotation by `angle` radians about the unit `axis` (Rodrigues). */
export function axisAngle(axis: Vec3, angle: number): Mat3 {
  const [x, y, z] = normalize(axis);
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const t = 1 - c;
  return [t * x * x + c, t * x * y - s * z, t * x * z + s * y, t * x * y + s * z, t * y * y + c, t * y * z - s * x, t * x * z - s * y, t * y * z + s * x, t * z * z + c];
}

/** The rotation taking unit vector `from` onto unit vector `to` (shortest arc). */
export function rotationBetween(from: Vec3, to: Vec3): Mat3 {
  const c = dot(from, to);
  if (c > 1 - 1e-12) return IDENTITY;
  if (c < -1 + 1e-12) {
    const helper: Vec3 = Math.abs(from[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
    return axisAngle(cross(from, helper), Math.PI);
  }
  return axisAngle(cross(from, to), Math.acos(c));
}

export interface PinholeCamera {
  readonly position: Vec3;
  readonly target: Vec3;
  readonly up: Vec3;
  /** Horizontal field of view of the rendered (undistorted) frame, degrees. */
  readonly hfovDeg: number;
  readonly width: number;
  readonly height: number;
}

/** Camera-to-world rotation columns (x right, y up, z back), as three.js' lookAt makes them. */
export function cameraBasis(cam: Pick<PinholeCamera, 'position' | 'target' | 'up'>): { x: Vec3; y: Vec3; z: Vec3 } {
  const z = normalize(sub(cam.position, cam.target));
  const x = normalize(cross(cam.up, z));
  const y = cross(z, x);
  return { x, y, z };
}

/** Vertical field of view (degrees) of a frame with this horizontal one and aspect. */
export function verticalFovDeg(hfovDeg: number, width: number, height: number): number {
  return (2 * Math.atan(Math.tan((hfovDeg * Math.PI) / 360) * (height / width)) * 180) / Math.PI;
}

/**
 * Projects world points to normalised image-plane coordinates of the camera
 * (x right, y down, 1 unit = focal length), or undefined behind the camera.
 */
export function toImagePlane(cam: Pick<PinholeCamera, 'position' | 'target' | 'up'>, p: Vec3, b = cameraBasis(cam)): [number, number] | undefined {
  const d = sub(p, cam.position);
  const zc = -dot(d, b.z);
  if (zc <= 1e-9) return undefined;
  return [dot(d, b.x) / zc, -dot(d, b.y) / zc];
}
