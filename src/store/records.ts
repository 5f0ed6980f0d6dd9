/**
 * What the roll store holds and takes, as plain objects. Times are
 * milliseconds since the Unix epoch, supplied by the caller (the store never
 * reads a clock).
 */
import type { DriverKind } from '../rig/driver.js';

export type ThrowStatus = 'ok' | 'void' | 'rerolled';
export const THROW_STATUSES: readonly ThrowStatus[] = ['ok', 'void', 'rerolled'];

/** `running` until ended; a crashed run stays `running` until resumed or ended. */
/** `never-started`: the session was created but its run failed before the first throw (e.g. no camera). */
export type SessionState = 'running' | 'finished' | 'stopped' | 'aborted' | 'never-started';
export type SessionOrigin = 'rig' | 'import';
/** `fairness`: a session run to test dice; `stream`: the rolls asked for on stream (`dicerig serve`), which add to the dice's record. */
export type SessionKind = 'fairness' | 'stream';

export interface RigRecord {
  readonly id: number;
  readonly rigId: string;
  readonly driver: DriverKind;
  readonly firmware: string;
  readonly protocol: number;
  readonly configHash: string;
  /** Hash of the calibration profile in use; '' when none was recorded. */
  readonly calibrationHash: string;
  readonly tumbler: 'servo' | 'stepper';
  readonly port: string | null;
}

export interface DieInput {
  /** The die's label or serial; unique in the store. */
  readonly label: string;
  /** Die type id (`red`, `green`, `d6`...). */
  readonly typeId: string;
  readonly set?: string;
  readonly notes?: string;
}

export interface DieRecord {
  readonly id: number;
  readonly label: string;
  readonly typeId: string;
  readonly set: string | null;
  readonly notes: string | null;
}

export interface SessionInput {
  /** Optional name, unique in the store; not all digits (a number names a session by id). */
  readonly name?: string;
  /** `rig` (default) for rolled sessions, `import` for sessions read from roll logs. */
  readonly origin?: SessionOrigin;
  /** `fairness` (default) or `stream`. */
  readonly kind?: SessionKind;
  /** The run's configuration, stored as JSON. */
  readonly config: unknown;
  /** Software version that ran the session (default: this one). */
  readonly softwareVersion?: string;
  /** True when the rolls come from a simulation: every roll row carries it, so they never mix with real data. */
  readonly simulated: boolean;
  /** Row id of the rig (from `registerRig`). */
  readonly rigId?: number;
  readonly startedAt: number;
}

export interface SessionRecord {
  readonly id: number;
  readonly name: string | null;
  readonly origin: SessionOrigin;
  /** Always read from the store; optional so records built by hand before the column existed still type-check (absent = fairness). */
  readonly kind?: SessionKind;
  readonly configJson: string;
  readonly softwareVersion: string;
  readonly simulated: boolean;
  readonly rigId: number | null;
  readonly startedAt: number;
  readonly endedAt: number | null;
  readonly state: SessionState;
  /** Index of the last committed throw (0 before the first). */
  readonly throwCount: number;
  /** Hash of the last committed throw (the genesis hash before the first). */
  readonly headHash: string;
}

export interface RollInput {
  /** Row id of the die (from `registerDie`). */
  readonly dieId: number;
  readonly channel?: number;
  /** Physical face id; absent when only the symbol is known (or the die was unreadable). */
  readonly faceId?: string;
  /** Symbol read; absent when the die was unreadable. */
  readonly symbol?: string;
  /** Classifier confidence, 0..1. */
  readonly confidence?: number;
  readonly cocked?: boolean;
  readonly classifierVersion?: string;
  readonly evidencePath?: string;
  readonly evidenceHash?: string;
  /** `unresolved`: the reader declined the die, or the locator did not find it (no face, no symbol); it keeps its place in an `ok` throw until a person labels it. Default `read`. */
  readonly resolution?: 'read' | 'unresolved';
}

export interface ThrowInput {
  readonly startedAt: number;
  readonly endedAt: number;
  /** `ok` throws are counted; `void` (a fault interrupted it) and `rerolled` (a die was cocked, unreadable, missing) never are. */
  readonly status: ThrowStatus;
  /** Why a throw is void or rerolled (required for those). */
  readonly why?: string;
  readonly rolls: readonly RollInput[];
}

/** When a stored throw ran (ms since the epoch, session clock). */
export interface ThrowTiming {
  /** 1-based index of the throw in its session. */
  readonly index: number;
  readonly startedAt: number;
  readonly endedAt: number;
}

export interface RecordedThrow {
  readonly throwId: number;
  /** 1-based index of the throw in its session. */
  readonly index: number;
  readonly hash: string;
}

export interface EventInput {
  readonly at: number;
  /** What happened: `cocked`, `unreadable`, `missing`, `fault`, `reconnect`, `resumed`... */
  readonly kind: string;
  readonly throwIndex?: number;
  readonly dieId?: number;
  /** Anything JSON can hold: evidence paths, fault messages, counts. */
  readonly detail?: unknown;
}

export interface EventRecord {
  readonly id: number;
  readonly sessionId: number;
  readonly at: number;
  readonly kind: string;
  readonly throwIndex: number | null;
  readonly dieId: number | null;
  readonly detail: unknown;
}

/** A roll that counts: in an `ok` throw, read (has a symbol) or labelled by a person, and not cocked. */
export interface CountedRoll {
  readonly throwIndex: number;
  readonly dieId: number;
  readonly dieLabel: string;
  readonly dieType: string;
  readonly channel: number | null;
  readonly faceId: string | null;
  readonly symbol: string;
  /** Null for a `reviewed` roll: the reader declined it, so its guess is no read. */
  readonly confidence: number | null;
  readonly classifierVersion: string | null;
  readonly simulated: boolean;
  /** `read` by the reader, or declined and `reviewed`: its face is the one a person gave. */
  readonly resolution: 'read' | 'reviewed';
  /** Who gave a `reviewed` roll its face (the answer that stands); null for a read roll. */
  readonly reviewer: string | null;
}

/** One die's counted rolls in a session, in throw order. */
export interface DieRollSeries {
  readonly die: DieRecord;
  readonly throwIndices: number[];
  readonly channels: (number | null)[];
  readonly faces: (string | null)[];
  readonly symbols: string[];
}

export interface SessionCounts {
  readonly throws: number;
  readonly ok: number;
  readonly void: number;
  readonly rerolled: number;
  /** Every roll row, counted or not. */
  readonly rolls: number;
  /** Rolls that count toward the statistics (see `CountedRoll`). */
  readonly countedRolls: number;
  readonly cocked: number;
  readonly events: number;
}

/** The first place a session's hash chain fails. */
export interface ChainBreak {
  readonly sessionId: number;
  readonly sessionName: string | null;
  /** The throw where the chain fails; null when the session's head (its last throw) is what fails. */
  readonly throwIndex: number | null;
  readonly problem: string;
}

export interface VerifyReport {
  readonly ok: boolean;
  readonly sessions: number;
  readonly throws: number;
  readonly rolls: number;
  /** Roll rows whose throw no longer exists. */
  readonly orphanRolls: number;
  /** At most one per session: the first throw whose chain fails. */
  readonly breaks: readonly ChainBreak[];
  /** What SQLite's integrity check (or a read that failed on a damaged page) found wrong with the file; absent when nothing. */
  readonly damage?: readonly string[];
  /** What verification could not cover (sessions recorded before the seal); absent when nothing. */
  readonly notes?: readonly string[];
}
