import { InputError } from '../core/errors.js';
import { codeOfRange } from './codeOfRange.js';
import { quoteFew, quoteValue } from './quoteValue.js';
import type { DieLog } from './types.js';

/** The longest die label (as a session config allows): a label is written on a die and printed in tables. */
export const MAX_LABEL_LENGTH = 200;
/** The longest face id or symbol. */
export const MAX_TOKEN_LENGTH = 100;
/** More distinct outcomes than any die has (a d100 has 100): past it the column is not faces, and reading on would only cost time. */
export const MAX_DISTINCT_OUTCOMES = 256;

/**
 * Collects rolls per die label while a file is read. `addRange` takes the label
 * and token as ranges of the file's text and only slices out a string when it
 * is new, which is what keeps large logs fast. Both return the die's log.
 */
export class DieLogCollector {
  /** Each label's index in `logs`. */
  private readonly byLabel = new Map<string, number>();
  private readonly logs: DieLog[] = [];
  private last: DieLog | undefined;
  /** The index in `dice()` of the die of the latest row (`RollDetails.die`). */
  lastIndex = -1;
  /** Dice seen only in unresolved JSON Lines rows so far: their level is not known yet. */
  private readonly levelOpen = new Set<DieLog>();
  /** The face code of the latest roll `addRange` took. */
  private lastCode = -1;

  constructor(private readonly file: string) {}

  add(label: string, level: 'face' | 'symbol', token: string, line: number, typeId: string | undefined): DieLog {
    return this.addRange(label, 0, label.length, level, token, 0, token.length, line, typeId);
  }

  /**
   * A roll of die `label` that has no outcome: the reader declined it, or found no die, and nobody labelled it (an
   * export's `resolution` `unresolved`). Its place among the die's read rolls is kept (`DieLog.unresolvedAt`).
   * `level` is the file's when it has one (a CSV's face or symbol column); a JSON Lines row leaves it open until a
   * read row of the die says.
   */
  addUnresolved(label: string, level: 'face' | 'symbol', line: number, typeId: string | undefined, levelKnown: boolean): DieLog {
    const log = this.logFor(label, 0, label.length, level, line, typeId, !levelKnown);
    (log.unresolvedAt ??= []).push(log.codes.length);
    return log;
  }

  /** Marks the latest roll of `log` as labelled by a person (`DieLog.reviewed`). */
  markReviewed(log: DieLog, reviewer: string | null): void {
    (log.reviewed ??= []).push({ roll: log.codes.length - 1, reviewer });
  }

  addRange(
    labelText: string,
    labelStart: number,
    labelEnd: number,
    level: 'face' | 'symbol',
    tokenText: string,
    tokenStart: number,
    tokenEnd: number,
    line: number,
    typeId: string | undefined,
  ): DieLog {
    const log = this.logFor(labelText, labelStart, labelEnd, level, line, typeId, false);
    const dictionary = log.dictionary;
    const length = tokenEnd - tokenStart;
    let code = codeOfRange(dictionary, tokenText, tokenStart, tokenEnd);
    if (code < 0) {
      if (length > MAX_TOKEN_LENGTH) {
        throw new InputError(`${quoteValue(tokenText.slice(tokenStart, tokenEnd))} is not a ${level}: a ${level} is at most ${MAX_TOKEN_LENGTH} characters`, { file: this.file, line });
      }
      if (dictionary.length >= MAX_DISTINCT_OUTCOMES) {
        throw new InputError(
          `die ${quoteValue(log.label)} has more than ${MAX_DISTINCT_OUTCOMES} distinct ${level}s (${quoteFew(dictionary)}); no die has that many: is the ${level} column right?`,
          { file: this.file, line },
        );
      }
      const token = tokenText.slice(tokenStart, tokenEnd);
      code = dictionary.length;
      dictionary.push(token);
      log.firstSeen.set(token, { file: this.file, line });
    }
    log.codes.push(code);
    this.lastCode = code;
    return log;
  }

