#include "dr_line.h"
#include "dr_crc16.h"

void dr_line_reset(dr_line_t *line) {
  line->len = 0;
  line->overflow = false;
  line->bad_byte = false;
  line->buf[0] = '\0';
}

dr_line_status_t dr_line_feed(dr_line_t *line, uint8_t byte) {
  if (byte == '\n') {
    line->buf[line->len] = '\0';
    if (line->len == 0 && !line->overflow && !line->bad_byte) return DR_LINE_EMPTY;
    return DR_LINE_READY;
  }
  if (byte == '\r') return DR_LINE_NONE; /* accept \r\n and \n alike */
  if (byte < 0x20 || byte > 0x7E) {
    line->bad_byte = true; /* NUL or noise: the whole line is rejected at its newline */
    return DR_LINE_NONE;
  }
  if (line->len >= DR_MAX_LINE) {
    line->overflow = true;
    return DR_LINE_NONE;
  }
  line->buf[line->len++] = (char)byte;
  return DR_LINE_NONE;
}

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

int dr_command_parse(dr_line_t *line, dr_command_t *cmd) {
  cmd->seq = 0;
  cmd->crc = 0;
  cmd->verb = "";
  cmd->argc = 0;
  if (line->overflow) return DR_E_LINE_TOO_LONG;
  if (line->bad_byte) return DR_E_BAD_SYNTAX;
  uint8_t n = line->len;
  if (n < 6 || line->buf[n - 5] != '*') return DR_E_BAD_SYNTAX;
  uint16_t sent = 0;
  for (uint8_t i = n - 4; i < n; i++) {
    int v = hex_value(line->buf[i]);
    if (v < 0) return DR_E_BAD_SYNTAX;
    sent = (uint16_t)((sent << 4) | (uint16_t)v);
  }
  if (dr_crc16(line->buf, (size_t)(n - 5)) != sent) return DR_E_BAD_CRC;
  cmd->crc = sent;
  line->buf[n - 5] = '\0';

  /* Split on single spaces; empty tokens (double spaces, leading space) are a syntax error. */
  char *p = line->buf;
  char *tokens[DR_MAX_ARGS + 2];
  uint8_t count = 0;
  while (*p) {
    if (count == DR_MAX_ARGS + 2) return DR_E_BAD_SYNTAX;
    if (*p == ' ') return DR_E_BAD_SYNTAX;
    tokens[count++] = p;
    while (*p && *p != ' ') p++;
    if (*p == ' ') {
      *p++ = '\0';
      if (*p == '\0') return DR_E_BAD_SYNTAX;
    }
  }
  if (count < 1) return DR_E_BAD_SYNTAX;
  uint32_t seq = 0;
  const char *s = tokens[0];
  if (*s == '\0' || (s[0] == '0' && s[1] != '\0')) return DR_E_BAD_SEQ;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return DR_E_BAD_SEQ;
    seq = seq * 10u + (uint32_t)(*s - '0');
    if (seq > 65535u) return DR_E_BAD_SEQ;
  }
  if (seq == 0) return DR_E_BAD_SEQ;
  cmd->seq = (uint16_t)seq; /* known from here on, so a syntax error can be answered under it */
  if (count < 2) return DR_E_BAD_SYNTAX;
  for (s = tokens[1]; *s; s++) {
    if (*s < 'a' || *s > 'z') return DR_E_BAD_SYNTAX;
  }
  cmd->verb = tokens[1];
  for (uint8_t i = 2; i < count; i++) cmd->args[cmd->argc++] = tokens[i];
  return 0;
}

size_t dr_line_seal(char *out, size_t len, size_t cap) {
  static const char hex[] = "0123456789ABCDEF";
  if (len + 6 > cap) return 0;
  uint16_t crc = dr_crc16(out, len);
  out[len++] = '*';
  out[len++] = hex[(crc >> 12) & 0xF];
  out[len++] = hex[(crc >> 8) & 0xF];
  out[len++] = hex[(crc >> 4) & 0xF];
  out[len++] = hex[crc & 0xF];
  out[len] = '\0';
  return len;
}
