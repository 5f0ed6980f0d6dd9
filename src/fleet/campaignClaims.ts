/**
 * Taking, holding and closing a campaign batch in the fleet store.
 *
 * A batch is claimed by one rig host and one local store file on it: the dice it took are rolled in one session
 * of that store, and that session alone counts for the batch (its genesis hash, bound when the store opens it).
 * Every step checks the claim inside its own transaction, with the batch's row locked, so a host whose batch was
 * taken over meanwhile (`--take-over`) binds and closes nothing. Taking the next dice locks the free dice rows
 * (FOR UPDATE SKIP LOCKED) and marks them held in the same transaction, so two rigs never take the same die.
 */
import type pg from 'pg';
import { batchSessionName, inTransaction, queryBatches, type Batch, type CampaignLegRow, type CampaignRecord, type PickLegs } from './campaignStore.js';
import { fleetFailure, type FleetDb } from './connect.js';
import { CampaignClaimError, FleetError } from './errors.js';
import { checkHostName } from './hostName.js';

/** Who rolls a batch: the rig host as the fleet store records it, and its local store file (an absolute path). */
export interface BatchClaimant {
  readonly host: string;
  readonly store: string;
}

export type ClaimResult =
  /** The rig's batch left open, by this rig host or another: whose it is, the caller checks. */
  | { readonly kind: 'open'; readonly batch: Batch }
  | { readonly kind: 'batch'; readonly batch: Batch }
  /** The rig has legs left, but their dice are in other rigs now. */
  | { readonly kind: 'wait'; readonly pending: number }
  /** Nothing left for this rig. */
  | { readonly kind: 'done' };

/** Any key (the advisory locks of one rig's claims): "CAMP". */
const RIG_CLAIM_LOCK = 0x43414d50;

/**
 * The rig's open batch if it has one; else takes the next dice due for it: locks the free dice of its pending legs
 * (skipping rows another rig is locking this moment), lets `pick` choose, and marks the chosen dice held and their
 * legs claimed by a new batch, claimed by `by`.
 */
