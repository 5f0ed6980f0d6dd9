/**
 * CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final XOR), the checksum on every
 * protocol line. Check value: "123456789" -> 0x29B1. Same algorithm as firmware/core/dr_crc16.c.
 */

/** The CRC of each possible top byte, so a byte costs one lookup instead of eight shifts (every line is checked). */
const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 8;
    for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[i] = crc;
  }
  return table;
})();

/** The CRC of `text`'s first `end` characters read as latin1 bytes (the body of a line before its CRC field). */
export function crc16Prefix(text: string, end: number): number {
  let crc = 0xffff;
  for (let i = 0; i < end; i++) crc = ((crc << 8) & 0xffff) ^ (TABLE[((crc >> 8) ^ text.charCodeAt(i)) & 0xff] as number);
  return crc;
}

/** Continues `crc` over one byte. */
export function crc16Update(crc: number, byte: number): number {
  return ((crc << 8) & 0xffff) ^ (TABLE[((crc >> 8) ^ byte) & 0xff] as number);
}

/** The CRC of bytes, or of a string's characters read as latin1 bytes (as they go on the wire). */
export function crc16(data: Uint8Array | string): number {
  let crc = 0xffff;
  if (typeof data === 'string') {
    // crc16Update inlined: a line's CRC is made or checked a few times a second, so this never runs hot enough
    // for V8 to inline the call itself, and a call per character was most of its cost.
    for (let i = 0; i < data.length; i++) crc = ((crc << 8) & 0xffff) ^ (TABLE[((crc >> 8) ^ data.charCodeAt(i)) & 0xff] as number);
  } else {
    for (const byte of data) crc = crc16Update(crc, byte);
  }
  return crc;
}

const HEX = '0123456789ABCDEF';

/** A CRC as the protocol writes it: four upper-case hex digits. */
export function crcHex(crc: number): string {
  return HEX.charAt((crc >> 12) & 15) + HEX.charAt((crc >> 8) & 15) + HEX.charAt((crc >> 4) & 15) + HEX.charAt(crc & 15);
}

/** The CRC field of a line body: four upper-case hex digits. */
export function crcField(text: string): string {
  return crcHex(crc16(text));
}
