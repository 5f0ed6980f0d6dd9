import { existsSync } from 'node:fs';
import { refuseSimulatedMix } from './simulatedMix.js';
import { InputError } from '../core/errors.js';
import { unresolvedCount, type ParsedLog } from '../rolllog/types.js';
import type { SessionPart } from '../analysis/acrossSessions.js';
import { StoreError } from '../store/errors.js';
import { FleetError, FleetUnreachableError } from '../fleet/errors.js';
import { sessionDieLogs } from '../store/sessionDieLogs.js';
import { sessionSettings } from '../report/storedSessionReport.js';
import { openStoredSessions, type StoredSession } from './storedSessions.js';
import { requireVerified } from '../store/requireVerified.js';
import type { VerifyReport } from '../store/records.js';
import type { RollStore } from '../store/rollStore.js';
import { storedDieVerdicts, withCampaignFinding, type StoredDieVerdict } from './storedVerdicts.js';
import { countsDiffer } from '../analysis/verdictCounts.js';
import type { CampaignSessionFinding } from '../analysis/campaign/sessionFindings.js';
import type { DieType } from '../dice/types.js';
import { formatCount, shellWord } from '../core/format.js';

export type { StoredDieVerdict, StoredFaceInterval } from './storedVerdicts.js';

/** The sessions' verdicts per die, and how many sources (stored sessions and files) hold rolls of each die. */
export interface JudgedSources {
  readonly verdicts: ReadonlyMap<string, readonly StoredDieVerdict[]>;
  readonly rolledIn: ReadonlyMap<string, number>;
}

/**
 * The verdict a die's one session made, when every roll of the die is that session's (in the store, or in its export
 * with the manifest that carries the verdict; not pooled with other sessions' or files' rolls): the verdict to show
 * for it; undefined otherwise.
 */
export function decidedBySession(judged: JudgedSources, label: string): StoredDieVerdict | undefined {
  const own = judged.verdicts.get(label);
  // Another source may hold rolls of the die without a verdict for it (a plain log, or a session recorded before verdicts were kept).
  return own?.length === 1 && (judged.rolledIn.get(label) ?? 0) <= 1 ? own[0] : undefined;
}

/**
 * The verdicts of the sessions that rolled a die, when it was rolled in several sessions (stored, or exported with their
 * verdicts), no other source holds its rolls and each of them stored its verdict with its e-value: what
 * `judgeAcrossSessions` combines. Undefined otherwise.
 */
export function decidedBySessions(judged: JudgedSources, label: string): StoredDieVerdict[] | undefined {
  const own = judged.verdicts.get(label) ?? [];
  const rolled = judged.rolledIn.get(label) ?? 0;
  return own.length >= 2 && own.length === rolled && own.every((v) => v.parts !== undefined) ? [...own] : undefined;
}

/** A stored session's verdict on a die, as `judgeAcrossSessions` and `combineSessions` take it (one from `decidedBySessions`: its parts are whole). */
export function asPart(v: StoredDieVerdict): SessionPart {
  return { session: v.session, kind: v.kind, logE: v.parts?.logE ?? 0, ...(v.alphaPerDie !== undefined ? { alphaPerDie: v.alphaPerDie } : {}), ...(v.faces ? { faces: v.faces } : {}) };
}

/** How a stored session is named in pooled logs and messages (a fleet session by its fleet id). */
export function storedSessionName(s: StoredSession): string {
  return `${s.fleetId !== undefined ? 'fleet session' : 'session'} ${s.fleetId ?? s.session.id}${s.session.name !== null ? ` (${s.session.name})` : ''}`;
}

/** The sources that are files, and the rest: session ids or names to look up in a store (a file of that name wins). */
export function splitSources(sources: readonly string[]): { files: string[]; keys: string[] } {
  const files: string[] = [];
  const keys: string[] = [];
  for (const s of sources) (existsSync(s) ? files : keys).push(s);
  return { files, keys };
}

/** What `readStoredLogs` does with a session of a store that fails verification: refuse it, or warn and go on. */
export interface StoredVerification {
  readonly allowUnverified: boolean;
  readonly warn: (line: string) => void;
  /** How the refusal ends: "nothing was analyzed". */
  readonly doing: string;
}

/**
 * What `readStoredLogs` does with a fleet session on a rig its campaign found biased (read with the die types): its dice
 * are RIG_SUSPECT by the finding (`mark`, as analyze shows them), or its rolls are left out and it is named
 * (`leave-out`, as pool must not certify dice on a biased rig's rolls).
 */
export interface CampaignReading {
  readonly suspect: 'mark' | 'leave-out';
}

/** A session left out for its campaign's finding, and the dice it rolled. */
export interface SessionSetAside {
  readonly session: StoredSession;
  readonly finding: CampaignSessionFinding;
  /** The dice it rolled (label and type id). */
  readonly dice: readonly { readonly label: string; readonly type: string }[];
}

/** What a campaign's finding makes of a session, in a line: which session, which rig, why, where to read it. */
export function setAsideLine(s: StoredSession, f: CampaignSessionFinding): string {
  return `${storedSessionName(s)} ran on rig ${f.rig} of campaign ${f.campaign}, which the campaign found biased (${f.reason}): its dice are RIG_SUSPECT (dicerig campaign report ${shellWord(f.campaign)})`;
}

