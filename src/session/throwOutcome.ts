/**
 * One settled frame's readings to a throw's outcome. A throw counts (`ok`)
 * when every die still being counted lies flat in its own channel; a die the
 * reader declines (unreadable) is kept as an UNRESOLVED roll in its place,
 * with its crop, and the throw's other dice count as usual: re-tumbling it
 * away would bias the counts whenever some faces are declined more than
 * others (src/stats/VERDICTS.md). So is a die the locator does not find in its
 * channel (missing), with the channel's crop: whether the locator finds a die
 * can depend on the face it shows, and a die truly gone is caught by the
 * session's missing-die stop (`missingStreak.ts`). So, too, is a die joined
 * by its hard shadow in one blob, its channel's only blob (`vision/hardShadow.ts`):
 * how far a blob reaches can depend on the face (a 6's pips leave more holes
 * in it than a 1's), and a shadow there every throw is caught by the same
 * stop. A cocked die (the X-Wing
 * rule: it is re-rolled), an extra or wrong die makes the whole throw
 * `rerolled`, and each such die is a problem to log with its evidence.
 * Re-tumbling the whole throw, not just the one die, keeps the counted rolls
 * free of any choice about which dice were kept.
 */
import type { DeclineCause, FaceRead } from '../vision/faceRead.js';
import type { LocatedDie } from '../vision/locate.js';
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
  /** Why a die was declined (`unreadable`), when it is known: `shadow` for a die joined by its hard shadow in one blob. */
  readonly cause?: DeclineCause;
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
  /** The reader declined the die: an unresolved roll, kept in its place for a person to label. */
  readonly unresolved?: boolean;
  readonly classifierVersion: string;
  readonly crop: RgbImage;
}

export interface ThrowOutcome {
  readonly status: 'ok' | 'rerolled';
  /** One sentence for a rerolled throw. */
  readonly why?: string;
  /** Every counted die seen in the frame (a missing die has none). */
  readonly rolls: readonly RollReading[];
  /** Every problem, declined dice (`unreadable`, which do not re-tumble) included. */
  readonly problems: readonly ThrowProblem[];
}

/** The problems that re-tumble a throw: all but a declined die and a missing one, both kept as unresolved rolls. */
export function retumbles(p: ThrowProblem): boolean {
  return p.kind !== 'unreadable' && p.kind !== 'missing';
}

