/**
 * What a die is, for the whole house. A die has physical faces (so faces that
 * share a symbol can be told apart), each showing one symbol; expected odds are
 * per face, and symbol odds follow by summing. `opposite` maps every face to the
 * face on the other side (a camera under a clear platform sees the bottom face).
 */
export interface Face {
  /** Unique within the die, stable across versions: logs and calibration profiles store it. */
  readonly id: string;
  /** What the game reads from this face (e.g. `hit`, `focus`, `3`). */
  readonly symbol: string;
  /** Pip count or natural value, where the face has one (D6: 1..6; D3: the D6 value it was read from). */
  readonly value?: number;
}

export interface DieType {
  /** Short id used on the command line and in logs: `red`, `green`, `d6`, `d3`, `direction`, or a user id. */
  readonly id: string;
  readonly name: string;
  readonly faces: readonly Face[];
  /** Every symbol, in reporting order; each face's symbol is one of these. */
  readonly symbols: readonly string[];
  /** Expected probability of each face, aligned with `faces`; sums to 1. */
  readonly faceProbabilities: readonly number[];
  /** Face id -> id of the opposite face. */
  readonly opposite: Readonly<Record<string, string>>;
  /** Free text shown in `dicerig dice` (source of the odds, how a face is read). */
  readonly notes?: string;
}
