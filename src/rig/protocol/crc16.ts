/**
 * CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final XOR), the checksum on every
 * protocol line. Check value: "123456789" -> 0x29B1. Same algorithm as firmware/core/dr_crc16.c.
 */
export function crc16(data: Uint8Array | string): number {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  let crc = 0xffff;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** The CRC as the protocol writes it: four upper-case hex digits. */
export function crcField(text: string): string {
  return crc16(text).toString(16).toUpperCase().padStart(4, '0');
}
