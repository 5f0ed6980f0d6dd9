/**
 * hardware/design-figures.md: every figure a builder needs per preset (sizes, cut list,
 * camera distance, lights, motor settings) and the design checks' results, written from
 * the same derivation the checks and the OpenSCAD parts use.
 */
import { checkPreset, derive, dieGeometry, printedTowerMm, withChanges } from './rigDesign.js';
import type { RigPreset } from './rigDesign.js';

export const DESIGN_FIGURES_FILE = 'hardware/design-figures.md';

const mm = (x: number): string => `${x.toFixed(1)} mm`;

function presetSection(name: string, p: RigPreset): string[] {
  const d = derive(p);
  const die = dieGeometry(p.die);
  const lines: string[] = [];
  lines.push(`## \`${name}\`: ${p.description}`, '');
  lines.push('| figure | value |', '| --- | --- |');
  const row = (k: string, v: string): void => void lines.push(`| ${k} | ${v} |`);
  row('die', `${p.die.type}, ${p.die.sizeMm} mm ${p.die.type === 'd6' ? 'edge' : 'tip to tip'}, ${p.die.massG} g; ${die.name} ${mm(die.maxMm)}`);
  row('channels', `${p.channels} × ${p.channelWidthMm} mm wide × ${p.channelDepthMm} mm deep, ${p.dicePerChannel} die each, ${p.clearanceMm} mm clearance`);
  row('drop', `${p.dropHeightMm} mm; ${p.baffles} baffles (45° wedges reaching ${p.baffleReachMm} mm), one every ${mm(d.baffleSpacingMm)}`);
  row('tower body (printed)', `${printedTowerMm(d).map((v) => v.toFixed(1)).join(' × ')} mm with its pivot bosses, about ${Math.round(d.massG.printed)} g`);
  row('end frames + platforms', `2 × frame ${d.endFrameMm.map((v) => v.toFixed(1)).join(' × ')} mm; 2 × acrylic ${d.towerMm[0].toFixed(1)} × ${d.towerMm[1].toFixed(1)} × ${p.acrylicMm} mm (${Math.round(d.massG.ends)} g together)`);
  row('2020 extrusion to cut', `2 posts ${d.cutList.postMm} mm; 2 base bars (y) ${d.cutList.baseYMm} mm; 3 base bars (x) ${d.cutList.baseXMm.toFixed(0)} mm`);
  row('pivot', `${mm(d.pivotZMm)} above the base bars; posts ${d.cutList.postSpanMm.toFixed(1)} mm apart (centres)`);
  row('camera', `lens ${mm(d.camera.distanceMm)} below the platform (HFOV ${p.camera.hfovDeg}°), view ${mm(d.camera.viewWidthMm)} × ${mm(d.camera.viewHeightMm)}, a die ${d.camera.diePx.toFixed(0)} px across; camera riser ${mm(d.camera.riserMm)}`);
  row('lights', `LED bars ${d.light.offsetYMm} mm either side of the camera axis, strips aimed ${d.light.aimDeg.toFixed(0)}° up`);
  row('servo', `${(d.torque.servoNm * 10.197).toFixed(1)} kg·cm needed (rated ${p.servo.ratedKgCm}); firmware defaults (flip 600 ms)`);
  row('stepper build', `\`config tumbler=stepper steps=${p.stepper.stepsPerFlip} step_rate=${p.stepper.stepRate}\` (${p.stepper.stepsPerRev} steps a turn: ${p.stepper.stepsPerRev / 200}× microstepping); a flip takes ${d.torque.stepperFlipS.toFixed(1)} s`);
  lines.push('', 'Camera distance for other lenses (same view, so the same die size in pixels):', '');
  lines.push('| HFOV | lens to platform | camera riser |', '| --- | --- | --- |');
  for (const hfov of [42, 48, 54, 60, 66]) {
    const o = derive(withChanges(p, { camera: { hfovDeg: hfov } }));
    lines.push(`| ${hfov}° | ${mm(o.camera.distanceMm)} | ${o.camera.riserMm >= 10 ? mm(o.camera.riserMm) : 'too short: use longer posts'} |`);
  }
  lines.push('', ...sessionSnippet(p), '');
  lines.push('Design checks (`test/hardware/designChecks.test.ts`):', '');
  for (const r of checkPreset(p)) lines.push(`- ${r.ok ? 'pass' : '**FAIL**'}: ${r.check}: ${r.detail}`);
  lines.push('');
  return lines;
}

