/**
 * The reference rig's geometry and its design checks, from hardware/presets.json.
 * The same derived numbers are written into hardware/parts/presets.scad (generate.ts),
 * so the printed parts and these checks cannot disagree.
 */
import { readFileSync } from 'node:fs';

export interface DieSpec {
  /** d6: a cube; d8: a regular octahedron. */
  readonly type: 'd6' | 'd8';
  /** d6: edge length; d8: tip to tip (the long diagonal), what calipers measure. */
  readonly sizeMm: number;
  readonly massG: number;
}

export interface RigPreset {
  readonly description: string;
  readonly die: DieSpec;
  readonly channels: number;
  readonly dicePerChannel: number;
  readonly channelWidthMm: number;
  readonly channelDepthMm: number;
  readonly dropHeightMm: number;
  readonly wallMm: number;
  readonly sideWallMm: number;
  readonly baffles: number;
  readonly baffleReachMm: number;
  readonly clearanceMm: number;
  readonly acrylicMm: number;
  readonly frameLipMm: number;
  readonly frameSleeveMm: number;
  readonly camera: { widthPx: number; heightPx: number; hfovDeg: number; targetDiePx: number; marginMm: number; lensAboveMountMm: number };
  readonly vision: { minDiePx: number; maxDiePx: number };
  readonly servo: { name: string; ratedKgCm: number; secondsPer60Deg: number; spinUpDeg: number };
  readonly stepper: { name: string; holdingNm: number; stepsPerRev: number; stepsPerFlip: number; stepRate: number };
  readonly torqueMargin: number;
  readonly tumbling: { minImpacts: number; minDropDieSizes: number; minFallBetweenImpactsDieSizes: number };
  readonly material: { printGPerCm3: number; acrylicGPerCm3: number; baffleFill: number };
  readonly frame: { postMm: number; extrusionMm: number; ledAboveBarMm: number };
  readonly printBedMm: readonly [number, number, number];
}

interface PresetFile {
  readonly defaults: Record<string, unknown>;
  readonly presets: Record<string, Record<string, unknown>>;
}

export const PRESETS_FILE = 'hardware/presets.json';
const G = 9.81;
/** Wall thickness of the printed end frames and mounts (mm). */
const FRAME_WALL_MM = 2.4;
/** Where the pivot sits below the post's top (mm): the bearing and servo mounts clamp there. */
const PIVOT_BELOW_POST_TOP_MM = 30;
/** Camera mount: base plate thickness and the smallest riser that still prints (mm). */
const CAMERA_PLATE_MM = 5;
/** From the tower's side to the post's inner face: the drive side holds the servo (or stepper) box, the other the bearing. */
export const DRIVE_GAP_MM = 70;
export const IDLER_GAP_MM = 25;

/** Every preset of the file, defaults applied (a preset's own value wins, one level deep for objects). */
export function loadPresets(file = PRESETS_FILE): Record<string, RigPreset> {
  const data = JSON.parse(readFileSync(file, 'utf8')) as PresetFile;
  return Object.fromEntries(Object.entries(data.presets).map(([name, own]) => [name, withDefaults(data.defaults, own)]));
}

function withDefaults(defaults: Record<string, unknown>, own: Record<string, unknown>): RigPreset {
  const merged: Record<string, unknown> = { ...defaults };
  for (const [key, value] of Object.entries(own)) {
    const base = defaults[key];
    const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
    merged[key] = isObject(base) && isObject(value) ? { ...base, ...value } : value;
  }
  return merged as unknown as RigPreset;
}

/** A preset with some fields replaced (objects merged one level deep), for what-if checks. */
export function withChanges(preset: RigPreset, changes: Record<string, unknown>): RigPreset {
  return withDefaults(preset as unknown as Record<string, unknown>, changes);
}

/** The die's shape figures. */
export function dieGeometry(die: DieSpec): { maxMm: number; minWidthMm: number; footprintMm: number; name: string } {
  if (die.type === 'd6') {
    // Any orientation fits in its circumscribed sphere: the space diagonal s·√3 (the face diagonal s·√2 is the widest a die sliding on a face needs).
    return { maxMm: die.sizeMm * Math.sqrt(3), minWidthMm: die.sizeMm, footprintMm: die.sizeMm, name: 'space diagonal' };
  }
  // Regular octahedron, tip to tip L = √2·edge: circumscribed diameter L; face to face L/√3;
  // resting on a face, its outline is a hexagon 2L/√6 across corners (the size vision measures).
  const L = die.sizeMm;
  return { maxMm: L, minWidthMm: L / Math.sqrt(3), footprintMm: (2 * L) / Math.sqrt(6), name: 'long diagonal' };
}

