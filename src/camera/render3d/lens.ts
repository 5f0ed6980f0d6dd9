/**
 * Radial lens distortion of a webcam. The browser renders an ideal pinhole
 * frame a little wider than the nominal field of view; the output image is
 * resampled from it through the distortion, and every labelled point goes
 * through the same model, so labels and pixels agree.
 *
 * Model (normalised image-plane coordinates of the nominal camera, 1 unit =
 * focal length): an output point q shows the scene point whose ideal
 * projection is p = q (1 + k1 |q|^2 + k2 |q|^4). k1 > 0 is barrel distortion,
 * the common webcam case.
 */
export interface Lens {
  readonly width: number;
  readonly height: number;
  /** Nominal horizontal field of view of the output image, degrees. */
  readonly hfovDeg: number;
  readonly k1: number;
  readonly k2: number;
}

/** Focal length of the nominal (output) camera in pixels. */
export function focalPx(lens: Lens): number {
  return lens.width / 2 / Math.tan((lens.hfovDeg * Math.PI) / 360);
}

function radialGain(lens: Lens, r2: number): number {
  return 1 + lens.k1 * r2 + lens.k2 * r2 * r2;
}

/** How much wider (in tan space) the rendered frame is than the output, so every output pixel has a source. */
export function renderScale(lens: Lens): number {
  const f = focalPx(lens);
  const rc2 = ((lens.width / 2) ** 2 + (lens.height / 2) ** 2) / (f * f);
  return Math.max(1, radialGain(lens, rc2));
}

/** Horizontal field of view (degrees) the browser renders with. */
export function renderHfovDeg(lens: Lens): number {
  return (2 * Math.atan(Math.tan((lens.hfovDeg * Math.PI) / 360) * renderScale(lens)) * 180) / Math.PI;
}

/**
 * Where an ideal image-plane point (tan space, x right, y down) lands in the output image, pixels. `f` is the lens's
 * focal length (focalPx), for a caller projecting many points through one lens.
 */
export function distortToPixel(lens: Lens, p: readonly [number, number], f = focalPx(lens)): [number, number] {
  const rp = Math.hypot(p[0], p[1]);
  let r = rp;
  // Newton on r (1 + k1 r^2 + k2 r^4) = rp; monotone for the small k used here.
  for (let i = 0; i < 20 && rp > 0; i++) {
    const g = r * radialGain(lens, r * r) - rp;
    const dg = 1 + 3 * lens.k1 * r * r + 5 * lens.k2 * r ** 4;
    const step = g / dg;
    r -= step;
    if (Math.abs(step) < 1e-12) break;
  }
  const k = rp > 0 ? r / rp : 1;
  return [lens.width / 2 + p[0] * k * f, lens.height / 2 + p[1] * k * f];
}

/** The rendered-frame pixel an output pixel samples (both in pixel units, same frame size). */
export function sourcePixel(lens: Lens, x: number, y: number, f = focalPx(lens), s = renderScale(lens)): [number, number] {
  const qx = (x - lens.width / 2) / f;
  const qy = (y - lens.height / 2) / f;
  const g = radialGain(lens, qx * qx + qy * qy) / s;
  return [lens.width / 2 + qx * g * f, lens.height / 2 + qy * g * f];
}
