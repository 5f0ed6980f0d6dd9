/**
 * Shared fixtures for the d8 tests: labelled crops from the simulated camera
 * (cut around each die's true box, as from a labelled folder) and single dice
 * drawn on a plain platform with full control of face, angle and tilt.
 */
import { createCanvas } from '@napi-rs/canvas';
import { drawDie } from '../../src/camera/sim/dieArt.js';
import type { DieStyle, Rgb } from '../../src/camera/sim/dieArt.js';
import type { LightingPreset, LightingPresetName } from '../../src/camera/sim/lighting.js';
import { SimulatedCamera } from '../../src/camera/sim/simulatedCamera.js';
import type { SimDieTruth } from '../../src/camera/sim/simulatedCamera.js';
import { simDieBox, simDieClass } from '../../src/camera/sim/writeLabelledFolder.js';
import type { RgbImage } from '../../src/core/image.js';
import type { LabelledItem } from '../../src/vision/labelledEval.js';
import { cropForBox } from '../../src/vision/photoCrops.js';

export interface SimFrame {
  readonly image: RgbImage;
  readonly reference: RgbImage;
  readonly camera: SimulatedCamera;
  readonly truth: readonly SimDieTruth[];
}

export interface SimCropOptions {
  readonly seed: number;
  readonly frames: number;
  readonly framesPerSession: number;
  readonly lighting: LightingPresetName | LightingPreset | readonly LightingPresetName[];
  readonly dice: 'red' | 'green' | 'xwing';
  readonly cockedRate?: number;
  readonly channels?: number;
  readonly dicePerChannel?: number;
  readonly dieSizePx?: number;
}

/** Renders frames (a new seeded session every `framesPerSession`) and cuts a crop around every die's true box. */
export function simD8Crops(o: SimCropOptions): { crops: LabelledItem[]; frames: SimFrame[] } {
  const crops: LabelledItem[] = [];
  const frames: SimFrame[] = [];
  let camera: SimulatedCamera | undefined;
  let reference: RgbImage | undefined;
  for (let f = 0; f < o.frames; f++) {
    const session = Math.floor(f / o.framesPerSession);
    if (f % o.framesPerSession === 0) {
      // The last session's camera is done with (its frames keep it for its layout): the next one takes its sensor memory.
      camera?.release();
      const lighting = Array.isArray(o.lighting) ? (o.lighting[session % o.lighting.length] as LightingPresetName) : (o.lighting as LightingPresetName | LightingPreset);
      camera = new SimulatedCamera({
        seed: o.seed + session,
        lighting,
        channels: o.channels ?? 6,
        dicePerChannel: o.dicePerChannel ?? 2,
        dice: o.dice === 'xwing' ? ['red', 'green'] : o.dice,
        cockedRate: o.cockedRate ?? 0.08,
        ...(o.dieSizePx !== undefined ? { dieSizePx: o.dieSizePx } : {}),
      });
      reference = camera.emptyPlatform();
    }
    const { image, truth } = (camera as SimulatedCamera).still();
    frames.push({ image, reference: reference as RgbImage, camera: camera as SimulatedCamera, truth: truth.dice });
    for (const d of truth.dice) crops.push({ crop: cropForBox(image, simDieBox(d), false), label: simDieClass(d), group: `s${session}-f${f}` });
  }
  camera?.release();
  return { crops, frames };
}

export const RED_STYLE: DieStyle = { body: [196, 30, 36], ink: [245, 245, 245], pipRadius: 0.09, pipOffset: 0.27, cornerRadius: 0.1, inkAlpha: 1 };
export const GREEN_STYLE: DieStyle = { ...RED_STYLE, body: [30, 150, 70] };

/** One d8 drawn at the centre of a plain grey square `side` pixels wide (72 px across corners by default). */
export function drawD8(face: string, angleRad: number, opts: { style?: DieStyle; tilt?: number; side?: number; size?: number; platform?: Rgb } = {}): RgbImage {
  const side = opts.side ?? 104;
  const canvas = createCanvas(side, side);
  const ctx = canvas.getContext('2d');
  const [r, g, b] = opts.platform ?? [150, 150, 146];
  ctx.fillStyle = `rgb(${r},${g},${b})`;
  ctx.fillRect(0, 0, side, side);
  drawDie(ctx, 'd8', { x: side / 2, y: side / 2, angle: angleRad, tilt: opts.tilt ?? 0, size: opts.size ?? 72, face, sideFace: face }, opts.style ?? RED_STYLE, { blur: 0, shadow: 0, alpha: 1 });
  const rgba = ctx.getImageData(0, 0, side, side).data;
  const data = new Uint8Array(side * side * 3);
  for (let i = 0; i < side * side; i++) {
    data[i * 3] = rgba[i * 4] as number;
    data[i * 3 + 1] = rgba[i * 4 + 1] as number;
    data[i * 3 + 2] = rgba[i * 4 + 2] as number;
  }
  return { width: side, height: side, data };
}
