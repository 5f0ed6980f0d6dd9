/** `v` scaled to length 1 (a zero vector stays zero): embeddings compared by direction, not by how strongly a die lit the network. */
export function unitLength(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  return v.map((x) => x / norm);
}
