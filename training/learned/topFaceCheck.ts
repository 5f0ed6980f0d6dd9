/**
 * How well the perspective parallax finds the top face (issue 11, item 3), on
 * a rendered split's ground truth (truth/*.json: each die's box and projected
 * top-face centre, the lens' field of view): the distance from the true top
 * centre to the box centre, and to the parallax estimate, in die sizes; and
 * the gain a calibration would fit. Development time only.
 *
 *   npx tsx training/learned/topFaceCheck.ts --split /work/data/renders/tune-xwing [--height-ratio 0.577] [--hfov 54]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cameraFromFov, fitParallaxGain, topFaceCentre } from '../../src/vision/learned/topFace.js';
import type { CameraGeometry } from '../../src/vision/learned/topFace.js';

interface TruthDie {
  readonly cocked: boolean;
  readonly box: { x: number; y: number; width: number; height: number };
  readonly topCenter: [number, number];
}
interface Truth {
  readonly dice: readonly TruthDie[];
  readonly scene: { readonly width: number; readonly height: number; readonly lens?: { readonly hfovDeg: number } };
}

const { values } = parseArgs({ options: { split: { type: 'string' }, 'height-ratio': { type: 'string', default: '0.577' }, hfov: { type: 'string' } } });
if (!values.split) throw new Error('--split is required');
const ratio = Number(values['height-ratio']);
const dir = join(values.split, 'truth');
const rows: { box: number; parallax: number; parallaxKnownFov: number }[] = [];
const samples: { boxCentre: { x: number; y: number }; topCentre: { x: number; y: number }; sizePx: number; camera: CameraGeometry }[] = [];
for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
  const t = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Truth;
  const fov = values.hfov !== undefined ? Number(values.hfov) : 54;
  const guess = cameraFromFov(t.scene.width, t.scene.height, fov);
  const known = cameraFromFov(t.scene.width, t.scene.height, t.scene.lens?.hfovDeg ?? fov);
  for (const d of t.dice) {
    if (d.cocked) continue;
    const size = Math.min(d.box.width, d.box.height);
    const c = { x: d.box.x + d.box.width / 2, y: d.box.y + d.box.height / 2 };
    const top = { x: d.topCenter[0], y: d.topCenter[1] };
    const dist = (p: { x: number; y: number }): number => Math.hypot(p.x - top.x, p.y - top.y) / size;
    rows.push({ box: dist(c), parallax: dist(topFaceCentre(c, size, ratio, guess)), parallaxKnownFov: dist(topFaceCentre(c, size, ratio, known)) });
    samples.push({ boxCentre: c, topCentre: top, sizePx: size, camera: guess });
  }
}
const q = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? Number.NaN;
const show = (name: string, xs: number[]): string => `${name}: median ${q(xs, 0.5).toFixed(3)}, 95th percentile ${q(xs, 0.95).toFixed(3)} die sizes`;
console.log(`${rows.length} flat dice in ${dir}`);
console.log(show('box centre to true top-face centre', rows.map((r) => r.box)));
console.log(show('parallax estimate (hfov 54 guessed) to true top-face centre', rows.map((r) => r.parallax)));
console.log(show('parallax estimate (the lens hfov known) to true top-face centre', rows.map((r) => r.parallaxKnownFov)));
const gain = fitParallaxGain(samples, ratio, samples[0]?.camera ?? cameraFromFov(1280, 720, 54));
console.log(`least-squares parallax gain (hfov 54): ${gain.toFixed(3)}`);
