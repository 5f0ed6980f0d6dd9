import { VERSION } from '../core/version.js';
import { sealOf } from './exportSeal.js';
import type { ExportManifest } from './manifest.js';
import type { CountedRoll, SessionRecord } from './records.js';
import type { RollStore } from './rollStore.js';
import type { UnresolvedRoll } from './reviews.js';

export type ExportFormat = 'csv' | 'jsonl';

/** An export, ready to write: the manifest and the rows' lines (each without its newline), produced lazily. */
export interface SessionExport {
  readonly manifest: ExportManifest;
  /** The CSV header (for CSV) followed by one line per counted roll. */
  lines(): Generator<string>;
}

/** What an export carries beside its rows, and in which layout. */
export interface ExportOptions {
  /** The rolls read past the damage of a damaged file (RollStore.salvagedRolls), instead of the store's own query. */
  readonly salvaged?: { readonly rolls: readonly CountedRoll[]; readonly unreadable: number };
  /** A fleet session's campaign finding, carried in the manifest so the file is judged as the fleet judges the session. */
  readonly campaignFinding?: unknown;
  /**
   * Each row's throw time (`time`, format version 3; the default). False writes format version 2's layout, without
   * it: what `verify` compares a version 2 file with.
   */
  readonly times?: boolean;
}

/** The first export format version whose rows carry their throw's time. */
export const TIMED_FORMAT_VERSION = 3;

/**
 * One row per counted roll of a session (ok throws only; cocked dice never appear), in throw order, in a layout
 * `dicerig analyze` reads back: columns `throw, die, type, channel, face, symbol, confidence, classifier, simulated,
 * time` (the time the throw was read, ISO 8601 UTC: when each roll was made, for whoever looks for drift or wear over a
 * session; empty where a damaged file could not give it), and `resolution` when the session has unresolved rolls (the reader declined them or found no die, and nobody
 * labelled them): each is a row of its own, `unresolved` with no face or symbol, so whoever judges the export
 * judges it whatever they were, as the session did (dropping them would let a reader's face-dependent declines
 * bias the copy's verdict). A declined roll a person labelled is `reviewed`, with the `reviewer` (a column of its
 * own when there is one) and no confidence or classifier: its face is the person's, not a read, and an import
 * keeps it so.
 * A die's face ids are written when every one of its rolls has one (a CSV
 * leaves out the face column unless every die has them), so analysis runs at
 * face level wherever the faces are known.
 */
export function exportSession(
  store: RollStore,
  session: SessionRecord,
  format: ExportFormat,
  exportedAt: Date,
  options: ExportOptions = {},
): SessionExport {
  const { salvaged, campaignFinding } = options;
  const timeOf = options.times === false ? undefined : throwTimes(store, session.id, salvaged !== undefined);
  const counted = (): Iterable<CountedRoll> => salvaged?.rolls ?? store.countedRolls(session.id);
  // A damaged file may fail this read too: its export then says it could not list them (unresolvedRolls null).
  const unresolved = salvaged ? orNull(() => store.unresolvedRolls(session.id)) : store.unresolvedRolls(session.id);
  const unresolvedRows = unresolved ?? [];
  // First pass: which dice have every face id, and how many rows there are.
  const withoutFace = new Set<number>();
  const diceIds = new Set<number>();
  let rows = 0;
  let reviewed = 0;
  for (const r of counted()) {
    rows++;
    if (r.resolution === 'reviewed') reviewed++;
    diceIds.add(r.dieId);
    if (r.faceId === null) withoutFace.add(r.dieId);
  }
  for (const u of unresolvedRows) diceIds.add(u.dieId);
  const faceColumn = format === 'jsonl' || withoutFace.size === 0;
  const withResolution = unresolvedRows.length > 0 || reviewed > 0;
  const withReviewer = reviewed > 0;
  const columns = [
    ...['throw', 'die', 'type', 'channel', ...(faceColumn ? ['face'] : []), 'symbol', 'confidence', 'classifier', 'simulated'],
    ...(timeOf !== undefined ? ['time'] : []),
    ...(withResolution ? ['resolution'] : []),
    ...(withReviewer ? ['reviewer'] : []),
  ];
  const described: Omit<ExportManifest, 'seal'> = {
    kind: 'manifest',
    format: 'dicerig-export',
    formatVersion: timeOf !== undefined ? TIMED_FORMAT_VERSION : 2,
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
      // The review chain's head too, so a witness holding the file can check a store's reviews were not cut off.
      ...reviewHeadOf(store, session.id),
    },
    rig: session.rigId === null ? null : (store.getRig(session.rigId) ?? null),
    dice: [...diceIds].map((id) => store.getDie(id)).filter((d) => d !== undefined),
    // A damaged file may fail these whole-session reads: the rows are what was saved.
    counts: salvaged ? orNull(() => store.counts(session.id)) : store.counts(session.id),
    ...(salvaged ? (orNull(() => storedVerdicts(store, session.id)) ?? {}) : storedVerdicts(store, session.id)),
    ...(campaignFinding !== undefined ? { campaignFinding } : {}),
    unresolvedRolls: unresolved === null ? null : unresolved.length,
    reviewedRolls: reviewed,
    ...(salvaged ? { unreadableRolls: salvaged.unreadable } : {}),
    exportedRolls: rows,
    columns,
  };
  function* lines(): Generator<string> {
    if (format === 'csv') yield columns.join(',');
    const simulated = session.simulated;
    // Undefined: no time column; '': the column, but this throw's time could not be read.
    const time = (throwIndex: number): string | undefined => (timeOf === undefined ? undefined : (timeOf.get(throwIndex) ?? ''));
    const unresolvedRow = (u: UnresolvedRoll): string =>
      format === 'csv' ? csvUnresolvedRow(u, faceColumn, simulated, time(u.throwIndex), withReviewer) : jsonUnresolvedRow(u, simulated, time(u.throwIndex));
    // Each throw's unresolved rolls follow its read ones: a die's rolls stay in the order it rolled them.
    let next = 0;
    for (const r of counted()) {
      while (next < unresolvedRows.length && (unresolvedRows[next] as UnresolvedRoll).throwIndex < r.throwIndex) yield unresolvedRow(unresolvedRows[next++] as UnresolvedRoll);
      yield format === 'csv' ? csvRow(r, faceColumn, time(r.throwIndex), withResolution, withReviewer) : jsonRow(r, !withoutFace.has(r.dieId), time(r.throwIndex));
    }
    while (next < unresolvedRows.length) yield unresolvedRow(unresolvedRows[next++] as UnresolvedRoll);
  }
  // Sealed from the lines as written (read back as `verify` reads them) and the manifest as a reader parses it.
  const manifest: ExportManifest = { ...described, seal: sealOf(lines(), JSON.parse(JSON.stringify(described)) as Record<string, unknown>) };
  return { manifest, lines };
}

