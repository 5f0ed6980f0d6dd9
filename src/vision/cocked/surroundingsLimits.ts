/** The limits of the look beside a die for a side face (`SurroundingsJudge`), and the verdict it gives. */

export interface SurroundingsOptions {
  /** Die side (D6) or across-corners size (d8), pixels. */
  readonly dieSizePx: number;
  /** Radius around the die's centre that is searched, as a multiple of the die size. */
  readonly reach: number;
  /** Mean colour difference over a 4x4 px block (max over R, G, B) that belongs to the die's silhouette. */
  readonly silhouetteThreshold: number;
  /** Mean colour difference over a 2x2 px cell that is clearly not sensor noise. */
  readonly markThreshold: number;
  /** How far (grey levels) a cell may lie from a blend of die body and (shadowed) platform and still be explained as the die's edge or shadow. */
  readonly blendTolerance: number;
  /** Darkest blend (fraction of the platform or body brightness) still explained as shadow or a shaded edge. */
  readonly minBlend: number;
  /**
   * Largest colour difference (max over R, G, B) of a top-face cell from the body colour under some gain
   * and glare: a floor above sensor noise, plus a fraction of the body's brightest channel.
   */
  readonly faceTolerance: number;
  readonly faceRelativeTolerance: number;
  /** Gain range (relative to the die's centre) over which the top face still counts as one face. */
  readonly faceGain: readonly [number, number];
  /** Most glare (grey levels added) a part of the top face may have beyond its centre. */
  readonly glare: number;
  /** Darkening (fraction of the platform's brightness) a die's soft shadow may reach anywhere; darker cells must not be spots. */
  readonly deepShade: number;
  /** How much darker than its surroundings (fraction of the platform's brightness) a shaded cell must be to be a spot, not a soft shadow. */
  readonly spotContrast: number;
  /** Cells (2x2 px) around the top face that are skipped: its bevel and blurred edge. */
  readonly edgeCells: number;
  /** More marked cells than this beside the die mean a side face shows. */
  readonly maxMarkedCells: number;
  /** Largest length/breadth ratio of a flat die's silhouette at this resolution. */
  readonly maxElongation: number;
}

export const defaultSurroundingsLimits: Omit<SurroundingsOptions, 'dieSizePx'> = {
  reach: 1.0,
  silhouetteThreshold: 14,
  markThreshold: 24,
  blendTolerance: 18,
  minBlend: 0.45,
  faceTolerance: 14,
  faceRelativeTolerance: 0.08,
  faceGain: [0.85, 1.25],
  glare: 80,
  deepShade: 0.35,
  spotContrast: 0.12,
  edgeCells: 2,
  maxMarkedCells: 3,
  maxElongation: 1.08,
};

export interface SurroundingsVerdict {
  readonly cocked: boolean;
  /** Cells (2x2 px) beside the die that differ from the empty platform and are neither shadow nor the die's edge. */
  readonly markedCells: number;
  /** Area (full-resolution pixels) and length/breadth ratio of the die's silhouette at this resolution. */
  readonly silhouetteArea?: number;
  readonly silhouetteElongation?: number;
  readonly reason?: string;
}