/**
 * The counted rolls of the named sessions (of a local roll store or the fleet
 * store), as logs `mergeLogs` joins with files (a die in several sessions is
 * one die: its rolls are appended in the order given). Simulated and real rolls
 * never mix: simulated sessions pool only with other simulated sessions (and files: `readJudgedLogs`).
 * `campaign`: a fleet session's campaign finding is read and taken (see CampaignReading).
 */
export async function readStoredLogs(
  keys: readonly string[],
  db: string | undefined,
  verification: StoredVerification,
  /** The known die types, to count a die's rolls by the labels its verdict counted (and, with `campaign`, to analyse its campaign). */
  types?: readonly DieType[],
  campaign?: CampaignReading,
): Promise<{ sessions: StoredSession[]; logs: ParsedLog[]; verdicts: Map<string, StoredDieVerdict[]>; unresolved: Map<string, number>; rolledIn: Map<string, number>; notes: string[]; setAside: SessionSetAside[] }> {
  if (keys.length === 0) return { sessions: [], logs: [], verdicts: new Map(), unresolved: new Map(), rolledIn: new Map(), notes: [], setAside: [] };
  let opened = await openNamed(db, keys, keys, campaign !== undefined ? types : undefined);
  if (opened.note !== undefined) verification.warn(`dicerig: note: ${opened.note}`);
  // A fleet copy named without the session whose rolls it holds is judged as that session: the fleet counts those rolls
  // once, there, and shows that session's verdicts for them; the copy's own (kept from its export, or made on its edited
  // rolls) would be a second set beside them.
  const standIns = opened.sessions.map((s) => {
    const copy = s.fleet?.copyOf;
    return copy !== null && copy !== undefined && !opened.sessions.some((o) => o.fleetId === copy.of) ? copy : undefined;
  });
  if (standIns.some((c) => c !== undefined)) {
    opened.sessions.forEach((s, i) => {
      const copy = standIns[i];
      if (copy !== undefined) verification.warn(`dicerig: note: ${storedSessionName(s)} is ${copy.why}: judged as fleet session ${copy.of}, whose rolls they are (the fleet counts them once, there, with that session's verdicts).`);
    });
    await opened.close();
    const swapped = keys.map((k, i) => (standIns[i] !== undefined ? String(standIns[i].of) : k));
    // Read again as the first read was, failing alike (a fleet gone down meanwhile is said in the same words).
    opened = await openNamed(db, [...new Set(swapped)], keys, campaign !== undefined ? types : undefined);
  }
  try {
    const named = opened.sessions;
    // One session named twice (by id and by name, say) would count its rolls, and multiply its evidence, twice.
    const seen = new Set<number>();
    for (const s of named) {
      const id = s.fleetId ?? s.session.id;
      if (seen.has(id)) throw new InputError(`${storedSessionName(s)} is named twice among the sources: each session's rolls count once, so name it once`);
      seen.add(id);
    }
    // A fleet import of an export of another session named here holds that session's rolls: counted once, there.
    const sessions = named.filter((s) => {
      const copy = s.fleet?.copyOf;
      if (copy === null || copy === undefined) return true;
      const counted = named.find((o) => o.fleetId === copy.of);
      if (counted !== undefined) {
        verification.warn(`dicerig: note: ${storedSessionName(s)} is left out: it is ${copy.why}; its rolls are counted once, as ${storedSessionName(counted)}'s.`);
        return false;
      }
      verification.warn(`dicerig: note: ${storedSessionName(s)} is ${copy.why}: the fleet counts its rolls as fleet session ${copy.of}'s; name that one rather than both.`);
      return true;
    });
    // A tampered or damaged store gives no verdict unless asked for (as export and report refuse it).
    // Verified once per store: the walk covers every chain of it, however many of its sessions are named.
    const reports = new Map<RollStore, VerifyReport>();
    for (const s of sessions) {
      let report = reports.get(s.store);
      if (report === undefined) reports.set(s.store, (report = s.store.verify()));
      requireVerified(s.store, s.session.id, verification.allowUnverified, verification.warn, verification.doing, report);
    }
    // Files beside them are checked once read (their manifests or rows say whether they are simulated): simulatedMix.ts.
    refuseSimulatedMix(sessions.map((s) => ({ name: storedSessionName(s), simulated: s.session.simulated })), []);
    const setAside: SessionSetAside[] = [];
    const kept: StoredSession[] = [];
    for (const s of sessions) {
      if (s.campaign !== undefined && campaign?.suspect === 'leave-out') setAside.push({ session: s, finding: s.campaign, dice: s.store.dieRolls(s.session.id).map((r) => ({ label: r.die.label, type: r.die.typeId })) });
      else kept.push(s);
    }
    const logs = kept.map((s): ParsedLog => {
      // Its unresolved rolls in their places, so analyze replays its e-value as the session's monitor took them.
      const dice = sessionDieLogs(s.store.dieRolls(s.session.id), storedSessionName(s), s.store.unresolvedRolls(s.session.id));
      // Stored rolls read like a JSON Lines export of the session (the format `dicerig export` writes).
      return { file: storedSessionName(s), format: 'jsonl', dice, rows: dice.reduce((n, d) => n + d.codes.length, 0) };
    });
    const verdicts = new Map<string, StoredDieVerdict[]>();
    const notes: string[] = [];
    kept.forEach((s, i) => {
      const id = s.fleetId ?? s.session.id;
      const own = storedDieVerdicts(s.store.storedVerdicts(s.session.id)?.verdicts, id);
      const found = s.campaign;
      if (found === undefined) {
        for (const { label, verdict } of own) {
          verdicts.set(label, [...(verdicts.get(label) ?? []), verdict]);
          // A label the verdict counted may have been corrected since (dicerig review): the verdict stands as the
          // session made it (one verdict, made once), but not silently on rolls that now read otherwise.
          const die = logs[i]?.dice.find((d) => d.label === label);
          const held = die === undefined ? 0 : die.codes.length + unresolvedCount(die);
          // More rolls than it judged: the session rolled on after storing it (a run still rolling, or one that died).
          if (verdict.rolls !== undefined && held > verdict.rolls) {
            notes.push(`${storedSessionName(s)}: die ${label}'s verdict was made on its first ${formatCount(verdict.rolls)} rolls; the session stored ${formatCount(held - verdict.rolls)} more after it (a run still rolling, or one whose process died before it stopped): it is shown as the session made it, and the session's next stop (or dicerig run --resume) judges them`);
            continue;
          }
          const differs = die === undefined ? undefined : countsDiffer(die, verdict, types ?? []);
          if (differs !== undefined) {
            notes.push(`${storedSessionName(s)}: die ${label}'s verdict was made before labels it counted were corrected (it counted ${differs.then}; now ${differs.now}): it is shown as the session made it, on the labels of its time`);
          }
        }
        return;
      }
      // A session on a rig its campaign found biased: each of its dice is RIG_SUSPECT by the finding, as campaign report shows its legs.
      const log = logs[i] as ParsedLog;
      for (const label of new Set([...own.map((v) => v.label), ...log.dice.map((d) => d.label)])) {
        const verdict = withCampaignFinding(own.find((v) => v.label === label)?.verdict, id, log.dice.find((d) => d.label === label)?.codes.length ?? 0, found);
        verdicts.set(label, [...(verdicts.get(label) ?? []), verdict]);
      }
    });
    // Per die, its rolls the reader left unresolved and nobody labelled (not in the logs: they could be any face).
    const unresolved = new Map<string, number>();
    for (const s of kept) for (const r of s.store.unresolvedRolls(s.session.id)) unresolved.set(r.dieLabel, (unresolved.get(r.dieLabel) ?? 0) + 1);
    // Per die, how many of the sessions rolled it.
    const rolledIn = new Map<string, number>();
    for (const l of logs) for (const d of l.dice) rolledIn.set(d.label, (rolledIn.get(d.label) ?? 0) + 1);
    return { sessions: kept, logs, verdicts, unresolved, rolledIn, notes, setAside };
  } finally {
    await opened.close();
  }
}

