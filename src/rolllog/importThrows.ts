import { InputError } from '../core/errors.js';
import type { DieLog, ParsedLog } from './types.js';

/**
 * The throws an import stores, and what each roll in them keeps: throw t holds entries `starts[t]` to
 * `starts[t + 1] - 1`, each a die (an index into the merged dice, `mergeLogs`) and which of that die's rows it is
 * (counting read and unresolved rolls, in order), with the channel, confidence and classifier version its row gave.
 * Columnar, as the logs are.
 */
export interface ImportThrows {
  /** Whether the throws are the files' own (a throw column), rather than "throw i holds the i-th roll of every die". */
  readonly fromFiles: boolean;
  readonly count: number;
  readonly starts: Int32Array;
  readonly die: Int32Array;
  readonly roll: Int32Array;
  /** -1: none given. */
  readonly channels?: Int32Array;
  /** NaN: none given. */
  readonly confidences?: Float64Array;
  /** An index into `classifierNames`; -1: none given. */
  readonly classifiers?: Int32Array;
  readonly classifierNames: readonly string[];
  /** Each throw's first and last time its rows give (ms since the epoch; NaN: none given); absent without a time column. */
  readonly startedAt?: Float64Array;
  readonly endedAt?: Float64Array;
}

/**
 * How the rolls of `logs` (parsed with `rollDetails`; `merged` = `mergeLogs(logs)`) are thrown together in the
 * imported session. When the files give each roll's throw, the session's throws are the files': rows with one throw
 * number are one throw, their rolls in the file's order, the throws in the order of their numbers, numbered 1, 2, 3...
 * (an export leaves out the throws that counted no roll, void or re-tumbled, and says nothing of them: renumbered
 * compactly, no throw of the copy is made up). Each file's throws are its own, after the previous file's: two exports
 * of one session are refused anyway (their rolls would count twice), so files of one import are of different
 * sessions, or are parts whose numbers cannot be told apart from another session's. With no throw column in any file,
 * throw i holds the i-th roll of every die, as logs without throws always imported. Files that disagree (some give
 * throws, some do not) are refused: the rolls of one could not be placed among the throws of the other.
 * Undefined when the files give nothing beyond each die's rolls: the import is then as it always was.
 */
