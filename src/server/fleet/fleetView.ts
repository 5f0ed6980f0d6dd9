/**
 * What the fleet dashboard shows, read from the fleet store: its sessions
 * across rigs, each die's verdict as `dicerig report --db URL` gives it (see
 * sessionView.ts), and each campaign's progress and findings as `campaign
 * status` and `campaign report` give them (the report layer's fleetCampaign).
 * Read only: nothing is written.
 *
 * The store is read at most once per `pollMs` however many pages ask (they
 * poll), and a session's report is remade only when the fleet holds more of
 * it. When the store cannot be read, the last state is kept and marked
 * unreachable since the first failed read, until a read succeeds again.
 */
import type { DieType } from '../../dice/types.js';
import { listCampaigns } from '../../fleet/campaignStore.js';
import { checkout, fleetFailure, type FleetDb } from '../../fleet/connect.js';
import { readableFleetSchema } from '../../fleet/migrations.js';
import { FleetUnreachableError } from '../../fleet/errors.js';
import { fleetSessionVersions, listFleetSessions } from '../../fleet/fleetReader.js';
import { storeFileLabels } from '../../fleet/storeFileLabels.js';
import { readCampaignFindings, rigBiasedLines, readCampaignStatus, rigProgress, rigsAlikeLine, sessionsToReview, type RigProgress, type SessionToReview } from '../../report/fleetCampaign.js';
import { copyMade, makeSessionViews, sessionView, type MadeSession, type SessionView } from './sessionView.js';
import { campaignSessionFindings, type CampaignSessionFinding } from '../../analysis/campaign/sessionFindings.js';

export interface CampaignView {
  readonly name: string;
  readonly legsDone: number;
  readonly legs: number;
  readonly batches: number;
  readonly rigs: readonly RigProgress[];
  /** Sessions of the campaign, how many the fleet holds, and their throws there. */
  readonly sessions: number;
  readonly synced: number;
  readonly throws: number;
  /** What the campaign's alpha covers, as `campaign report` says it. */
  readonly errorControl: string;
  /** Per die type, whether the rigs differ on the dice they share (as `campaign report` says it). */
  readonly rigTests: readonly string[];
  /** Rigs the campaign found biased: their sessions' verdicts are RIG_SUSPECT. */
  readonly biasedRigs: readonly { readonly rig: string; readonly die: string; readonly reason: string }[];
  /** The same findings as `campaign report` prints them, one a line (two rigs flagged together are one finding). */
  readonly biasedLines: readonly { readonly rigs: readonly string[]; readonly die: string; readonly text: string }[];
  /** Rigs whose read rolls differ from the others' but whose unresolved rolls could account for it: to be reviewed, not set aside. */
  readonly unclearRigs: readonly { readonly rig: string; readonly die: string; readonly reason: string }[];
  /** Each die's one verdict for the campaign (its rolls on the trusted rigs pooled; G test, Holm over the box), as `campaign report` gives it. */
  readonly pooled: readonly {
    readonly die: string;
    readonly type: string;
    readonly kind: string;
    readonly rigs: readonly string[];
    readonly rolls: number;
    readonly unresolved: number;
    readonly pHolm: number | null;
    readonly sentence: string;
    readonly disagreements: readonly string[];
  }[];
  /** Sessions whose unresolved rolls must be labelled (on their rig's host) before an unclear rig or die can be judged. */
  readonly toReview: readonly SessionToReview[];
  /** Each die on each rig it visited, with its verdict as `campaign report` gives it. */
  readonly dice: readonly { readonly label: string; readonly rig: string; readonly rolls: number; readonly kind: string; readonly sentence: string; readonly sessionKind?: string; readonly fleetSession: number | null }[];
}

export interface FleetState {
  /** The fleet store's URL, password hidden. */
  readonly store: string;
  /** When the store was last read successfully (ms since the epoch; null before the first read). */
  readonly readAt: number | null;
  /** How often the store is read (`serve --poll`): a page asking more often would be given the same state again. */
  readonly pollMs: number;
  /** Since when the store cannot be read (null while it can), why, and whether it is that it cannot be reached (the server down, the network). */
  readonly failingSince: number | null;
  readonly problem: string | null;
  readonly unreachable: boolean;
  readonly sessions: readonly SessionView[];
  readonly campaigns: readonly CampaignView[];
}

