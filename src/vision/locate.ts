/**
 * Die location: difference against an empty-platform reference, connected
 * components, then assignment to channels. Shadows (the platform, darker, same
 * colour) are not dice; blobs far larger than one die are reported as touching
 * dice (or, for red and green d8s in a channel of several, split into dice),
 * channels with too few dice as missing, blobs outside any channel or beyond a
 * channel's count as extra.
 */
import { channelAt } from './channels.js';
import type { ChannelRegion } from './channels.js';
import { connectedComponents, principalAxes } from './components.js';
import { fillHoles } from './fillHoles.js';
import { d8SplitLimits, splitTouchingDice } from './splitTouching.js';
import type { SplitLimits } from './splitTouching.js';
import { kernelTakesWidth, sums4ChangedKernel } from '../core/grayKernel.js';
import { blockSums } from '../core/image.js';
import type { BlockSums, Point, Rect, RgbImage } from '../core/image.js';

export interface LocateOptions {
  /** Expected area of one die lying flat, in full-resolution pixels (from calibration or the die size). */
  readonly expectedDieArea: number;
  /** Integer downscale for the difference image (2: a 72 px die is still 36 px across). */
  readonly downscale: number;
  /** Colour difference (max over R, G, B of 2x2-averaged pixels) that marks a pixel as changed. */
  readonly threshold: number;
  /** A changed pixel whose channels are all this fraction range of the reference, equally, is shadow. */
  readonly shadowRatio: readonly [number, number];
  readonly shadowChromaTolerance: number;
  /**
   * When set, shadow also keeps green between red and blue in its ratios, within this margin: light's own tint (a
   * warm lamp, a cool window) runs red to blue, while a green or magenta die does not. Unset: no such check.
   */
  readonly shadowTintMargin?: number;
  /** When set, a channel the platform reflects less than this (mean level) is left out of the ratio floor, spread and tint: it only has to be darker. */
  readonly shadowDimLevel?: number;
  /** Blobs smaller than this fraction of a die are noise or debris. */
  readonly minAreaFraction: number;
  /** Changes the foreground mask (locator resolution) before blobs are found, e.g. removes thin walls; none by default. */
  readonly maskFilter?: (mask: Uint8Array, width: number, height: number) => void;
  /**
   * When set, holes in a blob smaller than this fraction of a die's area are filled before its area and shape are
   * measured (`fillHoles.ts`): ink of the platform's colour on a face (a logo, a large pip) is the die, not platform.
   */
  readonly fillHolesUnder?: number;
  /**
   * When set, a blob whose area amounts to several dice, in a channel expecting several, is split into dice
   * (`splitTouching.ts`: k - 1, k or k + 1 of them, no more than the channel expects), for a reader that reads a die
   * beside another; unset, or when no split passes the limits, such a blob is one die with `estimatedCount` k.
   */
  readonly splitTouching?: SplitLimits;
}

export const defaultLocateOptions: Omit<LocateOptions, 'expectedDieArea'> = {
  downscale: 4,
  threshold: 14,
  shadowRatio: [0.45, 1.0],
  shadowChromaTolerance: 0.1,
  minAreaFraction: 0.3,
};

/**
 * Location for D6s as a session locates them: the default, with a face's ink of the platform's colour (a logo in
 * place of the 6's pips, a large 1) counted as the die. Unfilled, such a die fell under the cocked check's area floor
 * and was re-tumbled for its face: 4 of the 12 logo faces of 211 called cocked on the simulated tuning folders (the
 * others by the look beside the die, `cocked/surroundings.ts`).
 */
export const d6LocateOptions: Omit<LocateOptions, 'expectedDieArea'> = { ...defaultLocateOptions, fillHolesUnder: 0.5 };

/**
 * Location for dice of a strong colour (X-Wing's red and green d8s): a block darker in every channel, down to a tenth,
 * with its channels' ratios within 0.4 of each other and its green within 0.15 of the red..blue interval, is shadow. A
 * lamp's hard shadow falls under the default's 0.45, and a shadow in mixed light keeps the other light's colour; on
 * renders the default joined the shadow of a quarter of lone d8s to their blob, which was then taken for two touching
 * dice. The tint check keeps a dark green die on a pale platform (ratios such as 0.19 / 0.46 / 0.27) from passing for
 * shadow. A channel the platform reflects little (mean under 45: blue felt's red under a warm lamp) only has to be
 * darker, since its ratio is mostly noise. A black or grey die would still pass this rule as shadow, so dice of any
 * colour (D6s) keep the default.
 */
