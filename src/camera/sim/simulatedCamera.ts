/**
 * The simulated camera: renders top-down 1280x720 frames of the rig's platform
 * with dice whose true faces it knows. Seeded, so every frame is reproducible.
 * A throw is a frame sequence — dice moving (motion blur), settling (small
 * displacements), then still — returned with its ground truth.
 */
import { SIM_CLEARANCE, SIM_FRAME, SIM_PLACE_MARGIN } from './simFit.js';
import { createCanvas } from '@napi-rs/canvas';
import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import { drawNormal, seededRandom } from '../../stats/random.js';
import type { RandomSource } from '../../stats/random.js';
import type { Point, RgbImage } from '../../core/image.js';
import { frameSourceFrom } from '../frameSource.js';
import type { Frame, FrameSource } from '../frameSource.js';
import { arrowFromPattern } from '../../vision/d6/direction.js';
import { drawDie } from './dieArt.js';
import type { DiePose, DieStyle, Rgb } from './dieArt.js';
import { lightingPresets } from './lighting.js';
import type { LightingPreset, LightingPresetName } from './lighting.js';
import { simulatedRigLayout } from './rigLayout.js';
import { blurRegion, clippedSquares, copySquare, PatchedFrame } from './frameSquares.js';
import type { Square } from './frameSquares.js';
import { noiseInTurn } from './noiseInTurn.js';
import { Sensor } from './sensor.js';
import { ThrowPath } from './throwPath.js';
import type { SimRigLayout } from './rigLayout.js';

export type SimDieKind = 'd6' | 'red' | 'green';

export interface SimulatedCameraOptions {
  readonly seed: number;
  readonly lighting?: LightingPresetName | LightingPreset;
  /** Number of channels (default 4). */
  readonly channels?: number;
  /** Die kind per channel (or one kind for all; default d6). */
  readonly dice?: SimDieKind | readonly SimDieKind[];
  /** Dice per channel (default 1). */
  readonly dicePerChannel?: number;
  /** D6 side / d8 across-corners in pixels (default 72). */
  readonly dieSizePx?: number;
  /** Probability that a die comes to rest cocked (default 0). */
  readonly cockedRate?: number;
  /** With two or more dice per channel: probability that a die rests touching its neighbour (default 0). */
  readonly touchingRate?: number;
  readonly fps?: number;
  /** Frames a throw stays still after the last die settles (default 8). */
  readonly stillFrames?: number;
  readonly platformColor?: Rgb;
  /** Dice styles per channel; default: drawn at random per session (colours, pip sizes, worn paint). */
  readonly styles?: readonly DieStyle[];
  /** Per die (channel by channel, then slot), the D6 face it shows as a logo instead of pips; absent or undefined: pips on every face. */
  readonly logoFaces?: readonly (string | undefined)[];
}

export interface SimDieTruth {
  readonly channel: number;
  readonly kind: SimDieKind;
  /** Symbol on the top face ('1'..'6', or an X-Wing icon). Meaningless when cocked. */
  readonly face: string;
  readonly cocked: boolean;
  /** Whether this die rests touching another die. */
  readonly touching: boolean;
  readonly center: Point;
  readonly angleDeg: number;
  /**
   * D6 only: the direction-die arrow (degrees in image coordinates), from the top face, how its pips
   * are turned and the simulated dice's face layout (`standardD6Layout`). Meaningless when cocked.
   */
  readonly arrowDeg?: number;
  readonly sizePx: number;
  /** Frame index from which this die no longer moves. */
  readonly settleFrameIndex: number;
}

export interface ThrowTruth {
  readonly dice: readonly SimDieTruth[];
  /** First frame index (within the throw) from which no die moves. */
  readonly settleFrameIndex: number;
  readonly frameCount: number;
}