/**
 * Opens the sessions `keys` name (those the user `asked` for, or the sessions read in their place), an error said as
 * of a source that is no file: no store to look it up in, a session the store has not, a fleet store out of reach.
 */
async function openNamed(db: string | undefined, keys: readonly string[], asked: readonly string[], types: readonly DieType[] | undefined): Promise<Awaited<ReturnType<typeof openStoredSessions>>> {
  try {
    return await openStoredSessions(db, keys, types);
  } catch (e) {
    const file = (k: string | undefined): string => asked[keys.indexOf(k ?? '')] ?? (asked[0] as string);
    // No store at all (no session named in the error): said as before fleet stores existed.
    if (e instanceof StoreError && e.where.session === undefined) {
      throw new InputError(`no such file, and no roll store to look it up in as a session (${e.message})`, { file: file(undefined) }, { cause: e });
    }
    if (e instanceof StoreError || e instanceof FleetUnreachableError || (e instanceof FleetError && e.where.session !== undefined)) {
      throw new InputError(`no such file, and ${e.message.charAt(0).toLowerCase()}${e.message.slice(1)}`, { file: file(keys.find((k) => e.message.includes(`"${k}"`))) }, { cause: e });
    }
    throw e;
  }
}

/**
 * The decision settings every source ran with, from each one's config as JSON (a stored session's, or the one an
 * export's manifest carries; as `report` reads one session's): a key they differ on, or one a source does not say (an
 * imported session, a log without a manifest: `{}`), is left out.
 */
export function sessionsSettings(configs: readonly string[]): { alpha?: number; delta?: number; serialAlpha?: number } {
  const all = configs.map((c) => sessionSettings(c));
  const out: { alpha?: number; delta?: number; serialAlpha?: number } = {};
  for (const key of ['alpha', 'delta', 'serialAlpha'] as const) {
    const first = all[0]?.[key];
    if (first !== undefined && all.every((s) => s[key] === first)) out[key] = first;
  }
  return out;
}