export const saturatedDiceLocateOptions: Omit<LocateOptions, 'expectedDieArea'> = {
  ...defaultLocateOptions,
  shadowRatio: [0.1, 1.0],
  shadowChromaTolerance: 0.4,
  shadowTintMargin: 0.15,
  shadowDimLevel: 45,
  splitTouching: d8SplitLimits,
};

/** Area of a regular hexagon (a flat d8 from above) per squared across-corners size. */
export const HEXAGON_AREA_FACTOR = (3 * Math.sqrt(3)) / 8;

/** How X-Wing d8s `dieSizePx` across (corners) are located on a rig: a flat d8's hexagon, with red and green dice's shadow rule. */
export function xwingLocateOptions(dieSizePx: number): LocateOptions {
  return { ...saturatedDiceLocateOptions, expectedDieArea: HEXAGON_AREA_FACTOR * dieSizePx * dieSizePx };
}

export interface LocatedDie {
  /** Channel id holding the blob's centroid, or undefined when outside every channel. */
  readonly channel: number | undefined;
  readonly center: Point;
  /** Bounding box in full-resolution pixels. */
  readonly bbox: Rect;
  /** Area in full-resolution pixels. */
  readonly area: number;
  /** Length of the blob's major and minor axes as a rectangle (sqrt(12·variance)), full-resolution pixels. */
  readonly length: number;
  readonly breadth: number;
  /** Major-axis angle in degrees, [0, 180). */
  readonly angleDeg: number;
  /** How many dice the blob's area amounts to (2 or more: touching dice). */
  readonly estimatedCount: number;
  /** Set on a die split from a blob of this many touching dice (`LocateOptions.splitTouching`). */
  readonly splitFrom?: number;
}

export interface ChannelFinding {
  readonly channel: number;
  readonly expected: number;
  readonly dice: readonly LocatedDie[];
  /** Dice counted in the channel (touching dice count by area). */
  readonly count: number;
}

export interface LocateResult {
  readonly dice: readonly LocatedDie[];
  readonly channels: readonly ChannelFinding[];
  /** Channels holding fewer dice than expected. */
  readonly missing: readonly ChannelFinding[];
  /** Blobs outside any channel, and channels holding more dice than expected. */
  readonly extra: readonly LocatedDie[];
}

/** A block of a strong colour (`SplitLimits.minStrongShare`): its brightest channel at least this level (0..255)... */
const STRONG_LEVEL = 40;
/** ...and its channels spread by at least this share of it. */
const STRONG_CHROMA = 0.4;

/** The frame's block sums, reused from call to call (only `foregroundMask` reads them, before it returns). */
let frameSums = new Uint32Array(0);
/** The foreground mask, reused likewise (`foregroundMask` returns it: valid until its next call). */
let frameMask = new Uint8Array(0);
/** The blobs' labels, reused likewise (only `locateDice` reads them, before it returns: a quarter of a megabyte a frame). */
let frameLabels = new Int32Array(0);
/** The kernel's changed-block flags (a byte a block) and the same bytes as words, reused likewise. */
let changedWords = new Uint32Array(0);
let changedFlags = new Uint8Array(0);

/** The per-frame constants of `foregroundMask`'s test (see there). */
interface ShadowRule {
  readonly n: number;
  readonly thr: number;
  readonly lo: number;
  readonly hi: number;
  readonly tol: number;
  readonly tint: number | undefined;
  readonly dim: number;
}

