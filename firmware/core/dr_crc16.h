/* CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor):
   check value for "123456789" is 0x29B1. Used on every protocol line. */
#ifndef DR_CRC16_H
#define DR_CRC16_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

#define DR_CRC16_INIT 0xFFFFu

/** Folds one byte into a running CRC (start from DR_CRC16_INIT). */
uint16_t dr_crc16_update(uint16_t crc, uint8_t byte);
/** CRC of a whole buffer. */
uint16_t dr_crc16(const void *data, size_t len);

#ifdef __cplusplus
}
#endif
#endif
