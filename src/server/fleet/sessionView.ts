/**
 * One fleet session as the fleet dashboard shows it: its listing (rig host,
 * HOST:ID, throws, state), each die's verdict as `dicerig report --db URL`
 * gives it (the report layer's own `storedSessionReport`, never recomputed
 * another way; for a copy, the session it copies, in its place), and what the
 * fleet holds of it that does not verify.
 */
import { DicerigError } from '../../core/errors.js';
import { shellWord } from '../../core/format.js';
import { parsedConfig, withSessionDice } from '../../dice/sessionDice.js';
import type { DieType } from '../../dice/types.js';
import { commandUrl, PASSWORD_HINT, type FleetDb } from '../../fleet/connect.js';
import { openFleetSessions, type FleetSessionInfo } from '../../fleet/fleetReader.js';
import { fleetStateText } from '../../fleet/quietSession.js';
import { verdictLabel } from '../../report/organiserTable.js';
import { copyOfCopyWords, inPlaceOfCopyFailedWords, inPlaceOfCopyJson, inPlaceOfCopyWords, reportInPlaceOfCopy, type InPlaceOfCopy } from '../../report/inPlaceOfCopy.js';
import { reportJson } from '../../report/reportJson.js';
import type { SessionReport } from '../../report/sessionReport.js';
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
  /** For a copy: that these are the verdicts of the session it copies, in its place, and why (as its report says it first); else null. */
  readonly inPlaceOf: string | null;
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
 * A copy's report and verdicts, as `dicerig report COPY --db URL` gives them: none of its own. Its rolls count once,
 * as the session it copies (`copyOf`), so its report is that session's, in its place (`original`, as made for that
 * session's own row and report), saying so first; a second set made of the same rolls (or, edited, of almost the
 * same) could only differ from the fleet's one. When that session's report cannot be made, the copy has none either,
 * and says why. Undefined while that session's report is not made yet.
 */
export function copyMade(p: InPlaceOfCopy, original: { readonly info: FleetSessionInfo | undefined; readonly made: MadeSession | undefined }, now: number): MadeSession | undefined {
  const info = p.copy;
  const refused = (error: string): MadeSession => ({
    report: { status: REPORT_NOT_MADE, body: { error, inPlaceOf: inPlaceOfCopyJson(p) } },
    verdicts: { dice: [], errorControl: null, note: error, inPlaceOf: null, problems: [], madeAt: now, throwsThen: info.throwCount },
    failure: error,
  });
  if (original.info === undefined) return refused(inPlaceOfCopyFailedWords(p, `the fleet store holds no fleet session ${p.copyOf.of}`));
  if (original.info.copyOf !== null) return refused(copyOfCopyWords(p, original.info.copyOf));
  const m = original.made;
  if (m === undefined) return undefined;
  if (m.failure !== undefined) return refused(inPlaceOfCopyFailedWords(p, m.failure));
  if (m.made === undefined) return undefined;
  // The session's verdicts as its own row shows them, unchanged: one verdict for those rolls.
  return {
    report: { status: 200, body: reportJson(reportInPlaceOfCopy(m.made, p)) },
    verdicts: { ...m.verdicts, note: null, inPlaceOf: `IN PLACE OF A COPY: ${inPlaceOfCopyWords(p)}` },
  };
}

/** The command that writes a session's report, as it can be pasted: the password left out of the URL, and a shell comment saying how to give it. */
function reportCommand(id: number, where: string): string {
  const { url, passwordLeftOut } = commandUrl(where);
  return `dicerig report ${id} --db ${shellWord(url)}${passwordLeftOut ? PASSWORD_HINT : ''}`;
}

/** The status of a report that cannot be made from what the fleet holds (no counted rolls yet, dice this host does not know, a copy of a copy). */
export const REPORT_NOT_MADE = 409;

export interface MadeSession {
  readonly verdicts: SessionVerdictsView;
  /** The session's report as `dicerig report --json` prints it (without the files it writes), status 200; or why it cannot be made, REPORT_NOT_MADE. */
  readonly report: { readonly status: number; readonly body: unknown };
  /** Why its report cannot be made, when it cannot. */
  readonly failure?: string;
  /** The report itself, kept for a session the fleet holds copies of: a copy's report is this one, in its place (copyMade). */
  readonly made?: SessionReport;
}

/**
 * Makes the verdicts of the given fleet sessions from one snapshot per rig host store. `findings`: their campaigns'
 * findings (a session on a rig its campaign found biased shows RIG_SUSPECT, as `report --db URL` and `campaign report` do).
 * `copied`: the sessions the fleet holds copies of, whose reports are kept for their copies (copyMade).
 */
export async function makeSessionViews(
  fleet: FleetDb,
  infos: readonly FleetSessionInfo[],
  dice: readonly DieType[],
  now: number,
  findings: ReadonlyMap<number, CampaignSessionFinding> = new Map(),
  copied: ReadonlySet<number> = new Set(),
): Promise<Map<number, MadeSession>> {
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
          report: { status: 200, body: reportJson(report) },
          ...(copied.has(info.id) ? { made: report } : {}),
          verdicts: {
            ...base,
            dice: report.dice.map((d) => ({ label: d.analysis.label, type: d.analysis.die.id, rolls: d.analysis.n + (d.resolution?.unresolved ?? 0), unresolved: d.resolution?.unresolved ?? 0, kind: d.analysis.verdict.kind, verdict: verdictLabel(d.analysis.verdict), sentence: d.analysis.sentence })),
            errorControl: report.verdicts?.errorControl.statement ?? null,
            note: null,
            inPlaceOf: null,
          },
        });
      } catch (e) {
        // A session with no counted rolls yet (or of dice this host does not know) has no report: said on its row, and the others shown.
        if (!(e instanceof DicerigError)) throw e;
        out.set(info.id, { report: { status: REPORT_NOT_MADE, body: { error: e.message } }, verdicts: { ...base, dice: [], errorControl: null, note: e.message, inPlaceOf: null }, failure: e.message });
      }
    }
  } finally {
    opened.close();
  }
  return out;
}
