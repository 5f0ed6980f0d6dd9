import { crc16Update, crcHex } from './crc16.js';
import type { BoardLine, InvalidReason } from './messages.js';
import { MAX_SEQ } from './sequence.js';

/** Longest line the board sends (firmware DR_MAX_OUT minus the terminator). */
export const MAX_BOARD_LINE = 167;

const invalid = (reason: InvalidReason, raw: string): BoardLine => ({ kind: 'invalid', reason, raw });

function splitFields(words: readonly string[]): { words: string[]; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  const plain: string[] = [];
  for (const w of words) {
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
  const star = raw.length - 5;
  // One pass checks the bytes and computes the CRC of the body (every line from the board comes through here).
  let crc = 0xffff;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return invalid('bad_bytes', raw);
    if (i < star) crc = crc16Update(crc, c);
  }
  if (star < 1 || raw[star] !== '*' || !/^[0-9A-F]{4}$/.test(raw.slice(star + 1))) return invalid('bad_syntax', raw);
  if (crcHex(crc) !== raw.slice(star + 1)) return invalid('bad_crc', raw);
  const body = raw.slice(0, star);

  const tokens = body.split(' ');
  if (tokens.some((t) => t === '')) return invalid('bad_syntax', raw);
  const [head, second, ...rest] = tokens;
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
    const [code, name, ...more] = rest;
    if (code === undefined || name === undefined || !/^[0-9]{1,3}$/.test(code) || !/^[a-z_]+$/.test(name)) {
      return invalid('bad_syntax', raw);
    }
    const { fields } = splitFields(more);
    return { kind: 'err', seq, code: Number(code), name, fields, raw };
  }
  return invalid('bad_syntax', raw);
}
