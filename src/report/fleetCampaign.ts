/**
 * A campaign as `dicerig campaign status` and `campaign report` read it from
 * the fleet store, and as the fleet dashboard shows it: one reading and one
 * analysis for all three, so the page and the text never disagree.
 */
import { analyseCampaign, type CampaignAnalysis, type DieTypeAnalysis } from '../analysis/campaign/campaignAnalysis.js';
import { campaignSessionFindings, type CampaignSessionFinding } from '../analysis/campaign/sessionFindings.js';
import { formatLogScientific, listWords } from '../core/format.js';
import { rigIds } from '../analysis/campaign/campaignPlan.js';
import type { DieType } from '../dice/types.js';
import { campaignBatches, campaignDieTypes, campaignLegs, campaignRollCounts, campaignSessions, campaignUnresolvedCounts, findCampaign, listCampaigns, uncountedCampaignSessions, type Batch, type CampaignRecord, type CampaignRollCount, type CampaignSessionRow, type CampaignUnresolvedCount, type LegStatus, type UncountedCampaignSession } from '../fleet/campaignStore.js';
import type { FleetDb } from '../fleet/connect.js';

/** What `campaign status` shows: the campaign, its legs, batches and their sessions. */
export interface StatusFigures {
  readonly campaign: CampaignRecord;
  readonly legs: readonly LegStatus[];
  readonly batches: readonly Batch[];
  readonly sessions: readonly CampaignSessionRow[];
}

/** One rig's part of a campaign: legs done, being rolled (claimed) and to do, throws synced, and the dice it holds now. */
export interface RigProgress {
  readonly rig: string;
  readonly done: number;
  readonly claimed: number;
  readonly pending: number;
  readonly throws: number;
  readonly holding: readonly string[];
}

export async function readCampaignStatus(fleet: FleetDb, url: string, name: string): Promise<StatusFigures> {
  const campaign = await findCampaign(fleet, url, name);
  const legs = await campaignLegs(fleet, url, campaign.id);
  const batches = await campaignBatches(fleet, url, campaign.id);
  const sessions = await campaignSessions(fleet, url, campaign.id);
  return { campaign, legs, batches, sessions };
}

/** Each rig's progress, rigs in numeric order. */
export function rigProgress(f: StatusFigures): RigProgress[] {
  const rigs = [...new Set(f.legs.map((l) => l.rig))].sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
  return rigs.map((rig) => {
    const mine = f.legs.filter((l) => l.rig === rig);
    return {
      rig,
      done: mine.filter((l) => l.state === 'done').length,
      claimed: mine.filter((l) => l.state === 'claimed').length,
      pending: mine.filter((l) => l.state === 'pending').length,
      throws: f.sessions.filter((s) => s.rig === rig).reduce((a, s) => a + s.throwCount, 0),
      holding: f.batches.filter((b) => b.rig === rig && b.doneAt === null).flatMap((b) => b.dice.map((d) => d.label)),
    };
  });
}

/** What `campaign report` shows: the sessions, the counted and the unresolved rolls, and the analysis (rig effects, RIG_SUSPECT legs, pooled dice). */
export interface CampaignFindings {
  readonly campaign: CampaignRecord;
  readonly sessions: readonly CampaignSessionRow[];
  readonly rows: readonly CampaignRollCount[];
  readonly unresolved: readonly CampaignUnresolvedCount[];
  readonly analysis: CampaignAnalysis;
  /** The campaign's sessions no batch counts (a batch taken over), each with its rig: a finding on the rig is theirs too. */
  readonly uncounted: readonly UncountedCampaignSession[];
  /** The box's die types neither kept with the campaign nor among `dice` (a campaign created before it kept them): not analysed. */
  readonly unknownTypes: readonly string[];
}

export async function readCampaignFindings(fleet: FleetDb, url: string, name: string, dice: readonly DieType[]): Promise<CampaignFindings> {
  const campaign = await findCampaign(fleet, url, name);
  const settings = campaign.settings as { rigs: number; alpha?: number };
  const legs = await campaignLegs(fleet, url, campaign.id);
  const box = [...new Map(legs.map((l) => [l.label, { label: l.label, die: l.die }])).values()];
  const sessions = await campaignSessions(fleet, url, campaign.id);
  const rows = await campaignRollCounts(fleet, url, campaign.id);
  const unresolved = await campaignUnresolvedCounts(fleet, url, campaign.id);
  // The definitions kept with the campaign first: its dice are judged as its batches rolled them, whatever file is given.
  const types = new Map([...dice, ...campaignDieTypes(campaign)].map((d) => [d.id, d]));
  const unknownTypes = [...new Set(box.map((d) => d.die))].filter((t) => !types.has(t));
  const analysis = analyseCampaign({ alpha: settings.alpha ?? 0.01, rigs: rigIds(settings.rigs), box, types, rows, unresolved, sessions });
  const uncounted = await uncountedCampaignSessions(fleet, url, campaign.id);
  return { campaign, sessions, rows, unresolved, analysis, uncounted, unknownTypes };
}