/**
 * How far from a die's centre its drawing can change the frame (half the side of the square read back): the die's
 * corners (0.71 of its size, more when tilted), its soft shadow and the copies of motion blur (a quarter of a frame's
 * move either way), with room to spare. Measured over 720 frames of 8 dice (every light, D6 and d8, 72 and 110 px, a
 * third cocked, moving and still), no pixel changed beyond 0.96 of a die's size past the motion's share; reading the
 * canvas back costs ~40 ns a pixel, so the square is no larger. test/camera/simulatedFrames.test.ts checks it.
 */
export function drawnReach(sizePx: number, movedPx: number): number {
  return sizePx * 1.25 + movedPx * 0.3 + 4;
}

/** Where a frame reads its sensor noise in the camera's noise table (`noiseInTurn`). */
interface FrameNoise {
  readonly k0: number;
  readonly stride: number;
}

interface PlannedDie {
  readonly truth: SimDieTruth;
  readonly kind: 'd6' | 'd8';
  readonly style: DieStyle;
  /** Pose per frame up to and including the settle frame. */
  readonly path: ThrowPath;
}

const D6_STYLES: readonly [Rgb, Rgb][] = [
  [[236, 236, 230], [20, 20, 22]],
  [[232, 220, 188], [30, 25, 20]],
  [[28, 28, 32], [240, 240, 236]],
  [[190, 28, 34], [245, 245, 245]],
  [[34, 62, 172], [245, 245, 245]],
  [[30, 140, 64], [250, 250, 250]],
  [[236, 200, 40], [22, 22, 22]],
  [[98, 40, 130], [232, 196, 70]],
  [[232, 110, 30], [20, 20, 20]],
  [[40, 40, 44], [220, 40, 40]],
  [[240, 240, 240], [200, 30, 30]],
];
const RED_FACES = ['hit', 'hit', 'hit', 'crit', 'focus', 'focus', 'blank', 'blank'];
const GREEN_FACES = ['evade', 'evade', 'evade', 'focus', 'focus', 'blank', 'blank', 'blank'];

function jitter(c: Rgb, random: RandomSource, amount: number): Rgb {
  const k = 1 + (random() * 2 - 1) * amount;
  const ch = (v: number): number => Math.max(0, Math.min(255, v * k + (random() * 2 - 1) * 8));
  return [ch(c[0]), ch(c[1]), ch(c[2])];
}

/** A random die look for the given kind: body and ink colours, pip size, corner rounding, paint wear. */
export function randomDieStyle(kind: SimDieKind, random: RandomSource): DieStyle {
  let body: Rgb;
  let ink: Rgb;
  if (kind === 'red') {
    body = jitter([196, 30, 36], random, 0.12);
    ink = jitter([245, 245, 245], random, 0.05);
  } else if (kind === 'green') {
    body = jitter([30, 150, 70], random, 0.12);
    ink = jitter([245, 245, 245], random, 0.05);
  } else {
    const pick = D6_STYLES[Math.floor(random() * D6_STYLES.length)] as [Rgb, Rgb];
    body = jitter(pick[0], random, 0.1);
    ink = jitter(pick[1], random, 0.05);
  }
  return {
    body,
    ink,
    pipRadius: 0.075 + random() * 0.03,
    pipOffset: 0.25 + random() * 0.04,
    cornerRadius: 0.08 + random() * 0.12,
    inkAlpha: random() < 0.2 ? 0.7 + random() * 0.2 : 1,
  };
}

function adjacentD6Face(face: string, random: RandomSource): string {
  const v = Number(face);
  const options = [1, 2, 3, 4, 5, 6].filter((k) => k !== v && k !== 7 - v);
  return String(options[Math.floor(random() * options.length)]);
}

