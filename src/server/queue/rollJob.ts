/**
 * A roll asked for on stream, from the moment it is queued to its answer (or
 * its end unanswered: failed, cancelled, abandoned at shutdown), and how the
 * API and the pages show it.
 */
import type { RgbImage } from '../../core/image.js';
import { DicerigError } from '../../core/errors.js';
import type { AnswerDie, RollOutcome } from '../rolls/procedure.js';
import type { RollSpec } from '../rolls/request.js';
import type { DieKind } from '../rolls/dieKinds.js';

export interface EvidenceFrame {
  readonly throwIndex: number;
  readonly channel: number;
  readonly label: string;
  readonly crop: RgbImage;
  /** Where the PNG was stored beside the roll store (absent for an in-memory store). */
  readonly path?: string;
  readonly hash?: string;
}

export interface RollJob {
  readonly id: string;
  readonly client: string;
  readonly spec: RollSpec;
  readonly text: string;
  readonly by?: string;
  /** `abandoned`: the server stopped before the roll was done (it was waiting, or stopped after its current throw). */
  state: 'queued' | 'rolling' | 'done' | 'failed' | 'cancelled' | 'abandoned';
  readonly createdAt: number;
  startedAt?: number;
  doneAt?: number;
  outcome?: RollOutcome;
  error?: string;
  readonly throws: number[];
  readonly evidence: EvidenceFrame[];
  /**
   * The dice so far (live), for the overlay and GET /api/rolls/:id: one per die asked, in the order asked; a die not
   * yet read is `pending` (with the channel that will give it), and a reroll takes the place of the die it rerolls
   * (`was`: what that die showed), so a roll never shows more dice than it has.
   */
  readonly partial: PartialDie[];
  /** The stored throws that did not count, in order, so an answer (a failed one too) names every throw it took. */
  readonly retumbled: RetumbledThrow[];
  done: Promise<void>;
  resolve: () => void;
}

/** A stored throw of a roll that did not count: tumbled again for a die cocked or unreadable, or void (a rig or camera fault). */
export interface RetumbledThrow {
  readonly index: number;
  readonly status: 'rerolled' | 'void';
  readonly reason: string;
}

/** One die of a roll under way. */
export interface PartialDie {
  readonly channel: number;
  readonly label: string;
  /** The channel's die type (a D3 may come from a d6 channel). */
  readonly type: string;
  /** The die kind asked (`d3` for a D3 from a d6 channel): what `symbol` and `was` are in. */
  readonly kind: DieKind;
  readonly pending?: true;
  /** As the kind shows it, as the roll's answer will (a D3's numeral, not the D6 face it came from). */
  readonly symbol?: string;
  /** The face the channel's die showed (a D6's pips for a D3). */
  readonly faceId?: string;
  /** The symbol of the die this one rerolls, as its kind shows it. */
  readonly was?: string;
}

/** The roll as the API and the pages show it (no pixels). */
export interface RollView {
  readonly id: string;
  readonly state: RollJob['state'];
  readonly request: string;
  readonly by?: string;
  readonly place?: number;
  readonly createdAt: number;
  readonly startedAt?: number;
  readonly doneAt?: number;
  readonly dice: readonly (Omit<AnswerDie, 'ref'> & { readonly evidence?: string })[];
  readonly partial: RollJob['partial'];
  readonly result?: Readonly<Record<string, number>>;
  readonly line?: string;
  readonly error?: string;
  readonly throws: readonly number[];
  readonly retumbled: readonly RetumbledThrow[];
  readonly sessionId?: number;
  readonly evidence: string;
}

/** Why a roll was abandoned at shutdown: the words its waiting callers, the console and the pages are given. */
export const SERVER_STOPPING = 'the server is stopping';

/** The roll in progress is given up between its throws because the server is stopping. */
export class RollAbandonedError extends DicerigError {
  constructor(readonly rollId: string) {
    super(`roll ${rollId} was abandoned: ${SERVER_STOPPING}`, { roll: rollId });
  }
}

/** One console line naming an abandoned roll: its id, dice, who asked, and how far it got. */
/** "30 red, asked by bob": a roll as the console names it. */
export function askedWords(job: Pick<RollJob, 'text' | 'by'>): string {
  return `${job.text}${job.by !== undefined ? `, asked by ${job.by}` : ''}`;
}

export function abandonedLine(job: RollJob): string {
  const got = job.throws.length > 0 ? `; ${job.partial.filter((d) => d.pending !== true).length} dice read in ${job.throws.length} stored throws, no answer` : '; not started';
  return `Abandoned roll ${job.id} (${askedWords(job)})${got}.`;
}

/**
 * Waits until the job is over or `ms` have passed, whichever is first. The timer is cleared when the job ends first: a
 * server answering many waited rolls keeps no timers of answered ones, and a stopped server's process is not held open
 * for the rest of a wait.
 */
export async function jobDoneWithin(job: Pick<RollJob, 'done'>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([job.done, new Promise<void>((r) => (timer = setTimeout(r, ms).unref()))]);
  } finally {
    clearTimeout(timer);
  }
}