/** Whether the block whose sums start at `o` (in the frame's `a` and the reference's `b`) is foreground: changed, and not shadow. */
function isForeground(a: Uint32Array, b: Uint32Array, o: number, rule: ShadowRule): boolean {
  const { n, thr, lo, hi, tol, tint, dim } = rule;
  const fr = a[o] as number;
  const fg = a[o + 1] as number;
  const fb = a[o + 2] as number;
  const rr = b[o] as number;
  const rg = b[o + 1] as number;
  const rb = b[o + 2] as number;
  // Most blocks are unchanged platform: compare each channel with the threshold, no Math calls.
  const dr = fr - rr;
  const dg = fg - rg;
  const db = fb - rb;
  if (dr <= thr && dr >= -thr && dg <= thr && dg >= -thr && db <= thr && db >= -thr) return false;
  const kr = fr / (rr + n);
  const kg = fg / (rg + n);
  const kb = fb / (rb + n);
  // Shadow: the platform's own colour, uniformly darker. A channel the platform hardly reflects (`shadowDimLevel`)
  // only has to be darker: its ratio is mostly noise.
  if (kr <= hi && kg <= hi && kb <= hi) {
    const useR = rr >= dim;
    const useG = rg >= dim;
    const useB = rb >= dim;
    let kmin = Infinity;
    let kmax = -Infinity;
    if (useR) {
      kmin = kr;
      kmax = kr;
    }
    if (useG) {
      kmin = kg < kmin ? kg : kmin;
      kmax = kg > kmax ? kg : kmax;
    }
    if (useB) {
      kmin = kb < kmin ? kb : kmin;
      kmax = kb > kmax ? kb : kmax;
    }
    // Every channel dim: darker is all that can be told.
    if (kmin === Infinity) return false;
    if (kmin >= lo && kmax - kmin <= tol) {
      if (tint === undefined || !(useR && useG && useB)) return false;
      const rbMin = kr < kb ? kr : kb;
      const rbMax = kr < kb ? kb : kr;
      if (kg >= rbMin - tint && kg <= rbMax + tint) return false;
    }
  }
  return true;
}

/**
 * The foreground mask at the locator's resolution: changed pixels that are not shadow. `frame` holds the frame's block
 * sums it was made from; both are valid until the next call (their buffers are reused).
 */
export function foregroundMask(frame: RgbImage, reference: RgbImage, options: Omit<LocateOptions, 'expectedDieArea'>): { mask: Uint8Array; width: number; height: number; frame: BlockSums } {
  if (frame.width !== reference.width || frame.height !== reference.height) {
    throw new RangeError(`The frame is ${frame.width}x${frame.height} but the empty-platform reference is ${reference.width}x${reference.height}.`);
  }
  // The reference's block sums are made once; the frame's go into a buffer reused from frame to frame.
  const f0 = Math.max(1, Math.floor(options.downscale));
  const size = Math.floor(frame.width / f0) * Math.floor(frame.height / f0) * 3;
  if (frameSums.length !== size) frameSums = new Uint32Array(size);
  const rs = blockSums(reference, f0);
  const n = f0 * f0;
  const thr = options.threshold * n;
  // Camera frames' blocks of 4: the kernel sums them and flags the blocks whose sums moved past the threshold (its
  // whole part, so an unflagged block is one the test below passes over), and only those are tested.
  const w0 = Math.floor(frame.width / f0);
  const h0 = Math.floor(frame.height / f0);
  const flagged = f0 === 4 && kernelTakesWidth(frame.width) && h0 > 0 && thr >= 0 && thr <= 0x7fffffff;
  let fs: BlockSums;
  if (flagged) {
    if (changedFlags.length !== w0 * h0) {
      changedWords = new Uint32Array(Math.ceil((w0 * h0) / 4));
      changedFlags = new Uint8Array(changedWords.buffer, 0, w0 * h0);
    }
    sums4ChangedKernel(frame.data, frame.width, frame.height, frameSums, rs.data, Math.floor(thr), changedFlags);
    fs = { width: w0, height: h0, factor: f0, data: frameSums };
  } else fs = blockSums(frame, f0, frameSums);
  const { width: w, height: h } = fs;
  if (frameMask.length !== w * h) frameMask = new Uint8Array(w * h);
  const mask = frameMask.fill(0);
  const a = fs.data;
  const b = rs.data;
  const rule: ShadowRule = { n, thr, lo: options.shadowRatio[0], hi: options.shadowRatio[1], tol: options.shadowChromaTolerance, tint: options.shadowTintMargin, dim: options.shadowDimLevel === undefined ? -1 : options.shadowDimLevel * n };
  if (flagged) {
    // Four blocks' flags a word: most words are 0.
    const words = changedWords;
    const flags = changedFlags;
    for (let q = 0; q < words.length; q++) {
      if (words[q] === 0) continue;
      for (let i = 4 * q, end = Math.min(w * h, i + 4); i < end; i++) if (flags[i] !== 0 && isForeground(a, b, 3 * i, rule)) mask[i] = 1;
    }
  } else {
    for (let i = 0; i < w * h; i++) if (isForeground(a, b, 3 * i, rule)) mask[i] = 1;
  }
  return { mask, width: w, height: h, frame: fs };
}

