import { InputError } from '../core/errors.js';
import { plainOrQuoted, quoteValue } from './quoteValue.js';
import { findColumns, normaliseHeader, COLUMN_ALIASES } from './columns.js';
import { detectDelimiter, splitCsvLine } from './csvLine.js';
import { DieLogCollector } from './dieLogs.js';
import { jsonThrowNumber, throwNumber, ThrowsSeen } from './throwsSeen.js';
import { RollDetailsRecorder } from './rollDetails.js';
import { putInThrowOrder } from './throwOrder.js';
import type { LogFormat, ParsedLog } from './types.js';

/** A die type's symbols, so a one-hot header (`File,blank,crit,focus,hit`) can name its die. */
export interface SymbolLayout {
  readonly typeId: string;
  readonly symbols: readonly string[];
}

export interface ParseOptions {
  /** File name used in error messages and as the die label of one-die files. */
  readonly file: string;
  /** Label for rolls whose file has no die column (default: the file's base name). */
  readonly label?: string;
  /** Die type to assume when the log does not name one (`--die`). */
  readonly typeId?: string;
  /** Known die layouts, for recognising one-hot files. */
  readonly layouts: readonly SymbolLayout[];
  /**
   * Also keep each roll's throw, channel, confidence and classifier version when the log gives them
   * (`ParsedLog.details`), each checked, and refuse a die whose throws go backwards: what `import` stores. An analysis
   * judges outcomes only, and leaves those columns unread.
   */
  readonly rollDetails?: boolean;
}

/**
 * Parses a roll log in any accepted layout:
 * - CSV (`,` `;` or tab) with a die column and a face or symbol column (type column optional);
 * - JSON Lines with the same fields (`{"die":"A","type":"red","face":"hit-1"}`);
 * - the one-hot layout of published X-Wing auto-roller results
 *   (`File,blank,crit,focus,hit`: one row per roll, a 1 in the rolled symbol's column).
 * Pure: takes the file's text. Every error names the file and line.
 */
export function parseRollLog(text: string, options: ParseOptions): ParsedLog {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const firstChar = body.trimStart()[0];
  if (firstChar === undefined) throw new InputError('the file is empty: no rolls to read', { file: options.file });
  if (firstChar === '{') return parseJsonLines(body, options);
  return parseDelimited(body, options);
}

function defaultLabel(options: ParseOptions): string {
  if (options.label !== undefined) return options.label;
  const base = options.file.split(/[\\/]/).pop() ?? options.file;
  return base.replace(/\.[^.]+$/, '') || base;
}

