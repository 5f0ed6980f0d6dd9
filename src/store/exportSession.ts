import { VERSION } from '../core/version.js';
import type { ExportManifest } from './manifest.js';
import type { CountedRoll, SessionRecord } from './records.js';
import type { RollStore } from './rollStore.js';

export type ExportFormat = 'csv' | 'jsonl';

/** An export, ready to write: the manifest and the rows' lines (each without its newline), produced lazily. */
export interface SessionExport {
  readonly manifest: ExportManifest;
  /** The CSV header (for CSV) followed by one line per counted roll. */
  lines(): Generator<string>;
}

/**
 * One row per counted roll of a session (ok throws only; cocked and unread
 * dice never appear), in throw order, in a layout `dicerig analyze` reads back:
 * columns `throw, die, type, channel, face, symbol, confidence, classifier, simulated`.
 * A die's face ids are written when every one of its rolls has one (a CSV
 * leaves out the face column unless every die has them), so analysis runs at
 * face level wherever the faces are known.
 */
export function exportSession(
  store: RollStore,
  session: SessionRecord,
  format: ExportFormat,
  exportedAt: Date,
  /** The rolls read past the damage of a damaged file (RollStore.salvagedRolls), instead of the store's own query. */
  salvaged?: { readonly rolls: readonly CountedRoll[]; readonly unreadable: number },
): SessionExport {
  const counted = (): Iterable<CountedRoll> => salvaged?.rolls ?? store.countedRolls(session.id);
  // First pass: which dice have every face id, and how many rows there are.
  const withoutFace = new Set<number>();
  const diceIds = new Set<number>();
  let rows = 0;
  for (const r of counted()) {
    rows++;
    diceIds.add(r.dieId);
    if (r.faceId === null) withoutFace.add(r.dieId);
  }
  const faceColumn = format === 'jsonl' || withoutFace.size === 0;
  const columns = ['throw', 'die', 'type', 'channel', ...(faceColumn ? ['face'] : []), 'symbol', 'confidence', 'classifier', 'simulated'];
  const manifest: ExportManifest = {
    kind: 'manifest',
    format: 'dicerig-export',
    formatVersion: 1,
    dicerig: VERSION,
    exportedAt: exportedAt.toISOString(),
    session: {
      id: session.id,
      name: session.name,
      origin: session.origin,
      state: session.state,
      simulated: session.simulated,
      softwareVersion: session.softwareVersion,
      startedAt: session.startedAt,
      endedAt: session.endedAt,
      config: JSON.parse(session.configJson) as unknown,
      headHash: session.headHash,
      throwCount: session.throwCount,
    },
    rig: session.rigId === null ? null : (store.getRig(session.rigId) ?? null),
    dice: [...diceIds].map((id) => store.getDie(id)).filter((d) => d !== undefined),
    // A damaged file may fail these whole-session reads: the rows are what was saved.
    counts: salvaged ? orNull(() => store.counts(session.id)) : store.counts(session.id),
    ...(salvaged ? (orNull(() => verdictsOf(store, session.id)) ?? {}) : verdictsOf(store, session.id)),
    ...(salvaged ? { unreadableRolls: salvaged.unreadable } : {}),
    exportedRolls: rows,
    columns,
  };
  return {
    manifest,
    *lines() {
      if (format === 'csv') {
        yield columns.join(',');
        for (const r of counted()) yield csvRow(r, faceColumn);
      } else {
        for (const r of counted()) yield jsonRow(r, !withoutFace.has(r.dieId));
      }
    },
  };
}

function csvRow(r: CountedRoll, withFace: boolean): string {
  const cells = [
    String(r.throwIndex),
    csvField(r.dieLabel),
    csvField(r.dieType),
    r.channel === null ? '' : String(r.channel),
    ...(withFace ? [csvField(r.faceId ?? '')] : []),
    csvField(r.symbol),
    r.confidence === null ? '' : String(r.confidence),
    csvField(r.classifierVersion ?? ''),
    r.simulated ? '1' : '0',
  ];
  return cells.join(',');
}

/** RFC 4180 quoting where needed; spaces at either end are quoted too because the reader trims unquoted fields. */
function csvField(value: string): string {
  return /[",;\t\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function jsonRow(r: CountedRoll, withFace: boolean): string {
  return JSON.stringify({
    throw: r.throwIndex,
    die: r.dieLabel,
    type: r.dieType,
    channel: r.channel,
    ...(withFace ? { face: r.faceId } : {}),
    symbol: r.symbol,
    confidence: r.confidence,
    classifier: r.classifierVersion,
    simulated: r.simulated,
  });
}

function orNull<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

/** The session's stored verdicts (shown as is by whoever reads the export) and its unresolved rolls. */
function verdictsOf(store: RollStore, sessionId: number): { verdicts?: unknown; unresolvedRolls: number } {
  const stored = store.storedVerdicts(sessionId);
  return { ...(stored ? { verdicts: stored.verdicts } : {}), unresolvedRolls: store.unresolvedRolls(sessionId).length };
}
