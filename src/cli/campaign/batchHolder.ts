/**
 * Whether this run may roll a campaign batch left open. A batch is rolled by the rig host and the local store that
 * claimed it, in one session: another host run with the same `--rig`, the same host started with another `--db`, or
 * a store that no longer holds the batch's session would roll its dice again beside that session, and both would
 * count. Such a run is refused, naming the holder and since when, unless the user says the holder is gone
 * (`--take-over`): then the claim moves here and the abandoned session no longer counts for the batch.
 */
import { formatCountOf } from '../../core/format.js';
import { boundSession, takeOverBatch, type BatchClaimant, type BoundSession } from '../../fleet/campaignClaims.js';
import type { Batch, CampaignRecord } from '../../fleet/campaignStore.js';
import type { FleetDb } from '../../fleet/connect.js';
import { CampaignClaimError } from '../../fleet/errors.js';
import { localBatchSessions, type LocalBatchSessions } from './localBatchSession.js';

export interface OpenBatch {
  readonly batch: Batch;
  readonly local: LocalBatchSessions;
  /** Said when the batch was taken over. */
  readonly notice?: string;
}

const at = (ms: number): string => new Date(ms).toISOString();

/** What the fleet holds of the batch's session, as a clause. */
function sessionClause(batch: Batch, bound: BoundSession | undefined): string {
  if (batch.genesis === null) return 'no session of it has been opened yet';
  if (bound === undefined) return 'its session has not been copied to the fleet store yet';
  return `its session has ${formatCountOf(bound.throwCount, 'throw')} in the fleet store, the last copied at ${at(bound.syncedAt)}`;
}

/** What giving up the batch's session costs, as a clause. */
function lossClause(bound: BoundSession | undefined): string {
  return bound === undefined || bound.throwCount === 0 ? 'its session no longer counts' : `the ${formatCountOf(bound.throwCount, 'throw')} of its session no longer count`;
}

function refusal(campaign: CampaignRecord, batch: Batch, me: BatchClaimant, holderStore: string | null, bound: BoundSession | undefined): CampaignClaimError {
  const where = { campaign: campaign.name, rig: batch.rig, batch: batch.id, host: batch.host, since: at(batch.claimedAt), ...(holderStore !== null ? { store: holderStore } : {}) };
  const what = `Batch ${batch.id} of campaign ${campaign.name} (rig ${batch.rig}: ${batch.dice.map((d) => d.label).join(', ')})`;
  const held = `${what} is held by ${batch.host === me.host ? `this host (${batch.host})` : `host ${batch.host}`}${holderStore !== null ? ` with the local store ${holderStore}` : ''}, since ${at(batch.claimedAt)}; ${sessionClause(batch, bound)}.`;
  const afresh = `add --take-over to abandon it and roll the batch afresh in ${me.store}: ${lossClause(bound)} for the batch.`;
  if (batch.host !== me.host) {
    return new CampaignClaimError(
      `${held} Rolling it here too would roll those dice twice and count them twice, so this run rolls nothing. If ${batch.host} is still rolling it, let it finish (or stop it there); if ${batch.host} or its store is gone for good, ${afresh}`,
      where,
    );
  }
  if (holderStore !== null && holderStore !== me.store) {
    return new CampaignClaimError(
      `${held} This run's local store ${me.store} does not hold that session, and starting the batch again here would count its dice twice. To go on with it, run again with --db ${holderStore}; if that store is lost, ${afresh}`,
      where,
    );
  }
  return new CampaignClaimError(
    `${held} But ${me.store} does not hold that session now (was the file replaced, or restored from a copy older than the session?), so this run rolls nothing. Put back the store that holds it and run again; if it is lost, ${afresh}`,
    where,
  );
}

/** The batch as this run may roll it, with its session in the local store; a CampaignClaimError when it is another's and `takeOver` is not given. */
export async function takeUpOpenBatch(fleet: FleetDb, url: string, campaign: CampaignRecord, batch: Batch, me: BatchClaimant, takeOver: boolean, now: () => number): Promise<OpenBatch> {
  const bound = batch.genesis === null ? undefined : await boundSession(fleet, url, batch.genesis);
  // A batch taken before claims named a store: the store its session came from, when the claiming host copied it.
  const holderStore = batch.store ?? (bound !== undefined && bound.originHost === batch.host ? bound.originDb : null);
  const local = localBatchSessions(me.store, campaign, batch, bound);
  const holder = batch.host === me.host && (holderStore === null || holderStore === me.store);
  // The session bound to the batch must be the one this store holds (by its genesis): else the file was replaced.
  if (holder && (batch.genesis === null || local.found?.genesis === batch.genesis)) return { batch, local };
  if (!takeOver) throw refusal(campaign, batch, me, holderStore, bound);
  const taken = await takeOverBatch(fleet, url, campaign, batch, me, now());
  const notice = `batch ${batch.id} was held by host ${batch.host}${holderStore !== null ? ` with the local store ${holderStore}` : ''} since ${at(batch.claimedAt)}; as --take-over asked, this run takes it over, and ${lossClause(bound)} for the batch.`;
  return { batch: taken, local: localBatchSessions(me.store, campaign, taken, undefined), notice };
}