function parseDelimited(text: string, options: ParseOptions): ParsedLog {
  const { file } = options;
  // Find the header: the first line that is neither blank nor a # comment.
  let headerIdx = 0;
  let pos = 0;
  let headerLine = '';
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const line = stripCr(text.slice(pos, nl < 0 ? text.length : nl));
    if (!isBlankOrComment(line)) {
      headerLine = line;
      break;
    }
    headerIdx++;
    pos = nl < 0 ? text.length + 1 : nl + 1;
  }
  const delimiter = detectDelimiter(headerLine);
  const header = splitCsvLine(headerLine, delimiter, file, headerIdx + 1).map((h) => h.trim());

  const oneHot = matchOneHot(header, options);
  if (oneHot) return parseOneHot(text.split('\n'), headerIdx, delimiter, header, oneHot, options);

  const cols = findColumns(header);
  const outcomeCol = cols.face ?? cols.symbol;
  if (outcomeCol === undefined) {
    throw new InputError(
      `the header has no face or symbol column (found: ${header.slice(0, 10).map((h) => plainOrQuoted(h)).join(', ')}${header.length > 10 ? ` and ${header.length - 10} more` : ''}). ` +
        `Name one column ${COLUMN_ALIASES.face.join('/')} or ${COLUMN_ALIASES.symbol.join('/')}, or use the one-hot layout File,<symbol>,<symbol>...`,
      { file, line: headerIdx + 1 },
    );
  }
  const level = cols.face !== undefined ? 'face' : 'symbol';
  const dieCol = cols.die ?? -1;
  const typeCol = cols.type ?? -1;
  const throwCol = cols.throw ?? -1;
  const resolutionCol = cols.resolution ?? -1;
  const reviewerCol = cols.reviewer ?? -1;
  const simulatedCol = cols.simulated ?? -1;
  let simulatedRows = 0;
  // Both columns: each face's symbol is checked against the die's type once its type is known (`resolveDieRolls`).
  const symbolCol = cols.face !== undefined ? (cols.symbol ?? -1) : -1;
  // An unresolved row leaves every outcome column empty.
  const outcomeCols = [cols.face, cols.symbol].filter((c) => c !== undefined);
  const throwsSeen = new ThrowsSeen(file, options.rollDetails === true);
  const channelCol = cols.channel ?? -1;
  const confidenceCol = cols.confidence ?? -1;
  const classifierCol = cols.classifier ?? -1;
  const timeCol = cols.time ?? -1;
  const details =
    options.rollDetails === true
      ? new RollDetailsRecorder(file, { throws: throwCol >= 0, channels: channelCol >= 0, confidences: confidenceCol >= 0, classifiers: classifierCol >= 0, times: timeCol >= 0 })
      : undefined;
  const fallbackLabel = defaultLabel(options);
  const collector = new DieLogCollector(file);
  const width = header.length;
  const starts = new Int32Array(width);
  const ends = new Int32Array(width);
  let lastTypeRaw = '';
  let lastTypeId: string | undefined;
  let typeOptionUsed = false;
  let rows = 0;
  // Scan the text in place (no split into lines and fields): a row only allocates
  // strings for labels and tokens not seen before.
  let lineNo = headerIdx + 1;
  const headerEnd = text.indexOf('\n', pos);
  pos = headerEnd < 0 ? text.length : headerEnd + 1;
  let nextQuote = text.indexOf('"', pos);
  while (pos < text.length) {
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = text.length;
    let end = nl;
    if (end > pos && text.charCodeAt(end - 1) === 13) end--;
    lineNo++;
    const lineStart = pos;
    pos = nl + 1;
    if (end === lineStart || text.charCodeAt(lineStart) === 35 /* # */) continue;
    if (nextQuote >= 0 && nextQuote < lineStart) nextQuote = text.indexOf('"', lineStart);
    let fieldCount: number;
    let src = text;
    if (nextQuote >= 0 && nextQuote < end) {
      // Rare: quoted fields. Split the line properly and index into the joined fields.
      const fields = splitCsvLine(text.slice(lineStart, end), delimiter, file, lineNo);
      fieldCount = fields.length;
      src = '';
      for (let f = 0; f < fields.length && f < width; f++) {
        starts[f] = src.length;
        src += fields[f] as string;
        ends[f] = src.length;
      }
    } else {
      fieldCount = 0;
      let p = lineStart;
      for (;;) {
        let d = text.indexOf(delimiter, p);
        if (d < 0 || d > end) d = end;
        if (fieldCount < width) {
          starts[fieldCount] = p;
          ends[fieldCount] = d;
        }
        fieldCount++;
        if (d === end) break;
        p = d + 1;
      }
    }
    if (fieldCount !== width) {
      if (text.slice(lineStart, end).trim() === '') continue;
      throw new InputError(`expected ${width} fields as in the header, found ${fieldCount}`, { file, line: lineNo });
    }
    const resolution = resolutionCol >= 0 ? resolutionOf(src.slice(starts[resolutionCol] as number, ends[resolutionCol] as number).trim(), file, lineNo, header[resolutionCol]) : 'read';
    const unresolved = resolution === 'unresolved';
    const [ts, te] = trimmed(src, starts[outcomeCol] as number, ends[outcomeCol] as number);
    if (unresolved) {
      for (const col of outcomeCols) {
        const [os, oe] = trimmed(src, starts[col] as number, ends[col] as number);
        if (oe > os) throw new InputError(`${unresolvedHasOutcome} ${quoteValue(src.slice(os, oe))}`, { file, line: lineNo, column: header[col] });
      }
    } else if (ts === te) throw new InputError(`the ${level} is empty`, { file, line: lineNo, column: header[outcomeCol] });
    let typeId = options.typeId;
    let ownType = false;
    if (typeCol >= 0) {
      const [ys, ye] = trimmed(src, starts[typeCol] as number, ends[typeCol] as number);
      if (ye > ys) {
        if (!(lastTypeRaw.length === ye - ys && src.startsWith(lastTypeRaw, ys))) {
          lastTypeRaw = src.slice(ys, ye);
          lastTypeId = lastTypeRaw.toLowerCase();
        }
        typeId = lastTypeId;
        ownType = true;
      }
    }
    if (!ownType) typeOptionUsed = true;
    let die;
    if (dieCol < 0) {
      die = unresolved ? collector.addUnresolved(fallbackLabel, level, lineNo, typeId, true) : collector.addRange(fallbackLabel, 0, fallbackLabel.length, level, src, ts, te, lineNo, typeId);
    } else {
      const [ls, le] = trimmed(src, starts[dieCol] as number, ends[dieCol] as number);
      if (ls === le) throw new InputError('the die label is empty', { file, line: lineNo, column: header[dieCol] });
      die = unresolved ? collector.addUnresolved(src.slice(ls, le), level, lineNo, typeId, true) : collector.addRange(src, ls, le, level, src, ts, te, lineNo, typeId);
    }
    if (resolution === 'reviewed') collector.markReviewed(die, reviewerCol >= 0 ? src.slice(starts[reviewerCol] as number, ends[reviewerCol] as number).trim() || null : null);
    // Most rows repeat their face's symbol exactly: the collector compares the field as it is, and trims only when that fails.
    if (symbolCol >= 0 && !unresolved && !collector.repeatsSymbol(die, src, starts[symbolCol] as number, ends[symbolCol] as number)) {
      // An empty symbol is one not given.
      const [ss, se] = trimmed(src, starts[symbolCol] as number, ends[symbolCol] as number);
      if (se > ss) collector.seeSymbol(die, src, ss, se, lineNo);
    }
    if (simulatedCol >= 0 && isSimulatedMark(src.slice(starts[simulatedCol] as number, ends[simulatedCol] as number))) simulatedRows++;
    if (details !== undefined) {
      details.row(collector.lastIndex);
      if (channelCol >= 0) {
        const [cs, ce] = trimmed(src, starts[channelCol] as number, ends[channelCol] as number);
        details.channelAt(src, cs, ce, lineNo, header[channelCol]);
      }
      if (confidenceCol >= 0) {
        const [cs, ce] = trimmed(src, starts[confidenceCol] as number, ends[confidenceCol] as number);
        details.confidenceAt(src, cs, ce, lineNo, header[confidenceCol]);
      }
      if (classifierCol >= 0) {
        const [cs, ce] = trimmed(src, starts[classifierCol] as number, ends[classifierCol] as number);
        details.classifierAt(src, cs, ce, lineNo, header[classifierCol]);
      }
      if (timeCol >= 0) {
        const [ts, te] = trimmed(src, starts[timeCol] as number, ends[timeCol] as number);
        details.timeAt(src, ts, te, lineNo, header[timeCol]);
      }
    }
    if (throwCol >= 0) {
      const [ns, ne] = trimmed(src, starts[throwCol] as number, ends[throwCol] as number);
      const throwNo = throwNumber(src, ns, ne, file, lineNo, header[throwCol]);
      throwsSeen.see(die, die.label, throwNo, lineNo, header[throwCol]);
      details?.setThrow(throwNo);
    }
    rows++;
  }
  if (rows === 0) throw new InputError('the file has a header but no rolls', { file });
  return parsedLog(options, 'csv', { collector, throwsSeen, details, rows, simulatedRows, typeOptionUsed });
}