export interface FleetViewOptions {
  readonly fleet: FleetDb;
  readonly dice: readonly DieType[];
  /** Shortest time between two reads of the store (ms). */
  readonly pollMs: number;
  /** Shortest time between two reports of one session that keeps changing (ms; default 6 × pollMs). */
  readonly remakeMs?: number;
  /** Wall clock, ms since the epoch. */
  readonly now: () => number;
}

/** Sessions whose reports one read makes at most (the rest on the next reads): a first read of a large fleet stays short. */
export const MAX_MADE_PER_READ = 8;

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The store's schema version when this dicerig can read it (0: no tables made yet), else the FleetError that says why not. */
async function schemaOf(fleet: FleetDb): Promise<number> {
  let checked;
  try {
    checked = await checkout(fleet.pool);
  } catch (e) {
    throw fleetFailure(e, fleet.where, fleet.where, 'reading it');
  }
  try {
    return await readableFleetSchema(checked.client, fleet.where);
  } catch (e) {
    throw fleetFailure(e, fleet.where, fleet.where, 'reading it');
  } finally {
    checked.release();
  }
}

/** A session's report as last made, the version of the session it was made of, and for a copy the report of the session it copies that it was made from. */
type Made = MadeSession & { readonly version: string; readonly from?: MadeSession | undefined };

export class FleetView {
  private last: FleetState;
  private reading: Promise<FleetState> | undefined;
  private made = new Map<number, Made>();
  private lastTry = 0;

  constructor(private readonly options: FleetViewOptions) {
    this.last = { store: options.fleet.where, readAt: null, pollMs: options.pollMs, failingSince: null, problem: null, unreachable: false, sessions: [], campaigns: [] };
  }

  /** The fleet's state, read again when the last read began `pollMs` ago or more. */
  state(): Promise<FleetState> {
    if (this.reading !== undefined) return this.reading;
    if (this.lastTry > 0 && this.options.now() - this.lastTry < this.options.pollMs) return Promise.resolve(this.last);
    this.lastTry = this.options.now();
    return (this.reading = this.read().finally(() => (this.reading = undefined)));
  }

  /**
   * A session's report as `dicerig report --json` gives it (a copy's: the session it copies, in its place), from the
   * latest read, with its status: 200, REPORT_NOT_MADE with why it cannot be made, or 503 while it is not made yet
   * (`retryAfter` seconds). Undefined when the fleet holds no such session.
   */
  async report(id: number): Promise<{ readonly status: number; readonly body: unknown; readonly retryAfter?: number } | undefined> {
    const state = await this.state();
    const made = this.made.get(id);
    if (made !== undefined) return made.report;
    const listed = state.sessions.find((s) => s.id === id);
    if (listed === undefined) return undefined;
    const retryAfter = Math.max(1, Math.ceil(this.options.pollMs / 1000));
    const copyOf = listed.copyOf;
    const whose = copyOf !== null && copyOf !== undefined ? `fleet session ${id}'s report (fleet session ${copyOf.of}'s, in its place: it is a copy)` : `fleet session ${id}'s report`;
    return { status: 503, body: { error: `${whose} is not made yet: ask again in ${retryAfter} s` }, retryAfter };
  }

