/**
 * How the simulated camera draws one die on a 2D canvas, seen from above: a D6
 * as a rounded square with pips, an X-Wing d8 as the hexagonal outline of an
 * octahedron with the top face (a triangle) carrying its icon. A cocked die is
 * drawn tilted: its top face foreshortened and the face it leans towards showing
 * as a second, darker strip, so the outline is no longer a square.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { D6_PATTERNS } from '../../vision/d6/patterns.js';

export type Rgb = readonly [number, number, number];

export interface DieStyle {
  readonly body: Rgb;
  readonly ink: Rgb;
  /** Pip radius and pip offset from the face centre, as fractions of the side. */
  readonly pipRadius: number;
  readonly pipOffset: number;
  /** Corner radius as a fraction of the side. */
  readonly cornerRadius: number;
  /** Ink opacity (1 = fresh paint; worn dice have faded ink). */
  readonly inkAlpha: number;
  /** A D6 face ('1'..'6') that carries the maker's logo instead of its pips, as many D6s do on their 6 or their 1. */
  readonly logoFace?: string;
}

export interface DiePose {
  readonly x: number;
  readonly y: number;
  /** Rotation in the platform plane (radians). */
  readonly angle: number;
  /** Tilt of a cocked die (radians, 0 = flat on a face). */
  readonly tilt: number;
  /** Side length (D6) or across-corners size (d8) in pixels. */
  readonly size: number;
  /** Symbol shown on top: '1'..'6' for a D6, an X-Wing icon name for a d8. */
  readonly face: string;
  /** What shows on the face a cocked die leans towards. */
  readonly sideFace: string;
}

/** Pip positions of each D6 face, in units of the pip offset, in the face's own frame. */
export const D6_PIP_LAYOUT = D6_PATTERNS;

function css(c: Rgb, k = 1, alpha = 1): string {
  const f = (v: number): number => Math.max(0, Math.min(255, Math.round(v * k)));
  return `rgba(${f(c[0])},${f(c[1])},${f(c[2])},${alpha})`;
}

/** A logo: a ring round a five-pointed star, neither of which is pip-shaped or counts as pips. */
function drawLogo(ctx: SKRSContext2D, side: number, style: DieStyle, shade: number): void {
  ctx.fillStyle = css(style.ink, shade, style.inkAlpha);
  ctx.strokeStyle = css(style.ink, shade, style.inkAlpha);
  ctx.lineWidth = side * 0.035;
  ctx.beginPath();
  ctx.arc(0, 0, side * 0.3, 0, Math.PI * 2);
  ctx.stroke();
  polygon(ctx, starPoints(5, side * 0.21, side * 0.21 * 0.4));
  ctx.fill();
}

function drawPips(ctx: SKRSContext2D, face: string, side: number, style: DieStyle, shade: number): void {
  if (face === style.logoFace) {
    drawLogo(ctx, side, style, shade);
    return;
  }
  const layout = D6_PIP_LAYOUT[face] ?? [];
  ctx.fillStyle = css(style.ink, shade, style.inkAlpha);
  for (const [u, v] of layout) {
    ctx.beginPath();
    ctx.arc(u * style.pipOffset * side, v * style.pipOffset * side, style.pipRadius * side, 0, Math.PI * 2);
    ctx.fill();
  }
}

/** Draws a D6 centred at the origin of the current transform (already translated and rotated). */
function drawD6(ctx: SKRSContext2D, pose: DiePose, style: DieStyle, shadow: number): void {
  const s = pose.size;
  const r = style.cornerRadius * s;
  const top = Math.cos(pose.tilt);
  const sideK = Math.sin(pose.tilt);
  const total = s * (top + sideK);
  // Cocked: the top face is foreshortened to s·cos(t) and the leaning face shows as s·sin(t) below it.
  const y0 = -total / 2;
  ctx.save();
  if (shadow > 0) {
    ctx.shadowColor = `rgba(0,0,0,${shadow})`;
    ctx.shadowBlur = s * 0.12;
    ctx.shadowOffsetX = s * 0.04;
    ctx.shadowOffsetY = s * 0.05;
  }
  ctx.fillStyle = css(style.body);
  ctx.beginPath();
  ctx.roundRect(-s / 2, y0, s, total, r * Math.min(1, top + 0.2));
  ctx.fill();
  ctx.restore();
  // Bevel: edges catch less light.
  ctx.strokeStyle = css(style.body, 0.82);
  ctx.lineWidth = Math.max(1, s * 0.03);
  ctx.beginPath();
  ctx.roundRect(-s / 2 + ctx.lineWidth / 2, y0 + ctx.lineWidth / 2, s - ctx.lineWidth, total - ctx.lineWidth, r);
  ctx.stroke();
  ctx.save();
  ctx.translate(0, y0 + (s * top) / 2);
  ctx.scale(1, top);
  drawPips(ctx, pose.face, s, style, 1);
  ctx.restore();
  if (pose.tilt > 0) {
    ctx.fillStyle = css(style.body, 0.68);
    ctx.fillRect(-s / 2 + 1, y0 + s * top, s - 2, s * sideK - 1);
    ctx.save();
    ctx.translate(0, y0 + s * top + (s * sideK) / 2);
    ctx.scale(1, sideK);
    drawPips(ctx, pose.sideFace, s, style, 0.75);
    ctx.restore();
  }
}