function matchOneHot(header: readonly string[], options: ParseOptions): SymbolLayout | undefined {
  const names = header.map(normaliseHeader);
  const fileIdx = names.indexOf('file');
  if (fileIdx < 0) return undefined;
  const symbols = names.filter((_, i) => i !== fileIdx).sort();
  const candidates = options.layouts.filter(
    (l) => l.symbols.length === symbols.length && [...l.symbols].map(normaliseHeader).sort().every((s, i) => s === symbols[i]),
  );
  if (options.typeId !== undefined) {
    const chosen = options.layouts.find((l) => l.typeId === options.typeId);
    if (chosen === undefined) return undefined;
    if (!candidates.includes(chosen)) {
      throw new InputError(
        `the one-hot columns (${symbols.join(', ')}) are not the symbols of die "${options.typeId}" (${chosen.symbols.join(', ')})`,
        { file: options.file, line: 1 },
      );
    }
    return chosen;
  }
  if (candidates.length > 1) {
    throw new InputError(`the one-hot columns fit several die types (${candidates.map((c) => c.typeId).join(', ')}): name one with --die`, {
      file: options.file,
      line: 1,
    });
  }
  if (candidates.length === 0) {
    throw new InputError(
      `a "File" column suggests the one-hot layout, but the other columns (${symbols.join(', ')}) are not the symbols of a known die ` +
        `(${options.layouts.map((l) => `${l.typeId}: ${l.symbols.join(',')}`).join('; ')})`,
      { file: options.file, line: 1 },
    );
  }
  return candidates[0];
}

