/** Sequence numbers run from 1 to 65535 and wrap to 1 (0 is never used). */
export const MAX_SEQ = 65535;

/** The sequence number after `seq`. */
export function nextSeq(seq: number): number {
  return seq >= MAX_SEQ ? 1 : seq + 1;
}

/**
 * Whether `seq` is newer than `last` on the wrapping ring (at most half the ring ahead), the rule the
 * board uses to refuse late retransmits of commands whose reply it no longer caches.
 */
export function isNewerSeq(seq: number, last: number): boolean {
  let ahead = (seq - last + 65536) % 65536;
  if (seq < last) ahead -= 1; // the wrap skips 0
  return ahead !== 0 && ahead < 32768;
}
