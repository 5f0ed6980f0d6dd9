import { InputError } from '../core/errors.js';
import type { ImportedManifest } from './manifest.js';
import type { SessionRecord } from './records.js';
import type { RollStore } from './rollStore.js';

/** A session as an export manifest (or an imported session's config) names it: enough to tell the same session again. */
interface NamedSession {
  readonly id?: number;
  readonly startedAt?: number;
  readonly headHash?: string;
}

/**
 * The sessions whose rolls an exported session holds: itself, and, when it was
 * itself imported, the sessions its config says it was imported from (at any depth).
 */
export function sessionsWithin(session: unknown): NamedSession[] {
  if (typeof session !== 'object' || session === null) return [];
  const s = session as { id?: unknown; startedAt?: unknown; headHash?: unknown; config?: unknown };
  const own: NamedSession = {
    ...(typeof s.id === 'number' ? { id: s.id } : {}),
    ...(typeof s.startedAt === 'number' ? { startedAt: s.startedAt } : {}),
    ...(typeof s.headHash === 'string' && s.headHash !== '' ? { headHash: s.headHash } : {}),
  };
  const imported = (s.config as { imported?: unknown } | null | undefined)?.imported;
  const nested = Array.isArray(imported) ? imported.flatMap((i: { exportedSession?: unknown } | null) => sessionsWithin(i?.exportedSession)) : [];
  return [own, ...nested];
}

/**
 * Whether two names are of one session: the same chain head (one export read
 * twice, as CSV and as JSON Lines, say), or the same session id and start time
 * (exports of one session before and after it was rolled on).
 */
function same(a: NamedSession, b: NamedSession): boolean {
  if (a.headHash !== undefined && a.headHash === b.headHash) return true;
  return a.id !== undefined && a.id === b.id && a.startedAt !== undefined && a.startedAt === b.startedAt;
}

function describe(s: NamedSession): string {
  return `those of exported session ${s.id ?? '?'}${s.headHash !== undefined ? ` (chain head ${s.headHash.slice(0, 12)}…)` : ''}`;
}

function sessionName(s: SessionRecord): string {
  return `session ${s.id}${s.name !== null ? ` (${s.name})` : ''}`;
}

/**
 * Refuses an import whose manifests name a session whose rolls are in the store
 * already (imported before, or recorded there: its chain reaches the head), or
 * that two of the files both hold: the rolls would count twice in every
 * analysis of the store. Files without a manifest are checked by their rolls (`refuseRollsStoredBefore`).
 */
export function refuseImportedBefore(store: RollStore, sources: readonly { readonly file: string; readonly manifest?: ImportedManifest }[]): void {
  refuseOneSessionTwice(sources, 'import one of the files');
  const stored = store.sessions().map((s) => ({ record: s, within: storedSessionsWithin(s) }));
  for (const source of sources) {
    if (source.manifest === undefined) continue;
    for (const named of sessionsWithin(source.manifest.session)) {
      const where = { file: source.file, line: 1 };
      const head = named.headHash !== undefined ? store.findChainHead(named.headHash) : undefined;
      const earlier = head !== undefined ? store.getSession(head.sessionId) : stored.find((s) => s.within.some((w) => same(w, named)))?.record;
      if (earlier !== undefined) {
        const how = earlier.origin === 'import' ? 'imported into this store before as' : 'which this store holds as';
        throw new InputError(`its rolls are ${describe(named)}, ${how} ${sessionName(earlier)}: importing them again would count them twice`, where);
      }
    }
  }
}

/** The sessions a stored session holds the rolls of: an imported one, those its files' manifests named; one recorded here, itself. */
function storedSessionsWithin(s: SessionRecord): NamedSession[] {
  if (s.origin !== 'import') return [{ id: s.id, startedAt: s.startedAt, headHash: s.headHash }];
  let config: unknown;
  try {
    config = JSON.parse(s.configJson) as unknown;
  } catch {
    return [];
  }
  return sessionsWithin({ config });
}

/**
 * Refuses roll-log files two of which hold one exported session's rolls (`analyze s1.csv s1.jsonl`: the same export
 * in two formats), by their manifests: the rolls would count twice. Files without a manifest cannot be told apart.
 * `advice`: what the user should do instead.
 */
export function refuseOneSessionTwice(sources: readonly { readonly file: string; readonly manifest?: ImportedManifest }[], advice = 'give one of the files'): void {
  const seen: { file: string; session: NamedSession }[] = [];
  for (const source of sources) {
    if (source.manifest === undefined) continue;
    for (const named of sessionsWithin(source.manifest.session)) {
      const again = seen.find((x) => x.file !== source.file && same(x.session, named));
      if (again !== undefined) {
        throw new InputError(`its rolls are ${describe(named)}, as are those of ${again.file}: ${advice}, or their rolls would count twice`, { file: source.file, line: 1 });
      }
      seen.push({ file: source.file, session: named });
    }
  }
}

/**
 * Refuses a roll-log file whose manifest names one of the stored sessions given beside it (`analyze e.csv 1`, where
 * e.csv is session 1's export): its rolls would count twice. `name` says how the session was given.
 */
export function refuseFileOfGivenSession(
  sources: readonly { readonly file: string; readonly manifest?: ImportedManifest }[],
  sessions: readonly { readonly record: SessionRecord; readonly name: string }[],
): void {
  for (const source of sources) {
    if (source.manifest === undefined) continue;
    for (const named of sessionsWithin(source.manifest.session)) {
      // The session itself, and (an imported one) the sessions its files were exports of.
      const given = sessions.find((g) => [{ id: g.record.id, startedAt: g.record.startedAt, headHash: g.record.headHash }, ...storedSessionsWithin(g.record)].some((w) => same(w, named)));
      if (given !== undefined) {
        throw new InputError(`its rolls are ${describe(named)}, which is also given as ${given.name}: give one of them, or their rolls would count twice`, { file: source.file, line: 1 });
      }
    }
  }
}