  private async read(): Promise<FleetState> {
    const { fleet, now } = this.options;
    try {
      // Checked on every read: a rig host may make the tables after the page opened, or bring them forward.
      if ((await schemaOf(fleet)) === 0) {
        this.last = { ...this.last, readAt: now(), failingSince: null, problem: null, unreachable: false, sessions: [], campaigns: [] };
        return this.last;
      }
      const infos = await listFleetSessions(fleet);
      const storeFile = storeFileLabels(infos);
      // The campaigns first: what each found of its sessions is what those sessions' rows show.
      const campaigns: CampaignView[] = [];
      const findings = new Map<number, CampaignSessionFinding>();
      for (const name of await listCampaigns(fleet, fleet.where)) {
        const { view, found } = await this.campaign(name);
        campaigns.push(view);
        for (const [id, f] of found) findings.set(id, f);
      }
      const stored = await fleetSessionVersions(fleet);
      // A session's view is remade when the fleet holds more of it, or when its campaign's finding on it changes
      // (another rig's sessions can set its rig aside without a throw of its own).
      const versions = new Map(infos.map((s) => [s.id, `${stored.get(s.id) ?? ''}|${findings.get(s.id)?.sentence ?? ''}`]));
      const at = now();
      const remakeMs = this.options.remakeMs ?? 6 * this.options.pollMs;
      // A copy is not judged: its rolls are another session's, whose report is its report (copyMade). That session's
      // report is kept for it, so a session made before its copy arrived is made again, keeping it.
      const copied = new Set(infos.flatMap((s) => (s.copyOf !== null ? [s.copyOf.of] : [])));
      const due = infos.filter((s) => {
        if (s.copyOf !== null) return false;
        const m = this.made.get(s.id);
        if (m !== undefined && copied.has(s.id) && m.made === undefined && m.failure === undefined) return true;
        return m === undefined || (m.version !== versions.get(s.id) && at - m.verdicts.madeAt >= remakeMs);
      });
      // Sessions not shown with verdicts yet first.
      due.sort((a, b) => Number(this.made.has(a.id)) - Number(this.made.has(b.id)));
      const fresh = await makeSessionViews(fleet, due.slice(0, MAX_MADE_PER_READ), this.options.dice, at, findings, copied);
      const made = new Map<number, Made>();
      for (const s of infos) {
        if (s.copyOf !== null) continue;
        const f = fresh.get(s.id);
        const m = f !== undefined ? { ...f, version: versions.get(s.id) ?? '' } : this.made.get(s.id);
        if (m !== undefined) made.set(s.id, m);
      }
      const byId = new Map(infos.map((s) => [s.id, s]));
      for (const s of infos) {
        if (s.copyOf === null) continue;
        const original = { info: byId.get(s.copyOf.of), made: made.get(s.copyOf.of) };
        // Kept while it says the same: a state that changes on every read would redraw the row (losing a selection in it).
        const kept = this.made.get(s.id);
        const version = `${versions.get(s.id) ?? ''}|${s.state}|${s.throwCount}`;
        if (kept !== undefined && kept.from === original.made && kept.version === version) {
          made.set(s.id, kept);
          continue;
        }
        const copy = copyMade({ copy: s, copyOf: s.copyOf }, original, at);
        if (copy !== undefined) made.set(s.id, { ...copy, version, from: original.made });
      }
      this.made = made;
      this.last = { store: fleet.where, readAt: now(), pollMs: this.options.pollMs, failingSince: null, problem: null, unreachable: false, sessions: infos.map((s) => sessionView(s, fleet.where, made.get(s.id)?.verdicts ?? null, storeFile(s), at)), campaigns };
    } catch (e) {
      // The last state stays on the page, marked: a dashboard that goes blank tells an organiser nothing.
      this.last = { ...this.last, failingSince: this.last.failingSince ?? this.lastTry, problem: message(e), unreachable: e instanceof FleetUnreachableError };
    }
    return this.last;
  }

  /** A campaign's panel, and what it found of its sessions (by fleet id) for their rows. */
  private async campaign(name: string): Promise<{ view: CampaignView; found: Map<number, CampaignSessionFinding> }> {
    const { fleet, dice } = this.options;
    const status = await readCampaignStatus(fleet, fleet.where, name);
    const { analysis, sessions, unresolved, uncounted } = await readCampaignFindings(fleet, fleet.where, name, dice);
    const synced = status.sessions.filter((s) => s.fleetSession !== null);
    const view: CampaignView = {
      name,
      legsDone: status.legs.filter((l) => l.state === 'done').length,
      legs: status.legs.length,
      batches: status.batches.length,
      rigs: rigProgress(status),
      sessions: status.sessions.length,
      synced: synced.length,
      throws: synced.reduce((a, s) => a + s.throwCount, 0),
      errorControl: analysis.errorControl.statement,
      rigTests: analysis.types.map(rigsAlikeLine),
      biasedRigs: analysis.biasedRigs,
      biasedLines: rigBiasedLines(analysis.biasedRigs),
      unclearRigs: analysis.unclearRigs,
      toReview: sessionsToReview(sessions, unresolved, analysis),
      pooled: analysis.verdicts.map((v) => ({ die: v.label, type: v.die, kind: v.kind, rigs: v.rigs, rolls: v.rolls, unresolved: v.unresolved, pHolm: v.pHolm, sentence: v.sentence, disagreements: v.disagreements })),
      dice: analysis.legs.map((l) => ({ label: l.label, rig: l.rig, rolls: l.rolls, kind: l.kind, sentence: l.sentence, fleetSession: l.fleetSession, ...(l.sessionKind !== undefined ? { sessionKind: l.sessionKind } : {}) })),
    };
    return { view, found: campaignSessionFindings(name, analysis, uncounted) };
  }
}
