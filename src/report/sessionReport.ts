import { analyzeDice, type Analysis, type AnalyzeOptions, type DieAnalysis } from '../analysis/analyze.js';
import { homogeneityWhateverUnresolved } from '../analysis/homogeneityUnresolved.js';
import { withSessionVerdict } from '../analysis/sessionVerdict.js';
import { withCampaignFinding, type CampaignSessionFinding } from '../analysis/campaign/sessionFindings.js';
import { holdWhateverUnresolved } from '../analysis/unresolvedRolls.js';
import { widenedFigures } from '../analysis/widenedFigures.js';
import { describeFleetSession, type FleetSessionInfo } from '../fleet/fleetReader.js';
import { rollCountsDiffer } from '../analysis/verdictCounts.js';
import { unresolvedCount, type DieRolls } from '../rolllog/types.js';
import { InputError } from '../core/errors.js';
import { largestDeviationBound } from '../stats/intervals.js';
import type { DieVerdict, SessionVerdicts } from '../stats/dieVerdict.js';
import type { SessionOfDie } from '../store/dieSessions.js';
import type { EventRecord, RigRecord, SessionCounts, SessionRecord, ThrowTiming } from '../store/records.js';
import { evidenceTrace, type EvidenceTrace } from './evidenceTrace.js';
import type { InPlaceOfCopy } from './inPlaceOfCopy.js';
import { fileKeys } from './fileKeys.js';
import { sessionEvidenceTrace, type StoredDieEvent } from './sessionEvidence.js';
import { verdictMeaning } from './plainWords.js';
import { rigHealth, type RigHealth } from './rigHealth.js';
import { transitionTable, type TransitionTable } from './transitionTable.js';

/** Everything a session report is made from, read from the store by the caller. */
export interface ReportInput {
  readonly session: SessionRecord;
  readonly rig: RigRecord | null;
  readonly counts: SessionCounts;
  readonly events: readonly EventRecord[];
  /** Start and end of every throw, in order (the throw rate is measured over them when given). */
  readonly throwTimes?: readonly ThrowTiming[];
  /** Each die's counted rolls in throw order (as `analyze` reads them). */
  readonly rolls: readonly DieRolls[];
  /** Channels each die was rolled in, by label (absent when unknown). */
  readonly channels?: ReadonlyMap<string, readonly number[]>;
  /** When the report is made (ms since the epoch), printed on it. */
  readonly generatedAt: number;
  /** The verdicts the session made and stored (a sequential session): shown as is, never recomputed. */
  readonly verdicts?: SessionVerdicts | null;
  /** Per die: its rolls read by the reader and labelled by a person, per face, and those still unresolved. */
  readonly resolution?: readonly DieResolution[];
  /** Per die (by label): its stored roll events as the session met them, to draw the evidence the session used. */
  readonly rollEvents?: ReadonlyMap<string, readonly StoredDieEvent[]>;
  /** Per die (by label): the other sessions of the store that rolled it. */
  readonly alsoRolledIn?: ReadonlyMap<string, readonly SessionOfDie[]>;
  /** A fleet session's listing, when the session was read from the fleet store (its id there names the report). */
  readonly fleet?: FleetSessionInfo;
  /** Its campaign's finding, when the campaign found the rig it ran on biased: every die's verdict is RIG_SUSPECT. */
  readonly campaign?: CampaignSessionFinding;
}

/** How a die's rolls were resolved: per face (face id, or symbol) read and reviewed, and the unresolved ones. */
export interface DieResolution {
  readonly label: string;
  readonly faces: readonly { readonly face: string; readonly read: number; readonly reviewed: number }[];
  readonly unresolved: number;
  /** Of its unresolved rolls, those a person looked at and could not tell (off the review queue; absent when none). */
  readonly cannotTell?: number;
  /**
   * Of its read rolls, those the reader declined at first and a re-read resolved (from the
   * session's `reread` events; absent when they do not say, e.g. an imported session).
   */
  readonly rereadResolved?: number;
}

export interface DieReport {
  readonly analysis: DieAnalysis;
  /** Unique, file-name and HTML-id safe key of the die. */
  readonly key: string;
  readonly channels: readonly number[];
  /**
   * The largest distance any face or symbol's true probability can still be
   * from its expected odds (Goodman simultaneous bound, worst level): what the
   * organiser can certify about this die.
   */
  readonly certifiedBound: number;
  readonly evidence: EvidenceTrace;
  readonly transitions: TransitionTable;
  /** The verdict in plain words. */
  readonly meaning: readonly string[];
  /** The session's own verdict of this die, when it stored one: the report's verdict is this one. */
  readonly stored: DieVerdict | null;
  /** How its rolls were resolved (read, re-read, reviewed, unresolved), when known. */
  readonly resolution?: DieResolution;
  /** The other sessions of the store that rolled it (`analyze` judges it on all of them and this one, `session`, together). */
  readonly alsoRolledIn?: { readonly session: number; readonly others: readonly SessionOfDie[] };
  /** Labels its stored verdict counted that were corrected since: the faces that differ, as counted then and now. */
  readonly correctedSince?: { readonly then: string; readonly now: string };
}

