/**
 * Die meshes for the 3D synthetic camera, built here (pure TypeScript) and sent
 * to the browser, so the renderer and the labels use the very same vertices.
 *
 * A die is a convex polyhedron (octahedron for the X-Wing d8, cube for the D6)
 * with rounded edges: its surface is the level set f(x) = 1 of a smooth maximum
 * of the face planes, f(x) = (sum_i max(0, n_i . x)^P)^(1/P). Far from an edge
 * one term dominates and the face is flat; near an edge two terms mix and the
 * edge is rounded (smaller P: rounder). Units: the inradius is 1 (the distance
 * from the centre to each flat face), so a die of size s (across flats) is
 * scaled by s / 2.
 *
 * Each face of the polyhedron is subdivided and every vertex pushed radially
 * onto the rounded surface. Triangles keep the face they came from, and their
 * texture coordinates are the face-plane coordinates mapped into that face's
 * tile of a texture atlas, so each face carries its own icon or pips.
 */

export type Vec3 = readonly [number, number, number];
export type ShapeKind = 'd8' | 'd6';

export interface FaceFrame {
  /** Outward unit normal. */
  readonly normal: Vec3;
  /** Unit vectors in the face plane: tile x (right) and tile y (down) seen from outside. */
  readonly u: Vec3;
  readonly v: Vec3;
  /** Corners of the sharp (unrounded) face, in order, inradius units. */
  readonly corners: readonly Vec3[];
  /** Half the side of the square tile region, in inradius units (tile spans [-half, half] in u and v). */
  readonly tileHalf: number;
}

export interface DieShape {
  readonly kind: ShapeKind;
  /** Rounding exponent P (smaller is rounder). */
  readonly roundness: number;
  readonly faces: readonly FaceFrame[];
  /** Atlas grid: face i is tile (i % cols, floor(i / cols)). */
  readonly atlasCols: number;
  readonly atlasRows: number;
  /** Non-indexed triangles: xyz per vertex, unit normals, atlas uv (v down, texture not flipped). */
  readonly positions: Float32Array;
  readonly normals: Float32Array;
  readonly uvs: Float32Array;
  /** Unique surface points (a subset of the vertices) for silhouettes, footprints and rest heights. */
  readonly hull: readonly Vec3[];
  /** The same surface sampled coarsely (within ~0.2 % of the size): for fast footprints when placing dice. */
  readonly coarseHull: readonly Vec3[];
}

const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scale = (a: Vec3, k: number): Vec3 => [a[0] * k, a[1] * k, a[2] * k];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: Vec3): Vec3 => scale(a, 1 / Math.hypot(a[0], a[1], a[2]));

/** The sharp polyhedron: faces as corner lists (counter-clockwise seen from outside), inradius 1. */
function sharpFaces(kind: ShapeKind): Vec3[][] {
  if (kind === 'd6') {
    const faces: Vec3[][] = [];
    for (let axis = 0; axis < 3; axis++) {
      for (const s of [1, -1]) {
        const a = (axis + 1) % 3;
        const b = (axis + 2) % 3;
        const pt = (pa: number, pb: number): Vec3 => {
          const p = [0, 0, 0];
          p[axis] = s;
          p[a] = pa;
          p[b] = pb * s;
          return p as unknown as Vec3;
        };
        faces.push([pt(-1, -1), pt(1, -1), pt(1, 1), pt(-1, 1)]);
      }
    }
    return faces;
  }
  const k = Math.sqrt(3);
  const faces: Vec3[][] = [];
  for (const sx of [1, -1]) {
    for (const sy of [1, -1]) {
      for (const sz of [1, -1]) {
        const tri: Vec3[] = [
          [sx * k, 0, 0],
          [0, sy * k, 0],
          [0, 0, sz * k],
        ];
        faces.push(tri);
      }
    }
  }
  return faces;
}

/** Face frames of a shape (normals, tile axes, corners); the order is the face slot order used everywhere. */
export function faceFrames(kind: ShapeKind): FaceFrame[] {
  return sharpFaces(kind).map((given) => {
    let corners = given;
    const c = scale(
      corners.reduce<Vec3>((acc, p) => [acc[0] + p[0], acc[1] + p[1], acc[2] + p[2]], [0, 0, 0]),
      1 / corners.length,
    );
    const normal = norm(c);
    // Orient corners counter-clockwise seen from outside.
    const turn = cross(sub(corners[1] as Vec3, corners[0] as Vec3), sub(corners[2] as Vec3, corners[0] as Vec3));
    if (dot(turn, normal) < 0) corners = [corners[0] as Vec3, ...corners.slice(1).reverse()];
    // Tile y (down) points away from the first corner, so a d8's icon stands with a corner above it.
    const up = norm(sub(corners[0] as Vec3, c));
    const v = scale(up, -1);
    const u = cross(normal, v);
    const circum = Math.max(...corners.map((p) => Math.hypot(...sub(p, c))));
    return { normal, u, v, corners, tileHalf: circum * 1.02 };
  });
}

/** The smooth-max level function of the rounded die; the surface is f = 1. */
export function roundedLevel(normals: readonly Vec3[], p: number, x: Vec3): number {
  let s = 0;
  for (const n of normals) {
    const d = dot(n, x);
    if (d > 0) s += d ** p;
  }
  return s ** (1 / p);
}

