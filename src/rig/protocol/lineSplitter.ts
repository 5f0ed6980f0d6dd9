/**
 * Node's Buffer method that `toString('latin1')` ends in. Undocumented, so looked up: `toString`'s argument and
 * encoding handling around it cost several microseconds a chunk when the host wakes with cold caches (10x the
 * conversion itself), and a reply comes in several chunks.
 */
const latin1Slice = (Buffer.prototype as unknown as { latin1Slice?: (this: Buffer, start: number, end: number) => string }).latin1Slice;

/** A chunk's bytes as latin1 text (every byte one character). */
function latin1(chunk: Uint8Array): string {
  // A view, not a copy, of a chunk that is not a Buffer.
  const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return latin1Slice ? latin1Slice.call(buf, 0, buf.length) : buf.toString('latin1');
}

/** What `push` returns for a chunk that finished no line (shared: callers only read it). */
const NO_LINES: readonly { line: string; overlong: boolean }[] = Object.freeze([]);

/**
 * Turns arbitrary chunks of bytes from the serial port into lines, however the chunks are split.
 * Accepts \n and \r\n. A line that grows past `maxLength` without a newline is cut off and reported
 * as overlong (then skipped up to the next newline), so a babbling or mis-bauded port cannot grow
 * memory without bound. Bytes are read as latin1, so every byte maps to one character and nothing throws.
 */
export class LineSplitter {
  private pending = '';
  private discarding = false;

  constructor(private readonly maxLength: number) {}

  /** Feeds one chunk; returns the complete lines it finished, each flagged when it was cut off. */
  push(chunk: Uint8Array | string): readonly { line: string; overlong: boolean }[] {
    const text = typeof chunk === 'string' ? chunk : latin1(chunk);
    // Most chunks from a port are part of a line (a reply comes in several): kept, nothing to return.
    if (!this.discarding && text.indexOf('\n') === -1 && this.pending.length + text.length <= this.maxLength) {
      this.pending += text;
      return NO_LINES;
    }
    const out: { line: string; overlong: boolean }[] = [];
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      const piece = text.slice(start, nl === -1 ? text.length : nl);
      if (!this.discarding) {
        this.pending += piece;
        if (this.pending.length > this.maxLength) {
          out.push({ line: this.pending.slice(0, this.maxLength), overlong: true });
          this.pending = '';
          this.discarding = true;
        }
      }
      if (nl === -1) break;
      if (!this.discarding) {
        const line = this.pending.endsWith('\r') ? this.pending.slice(0, -1) : this.pending;
        if (line.length > 0) out.push({ line, overlong: false });
      }
      this.pending = '';
      this.discarding = false;
      start = nl + 1;
    }
    return out;
  }

  /** Drops a partial line (e.g. after the board reset mid-line). */
  reset(): void {
    this.pending = '';
    this.discarding = false;
  }
}
