import { existsSync } from 'node:fs';
import { InputError } from '../core/errors.js';
import type { ParsedLog } from '../rolllog/types.js';
import type { StoredVerdictParts } from '../analysis/sessionVerdict.js';
import type { SessionPart } from '../analysis/acrossSessions.js';
import type { Verdict } from '../stats/verdict.js';
import { StoreError } from '../store/errors.js';
import { FleetError } from '../fleet/errors.js';
import { sessionDieLogs } from '../store/sessionDieLogs.js';
import { sessionSettings } from '../report/storedSessionReport.js';
import { openStoredSessions, type StoredSession } from './storedSessions.js';
import { requireVerified } from '../store/requireVerified.js';
import type { VerifyReport } from '../store/records.js';
import type { RollStore } from '../store/rollStore.js';

/** A die's verdict as a session made and stored it (kind and sentence, as is), with the intervals it rests on. */
export interface StoredDieVerdict {
  readonly session: number;
  readonly kind: string;
  readonly sentence: string;
  /**
   * Each face's (or symbol's) simultaneous interval as the session made it: anytime-valid under its error control,
   * widened over its unresolved rolls and misread bounds. Absent in verdicts stored without them.
   */
  readonly faces?: readonly StoredFaceInterval[];
  /** The verdict itself, its e-value and where it was made, for an analysis to show in place of its own. */
  readonly parts?: StoredVerdictParts;
  /** The session's error rate for this die (its alpha over its dice), when stored. */
  readonly alphaPerDie?: number;
  /** The counts `faces` were made from (read or labelled, per face; unresolved; misread bounds), when stored. */
  readonly partial?: { readonly counts: readonly number[]; readonly unresolved: number; readonly misreadRates?: readonly number[] };
}

export interface StoredFaceInterval {
  readonly label: string;
  readonly expected: number;
  readonly lower: number;
  readonly upper: number;
}

const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** The stored verdict's parts an analysis shows, when they are whole. */
function storedParts(d: { verdict?: unknown; sentence: string; logE?: unknown; decidedAt?: unknown }): StoredVerdictParts | undefined {
  const v = d.verdict as { kind?: unknown } | undefined;
  if (typeof v?.kind !== 'string' || !isNumber(d.logE) || !(d.decidedAt === null || isNumber(d.decidedAt))) return undefined;
  return { verdict: d.verdict as Verdict, sentence: d.sentence, logE: d.logE, decidedAt: d.decidedAt };
}

/**
 * The verdict a die's one session made, when every roll of the die is that session's (not pooled from several
 * sessions, nor with a file's rolls): the verdict to show for it; undefined otherwise.
 */
export function decidedBySession(stored: { readonly verdicts: ReadonlyMap<string, readonly StoredDieVerdict[]>; readonly rolledIn: ReadonlyMap<string, number> }, label: string, inFiles: ReadonlySet<string>): StoredDieVerdict | undefined {
  const own = stored.verdicts.get(label);
  // Another session may have rolled the die without storing a verdict for it (one recorded before verdicts were kept).
  return own?.length === 1 && !inFiles.has(label) && (stored.rolledIn.get(label) ?? 0) <= 1 ? own[0] : undefined;
}

/**
 * The verdicts of the sessions that rolled a die, when it was rolled in several stored sessions, no file holds its rolls
 * and each of them stored its verdict with its e-value: what `judgeAcrossSessions` combines. Undefined otherwise.
 */
export function decidedBySessions(stored: { readonly verdicts: ReadonlyMap<string, readonly StoredDieVerdict[]>; readonly rolledIn: ReadonlyMap<string, number> }, label: string, inFiles: ReadonlySet<string>): StoredDieVerdict[] | undefined {
  const own = stored.verdicts.get(label) ?? [];
  const rolled = stored.rolledIn.get(label) ?? 0;
  return own.length >= 2 && own.length === rolled && !inFiles.has(label) && own.every((v) => v.parts !== undefined) ? [...own] : undefined;
}