export class SimulatedCamera {
  readonly layout: SimRigLayout;
  readonly lighting: LightingPreset;
  readonly fps: number;
  private readonly random: RandomSource;
  private readonly kinds: SimDieKind[];
  private readonly styles: DieStyle[];
  private readonly dicePerChannel: number;
  private readonly dieSize: number;
  private readonly cockedRate: number;
  private readonly touchingRate: number;
  private readonly stillFrames: number;
  private readonly platformColor: Rgb;
  private readonly canvas: Canvas;
  private readonly ctx: SKRSContext2D;
  private readonly base: Canvas;
  /** Lighting (each pixel's gain and glare, fixed for the session), then sensor noise. */
  private readonly sensor: Sensor;
  private readonly noise: Float32Array;
  /** The frame being captured (RGBA), kept between captures: the empty platform as drawn, but for the dice squares. */
  private readonly frame: PatchedFrame;
  /** The blurred frame being captured, kept alike: the blurred empty platform, but for the dice squares. */
  private readonly blurredFrame: PatchedFrame;
  private frameCounter = 0;

  constructor(options: SimulatedCameraOptions) {
    this.random = seededRandom(options.seed);
    const preset = options.lighting ?? 'studio';
    this.lighting = typeof preset === 'string' ? lightingPresets[preset] : preset;
    const channels = options.channels ?? 4;
    this.dicePerChannel = options.dicePerChannel ?? 1;
    this.layout = simulatedRigLayout(channels, SIM_FRAME.width, SIM_FRAME.height, this.dicePerChannel);
    const kinds = options.dice ?? 'd6';
    this.kinds = Array.from({ length: channels }, (_, i) => (typeof kinds === 'string' ? kinds : (kinds[i % kinds.length] as SimDieKind)));
    this.styles = this.kinds.flatMap((k, i) =>
      Array.from({ length: this.dicePerChannel }, (_, j) => {
        const style = options.styles?.[i * this.dicePerChannel + j] ?? randomDieStyle(k, this.random);
        // Added after the draw, so a logo changes no other die's look or throw.
        const logoFace = options.logoFaces?.[i * this.dicePerChannel + j];
        return logoFace !== undefined && k === 'd6' ? { ...style, logoFace } : style;
      }),
    );
    this.dieSize = options.dieSizePx ?? 72;
    this.cockedRate = options.cockedRate ?? 0;
    this.touchingRate = options.touchingRate ?? 0;
    this.fps = options.fps ?? 30;
    this.stillFrames = options.stillFrames ?? 8;
    this.platformColor = options.platformColor ?? [150, 150, 146];
    const { width, height } = this.layout;
    this.canvas = createCanvas(width, height);
    this.ctx = this.canvas.getContext('2d');
    this.base = this.renderBase();
    this.noise = new Float32Array(1 << 16);
    this.sensor = new Sensor(width, height, 2, (gain) => this.makeGain(gain), (glare) => this.makeGlare(glare), this.lighting.tint, this.noise.length);
    for (let i = 0; i < this.noise.length; i++) this.noise[i] = drawNormal(this.random) * this.lighting.noiseSigma;
    this.frame = new PatchedFrame(width, () => this.plainBase(), this.sensor.frameBuffer(0));
    this.blurredFrame = new PatchedFrame(width, () => this.blurredBase(), this.sensor.frameBuffer(1));
  }

  /**
   * A frame of the empty platform (the locator's reference), with this frame's own sensor noise. The capture reads no
   * pixel of the canvas (it draws no die), so nothing is drawn on it: a whole-frame blit it did not read was done at
   * the next read-back all the same (the canvas draws lazily).
   */
  emptyPlatform(): RgbImage {
    return this.capture();
  }

  /**
   * Ends the camera: its sensor's memory goes to the next camera made (sparing it 30 ms of CPU). The camera is not to
   * be used again; a frame asked of it after this throws, as do frames of its throws not yet rendered.
   */
  release(): void {
    this.sensor.release();
  }

  /** One throw rendered only at rest: a single still frame and its truth (fast path for accuracy tests). */
  still(): { image: RgbImage; truth: ThrowTruth } {
    const planned = this.plannedStill();
    return { image: planned.render(), truth: planned.truth };
  }

