/**
 * A die in a session: its channel, its row in the roll store, its type, and
 * what the reader can tell apart on it. A pip reader sees which physical face
 * is up (a D6's pips are its face id), so its dice are counted face by face; an
 * X-Wing icon reader sees only the symbol (three hit faces look alike), so
 * those dice are counted symbol by symbol.
 */
import { faceNames } from '../dice/faceNames.js';
import { faceIndexById, oppositeIndex, symbolProbabilities } from '../dice/indexing.js';
import type { DieType } from '../dice/types.js';
import type { MisreadAssumption } from '../stats/misreadRate.js';
import type { DieRecord } from '../store/records.js';

export type ReadLevel = 'face' | 'symbol';

export interface SessionDie {
  /** Channel of the rig (and region of the camera frame) the die rolls in, from 0. */
  readonly channel: number;
  readonly record: DieRecord;
  readonly type: DieType;
  readonly level: ReadLevel;
  /** The reader's misreads the die's verdict allows for: a calibration's measured bounds, or none (default: none, "no calibration measured them"). */
  readonly misreads?: MisreadAssumption;
}

/** What is counted for a die: one category per face (face level) or per symbol (symbol level). */
export interface CountedCategories {
  readonly labels: readonly string[];
  /** What sentences call each category: a face's name (a D3's face "2" is "face 2 (reads 1)"), a symbol itself. */
  readonly names: readonly string[];
  readonly expected: readonly number[];
  /** Opposite category of each category, where the die's layout is known at this level (faces only). */
  readonly opposite?: readonly number[];
}

/** The categories a die's monitor and rig checks count. */
export function countedCategories(die: Pick<SessionDie, 'type' | 'level'>): CountedCategories {
  if (die.level === 'face') {
    let opposite: number[] | undefined;
    try {
      opposite = oppositeIndex(die.type);
    } catch {
      // A user-defined die without a complete opposite map: the same-or-opposite check is skipped.
      opposite = undefined;
    }
    return { labels: die.type.faces.map((f) => f.id), names: faceNames(die.type), expected: die.type.faceProbabilities, ...(opposite ? { opposite } : {}) };
  }
  return { labels: die.type.symbols, names: die.type.symbols, expected: symbolProbabilities(die.type) };
}

/** Maps a stored or read roll to its category index; undefined when it is not one of the die's. */
export function categoryIndexer(die: Pick<SessionDie, 'type' | 'level'>): (roll: { readonly faceId?: string | null; readonly symbol?: string | null }) => number | undefined {
  if (die.level === 'face') {
    const byId = faceIndexById(die.type);
    return (roll) => (roll.faceId === undefined || roll.faceId === null ? undefined : byId.get(roll.faceId));
  }
  const bySymbol = new Map(die.type.symbols.map((s, i) => [s, i]));
  return (roll) => (roll.symbol === undefined || roll.symbol === null ? undefined : bySymbol.get(roll.symbol));
}