/** A stored session's verdict on a die, as `judgeAcrossSessions` and `combineSessions` take it (one from `decidedBySessions`: its parts are whole). */
export function asPart(v: StoredDieVerdict): SessionPart {
  return { session: v.session, kind: v.kind, logE: v.parts?.logE ?? 0, ...(v.alphaPerDie !== undefined ? { alphaPerDie: v.alphaPerDie } : {}), ...(v.faces ? { faces: v.faces } : {}) };
}

/** The counts a stored verdict's intervals were made from, when whole: one count per face, the unresolved rolls, the misread bounds (null: none). */
function storedPartial(d: { counts?: unknown; unresolved?: unknown; misreadRates?: unknown }, k: number): StoredDieVerdict['partial'] {
  const counts = d.counts;
  const rates = d.misreadRates;
  const nonNegative = (x: unknown): x is number => isNumber(x) && x >= 0;
  if (!Array.isArray(counts) || counts.length !== k || !counts.every(nonNegative) || !nonNegative(d.unresolved)) return undefined;
  if (rates !== null && rates !== undefined && !(Array.isArray(rates) && rates.length === k && rates.every(nonNegative))) return undefined;
  return { counts, unresolved: d.unresolved, ...(Array.isArray(rates) ? { misreadRates: rates as number[] } : {}) };
}

