/**
 * One settled frame's readings to a throw's outcome. A throw counts (`ok`)
 * only when every die still being counted lies flat in its own channel and
 * was read as one of its faces; a cocked, unreadable, missing, extra or wrong
 * die makes the whole throw `rerolled` (the X-Wing rule: a cocked die is
 * re-rolled), and each such die is a problem to log with its evidence.
 * Re-tumbling the whole throw, not just the one die, keeps the counted rolls
 * free of any choice about which dice were kept.
 */
import type { FaceRead } from '../vision/faceRead.js';
import type { RgbImage } from '../core/image.js';
import type { DieReading, FrameReading } from '../vision/pipeline.js';
import type { SessionDie } from './sessionDie.js';

export type ProblemKind = 'cocked' | 'unreadable' | 'missing' | 'extra' | 'wrong-die' | 'not-settled';

/** Why a throw was re-tumbled: one die (or one stray blob) and what was wrong with it. */
export interface ThrowProblem {
  readonly kind: ProblemKind;
  /** The channel concerned; undefined for a die outside every channel. */
  readonly channel?: number;
  /** The session die concerned, when the problem is one die's. */
  readonly die?: SessionDie;
  readonly reason: string;
  /** Reader or locator measurements behind the call. */
  readonly details?: Readonly<Record<string, number>>;
  /** Pixels around the die, kept as evidence. */
  readonly crop?: RgbImage;
}

/** What was seen of one counted die. */
export interface RollReading {
  readonly die: SessionDie;
  readonly faceId?: string;
  readonly symbol?: string;
  readonly confidence: number;
  readonly cocked: boolean;
  readonly classifierVersion: string;
  readonly crop: RgbImage;
}

export interface ThrowOutcome {
  readonly status: 'ok' | 'rerolled';
  /** One sentence for a rerolled throw. */
  readonly why?: string;
  /** Every counted die seen in the frame (a missing die has none). */
  readonly rolls: readonly RollReading[];
  readonly problems: readonly ThrowProblem[];
}

function describeProblems(problems: readonly ThrowProblem[]): string {
  const parts = problems.map((p) => (p.die ? `${p.die.record.label} (channel ${p.die.channel}) ${p.kind}: ${p.reason}` : `${p.kind}: ${p.reason}`));
  return `Re-tumbled: ${parts.join('; ')}`;
}

/** Maps a read to the die's face id and symbol, or explains why it is not one of this die's. */
function interpret(die: SessionDie, read: FaceRead): { faceId?: string; symbol: string } | { problem: ThrowProblem } {
  const symbol = read.symbol ?? '';
  if (read.die !== undefined && read.die !== die.type.id) {
    return { problem: { kind: 'wrong-die', channel: die.channel, die, reason: `the reader sees a ${read.die} die showing ${symbol}, but this channel holds a ${die.type.id} die`, crop: read.crop } };
  }
  if (die.level === 'face') {
    // A pip reader reads the physical face: its id (a D6's pip count).
    const face = die.type.faces.find((f) => f.id === symbol);
    if (!face) return { problem: { kind: 'unreadable', channel: die.channel, die, reason: `read "${symbol}", which is not a face of a ${die.type.id} die`, crop: read.crop } };
    return { faceId: face.id, symbol: face.symbol };
  }
  if (!die.type.symbols.includes(symbol)) {
    return { problem: { kind: 'unreadable', channel: die.channel, die, reason: `read "${symbol}", which is not a symbol of a ${die.type.id} die`, crop: read.crop } };
  }
  return { symbol };
}

/**
 * Judges a frame's readings for the dice still counted (`counted`). Channels of
 * retired dice are not judged: their dice tumble along but are not read.
 */
export function judgeThrow(reading: FrameReading, counted: readonly SessionDie[]): ThrowOutcome {
  const problems: ThrowProblem[] = [];
  const rolls: RollReading[] = [];
  const countedChannels = new Set(counted.map((d) => d.channel));
  const extra = new Set(reading.located.extra);

  for (const blob of reading.located.extra) {
    // A stray die outside every channel may have left a channel empty; one in a retired channel does not matter.
    if (blob.channel !== undefined && !countedChannels.has(blob.channel)) continue;
    const where = blob.channel === undefined ? `outside every channel at (${Math.round(blob.center.x)}, ${Math.round(blob.center.y)})` : `a second die in channel ${blob.channel}`;
    const die = counted.find((d) => d.channel === blob.channel);
    problems.push({
      kind: 'extra',
      ...(blob.channel !== undefined ? { channel: blob.channel } : {}),
      ...(die ? { die } : {}),
      reason: `a die ${where}`,
      details: { area: blob.area, x: blob.center.x, y: blob.center.y },
    });
  }

  for (const die of counted) {
    const here: DieReading[] = reading.readings.filter((r) => r.channel === die.channel && !extra.has(r.die));
    const mine = here[0];
    if (mine === undefined) {
      problems.push({ kind: 'missing', channel: die.channel, die, reason: `no die was found in channel ${die.channel}` });
      continue;
    }
    const read = mine.read;
    const base = { die, confidence: read.confidence, classifierVersion: read.classifierVersion, crop: read.crop };
    if (read.status === 'cocked') {
      rolls.push({ ...base, cocked: true });
      problems.push({ kind: 'cocked', channel: die.channel, die, reason: read.reason ?? 'the die is not lying flat', ...(read.details ? { details: read.details } : {}), crop: read.crop });
      continue;
    }
    if (read.status === 'unreadable') {
      rolls.push({ ...base, cocked: false });
      problems.push({ kind: 'unreadable', channel: die.channel, die, reason: read.reason ?? 'the reader declined the die', ...(read.details ? { details: read.details } : {}), crop: read.crop });
      continue;
    }
    const meaning = interpret(die, read);
    if ('problem' in meaning) {
      rolls.push({ ...base, cocked: false });
      problems.push(meaning.problem);
      continue;
    }
    rolls.push({ ...base, cocked: false, symbol: meaning.symbol, ...(meaning.faceId !== undefined ? { faceId: meaning.faceId } : {}) });
  }

  return problems.length === 0 ? { status: 'ok', rolls, problems } : { status: 'rerolled', why: describeProblems(problems), rolls, problems };
}

/** The outcome of a throw whose dice never came to rest in view (nothing was read). */
export function notSettledOutcome(reason: string): ThrowOutcome {
  const problem: ThrowProblem = { kind: 'not-settled', reason };
  return { status: 'rerolled', why: describeProblems([problem]), rolls: [], problems: [problem] };
}
