/**
 * Holes in a foreground mask filled: background regions enclosed by foreground, smaller than a limit. A die whose face
 * carries ink of the platform's own colour (a logo's ring and star, a large pip) shows as a blob with a hole; its
 * outline is the die's, but its area falls short of a flat die's and the cocked check took it for a die on an edge.
 */
import { connectedComponents } from './components.js';

/**
 * The background mask and its labels, reused from call to call (only the first mask.length values; grown for a larger
 * mask): the locator fills the holes of every frame's mask, and a fresh pair cost 0.29 MB of short-lived buffers a
 * frame, which the engine counts against its old generation's limit until a collection frees them
 * (bench/gcSessions.ts). They never leave this module.
 */
let backgroundScratch = new Uint8Array(0);
let labelScratch = new Int32Array(0);

/**
 * Sets, in place, every background pixel of `mask` whose 4-connected background region neither touches the mask's
 * border nor holds `maxArea` pixels or more. (The holes of an 8-connected foreground are its 4-connected background
 * regions.) Returns how many pixels were set.
 */
export function fillHoles(mask: Uint8Array, width: number, height: number, maxArea: number): number {
  if (backgroundScratch.length < mask.length) {
    backgroundScratch = new Uint8Array(mask.length);
    labelScratch = new Int32Array(mask.length);
  }
  const background = backgroundScratch.subarray(0, mask.length);
  for (let i = 0; i < mask.length; i++) background[i] = mask[i] === 0 ? 1 : 0;
  const { blobs, labels } = connectedComponents(background, width, height, 4, labelScratch.subarray(0, mask.length));
  const fill = new Uint8Array(blobs.length + 1);
  let holes = 0;
  for (const b of blobs) {
    if (b.touchesBorder || b.area >= maxArea) continue;
    fill[b.label] = 1;
    holes++;
  }
  if (holes === 0) return 0;
  let set = 0;
  for (let i = 0; i < mask.length; i++) {
    if (fill[labels[i] as number] === 1) {
      mask[i] = 1;
      set++;
    }
  }
  return set;
}