function parseOneHot(
  lines: readonly string[],
  headerIdx: number,
  delimiter: string,
  header: readonly string[],
  layout: SymbolLayout,
  options: ParseOptions,
): ParsedLog {
  const { file } = options;
  const names = header.map(normaliseHeader);
  const fileIdx = names.indexOf('file');
  // Column index -> the layout's own spelling of the symbol.
  const symbolOf = names.map((n, i) => (i === fileIdx ? undefined : layout.symbols.find((s) => normaliseHeader(s) === n)));
  const label = defaultLabel(options);
  const collector = new DieLogCollector(file);
  // One die, no throws nor reads: each row is the die's next roll.
  const details = options.rollDetails === true ? new RollDetailsRecorder(file, { throws: false, channels: false, confidences: false, classifiers: false, times: false }) : undefined;
  let rows = 0;
  for (let i = headerIdx + 1; i < lines.length; i++) {
    const raw = lines[i] as string;
    if (raw.length === 0 || raw === '\r') continue;
    const fields = splitCsvLine(stripCr(raw), delimiter, file, i + 1);
    if (fields.length !== header.length) {
      throw new InputError(`expected ${header.length} fields as in the header, found ${fields.length}`, { file, line: i + 1 });
    }
    let rolled: string | undefined;
    for (let c = 0; c < fields.length; c++) {
      if (c === fileIdx) continue;
      const v = (fields[c] as string).trim();
      if (v === '1') {
        if (rolled !== undefined) {
          throw new InputError(`more than one symbol is marked 1 (${rolled} and ${symbolOf[c]}); a one-hot row marks exactly one`, { file, line: i + 1 });
        }
        rolled = symbolOf[c];
      } else if (v !== '0' && v !== '') {
        throw new InputError(`expected 0 or 1 in a one-hot column, found "${v}"`, { file, line: i + 1, column: header[c] });
      }
    }
    if (rolled === undefined) throw new InputError('no symbol is marked 1; a one-hot row marks exactly one', { file, line: i + 1 });
    collector.add(label, 'symbol', rolled, i + 1, layout.typeId);
    details?.row(collector.lastIndex);
    rows++;
  }
  if (rows === 0) throw new InputError('the file has a header but no rolls', { file });
  return { file, format: 'one-hot', dice: collector.dice(), rows, typeOptionUsed: options.typeId !== undefined, ...(details !== undefined ? { details: details.done() } : {}) };
}

const JSON_KEYS: Record<'die' | 'type' | 'face' | 'symbol' | 'throw' | 'resolution' | 'reviewer', readonly string[]> = COLUMN_ALIASES;

function pick(obj: Record<string, unknown>, role: keyof typeof JSON_KEYS): unknown {
  for (const key of JSON_KEYS[role]) if (key in obj) return obj[key];
  return undefined;
}

/**
 * A text field of a JSON Lines row, trimmed: undefined when the key is absent,
 * null when it is null. A number is taken as written (die 7, face 6); true, an
 * object or an array is refused, where String() would make a die named "true"
 * or a face "[object Object]".
 */
