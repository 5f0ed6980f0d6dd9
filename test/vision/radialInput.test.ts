/**
 * The radial cocked check's input: the crop turned so the die's radial direction (optical centre -> die) points
 * down. The turn must be exactly the one train.py trained on (torch's affine_grid + grid_sample, bilinear, border
 * padding, align_corners false). The expected values come from torch, computed once with:
 *
 *   import numpy as np, torch, torch.nn.functional as F
 *   def turned(C, S, ang):
 *       c, y, x = np.meshgrid(np.arange(3), np.arange(C), np.arange(C), indexing='ij')
 *       raw = torch.tensor(50 + 40 * np.sin(0.7 * c + 0.31 * y + 0.53 * x), dtype=torch.float32)[None]
 *       th = torch.tensor([ang]); cos, sin = torch.cos(th), torch.sin(th)
 *       theta = torch.stack([torch.stack([cos, -sin, torch.zeros(1)], 1), torch.stack([sin, cos, torch.zeros(1)], 1)], 1)
 *       theta[:, :, :2] *= S / C
 *       g = F.affine_grid(theta, (1, 3, S, S), align_corners=False)
 *       return F.grid_sample(raw, g, mode='bilinear', padding_mode='border', align_corners=False).flatten()
 *   turned(8, 4, 0.3), turned(8, 4, -2.1), turned(6, 6, 0.8)   # rounded to 4 decimals
 */
import { describe, expect, it } from 'vitest';
import type { RgbImage } from '../../src/core/image.js';
import { topFaceCrop } from '../../src/vision/learned/crop.js';
import { areaResample, learnedInput, radialInput, radialRaw, turnedCells, turnedCentre } from '../../src/vision/learned/input.js';
import { RADIAL_DOWN } from '../../src/vision/learned/topFace.js';
import { cameraFromFov, radialDirection } from '../../src/vision/learned/topFace.js';

function raw(context: number): Float32Array {
  const out = new Float32Array(3 * context * context);
  for (let c = 0; c < 3; c++) for (let y = 0; y < context; y++) for (let x = 0; x < context; x++) out[(c * context + y) * context + x] = 50 + 40 * Math.sin(0.7 * c + 0.31 * y + 0.53 * x);
  return out;
}

const TORCH: Record<string, { context: number; size: number; angle: number; values: number[] }> = {
  'central half at 0.3 rad': {
    context: 8, size: 4, angle: 0.3,
    values: [86.8533, 75.0779, 54.3362, 32.1928, 85.5549, 71.1261, 49.018, 27.1462, 83.4776, 66.2501, 43.4357, 23.1989, 79.6511, 60.9527, 38.3807, 20.0013, 71.7841, 50.3841, 28.7839, 14.5889, 67.5016, 45.0298, 24.0502, 12.0679, 62.5689, 39.4989, 20.2054, 11.5995, 57.1353, 34.7156, 17.4851, 11.8513, 46.4695, 25.5097, 13.2098, 13.6394, 41.2171, 21.2711, 11.2871, 14.8296, 35.7489, 17.6865, 10.988, 18.0604, 31.2636, 15.6669, 11.8817, 21.6432],
  },
  'central half at -2.1 rad': {
    context: 8, size: 4, angle: -2.1,
    values: [44.0992, 64.3756, 81.3901, 88.3002, 32.8864, 53.3446, 72.4468, 85.1079, 23.7564, 41.75, 61.9748, 79.5426, 16.4985, 30.5206, 50.6705, 70.6839, 20.437, 38.1829, 58.5846, 76.4569, 14.2499, 27.8448, 46.8131, 66.9195, 11.9179, 19.2934, 35.5818, 56.0771, 12.0866, 12.9801, 25.8963, 44.2702, 10.6788, 17.548, 31.7416, 52.1704, 12.4272, 12.765, 22.6783, 40.7737, 17.99, 11.2787, 15.9699, 29.7536, 25.506, 12.8506, 12.4584, 20.5513],
  },
  'the whole square at 0.8 rad, corners from the border': {
    context: 6, size: 6, angle: 0.8,
    values: [87.7066, 88.5337, 81.3743, 62.6286, 46.924, 38.3368, 82.4624, 87.9352, 84.524, 68.7682, 46.4229, 30.4774, 75.1429, 87.5719, 86.4033, 73.8632, 52.7707, 30.8022, 69.7399, 85.4274, 88.1652, 78.2246, 59.2143, 36.3478, 70.5001, 81.416, 89.3228, 82.4747, 64.8858, 46.7109, 77.1976, 83.0205, 87.9151, 85.9474, 73.9141, 61.2134, 84.2151, 75.7598, 58.7953, 36.2105, 22.1258, 16.7502, 89.0232, 81.7584, 64.9125, 42.0907, 22.7469, 12.8414, 88.4323, 85.5409, 70.1723, 48.6894, 26.9374, 13.7694, 86.441, 87.8863, 75.3821, 54.908, 32.6155, 16.0269, 87.5379, 88.0566, 80.4529, 61.0879, 38.74, 22.2982, 89.2783, 89.4948, 83.4041, 67.3304, 48.4744, 34.7694, 64.6317, 50.8707, 32.0798, 16.2778, 10.4373, 10.8015, 77.2308, 60.6451, 38.2875, 19.133, 11.8885, 12.6817, 83.6464, 66.7945, 44.454, 24.1321, 11.9507, 13.7764, 86.0033, 72.5267, 50.6614, 29.2831, 14.193, 11.6841, 86.9211, 76.7986, 57.2605, 34.4862, 17.89, 10.914, 82.8858, 77.3941, 63.1827, 40.5626, 23.7523, 15.4886],
  },
};

