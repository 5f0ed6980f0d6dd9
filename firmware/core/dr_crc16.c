#include "dr_crc16.h"

#ifdef __AVR__
#include <util/crc16.h>
#endif

uint16_t dr_crc16_update(uint16_t crc, uint8_t byte) {
#ifdef __AVR__
  /* avr-libc's XMODEM update is this polynomial (0x1021, unreflected) in a few cycles of
   * assembly; with our 0xFFFF start it is CRC-16/CCITT-FALSE. The bitwise loop below cost
   * ~100 cycles a byte, a visible share of each reply's latency. */
  return _crc_xmodem_update(crc, byte);
#else
  /* Bitwise rather than a 512-byte table: the host build only runs the unit tests. */
  crc ^= (uint16_t)((uint16_t)byte << 8);
  for (uint8_t i = 0; i < 8; i++) {
    crc = (crc & 0x8000u) ? (uint16_t)((crc << 1) ^ 0x1021u) : (uint16_t)(crc << 1);
  }
  return crc;
#endif
}

uint16_t dr_crc16(const void *data, size_t len) {
  const uint8_t *p = (const uint8_t *)data;
  uint16_t crc = DR_CRC16_INIT;
  while (len--) crc = dr_crc16_update(crc, *p++);
  return crc;
}
