/**
 * What the webcam does to the ideal rendered frame: lens distortion (resampled
 * through the same model the labels use), camera-shake motion blur, defocus,
 * vignetting, white-balance error and sensor noise (read noise plus
 * signal-dependent shot noise, independent per channel). JPEG comes after, in
 * the writer. Pure and seeded.
 */
import { seededRandom } from '../../stats/random.js';
import type { RgbImage } from '../../vision/image.js';
import type { Lens } from './lens.js';
import { focalPx, renderScale, sourcePixel } from './lens.js';
import type { PostSpec } from './scene.js';

function remap(src: RgbImage, lens: Lens, post: PostSpec): Float32Array {
  const { width: w, height: h, data } = src;
  const out = new Float32Array(w * h * 3);
  const f = focalPx(lens);
  const s = renderScale(lens);
  const taps = post.motionPx > 0.3 ? Math.max(2, Math.ceil(post.motionPx * 1.5)) : 1;
  const mx = Math.cos(post.motionAngle) * post.motionPx;
  const my = Math.sin(post.motionAngle) * post.motionPx;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const [sx0, sy0] = sourcePixel(lens, x + 0.5, y + 0.5, f, s);
      let r = 0;
      let g = 0;
      let b = 0;
      for (let t = 0; t < taps; t++) {
        const k = taps === 1 ? 0 : t / (taps - 1) - 0.5;
        const sx = Math.min(w - 1.001, Math.max(0, sx0 - 0.5 + k * mx));
        const sy = Math.min(h - 1.001, Math.max(0, sy0 - 0.5 + k * my));
        const x0 = Math.floor(sx);
        const y0 = Math.floor(sy);
        const fx = sx - x0;
        const fy = sy - y0;
        const i00 = (y0 * w + x0) * 3;
        const i10 = i00 + 3;
        const i01 = i00 + w * 3;
        const i11 = i01 + 3;
        const w00 = (1 - fx) * (1 - fy);
        const w10 = fx * (1 - fy);
        const w01 = (1 - fx) * fy;
        const w11 = fx * fy;
        r += (data[i00] as number) * w00 + (data[i10] as number) * w10 + (data[i01] as number) * w01 + (data[i11] as number) * w11;
        g += (data[i00 + 1] as number) * w00 + (data[i10 + 1] as number) * w10 + (data[i01 + 1] as number) * w01 + (data[i11 + 1] as number) * w11;
        b += (data[i00 + 2] as number) * w00 + (data[i10 + 2] as number) * w10 + (data[i01 + 2] as number) * w01 + (data[i11 + 2] as number) * w11;
      }
      const o = (y * w + x) * 3;
      out[o] = r / taps;
      out[o + 1] = g / taps;
      out[o + 2] = b / taps;
    }
  }
  return out;
}

/** Separable Gaussian blur of an interleaved RGB float image, in place. */
function gaussianBlur(img: Float32Array, w: number, h: number, sigma: number): void {
  const radius = Math.ceil(sigma * 3);
  const kernel: number[] = [];
  let sum = 0;
  for (let i = -radius; i <= radius; i++) {
    const v = Math.exp(-(i * i) / (2 * sigma * sigma));
    kernel.push(v);
    sum += v;
  }
  for (let i = 0; i < kernel.length; i++) kernel[i] = (kernel[i] as number) / sum;
  const tmp = new Float32Array(img.length);
  const pass = (src: Float32Array, dst: Float32Array, horizontal: boolean): void => {
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let r = 0;
        let g = 0;
        let b = 0;
        for (let k = -radius; k <= radius; k++) {
          const xx = horizontal ? Math.min(w - 1, Math.max(0, x + k)) : x;
          const yy = horizontal ? y : Math.min(h - 1, Math.max(0, y + k));
          const i = (yy * w + xx) * 3;
          const kv = kernel[k + radius] as number;
          r += (src[i] as number) * kv;
          g += (src[i + 1] as number) * kv;
          b += (src[i + 2] as number) * kv;
        }
        const o = (y * w + x) * 3;
        dst[o] = r;
        dst[o + 1] = g;
        dst[o + 2] = b;
      }
    }
  };
  pass(img, tmp, true);
  pass(tmp, img, false);
}

/** Applies the camera's optics and sensor to an ideal frame rendered for `lens`. */
export function applyCamera(ideal: RgbImage, lens: Lens, post: PostSpec): RgbImage {
  const { width: w, height: h } = ideal;
  const img = remap(ideal, lens, post);
  if (post.blurSigma > 0.05) gaussianBlur(img, w, h, post.blurSigma);
  const random = seededRandom(post.noiseSeed);
  let spare: number | undefined;
  const normal = (): number => {
    if (spare !== undefined) {
      const s = spare;
      spare = undefined;
      return s;
    }
    const u = Math.max(1e-12, random());
    const v = random();
    const m = Math.sqrt(-2 * Math.log(u));
    spare = m * Math.sin(2 * Math.PI * v);
    return m * Math.cos(2 * Math.PI * v);
  };
  const out = new Uint8Array(w * h * 3);
  const cx = w / 2;
  const cy = h / 2;
  const rmax2 = cx * cx + cy * cy;
  const read2 = post.readNoise * post.readNoise;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const d2 = ((x - cx) ** 2 + (y - cy) ** 2) / rmax2;
      const vig = 1 - post.vignette * d2;
      const o = (y * w + x) * 3;
      for (let c = 0; c < 3; c++) {
        const v = (img[o + c] as number) * vig * (post.gains[c] as number);
        const noisy = v + normal() * Math.sqrt(read2 + post.shotNoise * Math.max(0, v));
        out[o + c] = noisy <= 0 ? 0 : noisy >= 255 ? 255 : Math.round(noisy);
      }
    }
  }
  return { width: w, height: h, data: out };
}
