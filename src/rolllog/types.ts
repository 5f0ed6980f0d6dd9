/**
 * A roll log as read from a file, before it is matched to a die type: for each
 * die, the raw outcome tokens in throw order. Kept columnar (one array of
 * tokens per die, not one object per roll) because logs reach 600,000 rolls.
 */
export interface DieLog {
  /** The die's label or serial as written in the log (or the file name for one-die files). */
  readonly label: string;
  /** Die type id when the log names one (`red`, `green`, `d6`...). */
  typeId?: string;
  /** Whether tokens are physical face ids or symbols. */
  readonly level: 'face' | 'symbol';
  /** Outcome tokens in roll order. */
  readonly tokens: string[];
  /** Where each distinct token first appeared, to name a bad token's file and line. */
  readonly firstSeen: Map<string, { file: string; line: number }>;
  /** Files this die's rolls came from. */
  readonly files: Set<string>;
}

export type LogFormat = 'csv' | 'jsonl' | 'one-hot';

export interface ParsedLog {
  readonly file: string;
  readonly format: LogFormat;
  readonly dice: DieLog[];
  readonly rows: number;
}
