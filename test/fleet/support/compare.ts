import pg from 'pg';
import { LocalRows } from '../../../src/fleet/localRows.js';

/** One throw with its rolls, keyed by its session's genesis hash and its index: what must be the same in the local and the fleet store. */
export type ThrowKey = string;

/** Every throw of a local roll store, as `genesis|idx|hash|status|rolls`. */
export function localThrows(path: string): ThrowKey[] {
  const local = LocalRows.open(path);
  try {
    return local.sessions().flatMap((s) => {
      const genesis = local.genesis(s.id) as string;
      return local.throws(s.id, 1, s.throwCount).map((t) => `${genesis}|${t.index}|${t.hash}|${t.status}|${JSON.stringify(t.rolls.map((r) => [r.dieLabel, r.faceId, r.symbol, r.cocked, r.seq]))}`);
    });
  } finally {
    local.close();
  }
}

/** Every throw the fleet store holds, in the same form, and how many roll rows it holds. */
export async function fleetThrows(url: string): Promise<ThrowKey[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query<{ genesis: string; idx: number; hash: string; status: string; rolls: unknown[] | null }>(
      `SELECT s.genesis, t.idx, t.hash, t.status,
              (SELECT json_agg(json_build_array(d.label, r.face_id, r.symbol, r.cocked, r.seq) ORDER BY r.seq) FROM rolls r JOIN dice d ON d.id = r.die_id WHERE r.throw_id = t.id) AS rolls
         FROM throws t JOIN sessions s ON s.id = t.session_id ORDER BY s.id, t.idx`,
    );
    return r.rows.map((x) => `${x.genesis}|${x.idx}|${x.hash}|${x.status}|${JSON.stringify(x.rolls ?? [])}`);
  } finally {
    await client.end();
  }
}

/** Row counts of the fleet store's tables. */
export async function fleetCounts(url: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const out: Record<string, number> = {};
    for (const t of ['sessions', 'throws', 'rolls', 'events', 'reviews', 'dice', 'rigs']) out[t] = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${t}`)).rows[0]?.n);
    return out;
  } finally {
    await client.end();
  }
}

/** How many sessions the fleet store holds (0 before anything made its tables). */
export async function fleetSessionCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    if (((await client.query<{ t: string | null }>("SELECT to_regclass('sessions') AS t")).rows[0]?.t ?? null) === null) return 0;
    return Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM sessions')).rows[0]?.n);
  } finally {
    await client.end();
  }
}

/** Sorted, so two stores holding the same throws compare equal whatever order they were copied in. */
export function sorted(keys: readonly ThrowKey[]): ThrowKey[] {
  return [...keys].sort();
}

/** Waits until the fleet store holds at least `min` throws (polling; a server that is down counts as none). */
export async function waitForFleetThrows(url: string, min: number, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    let n = 0;
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      n = Number((await client.query<{ n: string }>("SELECT CASE WHEN to_regclass('throws') IS NULL THEN 0 ELSE (SELECT count(*) FROM throws) END AS n")).rows[0]?.n);
    } catch {
      n = 0;
    } finally {
      await client.end().catch(() => undefined);
    }
    if (n >= min) return n;
    if (Date.now() > until) throw new Error(`the fleet store did not reach ${min} throws within ${timeoutMs} ms (it holds ${n})`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