/** The stored faces' intervals, when every one is whole (a verdict stored by an older dicerig may lack them). */
function storedFaces(faces: unknown): StoredFaceInterval[] | undefined {
  if (!Array.isArray(faces) || faces.length === 0) return undefined;
  const out: StoredFaceInterval[] = [];
  for (const f of faces as Record<string, unknown>[]) {
    if (typeof f?.label !== 'string' || !isNumber(f.expected) || !isNumber(f.lower) || !isNumber(f.upper)) return undefined;
    out.push({ label: f.label, expected: f.expected, lower: f.lower, upper: f.upper });
  }
  return out;
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
 * The counted rolls of the named sessions (of a local roll store or the fleet
 * store), as logs `mergeLogs` joins with files (a die in several sessions is
 * one die: its rolls are appended in the order given). Simulated and real rolls
 * never mix: simulated sessions pool only with other simulated sessions.
 */
export async function readStoredLogs(
  keys: readonly string[],
  db: string | undefined,
  withFiles: boolean,
  verification: StoredVerification,
): Promise<{ sessions: StoredSession[]; logs: ParsedLog[]; verdicts: Map<string, StoredDieVerdict[]>; unresolved: Map<string, number>; rolledIn: Map<string, number> }> {
  if (keys.length === 0) return { sessions: [], logs: [], verdicts: new Map(), unresolved: new Map(), rolledIn: new Map() };
  let opened: Awaited<ReturnType<typeof openStoredSessions>>;
  try {
    opened = await openStoredSessions(db, keys);
  } catch (e) {
    // No store at all (no session named in the error): said as before fleet stores existed.
    if (e instanceof StoreError && e.where.session === undefined) {
      throw new InputError(`no such file, and no roll store to look it up in as a session (${e.message})`, { file: keys[0] as string }, { cause: e });
    }
    if (e instanceof StoreError || (e instanceof FleetError && e.where.session !== undefined)) {
      throw new InputError(`no such file, and ${e.message.charAt(0).toLowerCase()}${e.message.slice(1)}`, { file: keys.find((k) => e.message.includes(`"${k}"`)) ?? (keys[0] as string) }, { cause: e });
    }
    throw e;
  }
  try {
    const sessions = opened.sessions;
    // One session named twice (by id and by name, say) would count its rolls, and multiply its evidence, twice.
    const seen = new Set<number>();
    for (const s of sessions) {
      const id = s.fleetId ?? s.session.id;
      if (seen.has(id)) throw new InputError(`${storedSessionName(s)} is named twice among the sources: each session's rolls count once, so name it once`);
      seen.add(id);
    }
    // A tampered or damaged store gives no verdict unless asked for (as export and report refuse it).
    // Verified once per store: the walk covers every chain of it, however many of its sessions are named.
    const reports = new Map<RollStore, VerifyReport>();
    for (const s of sessions) {
      let report = reports.get(s.store);
      if (report === undefined) reports.set(s.store, (report = s.store.verify()));
      requireVerified(s.store, s.session.id, verification.allowUnverified, verification.warn, verification.doing, report);
    }
    const simulated = sessions.filter((s) => s.session.simulated);
    if (simulated.length > 0 && (simulated.length < sessions.length || withFiles)) {
      const others = withFiles ? 'roll-log files' : sessions.filter((s) => !s.session.simulated).map(storedSessionName).join(', ');
      throw new InputError(`${simulated.map(storedSessionName).join(', ')} ${simulated.length === 1 ? 'is' : 'are'} simulated and cannot be pooled with ${others}: simulated rolls never mix with real ones`);
    }
    const logs = sessions.map((s): ParsedLog => {
      const dice = sessionDieLogs(s.store.dieRolls(s.session.id), storedSessionName(s));
      // Stored rolls read like a JSON Lines export of the session (the format `dicerig export` writes).
      return { file: storedSessionName(s), format: 'jsonl', dice, rows: dice.reduce((n, d) => n + d.codes.length, 0) };
    });
    const verdicts = new Map<string, StoredDieVerdict[]>();
    for (const s of sessions) {
      const made = s.store.storedVerdicts(s.session.id)?.verdicts as
        | { dice?: { label: string; kind: string; sentence: string; faces?: unknown; verdict?: unknown; logE?: unknown; decidedAt?: unknown; alphaPerDie?: unknown; counts?: unknown; unresolved?: unknown; misreadRates?: unknown }[] }
        | undefined;
      for (const d of made?.dice ?? []) {
        const faces = storedFaces(d.faces);
        const parts = storedParts(d);
        const alpha = isNumber(d.alphaPerDie) && d.alphaPerDie > 0 && d.alphaPerDie < 1 ? { alphaPerDie: d.alphaPerDie } : {};
        const partial = faces ? storedPartial(d, faces.length) : undefined;
        verdicts.set(d.label, [...(verdicts.get(d.label) ?? []), { session: s.fleetId ?? s.session.id, kind: d.kind, sentence: d.sentence, ...(faces ? { faces } : {}), ...(parts ? { parts } : {}), ...alpha, ...(partial ? { partial } : {}) }]);
      }
    }
    // Per die, its rolls the reader left unresolved and nobody labelled (not in the logs: they could be any face).
    const unresolved = new Map<string, number>();
    for (const s of sessions) for (const r of s.store.unresolvedRolls(s.session.id)) unresolved.set(r.dieLabel, (unresolved.get(r.dieLabel) ?? 0) + 1);
    // Per die, how many of the sessions rolled it.
    const rolledIn = new Map<string, number>();
    for (const l of logs) for (const d of l.dice) rolledIn.set(d.label, (rolledIn.get(d.label) ?? 0) + 1);
    return { sessions, logs, verdicts, unresolved, rolledIn };
  } finally {
    await opened.close();
  }
}

/**
 * The decision settings every one of `sessions` ran with (its stored config's, as `report` reads one session's): a key
 * they differ on, or one a session does not say (an imported session), is left out.
 */
export function sessionsSettings(sessions: readonly StoredSession[]): { alpha?: number; delta?: number; serialAlpha?: number } {
  const all = sessions.map((s) => sessionSettings(s.session.configJson));
  const out: { alpha?: number; delta?: number; serialAlpha?: number } = {};
  for (const key of ['alpha', 'delta', 'serialAlpha'] as const) {
    const first = all[0]?.[key];
    if (first !== undefined && all.every((s) => s[key] === first)) out[key] = first;
  }
  return out;
}
