#include "dr_crc16.h"

uint16_t dr_crc16_update(uint16_t crc, uint8_t byte) {
  /* Bitwise rather than a 512-byte table: RAM and flash matter more than speed at 115200 baud. */
  crc ^= (uint16_t)((uint16_t)byte << 8);
  for (uint8_t i = 0; i < 8; i++) {
    crc = (crc & 0x8000u) ? (uint16_t)((crc << 1) ^ 0x1021u) : (uint16_t)(crc << 1);
  }
  return crc;
}

uint16_t dr_crc16(const void *data, size_t len) {
  const uint8_t *p = (const uint8_t *)data;
  uint16_t crc = DR_CRC16_INIT;
  while (len--) crc = dr_crc16_update(crc, *p++);
  return crc;
}
