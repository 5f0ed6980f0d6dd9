/* Line framing of the dicerig protocol (see firmware/PROTOCOL.md):
   assembling bytes into lines, checking and splitting a command line,
   and appending the CRC field to an outgoing line. No Arduino dependency. */
#ifndef DR_LINE_H
#define DR_LINE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "generated/dr_table.h"
#ifdef __cplusplus
extern "C" {
#endif

#define DR_MAX_ARGS 12
/* Longest line the board sends (config replies are the longest). */
#define DR_MAX_OUT 168

/** Collects bytes until a newline; remembers overflow and control bytes so the line can be rejected whole. */
typedef struct {
  char buf[DR_MAX_LINE + 1];
  uint8_t len;
  bool overflow;
  bool bad_byte;
} dr_line_t;

typedef enum { DR_LINE_NONE = 0, DR_LINE_READY, DR_LINE_EMPTY } dr_line_status_t;

void dr_line_reset(dr_line_t *line);
/** Feeds one byte. Returns DR_LINE_READY when buf holds a complete line (NUL-terminated, newline and CR removed),
    DR_LINE_EMPTY for a blank line (ignored by the protocol: a host may send one to resynchronise). */
dr_line_status_t dr_line_feed(dr_line_t *line, uint8_t byte);

/** A checked command line, split in place. */
typedef struct {
  uint16_t seq;
  uint16_t crc; /* the CRC field as sent: identifies the command's content in the retransmit cache */
  const char *verb;
  const char *args[DR_MAX_ARGS];
  uint8_t argc;
} dr_command_t;

/** Checks CRC, sequence number and syntax of an assembled line, and splits it.
    Returns 0 or a DR_E_* code (bad_crc, bad_syntax, line_too_long, bad_seq).
    cmd->seq is 0 unless the CRC and the sequence number were good (then an error can be answered under that seq). */
int dr_command_parse(dr_line_t *line, dr_command_t *cmd);

/** Appends "*XXXX" (CRC-16 of out[0..len)) and NUL. Returns the new length, or 0 if it would not fit in cap. */
size_t dr_line_seal(char *out, size_t len, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
