/**
 * `dicerig verify FILE`: an export checked against the seal its manifest carries (rows and manifest unchanged since
 * the export), and, with `--db STORE`, against the store it came from: the store's chain still reaches the export's
 * head, and a fresh export of that session holds the same rows (a fleet store, `--db postgres://...`, alike: the fleet
 * session its chain reaches, read as its rig host stored it). The seal catches changes and damage; only the store
 * catches a forger who rewrote the seal too.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { InputError } from '../core/errors.js';
import { formatCount, shellWord } from '../core/format.js';
import { isFleetUrl } from '../fleet/connect.js';
import { findFleetChainHead, openFleetSessions } from '../fleet/fleetReader.js';
import { exportSession, TIMED_FORMAT_VERSION, type ExportFormat } from '../store/exportSession.js';
import { sealDifferences, type SealCheck } from '../store/exportSealCheck.js';
import type { ImportedManifest } from '../store/manifest.js';
import type { SessionRecord } from '../store/records.js';
import type { RollStore } from '../store/rollStore.js';
import { withReadableStore } from '../store/openStore.js';
import { sealCheckOf } from './exportSealFile.js';
import { manifestOf } from './fileManifest.js';
import type { CliIo } from './io.js';
import { toJson } from './options.js';
import { withFleet } from './storedSessions.js';

const SQLITE_HEADER = 'SQLite format 3\u0000';

/** Whether `verify`'s argument is an export to check rather than a store: a file with a manifest, or named as a log is. */
export function isExportFile(path: string): boolean {
  if (!existsSync(path) || !statSync(path).isFile()) return false;
  const head = prefix(path, 4096);
  if (head.startsWith(SQLITE_HEADER)) return false;
  if (existsSync(`${path}.manifest.json`) || /\.(csv|tsv|jsonl|ndjson)$/i.test(path)) return true;
  return /^(\uFEFF)?\s*(# dicerig-manifest |\{"kind":"manifest")/.test(head);
}

function prefix(path: string, bytes: number): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0)).toString('latin1');
  } finally {
    closeSync(fd);
  }
}

/** What the original store says of the file: whether its chain reaches the export's head, and holds the same rows. */
interface StoreCheck {
  readonly db: string;
  readonly ok: boolean;
  readonly text: string;
}

export async function verifyExportFile(file: string, flags: { db?: string; json?: boolean }, io: CliIo): Promise<void> {
  const manifest = manifestOf(file);
  if (manifest === undefined) {
    throw new InputError('it carries no export manifest (no FILE.manifest.json beside it, no manifest line at its top): it is not a dicerig export, so there is nothing to check it against', { file });
  }
  const check = sealCheckOf(file, manifest);
  const head = typeof manifest.session['headHash'] === 'string' ? manifest.session['headHash'] : undefined;
  const throwCount = typeof manifest.session['throwCount'] === 'number' ? manifest.session['throwCount'] : undefined;
  const exported: Exported = { reviews: exportedReviews(manifest), timed: typeof manifest['formatVersion'] === 'number' && manifest['formatVersion'] >= TIMED_FORMAT_VERSION };
  const store = flags.db === undefined || head === undefined ? undefined : await againstStore(flags.db, file, head, check, exported, (note) => io.err(`dicerig: note: ${note}\n`));
  if (flags.json === true) {
    io.out(`${toJson({ file, ...check, differences: sealDifferences(check), session: { id: manifest.session.id, headHash: head, throwCount }, ...(store !== undefined ? { store } : {}) })}\n`);
  } else {
    const lines = [sealText(file, check, manifest)];
    if (store !== undefined) lines.push(store.text);
    else if (head !== undefined) {
      lines.push(
        `A seal catches changes and damage, not a forger who rewrites it too: to check the file against the store it came from, ` +
          `run dicerig verify ${shellWord(file)} --db STORE (that store's chain must reach head ${head}${throwCount !== undefined ? `, after throw ${throwCount}` : ''}), or dicerig verify --db STORE --expect ${head}.`,
      );
    }
    io.out(`${lines.join('\n')}\n`);
  }
  if (!check.ok || check.seal !== 'sealed' || store?.ok === false) io.setExitCode(1);
}