export async function claimNextBatch(db: FleetDb, url: string, campaign: CampaignRecord, rig: string, by: BatchClaimant, pick: PickLegs, now: number): Promise<ClaimResult> {
  checkHostName(by.host);
  return inTransaction(db, url, `taking the next dice for rig ${rig}`, async (client) => {
    // One claim of a rig at a time: two hosts started with the same --rig at once would each find no open batch and take one.
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [RIG_CLAIM_LOCK, `${campaign.id} ${rig}`]);
    const open = await queryBatches(client, 'b.campaign_id = $1 AND b.rig = $2 AND b.done_at IS NULL', [campaign.id, rig]);
    if (open[0] !== undefined) return { kind: 'open', batch: open[0] };
    const free = await client.query<CampaignLegRow>(
      `SELECT l.label, d.type_id AS die, l.rig, l.step
         FROM campaign_legs l JOIN campaign_dice d ON d.campaign_id = l.campaign_id AND d.label = l.label
        WHERE l.campaign_id = $1 AND l.rig = $2 AND l.state = 'pending' AND d.held_by IS NULL
        ORDER BY l.position
        FOR UPDATE OF d SKIP LOCKED`,
      [campaign.id, rig],
    );
    if (free.rows.length === 0) {
      const left = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM campaign_legs WHERE campaign_id = $1 AND rig = $2 AND state = 'pending'`, [campaign.id, rig]);
      const pending = left.rows[0]?.n ?? 0;
      return pending > 0 ? { kind: 'wait', pending } : { kind: 'done' };
    }
    const done = await client.query<CampaignLegRow>(
      `SELECT l.label, d.type_id AS die, l.rig, l.step FROM campaign_legs l JOIN campaign_dice d ON d.campaign_id = l.campaign_id AND d.label = l.label
        WHERE l.campaign_id = $1 AND l.state = 'done'`,
      [campaign.id],
    );
    const chosen = pick([...free.rows.map((leg) => ({ leg, state: 'pending' as const })), ...done.rows.map((leg) => ({ leg, state: 'done' as const }))]);
    if (chosen.length === 0) return { kind: 'wait', pending: free.rows.length };
    const inserted = await client.query<{ id: number }>(
      `INSERT INTO campaign_batches (campaign_id, rig, host, store, claimed_at, session_name) VALUES ($1, $2, $3, $4, $5, '') RETURNING id`,
      [campaign.id, rig, by.host, by.store, now],
    );
    const id = (inserted.rows[0] as { id: number }).id;
    const sessionName = batchSessionName(campaign.name, rig, id);
    await client.query('UPDATE campaign_batches SET session_name = $2 WHERE id = $1', [id, sessionName]);
    const labels = chosen.map((l) => l.label);
    await client.query('UPDATE campaign_dice SET held_by = $3 WHERE campaign_id = $1 AND label = ANY($2::text[])', [campaign.id, labels, rig]);
    await client.query(`UPDATE campaign_legs SET state = 'claimed', batch_id = $4 WHERE campaign_id = $1 AND rig = $2 AND label = ANY($3::text[])`, [campaign.id, rig, labels, id]);
    return { kind: 'batch', batch: { id, rig, host: by.host, store: by.store, claimedAt: now, genesis: null, sessionName, doneAt: null, dice: chosen.map((l) => ({ label: l.label, die: l.die })) } };
  });
}

/** The session bound to a batch as the fleet store holds it: where it came from, how far it got, when it was last copied to. */
export interface BoundSession {
  readonly originHost: string;
  readonly originDb: string;
  readonly localId: number;
  readonly name: string | null;
  readonly state: string;
  readonly throwCount: number;
  readonly syncedAt: number;
}

/** The fleet's copy of the session with this genesis, if it has one. */
export async function boundSession(db: FleetDb, url: string, genesis: string): Promise<BoundSession | undefined> {
  try {
    const r = await db.pool.query<BoundSession>(
      `SELECT origin_host AS "originHost", origin_db AS "originDb", local_id AS "localId", name, state, throw_count AS "throwCount", synced_at AS "syncedAt" FROM sessions WHERE genesis = $1`,
      [genesis],
    );
    return r.rows[0];
  } catch (e) {
    throw fleetFailure(e, db.where, url, 'reading the session of a batch');
  }
}

interface ClaimRow {
  host: string;
  store: string | null;
  claimed_at: number;
  genesis: string | null;
  done_at: number | null;
  rig: string;
}

async function lockBatch(client: pg.ClientBase, campaign: CampaignRecord, batchId: number): Promise<ClaimRow> {
  const r = await client.query<ClaimRow>('SELECT host, store, claimed_at, genesis, done_at, rig FROM campaign_batches WHERE id = $1 AND campaign_id = $2 FOR UPDATE', [batchId, campaign.id]);
  const row = r.rows[0];
  if (row === undefined) throw new FleetError(`Campaign ${campaign.name} has no batch ${batchId}.`, { campaign: campaign.name, batch: batchId });
  return row;
}

const holderOf = (row: ClaimRow): string => `host ${row.host}${row.store !== null ? ` with the local store ${row.store}` : ''} (since ${new Date(row.claimed_at).toISOString()})`;

/** The claim is `by`'s: its host, and its store (a batch taken before claims named a store is any store's of that host). */
function checkHeld(row: ClaimRow, campaign: CampaignRecord, batchId: number, by: BatchClaimant, doing: string): void {
  const where = { campaign: campaign.name, rig: row.rig, batch: batchId, host: row.host, ...(row.store !== null ? { store: row.store } : {}) };
  if (row.done_at !== null) throw new CampaignClaimError(`Batch ${batchId} of campaign ${campaign.name} was closed already (at ${new Date(row.done_at).toISOString()}); ${doing} changes nothing.`, where);
  if (row.host !== by.host || (row.store !== null && row.store !== by.store)) {
    throw new CampaignClaimError(
      `Batch ${batchId} of campaign ${campaign.name} is now held by ${holderOf(row)}, not by host ${by.host} with ${by.store} (it was taken over): ${doing} was refused, and this session's rolls do not count for the batch.`,
      where,
    );
  }
}

/**
 * Takes a batch over from its holder, whom the user says is gone: the claim becomes `by`'s and the session bound to
 * it no longer counts (the one `by` opens will). `seen` is the batch as the user was told of it: if its claim
 * changed since, nothing is taken.
 */
export async function takeOverBatch(db: FleetDb, url: string, campaign: CampaignRecord, seen: Batch, by: BatchClaimant, now: number): Promise<Batch> {
  return inTransaction(db, url, `taking over batch ${seen.id}`, async (client) => {
    const row = await lockBatch(client, campaign, seen.id);
    if (row.done_at !== null || row.host !== seen.host || row.store !== seen.store || row.genesis !== seen.genesis || row.claimed_at !== seen.claimedAt) {
      throw new CampaignClaimError(`Batch ${seen.id} of campaign ${campaign.name} changed hands while it was being taken over (now: ${row.done_at !== null ? 'closed' : holderOf(row)}); nothing was taken: run again to see who holds it.`, {
        campaign: campaign.name,
        rig: row.rig,
        batch: seen.id,
        host: row.host,
      });
    }
    await client.query('UPDATE campaign_batches SET host = $2, store = $3, claimed_at = $4, genesis = NULL, session_name = $5 WHERE id = $1', [seen.id, by.host, by.store, now, batchSessionName(campaign.name, row.rig, seen.id)]);
    return (await queryBatches(client, 'b.id = $1', [seen.id]))[0] as Batch;
  });
}

