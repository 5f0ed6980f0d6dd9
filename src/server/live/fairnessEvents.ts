/**
 * A fairness run's session events as the live pages take them: a stored throw (with each die's state after it, and
 * a re-tumble with its reason in words and as codes), a verdict, a face the reader seems unable to read, a rig check.
 * Events that change what the server holds (faults, the run's start and end) are the rig controller's own.
 */
import type { SessionEvent } from '../../session/events.js';
import type { FairnessView } from './fairnessView.js';
import { retumbleCodes } from './retumbleCode.js';

type LiveEvent = { readonly type: string } & Record<string, unknown>;

/** The live events `e` makes (none for the events the controller handles itself); `dice`: after `e` was taken in. */
export function fairnessLiveEvents(e: SessionEvent, dice: FairnessView['dice'], now: number): LiveEvent[] {
  switch (e.type) {
    case 'throw': {
      const stored: LiveEvent = {
        type: 'throw',
        mode: 'fairness',
        at: now,
        index: e.index,
        status: e.status,
        ...(e.why !== undefined ? { why: e.why } : {}),
        rolls: e.rolls,
        // Copies: the hub writes events out on the next turn, after this die's tally may have moved on.
        dice: dice.map((d) => ({
          label: d.label,
          state: d.state,
          decided: d.decided,
          rolls: d.rolls,
          rollsNeeded: d.rollsNeeded,
          unreadableFace: d.unreadableFace,
          logE: d.logE,
          tally: { ...d.tally },
          point: d.trace.at(-1),
        })),
        totals: e.totals,
      };
      if (e.status === 'ok') return [stored];
      return [stored, { type: 'retumble', mode: 'fairness', at: now, index: e.index, status: e.status, reason: e.why ?? e.status, ...retumbleCodes(e.status, e.problems) }];
    }
    case 'decided':
      return [{ type: 'verdict', at: now, label: e.label, verdict: e.verdict.kind, sentence: e.sentence }];
    case 'unreadable-face':
      return [{ type: 'notice', at: now, label: e.label, face: e.face, message: e.message }];
    case 'rig-check':
      return [{ type: 'rig-check', at: now, look: e.look, suspect: e.suspect, minAdjustedP: e.minAdjustedP, verdict: e.verdict?.kind ?? null }];
    default:
      return [];
  }
}
