/**
 * What a campaign found of its sessions, for every other reader of them: a session on a rig the campaign found
 * biased is RIG_SUSPECT for each of its dice (its rolls show the rig as much as the die), as `campaign report` shows
 * its legs. `analyze`, `pool`, `report` and the fleet page take this finding in place of the session's own verdicts,
 * so one session never shows RIG_SUSPECT in one place and UNFAIR in another. Pure: the campaign's analysis in.
 */
import { campaignSuspectSentence, type RigSuspectVerdict } from '../../stats/verdict.js';
import type { DieAnalysis } from '../analyze.js';

/** A campaign's finding on one of its sessions: its rig set aside, and why. */
export interface CampaignSessionFinding {
  readonly campaign: string;
  readonly fleetSession: number;
  readonly rig: string;
  /** The rig-effect finding, in the campaign report's words. */
  readonly reason: string;
  /** The campaign's alpha (the rig decision was made at its share of it). */
  readonly alpha: number;
  /** The sentence every reader shows for each of the session's dice. */
  readonly sentence: string;
}

/**
 * The campaign's findings on its synced sessions on rigs it found biased, by fleet session id: its legs', and those
 * of its sessions no batch counts (`uncounted`: a batch taken over leaves its first session rolled on the same rig,
 * which shows that rig as much as a leg does).
 */
export function campaignSessionFindings(
  campaign: string,
  a: { readonly alpha: number; readonly biasedRigs: readonly { readonly rig: string; readonly reason: string }[]; readonly legs: readonly { readonly fleetSession: number | null; readonly rig: string; readonly kind: string }[] },
  uncounted: readonly { readonly fleetSession: number; readonly rig: string }[] = [],
): Map<number, CampaignSessionFinding> {
  const out = new Map<number, CampaignSessionFinding>();
  const add = (fleetSession: number, rig: string): void => {
    if (out.has(fleetSession)) return;
    // The first finding on the rig, as the campaign's legs give it.
    const reason = a.biasedRigs.find((b) => b.rig === rig)?.reason;
    if (reason === undefined) return;
    out.set(fleetSession, { campaign, fleetSession, rig, reason, alpha: a.alpha, sentence: campaignSuspectSentence({ name: campaign, rig, reason }) });
  };
  for (const leg of a.legs) if (leg.kind === 'RIG_SUSPECT' && leg.fleetSession !== null) add(leg.fleetSession, leg.rig);
  for (const s of uncounted) add(s.fleetSession, s.rig);
  return out;
}

/** The RIG_SUSPECT verdict a campaign's finding gives a die of the session (no failed check of the die's own). */
export function campaignSuspectVerdict(n: number, f: CampaignSessionFinding): RigSuspectVerdict {
  return { kind: 'RIG_SUSPECT', n, alpha: f.alpha, failedChecks: [], campaign: { name: f.campaign, rig: f.rig, reason: f.reason } };
}

/** `d` with the campaign's finding as its verdict; the session's own stays on the record where the reader keeps it. */
export function withCampaignFinding(d: DieAnalysis, f: CampaignSessionFinding): DieAnalysis {
  return { ...d, verdict: campaignSuspectVerdict(d.n, f), sentence: f.sentence, anytime: { ...d.anytime, decision: 'RIG_SUSPECT' } };
}
