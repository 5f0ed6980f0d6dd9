/**
 * Campaigns in the fleet store: create one from its plan, and read its legs,
 * batches, sessions and counted rolls back. Taking, holding and closing a
 * batch is campaignClaims.ts.
 *
 * A batch's session is the one its claim bound to it (`campaign_batches.genesis`,
 * the genesis hash of the session's chain): only that session's rolls count for
 * the batch, whatever other sessions share its name (another host run with the
 * same rig id, another local store, a campaign of the same name in another
 * fleet database).
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { checkCampaignName } from '../analysis/campaign/campaignName.js';
import { storedDieTypes } from '../dice/dieTypeData.js';
import type { DieType } from '../dice/types.js';
import { STANDING_REVIEW } from '../store/reviews.js';
import { configFacts } from './campaignOf.js';
import { fleetFailure, type FleetDb } from './connect.js';
import { FleetError } from './errors.js';

export interface CampaignLegRow {
  readonly label: string;
  readonly die: string;
  readonly rig: string;
  readonly step: number;
}

export interface CampaignRecord {
  readonly id: number;
  /** The campaign's own id: a name is reused (another fleet database, one made again), this is not. A batch's session carries it in its config. */
  readonly uid: string;
  readonly name: string;
  readonly createdAt: number;
  readonly settings: Record<string, unknown>;
}

/**
 * The definitions of the box's dice of the user's own, kept in the campaign's settings (`dieTypes`) when it was
 * made: its batches' sessions, its report and the fleet page judge them so, with no dice file at hand. None for a
 * campaign made before they were kept.
 */
export function campaignDieTypes(campaign: CampaignRecord): DieType[] {
  try {
    return storedDieTypes(campaign.settings);
  } catch (e) {
    throw new FleetError(`campaign "${campaign.name}": ${(e as Error).message.replace("the session's", 'its')}`, { campaign: campaign.name }, { cause: e });
  }
}

export interface LegStatus extends CampaignLegRow {
  readonly state: 'pending' | 'claimed' | 'done';
  readonly batchId: number | null;
}

export interface Batch {
  readonly id: number;
  readonly rig: string;
  /** The claim: the rig host rolling the batch, and its local store file (null in a batch taken before claims named it). */
  readonly host: string;
  readonly store: string | null;
  readonly claimedAt: number;
  /** The session that counts for the batch (the genesis hash of its chain), once the claiming store has opened it. */
  readonly genesis: string | null;
  readonly sessionName: string;
  readonly dice: readonly { readonly label: string; readonly die: string }[];
  readonly doneAt: number | null;
}

/** Chooses a rig's next legs from the pending ones it may take (their dice are free) and the legs done so far. */
export type PickLegs = (progress: readonly { leg: CampaignLegRow; state: 'pending' | 'done' }[]) => readonly CampaignLegRow[];

export function batchSessionName(campaign: string, rig: string, batchId: number): string {
  return `campaign ${campaign} rig ${rig} batch ${batchId}`;
}

/** Runs `work` in one transaction on a connection of its own; any failure rolls it back and is said as a fleet error. */
export async function inTransaction<T>(db: FleetDb, url: string, doing: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await db.pool.connect();
  } catch (e) {
    throw fleetFailure(e, db.where, url, doing);
  }
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw fleetFailure(e, db.where, url, doing);
  } finally {
    client.release();
  }
}

