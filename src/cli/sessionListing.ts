/**
 * A session as `dicerig sessions` lists it, in one shape for a local roll store and for the fleet store, so a script
 * reading `--json` reads both alike: the rig by the name it reports (the local store's rig row number means nothing
 * elsewhere), times in whole epoch milliseconds (a simulated clock's are fractional in the store), and the chain head.
 * A running session of a local store also names the process that claimed it, so a run that was killed is told from
 * one still rolling.
 */
import { STREAM_NOT_RESUMED } from '../session/streamSession.js';
import { shellWord } from '../core/format.js';
import type { FleetSessionInfo } from '../fleet/fleetReader.js';
import type { TakenOver } from '../fleet/takenOver.js';
import { inOtherPidNamespace, liveness, type Liveness } from '../store/processLiveness.js';
import { editedImports, editedImportWords, type EditedImport } from '../store/importedEdits.js';
import type { SessionRecord } from '../store/records.js';
import type { RollStore } from '../store/rollStore.js';

export interface SessionListing {
  readonly id: number;
  readonly name: string | null;
  readonly origin: string;
  readonly kind: string;
  readonly state: string;
  readonly simulated: boolean;
  /** The rig's name, as it reports it when it connects; null for an imported session. */
  readonly rigId: string | null;
  readonly campaign: string | null;
  readonly softwareVersion: string;
  /** Epoch milliseconds, whole. */
  readonly startedAt: number;
  readonly endedAt: number | null;
  readonly throwCount: number;
  /** The hash chain's head after `throwCount` throws (`verify --expect` checks it). */
  readonly headHash: string;
  /** The review chain's head after `reviewCount` reviews ('' when none): `verify --expect` checks it too. */
  readonly reviewCount: number;
  readonly reviewsHead: string;
  /** An import of exports edited since they were sealed (`import --allow-edited`): each file and what differs; null otherwise. */
  readonly edited: readonly EditedImport[] | null;
}

/** The process a local session's claim names, and whether it still runs (`unknown`: it ran on another host, or in another PID namespace of this one). */
export interface ClaimingProcess {
  readonly pid: number;
  readonly host: string;
  readonly liveness: Liveness;
  /** It ran on this host in another PID namespace (a container): its pid names nobody here, or another process. */
  readonly otherPidNamespace: boolean;
}

export interface LocalSessionListing extends SessionListing {
  /** For a running session: the process that claimed it; null when none holds it (or the session is not running). */
  readonly process: ClaimingProcess | null;
}

export interface FleetSessionListing extends SessionListing {
  readonly localId: number;
  readonly originHost: string;
  readonly originDb: string;
  /** Throws of the session on its rig host at the last sync (`throwCount` of them are in the fleet store). */
  readonly localThrowCount: number;
  /** An import of an export of another fleet session (`src/fleet/copies.ts`): that session's fleet id and why; its rolls count there. Null otherwise. */
  readonly copyOf: { readonly of: number; readonly why: string } | null;
  /** A campaign session whose batch another host or store took over (`campaign run --take-over`): who rolls it now, and since when; its rolls no longer count. Null otherwise. */
  readonly takenOver: TakenOver | null;
}

const orNull = <T>(list: readonly T[]): readonly T[] | null => (list.length > 0 ? list : null);

const wholeMs = (t: number | string): number => Math.round(Number(t));

function campaignOf(configJson: string): string | null {
  try {
    const campaign = (JSON.parse(configJson) as { campaign?: unknown } | null)?.campaign;
    return typeof campaign === 'string' ? campaign : null;
  } catch {
    return null;
  }
}

/** The sessions of a local roll store, each running one with the process its claim names. */
export function localSessionListings(store: RollStore): LocalSessionListing[] {
  const claims = store.locks.holders();
  const rigNames = new Map<number, string | null>();
  const rigName = (id: number | null): string | null => {
    if (id === null) return null;
    if (!rigNames.has(id)) rigNames.set(id, store.getRig(id)?.rigId ?? null);
    return rigNames.get(id) ?? null;
  };
  return store.sessions().map((s: SessionRecord) => {
    const holder = s.state === 'running' ? claims.get(s.id) : undefined;
    return {
      id: s.id,
      name: s.name,
      origin: s.origin,
      kind: s.kind ?? 'fairness',
      state: s.state,
      simulated: s.simulated,
      rigId: rigName(s.rigId),
      campaign: campaignOf(s.configJson),
      softwareVersion: s.softwareVersion,
      startedAt: wholeMs(s.startedAt),
      endedAt: s.endedAt === null ? null : wholeMs(s.endedAt),
      throwCount: s.throwCount,
      headHash: s.headHash,
      reviewCount: store.reviewLog.head(s.id)?.count ?? 0,
      reviewsHead: store.reviewLog.head(s.id)?.hash ?? '',
      edited: orNull(editedImports(s.configJson)),
      process: holder === undefined ? null : { pid: holder.pid, host: holder.host, liveness: liveness(holder), otherPidNamespace: inOtherPidNamespace(holder) },
    };
  });
}

/** A fleet session in the local shape, with where it came from. */
export function fleetSessionListing(s: FleetSessionInfo): FleetSessionListing {
  return {
    id: Number(s.id),
    name: s.name,
    origin: s.origin,
    kind: s.kind,
    state: s.state,
    simulated: s.simulated,
    rigId: s.rigId,
    campaign: s.campaign,
    softwareVersion: s.softwareVersion,
    startedAt: wholeMs(s.startedAt),
    endedAt: s.endedAt === null ? null : wholeMs(s.endedAt),
    throwCount: s.throwCount,
    headHash: s.headHash,
    reviewCount: s.reviewCount,
    reviewsHead: s.reviewsHead,
    edited: s.edited,
    localId: s.localId,
    originHost: s.originHost,
    originDb: s.originDb,
    localThrowCount: s.localThrowCount,
    copyOf: s.copyOf,
    takenOver: s.takenOver,
  };
}

/**
 * A local session's state as the table says it: a running session whose claiming process is gone (killed, crashed,
 * the machine restarted), or that no process holds, is left running until it is resumed; say so, and how.
 */
export function localStateText(s: LocalSessionListing, db?: string): string {
  const state = localStateWords(s, db);
  // An import of an edited export is the user's own rolls, not a session's evidence: said wherever it is listed.
  const edited = editedImportWords(s.edited ?? []);
  return edited === undefined ? state : `${state}; ${edited}`;
}

function localStateWords(s: LocalSessionListing, db?: string): string {
  if (s.state !== 'running') return s.state;
  // With the store named, the command works when pasted whichever store is the default.
  const resume = s.kind === 'stream' ? STREAM_NOT_RESUMED : `resume it with dicerig run --resume ${s.id}${db !== undefined ? ` --db ${shellWord(db)}` : ''}`;
  if (s.process === null) return `running? (no process holds it: ${resume})`;
  if (s.process.liveness === 'dead') return `running? (its process ${s.process.pid} on this host is gone: ${resume})`;
  if (s.process.liveness === 'unknown') return `running (process ${s.process.pid} ${s.process.otherPidNamespace ? 'in another PID namespace (a container) on this host' : `on host ${s.process.host}`})`;
  return 'running';
}