export function importThrows(logs: readonly ParsedLog[], merged: readonly DieLog[]): ImportThrows | undefined {
  const details = logs.map((l) => l.details);
  if (details.every((d) => d === undefined || (d.throws === undefined && d.channels === undefined && d.confidences === undefined && d.classifiers === undefined && d.times === undefined))) return undefined;
  const withThrows = logs.filter((l) => l.details?.throws !== undefined);
  const without = logs.find((l) => l.details?.throws === undefined);
  if (withThrows.length > 0 && without !== undefined) {
    throw new InputError(
      `gives no throw for its rolls, but ${(withThrows[0] as ParsedLog).file} does: an import keeps the throws its files give, and could not place this file's rolls among them; import the files as separate sessions`,
      { file: without.file },
    );
  }
  const fromFiles = without === undefined;
  const indexOf = new Map(merged.map((d, i) => [d.label, i]));
  const rowsOfDie = merged.map((d) => d.codes.length + (d.unresolvedAt?.length ?? 0));
  const firstRowOfDie = new Int32Array(merged.length + 1);
  for (let d = 0; d < merged.length; d++) firstRowOfDie[d + 1] = (firstRowOfDie[d] as number) + (rowsOfDie[d] as number);
  const total = firstRowOfDie[merged.length] as number;
  // Every row of every file, in file order: its die, which of the die's rows it is, its throw (from 0), its details.
  const rowDie = new Int32Array(total);
  const rowRoll = new Int32Array(total);
  const rowThrow = new Int32Array(total);
  const anyOf = (has: (d: NonNullable<ParsedLog['details']>) => boolean): boolean => details.some((d) => d !== undefined && has(d));
  const channels = anyOf((d) => d.channels !== undefined) ? new Int32Array(total).fill(-1) : undefined;
  const confidences = anyOf((d) => d.confidences !== undefined) ? new Float64Array(total).fill(NaN) : undefined;
  const classifiers = anyOf((d) => d.classifiers !== undefined) ? new Int32Array(total).fill(-1) : undefined;
  const times = anyOf((d) => d.times !== undefined) ? new Float64Array(total).fill(NaN) : undefined;
  const classifierNames: string[] = [];
  const next = new Int32Array(merged.length);
  let g = 0;
  let offset = 0;
  for (const log of logs) {
    const det = log.details;
    if (det === undefined) throw new RangeError(`importThrows: ${log.file} was not parsed with rollDetails`);
    const dieOf = log.dice.map((d) => indexOf.get(d.label) as number);
    const ranks = det.throws === undefined ? undefined : throwRanks(det.throws);
    const recode = det.classifierNames.map((name) => {
      const known = classifierNames.indexOf(name);
      return known >= 0 ? known : classifierNames.push(name) - 1;
    });
    for (let i = 0; i < det.rows; i++, g++) {
      const d = dieOf[det.die[i] as number] as number;
      const k = next[d] as number;
      next[d] = k + 1;
      rowDie[g] = d;
      rowRoll[g] = k;
      rowThrow[g] = ranks === undefined ? k : offset + (ranks.rank[i] as number);
      if (channels !== undefined && det.channels !== undefined) channels[g] = det.channels[i] as number;
      if (confidences !== undefined && det.confidences !== undefined) confidences[g] = det.confidences[i] as number;
      if (classifiers !== undefined && det.classifiers !== undefined) {
        const c = det.classifiers[i] as number;
        classifiers[g] = c < 0 ? -1 : (recode[c] as number);
      }
      if (times !== undefined && det.times !== undefined) times[g] = det.times[i] as number;
    }
    if (ranks !== undefined) offset += ranks.count;
  }
  if (g !== total) throw new RangeError(`importThrows: the files hold ${g} rows, their dice ${total}`);
  const count = fromFiles ? offset : rowsOfDie.reduce((m, n) => Math.max(m, n), 0);
  // Rows in the order they go into their throws: the file's order; without throw numbers, each die's i-th roll in the order of the dice, as before.
  let visit: Int32Array | undefined;
  if (!fromFiles) {
    visit = new Int32Array(total);
    for (let r = 0; r < total; r++) visit[(firstRowOfDie[rowDie[r] as number] as number) + (rowRoll[r] as number)] = r;
  }
  // A stable counting sort by throw.
  const starts = new Int32Array(count + 1);
  for (let r = 0; r < total; r++) {
    const t = (rowThrow[r] as number) + 1;
    starts[t] = (starts[t] as number) + 1;
  }
  for (let t = 0; t < count; t++) starts[t + 1] = (starts[t + 1] as number) + (starts[t] as number);
  const fill = starts.slice(0, count);
  const die = new Int32Array(total);
  const roll = new Int32Array(total);
  const outChannels = channels !== undefined ? new Int32Array(total) : undefined;
  const outConfidences = confidences !== undefined ? new Float64Array(total) : undefined;
  const outClassifiers = classifiers !== undefined ? new Int32Array(total) : undefined;
  // A throw spans the times its rows give (an export gives each of its rows the same one).
  const startedAt = times !== undefined ? new Float64Array(count).fill(NaN) : undefined;
  const endedAt = times !== undefined ? new Float64Array(count).fill(NaN) : undefined;
  for (let v = 0; v < total; v++) {
    const r = visit === undefined ? v : (visit[v] as number);
    const t = rowThrow[r] as number;
    const at = fill[t] as number;
    fill[t] = at + 1;
    die[at] = rowDie[r] as number;
    roll[at] = rowRoll[r] as number;
    if (outChannels !== undefined) outChannels[at] = (channels as Int32Array)[r] as number;
    if (outConfidences !== undefined) outConfidences[at] = (confidences as Float64Array)[r] as number;
    if (outClassifiers !== undefined) outClassifiers[at] = (classifiers as Int32Array)[r] as number;
    const time = times?.[r] ?? NaN;
    if (!Number.isNaN(time) && startedAt !== undefined && endedAt !== undefined) {
      const first = startedAt[t] as number;
      const last = endedAt[t] as number;
      if (Number.isNaN(first) || time < first) startedAt[t] = time;
      if (Number.isNaN(last) || time > last) endedAt[t] = time;
    }
  }
  return {
    fromFiles,
    count,
    starts,
    die,
    roll,
    ...(outChannels !== undefined ? { channels: outChannels } : {}),
    ...(outConfidences !== undefined ? { confidences: outConfidences } : {}),
    ...(outClassifiers !== undefined ? { classifiers: outClassifiers } : {}),
    classifierNames,
    ...(startedAt !== undefined && endedAt !== undefined ? { startedAt, endedAt } : {}),
  };
}

/** Each row's throw as its rank among the file's distinct throw numbers (from 0), and how many there are. */
function throwRanks(throws: Float64Array): { rank: Int32Array; count: number } {
  const rank = new Int32Array(throws.length);
  // As an export writes them, throws never fall from row to row: one pass.
  let count = 0;
  let rising = true;
  for (let i = 0; i < throws.length; i++) {
    const t = throws[i] as number;
    if (i > 0 && t < (throws[i - 1] as number)) {
      rising = false;
      break;
    }
    if (i === 0 || t !== throws[i - 1]) count++;
    rank[i] = count - 1;
  }
  if (rising) return { rank, count };
  const sorted = Float64Array.from(throws).sort();
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[n++] = sorted[i] as number;
  const numbers = sorted.subarray(0, n);
  for (let i = 0; i < throws.length; i++) rank[i] = rankOf(numbers, throws[i] as number);
  return { rank, count: n };
}

/** The index of `value` in the ascending `numbers` (which hold it). */
function rankOf(numbers: Float64Array, value: number): number {
  let lo = 0;
  let hi = numbers.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((numbers[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
