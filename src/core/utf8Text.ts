/**
 * A text file's bytes as UTF-8, or the first line that is not: Node's 'utf8' decoding turns a byte it cannot read into
 * U+FFFD without a word, so a die label or a face in a file saved as Latin-1 was stored changed.
 */
import { isUtf8 } from 'node:buffer';

export type Utf8Text = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly line: number };

export function utf8Text(bytes: Uint8Array): Utf8Text {
  if (isUtf8(bytes)) return { ok: true, text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') };
  // A newline byte never occurs inside a UTF-8 sequence, so lines can be checked one by one.
  let start = 0;
  for (let line = 1; ; line++) {
    const end = bytes.indexOf(0x0a, start);
    if (!isUtf8(bytes.subarray(start, end === -1 ? bytes.length : end))) return { ok: false, line };
    if (end === -1) return { ok: false, line };
    start = end + 1;
  }
}

/** The words for a file that is not UTF-8, with the line of its first byte that is not. */
export function notUtf8(what: string, line: number): string {
  return `the ${what} is not UTF-8 text (line ${line} has a byte that is not): save it as UTF-8`;
}