/** Creates the campaign with its box and legs; refuses a name already planned. */
export async function createCampaign(
  db: FleetDb,
  url: string,
  input: { name: string; settings: Record<string, unknown>; dice: readonly { label: string; die: string }[]; legs: readonly CampaignLegRow[]; now: number },
): Promise<CampaignRecord> {
  checkCampaignName(input.name);
  return inTransaction(db, url, `creating campaign ${input.name}`, async (client) => {
    // A campaign row may exist already from a synced session that named it; one with settings was created before.
    await client.query('INSERT INTO campaigns (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [input.name, input.now]);
    const row = (await client.query<{ id: number; settings_json: string | null; created_at: number }>('SELECT id, settings_json, created_at FROM campaigns WHERE name = $1 FOR UPDATE', [input.name])).rows[0]!;
    if (row.settings_json !== null) throw new FleetError(`The campaign "${input.name}" exists already in ${db.where}; choose another name, or see it with \`dicerig campaign status ${input.name}\`.`, { campaign: input.name });
    const uid = randomUUID();
    await client.query('UPDATE campaigns SET settings_json = $2, uid = $3 WHERE id = $1', [row.id, JSON.stringify(input.settings), uid]);
    await client.query(
      `INSERT INTO campaign_dice (campaign_id, label, type_id, position) SELECT $1, label, type_id, position FROM unnest($2::text[], $3::text[], $4::int[]) AS d(label, type_id, position)`,
      [row.id, input.dice.map((d) => d.label), input.dice.map((d) => d.die), input.dice.map((_, i) => i)],
    );
    await client.query(
      `INSERT INTO campaign_legs (campaign_id, label, rig, step, position) SELECT $1, label, rig, step, position FROM unnest($2::text[], $3::text[], $4::int[], $5::int[]) AS l(label, rig, step, position)`,
      [row.id, input.legs.map((l) => l.label), input.legs.map((l) => l.rig), input.legs.map((l) => l.step), input.legs.map((_, i) => i)],
    );
    return { id: row.id, uid, name: input.name, createdAt: row.created_at, settings: input.settings };
  });
}

/** The campaign by name; a FleetError naming the campaigns there are when there is none. */
export async function findCampaign(db: FleetDb, url: string, name: string): Promise<CampaignRecord> {
  try {
    const r = await db.pool.query<{ id: number; uid: string; name: string; created_at: number; settings_json: string }>(
      'SELECT id, uid, name, created_at, settings_json FROM campaigns WHERE name = $1 AND settings_json IS NOT NULL',
      [name],
    );
    const row = r.rows[0];
    if (row !== undefined) return { id: row.id, uid: row.uid, name: row.name, createdAt: row.created_at, settings: JSON.parse(row.settings_json) as Record<string, unknown> };
    const known = (await db.pool.query<{ name: string }>('SELECT name FROM campaigns WHERE settings_json IS NOT NULL ORDER BY id')).rows.map((x) => x.name);
    throw new FleetError(
      `There is no campaign "${name}" in ${db.where}${known.length > 0 ? `; campaigns: ${known.join(', ')}` : ''}. Create it with \`dicerig campaign create ${name} --dice box.csv --rigs N --db URL\`.`,
      { campaign: name },
    );
  } catch (e) {
    throw fleetFailure(e, db.where, url, `reading campaign ${name}`);
  }
}

/** Every leg of the campaign with its state, in plan order. */
export async function campaignLegs(db: FleetDb, url: string, campaignId: number): Promise<LegStatus[]> {
  try {
    const r = await db.pool.query<{ label: string; die: string; rig: string; step: number; state: LegStatus['state']; batch_id: number | null }>(
      `SELECT l.label, d.type_id AS die, l.rig, l.step, l.state, l.batch_id
         FROM campaign_legs l JOIN campaign_dice d ON d.campaign_id = l.campaign_id AND d.label = l.label
        WHERE l.campaign_id = $1 ORDER BY l.position`,
      [campaignId],
    );
    return r.rows.map((x) => ({ label: x.label, die: x.die, rig: x.rig, step: x.step, state: x.state, batchId: x.batch_id }));
  } catch (e) {
    throw fleetFailure(e, db.where, url, 'reading the campaign legs');
  }
}

/** A batch row with its dice (aggregated over its legs), as `BATCHES` selects it. */
interface BatchRow {
  id: number;
  rig: string;
  host: string;
  store: string | null;
  claimed_at: number;
  genesis: string | null;
  session_name: string;
  done_at: number | null;
  labels: string[];
  dice: string[];
}

/** Batches with their dice in leg order; the caller adds its WHERE (on b) before the GROUP BY. */
export const BATCHES = `SELECT b.id, b.rig, b.host, b.store, b.claimed_at, b.genesis, b.session_name, b.done_at,
              array_agg(l.label ORDER BY l.position) AS labels, array_agg(d.type_id ORDER BY l.position) AS dice
         FROM campaign_batches b
         JOIN campaign_legs l ON l.batch_id = b.id
         JOIN campaign_dice d ON d.campaign_id = l.campaign_id AND d.label = l.label`;

export function batchOf(x: BatchRow): Batch {
  return {
    id: x.id,
    rig: x.rig,
    host: x.host,
    store: x.store,
    claimedAt: x.claimed_at,
    genesis: x.genesis,
    sessionName: x.session_name,
    doneAt: x.done_at,
    dice: x.labels.map((label, i) => ({ label, die: x.dice[i] as string })),
  };
}

/** The batches `BATCHES` + `where` selects (with `params`), oldest first. */
export async function queryBatches(client: pg.ClientBase | pg.Pool, where: string, params: readonly unknown[]): Promise<Batch[]> {
  const r = await client.query<BatchRow>(`${BATCHES} WHERE ${where} GROUP BY b.id ORDER BY b.id`, [...params]);
  return r.rows.map(batchOf);
}

/** Every batch of the campaign (oldest first), with its dice. */
export async function campaignBatches(db: FleetDb, url: string, campaignId: number, rig?: string): Promise<Batch[]> {
  try {
    return await queryBatches(db.pool, 'b.campaign_id = $1 AND ($2::text IS NULL OR b.rig = $2)', [campaignId, rig ?? null]);
  } catch (e) {
    throw fleetFailure(e, db.where, url, 'reading the campaign batches');
  }
}

/** Counted rolls of the campaign's batches as the fleet holds them: one row per batch, die and symbol. */
export interface CampaignRollCount {
  readonly batchId: number;
  readonly rig: string;
  readonly fleetSession: number;
  readonly label: string;
  readonly die: string;
  readonly symbol: string;
  readonly count: number;
}

export interface CampaignSessionRow {
  readonly batchId: number;
  readonly rig: string;
  readonly sessionName: string;
  readonly fleetSession: number | null;
  readonly originHost: string | null;
  /** The rig host's store the session is in (its path there): where its reviews are given. */
  readonly originDb: string | null;
  readonly localId: number | null;
  readonly state: string | null;
  readonly throwCount: number;
  /** The fleet's chain head of the session: equal to the local one when every throw arrived. */
  readonly headHash: string | null;
  readonly verdictsJson: string | null;
}

/** Each batch's session as the fleet holds it: the one its claim bound (null columns until it is opened and copied). */
export async function campaignSessions(db: FleetDb, url: string, campaignId: number): Promise<CampaignSessionRow[]> {
  try {
    const r = await db.pool.query<{ id: number; rig: string; session_name: string; sid: number | null; origin_host: string | null; origin_db: string | null; local_id: number | null; state: string | null; throw_count: number | null; head_hash: string | null; verdicts_json: string | null }>(
      `SELECT b.id, b.rig, b.session_name, s.id AS sid, s.origin_host, s.origin_db, s.local_id, s.state, s.throw_count, s.head_hash, v.verdicts_json
         FROM campaign_batches b
         LEFT JOIN sessions s ON s.genesis = b.genesis
         LEFT JOIN session_verdicts v ON v.session_id = s.id
        WHERE b.campaign_id = $1 ORDER BY b.id`,
      [campaignId],
    );
    return r.rows.map((x) => ({ batchId: x.id, rig: x.rig, sessionName: x.session_name, fleetSession: x.sid, originHost: x.origin_host, originDb: x.origin_db, localId: x.local_id, state: x.state, throwCount: x.throw_count ?? 0, headHash: x.head_hash, verdictsJson: x.verdicts_json }));
  } catch (e) {
    throw fleetFailure(e, db.where, url, 'reading the campaign sessions');
  }
}

/** A session of the campaign that no batch counts (abandoned when `--take-over` rolled its batch afresh), and the rig it rolled on. */
export interface UncountedCampaignSession {
  readonly fleetSession: number;
  readonly rig: string;
}

/**
 * The campaign's sessions that count for no batch: they ran on one of its rigs, so a finding on that rig is theirs
 * too, though their rolls count for nothing in it. A session whose config names no campaign rig (one named by hand,
 * or from before campaigns named it) is not among them.
 */
export async function uncountedCampaignSessions(db: FleetDb, url: string, campaignId: number): Promise<UncountedCampaignSession[]> {
  try {
    const r = await db.pool.query<{ id: number; config_json: string }>(
      `SELECT s.id, s.config_json FROM sessions s
        WHERE s.campaign_id = $1
          AND NOT EXISTS (SELECT 1 FROM campaign_batches b WHERE b.campaign_id = $1 AND b.genesis = s.genesis)
        ORDER BY s.id`,
      [campaignId],
    );
    return r.rows.flatMap((x) => {
      const rig = configFacts(x.config_json).campaignRig;
      return rig === null ? [] : [{ fleetSession: x.id, rig }];
    });
  } catch (e) {
    throw fleetFailure(e, db.where, url, 'reading the campaign sessions no batch counts');
  }
}

/**
 * Every roll of a campaign's batches, with its batch (b), the session that counts for it (s), throw (t), die (d) and the face the answer that
 * stands gave it (rv, if any: not a "cannot tell"; a corrected label is superseded, and joined it would count twice).
 */
const CAMPAIGN_ROLLS = `FROM campaign_batches b
         JOIN sessions s ON s.genesis = b.genesis
         JOIN throws t ON t.session_id = s.id
         JOIN rolls r ON r.throw_id = t.id
         JOIN dice d ON d.id = r.die_id
         LEFT JOIN reviews rv ON rv.roll_id = r.id AND r.resolution = 'reviewed' AND ${STANDING_REVIEW}`;

/** Counted rolls (an ok throw, not cocked, read or reviewed) per batch, die and symbol, as the local store counts them. */
export async function campaignRollCounts(db: FleetDb, url: string, campaignId: number): Promise<CampaignRollCount[]> {
  try {
    const r = await db.pool.query<{ batch_id: number; rig: string; sid: number; label: string; die: string; symbol: string; n: number }>(
      `SELECT b.id AS batch_id, b.rig, s.id AS sid, d.label, d.type_id AS die, coalesce(r.symbol, rv.symbol) AS symbol, count(*)::int AS n
         ${CAMPAIGN_ROLLS}
        WHERE b.campaign_id = $1 AND t.status = 'ok' AND r.cocked = 0 AND coalesce(r.symbol, rv.symbol) IS NOT NULL
        GROUP BY b.id, b.rig, s.id, d.label, d.type_id, coalesce(r.symbol, rv.symbol)
        ORDER BY b.id, d.label, symbol`,
      [campaignId],
    );
    return r.rows.map((x) => ({ batchId: x.batch_id, rig: x.rig, fleetSession: x.sid, label: x.label, die: x.die, symbol: x.symbol, count: x.n }));
  } catch (e) {
    throw fleetFailure(e, db.where, url, 'reading the campaign rolls');
  }
}

/** Rolls of one die in one batch its reader left unresolved (declined, or the die not found) and nobody has labelled with a face. */
export interface CampaignUnresolvedCount {
  readonly batchId: number;
  readonly rig: string;
  readonly label: string;
  readonly count: number;
  /** Of them, those a person looked at and could not tell: still unresolved, no longer to review. */
  readonly cannotTell: number;
}

/** Unresolved rolls (an ok throw, the roll unresolved) per batch and die, as the local store holds them; those a person could not tell counted apart too. */
export async function campaignUnresolvedCounts(db: FleetDb, url: string, campaignId: number): Promise<CampaignUnresolvedCount[]> {
  try {
    const r = await db.pool.query<{ batch_id: number; rig: string; label: string; n: number; told: number }>(
      `SELECT b.id AS batch_id, b.rig, d.label, count(*)::int AS n,
              count(*) FILTER (WHERE EXISTS (SELECT 1 FROM reviews rv WHERE rv.roll_id = r.id AND ${STANDING_REVIEW}))::int AS told
         ${CAMPAIGN_ROLLS}
        WHERE b.campaign_id = $1 AND t.status = 'ok' AND r.resolution = 'unresolved'
        GROUP BY b.id, b.rig, d.label
        ORDER BY b.id, d.label`,
      [campaignId],
    );
    return r.rows.map((x) => ({ batchId: x.batch_id, rig: x.rig, label: x.label, count: x.n, cannotTell: x.told }));
  } catch (e) {
    throw fleetFailure(e, db.where, url, 'reading the campaign\'s unresolved rolls');
  }
}

/** Every planned campaign (oldest first), by name. */
export async function listCampaigns(db: FleetDb, url: string): Promise<string[]> {
  try {
    return (await db.pool.query<{ name: string }>('SELECT name FROM campaigns WHERE settings_json IS NOT NULL ORDER BY id')).rows.map((x) => x.name);
  } catch (e) {
    throw fleetFailure(e, db.where, url, 'listing its campaigns');
  }
}