  /**
   * One throw planned at rest, its truth known and its frame not yet rendered: a caller that may turn the
   * plan down (simulated dice choosing among throws) renders only the one it keeps, at 15-30 ms a render.
   */
  plannedStill(): { truth: ThrowTruth; render: () => RgbImage } {
    const planned = this.planThrow();
    return {
      truth: { dice: planned.map((p) => ({ ...p.truth, settleFrameIndex: 0 })), settleFrameIndex: 0, frameCount: 1 },
      render: () => this.renderFrame(planned, Number.POSITIVE_INFINITY),
    };
  }

  /**
   * A whole throw: moving frames, settling, then `stillFrames` still frames. A frame's pixels are rendered when its
   * image is first asked for (15-30 ms a render): the settle detector drops about half the frames of a throw unseen
   * (those right after strong motion, `SettleOptions.skipWhileMoving`), and a fixed settle wait looks at one frame.
   * Each frame draws its sensor noise in its turn all the same, so a frame rendered late, or never, changes no other
   * frame's pixels (a render is otherwise independent of the ones before it: see `renderFrame`).
   */
  throwSequence(): { frames: FrameSource; truth: ThrowTruth } {
    const planned = this.planThrow();
    const settle = Math.max(...planned.map((p) => p.truth.settleFrameIndex));
    const frameCount = settle + this.stillFrames;
    const startIndex = this.frameCounter;
    this.frameCounter += frameCount;
    const fps = this.fps;
    const frame = (f: number): Frame => {
      const noise = this.drawNoise();
      let image: RgbImage | undefined;
      const render = (): RgbImage => this.renderFrame(planned, f, noise);
      return {
        get image(): RgbImage {
          return (image ??= render());
        },
        timestampMs: ((startIndex + f) * 1000) / fps,
        index: f,
      };
    };
    const source = frameSourceFrom('simulated camera', async function* (): AsyncGenerator<Frame> {
      for (let f = 0; f < frameCount; f++) yield frame(f);
    });
    return { frames: source, truth: { dice: planned.map((p) => p.truth), settleFrameIndex: settle, frameCount } };
  }

  private renderBase(): Canvas {
    const { width, height, platform, walls } = this.layout;
    const base = createCanvas(width, height);
    const ctx = base.getContext('2d');
    ctx.fillStyle = 'rgb(58,58,62)';
    ctx.fillRect(0, 0, width, height);
    const [r, g, b] = this.platformColor;
    ctx.fillStyle = `rgb(${r},${g},${b})`;
    ctx.fillRect(platform.x, platform.y, platform.width, platform.height);
    // A faint texture so the platform is not a flat colour (real platforms are not).
    for (let i = 0; i < 400; i++) {
      ctx.fillStyle = `rgba(0,0,0,${0.03 + this.random() * 0.04})`;
      ctx.beginPath();
      ctx.arc(platform.x + this.random() * platform.width, platform.y + this.random() * platform.height, 1 + this.random() * 2, 0, Math.PI * 2);
      ctx.fill();
    }
    ctx.fillStyle = 'rgb(70,70,76)';
    for (const w of walls) ctx.fillRect(w.x, w.y, w.width, w.height);
    return base;
  }

