import { InputError } from '../core/errors.js';
import type { RollStore } from './rollStore.js';

/**
 * Fewer rolls than this in the same order could be a coincidence of two short logs (8^-20 for a d8, 6^-20 for a d6).
 * analyze's check of files (`cli/repeatedRolls.ts`) uses the same bound.
 */
export const SAME_ROLLS_MIN = 20;

/** One die's read rolls from a file to import, as symbols in roll order. */
export interface IncomingDie {
  readonly file: string;
  /** Whether its file carried an export manifest (then `refuseImportedBefore` knows its session by name). */
  readonly identified: boolean;
  readonly label: string;
  readonly symbols: readonly string[];
}

/** Whether a stored session was imported from a log without a manifest: its rolls are known by nothing but themselves. */
function importedUnidentified(configJson: string): boolean {
  try {
    const imported = (JSON.parse(configJson) as { imported?: { exportedSession?: unknown }[] }).imported;
    return Array.isArray(imported) && imported.some((i) => i?.exportedSession === undefined);
  } catch {
    return false;
  }
}

const startsWith = (a: readonly string[], b: readonly string[]): boolean => b.every((s, i) => a[i] === s);

/**
 * Refuses an import that holds a die's rolls the store has already, when a manifest cannot tell so: a copy of an export
 * without its manifest imported again, or beside the session it came from. The same ≥ 20 rolls of a die of the same
 * label, in the same order from its first roll (one run may have gone on after the other was exported), are one record.
 * Two sessions of one seed, each known by its manifest or chain, stay distinct, as in analyze.
 */
export function refuseRollsStoredBefore(store: RollStore, incoming: readonly IncomingDie[]): void {
  const long = incoming.filter((d) => d.symbols.length >= SAME_ROLLS_MIN);
  if (long.length === 0) return;
  for (const session of store.sessions()) {
    const storedUnidentified = session.origin === 'import' && importedUnidentified(session.configJson);
    const candidates = long.filter((d) => !d.identified || storedUnidentified);
    if (candidates.length === 0) continue;
    const byLabel = new Map<string, string[]>();
    for (const r of store.countedRolls(session.id)) {
      const list = byLabel.get(r.dieLabel) ?? [];
      list.push(r.symbol);
      byLabel.set(r.dieLabel, list);
    }
    for (const d of candidates) {
      const stored = byLabel.get(d.label);
      if (stored === undefined || stored.length < SAME_ROLLS_MIN) continue;
      if (startsWith(stored, d.symbols) || startsWith(d.symbols, stored)) {
        const n = Math.min(stored.length, d.symbols.length);
        throw new InputError(
          `die ${d.label}'s first ${n} rolls are those of die ${d.label} in session ${session.id}${session.name !== null ? ` (${session.name})` : ''} of this store, in the same order: ` +
            'the file is a copy of rolls stored already (an export without its manifest, say), and importing it would count them twice',
          { file: d.file },
        );
      }
    }
  }
}