export interface RigDerived {
  /** Tower body outside (x along the pivot axis, y front to back, z the drop). */
  readonly towerMm: readonly [number, number, number];
  /** Inside span of all channels across x (what the camera must see). */
  readonly spanXMm: number;
  /** Gap between a baffle's tip and the opposite wall. */
  readonly baffleGapMm: number;
  /** Free corridor between the tips of front and back baffles. */
  readonly corridorMm: number;
  /** Vertical distance between successive baffle tips. */
  readonly baffleSpacingMm: number;
  readonly camera: { distanceMm: number; viewWidthMm: number; viewHeightMm: number; diePx: number; riserMm: number; lensZMm: number };
  /** Pivot height above the base bars' top; the platform (where dice rest) at rest is dropHeight/2 below it. */
  readonly pivotZMm: number;
  readonly platformZMm: number;
  /** Radius the tower sweeps around the pivot. */
  readonly sweepMm: number;
  readonly light: { offsetYMm: number; zMm: number; aimDeg: number; minOffsetYMm: number };
  readonly massG: { printed: number; ends: number; dice: number };
  readonly inertiaKgM2: number;
  readonly torque: { staticNm: number; servoNm: number; servoRatedNm: number; stepperNm: number; stepperFlipS: number };
  readonly guaranteedImpacts: number;
  readonly endFrameMm: readonly [number, number, number];
  /** Aluminium extrusion to cut: the two posts, the two base bars along y (under the posts), three along x (two carry the lights, one the camera). */
  readonly cutList: { postMm: number; baseYMm: number; baseXMm: number; postSpanMm: number };
}

/** How far each pivot boss stands out of the tower's side (tower.scad: `h = 7`). */
export const PIVOT_BOSS_MM = 7;

/** The tower as printed: its body plus the pivot boss on each side, which the print bed must hold too. */
export function printedTowerMm(d: Pick<RigDerived, 'towerMm'>): [number, number, number] {
  return [d.towerMm[0] + 2 * PIVOT_BOSS_MM, d.towerMm[1], d.towerMm[2]];
}