function sealText(file: string, check: SealCheck, manifest: ImportedManifest): string {
  const session = `session ${manifest.session.id ?? '?'}${typeof manifest.session.name === 'string' ? ` (${manifest.session.name})` : ''}`;
  if (check.seal === 'unsealed') {
    return `${file}: NOT SEALED: an export of ${session} made before exports were sealed; its ${formatCount(check.rows)} rows cannot be checked on their own.`;
  }
  if (check.ok) return `${file}: sealed, ${formatCount(check.rows)} rows, digest matches (the rows and manifest of ${session}'s export, unchanged).`;
  return [`${file}: EDITED: ${formatCount(check.rows)} rows; not the export of ${session} as sealed:`, ...sealDifferences(check).map((d) => `  ${d}`)].join('\n');
}

/** The file checked against a store: its chain reaches the export's head, and its session exports the file's rows. */
async function againstStore(db: string, file: string, head: string, check: SealCheck, exported: Exported, tell: (note: string) => void): Promise<StoreCheck> {
  if (isFleetUrl(db)) return againstFleet(db, file, head, check, exported);
  return withReadableStore(
    db,
    ({ store }) => {
      const report = store.verify();
      const at = store.findChainHead(head.toLowerCase());
      if (at === undefined) return { db, ok: false, text: `${db}: EXPECTED HEAD MISSING: no session's chain reaches the export's head ${head}: this store does not hold the rolls the file was exported from (another store, or its throws removed or changed).` };
      const chain = report.ok ? '' : ` But ${db} fails verification: run dicerig verify --db ${shellWord(db)}.`;
      return sameRows({ db, store, session: store.getSession(at.sessionId), name: `session ${at.sessionId}`, throwIndex: at.throwIndex, verified: report.ok, chain }, file, check, exported);
    },
    tell,
  );
}

/**
 * The file checked against the fleet store as against a local one: the fleet session whose chain reaches the export's
 * head (its rig host's chain, copied), read as its rig host stored it (a snapshot, verified), exported again.
 */
async function againstFleet(db: string, file: string, head: string, check: SealCheck, exported: Exported): Promise<StoreCheck> {
  return withFleet(db, async (fleet) => {
    const at = await findFleetChainHead(fleet, head);
    if (at === undefined) {
      return {
        db: fleet.where,
        ok: false,
        text: `${fleet.where}: EXPECTED HEAD MISSING: no fleet session's chain reaches the export's head ${head}: the fleet does not hold the rolls the file was exported from (not synced yet, still being copied, or its throws removed or changed; dicerig sessions --db URL lists what it holds).`,
      };
    }
    const opened = await openFleetSessions(fleet, [String(at.session.id)]);
    try {
      const { store, session, fleet: info } = opened.sources[0] as (typeof opened.sources)[number];
      const report = store.verify();
      const chain = report.ok ? '' : ` But what the fleet holds of it fails verification: run dicerig verify --db ${shellWord(fleet.where)}.`;
      return sameRows({ db: fleet.where, store, session, name: `fleet session ${info.id} (session ${info.localId} of ${info.originHost})`, throwIndex: at.throwIndex, verified: report.ok, chain }, file, check, exported);
    } finally {
      opened.close();
    }
  });
}

