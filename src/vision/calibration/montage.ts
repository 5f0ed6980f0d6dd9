/**
 * A contact sheet of crops (nearest-neighbour scaled into square cells), so a
 * person can see what a group of dice shows before naming it.
 */
import type { RgbImage } from '../../core/image.js';

/** Tiles `crops` into rows of `columns` cells of `cell` pixels, with a 2-pixel dark gutter. */
export function tileCrops(crops: readonly RgbImage[], cell = 96, columns = 8): RgbImage {
  const gutter = 2;
  const cols = Math.max(1, Math.min(columns, crops.length));
  const rows = Math.max(1, Math.ceil(crops.length / cols));
  const width = cols * (cell + gutter) + gutter;
  const height = rows * (cell + gutter) + gutter;
  const data = new Uint8Array(width * height * 3).fill(24);
  crops.forEach((crop, i) => {
    const ox = gutter + (i % cols) * (cell + gutter);
    const oy = gutter + Math.floor(i / cols) * (cell + gutter);
    if (crop.width === 0 || crop.height === 0) return;
    for (let y = 0; y < cell; y++) {
      const sy = Math.min(crop.height - 1, Math.floor((y * crop.height) / cell));
      for (let x = 0; x < cell; x++) {
        const sx = Math.min(crop.width - 1, Math.floor((x * crop.width) / cell));
        const s = (sy * crop.width + sx) * 3;
        const o = ((oy + y) * width + ox + x) * 3;
        data[o] = crop.data[s] as number;
        data[o + 1] = crop.data[s + 1] as number;
        data[o + 2] = crop.data[s + 2] as number;
      }
    }
  });
  return { width, height, data };
}
