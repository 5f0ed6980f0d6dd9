/**
 * hardware/parts/presets.scad, written from hardware/presets.json and the derived geometry
 * (rigDesign.ts): the parts read every number from it, so they are built from the same
 * figures the design checks pass.
 */
import { DRIVE_GAP_MM, IDLER_GAP_MM, derive, dieGeometry } from './rigDesign.js';
import type { RigPreset } from './rigDesign.js';

export const SCAD_PRESETS_FILE = 'hardware/parts/presets.scad';

/** The parameters one preset hands to OpenSCAD (snake_case names, mm). */
export function scadValues(p: RigPreset): Record<string, number | string> {
  const d = derive(p);
  return {
    drive_gap: DRIVE_GAP_MM,
    idler_gap: IDLER_GAP_MM,
    die_type: p.die.type,
    die_size: p.die.sizeMm,
    die_max: dieGeometry(p.die).maxMm,
    channels: p.channels,
    channel_width: p.channelWidthMm,
    channel_depth: p.channelDepthMm,
    drop_height: p.dropHeightMm,
    wall: p.wallMm,
    side_wall: p.sideWallMm,
    baffles: p.baffles,
    baffle_reach: p.baffleReachMm,
    clearance: p.clearanceMm,
    acrylic: p.acrylicMm,
    frame_lip: p.frameLipMm,
    frame_sleeve: p.frameSleeveMm,
    tower_x: d.towerMm[0],
    tower_y: d.towerMm[1],
    tower_z: d.towerMm[2],
    end_frame_x: d.endFrameMm[0],
    end_frame_y: d.endFrameMm[1],
    end_frame_z: d.endFrameMm[2],
    camera_distance: d.camera.distanceMm,
    camera_riser: d.camera.riserMm,
    camera_lens_above_mount: p.camera.lensAboveMountMm,
    pivot_z: d.pivotZMm,
    platform_z: d.platformZMm,
    post: p.frame.postMm,
    extrusion: p.frame.extrusionMm,
    led_offset_y: d.light.offsetYMm,
    led_z: d.light.zMm,
    led_aim: d.light.aimDeg,
    sweep: d.sweepMm,
    post_span: d.cutList.postSpanMm,
    base_y: d.cutList.baseYMm,
    base_x: d.cutList.baseXMm,
  };
}

const num = (v: number): string => String(Math.round(v * 1000) / 1000);
const scadValue = (v: number | string): string => (typeof v === 'number' ? num(v) : JSON.stringify(v));

export function scadPresetsText(presets: Record<string, RigPreset>): string {
  const rows = Object.entries(presets).map(([name, p]) => {
    const pairs = Object.entries(scadValues(p)).map(([k, v]) => `    ["${k}", ${scadValue(v)}]`);
    return `  ["${name}", [\n${pairs.join(',\n')}\n  ]]`;
  });
  return [
    '// GENERATED from hardware/presets.json by `npx tsx scripts/hardware/generate.ts`: do not edit.',
    '// A test fails when this file is stale. Parts read it through params.scad.',
    `PRESET_NAMES = [${Object.keys(presets).map((n) => JSON.stringify(n)).join(', ')}];`,
    'PRESETS = [',
    rows.join(',\n'),
    '];',
    '',
  ].join('\n');
}