/** The corners of a star of `points` points round the origin, the first straight up, tips at `outer` and notches at `inner`. */
function starPoints(points: number, outer: number, inner: number): [number, number][] {
  return Array.from({ length: 2 * points }, (_, i): [number, number] => {
    const a = (i * Math.PI) / points;
    const r = i % 2 === 0 ? outer : inner;
    return [r * Math.sin(a), -r * Math.cos(a)];
  });
}

function polygon(ctx: SKRSContext2D, pts: readonly (readonly [number, number])[]): void {
  ctx.beginPath();
  pts.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
  ctx.closePath();
}

/** Draws an X-Wing icon of size `k` centred at the origin. */
function drawIcon(ctx: SKRSContext2D, icon: string, k: number): void {
  switch (icon) {
    case 'hit': {
      polygon(ctx, starPoints(8, k, k * 0.42));
      ctx.fill();
      return;
    }
    case 'crit': {
      polygon(ctx, starPoints(4, k * 0.85, k * 0.22));
      ctx.fill();
      ctx.lineWidth = k * 0.16;
      ctx.beginPath();
      ctx.arc(0, 0, k, 0, Math.PI * 2);
      ctx.stroke();
      return;
    }
    case 'focus': {
      ctx.lineWidth = k * 0.16;
      ctx.beginPath();
      ctx.moveTo(-k, 0);
      ctx.quadraticCurveTo(0, -k * 1.1, k, 0);
      ctx.quadraticCurveTo(0, k * 1.1, -k, 0);
      ctx.stroke();
      ctx.beginPath();
      ctx.arc(0, 0, k * 0.3, 0, Math.PI * 2);
      ctx.fill();
      return;
    }
    case 'evade': {
      ctx.lineWidth = k * 0.2;
      for (const off of [-0.35, 0.35]) {
        ctx.beginPath();
        ctx.arc(off * k - k * 0.5, 0, k * 0.8, -Math.PI / 3, Math.PI / 3);
        ctx.stroke();
      }
      return;
    }
    default:
      return; // blank
  }
}

/** Draws an X-Wing d8 resting on a face: hexagonal outline, top triangle with the icon, three darker side faces. */
function drawD8(ctx: SKRSContext2D, pose: DiePose, style: DieStyle, shadow: number): void {
  const R = pose.size / 2;
  // A cocked d8 leans: its outline is foreshortened along y, no longer a regular hexagon.
  ctx.save();
  ctx.scale(1, pose.tilt > 0 ? Math.cos(pose.tilt) * 0.85 : 1);
  const hex: [number, number][] = [];
  for (let i = 0; i < 6; i++) {
    const a = (i * Math.PI) / 3 - Math.PI / 2;
    hex.push([R * Math.cos(a), R * Math.sin(a)]);
  }
  ctx.save();
  if (shadow > 0) {
    ctx.shadowColor = `rgba(0,0,0,${shadow})`;
    ctx.shadowBlur = R * 0.25;
    ctx.shadowOffsetX = R * 0.08;
    ctx.shadowOffsetY = R * 0.1;
  }
  ctx.fillStyle = css(style.body, 0.7);
  polygon(ctx, hex);
  ctx.fill();
  ctx.restore();
  const tri = [hex[0], hex[2], hex[4]] as [number, number][];
  ctx.fillStyle = css(style.body);
  polygon(ctx, tri);
  ctx.fill();
  ctx.fillStyle = css(style.ink, 1, style.inkAlpha);
  ctx.strokeStyle = css(style.ink, 1, style.inkAlpha);
  drawIcon(ctx, pose.tilt > 0 ? pose.sideFace : pose.face, R * 0.33);
  ctx.restore();
}

/**
 * Draws one die at its pose. `blur` softens it (optics), `shadow` is the opacity
 * of its soft shadow, `alpha` lets motion blur average several displaced copies.
 */
export function drawDie(
  ctx: SKRSContext2D,
  kind: 'd6' | 'd8',
  pose: DiePose,
  style: DieStyle,
  opts: { blur: number; shadow: number; alpha: number },
): void {
  ctx.save();
  ctx.globalAlpha = opts.alpha;
  if (opts.blur > 0.05) ctx.filter = `blur(${opts.blur.toFixed(2)}px)`;
  ctx.translate(pose.x, pose.y);
  ctx.rotate(pose.angle);
  if (kind === 'd6') drawD6(ctx, pose, style, opts.shadow);
  else drawD8(ctx, pose, style, opts.shadow);
  ctx.restore();
}