export function derive(p: RigPreset): RigDerived {
  const die = dieGeometry(p.die);
  const spanXMm = p.channels * p.channelWidthMm + (p.channels - 1) * p.wallMm;
  const towerMm = [spanXMm + 2 * p.sideWallMm, p.channelDepthMm + 2 * p.wallMm, p.dropHeightMm] as const;
  const baffleGapMm = p.channelDepthMm - p.baffleReachMm;
  const corridorMm = p.channelDepthMm - 2 * p.baffleReachMm;
  const baffleSpacingMm = p.dropHeightMm / (p.baffles + 1);

  // Camera square under the platform (rectilinear lens, square pixels). Far enough that every channel is in view with a
  // margin, and a die is the size vision was measured at (targetDiePx), whichever is farther.
  const c = p.camera;
  const aspect = c.widthPx / c.heightPx;
  const fitWidth = Math.max(spanXMm + 2 * c.marginMm, (p.channelDepthMm + 2 * c.marginMm) * aspect);
  const targetWidth = (die.footprintMm * c.widthPx) / c.targetDiePx;
  const viewWidthMm = Math.max(fitWidth, targetWidth);
  const distanceMm = viewWidthMm / 2 / Math.tan(((c.hfovDeg / 2) * Math.PI) / 180);
  const diePx = (die.footprintMm * c.widthPx) / viewWidthMm;

  const endFrameMm = [towerMm[0] + 2 * FRAME_WALL_MM, towerMm[1] + 2 * FRAME_WALL_MM, p.frameSleeveMm + p.acrylicMm + FRAME_WALL_MM] as const;
  const pivotZMm = p.frame.postMm - PIVOT_BELOW_POST_TOP_MM;
  const platformZMm = pivotZMm - p.dropHeightMm / 2;
  const lensZMm = platformZMm - distanceMm;
  const riserMm = lensZMm - c.lensAboveMountMm - CAMERA_PLATE_MM;
  const reach = p.dropHeightMm / 2 + p.acrylicMm + FRAME_WALL_MM;
  const sweepMm = Math.hypot(reach, endFrameMm[1] / 2);

  // Lights on the base bars, offset along y. The acrylic is a mirror: a light at lateral offset L and height h below the
  // platform reflects into the camera (distance d) at L·d/(d+h) off axis; keep that outside the view, 10 % beyond its edge.
  const ledZ = p.frame.ledAboveBarMm;
  const h = platformZMm - ledZ;
  const minOffsetYMm = ((1.1 * (viewWidthMm / aspect)) / 2) * ((distanceMm + h) / distanceMm);
  const offsetYMm = Math.ceil(minOffsetYMm / 10) * 10;
  const aimDeg = (Math.atan2(h, offsetYMm) * 180) / Math.PI;

  // Masses: printed walls solid (thin walls print as perimeters), baffles at their infill fraction.
  const H = p.dropHeightMm;
  const wallsMm3 =
    2 * p.sideWallMm * towerMm[1] * H + (p.channels - 1) * p.wallMm * p.channelDepthMm * H + 2 * spanXMm * p.wallMm * H;
  const bafflesMm3 = p.baffles * p.baffleReachMm ** 2 * spanXMm * p.material.baffleFill;
  const printed = ((wallsMm3 + bafflesMm3) / 1000) * p.material.printGPerCm3;
  const frameMm3 =
    2 * (endFrameMm[0] + endFrameMm[1]) * FRAME_WALL_MM * endFrameMm[2] +
    (towerMm[0] * towerMm[1] - (towerMm[0] - 2 * p.frameLipMm) * (towerMm[1] - 2 * p.frameLipMm)) * FRAME_WALL_MM;
  const ends = 2 * ((frameMm3 / 1000) * p.material.printGPerCm3 + ((towerMm[0] * towerMm[1] * p.acrylicMm) / 1000) * p.material.acrylicGPerCm3);
  const dice = p.channels * p.dicePerChannel * p.die.massG;

  // Inertia about the pivot (kg·m²): the body's mass taken at its walls' distance (conservative for a thin-walled box),
  // the end frames and platforms and all the dice at the ends.
  const half = H / 2000;
  const y = towerMm[1] / 2000;
  const inertiaKgM2 = (printed / 1000) * ((H / 1000) ** 2 / 12 + y ** 2) + ((ends + dice) / 1000) * half ** 2;
  // Static: every die at one end with the tower level, plus a print imbalance of 1 % of the length in the centre of mass.
  const staticNm = (dice / 1000) * G * half + ((printed + ends) / 1000) * G * (H / 1000) * 0.01;
  // Servo: it runs at full speed at once; take it reaching its no-load speed within spinUpDeg (α = ω²/2θ).
  const omegaServo = Math.PI / 3 / p.servo.secondsPer60Deg;
  const servoNm = staticNm + inertiaKgM2 * (omegaServo ** 2 / (2 * ((p.servo.spinUpDeg * Math.PI) / 180)));
  // Stepper: the firmware steps at a constant rate with no ramp, so the load must reach speed within one full step (1.8°).
  const omegaStepper = (p.stepper.stepRate / p.stepper.stepsPerRev) * 2 * Math.PI;
  const stepperNm = staticNm + inertiaKgM2 * (omegaStepper ** 2 / (2 * ((1.8 * Math.PI) / 180)));

  return {
    towerMm,
    spanXMm,
    baffleGapMm,
    corridorMm,
    baffleSpacingMm,
    camera: { distanceMm, viewWidthMm, viewHeightMm: viewWidthMm / aspect, diePx, riserMm, lensZMm },
    pivotZMm,
    platformZMm,
    sweepMm,
    light: { offsetYMm, zMm: ledZ, aimDeg, minOffsetYMm },
    massG: { printed, ends, dice },
    inertiaKgM2,
    torque: { staticNm, servoNm, servoRatedNm: p.servo.ratedKgCm * 0.0980665, stepperNm, stepperFlipS: p.stepper.stepsPerFlip / p.stepper.stepRate },
    guaranteedImpacts: Math.floor(p.baffles / 2) + 1,
    endFrameMm,
    cutList: (() => {
      const e = p.frame.extrusionMm;
      const postSpanMm = towerMm[0] + DRIVE_GAP_MM + IDLER_GAP_MM + e;
      return { postMm: p.frame.postMm, baseYMm: 2 * offsetYMm + e, baseXMm: postSpanMm - e, postSpanMm };
    })(),
  };
}

export interface CheckResult {
  readonly check: string;
  readonly ok: boolean;
  /** One line: the figures, and on failure what is wrong. */
  readonly detail: string;
}

const f1 = (x: number): string => x.toFixed(1);