/**
 * Binds the session `by` opened for the batch (its genesis hash and local name): from now on its rolls are the
 * batch's. Refused when the claim is no longer `by`'s, or another session is bound already.
 */
export async function bindBatchSession(db: FleetDb, url: string, campaign: CampaignRecord, batchId: number, by: BatchClaimant, session: { readonly genesis: string; readonly name: string }): Promise<void> {
  await inTransaction(db, url, `binding the session of batch ${batchId}`, async (client) => {
    const row = await lockBatch(client, campaign, batchId);
    checkHeld(row, campaign, batchId, by, `starting session "${session.name}" for it`);
    if (row.genesis !== null && row.genesis !== session.genesis) {
      throw new CampaignClaimError(
        `Batch ${batchId} of campaign ${campaign.name} is being rolled in another session of ${by.store} (on ${row.host}); session "${session.name}" does not count for it and rolls nothing.`,
        { campaign: campaign.name, rig: row.rig, batch: batchId, host: row.host, store: by.store },
      );
    }
    await client.query('UPDATE campaign_batches SET store = $2, genesis = $3, session_name = $4 WHERE id = $1', [batchId, by.store, session.genesis, session.name]);
  });
}

/** The dice a session's stored config rolls, and the campaign batch it names (absent in sessions from before campaign ids). */
function sessionFacts(configJson: string): { dice: string[]; campaignUid?: unknown; campaignBatch?: unknown } {
  try {
    const c = JSON.parse(configJson) as { dice?: { label?: unknown; type?: unknown }[]; campaignUid?: unknown; campaignBatch?: unknown };
    const dice = Array.isArray(c.dice) ? c.dice.map((d) => `${String(d?.label)} (${String(d?.type)})`) : [];
    return { dice, campaignUid: c.campaignUid, campaignBatch: c.campaignBatch };
  } catch {
    return { dice: [] };
  }
}

/**
 * Closes a batch: its legs done, its dice free for the next rig. Only `by`, the claim's holder, closes it, and only
 * with the session bound to it finished, copied whole, and holding exactly the batch's dice. Closing it twice
 * changes nothing.
 */
export async function completeBatch(db: FleetDb, url: string, campaign: CampaignRecord, batchId: number, by: BatchClaimant, now: number): Promise<void> {
  await inTransaction(db, url, `closing batch ${batchId}`, async (client) => {
    const row = await lockBatch(client, campaign, batchId);
    if (row.done_at !== null) return;
    checkHeld(row, campaign, batchId, by, 'closing it');
    const where = { campaign: campaign.name, rig: row.rig, batch: batchId, host: by.host, store: by.store };
    const refuse = (why: string): never => {
      throw new CampaignClaimError(`Batch ${batchId} of campaign ${campaign.name} stays open: ${why}.`, where);
    };
    if (row.genesis === null) refuse('no session of it has been opened');
    const s = (await client.query<{ state: string; config_json: string; name: string | null }>('SELECT state, config_json, name FROM sessions WHERE genesis = $1', [row.genesis])).rows[0];
    if (s === undefined) return refuse('its session is not in the fleet store yet');
    if (s.state !== 'finished') refuse(`its session "${s.name ?? ''}" is ${s.state} in the fleet store, not finished`);
    const facts = sessionFacts(s.config_json);
    if (facts.campaignUid !== undefined && (facts.campaignUid !== campaign.uid || facts.campaignBatch !== batchId)) refuse(`session "${s.name ?? ''}" was rolled for another campaign or batch`);
    const legs = await client.query<{ label: string; die: string }>(
      'SELECT l.label, d.type_id AS die FROM campaign_legs l JOIN campaign_dice d ON d.campaign_id = l.campaign_id AND d.label = l.label WHERE l.batch_id = $1',
      [batchId],
    );
    const want = legs.rows.map((l) => `${l.label} (${l.die})`).sort();
    const got = [...facts.dice].sort();
    if (want.join('\n') !== got.join('\n')) refuse(`session "${s.name ?? ''}" rolled ${got.join(', ') || 'no dice'}, not the batch's ${want.join(', ')}`);
    await client.query('UPDATE campaign_batches SET done_at = $2 WHERE id = $1', [batchId, now]);
    await client.query(`UPDATE campaign_legs SET state = 'done' WHERE batch_id = $1`, [batchId]);
    await client.query('UPDATE campaign_dice SET held_by = NULL WHERE campaign_id = $1 AND label IN (SELECT label FROM campaign_legs WHERE batch_id = $2)', [campaign.id, batchId]);
  });
}