function textField(obj: Record<string, unknown>, role: 'die' | 'type' | 'face' | 'symbol' | 'resolution' | 'reviewer', file: string, line: number): string | null | undefined {
  const key = JSON_KEYS[role].find((k) => k in obj);
  if (key === undefined) return undefined;
  const value = obj[key];
  if (value === null || typeof value === 'string') return value === null ? null : value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  const found = Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : typeof value === 'number' ? 'a number too large' : JSON.stringify(value);
  throw new InputError(`"${key}" must be text or a number, found ${found}`, { file, line });
}

function parseJsonLines(text: string, options: ParseOptions): ParsedLog {
  const { file } = options;
  const collector = new DieLogCollector(file);
  const throwsSeen = new ThrowsSeen(file, options.rollDetails === true);
  const details = options.rollDetails === true ? new RollDetailsRecorder(file, { throws: false, channels: false, confidences: false, classifiers: false, times: false }) : undefined;
  // With details kept, every row gives its throw or none does: the first row without one, to name it.
  let lineWithoutThrow: number | undefined;
  const fallbackLabel = defaultLabel(options);
  const lines = text.split('\n');
  let typeOptionUsed = false;
  let rows = 0;
  let simulatedRows = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = stripCr(lines[i] as string).trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      throw new InputError(`not valid JSON (${(e as Error).message}); JSON Lines needs one object per line`, { file, line: i + 1 });
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new InputError('expected a JSON object with die and face or symbol fields', { file, line: i + 1 });
    }
    const obj = value as Record<string, unknown>;
    if (obj['kind'] === 'manifest' || obj['manifest'] !== undefined) continue; // export manifests carry session metadata, not rolls
    // A null face or symbol is one not given (a symbol-only row may carry "face": null); a null die is an empty label.
    const face = textField(obj, 'face', file, i + 1) ?? undefined;
    const outcome = face ?? textField(obj, 'symbol', file, i + 1);
    const resolutionValue = textField(obj, 'resolution', file, i + 1);
    const resolution = resolutionValue === undefined || resolutionValue === null ? 'read' : resolutionOf(resolutionValue, file, i + 1);
    const unresolved = resolution === 'unresolved';
    if (unresolved) {
      if (outcome !== undefined && outcome !== null && outcome !== '') throw new InputError(`${unresolvedHasOutcome} ${quoteValue(outcome)}`, { file, line: i + 1 });
    } else if (outcome === undefined || outcome === null || outcome === '') {
      throw new InputError('the row has no "face" or "symbol"', { file, line: i + 1 });
    }
    const dieValue = textField(obj, 'die', file, i + 1);
    const label = dieValue === undefined ? fallbackLabel : dieValue;
    if (label === null || label === '') throw new InputError(`the die label is empty${label === null ? ' (null)' : ''}`, { file, line: i + 1 });
    const typeValue = textField(obj, 'type', file, i + 1);
    const ownType = typeValue !== undefined && typeValue !== null && typeValue !== '';
    if (!ownType) typeOptionUsed = true;
    const typeId = ownType ? typeValue.toLowerCase() : options.typeId;
    const die = unresolved
      ? collector.addUnresolved(label, 'symbol', i + 1, typeId, false)
      : collector.add(label, face !== undefined ? 'face' : 'symbol', outcome as string, i + 1, typeId);
    if (resolution === 'reviewed') collector.markReviewed(die, textField(obj, 'reviewer', file, i + 1) || null);
    if (face !== undefined && face !== '' && !unresolved) {
      const symbol = textField(obj, 'symbol', file, i + 1);
      if (symbol !== undefined && symbol !== null && symbol !== '') collector.seeSymbol(die, symbol, 0, symbol.length, i + 1);
    }
    if (obj['simulated'] === true) simulatedRows++;
    if (details !== undefined) jsonDetails(details, obj, collector.lastIndex, i + 1);
    const throwValue = pick(obj, 'throw');
    if (throwValue !== undefined) {
      const throwNo = jsonThrowNumber(throwValue, file, i + 1);
      throwsSeen.see(die, label, throwNo, i + 1, JSON_KEYS.throw.find((k) => k in obj));
      if (details !== undefined) {
        if (lineWithoutThrow !== undefined) throw new InputError(`this row gives its throw, but line ${lineWithoutThrow} gives none: give every row its throw, or none`, { file, line: i + 1 });
        details.enable('throws');
        details.setThrow(throwNo);
      }
    } else if (details !== undefined) {
      if (details.has('throws')) throw new InputError('the row gives no "throw", but the rows before it do: give every row its throw, or none', { file, line: i + 1 });
      lineWithoutThrow ??= i + 1;
    }
    rows++;
  }
  if (rows === 0) throw new InputError('the file holds no rolls', { file });
  return parsedLog(options, 'jsonl', { collector, throwsSeen, details, rows, simulatedRows, typeOptionUsed });
}