export interface SessionReport {
  readonly session: SessionRecord;
  readonly rig: RigRecord | null;
  readonly generatedAt: number;
  readonly analysis: Analysis;
  readonly dice: readonly DieReport[];
  readonly rigHealth: RigHealth;
  /** The session's stored verdicts (null for an imported session: its verdicts are the analysis's). */
  readonly verdicts: SessionVerdicts | null;
  /** Rolls stored after the verdicts were (0: they judge every roll); the counts shown include them. */
  readonly rollsSinceVerdicts: number;
  readonly resolution: readonly DieResolution[];
  /** Its fleet listing, when read from the fleet store. */
  readonly fleet?: FleetSessionInfo;
  /** Its campaign's finding on it, in place of its dice's own verdicts (which `verdicts` keeps). */
  readonly campaign?: CampaignSessionFinding;
  /** The fleet copy this report was asked for, when it reports the session whose rolls the copy holds in its place. */
  readonly inPlaceOf?: InPlaceOfCopy;
}

/** `session 3 (demo)`, or `session 3` when it has no name. */
export function sessionTitle(s: Pick<SessionRecord, 'id' | 'name'>): string {
  return `session ${s.id}${s.name !== null ? ` (${s.name})` : ''}`;
}

/** The report's session as it was asked for: a fleet session by its fleet id, with its rig host's id beside it. */
export function reportTitle(r: Pick<SessionReport, 'session' | 'fleet'>): string {
  return r.fleet !== undefined ? describeFleetSession(r.fleet) : sessionTitle(r.session);
}

/**
 * Analyses a session's dice as `dicerig analyze` would, and adds what the
 * report shows beyond it: each die's evidence trace, transition table,
 * certified bound and plain-words meaning, and the rig's health. Throws an
 * InputError for a session with no counted rolls.
 */
