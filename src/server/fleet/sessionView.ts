/**
 * One fleet session as the fleet dashboard shows it: its listing (rig host,
 * HOST:ID, throws, state), each die's verdict as `dicerig report --db URL`
 * gives it (the report layer's own `storedSessionReport`, never recomputed
 * another way), and what the fleet holds of it that does not verify.
 */
import { DicerigError } from '../../core/errors.js';
import { shellWord } from '../../core/format.js';
import { parsedConfig, withSessionDice } from '../../dice/sessionDice.js';
import type { DieType } from '../../dice/types.js';
import { commandUrl, PASSWORD_HINT, type FleetDb } from '../../fleet/connect.js';
import { openFleetSessions, type FleetSessionInfo } from '../../fleet/fleetReader.js';
import { fleetStateText } from '../../fleet/quietSession.js';
import { verdictLabel } from '../../report/organiserTable.js';
import { reportJson } from '../../report/reportJson.js';
import { storedSessionReport } from '../../report/storedSessionReport.js';
import type { VerifyReport } from '../../store/records.js';
import type { CampaignSessionFinding } from '../../analysis/campaign/sessionFindings.js';
import { sessionProblems } from '../../store/requireVerified.js';
import type { RollStore } from '../../store/rollStore.js';

export interface DieVerdictView {
  readonly label: string;
  readonly type: string;
  /** Its rolls as the verdict counts them: read or labelled, and `unresolved` (the reader declined, nobody labelled). */
  readonly rolls: number;
  readonly unresolved: number;
  /** UNFAIR, FAIR_WITHIN, RIG_SUSPECT, ... (for the colour). */
  readonly kind: string;
  /** As the report's table prints it, e.g. FAIR_WITHIN(0.05). */
  readonly verdict: string;
  /** The report's sentence for the die, word for word. */
  readonly sentence: string;
}

/** What a session's report says, made from one snapshot of it. */
export interface SessionVerdictsView {
  readonly dice: readonly DieVerdictView[];
  /** The session's error control, when it stored its verdicts. */
  readonly errorControl: string | null;
  /** Why there are no verdicts (no counted rolls yet, a die type this host does not know), or null. */
  readonly note: string | null;
  /** Hash-chain problems of what the fleet holds of it (none when it verifies). */
  readonly problems: readonly string[];
  /** When it was made (ms since the epoch), and how many throws the fleet held of the session then. */
  readonly madeAt: number;
  readonly throwsThen: number;
}

/** A session as the page lists it: its listing now, and its verdicts as last made. */
export interface SessionView extends Omit<FleetSessionInfo, 'syncedAt'> {
  /** HOST:ID, the session's id on the rig host that ran it (a key `report --db URL` takes, unless several store files of the host share it). */
  readonly hostKey: string;
  /** The store file it came from, as short as tells it from the host's other store files (see storeFileLabels). */
  readonly storeFile: string;
  /** The command that writes its full HTML report. */
  readonly reportCommand: string;
  /** Null until the session's report is first made. */
  readonly verdicts: SessionVerdictsView | null;
  /** Its state as the page says it: "running? (no throw arrived for N min)" for a running session gone quiet (see quietSession). */
  readonly stateText: string;
}

/** A session's listing as the page shows it, with the verdicts last made of it. */
export function sessionView(info: FleetSessionInfo, where: string, verdicts: SessionVerdictsView | null, storeFile: string, now: number): SessionView {
  // Not when it was last synced: every sync of its store moves that, and a row that changes is redrawn (losing a selection in it).
  const { syncedAt: _syncedAt, ...shown } = info;
  return { ...shown, hostKey: `${info.originHost}:${info.localId}`, storeFile, reportCommand: reportCommand(info.id, where), verdicts, stateText: fleetStateText(info, now) };
}

/**
 * A copy's verdicts as the page shows them: none of its own. Its rolls count once, as the session it copies (`copyOf`),
 * whose row shows the fleet's one verdict per die; a second set made of the same rolls (or, edited, of almost the same)
 * beside it could only differ from it.
 */
export function copyVerdicts(info: FleetSessionInfo, where: string, now: number): MadeSession {
  const of = info.copyOf?.of ?? 0;
  const note = `No verdicts of its own: it is ${info.copyOf?.why ?? 'a copy'}, so its rolls count once, as fleet session ${of}'s, and that session's verdicts (its row; ${reportCommand(of, where)}) are the fleet's.`;
  return { report: { error: note, copyOf: info.copyOf }, verdicts: { dice: [], errorControl: null, note, problems: [], madeAt: now, throwsThen: info.throwCount } };
}

/** The command that writes a session's report, as it can be pasted: the password left out of the URL, and a shell comment saying how to give it. */
function reportCommand(id: number, where: string): string {
  const { url, passwordLeftOut } = commandUrl(where);
  return `dicerig report ${id} --db ${shellWord(url)}${passwordLeftOut ? PASSWORD_HINT : ''}`;
}

export interface MadeSession {
  readonly verdicts: SessionVerdictsView;
  /** The session's report as `dicerig report --json` prints it (without the files it writes). */
  readonly report: unknown;
}

/**
 * Makes the verdicts of the given fleet sessions from one snapshot per rig host store. `findings`: their campaigns'
 * findings (a session on a rig its campaign found biased shows RIG_SUSPECT, as `report --db URL` and `campaign report` do).
 */
export async function makeSessionViews(fleet: FleetDb, infos: readonly FleetSessionInfo[], dice: readonly DieType[], now: number, findings: ReadonlyMap<number, CampaignSessionFinding> = new Map()): Promise<Map<number, MadeSession>> {
  const out = new Map<number, MadeSession>();
  if (infos.length === 0) return out;
  const opened = await openFleetSessions(fleet, infos.map((s) => String(s.id)));
  try {
    // One verify per snapshot (one per rig host store), however many of its sessions are made.
    const verified = new Map<RollStore, VerifyReport>();
    for (const { store, session, fleet: info } of opened.sources) {
      const report = verified.get(store) ?? store.verify();
      verified.set(store, report);
      const problems = sessionProblems(report, session.id).map((p) => p.split(store.path).join(`${info.originHost}:${info.originDb}`));
      const base = { problems, madeAt: now, throwsThen: session.throwCount };
      try {
        const campaign = findings.get(info.id);
        // Dice of the user's own are judged by the definitions stored with their session, as the rig's store judges them.
        const sessionDice = withSessionDice(dice, [{ name: `session ${info.id}`, config: parsedConfig(session.configJson) }]);
        const report = storedSessionReport(store, session, { dice: sessionDice, generatedAt: now, fleet: info, ...(campaign !== undefined ? { campaign } : {}) });
        out.set(info.id, {
          report: reportJson(report),
          verdicts: {
            ...base,
            dice: report.dice.map((d) => ({ label: d.analysis.label, type: d.analysis.die.id, rolls: d.analysis.n + (d.resolution?.unresolved ?? 0), unresolved: d.resolution?.unresolved ?? 0, kind: d.analysis.verdict.kind, verdict: verdictLabel(d.analysis.verdict), sentence: d.analysis.sentence })),
            errorControl: report.verdicts?.errorControl.statement ?? null,
            note: null,
          },
        });
      } catch (e) {
        // A session with no counted rolls yet (or of dice this host does not know) has no report: said on its row, and the others shown.
        if (!(e instanceof DicerigError)) throw e;
        out.set(info.id, { report: { error: e.message }, verdicts: { ...base, dice: [], errorControl: null, note: e.message } });
      }
    }
  } finally {
    opened.close();
  }
  return out;
}