  /** Each pixel's gain, written into `out` (every value). */
  private makeGain(out: Float32Array): void {
    const { width, height } = this.layout;
    const L = this.lighting;
    const a = (L.gradientAngleDeg * Math.PI) / 180;
    const ux = Math.cos(a);
    const uy = Math.sin(a);
    const half = Math.hypot(width, height) / 2;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const dx = x - width / 2;
        const dy = y - height / 2;
        const along = (dx * ux + dy * uy) / half;
        const r2 = (dx * dx + dy * dy) / (half * half);
        out[y * width + x] = L.exposure * (1 + L.gradientStrength * along) * (1 - L.vignette * r2);
      }
    }
  }

  /** Each pixel's glare, written into `out` (zero away from the spots: `out` may hold another camera's). */
  private makeGlare(out: Float32Array): void {
    const { width, height, platform } = this.layout;
    const L = this.lighting;
    out.fill(0);
    for (let s = 0; s < L.glareSpots; s++) {
      const cx = platform.x + this.random() * platform.width;
      const cy = platform.y + this.random() * platform.height;
      const r = L.glareRadius[0] + this.random() * (L.glareRadius[1] - L.glareRadius[0]);
      const x0 = Math.max(0, Math.floor(cx - 3 * r));
      const x1 = Math.min(width, Math.ceil(cx + 3 * r));
      const y0 = Math.max(0, Math.floor(cy - 3 * r));
      const y1 = Math.min(height, Math.ceil(cy + 3 * r));
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const d2 = ((x - cx) ** 2 + (y - cy) ** 2) / (r * r);
          out[y * width + x] = (out[y * width + x] as number) + L.glarePeak * Math.exp(-d2);
        }
      }
    }
  }

  private blurPasses(): number {
    return Math.round((this.lighting.blurPx * this.lighting.blurPx) / 0.5);
  }

  private blurredBaseCache: Uint8ClampedArray | undefined;

  /** The empty platform (RGBA) seen through the optics, computed once. */
  private blurredBase(): Uint8ClampedArray {
    if (!this.blurredBaseCache) {
      const { width, height } = this.layout;
      const rgba = this.plainBase().slice();
      blurRegion(rgba, width, height, { x: width / 2, y: height / 2, r: Math.max(width, height) }, this.blurPasses());
      this.blurredBaseCache = rgba;
    }
    return this.blurredBaseCache;
  }

  private plainBaseCache: Uint8ClampedArray | undefined;

  /**
   * The empty platform as drawn (RGBA), read back once from its own canvas: a frame is exactly this wherever no die
   * was drawn. (The platform is opaque, so its copy drawn on a fresh canvas, as this once read it, held the same bytes.)
   */
  private plainBase(): Uint8ClampedArray {
    if (!this.plainBaseCache) {
      const { width, height } = this.layout;
      this.plainBaseCache = this.base.getContext('2d').getImageData(0, 0, width, height).data;
    }
    return this.plainBaseCache;
  }

  /**
   * The canvas as drawn, read back only where dice were drawn (`drawn`: squares around them) and taken from the
   * empty platform elsewhere: reading back a whole 1280x720 frame costs about 10 ms, most of a render. The frame is
   * one buffer kept between captures, the last capture's squares put back to the empty platform, rather than a copy
   * of the whole platform made (and collected) for every frame.
   */
  private readBack(drawn: readonly Square[]): Uint8ClampedArray {
    const { width } = this.layout;
    const rgba = this.frame.clean();
    for (const square of drawn) {
      const { x0, y0, x1, y1 } = square;
      const patch = this.ctx.getImageData(x0, y0, x1 - x0, y1 - y0).data;
      const row = (x1 - x0) * 4;
      for (let yy = y0; yy < y1; yy++) rgba.set(patch.subarray((yy - y0) * row, (yy - y0 + 1) * row), (yy * width + x0) * 4);
      this.frame.change(square);
    }
    return rgba;
  }

  /** Where in the noise table a frame's sensor noise is read (see noiseInTurn): a random start and a random odd stride. */
  private drawNoise(): FrameNoise {
    const k0 = Math.floor(this.random() * this.noise.length);
    const stride = 2 * Math.floor(this.random() * 1000) + 7919;
    return { k0, stride };
  }

  /** Reads the canvas where dice were drawn, applies lighting, glare and sensor noise (`noise`), returns RGB. */
  private capture(blurRegions: readonly { x: number; y: number; r: number }[] = [], drawn: readonly { x: number; y: number; r: number }[] = [], noise: FrameNoise = this.drawNoise()): RgbImage {
    // Before the frame buffers are written: after release they may be another camera's.
    this.sensor.checkLive();
    const { width, height } = this.layout;
    const drawnSquares = clippedSquares(width, height, drawn);
    const rgba = this.readBack(drawnSquares);
    // Optical blur: the empty platform is blurred once per session; each frame blurs only where dice
    // are (canvas filters cost ~100 ms a frame) and takes the rest from the blurred platform, so the
    // empty-platform reference and a frame agree wherever no die is.
    const passes = this.blurPasses();
    let seen = rgba;
    let platform = this.plainBase();
    let changed = drawnSquares;
    if (passes > 0) {
      const merged = this.blurredFrame.clean();
      for (const region of blurRegions) blurRegion(rgba, width, height, region, passes);
      // Each square whole once every region is blurred: a later region's blur can reach into an earlier one's square.
      changed = clippedSquares(width, height, blurRegions);
      for (const square of changed) {
        this.frame.change(square);
        copySquare(rgba, merged, width, square);
        this.blurredFrame.change(square);
      }
      seen = merged;
      platform = this.blurredBase();
    }
    const u = noiseInTurn(this.noise, noise.k0, noise.stride, this.sensor.noise);
    return { width, height, data: this.sensor.capture(seen, platform, changed, u) };
  }

  /** Frame `frame` of a planned throw (its noise drawn now unless given). */
  private renderFrame(planned: readonly PlannedDie[], frame: number, noise?: FrameNoise): RgbImage {
    const ctx = this.ctx;
    const L = this.lighting;
    const blurRegions: { x: number; y: number; r: number }[] = [];
    const drawn: { x: number; y: number; r: number }[] = [];
    const poses = planned.map((die) => {
      const last = die.path.steps;
      const f = Math.min(frame, last);
      const pose = die.path.at(f);
      const next = f < last ? die.path.at(f + 1) : undefined;
      const moved = next === undefined ? 0 : Math.hypot(next.x - pose.x, next.y - pose.y);
      const size = die.truth.sizePx;
      blurRegions.push({ x: pose.x, y: pose.y, r: size * 1.1 });
      drawn.push({ x: pose.x, y: pose.y, r: drawnReach(size, moved) });
      return { pose, next };
    });
    // Only the squares read back are put back to the empty platform before the dice are drawn: the canvas draws
    // lazily, and drawing the whole platform cost a 1280x720 blit at every read-back (~3 ms of a 4 ms read). Pixels
    // outside the squares may keep an earlier frame's dice; they are never read (the frame takes the platform there).
    for (const { x0, y0, x1, y1 } of clippedSquares(this.layout.width, this.layout.height, drawn)) ctx.drawImage(this.base, x0, y0, x1 - x0, y1 - y0, x0, y0, x1 - x0, y1 - y0);
    planned.forEach((die, i) => {
      const { pose, next } = poses[i] as (typeof poses)[number];
      if (next !== undefined) {
        // Moving: average copies displaced along the motion towards the next pose (motion blur).
        const dx = next.x - pose.x;
        const dy = next.y - pose.y;
        const copies = Math.max(1, Math.min(6, Math.ceil(Math.hypot(dx, dy) / 4)));
        for (let c = 0; c < copies; c++) {
          const t = copies === 1 ? 0 : (c / (copies - 1) - 0.5) * 0.5;
          drawDie(ctx, die.kind, { ...pose, x: pose.x + dx * t, y: pose.y + dy * t }, die.style, {
            blur: 0,
            shadow: c === 0 ? L.shadowAlpha : 0,
            alpha: 1 / (c + 1),
          });
        }
      } else {
        drawDie(ctx, die.kind, pose, die.style, { blur: 0, shadow: L.shadowAlpha, alpha: 1 });
      }
    });
    return this.capture(blurRegions, drawn, noise);
  }

  private planThrow(): PlannedDie[] {
    const out: PlannedDie[] = [];
    const random = this.random;
    const size = this.dieSize;
    this.layout.channelRects.forEach((rect, channel) => {
      const kind = this.kinds[channel] as SimDieKind;
      const placed: { x: number; y: number }[] = [];
      for (let slot = 0; slot < this.dicePerChannel; slot++) {
        const style = this.styles[channel * this.dicePerChannel + slot] as DieStyle;
        const sizePx = size * (0.96 + random() * 0.08);
        const cocked = random() < this.cockedRate;
        const margin = sizePx * SIM_PLACE_MARGIN;
        const wantTouch = slot > 0 && random() < this.touchingRate;
        let x = 0;
        let y = 0;
        let angle = random() * Math.PI * 2;
        let touching = false;
        for (let attempt = 0; attempt < 50; attempt++) {
          if (wantTouch && placed.length > 0) {
            const other = placed[placed.length - 1] as { x: number; y: number };
            const dir = random() * Math.PI * 2;
            x = other.x + Math.cos(dir) * sizePx * 1.08;
            y = other.y + Math.sin(dir) * sizePx * 1.08;
            angle = dir + (random() - 0.5) * 0.2;
          } else if (cocked && random() < 0.5) {
            // Leaning on a wall: rests against the channel's side with its tilt towards the wall.
            const left = random() < 0.5;
            x = left ? rect.x + sizePx * 0.74 : rect.x + rect.width - sizePx * 0.74;
            y = rect.y + margin + random() * (rect.height - 2 * margin);
            angle = left ? Math.PI / 2 : -Math.PI / 2;
          } else {
            x = rect.x + margin + random() * (rect.width - 2 * margin);
            y = rect.y + margin + random() * (rect.height - 2 * margin);
          }
          const inside = x > rect.x + sizePx * 0.6 && x < rect.x + rect.width - sizePx * 0.6 && y > rect.y + sizePx * 0.6 && y < rect.y + rect.height - sizePx * 0.6;
          const clear = placed.every((p) => Math.hypot(p.x - x, p.y - y) > sizePx * (wantTouch ? 1.0 : SIM_CLEARANCE));
          if (inside && clear) {
            touching = wantTouch;
            break;
          }
        }
        placed.push({ x, y });
        const faces = kind === 'd6' ? ['1', '2', '3', '4', '5', '6'] : kind === 'red' ? RED_FACES : GREEN_FACES;
        const face = faces[Math.floor(random() * faces.length)] as string;
        const sideFace = kind === 'd6' ? adjacentD6Face(face, random) : (faces[Math.floor(random() * faces.length)] as string);
        const tilt = cocked ? ((15 + random() * 30) * Math.PI) / 180 : 0;
        const rest: DiePose = { x, y, angle, tilt, size: sizePx, face, sideFace };
        const path = ThrowPath.plan(rest, rect, faces, random);
        const settleFrameIndex = path.steps;
        out.push({
          kind: kind === 'd6' ? 'd6' : 'd8',
          style,
          path,
          truth: {
            channel,
            kind,
            face,
            cocked,
            touching,
            center: { x, y },
            angleDeg: (((angle * 180) / Math.PI) % 360 + 360) % 360,
            ...(kind === 'd6' ? { arrowDeg: ((((angle * 180) / Math.PI + arrowFromPattern(face)) % 360) + 360) % 360 } : {}),
            sizePx,
            settleFrameIndex,
          },
        });
      }
      // A die touched by a later one is touching too.
      for (let i = out.length - placed.length; i < out.length - 1; i++) {
        const nextDie = out[i + 1] as PlannedDie;
        const cur = out[i] as PlannedDie;
        if (nextDie.truth.touching && !cur.truth.touching) out[i] = { ...cur, truth: { ...cur.truth, touching: true } };
      }
    });
    return out;
  }
}
