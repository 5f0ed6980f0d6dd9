/**
 * The pip patterns of a D6's faces in the face's own frame (u right, v down in
 * the image when the pattern is upright), in units of the pip offset from the
 * face centre. Shared by the pip reader and the simulated camera.
 */
export const D6_PATTERNS: Readonly<Record<string, readonly (readonly [number, number])[]>> = {
  '1': [[0, 0]],
  '2': [
    [-1, -1],
    [1, 1],
  ],
  '3': [
    [-1, -1],
    [0, 0],
    [1, 1],
  ],
  '4': [
    [-1, -1],
    [1, -1],
    [-1, 1],
    [1, 1],
  ],
  '5': [
    [-1, -1],
    [1, -1],
    [0, 0],
    [-1, 1],
    [1, 1],
  ],
  '6': [
    [-1, -1],
    [1, -1],
    [-1, 0],
    [1, 0],
    [-1, 1],
    [1, 1],
  ],
};

/** Smallest turn (degrees) that maps each face's pattern, and the square face, onto itself. */
export const D6_PATTERN_SYMMETRY_DEG: Readonly<Record<string, number>> = { '1': 90, '2': 180, '3': 180, '4': 90, '5': 90, '6': 180 };