/** A die found only joined by its hard shadow: declined, and counted towards the session's missing-die stop. */
export function isJoined(p: ThrowProblem): boolean {
  return p.kind === 'unreadable' && p.cause === 'shadow';
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
 * The reading of a counted die joined by its hard shadow: its one-die channel's only blob, too big for one die, and
 * one die once the shadow is left out. The die is in it (nothing else in the channel is), but cannot be read apart.
 * A blob of two dice, or of a cocked die showing two faces, is not one: it re-tumbles the throw as an extra die.
 */
function joinedByShadow(reading: FrameReading, die: SessionDie, counted: readonly SessionDie[]): DieReading | undefined {
  if (counted.filter((d) => d.channel === die.channel).length !== 1) return undefined;
  const finding = reading.located.channels.find((c) => c.channel === die.channel);
  if (finding === undefined || finding.expected !== 1 || finding.dice.length !== 1) return undefined;
  const only = finding.dice[0] as LocatedDie;
  const read = reading.readings.find((r) => r.die === only);
  return only.estimatedCount > 1 && read?.read.cause === 'shadow' ? read : undefined;
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
  const joined = new Map(counted.flatMap((d) => {
    const inBlob = joinedByShadow(reading, d, counted);
    return inBlob ? [[d, inBlob] as const] : [];
  }));
  const joinedBlobs = new Set([...joined.values()].map((r) => r.die));

  for (const blob of reading.located.extra) {
    if (joinedBlobs.has(blob)) continue;
    // A stray die outside every channel may have left a channel empty; one in a retired channel does not matter.
    if (blob.channel !== undefined && !countedChannels.has(blob.channel)) continue;
    // One blob counted as several dice may be a cocked die or a die against a wall: say so, or a user looks for a die that is not there.
    const where =
      blob.channel === undefined
        ? `a die outside every channel at (${Math.round(blob.center.x)}, ${Math.round(blob.center.y)})`
        : blob.estimatedCount > 1
          ? `a blob the size of ${blob.estimatedCount} dice in channel ${blob.channel}, not one die and its shadow: a second die touching it, a cocked die showing two faces, or a die against a wall's edge`
          : `a second die in channel ${blob.channel}`;
    const die = counted.find((d) => d.channel === blob.channel);
    // The pipeline crops every blob it located, the extra ones too: the evidence of why the throw was re-tumbled.
    const crop = reading.readings.find((r) => r.die === blob)?.read.crop;
    problems.push({
      kind: 'extra',
      ...(blob.channel !== undefined ? { channel: blob.channel } : {}),
      ...(die ? { die } : {}),
      reason: where,
      details: { area: blob.area, x: blob.center.x, y: blob.center.y },
      ...(crop !== undefined ? { crop } : {}),
    });
  }

  for (const die of counted) {
    const inBlob = joined.get(die);
    if (inBlob !== undefined) {
      const reason = `the die was found only joined by its hard shadow, in one blob the size of ${inBlob.die.estimatedCount} dice in channel ${die.channel} (light the platform from above, not from the side)`;
      const { crop, classifierVersion } = inBlob.read;
      rolls.push({ die, confidence: 0, cocked: false, unresolved: true, classifierVersion, crop });
      problems.push({ kind: 'unreadable', channel: die.channel, die, reason, cause: 'shadow', details: { area: inBlob.die.area, ...(inBlob.read.details ?? {}) }, crop });
      continue;
    }
    const here: DieReading[] = reading.readings.filter((r) => r.channel === die.channel && !extra.has(r.die));
    const mine = here[0];
    if (mine === undefined) {
      // A blob too big for one die in this channel is already the problem: no second line saying no die was found.
      const oversized = reading.located.extra.some((b) => b.channel === die.channel && b.estimatedCount > 1);
      if (oversized) continue;
      const reason = `no die was found in channel ${die.channel}`;
      const empty = reading.emptyChannels.find((c) => c.channel === die.channel);
      if (empty !== undefined) rolls.push({ die, confidence: 0, cocked: false, unresolved: true, classifierVersion: reading.classifierVersion, crop: empty.crop });
      problems.push({ kind: 'missing', channel: die.channel, die, reason, ...(empty !== undefined ? { crop: empty.crop } : {}) });
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
      rolls.push({ ...base, cocked: false, unresolved: true });
      problems.push({ kind: 'unreadable', channel: die.channel, die, reason: read.reason ?? 'the reader declined the die', ...(read.cause ? { cause: read.cause } : {}), ...(read.details ? { details: read.details } : {}), crop: read.crop });
      continue;
    }
    const meaning = interpret(die, read);
    if ('problem' in meaning) {
      rolls.push({ ...base, cocked: false, ...(meaning.problem.kind === 'unreadable' ? { unresolved: true } : {}) });
      problems.push(meaning.problem);
      continue;
    }
    rolls.push({ ...base, cocked: false, symbol: meaning.symbol, ...(meaning.faceId !== undefined ? { faceId: meaning.faceId } : {}) });
  }

  // A counted die without a roll in the throw (a second blob in its channel took its place) must not count as none.
  const everyDieKept = counted.every((d) => rolls.some((r) => r.die === d));
  return problems.some(retumbles) || !everyDieKept ? { status: 'rerolled', why: describeProblems(problems), rolls, problems } : { status: 'ok', rolls, problems };
}

/** The outcome of a throw whose dice never came to rest in view (nothing was read). */
export function notSettledOutcome(reason: string): ThrowOutcome {
  const problem: ThrowProblem = { kind: 'not-settled', reason };
  return { status: 'rerolled', why: describeProblems([problem]), rolls: [], problems: [problem] };
}

/**
 * The throw without `dice` (decided while it was read): their rolls, and the declines and misses kept as their
 * unresolved rolls, go; a problem that re-tumbled the throw stays with it, as the reason it was re-tumbled.
 */
export function withoutDice(outcome: ThrowOutcome, dice: ReadonlySet<SessionDie>): ThrowOutcome {
  if (dice.size === 0) return outcome;
  return {
    ...outcome,
    rolls: outcome.rolls.filter((r) => !dice.has(r.die)),
    problems: outcome.problems.filter((p) => p.die === undefined || !dice.has(p.die) || retumbles(p)),
  };
}
