/**
 * A stored session's report, read from a roll store (a local one, or a fleet
 * store's snapshot): what `dicerig report` writes and the fleet dashboard
 * shows, made by one function so both show one verdict per die (the session's
 * stored verdict where it made one, see `buildSessionReport`).
 */
import type { Multiplicity } from '../analysis/analyze.js';
import { resolveDieRolls } from '../analysis/dieRolls.js';
import { ConfigError } from '../core/errors.js';
import type { DieType } from '../dice/types.js';
import { checkSessionConfig } from '../session/config.js';
import type { SessionVerdicts } from '../stats/dieVerdict.js';
import type { SessionRecord } from '../store/records.js';
import { isCannotTell } from '../store/reviews.js';
import type { RollStore } from '../store/rollStore.js';
import { sessionDieLogs } from '../store/sessionDieLogs.js';
import { buildSessionReport, sessionTitle, type DieResolution, type SessionReport } from './sessionReport.js';
import type { CampaignSessionFinding } from '../analysis/campaign/sessionFindings.js';
import type { FleetSessionInfo } from '../fleet/fleetReader.js';

/** What `analyze` uses when neither the command line nor the session says. */
export const FALLBACK_SETTINGS = { alpha: 0.05, delta: 0.03, serialAlpha: 0.01 };

/**
 * The decision settings a session ran with (its stored config's stopping rules, read as `--resume`
 * reads them), so that its report judges the dice as the session did. A session imported from
 * exports keeps those of the session it came from (its config's `settings`, written by import);
 * one imported from plain roll logs has none (empty).
 */
export function sessionSettings(configJson: string): { alpha?: number; delta?: number; serialAlpha?: number } {
  try {
    const config = JSON.parse(configJson) as unknown;
    const imported = importedSettings(config);
    if (imported !== undefined) return imported;
    const { stopping } = checkSessionConfig(config);
    return { alpha: stopping.alpha, delta: stopping.delta, serialAlpha: stopping.rigCheckAlpha };
  } catch (e) {
    // Not a session config (an imported session's, or unreadable): the caller falls back.
    if (e instanceof SyntaxError || e instanceof ConfigError) return {};
    throw e;
  }
}

/** An imported session's kept settings: each a probability, or none at all. */
function importedSettings(config: unknown): { alpha: number; delta: number; serialAlpha: number } | undefined {
  if (typeof config !== 'object' || config === null || !('imported' in config) || !('settings' in config)) return undefined;
  const s = (config as { settings: unknown }).settings as Record<string, unknown> | null;
  const p = (v: unknown): v is number => typeof v === 'number' && v > 0 && v < 1;
  if (s === null || typeof s !== 'object' || !p(s['alpha']) || !p(s['delta']) || !p(s['serialAlpha'])) return undefined;
  return { alpha: s['alpha'], delta: s['delta'], serialAlpha: s['serialAlpha'] };
}

export interface StoredReportOptions {
  /** The die types its dice may be (built-in and the user's). */
  readonly dice: readonly DieType[];
  /** Overrides of the session's own settings (else its own, else FALLBACK_SETTINGS). */
  readonly alpha?: number;
  readonly delta?: number;
  readonly serialAlpha?: number;
  readonly multiplicity?: Multiplicity;
  /** When the report is made (ms since the epoch). */
  readonly generatedAt: number;
  /** The session's fleet listing, when it was read from the fleet store. */
  readonly fleet?: FleetSessionInfo;
  /** Its campaign's finding on it (RIG_SUSPECT: its rig found biased), when there is one. */
  readonly campaign?: CampaignSessionFinding;
}