/** Whether the session that reaches the export's head, exported again now, has the file's rows (see againstStore). */
function sameRows(
  s: { db: string; store: RollStore; session: SessionRecord | undefined; name: string; throwIndex: number; verified: boolean; chain: string },
  file: string,
  check: SealCheck,
  exported: Exported,
): StoreCheck {
  const { db, session, name, throwIndex, verified, chain } = s;
  if (session === undefined || throwIndex !== session.throwCount) {
    return { db, ok: verified, text: `${db}: ${name} reaches the export's head (throw ${throwIndex} of ${session?.throwCount ?? '?'}); it rolled on after the export, so its rows now are not the file's to compare.${chain}` };
  }
  const format: ExportFormat = check.rows > 0 && jsonFile(file) ? 'jsonl' : 'csv';
  // In the file's own layout: an export made before rows carried their throw's time is compared without them.
  const fresh = exportSession(s.store, session, format, new Date(), { times: exported.timed }).manifest.seal;
  const same = fresh?.digest === check.digest;
  const since = same ? undefined : reviewsSince(s.store, session.id, exported.reviews);
  if (since !== undefined && since.after > 0) {
    // Labels given or corrected after the export change the rows a fresh export has: the two cannot be compared, as
    // for a session that rolled on. The seal alone says whether the file was changed.
    return {
      db,
      ok: verified,
      text: `${db}: REVIEWED SINCE: ${name} reaches the export's head (throw ${throwIndex}), and ${formatCount(since.after)} ${since.after === 1 ? 'review was' : 'reviews were'} made in the store after the export (labels given or corrected; the file has the first ${formatCount(since.exported)} of its ${formatCount(since.exported + since.after)}), so its rows now are not the file's to compare. To have the rolls as they are now, export the session again.${chain}`,
    };
  }
  return {
    db,
    ok: verified && same,
    text: same
      ? `${db}: ${name} reaches the export's head (throw ${throwIndex}) and exports the same ${formatCount(check.rows)} rows: the file holds the session's rolls.${chain}`
      : `${db}: ROWS DIFFER: ${name} reaches the export's head (throw ${throwIndex}), but exported now its rows are not the file's: ${since !== undefined ? `the store holds the export's ${formatCount(since.exported)} ${since.exported === 1 ? 'review' : 'reviews'} and none since, so the file was changed (its seal rewritten too, if it verified)` : 'the file was changed (its seal rewritten too, if it verified), or a label was given or corrected in the store since the export'}.${chain}`,
  };
}

/** What the file's manifest says of how it was exported: its reviews, and whether its rows carry their throw's time. */
interface Exported {
  readonly reviews: ExportedReviews | undefined;
  readonly timed: boolean;
}

/** The review chain head an export's manifest wrote down (absent in exports made before review chains had heads). */
interface ExportedReviews {
  readonly count: number;
  readonly head: string;
}

function exportedReviews(manifest: ImportedManifest): ExportedReviews | undefined {
  const { reviewCount, reviewsHead } = manifest.session as { reviewCount?: unknown; reviewsHead?: unknown };
  return typeof reviewCount === 'number' && typeof reviewsHead === 'string' ? { count: reviewCount, head: reviewsHead } : undefined;
}

/**
 * How many of the session's reviews the export had, and how many the store made after it; undefined when the store's
 * review chain does not pass through the export's head (its reviews are not the ones the file was exported with).
 */
function reviewsSince(store: RollStore, sessionId: number, reviews: ExportedReviews | undefined): { exported: number; after: number } | undefined {
  if (reviews === undefined) return undefined;
  const now = store.reviewLog.head(sessionId) ?? { count: 0, hash: '' };
  if (now.count < reviews.count) return undefined;
  if (reviews.count > 0) {
    const at = store.reviewLog.findHead(reviews.head);
    if (at === undefined || at.sessionId !== sessionId || at.reviewIndex !== reviews.count) return undefined;
  } else if (reviews.head !== '') return undefined;
  return { exported: reviews.count, after: now.count - reviews.count };
}

function jsonFile(file: string): boolean {
  const text = prefix(file, 1 << 16).replace(/^\uFEFF/, '');
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    return t.startsWith('{');
  }
  return false;
}
