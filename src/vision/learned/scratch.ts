/**
 * Scratch arrays for network inputs that are made, read by a network (which copies them into its own memory) and
 * dropped: a die's partner and outline-check views, the face network's views when no confirming reader reads them
 * again. Reading a die made a dozen arrays of 12-48 KB that only lived until the next network ran, and collecting
 * them took a tenth of a frame's time. One array per use and length; whoever takes one must be done with it before
 * the next take of the same use and length (no caller holds one across another network's run).
 */
const arrays = { input: new Map<number, Float32Array>(), view: new Map<number, Float32Array>() };

/** The scratch array of `use` with `length` floats (its contents are whatever was left there). */
export function scratchFloats(use: 'input' | 'view', length: number): Float32Array {
  const byLength = arrays[use];
  let a = byLength.get(length);
  if (a === undefined) {
    a = new Float32Array(length);
    byLength.set(length, a);
  }
  return a;
}
