import { InputError } from '../core/errors.js';
import { codeOfRange } from './codeOfRange.js';
import { quoteValue } from './quoteValue.js';

/** The longest classifier version: a reader's version may join several (pips+net), but a page of text is no version. */
const MAX_CLASSIFIER_LENGTH = 1000;
/** More classifier versions than one file's sessions ever ran: past it the column is not versions, and looking each up would only cost time. */
const MAX_CLASSIFIERS = 1000;

/**
 * What a log gives of each roll beyond its die and outcome (`ParseOptions.rollDetails`): which throw it was in, the
 * channel it was read in, the reader's confidence and classifier version, and its throw's time, as `dicerig export`
 * writes them. `import`
 * stores them, so a session exported and imported is the session, not only each die's sequence of faces.
 * One entry per row of the file (read and unresolved rolls), in file order, columnar: logs reach 600,000 rolls, and a
 * column is only allocated when the file has it.
 */
export interface RollDetails {
  readonly rows: number;
  /** Each row's die: an index into `ParsedLog.dice`. */
  readonly die: Int32Array;
  /** Each row's throw number as written; absent when the log has no throw column. */
  readonly throws?: Float64Array;
  /** Each row's channel, -1 where none is given; absent when the log has no channel column. */
  readonly channels?: Int32Array;
  /** Each row's confidence, NaN where none is given; absent when the log has no confidence column. */
  readonly confidences?: Float64Array;
  /** Each row's classifier version, an index into `classifierNames`, -1 where none is given; absent without the column. */
  readonly classifiers?: Int32Array;
  readonly classifierNames: readonly string[];
  /** Each row's throw time in milliseconds since the epoch, NaN where none is given; absent without the column. */
  readonly times?: Float64Array;
}

/** Which detail columns a log has. */
export interface DetailColumns {
  readonly throws: boolean;
  readonly channels: boolean;
  readonly confidences: boolean;
  readonly classifiers: boolean;
  readonly times: boolean;
}

/**
 * A time as `dicerig export` writes it, ISO 8601 with its date, time and zone (`2026-12-07T11:06:39.123Z`,
 * `...+01:00`): a time without a zone would be read in whichever zone the importing machine is in.
 */
const WITHOUT_TIMES = 'rename or remove the column to import the rolls without their times';
const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Fills a file's `RollDetails` row by row: `row` starts one (its die), the setters fill its columns. */
export class RollDetailsRecorder {
  private n = 0;
  private die = new Int32Array(1024);
  private throws: Float64Array | undefined;
  private channels: Int32Array | undefined;
  private confidences: Float64Array | undefined;
  private classifiers: Int32Array | undefined;
  private times: Float64Array | undefined;
  private readonly classifierNames: string[] = [];
  private lastClassifier = -1;

  constructor(
    private readonly file: string,
    columns: DetailColumns,
  ) {
    const size = this.die.length;
    if (columns.throws) this.throws = new Float64Array(size);
    if (columns.channels) this.channels = new Int32Array(size);
    if (columns.confidences) this.confidences = new Float64Array(size);
    if (columns.classifiers) this.classifiers = new Int32Array(size);
    if (columns.times) this.times = new Float64Array(size);
  }

  /** Starts the next row, of the die at `dieIndex` in `ParsedLog.dice`; its channel, confidence and classifier are none until set. */
  row(dieIndex: number): void {
    if (this.n === this.die.length) this.grow();
    const i = this.n++;
    this.die[i] = dieIndex;
    if (this.channels !== undefined) this.channels[i] = -1;
    if (this.confidences !== undefined) this.confidences[i] = NaN;
    if (this.classifiers !== undefined) this.classifiers[i] = -1;
    if (this.times !== undefined) this.times[i] = NaN;
  }

  /** Allocates a column found on a later row (JSON Lines rows need not all have one): the rows before it give none. */
  enable(column: keyof DetailColumns): void {
    const size = this.die.length;
    if (column === 'throws') this.throws ??= new Float64Array(size);
    else if (column === 'channels') this.channels ??= new Int32Array(size).fill(-1);
    else if (column === 'confidences') this.confidences ??= new Float64Array(size).fill(NaN);
    else if (column === 'times') this.times ??= new Float64Array(size).fill(NaN);
    else this.classifiers ??= new Int32Array(size).fill(-1);
  }

  has(column: keyof DetailColumns): boolean {
    return this[column] !== undefined;
  }

  setThrow(throwNo: number): void {
    (this.throws as Float64Array)[this.n - 1] = throwNo;
  }