/**
 * The face cut into small triangles. A grid point shared by several of them is the same object in each (one point per
 * grid position of a fan triangle), so the mesh builder works out each surface point once, not once per triangle.
 */
function subdivide(corners: readonly Vec3[], steps: number): Vec3[][] {
  const tris: [Vec3, Vec3, Vec3][] = [];
  for (let i = 1; i + 1 < corners.length; i++) tris.push([corners[0] as Vec3, corners[i] as Vec3, corners[i + 1] as Vec3]);
  const out: Vec3[][] = [];
  for (const [a, b, c] of tris) {
    const grid = new Map<number, Vec3>();
    const at = (i: number, j: number): Vec3 => {
      const key = i * (steps + 1) + j;
      let p = grid.get(key);
      if (p === undefined) {
        const wa = 1 - (i + j) / steps;
        const wb = i / steps;
        const wc = j / steps;
        p = [a[0] * wa + b[0] * wb + c[0] * wc, a[1] * wa + b[1] * wb + c[1] * wc, a[2] * wa + b[2] * wb + c[2] * wc];
        grid.set(key, p);
      }
      return p;
    };
    for (let i = 0; i < steps; i++) {
      for (let j = 0; j < steps - i; j++) {
        out.push([at(i, j), at(i + 1, j), at(i, j + 1)]);
        if (i + j + 1 < steps) out.push([at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)]);
      }
    }
  }
  return out;
}

/**
 * Builds the rounded mesh of a die. `roundness` is the exponent P (d6 ~5-9,
 * d8 ~9-16 look like real dice); `steps` subdivisions per face edge.
 */
export function buildDieShape(kind: ShapeKind, roundness: number, steps = kind === 'd6' ? 18 : 22): DieShape {
  const faces = faceFrames(kind);
  const normals = faces.map((f) => f.normal);
  const cols = kind === 'd6' ? 3 : 4;
  const rows = 2;
  const positions: number[] = [];
  const outNormals: number[] = [];
  const uvs: number[] = [];
  const seen = new Map<string, Vec3>();
  const onSurface = (q: Vec3): Vec3 => {
    const d = norm(q);
    return scale(d, 1 / roundedLevel(normals, roundness, d));
  };
  const normalAt = (x: Vec3): Vec3 => {
    let g: Vec3 = [0, 0, 0];
    for (const n of normals) {
      const d = dot(n, x);
      if (d > 0) g = [g[0] + n[0] * d ** (roundness - 1), g[1] + n[1] * d ** (roundness - 1), g[2] + n[2] * d ** (roundness - 1)];
    }
    return norm(g);
  };
  // A grid point lies in up to six triangles: its surface point, normal, tile position and key are worked out once
  // (the same functions of the same point, so the same numbers) and written out for each triangle, in the same order.
  interface Vertex {
    readonly x: Vec3;
    readonly normal: Vec3;
    readonly u: number;
    readonly v: number;
    readonly key: string;
  }
  const keyOf = (x: Vec3): string => x.map((c) => c.toFixed(4)).join(',');
  faces.forEach((face, fi) => {
    const col = fi % cols;
    const row = Math.floor(fi / cols);
    const done = new Map<Vec3, Vertex>();
    for (const tri of subdivide(face.corners, steps)) {
      for (const q of tri) {
        let vertex = done.get(q);
        if (vertex === undefined) {
          const x = onSurface(q);
          const tu = (dot(x, face.u) / face.tileHalf + 1) / 2;
          const tv = (dot(x, face.v) / face.tileHalf + 1) / 2;
          vertex = { x, normal: normalAt(x), u: (col + Math.min(1, Math.max(0, tu))) / cols, v: (row + Math.min(1, Math.max(0, tv))) / rows, key: keyOf(x) };
          done.set(q, vertex);
        }
        const { x, normal, key } = vertex;
        positions.push(x[0], x[1], x[2]);
        outNormals.push(normal[0], normal[1], normal[2]);
        uvs.push(vertex.u, vertex.v);
        if (!seen.has(key)) seen.set(key, x);
      }
    }
  });
  const coarse = new Map<string, Vec3>();
  for (const face of faces) {
    const done = new Map<Vec3, { x: Vec3; key: string }>();
    for (const tri of subdivide(face.corners, 12)) {
      for (const q of tri) {
        let point = done.get(q);
        if (point === undefined) {
          const x = onSurface(q);
          point = { x, key: keyOf(x) };
          done.set(q, point);
        }
        coarse.set(point.key, point.x);
      }
    }
  }
  return {
    kind,
    roundness,
    faces,
    atlasCols: cols,
    atlasRows: rows,
    positions: new Float32Array(positions),
    normals: new Float32Array(outNormals),
    uvs: new Float32Array(uvs),
    hull: [...seen.values()],
    coarseHull: [...coarse.values()],
  };
}

/** Index of the face whose opposite normal is -n (every d6 and d8 face has one). */
export function oppositeSlot(faces: readonly FaceFrame[], slot: number): number {
  const n = (faces[slot] as FaceFrame).normal;
  let best = -1;
  let bestDot = 2;
  faces.forEach((f, i) => {
    const d = dot(f.normal, n);
    if (d < bestDot) {
      bestDot = d;
      best = i;
    }
  });
  return best;
}