/**
 * What their campaigns found of the given fleet sessions (`campaign`: the campaign each was run for, if any): a
 * session on a rig its campaign found biased, by fleet id, with the finding every reader of it shows. Each campaign
 * is analysed as `campaign report` analyses it, once however many of its sessions are given.
 */
export async function readSessionCampaignFindings(fleet: FleetDb, sessions: readonly { readonly id: number; readonly campaign: string | null }[], dice: readonly DieType[]): Promise<Map<number, CampaignSessionFinding>> {
  const out = new Map<number, CampaignSessionFinding>();
  const names = [...new Set(sessions.map((s) => s.campaign).filter((c): c is string => c !== null))];
  if (names.length === 0) return out;
  // Only a planned campaign (`campaign create`) has rigs to compare; a session may name a campaign never planned.
  const planned = new Set(await listCampaigns(fleet, fleet.where));
  const wanted = new Set(sessions.map((s) => s.id));
  for (const name of names.filter((n) => planned.has(n))) {
    const { analysis, uncounted } = await readCampaignFindings(fleet, fleet.where, name, dice);
    for (const [id, f] of campaignSessionFindings(name, analysis, uncounted)) if (wanted.has(id)) out.set(id, f);
  }
  return out;
}

/** Whether the rigs differ on the dice of one type they share (the omnibus test), as `campaign report` says it. */
export function rigsAlikeLine(t: DieTypeAnalysis): string {
  const omnibus = t.rigs.steps[0]?.effect.cmh;
  return `${t.die}: all rigs alike given the die: ${omnibus === undefined || omnibus.df === 0 ? 'nothing to compare (no die on two rigs yet)' : `CMH ${omnibus.statistic.toFixed(1)} on ${omnibus.df} df, p = ${formatLogScientific(omnibus.logP)}`}`;
}

/** A session whose unresolved rolls wait for a person, on its rig's host (`unresolved`: those not yet looked at). */
export interface SessionToReview {
  readonly rig: string;
  readonly sessionName: string;
  readonly unresolved: number;
  /** The rig host and its store holding the session (absent until the session reached the fleet). */
  readonly host?: string;
  readonly store?: string;
}

/**
 * Where the unresolved rolls that keep a rig unclear, or a pooled die from its finding, wait for a person: each
 * session holding some (reviews are given in the rig's local store, then synced). None when nothing waits on them.
 */
export function sessionsToReview(sessions: readonly CampaignSessionRow[], unresolved: readonly CampaignUnresolvedCount[], a: CampaignAnalysis): SessionToReview[] {
  const pending = a.unclearRigs.length > 0 || a.types.some((t) => t.dice.some((d) => d.reviewFirst));
  if (!pending) return [];
  const bySession = new Map<number, number>();
  // Rolls a person could not tell stay unresolved but wait for nobody.
  for (const u of unresolved) if (u.count > u.cannotTell) bySession.set(u.batchId, (bySession.get(u.batchId) ?? 0) + u.count - u.cannotTell);
  return sessions
    .filter((s) => bySession.has(s.batchId))
    .map((s) => ({
      rig: s.rig,
      sessionName: s.sessionName,
      unresolved: bySession.get(s.batchId) as number,
      ...(s.originHost !== null ? { host: s.originHost } : {}),
      ...(s.originDb !== null ? { store: s.originDb } : {}),
    }));
}

/**
 * The rigs a campaign found biased, one finding a line. With two rigs left that disagree both are flagged with one
 * reason (which one is off cannot be told): that finding is one line naming both, not the same line twice.
 */
export function rigBiasedLines(biasedRigs: CampaignAnalysis['biasedRigs']): { readonly rigs: readonly string[]; readonly die: string; readonly text: string }[] {
  const groups = new Map<string, { rigs: string[]; die: string; reason: string }>();
  for (const b of biasedRigs) {
    const key = `${b.die}\u0000${b.reason}`;
    const g = groups.get(key);
    if (g === undefined) groups.set(key, { rigs: [b.rig], die: b.die, reason: b.reason });
    else if (!g.rigs.includes(b.rig)) g.rigs.push(b.rig);
  }
  return [...groups.values()].map((g) => ({
    rigs: g.rigs,
    die: g.die,
    text: `RIG BIASED: ${g.reason} (${g.die} dice). ${g.rigs.length === 1 ? "Its sessions' verdicts are" : `The verdicts of the sessions of rigs ${listWords(g.rigs)} are`} RIG_SUSPECT.`,
  }));
}
