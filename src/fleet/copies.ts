/**
 * Fleet sessions that hold rolls another fleet session holds: an import (on any rig host) of an export of a session
 * the fleet has too. Each keeps its own chain, so the fleet stores both, but counted twice their rolls would multiply
 * a die's evidence (the product of two sessions' e-values for one set of rolls). Which one is a copy is worked out
 * whenever the fleet is read, not stored at sync, so the order the stores were synced in does not matter (the
 * original after its copy, or two hosts syncing at once) and a fleet synced before this check is read right too.
 *
 * An import's config names the sessions it holds the rolls of (`imported[].exportedSession`, and in an export of an
 * import the sessions that one named): the export's chain head, its throw count, its local id and start. It holds
 * the rolls of a fleet session whose chain reaches that head at that throw (proof), or, while the fleet holds fewer
 * of that session's throws than the export did, of the session with that local id and start time. Two imports that
 * name one exported session (it is not in the fleet) hold the same rolls: the one holding more throws counts (the
 * earlier fleet id on a tie). An import of files from several sessions, one of them in the fleet, is a copy too: it
 * is left out whole, and why says so naming the other files and how to count them (see otherFilesWords): the stored
 * session cannot tell their rolls from the copied ones (losing them costs power; counting the shared ones twice
 * would multiply their evidence).
 */
import type pg from 'pg';
import { importedEntries } from '../store/importedEdits.js';

/** A session an import's config names as one whose rolls it holds (an export's manifest session). */
export interface NamedExport {
  readonly id?: number;
  readonly startedAt?: number;
  readonly headHash?: string;
  readonly throwCount?: number;
}

/** What the fleet knows of a session to tell copies: its row, and for an import the config naming its exports. */
export interface CopyCandidate {
  readonly id: number;
  readonly origin: string;
  readonly localId: number;
  readonly originHost: string;
  readonly startedAt: number;
  readonly throwCount: number;
  /** An import's config (null for a rig session). */
  readonly configJson: string | null;
}

/** A fleet session left out of every judgement: `of` is the fleet session whose rolls count in its place; `why` says so in words. */
export interface CopyOf {
  readonly of: number;
  readonly why: string;
}

/** The exported sessions an imported session's config names, at any depth (an export of an import names those too). */
export function namedExports(configJson: string | null): NamedExport[] {
  return namedIn(importedEntries(configJson), 0);
}

/** The exported sessions these `imported` entries name, and those their exported sessions' configs name in turn. */
function namedIn(imported: readonly unknown[], depth: number): NamedExport[] {
  if (depth > 20) return [];
  return imported.flatMap((i: unknown) => {
    const s = (i as { exportedSession?: unknown } | null)?.exportedSession as Record<string, unknown> | null | undefined;
    if (typeof s !== 'object' || s === null) return [];
    const own: NamedExport = {
      ...(typeof s.id === 'number' ? { id: s.id } : {}),
      ...(typeof s.startedAt === 'number' ? { startedAt: s.startedAt } : {}),
      ...(typeof s.headHash === 'string' && s.headHash !== '' ? { headHash: s.headHash } : {}),
      ...(typeof s.throwCount === 'number' ? { throwCount: s.throwCount } : {}),
    };
    const deeper = (s.config as { imported?: unknown } | null | undefined)?.imported;
    return [own, ...(Array.isArray(deeper) ? namedIn(deeper, depth + 1) : [])];
  });
}

/** The files an import's config names, each with the exported sessions it holds the rolls of (its own, and those an export of an import named). */
function importedFiles(configJson: string | null): { file: string; names: NamedExport[] }[] {
  return importedEntries(configJson).map((i: unknown) => {
    const file = (i as { file?: unknown } | null)?.file;
    return { file: typeof file === 'string' ? file : '?', names: namedIn([i], 0) };
  });
}

/**
 * Said of a copy imported from several files, naming them: the fleet leaves the whole import out, the files that are
 * not a copy with it. The import stored them as one session (the files' throws one file after another, or for logs
 * without throws throw i holding the i-th roll of every die; a die in two files is one series), which keeps no record of which roll came from which file, so the copied rolls cannot be told
 * from the others' and counting the rest would count some of the copy's again.
 */