/** The report of `session` from `store`, judged as the session judged its dice unless told otherwise. */
export function storedSessionReport(store: RollStore, session: SessionRecord, options: StoredReportOptions): SessionReport {
  const series = store.dieRolls(session.id);
  // Its unresolved rolls in their places, so its evidence is replayed as analyze replays it.
  const rolls = sessionDieLogs(series, sessionTitle(session), store.unresolvedRolls(session.id)).map((log) => resolveDieRolls(log, options.dice));
  const channels = new Map(series.map((s) => [s.die.label, [...new Set(s.channels.filter((c) => c !== null))].sort((x, y) => x - y)]));
  const own = sessionSettings(session.configJson);
  return buildSessionReport(
    {
      session,
      rig: session.rigId === null ? null : (store.getRig(session.rigId) ?? null),
      counts: store.counts(session.id),
      events: store.events(session.id),
      throwTimes: store.throwTimes(session.id),
      rolls,
      channels,
      generatedAt: options.generatedAt,
      verdicts: (store.storedVerdicts(session.id)?.verdicts as SessionVerdicts | undefined) ?? null,
      resolution: resolutionOf(store, session.id),
      rollEvents: new Map([...store.rollEvents(session.id)].map(([dieId, events]) => [store.getDie(dieId)?.label ?? String(dieId), events])),
      alsoRolledIn: new Map(series.map((s) => [s.die.label, store.otherSessionsOfDie(s.die.label, session)])),
      ...(options.fleet !== undefined ? { fleet: options.fleet } : {}),
      ...(options.campaign !== undefined ? { campaign: options.campaign } : {}),
    },
    {
      alpha: options.alpha ?? own.alpha ?? FALLBACK_SETTINGS.alpha,
      delta: options.delta ?? own.delta ?? FALLBACK_SETTINGS.delta,
      multiplicity: options.multiplicity ?? 'holm',
      serialAlpha: options.serialAlpha ?? own.serialAlpha ?? FALLBACK_SETTINGS.serialAlpha,
    },
  );
}

/** Each die's rolls per face, read or reviewed, its unresolved rolls, and how many of its read rolls a re-read resolved, from the store. */
function resolutionOf(store: RollStore, sessionId: number): DieResolution[] {
  const out: DieResolution[] = [];
  // Each `reread` event names the dice declined at first in its throw; those not kept unresolved were resolved by the re-read.
  const declinedAtFirst = new Map<string, number>();
  // The re-read counts are known when the session re-read a die, or ended a run counting its declined dice (none declined: none re-read).
  let rereadsKnown = false;
  for (const e of store.events(sessionId)) {
    if (e.kind === 'run-ended' && typeof (e.detail as { totals?: { declined?: unknown } }).totals?.declined === 'number') rereadsKnown = true;
    if (e.kind !== 'reread') continue;
    rereadsKnown = true;
    const dice = (e.detail as { dice?: unknown }).dice;
    if (Array.isArray(dice)) for (const label of dice) if (typeof label === 'string') declinedAtFirst.set(label, (declinedAtFirst.get(label) ?? 0) + 1);
  }
  for (const [dieId, events] of store.rollEvents(sessionId)) {
    const faces = new Map<string, { read: number; reviewed: number }>();
    let unresolved = 0;
    let cannotTell = 0;
    // The answer that stands for each roll a person answered (a face, or null: cannot tell), so a correction moves it.
    const answers = new Map<number, string | null>();
    const give = (rollId: number, face: string | null, by: 1 | -1): void => {
      if (face === null) cannotTell += by;
      else {
        const f = faces.get(face) ?? { read: 0, reviewed: 0 };
        f.reviewed += by;
        unresolved -= by;
        faces.set(face, f);
      }
      if (by === 1) answers.set(rollId, face);
    };
    for (const e of events) {
      if (e.kind === 'unresolved') unresolved++;
      else if (e.kind === 'cannot-tell') give(e.rollId, null, 1);
      else if (e.kind === 'roll') {
        const face = e.faceId ?? e.symbol ?? '?';
        const f = faces.get(face) ?? { read: 0, reviewed: 0 };
        f.read++;
        faces.set(face, f);
      } else {
        const was = answers.get(e.rollId);
        if (e.kind === 'correction' && was !== undefined) give(e.rollId, was, -1);
        give(e.rollId, isCannotTell(e) ? null : (e.faceId ?? e.symbol), 1);
      }
    }
    for (const [face, f] of faces) if (f.read === 0 && f.reviewed === 0) faces.delete(face);
    const label = store.getDie(dieId)?.label ?? String(dieId);
    const kept = events.filter((e) => e.kind === 'unresolved').length;
    const rereadResolved = rereadsKnown ? Math.max(0, (declinedAtFirst.get(label) ?? 0) - kept) : undefined;
    out.push({
      label,
      unresolved,
      ...(cannotTell > 0 ? { cannotTell } : {}),
      faces: [...faces.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([face, f]) => ({ face, ...f })),
      ...(rereadResolved !== undefined ? { rereadResolved } : {}),
    });
  }
  return out;
}