/** A grey image with one bright spot. */
function spotImage(width: number, height: number, spot: { x: number; y: number }): RgbImage {
  const data = new Uint8Array(width * height * 3).fill(60);
  for (let y = spot.y - 1; y <= spot.y + 1; y++) for (let x = spot.x - 1; x <= spot.x + 1; x++) data.fill(250, (y * width + x) * 3, (y * width + x) * 3 + 3);
  return { width, height, data };
}

describe('the radial input of the cocked check', () => {
  for (const [name, { context, size, angle, values }] of Object.entries(TORCH)) {
    it(`turns a square exactly as torch's grid_sample did in training: ${name}`, () => {
      const out = turnedCentre(raw(context), context, size, angle);
      expect(out.length).toBe(values.length);
      out.forEach((v, i) => expect(v).toBeCloseTo(values[i] as number, 3));
    });
  }

  it('resamples only the cells the turn reads, and turns them into exactly what the whole square gives', () => {
    // A noisy image, so that any cell left out but read would change the result.
    const width = 300;
    const height = 200;
    const data = new Uint8Array(width * height * 3);
    for (let i = 0, s = 7; i < data.length; i++) data[i] = (s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 24;
    const image = { width, height, data };
    for (const size of [8, 16, 32]) {
      for (let t = 0; t < 60; t++) {
        const angle = RADIAL_DOWN + (t / 60) * 2 * Math.PI;
        const centre = { x: 20 + ((t * 37) % 260), y: 15 + ((t * 53) % 170) };
        const side = 20 + ((t * 29) % 90);
        const whole = turnedCentre(areaResample(image, centre, 2 * side, 2 * size), 2 * size, size, angle - RADIAL_DOWN);
        expect(Array.from(radialRaw(image, centre, side, size, angle)), `size ${size}, turn ${t}`).toEqual(Array.from(whole));
      }
    }
    // Unturned: the samples fall on cells 16..47 and read their right and lower neighbours (to 48), with a cell of room
    // below; turned by 45 degrees, the square's corners reach further.
    expect(turnedCells(64, 32, 0)).toEqual({ x0: 15, y0: 15, x1: 49, y1: 49 });
    const diagonal = turnedCells(64, 32, Math.PI / 4);
    expect(diagonal.x0).toBeLessThan(10);
    expect(diagonal.x1 - diagonal.x0).toBeLessThan(52);
  });

  it('puts a mark lying towards the die\'s radial direction at the bottom of the input, wherever the die lies', () => {
    for (const radial of [0, 0.9, 2.5, -1.3, Math.PI]) {
      // A spot 6 px from the crop's centre, in the radial direction.
      const image = spotImage(41, 41, { x: Math.round(20 + 6 * Math.cos(radial)), y: Math.round(20 + 6 * Math.sin(radial)) });
      const x = radialInput(image, { x: 20.5, y: 20.5 }, 24, 12, radial);
      let best = 0;
      for (let i = 1; i < 144; i++) if ((x[i] as number) > (x[best] as number)) best = i;
      const row = Math.floor(best / 12);
      const col = best % 12;
      expect(row).toBeGreaterThanOrEqual(8);
      expect(Math.abs(col - 5.5)).toBeLessThanOrEqual(1.5);
    }
  });

  it('reads a die pointing straight down as the plain input, normalised the same way', () => {
    const image = spotImage(41, 41, { x: 26, y: 23 });
    const plain = learnedInput(image, { x: 20.5, y: 20.5 }, 24, 12);
    const down = radialInput(image, { x: 20.5, y: 20.5 }, 24, 12, Math.PI / 2);
    // Unturned, the central half of a square twice as wide at twice the density holds the same cells, bilinear at
    // cell centres between them: close, not identical.
    let diff = 0;
    for (let i = 0; i < plain.length; i++) diff = Math.max(diff, Math.abs((plain[i] as number) - (down[i] as number)));
    expect(diff).toBeLessThan(1.2);
    expect(Math.max(...down)).toBeGreaterThan(1);
  });

  it('gives every crop cut from a frame the direction from the optical centre to the die, and none at the centre', () => {
    const camera = cameraFromFov(200, 100, 54);
    const image = spotImage(200, 100, { x: 50, y: 50 });
    const crop = topFaceCrop(image, { x: 140, y: 60, width: 20, height: 20 }, { heightRatio: 0.77, camera, gain: 1, margin: 1.5 });
    expect(crop.radial).toBeCloseTo(Math.atan2(20, 50), 12);
    expect(radialDirection({ x: 100, y: 50 }, camera)).toBeUndefined();
    expect(topFaceCrop(image, { x: 90, y: 40, width: 20, height: 20 }, { heightRatio: 0.77, camera, gain: 1, margin: 1.5 }).radial).toBeUndefined();
  });
});
