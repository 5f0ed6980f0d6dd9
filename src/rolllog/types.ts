import type { DieType } from '../dice/types.js';
import type { RollDetails } from './rollDetails.js';

/**
 * A roll log as read from a file, before it is matched to a die type: for each
 * die, its outcomes in throw order. Kept columnar and dictionary-coded (a small
 * table of distinct tokens, one code per roll) because logs reach 600,000 rolls
 * and parsing must stay above a million rows a second.
 */
export interface DieLog {
  /** The die's label or serial as written in the log (or the file name for one-die files). */
  readonly label: string;
  /** Die type id when the log names one (`red`, `green`, `d6`...). */
  typeId?: string;
  /** Whether tokens are physical face ids or symbols (set by the first read row when unresolved rows came first). */
  level: 'face' | 'symbol';
  /** Distinct outcome tokens as written, in order of first appearance. */
  readonly dictionary: string[];
  /** One code per roll, in roll order: an index into `dictionary`. */
  readonly codes: number[];
  /** Where each distinct token first appeared, to name a bad token's file and line. */
  readonly firstSeen: Map<string, { file: string; line: number }>;
  /** Files this die's rolls came from. */
  readonly files: Set<string>;
  /**
   * The die's unresolved rolls (an export's rows with `resolution` `unresolved`: the reader declined them or found no
   * die, and nobody labelled them), each as how many read rolls came before it. A verdict must hold whatever they were.
   */
  unresolvedAt?: number[];
  /** The die's rolls a person labelled (`ReviewedRoll`); absent when none. */
  reviewed?: ReviewedRoll[];
  /**
   * A face-level log that also gives each roll's symbol (an export's face and symbol columns): aligned with
   * `dictionary`, the symbol first written beside each face, and where. Only the die's type knows which symbol a face
   * shows, so `resolveDieRolls` checks these against it, once per face rather than once per roll. Empty or absent when
   * no row gave both.
   */
  faceSymbols?: (FaceSymbol | undefined)[];
}

/**
 * A roll the reader declined and a person labelled (an export's `resolution` `reviewed`): it counts as a read roll
 * does, and `import` stores it as labelled, by whom the log says.
 */
export interface ReviewedRoll {
  /** Its index among the die's counted rolls (`DieLog.codes`). */
  readonly roll: number;
  /** Who labelled it (an export's `reviewer` column); null when the log does not say. */
  readonly reviewer: string | null;
}

/** The symbol a log wrote beside a face, where first written. */
export interface FaceSymbol {
  readonly symbol: string;
  readonly file: string;
  readonly line: number;
}

export type LogFormat = 'csv' | 'jsonl' | 'one-hot';

export interface ParsedLog {
  readonly file: string;
  readonly format: LogFormat;
  readonly dice: DieLog[];
  readonly rows: number;
  /** Rows marked simulated (an export's `simulated` column or field: `1` or `true`). */
  readonly simulatedRows?: number;
  /** Whether `ParseOptions.typeId` (`--die`) typed some row that names no type of its own, or chose the one-hot layout. */
  readonly typeOptionUsed?: boolean;
  /** Each row's throw, channel, confidence and classifier version, when read with `ParseOptions.rollDetails`. */
  readonly details?: RollDetails;
  /** Dice whose rows were not in the order of their throws, their rolls put back in it (`putInThrowOrder`). */
  readonly reordered?: readonly ReorderedDie[];
}

/** A die whose rows a log gave out of the order of their throws, and where that was first seen. */
export interface ReorderedDie {
  readonly label: string;
  readonly line: number;
  readonly throwNo: number;
  readonly after: number;
}

/** The tokens of a die's rolls, decoded (for tests and small logs). */
export function tokensOf(log: DieLog): string[] {
  return log.codes.map((c) => log.dictionary[c] as string);
}

/** One die's rolls matched to its type: indices into `die.symbols` (always) and `die.faces` (when faces were logged). */
export interface DieRolls {
  readonly label: string;
  readonly die: DieType;
  readonly level: 'face' | 'symbol';
  readonly symbols: Uint8Array;
  readonly faces?: Uint8Array;
  readonly files: readonly string[];
  /** Its unresolved rolls, each as how many read rolls came before it (`DieLog.unresolvedAt`); absent when none. */
  readonly unresolvedAt?: readonly number[];
  /** The rolls a person labelled (`DieLog.reviewed`); absent when none. */
  readonly reviewed?: readonly ReviewedRoll[];
}

/** How many unresolved rolls a die's log holds. */
export function unresolvedCount(log: { readonly unresolvedAt?: readonly number[] }): number {
  return log.unresolvedAt?.length ?? 0;
}
