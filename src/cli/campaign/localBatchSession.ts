/**
 * A campaign batch's session in this rig host's local store. It is found by what its config says it rolls (the
 * campaign's own id and the batch id), never by its name alone: a store that ran a campaign of the same name
 * against another fleet database, or before the fleet database was made again, holds sessions of the same names,
 * with other dice. A session from before campaign ids counts only if the fleet store has it bound to the batch
 * (copied from this store, under the same local id).
 */
import { existsSync } from 'node:fs';
import type { BoundSession } from '../../fleet/campaignClaims.js';
import type { Batch, CampaignRecord } from '../../fleet/campaignStore.js';
import { LocalRows } from '../../fleet/localRows.js';
import { bringForward, openStoreForReading } from '../../store/openStore.js';
import type { SessionRecord } from '../../store/records.js';

export interface LocalBatchSession {
  readonly session: SessionRecord;
  /** The genesis hash of its chain: the session's identity in the fleet store. */
  readonly genesis: string;
}

export interface LocalBatchSessions {
  /** The batch's session in this store, if it has one. */
  readonly found?: LocalBatchSession;
  /** The name a new session of the batch takes: the batch's, unless this store holds another session of that name. */
  readonly newName: string;
}

function rolledFor(configJson: string): { uid?: unknown; batch?: unknown; campaign?: unknown } {
  try {
    const c = JSON.parse(configJson) as { campaignUid?: unknown; campaignBatch?: unknown; campaign?: unknown };
    return { uid: c.campaignUid, batch: c.campaignBatch, campaign: c.campaign };
  } catch {
    return {};
  }
}

/** The batch's session in the store at `db`: the one the fleet has bound when it came from here, else the latest one rolled for this campaign's batch. */
export function localBatchSessions(db: string, campaign: CampaignRecord, batch: Batch, bound: BoundSession | undefined): LocalBatchSessions {
  if (!existsSync(db)) return { newName: batch.sessionName };
  // The rig rolls into this store: one of an older schema is brought forward here, as a run would, for LocalRows.
  bringForward(db);
  const opened = openStoreForReading(db);
  let sessions: SessionRecord[];
  try {
    sessions = opened.store.sessions();
  } finally {
    opened.close();
  }
  const boundHere = bound !== undefined && bound.originDb === db ? bound.localId : undefined;
  const ours = sessions.filter((s) => {
    const f = rolledFor(s.configJson);
    if (f.uid !== undefined) return f.uid === campaign.uid && f.batch === batch.id;
    return s.id === boundHere && f.campaign === campaign.name;
  });
  const pick = ours.find((s) => s.id === boundHere) ?? ours[ours.length - 1];
  const names = new Set(sessions.map((s) => s.name));
  let newName = batch.sessionName;
  // Session names are unique in a store: a name another campaign's session holds gets this campaign's id beside it.
  for (let n = 1; names.has(newName); n++) newName = `${batch.sessionName} [${campaign.uid.slice(0, 8)}${n > 1 ? `-${n}` : ''}]`;
  if (pick === undefined) return { newName };
  const rows = LocalRows.open(db);
  try {
    return { found: { session: pick, genesis: rows.genesis(pick.id) as string }, newName };
  } finally {
    rows.close();
  }
}