function otherFilesWords(configJson: string | null, copied: string): string {
  const files = importedFiles(configJson).map((f) => f.file);
  const others = files.filter((f) => f !== copied);
  if (others.length === 0) return '';
  const list = others.join(', ');
  return (
    `; the import stored ${copied} with ${list} as one session, which keeps no record of which rolls came from which file, so ${others.length === 1 ? "that file's" : "those files'"} rolls ` +
    `are left out with it: to count them, import ${list} on ${others.length === 1 ? 'its' : 'their'} own into a store that does not hold this import, and sync that store`
  );
}

/** Whether two names are of one exported session: the same chain head, or the same local id and start time. */
const sameExport = (a: NamedExport, b: NamedExport): boolean =>
  (a.headHash !== undefined && a.headHash === b.headHash) || (a.id !== undefined && a.id === b.id && a.startedAt !== undefined && a.startedAt === b.startedAt);

const label = (s: CopyCandidate): string => `fleet session ${s.id} (${s.originHost}:${s.localId})`;
const short = (hash: string): string => `${hash.slice(0, 12)}…`;

/** The (session, throw index) pairs whose hashes `findCopies` needs: where a named head would be in each session long enough. */
export function headProbes(sessions: readonly CopyCandidate[]): { sessionId: number; index: number }[] {
  const counts = new Set<number>();
  for (const s of sessions) for (const n of namedExports(s.configJson)) if (n.headHash !== undefined && n.throwCount !== undefined && n.throwCount > 0) counts.add(n.throwCount);
  const out: { sessionId: number; index: number }[] = [];
  for (const index of counts) for (const s of sessions) if (s.throwCount >= index) out.push({ sessionId: s.id, index });
  return out;
}

/**
 * The fleet sessions that are copies (see above), by fleet id. `hashAt`: the hash of a session's throw at an index,
 * for the pairs `headProbes` lists (undefined where the fleet has none).
 */
export function findCopies(sessions: readonly CopyCandidate[], hashAt: (sessionId: number, index: number) => string | undefined): Map<number, CopyOf> {
  const byId = new Map(sessions.map((s) => [s.id, s]));
  const imports = sessions.filter((s) => s.origin === 'import');
  // 1. Imports holding rolls of a session the fleet has (its chain reaches the export's head, or it is still arriving).
  const holds = new Map<number, { of: number; why: string }>();
  for (const i of imports) {
    for (const { file, names } of importedFiles(i.configJson)) for (const n of names) {
      if (holds.has(i.id)) break;
      const found = sessions.find((s) => {
        if (s.id === i.id) return false;
        if (n.headHash !== undefined && n.throwCount !== undefined && n.throwCount > 0 && s.throwCount >= n.throwCount) return hashAt(s.id, n.throwCount) === n.headHash;
        // The fleet holds fewer of its throws than the export did (still being copied): known by its id and start.
        return n.id === s.localId && n.startedAt === s.startedAt && (n.throwCount === undefined || s.throwCount < n.throwCount);
      });
      if (found === undefined) continue;
      const proof =
        n.headHash !== undefined && n.throwCount !== undefined && found.throwCount >= n.throwCount
          ? `its chain reaches the export's head ${short(n.headHash)} at throw ${n.throwCount}`
          : `the fleet holds ${found.throwCount} of the ${n.throwCount ?? '?'} throws the export had (its id and start match)`;
      holds.set(i.id, { of: found.id, why: `an import of an export of ${label(found)} (${file}: ${proof})${otherFilesWords(i.configJson, file)}` });
    }
  }
  const out = new Map<number, CopyOf>();
  // Resolved to the session that counts (a copy of a copy holds the first one's rolls); a cycle counts none of it as a copy.
  const counted = (id: number, seen: Set<number>): number | undefined => {
    const h = holds.get(id);
    if (h === undefined) return id;
    if (seen.has(id)) return undefined;
    seen.add(id);
    return counted(h.of, seen);
  };
  for (const [id, h] of holds) {
    const of = counted(h.of, new Set([id]));
    if (of === undefined || of === id) continue;
    const via = of !== h.of ? `, itself a copy of ${label(byId.get(of) as CopyCandidate)}` : '';
    out.set(id, { of, why: `${h.why}${via}` });
  }
  // 2. Imports of one exported session the fleet does not have: the one holding the most throws counts.
  const rest = imports.filter((i) => !holds.has(i.id)).sort((a, b) => b.throwCount - a.throwCount || a.id - b.id);
  const kept: CopyCandidate[] = [];
  for (const i of rest) {
    const names = namedExports(i.configJson);
    const twin = kept.find((k) => namedExports(k.configJson).some((a) => names.some((b) => sameExport(a, b))));
    if (twin === undefined) {
      kept.push(i);
      continue;
    }
    const shared = namedExports(twin.configJson).find((a) => names.some((b) => sameExport(a, b))) as NamedExport;
    const exported = `exported session ${shared.id ?? '?'}${shared.headHash !== undefined ? ` (chain head ${short(shared.headHash)})` : ''}`;
    out.set(i.id, { of: twin.id, why: `an import of ${exported}, as ${label(twin)} is, which holds as many of its throws or more` });
  }
  return out;
}