/** Where each channel falls in the frame with the camera centred under the platform, in frame pixels. */
export function channelRectsPx(p: RigPreset): { x: number; y: number; width: number; height: number }[] {
  const d = derive(p);
  const s = p.camera.widthPx / d.camera.viewWidthMm;
  const top = p.camera.heightPx / 2 - (p.channelDepthMm / 2) * s;
  return Array.from({ length: p.channels }, (_, i) => ({
    x: Math.round(p.camera.widthPx / 2 + (-d.spanXMm / 2 + i * (p.channelWidthMm + p.wallMm)) * s),
    y: Math.round(top),
    width: Math.round(p.channelWidthMm * s),
    height: Math.round(p.channelDepthMm * s),
  }));
}

/**
 * Which physical channel each rectangle is. The session numbers channels by the order of its rectangles (the
 * profile's, found left to right in the frame: `detectChannelRegions`), and `dice[i]` is read in channel i (setup.ts);
 * a camera under the platform sees it mirrored from how a builder looking down sees it, so the order depends on how
 * the camera is turned. The table: the camera's image right is its view direction crossed with its frame's up.
 */
const CHANNEL_ORDER = [
  '## Which channel is channel 0',
  '',
  'A session reads the first die of its `dice` in channel 0, the second in channel 1, and so on. Channel 0 is the',
  "first rectangle of `camera.channels`, or of the calibration profile's channels, which calibration finds left to",
  'right in the frame; the rectangles above run left to right too. So channel 0 is the leftmost channel in the',
  'frame, and which channel of the tower that is depends on how the camera is turned, not on the tower: looking up',
  'through the platform, the camera sees it mirrored from how you see it looking down. Standing in front of the rig,',
  'the channels side by side across your view:',
  '',
  '| camera | top of its frame toward | channel 0 is the channel on your |',
  '| --- | --- | --- |',
  '| under the platform (`face: bottom`, these designs) | you | left |',
  '| under the platform (`face: bottom`, these designs) | the far side | right |',
  '| above the platform (`face: top`) | the far side | left |',
  '| above the platform (`face: top`) | you | right |',
  '',
  '`face: bottom` changes which face is recorded (the opposite of the one seen), never the order of the channels.',
  'Check the order on the rig before the first session, and again whenever the camera is turned: first-run.md,',
  '"Which channel is channel 0", puts one die in channel 0 and lets a short run say where it found it.',
  '',
];

function sessionSnippet(p: RigPreset): string[] {
  const d = derive(p);
  const rects = channelRectsPx(p).map((r) => `    - { x: ${r.x}, y: ${r.y}, width: ${r.width}, height: ${r.height} }`);
  if (p.die.type === 'd8') {
    return [
      'Calibrate on the rig (first-run.md): the profile records the channels, the empty platform and the die size.',
      '',
      '```',
      `node bin/dicerig.js calibrate --die green --camera /dev/video0 --face bottom --channels ${p.channels} --die-size ${Math.round(d.camera.diePx)} --out my-rig.json`,
      '```',
      '',
      'The profile numbers the channels left to right in the frame: see "Which channel is channel 0" below.',
    ];
  }
  return [
    'Camera part of a session config (first-run.md); the channels are where the design puts them with the camera',
    'centred, left to right in the frame: check them on a real frame and adjust. Which channel of the tower each',
    'one is depends on how the camera is turned: see "Which channel is channel 0" below.',
    '',
    '```yaml',
    'camera:',
    '  source: device',
    '  face: bottom          # under the clear platform: each die is recorded by the face on top, the opposite of the one seen',
    '  device: /dev/video0',
    `  width: ${p.camera.widthPx}`,
    `  height: ${p.camera.heightPx}`,
    '  reference: empty-platform.png',
    `  dieSizePx: ${Math.round(d.camera.diePx)}`,
    '  channels:',
    ...rects,
    '```',
  ];
}

export function designFiguresText(presets: Record<string, RigPreset>): string {
  const lines = [
    '# Design figures, per preset',
    '',
    '<!-- GENERATED from hardware/presets.json by `npx tsx scripts/hardware/generate.ts`: do not edit; a test fails when it is stale. -->',
    '',
    'Every number here comes from `hardware/presets.json` through the same derivation the',
    'OpenSCAD parts (`parts/presets.scad`) and the design checks use. Axes: x along the pivot',
    '(channels side by side), y front to back, z up. Heights are above the top of the base bars.',
    '',
  ];
  for (const [name, p] of Object.entries(presets)) lines.push(...presetSection(name, p));
  lines.push(...CHANNEL_ORDER);
  return lines.join('\n');
}