/** Finds the dice on the platform and assigns them to channels. */
export function locateDice(frame: RgbImage, reference: RgbImage, channels: readonly ChannelRegion[], options: LocateOptions): LocateResult {
  const f = Math.max(1, Math.floor(options.downscale));
  const { mask, width, height, frame: sums } = foregroundMask(frame, reference, options);
  options.maskFilter?.(mask, width, height);
  const dieAreaSmall = options.expectedDieArea / (f * f);
  if (options.fillHolesUnder !== undefined) fillHoles(mask, width, height, options.fillHolesUnder * dieAreaSmall);
  if (frameLabels.length !== width * height) frameLabels = new Int32Array(width * height);
  const { blobs, labels } = connectedComponents(mask, width, height, 8, frameLabels);
  const strongColour = (x: number, y: number): boolean => {
    const o = (y * width + x) * 3;
    const r = sums.data[o] as number;
    const g = sums.data[o + 1] as number;
    const b = sums.data[o + 2] as number;
    const max = r > g ? (r > b ? r : b) : g > b ? g : b;
    const min = r < g ? (r < b ? r : b) : g < b ? g : b;
    return max >= STRONG_LEVEL * f * f && max - min >= STRONG_CHROMA * max;
  };
  const limits = options.splitTouching;
  const dice: LocatedDie[] = [];
  const located = (shape: { area: number; centroid: Point; bbox: Rect; mxx: number; myy: number; mxy: number }, estimatedCount: number, splitFrom?: number): LocatedDie => {
    const axes = principalAxes(shape);
    const center = { x: (shape.centroid.x + 0.5) * f, y: (shape.centroid.y + 0.5) * f };
    return {
      channel: channelAt(center, channels)?.id,
      center,
      bbox: { x: shape.bbox.x * f, y: shape.bbox.y * f, width: shape.bbox.width * f, height: shape.bbox.height * f },
      area: shape.area * f * f,
      length: Math.sqrt(12) * axes.major * f,
      breadth: Math.sqrt(12) * axes.minor * f,
      angleDeg: (((axes.angle * 180) / Math.PI) % 180 + 180) % 180,
      estimatedCount,
      ...(splitFrom !== undefined ? { splitFrom } : {}),
    };
  };
  for (const blob of blobs) {
    if (blob.area < options.minAreaFraction * dieAreaSmall) continue;
    const whole = located(blob, Math.max(1, Math.round(blob.area / dieAreaSmall)));
    const k = whole.estimatedCount;
    // Only in a channel that expects several dice: in a channel of one die, a blob of two is an intruder or a die
    // joined by its shadow (the session keeps that die unresolved, `throwOutcome.ts`) or a cocked die showing two faces.
    const expected = k > 1 && limits ? channelAt(whole.center, channels)?.expectedDice ?? 0 : 0;
    const parts = limits && expected >= 2 ? splitTouchingDice(labels, width, blob, k, expected, dieAreaSmall, limits, strongColour) : undefined;
    if (parts === undefined) dice.push(whole);
    else for (const part of parts) dice.push(located(part, 1, parts.length));
  }
  const findings: ChannelFinding[] = channels.map((c) => {
    const inside = dice.filter((d) => d.channel === c.id);
    return { channel: c.id, expected: c.expectedDice, dice: inside, count: inside.reduce((s, d) => s + d.estimatedCount, 0) };
  });
  const extra: LocatedDie[] = dice.filter((d) => d.channel === undefined);
  for (const c of findings) {
    if (c.count > c.expected) {
      if (c.dice.length > c.expected) {
        // Beyond the expected count, the smallest blobs are the likeliest intruders (debris, a die from elsewhere).
        const sorted = [...c.dice].sort((p, q) => p.area - q.area);
        extra.push(...sorted.slice(0, c.dice.length - c.expected));
      } else {
        // Few enough blobs, but some hold touching dice: those blobs carry the extra dice.
        extra.push(...c.dice.filter((d) => d.estimatedCount > 1));
      }
    }
  }
  return { dice, channels: findings, missing: findings.filter((c) => c.count < c.expected), extra };
}