/** A CSV or JSON Lines log once every row is read: each die's rolls in throw order (putInThrowOrder), and what the rows said. */
function parsedLog(
  options: ParseOptions,
  format: LogFormat,
  read: { collector: DieLogCollector; throwsSeen: ThrowsSeen; details: RollDetailsRecorder | undefined; rows: number; simulatedRows: number; typeOptionUsed: boolean },
): ParsedLog {
  const dice = read.collector.dice();
  const reordered = putInThrowOrder(options.file, dice, read.throwsSeen.outOfOrder());
  return {
    file: options.file,
    format,
    dice,
    ...(reordered.length > 0 ? { reordered } : {}),
    rows: read.rows,
    simulatedRows: read.simulatedRows,
    typeOptionUsed: read.typeOptionUsed && options.typeId !== undefined,
    ...(read.details !== undefined ? { details: read.details.done() } : {}),
  };
}

/** A JSON Lines row's channel, confidence, classifier version and time, into `details` (a column begins on the first row that has it). */
function jsonDetails(details: RollDetailsRecorder, obj: Record<string, unknown>, dieIndex: number, line: number): void {
  details.row(dieIndex);
  const channel = COLUMN_ALIASES.channel.find((k) => k in obj);
  if (channel !== undefined) {
    details.enable('channels');
    details.jsonChannel(obj[channel], line, channel);
  }
  const confidence = COLUMN_ALIASES.confidence.find((k) => k in obj);
  if (confidence !== undefined) {
    details.enable('confidences');
    details.jsonConfidence(obj[confidence], line, confidence);
  }
  const classifier = COLUMN_ALIASES.classifier.find((k) => k in obj);
  if (classifier !== undefined) {
    details.enable('classifiers');
    details.jsonClassifier(obj[classifier], line, classifier);
  }
  const time = COLUMN_ALIASES.time.find((k) => k in obj);
  if (time !== undefined) {
    details.enable('times');
    details.jsonTime(obj[time], line, time);
  }
}

const unresolvedHasOutcome = 'a roll marked unresolved (the reader could not read it) has no face or symbol, found';

/**
 * A roll's `resolution`: `unresolved`, as `dicerig export` writes a roll the reader declined or did not find and
 * nobody labelled; `reviewed` for one a person labelled (it counts as read); `read` or empty for a read roll.
 * Anything else is refused, since guessing would count a roll that was never read, or drop one that was.
 */
function resolutionOf(value: string, file: string, line: number, column?: string): 'read' | 'reviewed' | 'unresolved' {
  const v = value.toLowerCase();
  if (v === 'unresolved' || v === 'reviewed') return v;
  if (v === 'read' || v === '') return 'read';
  throw new InputError(`the resolution ${quoteValue(value)} is not "read", "reviewed" or "unresolved"`, column !== undefined ? { file, line, column } : { file, line });
}

/** Whether a CSV `simulated` cell marks its row simulated (`dicerig export` writes 1; a spreadsheet may write TRUE). */
function isSimulatedMark(cell: string): boolean {
  const v = cell.trim().toLowerCase();
  return v === '1' || v === 'true';
}

/** The range [start, end) without surrounding spaces and tabs. */
function trimmed(text: string, start: number, end: number): [number, number] {
  let s = start;
  let e = end;
  while (s < e && (text.charCodeAt(s) === 32 || text.charCodeAt(s) === 9)) s++;
  while (e > s && (text.charCodeAt(e - 1) === 32 || text.charCodeAt(e - 1) === 9)) e--;
  return [s, e];
}

function stripCr(line: string): string {
  return line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line;
}

function isBlankOrComment(line: string): boolean {
  const t = line.trim();
  return t === '' || t.startsWith('#');
}