export function buildSessionReport(input: ReportInput, options: AnalyzeOptions = {}): SessionReport {
  const { session, counts } = input;
  if (input.rolls.length === 0 || input.rolls.every((r) => r.symbols.length === 0)) {
    const throws =
      counts.throws === 0 ? 'it has no throws yet' : `it has ${counts.throws} throw${counts.throws === 1 ? '' : 's'}: ${counts.ok} ok, ${counts.void} void, ${counts.rerolled} rerolled`;
    throw new InputError(`${sessionTitle(session)} has no counted rolls (${throws}), so there is nothing to report yet.`);
  }
  const analyzed = analyzeDice(input.rolls, options);
  const verdicts = input.verdicts ?? null;
  const storedOf = (label: string): DieVerdict | null => verdicts?.dice.find((v) => v.label === label) ?? null;
  // A sequential session's verdict is the one it made and stored: the analysis's fixed-n figures stay, labelled descriptive.
  const resolutionOf = (label: string): DieResolution | undefined => input.resolution?.find((r) => r.label === label);
  const homogeneity = homogeneityWhateverUnresolved(analyzed.homogeneity, (label) => resolutionOf(label)?.unresolved ?? 0, analyzed.alpha);
  // A campaign that found the session's rig biased has the last word on every die of it, as `campaign report` has.
  const finding = input.campaign;
  // A die with no stored verdict is judged as analyze judges it: to hold whatever its unresolved rolls were.
  const unresolvedSettings = { alpha: analyzed.alpha, certifyAlpha: analyzed.certifyAlpha, delta: analyzed.delta, family: analyzed.family };
  const heldOf = (d: (typeof analyzed.dice)[number]) => holdWhateverUnresolved(d, resolutionOf(d.label)?.unresolved ?? 0, unresolvedSettings);
  // A stored verdict is the session's own, but the die's figures (tables and charts) hold whatever its unresolved rolls were, as analyze shows them.
  const widenedOf = (d: (typeof analyzed.dice)[number]) => widenedFigures(d, resolutionOf(d.label)?.unresolved ?? 0, unresolvedSettings);
  const judged = analyzed.dice.map((d) => {
    const stored = storedOf(d.label);
    return stored !== null ? withSessionVerdict(widenedOf(d), stored) : heldOf(d);
  });
  const analysis = { ...analyzed, homogeneity, dice: finding === undefined ? judged : judged.map((d) => withCampaignFinding(d, finding)) };
  const keys = fileKeys(analysis.dice.map((d) => d.label));
  // The session's own evidence (its least favourable e-value, its threshold) where it stored a verdict; else the read rolls replayed.
  const evidenceOf = (label: string, r: DieRolls, expected: readonly number[]): EvidenceTrace => {
    const stored = storedOf(label);
    const events = input.rollEvents?.get(label);
    const own = stored !== null && events !== undefined ? sessionEvidenceTrace(events, stored) : null;
    if (own !== null) return own;
    return evidenceTrace(
      r.symbols,
      expected,
      verdicts === null
        ? { alpha: analysis.alpha, delta: analysis.delta, family: analysis.family, ...(r.unresolvedAt !== undefined ? { unresolvedAt: r.unresolvedAt } : {}) }
        : { alpha: verdicts.errorControl.alpha, delta: stored?.delta ?? analysis.delta, family: verdicts.errorControl.dice, ...(r.unresolvedAt !== undefined ? { unresolvedAt: r.unresolvedAt } : {}) },
    );
  };
  const dice = analysis.dice.map((d, i): DieReport => {
    const r = input.rolls[i] as DieRolls;
    const levels = d.face ? [d.symbol, d.face] : [d.symbol];
    const sequence = r.faces ?? r.symbols;
    // The heatmap shows the table the serial check tested: faces when they were read, else symbols.
    const labels = r.faces ? r.die.faces.map((f) => f.id) : r.die.symbols;
    return {
      analysis: d,
      key: keys[i] as string,
      channels: input.channels?.get(d.label) ?? [],
      certifiedBound: certifiedBound(storedOf(d.label), levels),
      evidence: evidenceOf(d.label, r, d.symbol.expected),
      transitions: transitionTable(sequence, labels, r.faces ? 'face' : 'symbol'),
      meaning: verdictMeaning(d, analysis, resolutionOf(d.label)?.unresolved ?? 0, storedOf(d.label) ?? undefined),
      stored: storedOf(d.label),
      ...(resolutionOf(d.label) ? { resolution: resolutionOf(d.label) as DieResolution } : {}),
      ...((input.alsoRolledIn?.get(d.label)?.length ?? 0) > 0 ? { alsoRolledIn: { session: session.id, others: input.alsoRolledIn?.get(d.label) as readonly SessionOfDie[] } } : {}),
      ...correctedSince(r, storedOf(d.label)),
    };
  });
  return {
    session,
    rig: input.rig,
    generatedAt: input.generatedAt,
    analysis,
    dice,
    rigHealth: rigHealth(session, counts, input.events, input.throwTimes ?? []),
    verdicts,
    // A session stores its verdicts when a run stops (or a label remakes them): rolls beyond a die's verdict are a run
    // still rolling, or one whose process died before it stopped.
    rollsSinceVerdicts: dice.reduce((n, d) => n + (d.stored !== null ? Math.max(0, d.analysis.n + (d.resolution?.unresolved ?? 0) - d.stored.rolls) : 0), 0),
    resolution: input.resolution ?? [],
    ...(input.fleet !== undefined ? { fleet: input.fleet } : {}),
    ...(finding !== undefined ? { campaign: finding } : {}),
  };
}

/**
 * What the organiser can certify of a die: where the session stored its verdict, the largest deviation its own
 * intervals leave (anytime-valid under its error control, widened over every face its unresolved rolls could have
 * and its misread bounds; for FAIR_WITHIN the verdict's certified delta). A fixed-n interval computed where a sequential
 * session chose to stop would certify more than the session can, and would not be its verdict. Else the analysis'
 * simultaneous bound over its levels.
 */
function certifiedBound(stored: DieVerdict | null, levels: readonly DieAnalysis['symbol'][]): number {
  if (stored !== null && stored.faces.length > 0) return largestDeviationBound(stored.faces.map((f) => f.expected), stored.faces);
  return Math.max(...levels.map((l) => largestDeviationBound(l.expected, l.intervals)));
}

/** Labels the die's stored verdict counted that a review corrected since (the verdict stands as made, but not silently). */
function correctedSince(r: DieRolls, stored: DieVerdict | null): { correctedSince?: { then: string; now: string } } {
  if (stored === null) return {};
  // Rolls stored after the verdict (the session rolled on: `rollsSinceVerdicts`) are not corrections.
  if (r.symbols.length + unresolvedCount(r) > stored.rolls) return {};
  const differs = rollCountsDiffer(r, { faces: stored.faces, partial: { counts: stored.counts, unresolved: stored.unresolved } });
  return differs === undefined ? {} : { correctedSince: differs };
}