  /** The channel written in `text[start, end)` (trimmed): empty is none; else a whole number from 0. */
  channelAt(text: string, start: number, end: number, line: number, column?: string): void {
    if (end === start) return;
    let c = 0;
    for (let i = start; i < end; i++) {
      const digit = text.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9 || c > 214748364) this.badChannel(text.slice(start, end), line, column);
      c = c * 10 + digit;
    }
    if (c > 0x7fffffff) this.badChannel(text.slice(start, end), line, column);
    (this.channels as Int32Array)[this.n - 1] = c;
  }

  /** A JSON Lines channel: a whole number from 0, text of one, or null (none). */
  jsonChannel(value: unknown, line: number, key: string): void {
    if (value === null || value === undefined) return;
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0x7fffffff) (this.channels as Int32Array)[this.n - 1] = value;
    else if (typeof value === 'string') this.channelAt(value.trim(), 0, value.trim().length, line, key);
    else this.badChannel(JSON.stringify(value) ?? String(value), line, key);
  }

  /** The confidence written in `text[start, end)` (trimmed): empty is none; else a number from 0 to 1. */
  confidenceAt(text: string, start: number, end: number, line: number, column?: string): void {
    if (end === start) return;
    const written = text.slice(start, end);
    const c = Number(written);
    if (!(c >= 0 && c <= 1)) this.badConfidence(written, line, column);
    (this.confidences as Float64Array)[this.n - 1] = c;
  }

  /** A JSON Lines confidence: a number from 0 to 1, text of one, or null (none). */
  jsonConfidence(value: unknown, line: number, key: string): void {
    if (value === null || value === undefined) return;
    if (typeof value === 'number') {
      if (!(value >= 0 && value <= 1)) this.badConfidence(String(value), line, key);
      (this.confidences as Float64Array)[this.n - 1] = value;
    } else if (typeof value === 'string') this.confidenceAt(value.trim(), 0, value.trim().length, line, key);
    else this.badConfidence(JSON.stringify(value) ?? String(value), line, key);
  }

  /** The classifier version written in `text[start, end)` (trimmed): empty is none. A version seen before costs a comparison. */
  classifierAt(text: string, start: number, end: number, line: number, column?: string): void {
    if (end === start) return;
    const names = this.classifierNames;
    const length = end - start;
    let code = -1;
    const last = names[this.lastClassifier];
    if (last !== undefined && last.length === length && text.startsWith(last, start)) code = this.lastClassifier;
    else {
      code = codeOfRange(names, text, start, end);
      if (code < 0) {
        const name = text.slice(start, end);
        if (length > MAX_CLASSIFIER_LENGTH) throw new InputError(`${quoteValue(name)} is not a classifier version: one is at most ${MAX_CLASSIFIER_LENGTH} characters`, this.where(line, column));
        if (names.length >= MAX_CLASSIFIERS) throw new InputError(`more than ${MAX_CLASSIFIERS} distinct classifier versions: is the classifier column right?`, this.where(line, column));
        code = names.push(name) - 1;
      }
      this.lastClassifier = code;
    }
    (this.classifiers as Int32Array)[this.n - 1] = code;
  }

  /** A JSON Lines classifier version: text, or null (none). */
  jsonClassifier(value: unknown, line: number, key: string): void {
    if (value === null || value === undefined) return;
    if (typeof value !== 'string') throw new InputError(`the classifier version must be text, found ${JSON.stringify(value) ?? String(value)}`, this.where(line, key));
    const v = value.trim();
    this.classifierAt(v, 0, v.length, line, key);
  }

  /** The throw time written in `text[start, end)` (trimmed): empty is none; else a date and time with its zone (`ISO_TIME`). */
  timeAt(text: string, start: number, end: number, line: number, column?: string): void {
    if (end === start) return;
    const written = text.slice(start, end);
    const ms = ISO_TIME.test(written) ? Date.parse(written.replace(' ', 'T')) : NaN;
    if (!Number.isFinite(ms)) {
      throw new InputError(
        `the time ${quoteValue(written)} is not a date and time with its time zone, as an export writes them (2026-12-07T11:06:39.123Z); ${WITHOUT_TIMES}`,
        this.where(line, column),
      );
    }
    (this.times as Float64Array)[this.n - 1] = ms;
  }

  /** A JSON Lines throw time: text as `timeAt` reads it, or null (none). */
  jsonTime(value: unknown, line: number, key: string): void {
    if (value === null || value === undefined) return;
    if (typeof value !== 'string') {
      throw new InputError(`the time must be text (2026-12-07T11:06:39.123Z), found ${JSON.stringify(value) ?? String(value)}; ${WITHOUT_TIMES}`, this.where(line, key));
    }
    const v = value.trim();
    this.timeAt(v, 0, v.length, line, key);
  }

  done(): RollDetails {
    const n = this.n;
    return {
      rows: n,
      die: this.die.subarray(0, n),
      ...(this.throws !== undefined ? { throws: this.throws.subarray(0, n) } : {}),
      ...(this.channels !== undefined ? { channels: this.channels.subarray(0, n) } : {}),
      ...(this.confidences !== undefined ? { confidences: this.confidences.subarray(0, n) } : {}),
      ...(this.classifiers !== undefined ? { classifiers: this.classifiers.subarray(0, n) } : {}),
      classifierNames: this.classifierNames,
      ...(this.times !== undefined ? { times: this.times.subarray(0, n) } : {}),
    };
  }

  private grow(): void {
    const size = this.die.length * 2;
    this.die = grown(this.die, new Int32Array(size));
    if (this.throws !== undefined) this.throws = grown(this.throws, new Float64Array(size));
    if (this.channels !== undefined) this.channels = grown(this.channels, new Int32Array(size));
    if (this.confidences !== undefined) this.confidences = grown(this.confidences, new Float64Array(size));
    if (this.classifiers !== undefined) this.classifiers = grown(this.classifiers, new Int32Array(size));
    if (this.times !== undefined) this.times = grown(this.times, new Float64Array(size));
  }

  private where(line: number, column: string | undefined): { file: string; line: number; column?: string } {
    return column !== undefined ? { file: this.file, line, column } : { file: this.file, line };
  }

  private badChannel(value: string, line: number, column: string | undefined): never {
    throw new InputError(`the channel ${quoteValue(value)} is not a whole number from 0 (0, 1, 2...): a channel is the rig's place the die was read in`, this.where(line, column));
  }

  private badConfidence(value: string, line: number, column: string | undefined): never {
    throw new InputError(`the confidence ${quoteValue(value)} is not a number from 0 to 1: it is the reader's confidence in its read`, this.where(line, column));
  }
}

function grown<T extends Int32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
