import { crc16Prefix, crcHex } from './crc16.js';
import type { BoardLine, InvalidReason } from './messages.js';
import { MAX_SEQ } from './sequence.js';

/** Longest line the board sends (firmware DR_MAX_OUT minus the terminator). */
export const MAX_BOARD_LINE = 167;

const invalid = (reason: InvalidReason, raw: string): BoardLine => ({ kind: 'invalid', reason, raw });

function splitFields(words: readonly string[]): { words: string[]; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  const plain: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    const eq = w.indexOf('=');
    if (eq > 0) fields[w.slice(0, eq)] = w.slice(eq + 1);
    else plain.push(w);
  }
  return { words: plain, fields };
}

/**
 * Decodes one line from the board (without its newline; a trailing \r is ignored) into a typed
 * reply or push. Never throws: anything that fails the CRC or the grammar comes back as `invalid`.
 */
export function decodeLine(input: string): BoardLine {
  const raw = input.endsWith('\r') ? input.slice(0, -1) : input;
  if (raw.length > MAX_BOARD_LINE) return invalid('too_long', raw);
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return invalid('bad_bytes', raw);
  }
  const star = raw.length - 5;
  if (star < 1 || raw[star] !== '*' || !/^[0-9A-F]{4}$/.test(raw.slice(star + 1))) return invalid('bad_syntax', raw);
  if (crcHex(crc16Prefix(raw, star)) !== raw.slice(star + 1)) return invalid('bad_crc', raw);
  const body = raw.slice(0, star);

  // Indexes, not destructuring or callbacks: every line from the board comes through here, a few a second, so
  // this code stays in V8's interpreter, where each iterator and closure costs.
  const tokens = body.split(' ');
  for (let i = 0; i < tokens.length; i++) if (tokens[i] === '') return invalid('bad_syntax', raw);
  const head = tokens[0];
  const second = tokens[1];
  const rest = tokens.slice(2);
  if (head === '!') {
    if (second === undefined || !/^[a-z_]+$/.test(second)) return invalid('bad_syntax', raw);
    const { words, fields } = splitFields(rest);
    return { kind: 'push', event: second, words, fields, raw };
  }
  if (head === undefined || second === undefined) return invalid('bad_syntax', raw);
  let seq: number | null = null;
  if (head !== '-') {
    if (!/^[1-9][0-9]{0,4}$/.test(head) || Number(head) > MAX_SEQ) return invalid('bad_syntax', raw);
    seq = Number(head);
  }
  if (second === 'ok' && seq !== null) {
    const { words, fields } = splitFields(rest);
    if (words.length > 0) return invalid('bad_syntax', raw);
    return { kind: 'ok', seq, fields, raw };
  }
  if (second === 'err') {
    const code = rest[0];
    const name = rest[1];
    const more = rest.slice(2);
    if (code === undefined || name === undefined || !/^[0-9]{1,3}$/.test(code) || !/^[a-z_]+$/.test(name)) {
      return invalid('bad_syntax', raw);
    }
    const { fields } = splitFields(more);
    return { kind: 'err', seq, code: Number(code), name, fields, raw };
  }
  return invalid('bad_syntax', raw);
}