interface SessionRow {
  id: string | number;
  origin: string;
  local_id: number;
  origin_host: string;
  started_at: number;
  throw_count: number;
  config_json: string | null;
}

/** The copies among the fleet store's sessions (see `findCopies`), read in two queries. */
export async function fleetCopies(db: pg.Pool | pg.ClientBase): Promise<Map<number, CopyOf>> {
  const rows = (
    await db.query<SessionRow>(
      `SELECT id, origin, local_id, origin_host, started_at, throw_count, CASE WHEN origin = 'import' THEN config_json END AS config_json FROM sessions ORDER BY id`,
    )
  ).rows;
  if (!rows.some((r) => r.origin === 'import')) return new Map();
  const sessions: CopyCandidate[] = rows.map((r) => ({
    id: Number(r.id),
    origin: r.origin,
    localId: r.local_id,
    originHost: r.origin_host,
    startedAt: Number(r.started_at),
    throwCount: r.throw_count,
    configJson: r.config_json,
  }));
  const probes = headProbes(sessions);
  const hashes = new Map<string, string>();
  if (probes.length > 0) {
    const found = await db.query<{ session_id: string | number; idx: number; hash: string }>(
      'SELECT t.session_id, t.idx, t.hash FROM unnest($1::bigint[], $2::int[]) AS p(s, i) JOIN throws t ON t.session_id = p.s AND t.idx = p.i',
      [probes.map((p) => p.sessionId), probes.map((p) => p.index)],
    );
    for (const r of found.rows) hashes.set(`${Number(r.session_id)}:${r.idx}`, r.hash);
  }
  return findCopies(sessions, (s, i) => hashes.get(`${s}:${i}`));
}

/**
 * What `dicerig sync` says about the copies among the sessions it synced from one store (`host`, `db` as the fleet
 * records them): each of them that is a copy, and each whose rolls a copy elsewhere in the fleet holds.
 */
export async function copyNotes(db: pg.Pool | pg.ClientBase, origin: { readonly host: string; readonly db: string }): Promise<string[]> {
  const copies = await fleetCopies(db);
  if (copies.size === 0) return [];
  const rows = (await db.query<{ id: string | number; local_id: number; origin_host: string; origin_db: string }>('SELECT id, local_id, origin_host, origin_db FROM sessions')).rows;
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const ours = (id: number): boolean => byId.get(id)?.origin_host === origin.host && byId.get(id)?.origin_db === origin.db;
  const name = (id: number): string => {
    const r = byId.get(id);
    return r === undefined ? `fleet session ${id}` : ours(id) ? `session ${r.local_id} of ${origin.db} (fleet session ${id})` : `fleet session ${id} (${r.origin_host}:${r.local_id})`;
  };
  const notes: string[] = [];
  for (const [id, c] of copies) {
    if (ours(id)) notes.push(`${name(id)} is ${c.why}: the fleet keeps it, but counts those rolls once, in ${name(c.of)} (analyze and pool leave this one out beside it; sessions and the fleet page say it is a copy).`);
    else if (ours(c.of)) notes.push(`${name(id)} is ${c.why}: the fleet counts those rolls once, in ${name(c.of)}.`);
  }
  return notes;
}
