/**
 * One rig host's part of a campaign (`dicerig campaign run NAME --rig ID`):
 * take the next dice due from the fleet store, roll them in a local session
 * (its own SQLite store, one transaction a throw, as every session), copy the
 * session to the fleet store, close the batch, and take the next, until the
 * rig has nothing left.
 *
 * Crash-safe by construction: a batch stays open in the fleet store until
 * its session is finished and synced. On start the rig first finishes its own
 * open batches: the local session of that name is resumed where it stopped
 * (or started, if the crash came before it was created), or, if it had
 * finished, only synced; syncing is idempotent, so nothing is lost or counted
 * twice.
 */
import { hostname } from 'node:os';
import { nextDiceDue, rigIds, type LegState } from '../../analysis/campaign/campaignPlan.js';
import { InputError } from '../../core/errors.js';
import { campaignBatches, claimNextBatch, completeBatch, findCampaign, type Batch, type CampaignRecord } from '../../fleet/campaignStore.js';
import { openFleet, type FleetDb } from '../../fleet/connect.js';
import { LocalRows } from '../../fleet/localRows.js';
import { syncStore } from '../../fleet/replicate.js';
import type { SessionConfig } from '../../session/config.js';
import { openStoreForReading } from '../../store/openStore.js';
import type { SessionResult } from '../../session/runner.js';
import type { CliIo } from '../io.js';
import { batchSessionConfig } from './batchConfig.js';
import { existsSync } from 'node:fs';

/** How a batch's session is run and shown (the `run` command's runWithProgress: passed in, so `run --campaign` and this loop do not import each other). */
export type BatchSessionRunner = (config: SessionConfig, db: string, flags: { readonly resume?: string; readonly fleet: string; readonly host: string }) => Promise<SessionResult>;

export interface RigLoopOptions {
  readonly runSession: BatchSessionRunner;
  readonly url: string;
  readonly campaign: string;
  readonly rig: string;
  /** Local roll store. */
  readonly db: string;
  readonly host?: string;
  readonly seed: number;
  readonly base?: SessionConfig;
  readonly rigBias?: { readonly symbol: string; readonly excess: number };
  /** Simulated camera only: this rig's camera cannot read this D6 face. */
  readonly unreadableFace?: string;
  /** How long to wait before asking again when this rig's dice are all in other rigs. */
  readonly pollMs: number;
  /** Stop after this many batches (default: until the rig has nothing left). */
  readonly maxBatches?: number;
}

export interface RigLoopResult {
  readonly batches: number;
  readonly state: 'done' | 'stopped' | 'aborted' | 'batch-limit';
}

/** The local session of a batch: absent, finished (only sync it), or to resume (crashed, stopped or aborted part-way). */
function localState(db: string, name: string): 'absent' | 'resume' | 'ended' {
  if (!existsSync(db)) return 'absent';
  const opened = openStoreForReading(db);
  try {
    const s = opened.store.sessions().find((x) => x.name === name);
    if (s === undefined) return 'absent';
    return s.state === 'finished' ? 'ended' : 'resume';
  } finally {
    opened.close();
  }
}

async function syncLocal(db: string, fleet: FleetDb, host: string): Promise<void> {
  const local = LocalRows.open(db);
  try {
    await syncStore(local, fleet, { host });
  } finally {
    local.close();
  }
}

export async function runCampaignRig(io: CliIo, options: RigLoopOptions): Promise<RigLoopResult> {
  const host = options.host ?? hostname();
  const fleet = await openFleet(options.url);
  try {
    const campaign = await findCampaign(fleet, options.url, options.campaign);
    const settings = campaign.settings as { rigs: number; channels: number; rollsPerLeg: number };
    const rigs = rigIds(settings.rigs);
    if (!rigs.includes(options.rig)) throw new InputError(`--rig ${options.rig}: campaign ${campaign.name} has rigs ${rigs.join(', ')}`);
    let batches = 0;
    for (;;) {
      if (options.maxBatches !== undefined && batches >= options.maxBatches) return { batches, state: 'batch-limit' };
      const open = (await campaignBatches(fleet, options.url, campaign.id, options.rig)).find((b) => b.doneAt === null);
      let batch: Batch | undefined = open;
      if (batch === undefined) {
        const claim = await claimNextBatch(fleet, options.url, campaign, options.rig, host, (progress) => nextDiceDue(progress.map((p) => ({ leg: p.leg, state: p.state as LegState })), options.rig, settings.channels), Date.now());
        if (claim.kind === 'done') {
          io.err(`Rig ${options.rig}: nothing left to roll in campaign ${campaign.name}.\n`);
          return { batches, state: 'done' };
        }
        if (claim.kind === 'wait') {
          io.err(`Rig ${options.rig}: ${claim.pending} dice due here are in other rigs now; asking again in ${options.pollMs} ms.\n`);
          await new Promise((r) => setTimeout(r, options.pollMs));
          continue;
        }
        batch = claim.batch;
      }
      const state = await rollBatch(io, options, fleet, campaign, batch, host, settings.rollsPerLeg, open !== undefined);
      if (state !== 'finished') return { batches, state };
      batches++;
    }
  } finally {
    await fleet.close();
  }
}

async function rollBatch(io: CliIo, options: RigLoopOptions, fleet: FleetDb, campaign: CampaignRecord, batch: Batch, host: string, rollsPerLeg: number, reopened: boolean): Promise<'finished' | 'stopped' | 'aborted'> {
  const dice = batch.dice.map((d) => d.label).join(', ');
  const local = localState(options.db, batch.sessionName);
  io.err(`Rig ${options.rig}: batch ${batch.id} (${dice})${reopened ? `, left open by an earlier run: ${local === 'absent' ? 'starting it' : local === 'resume' ? 'resuming its session' : 'its session had ended; syncing it'}` : ''}.\n`);
  if (local !== 'ended') {
    const config = batchSessionConfig(
      { campaign: campaign.name, rig: options.rig, sessionName: batch.sessionName, batchId: batch.id, dice: batch.dice, rollsPerLeg, seed: options.seed, ...(options.rigBias ? { rigBias: options.rigBias } : {}), ...(options.unreadableFace !== undefined ? { unreadableFace: options.unreadableFace } : {}) },
      options.base,
    );
    // --fleet: the session's throws are copied while it runs, so `campaign status` shows them.
    const result = await options.runSession(config, options.db, { fleet: options.url, host, ...(local === 'resume' ? { resume: batch.sessionName } : {}) });
    // Copy what was rolled even when the session did not finish: the fleet shows progress, and the batch stays open.
    await syncLocal(options.db, fleet, host);
    if (result.state !== 'finished') return result.state;
  } else {
    await syncLocal(options.db, fleet, host);
  }
  await completeBatch(fleet, options.url, campaign, batch.id, Date.now());
  return 'finished';
}
