import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derive, loadPresets } from '../../scripts/hardware/rigDesign.js';

const run = promisify(execFile);
const PARTS_DIR = 'hardware/parts';
/** Parts whose shape changes with the preset; the rest are rendered for the first preset only. */
const PRESET_PARTS = ['tower', 'end_frame', 'platform', 'camera_mount', 'led_holder'];
/** Files in hardware/parts that are not printed parts. */
const NOT_PARTS = ['params', 'presets', 'assembly'];

const presets = loadPresets();
const presetNames = Object.keys(presets);
const parts = readdirSync(PARTS_DIR).filter((f) => f.endsWith('.scad')).map((f) => f.slice(0, -5)).filter((p) => !NOT_PARTS.includes(p)).sort();

interface Render { stl: string; log: string; ok: boolean }
const renders = new Map<string, Render>();
let out = '';

async function openscad(args: string[]): Promise<{ log: string; ok: boolean }> {
  try {
    const { stdout, stderr } = await run('openscad', args, { cwd: PARTS_DIR, timeout: 60_000 });
    return { log: stdout + stderr, ok: true };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    return { log: `${err.message}\n${err.stdout ?? ''}${err.stderr ?? ''}`, ok: false };
  }
}

/** Renders at a low $fn (the shapes, not the smoothness, are under test), two at a time. */
async function renderAll(jobs: { key: string; part: string; preset: string }[]): Promise<void> {
  const queue = [...jobs];
  const worker = async (): Promise<void> => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const stl = join(out, `${job.key}.stl`);
      const r = await openscad(['-D', '$fn=12', '-D', `preset="${job.preset}"`, '-o', stl, `${job.part}.scad`]);
      renders.set(job.key, { stl, ...r });
    }
  };
  await Promise.all([worker(), worker()]);
}

/** Bounding box of an ASCII STL: [min xyz, max xyz]. */
function bbox(stl: string): [number[], number[]] {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const m of readFileSync(stl, 'utf8').matchAll(/vertex\s+(\S+)\s+(\S+)\s+(\S+)/g)) {
    for (let i = 0; i < 3; i++) {
      const v = Number(m[i + 1]);
      min[i] = Math.min(min[i] as number, v);
      max[i] = Math.max(max[i] as number, v);
    }
  }
  return [min, max];
}

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'dicerig-parts-'));
  const jobs = presetNames.flatMap((preset, i) =>
    parts.filter((part) => i === 0 || PRESET_PARTS.includes(part)).map((part) => ({ key: `${preset}-${part}`, part, preset })),
  );
  await renderAll(jobs);
}, 120_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the OpenSCAD parts', () => {
  it('has one file per part of the issue: tower, platform and frame, pivot (servo, stepper), camera mount, switch bracket, LED holder', () => {
    expect(parts).toEqual(['bearing_mount', 'camera_mount', 'end_frame', 'led_holder', 'platform', 'servo_mount', 'stepper_hub', 'stepper_mount', 'switch_bracket', 'tower']);
  });

  it('renders every part to STL for every preset without an error or a warning', () => {
    expect(renders.size).toBe(parts.length + (presetNames.length - 1) * PRESET_PARTS.length);
    for (const [key, r] of renders) {
      expect({ key, ok: r.ok, warnings: r.log.split('\n').filter((l) => /WARNING|ERROR/.test(l)) }).toEqual({ key, ok: true, warnings: [] });
      expect(readFileSync(r.stl, 'utf8')).toMatch(/^solid[\s\S]*facet normal[\s\S]*endsolid/);
    }
  });

  it('builds the tower, its frames and platforms to the sizes the design checks use', () => {
    for (const [name, preset] of Object.entries(presets)) {
      const d = derive(preset);
      const [tmin, tmax] = bbox(join(out, `${name}-tower.stl`));
      // The pivot bosses stand 7 mm out of each side wall.
      expect(tmin.map((v) => +v.toFixed(2))).toEqual([-7, 0, 0]);
      expect(tmax.map((v) => +v.toFixed(2))).toEqual([+(d.towerMm[0] + 7).toFixed(2), +d.towerMm[1].toFixed(2), d.towerMm[2]]);
      const [fmin, fmax] = bbox(join(out, `${name}-end_frame.stl`));
      expect(fmax.map((v, i) => +(v - (fmin[i] as number)).toFixed(2))).toEqual(d.endFrameMm.map((v) => +v.toFixed(2)));
      const [pmin, pmax] = bbox(join(out, `${name}-platform.stl`));
      expect(pmax.map((v, i) => +(v - (pmin[i] as number)).toFixed(2))).toEqual([+d.towerMm[0].toFixed(2), +d.towerMm[1].toFixed(2), preset.acrylicMm]);
      // The camera mount's board seat is at the riser height the camera guide computes.
      const [, cmax] = bbox(join(out, `${name}-camera_mount.stl`));
      expect(cmax[2]).toBeCloseTo(d.camera.riserMm + 5, 2);
    }
  });

  it('exports the acrylic platforms flat as DXF for laser cutting', async () => {
    const name = presetNames[0] as string;
    const dxf = join(out, 'platform.dxf');
    const r = await openscad(['-D', `preset="${name}"`, '-D', 'flat=true', '-o', dxf, 'platform.scad']);
    expect(r.log).not.toMatch(/WARNING|ERROR/);
    const text = readFileSync(dxf, 'utf8');
    // Two rectangles: eight lines, with the panel's width among the coordinates.
    expect(text.match(/^LINE$/gm)).toHaveLength(8);
    expect(text).toContain(`\n${+derive(presets[name] as never).towerMm[0].toFixed(3)}\n`);
  });

  it('refuses a preset name it does not know, naming the presets it has', async () => {
    const r = await openscad(['-D', 'preset="d20-huge"', '-o', join(out, 'x.stl'), 'tower.scad']);
    expect(r.ok).toBe(false);
    expect(r.log).toContain('unknown preset "d20-huge"; presets: ["xwing-d8", "d6-16mm"]');
  });
});