/**
 * Each throw's time as an export writes it (ISO 8601 UTC, to the millisecond): when it ended, its dice read. From a
 * damaged file, the times it can still give (none when its throws table cannot be read).
 */
function throwTimes(store: RollStore, sessionId: number, damaged: boolean): Map<number, string> {
  const read = (): Map<number, string> => new Map(store.throwTimes(sessionId).map((t) => [t.index, new Date(t.endedAt).toISOString()]));
  return damaged ? (orNull(read) ?? new Map()) : read();
}

function csvRow(r: CountedRoll, withFace: boolean, time: string | undefined, withResolution: boolean, withReviewer: boolean): string {
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
    ...(time !== undefined ? [time] : []),
    ...(withResolution ? [r.resolution] : []),
    ...(withReviewer ? [csvField(r.reviewer ?? '')] : []),
  ];
  return cells.join(',');
}

function csvUnresolvedRow(u: UnresolvedRoll, withFace: boolean, simulated: boolean, time: string | undefined, withReviewer: boolean): string {
  const cells = [
    String(u.throwIndex),
    csvField(u.dieLabel),
    csvField(u.dieType),
    u.channel === null ? '' : String(u.channel),
    ...(withFace ? [''] : []),
    '',
    '',
    '',
    simulated ? '1' : '0',
    ...(time !== undefined ? [time] : []),
    'unresolved',
    ...(withReviewer ? [''] : []),
  ];
  return cells.join(',');
}

function jsonUnresolvedRow(u: UnresolvedRoll, simulated: boolean, time: string | undefined): string {
  return JSON.stringify({ throw: u.throwIndex, die: u.dieLabel, type: u.dieType, channel: u.channel, symbol: null, resolution: 'unresolved', simulated, ...jsonTime(time) });
}

/** A JSON Lines row's time: none without the column, null where a damaged file could not give it. */
function jsonTime(time: string | undefined): { time?: string | null } {
  return time === undefined ? {} : { time: time === '' ? null : time };
}

/** RFC 4180 quoting where needed; spaces at either end are quoted too because the reader trims unquoted fields. */
function csvField(value: string): string {
  return /[",;\t\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function jsonRow(r: CountedRoll, withFace: boolean, time: string | undefined): string {
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
    ...jsonTime(time),
    // A read row says nothing more, as exports always wrote them.
    ...(r.resolution === 'reviewed' ? { resolution: 'reviewed', reviewer: r.reviewer } : {}),
  });
}

function orNull<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

/** The session's stored verdicts (shown as is by whoever reads the export). */
function storedVerdicts(store: RollStore, sessionId: number): { verdicts?: unknown } {
  const stored = store.storedVerdicts(sessionId);
  return stored ? { verdicts: stored.verdicts } : {};
}

/** The session's review chain head as the manifest carries it (none from a store too damaged to read it). */
function reviewHeadOf(store: RollStore, sessionId: number): { reviewsHead?: string; reviewCount?: number } {
  try {
    const head = store.reviewLog.head(sessionId);
    return head === undefined ? {} : { reviewsHead: head.hash, reviewCount: head.count };
  } catch {
    return {};
  }
}
