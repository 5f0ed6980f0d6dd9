/**
 * One rig host's part of a campaign (`dicerig campaign run NAME --rig ID`):
 * take the next dice due from the fleet store, roll them in a local session
 * (its own SQLite store, one transaction a throw, as every session), copy the
 * session to the fleet store, close the batch, and take the next, until the
 * rig has nothing left.
 *
 * Crash-safe by construction: a batch stays open in the fleet store until
 * its session is finished and synced. On start the rig first finishes its
 * open batch: its local session is resumed where it stopped (or started, if
 * the crash came before it was created), or, if it had finished, only synced;
 * syncing is idempotent, so nothing is lost or counted twice.
 *
 * One batch, one roller: a batch is claimed by the rig host and local store
 * that took it, and its session is bound to it in the fleet store as soon as
 * it opens (before its first throw); only that session counts for it. Another
 * host or store finding the batch open is refused (batchHolder.ts) unless told
 * the holder is gone (`--take-over`).
 */
import { hostname } from 'node:os';
import { nextDiceDue, rigIds, type LegState } from '../../analysis/campaign/campaignPlan.js';
import { formatCountOf, shellWord } from '../../core/format.js';
import { InputError } from '../../core/errors.js';
import { bindBatchSession, claimNextBatch, completeBatch, type BatchClaimant } from '../../fleet/campaignClaims.js';
import { campaignDieTypes, findCampaign, type CampaignRecord } from '../../fleet/campaignStore.js';
import { openFleet, type FleetDb } from '../../fleet/connect.js';
import { LocalRows } from '../../fleet/localRows.js';
import { syncStore } from '../../fleet/replicate.js';
import type { SessionConfig } from '../../session/config.js';
import type { SessionResult } from '../../session/runner.js';
import type { CliIo } from '../io.js';
import { batchSessionConfig } from './batchConfig.js';
import { BATCH_CATCH_UP, closeWhenFleetAnswers } from './closeBatch.js';
import { takeUpOpenBatch, type OpenBatch } from './batchHolder.js';
import { localBatchSessions } from './localBatchSession.js';
import { waitUnlessStopped } from './stoppableWait.js';

/**
 * How a batch's session is run and shown (the `run` command's runWithProgress: passed in, so `run --campaign` and this loop do not import
 * each other). `onOpened` runs once the session is open, before its first throw; if it throws, the session rolls nothing.
 */
export type BatchSessionRunner = (
  config: SessionConfig,
  db: string,
  flags: { readonly resume?: string; readonly takeOver?: boolean; readonly fleet: string; readonly host: string; readonly onOpened: (sessionId: number) => Promise<void>; readonly fleetLater: string },
) => Promise<SessionResult>;

export interface RigLoopOptions {
  readonly runSession: BatchSessionRunner;
  readonly url: string;
  readonly campaign: string;
  readonly rig: string;
  /** Local roll store (an absolute path: with the host, it is the claim on a batch). */
  readonly db: string;
  readonly host?: string;
  /** Take the rig's open batch over from the host or store holding it, which the user says is gone. */
  readonly takeOver?: boolean;
  readonly seed: number;
  readonly base?: SessionConfig;
  readonly rigBias?: { readonly symbol: string; readonly excess: number };
  /** Simulated camera only: this rig's camera cannot read this D6 face. */
  readonly unreadableFace?: string;
  /** How long to wait before asking again when this rig's dice are all in other rigs. */
  readonly pollMs: number;
  /** This command again, said when the rig host is stopped while it waits. */
  readonly again: string;
  /** Stop after this many batches (default: until the rig has nothing left). */
  readonly maxBatches?: number;
  /** Waits between tries to close a batch while the fleet store does not answer (default: CLOSE_RETRY_MS). */
  readonly closeRetryMs?: readonly number[];
}

export interface RigLoopResult {
  readonly batches: number;
  readonly state: 'done' | 'stopped' | 'aborted' | 'batch-limit';
}

async function syncLocal(db: string, fleet: FleetDb, host: string): Promise<void> {
  const local = LocalRows.open(db);
  try {
    await syncStore(local, fleet, { host });
  } finally {
    local.close();
  }
}

/** The session's identity in the fleet store (its chain's genesis hash) and its name, read from the local store. */
function sessionIdentity(db: string, sessionId: number): { genesis: string; name: string } {
  const rows = LocalRows.open(db);
  try {
    return { genesis: rows.genesis(sessionId) as string, name: rows.session(sessionId)?.name ?? '' };
  } finally {
    rows.close();
  }
}

/** The rig host's last line, and as `run`, exit status 130 when the user stopped it (a session's own stop has set it already). */
export function sayRigLoopEnd(io: CliIo, rig: string, result: RigLoopResult): void {
  io.err(`Rig ${rig}: ${result.batches} batch${result.batches === 1 ? '' : 'es'} rolled and synced (${result.state}).\n`);
  if (result.state === 'stopped') io.setExitCode(130);
}

