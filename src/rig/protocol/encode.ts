import { crcField } from './crc16.js';
import { MAX_LINE_LENGTH } from './pinMap.js';
import { MAX_SEQ } from './sequence.js';

/** Verbs the firmware understands (see firmware/PROTOCOL.md). */
export type CommandVerb = 'identify' | 'ping' | 'status' | 'light' | 'tumble' | 'home' | 'stop' | 'config';

const TOKEN = /^[A-Za-z0-9_.=-]+$/;

/**
 * Encodes one command line, newline included: `<seq> <verb> [args]*<CRC>\n`.
 * Throws RangeError for a seq outside 1..65535, an argument the grammar cannot carry, or a line
 * longer than the board accepts: those are programming errors, not wire conditions.
 */
export function encodeCommand(seq: number, verb: CommandVerb | string, args: readonly string[] = []): string {
  if (!Number.isInteger(seq) || seq < 1 || seq > MAX_SEQ) throw new RangeError(`sequence number ${seq} is outside 1..${MAX_SEQ}`);
  if (!/^[a-z]+$/.test(verb)) throw new RangeError(`command verb "${verb}" must be lower-case letters`);
  // Indexes and string joins, not iterators: heartbeats encode a line a few times a second, cold each time.
  let body = `${seq} ${verb}`;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!TOKEN.test(arg)) throw new RangeError(`command argument "${arg}" has characters the protocol does not allow`);
    body += ` ${arg}`;
  }
  const line = `${body}*${crcField(body)}`;
  if (line.length > MAX_LINE_LENGTH) throw new RangeError(`command line is ${line.length} characters; the board accepts ${MAX_LINE_LENGTH}`);
  return `${line}\n`;
}
