import type pg from 'pg';
import { configFacts } from './campaignOf.js';
import type { LocalRig, LocalRows, LocalSession } from './localRows.js';

/** The fleet's row of a local session, locked for the batch (what the fleet already holds of it). */
export interface FleetSessionState {
  readonly id: number;
  readonly throwCount: number;
  readonly headHash: string;
  readonly eventCount: number;
  readonly eventsHead: string;
  readonly reviewCount: number;
  readonly reviewsHead: string | null;
  readonly verdictsAt: number | null;
  readonly verdictsJson: string | null;
}

/** Where a session came from, for the fleet's rows and messages. */
export interface Origin {
  readonly host: string;
  readonly db: string;
}

/** The rig row (first-class: one per rig id across the fleet) and the setup row (the rig's identity as the session's chain hashes it). */
async function ensureRig(client: pg.ClientBase, rig: LocalRig, camera: string | null, at: number): Promise<number> {
  await client.query(
    `INSERT INTO rigs (id, firmware, camera, calibration_hash, first_seen, last_seen) VALUES ($1, $2, $3, $4, $5, $5)
     ON CONFLICT (id) DO UPDATE SET
       firmware = CASE WHEN excluded.last_seen >= coalesce(rigs.last_seen, 0) THEN excluded.firmware ELSE rigs.firmware END,
       camera = CASE WHEN excluded.last_seen >= coalesce(rigs.last_seen, 0) THEN coalesce(excluded.camera, rigs.camera) ELSE rigs.camera END,
       calibration_hash = CASE WHEN excluded.last_seen >= coalesce(rigs.last_seen, 0) THEN excluded.calibration_hash ELSE rigs.calibration_hash END,
       first_seen = least(coalesce(rigs.first_seen, excluded.first_seen), excluded.first_seen),
       last_seen = greatest(coalesce(rigs.last_seen, excluded.last_seen), excluded.last_seen)`,
    [rig.rigKey, rig.firmware, camera, rig.calibrationHash, at],
  );
  const key = [rig.rigKey, rig.driver, rig.firmware, rig.protocol, rig.configHash, rig.calibrationHash, rig.tumbler];
  await client.query(
    `INSERT INTO rig_setups (rig_id, driver, firmware, protocol, config_hash, calibration_hash, tumbler, port) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (rig_id, driver, firmware, protocol, config_hash, calibration_hash, tumbler) DO NOTHING`,
    [...key, rig.port],
  );
  const found = await client.query<{ id: number }>(
    'SELECT id FROM rig_setups WHERE rig_id = $1 AND driver = $2 AND firmware = $3 AND protocol = $4 AND config_hash = $5 AND calibration_hash = $6 AND tumbler = $7',
    key,
  );
  return (found.rows[0] as { id: number }).id;
}

/**
 * The fleet's campaign of a session. A session rolled for a campaign batch names the campaign's own id (uid): it
 * belongs to that campaign only, and in a fleet store that has not planned it (a local store that ran a campaign of
 * the same name against another fleet database, or before this one was made again) to none. An older session, or
 * one whose config names a campaign by hand, is known by the name alone.
 */
async function ensureCampaign(client: pg.ClientBase, facts: { campaign: string; campaignUid: string | null }, at: number): Promise<number | null> {
  if (facts.campaignUid !== null) return (await client.query<{ id: number }>('SELECT id FROM campaigns WHERE uid = $1', [facts.campaignUid])).rows[0]?.id ?? null;
  await client.query('INSERT INTO campaigns (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [facts.campaign, at]);
  return ((await client.query<{ id: number }>('SELECT id FROM campaigns WHERE name = $1', [facts.campaign])).rows[0] as { id: number }).id;
}

/**
 * The fleet's row of a local session, created on its first copy (with its rig
 * and campaign) and locked FOR UPDATE until the batch's transaction ends, so
 * two replicators of one store never copy the same throws at once.
 */
export async function lockFleetSession(client: pg.ClientBase, local: LocalRows, s: LocalSession, genesis: string, origin: Origin, now: number): Promise<FleetSessionState> {
  const existing = await client.query<{ id: number }>('SELECT id FROM sessions WHERE genesis = $1', [genesis]);
  if (existing.rows.length === 0) {
    const facts = configFacts(s.configJson);
    const rig = s.rigId === null ? undefined : local.rig(s.rigId);
    const setup = rig === undefined ? null : await ensureRig(client, rig, facts.camera, s.startedAt);
    const campaign = facts.campaign === null ? null : await ensureCampaign(client, { campaign: facts.campaign, campaignUid: facts.campaignUid }, s.startedAt);
    await client.query(
      `INSERT INTO sessions (genesis, origin_host, origin_db, local_id, local_rig_id, rig_setup_id, rig_id, campaign_id, name, origin, kind, config_json,
                             software_version, simulated, started_at, state, chain_version, head_hash, synced_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 'running', $16, $1, $17)
       ON CONFLICT (genesis) DO NOTHING`,
      [genesis, origin.host, origin.db, s.id, s.rigId, setup, rig?.rigKey ?? null, campaign, s.name, s.origin, s.kind, s.configJson, s.softwareVersion, s.simulated, s.startedAt, s.chainVersion, now],
    );
  }
  const row = await client.query<FleetSessionState>(
    `SELECT s.id, s.throw_count AS "throwCount", s.head_hash AS "headHash", s.event_count AS "eventCount", s.events_head AS "eventsHead",
            s.review_count AS "reviewCount", v.at AS "verdictsAt", v.verdicts_json AS "verdictsJson",
            (SELECT hash FROM reviews WHERE session_id = s.id ORDER BY n DESC LIMIT 1) AS "reviewsHead"
       FROM sessions s LEFT JOIN session_verdicts v ON v.session_id = s.id
      WHERE s.genesis = $1 FOR UPDATE OF s`,
    [genesis],
  );
  return row.rows[0] as FleetSessionState;
}