  /**
   * The symbol `text[start, end)` (not empty) written beside the face of `log`'s latest roll. A face given two symbols
   * is refused here, whatever the die; whether the symbol is the face's own only its type can say (`resolveDieRolls`).
   * A row repeating its face's symbol costs one comparison.
   */
  seeSymbol(log: DieLog, text: string, start: number, end: number, line: number): void {
    if (this.repeatsSymbol(log, text, start, end)) return;
    const code = this.lastCode;
    const symbols = (log.faceSymbols ??= []);
    const known = symbols[code];
    const symbol = text.slice(start, end);
    if (known === undefined) {
      if (symbol.length > MAX_TOKEN_LENGTH) throw new InputError(`${quoteValue(symbol)} is not a symbol: a symbol is at most ${MAX_TOKEN_LENGTH} characters`, { file: this.file, line });
      symbols[code] = { symbol, file: this.file, line };
    } else if (known.symbol.toLowerCase() !== symbol.toLowerCase()) {
      throw new InputError(`face ${quoteValue(log.dictionary[code] as string)} of die ${quoteValue(log.label)} has the symbol ${quoteValue(symbol)} here but ${quoteValue(known.symbol)} on line ${known.line}; a face shows one symbol`, { file: this.file, line });
    }
  }

  /** Whether `text[start, end)` is exactly the symbol first written beside the face of `log`'s latest roll. */
  repeatsSymbol(log: DieLog, text: string, start: number, end: number): boolean {
    const known = log.faceSymbols?.[this.lastCode];
    return known !== undefined && known.symbol.length === end - start && text.startsWith(known.symbol, start);
  }

  /** The log of the die labelled `labelText[labelStart, labelEnd)`, checked against this row's level and type. */
  private logFor(labelText: string, labelStart: number, labelEnd: number, level: 'face' | 'symbol', line: number, typeId: string | undefined, levelOpen: boolean): DieLog {
    const last = this.last;
    let log: DieLog;
    if (last !== undefined && last.label.length === labelEnd - labelStart && labelText.startsWith(last.label, labelStart)) log = last;
    else log = this.lookup(labelText.slice(labelStart, labelEnd), level, typeId, line, levelOpen);
    if (log.level !== level && !levelOpen) {
      // A die seen so far only in unresolved rows of JSON Lines takes the level of its first read row.
      if (!this.levelOpen.delete(log)) {
        throw new InputError(`die "${log.label}" has a ${level} here but a ${log.level} on earlier rows; give every row the same kind of outcome`, { file: this.file, line });
      }
      log.level = level;
    } else if (!levelOpen && this.levelOpen.size > 0) this.levelOpen.delete(log);
    if (typeId !== log.typeId && typeId !== undefined) {
      if (log.typeId !== undefined) throw new InputError(`die "${log.label}" is type "${typeId}" here but "${log.typeId}" on earlier rows`, { file: this.file, line });
      log.typeId = typeId;
    }
    this.last = log;
    return log;
  }

  private lookup(label: string, level: 'face' | 'symbol', typeId: string | undefined, line: number, levelOpen: boolean): DieLog {
    const index = this.byLabel.get(label);
    let log = index === undefined ? undefined : this.logs[index];
    if (log === undefined) {
      if (label.length > MAX_LABEL_LENGTH) throw new InputError(`the die label ${quoteValue(label)} is too long: a label is at most ${MAX_LABEL_LENGTH} characters`, { file: this.file, line });
      // Every log of a file gets its symbols' array at once: one object shape, however its rows turn out.
      log = { label, level, dictionary: [], codes: [], firstSeen: new Map(), files: new Set([this.file]), faceSymbols: [] };
      if (typeId !== undefined) log.typeId = typeId;
      if (levelOpen) this.levelOpen.add(log);
      this.byLabel.set(label, this.logs.length);
      this.lastIndex = this.logs.length;
      this.logs.push(log);
    } else this.lastIndex = index as number;
    return log;
  }

  dice(): DieLog[] {
    return [...this.logs];
  }
}