export async function runCampaignRig(io: CliIo, options: RigLoopOptions): Promise<RigLoopResult> {
  const host = options.host ?? hostname();
  const me: BatchClaimant = { host, store: options.db };
  const fleet = await openFleet(options.url);
  try {
    const campaign = await findCampaign(fleet, options.url, options.campaign);
    const settings = campaign.settings as { rigs: number; channels: number; rollsPerLeg: number };
    const rigs = rigIds(settings.rigs);
    if (!rigs.includes(options.rig)) throw new InputError(`--rig ${options.rig}: campaign ${campaign.name} has rigs ${rigs.join(', ')}`);
    // --take-over is for the batch held when this run starts: one another host claims later is never taken from it.
    let takeOver = options.takeOver === true;
    let batches = 0;
    for (;;) {
      if (options.maxBatches !== undefined && batches >= options.maxBatches) return { batches, state: 'batch-limit' };
      const claim = await claimNextBatch(fleet, options.url, campaign, options.rig, me, (progress) => nextDiceDue(progress.map((p) => ({ leg: p.leg, state: p.state as LegState })), options.rig, settings.channels), Date.now());
      if (claim.kind === 'done') {
        io.err(`Rig ${options.rig}: nothing left to roll in campaign ${campaign.name}.\n`);
        return { batches, state: 'done' };
      }
      if (claim.kind === 'wait') {
        // Listening before the line is said: a stop sent on seeing it must find the wait's handlers in place.
        const waited = waitUnlessStopped(options.pollMs);
        io.err(`Rig ${options.rig}: ${claim.pending} ${claim.pending === 1 ? 'die' : 'dice'} due here ${claim.pending === 1 ? 'is' : 'are'} in other rigs now; asking again in ${options.pollMs} ms.\n`);
        takeOver = false;
        const signal = await waited;
        if (signal !== undefined) {
          io.err(`Rig ${options.rig}: stopped while waiting for dice (${signal}); it held no batch, so nothing is left open. To go on: ${options.again}\n`);
          return { batches, state: 'stopped' };
        }
        continue;
      }
      let open: OpenBatch;
      if (claim.kind === 'open') {
        open = await takeUpOpenBatch(fleet, options.url, campaign, claim.batch, me, takeOver, Date.now);
        if (open.notice !== undefined) io.err(`Rig ${options.rig}: ${open.notice}\n`);
      } else {
        open = { batch: claim.batch, local: localBatchSessions(options.db, campaign, claim.batch, undefined) };
      }
      const state = await rollBatch(io, options, fleet, campaign, open, me, settings.rollsPerLeg, claim.kind === 'open', takeOver);
      takeOver = false;
      if (state !== 'finished') return { batches, state };
      batches++;
    }
  } finally {
    await fleet.close();
  }
}

async function rollBatch(
  io: CliIo,
  options: RigLoopOptions,
  fleet: FleetDb,
  campaign: CampaignRecord,
  open: OpenBatch,
  me: BatchClaimant,
  rollsPerLeg: number,
  reopened: boolean,
  takeOver: boolean,
): Promise<'finished' | 'stopped' | 'aborted'> {
  const { batch, local } = open;
  const found = local.found;
  const dice = batch.dice.map((d) => d.label).join(', ');
  const doing = found === undefined ? 'starting it' : found.session.state === 'finished' ? 'its session had ended; syncing it' : `resuming its session (${formatCountOf(found.session.throwCount, 'throw')} so far)`;
  io.err(`Rig ${options.rig}: batch ${batch.id} (${dice})${reopened ? `, left open by an earlier run: ${doing}` : ''}.\n`);
  if (found === undefined || found.session.state !== 'finished') {
    const name = found?.session.name ?? local.newName;
    if (found === undefined && name !== batch.sessionName) {
      io.err(`Rig ${options.rig}: ${options.db} already holds a session named "${batch.sessionName}" of another campaign ${campaign.name} (another fleet store's, or one made before this one); this batch's session is "${name}".\n`);
    }
    const config = batchSessionConfig(
      { campaign: campaign.name, campaignUid: campaign.uid, rig: options.rig, sessionName: name, batchId: batch.id, dice: batch.dice, rollsPerLeg, dieTypes: campaignDieTypes(campaign), seed: options.seed, ...(options.rigBias ? { rigBias: options.rigBias } : {}), ...(options.unreadableFace !== undefined ? { unreadableFace: options.unreadableFace } : {}) },
      options.base,
    );
    // Bound before the first throw: from then on this session, and no other, counts for the batch (the claim is checked again).
    const onOpened = async (sessionId: number): Promise<void> => bindBatchSession(fleet, options.url, campaign, batch.id, me, sessionIdentity(options.db, sessionId));
    // --fleet: the session's throws are copied while it runs, so `campaign status` shows them.
    // Replication's shortfall is this loop's to make up: it copies the session before the batch closes.
    const result = await options.runSession(config, options.db, { fleet: options.url, host: me.host, onOpened, fleetLater: BATCH_CATCH_UP, ...(found !== undefined ? { resume: String(found.session.id) } : {}), ...(takeOver ? { takeOver: true } : {}) });
    // Copy what was rolled even when the session did not finish: the fleet shows progress, and the batch stays open.
    if (result.state !== 'finished') {
      await syncLocal(options.db, fleet, me.host);
      return result.state;
    }
  }
  // It ended (now, or before it was synced whole or its batch closed: it was bound when it opened): copy it and close
  // the batch, through a short fleet outage.
  const again = `dicerig campaign run ${shellWord(campaign.name)} --rig ${shellWord(options.rig)} --db ${shellWord(options.db)} --fleet URL`;
  await closeWhenFleetAnswers(
    async () => {
      await syncLocal(options.db, fleet, me.host);
      await completeBatch(fleet, options.url, campaign, batch.id, me, Date.now());
    },
    { say: (line) => io.err(`Rig ${options.rig}: batch ${batch.id}: ${line}\n`), again, ...(options.closeRetryMs !== undefined ? { waitsMs: options.closeRetryMs } : {}) },
  );
  return 'finished';
}