/** Every design check of a preset. */
export function checkPreset(p: RigPreset): CheckResult[] {
  const d = derive(p);
  const die = dieGeometry(p.die);
  const need = die.maxMm + 2 * p.clearanceMm;
  const out: CheckResult[] = [];
  const add = (check: string, ok: boolean, detail: string): void => void out.push({ check, ok, detail });

  add('die fits its channel', p.channelWidthMm >= need && p.channelDepthMm >= need,
    `the die's ${die.name} ${f1(die.maxMm)} mm + 2 × ${p.clearanceMm} mm clearance = ${f1(need)} mm; channel ${p.channelWidthMm} × ${p.channelDepthMm} mm`);
  add('die passes every baffle', d.baffleGapMm >= need,
    `gap under a baffle ${f1(d.baffleGapMm)} mm, needs ${f1(need)} mm (${die.name} + clearance), or a die can wedge there`);
  add('no straight path past the baffles', d.corridorMm < die.minWidthMm,
    `free corridor between front and back baffle tips ${f1(d.corridorMm)} mm must be narrower than the die's smallest width ${f1(die.minWidthMm)} mm, so a die meets a baffle of every pair`);
  const t = p.tumbling;
  add('drop height gives enough tumbling',
    d.guaranteedImpacts >= t.minImpacts && p.dropHeightMm >= t.minDropDieSizes * die.maxMm && d.baffleSpacingMm >= t.minFallBetweenImpactsDieSizes * die.maxMm,
    `${d.guaranteedImpacts} sure impacts (one per baffle pair, plus the landing; need ${t.minImpacts}); drop ${p.dropHeightMm} mm (need ${f1(t.minDropDieSizes * die.maxMm)} = ${t.minDropDieSizes} × ${die.name}); ` +
      `${f1(d.baffleSpacingMm)} mm fall between baffles (need ${f1(t.minFallBetweenImpactsDieSizes * die.maxMm)})`);
  const servoNeed = d.torque.servoNm * p.torqueMargin;
  add('servo torque within rating', servoNeed <= d.torque.servoRatedNm,
    `${f1(d.torque.servoNm * 10.197)} kg·cm needed × margin ${p.torqueMargin} = ${f1(servoNeed * 10.197)} kg·cm; ${p.servo.name} rated ${p.servo.ratedKgCm} kg·cm`);
  const stepperNeed = d.torque.stepperNm * p.torqueMargin;
  add('stepper torque within rating (stepper build)', stepperNeed <= p.stepper.holdingNm && p.stepper.stepsPerFlip * 2 === p.stepper.stepsPerRev,
    `${d.torque.stepperNm.toFixed(3)} N·m at ${p.stepper.stepRate} steps/s × margin ${p.torqueMargin} = ${stepperNeed.toFixed(3)} N·m; ${p.stepper.name}; ` +
      `${p.stepper.stepsPerFlip} steps a flip (half of ${p.stepper.stepsPerRev})`);
  const c = d.camera;
  const covers = c.viewWidthMm >= d.spanXMm + 2 * p.camera.marginMm && c.viewHeightMm >= p.channelDepthMm + 2 * p.camera.marginMm;
  add('camera sees every channel', covers,
    `view ${f1(c.viewWidthMm)} × ${f1(c.viewHeightMm)} mm at ${f1(c.distanceMm)} mm (HFOV ${p.camera.hfovDeg}°); channels span ${f1(d.spanXMm)} × ${p.channelDepthMm} mm`);
  add('die size in pixels within what vision was measured at', c.diePx >= p.vision.minDiePx && c.diePx <= p.vision.maxDiePx,
    `a die is ${f1(c.diePx)} px across in ${p.camera.widthPx}×${p.camera.heightPx}; vision measured at ${p.vision.minDiePx}-${p.vision.maxDiePx} px`);
  add('camera clears the turning tower', d.pivotZMm - d.sweepMm - c.lensZMm >= 10 && c.riserMm >= 10,
    `tower sweeps ${f1(d.sweepMm)} mm around the pivot at ${f1(d.pivotZMm)} mm; lens at ${f1(c.lensZMm)} mm; camera riser ${f1(c.riserMm)} mm (needs ≥ 10: else use longer posts)`);
  const ledClear = Math.hypot(d.light.offsetYMm, d.pivotZMm - d.light.zMm) > d.sweepMm + 10;
  add('lights clear of glare and of the tower', ledClear && d.light.offsetYMm >= d.light.minOffsetYMm,
    `LED strips ${d.light.offsetYMm} mm off axis (reflection leaves the view beyond ${f1(d.light.minOffsetYMm)} mm), aimed ${f1(d.light.aimDeg)}° up`);
  const bed = [...p.printBedMm].sort((a, b) => b - a);
  const printed = printedTowerMm(d);
  const parts = [[...printed], [...d.endFrameMm]].map((s) => s.sort((a, b) => b - a));
  add('printed parts fit the print bed', parts.every((s) => s.every((v, i) => v <= (bed[i] as number))),
    `tower ${printed.map(f1).join(' × ')} mm (with its pivot bosses), end frame ${d.endFrameMm.map(f1).join(' × ')} mm; bed ${p.printBedMm.join(' × ')} mm`);
  return out;
}

/** The failed checks of a preset, one line each ("check: detail"). */
export function designProblems(p: RigPreset): string[] {
  return checkPreset(p).filter((r) => !r.ok).map((r) => `${r.check}: ${r.detail}`);
}
