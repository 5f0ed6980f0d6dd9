#include "dr_rig.h"
#include "dr_crc16.h"
#include "dr_port.h"

#define LIMIT_DEBOUNCE_MS 5u
#define SAMPLE_EVERY_MS 1u

static const char *error_name(int code) {
  switch (code) {
#define DR_NAME_CASE(c, n) \
  case c:                  \
    return DR_P(#n);
    DR_ERRORS(DR_NAME_CASE)
#undef DR_NAME_CASE
  }
  return DR_P("unknown");
}

/* Both return flash strings on the AVR: print them with DR_PS. */
static const char *tumbler_name(uint8_t t) { return t == DR_TUMBLER_STEPPER ? DR_P("stepper") : DR_P("servo"); }
static const char *state_name(dr_motion_t m) {
  return m == DR_TUMBLE ? DR_P("tumble") : m == DR_HOME ? DR_P("home") : DR_P("idle");
}

/* Defaults and ranges come from the protocol table (protocol/protocol.json), which the host checks settings against too. */
void dr_config_defaults(dr_config_t *cfg) {
  cfg->tumbler = DR_CONFIG_TUMBLER_DEFAULT;
#define DR_NUMBER_DEFAULT(key, field, lo, hi, def) cfg->field = def;
  DR_CONFIG_NUMBERS(DR_NUMBER_DEFAULT)
#undef DR_NUMBER_DEFAULT
  dr_strcpy_P(cfg->rig, DR_P(DR_CONFIG_RIG_DEFAULT));
}

static int format_config(const dr_config_t *c, char *out, size_t cap) {
  return dr_snprintf(out, cap, DR_P("tumbler=" DR_PS " deadman=%u jam_ma=%u jam_ms=%u flip_ms=%u rest_us=%u flip_us=%u steps=%u step_rate=%u "
                  "home_ms=%u rig=%s"),
                  tumbler_name(c->tumbler), (unsigned)c->deadman_ms, (unsigned)c->jam_ma, (unsigned)c->jam_ms,
                  (unsigned)c->flip_ms, (unsigned)c->rest_us, (unsigned)c->flip_us, (unsigned)c->steps,
                  (unsigned)c->step_rate, (unsigned)c->home_ms, c->rig);
}

uint16_t dr_config_hash(const dr_config_t *cfg) {
  char text[DR_MAX_OUT];
  int n = format_config(cfg, text, sizeof text);
  if (n < 0) n = 0;
  if ((size_t)n >= sizeof text) n = (int)sizeof text - 1;
  return dr_crc16(text, (size_t)n);
}

/* ---- output -------------------------------------------------------------- */

/* rig->out holds `len` bytes of a line body: seal it with its CRC and send it. */
static void emit(dr_rig_t *rig, size_t len) {
  if (len >= DR_MAX_OUT) len = DR_MAX_OUT - 7; /* truncated bodies still get a valid CRC */
  if (dr_line_seal(rig->out, len, DR_MAX_OUT) == 0) return;
  rig->hal->write_line(rig->hal->ctx, rig->out);
}

static void cache_store(dr_rig_t *rig, uint16_t seq, uint16_t crc) {
  dr_cache_slot_t *slot = &rig->cache[rig->cache_next];
  rig->cache_next = (uint8_t)((rig->cache_next + 1) % DR_CACHE_SLOTS);
  slot->seq = seq;
  slot->crc = crc;
  /* Cached replies are short by design (config changes answer only cfg=XXXX); a longer one is stored
     empty, which makes a retransmit answer seq_stale instead of running the command again. */
  if (strlen(rig->out) < sizeof slot->reply) strcpy(slot->reply, rig->out);
  else slot->reply[0] = '\0';
}

static size_t clamp_len(int n) { return n < 0 ? 0 : (size_t)n; }

/* The terminal reply `ok` to an executed command: sent and cached for retransmits. */
static void reply_ok(dr_rig_t *rig, uint16_t seq, uint16_t crc, const char *data) {
  int n = dr_snprintf(rig->out, DR_MAX_OUT, DR_P("%u ok%s%s"), (unsigned)seq, data[0] ? " " : "", data);
  emit(rig, clamp_len(n));
  if (rig->cacheable) cache_store(rig, seq, crc);
}

/* An `err` reply; seq 0 means the line's seq could not be trusted and is written "-". */
static void reply_err(dr_rig_t *rig, uint16_t seq, uint16_t crc, int code, bool cache) {
  int n = seq ? dr_snprintf(rig->out, DR_MAX_OUT, DR_P("%u err %d " DR_PS), (unsigned)seq, code, error_name(code))
              : dr_snprintf(rig->out, DR_MAX_OUT, DR_P("- err %d " DR_PS), code, error_name(code));
  emit(rig, clamp_len(n));
  if (cache && rig->cacheable && seq) cache_store(rig, seq, crc);
}

static void push(dr_rig_t *rig, const char *text) {
  int n = dr_snprintf(rig->out, DR_MAX_OUT, DR_P("! %s"), text);
  emit(rig, clamp_len(n));
}

/* ---- motion -------------------------------------------------------------- */

static void motor_off(dr_rig_t *rig) {
  const dr_hal_t *h = rig->hal;
  h->servo_pulse(h->ctx, 0);
  h->stepper_enable(h->ctx, false);
  h->status_led(h->ctx, false);
}

static void motion_end_ok(dr_rig_t *rig, uint32_t now) {
  char data[48];
  motor_off(rig);
  dr_snprintf(data, sizeof data, DR_P("ms=%lu peak_ma=%u"), (unsigned long)(now - rig->motion_start_ms), (unsigned)rig->peak_ma);
  rig->motion = DR_IDLE;
  rig->cacheable = true;
  reply_ok(rig, rig->motion_seq, rig->motion_crc, data);
}

static void motion_abort(dr_rig_t *rig, int code, bool fault) {
  uint16_t seq = rig->motion_seq;
  motor_off(rig);
  rig->motion = DR_IDLE;
  rig->cacheable = true;
  reply_err(rig, seq, rig->motion_crc, code, true);
  if (fault) {
    char text[40];
    dr_snprintf(text, sizeof text, DR_P("fault %d " DR_PS " seq=%u"), code, error_name(code), (unsigned)seq);
    push(rig, text);
  }
}

static void motion_start(dr_rig_t *rig, dr_motion_t kind, const dr_command_t *cmd) {
  const dr_hal_t *h = rig->hal;
  uint32_t now = h->millis(h->ctx);
  rig->motion = kind;
  rig->motion_seq = cmd->seq;
  rig->motion_crc = cmd->crc;
  rig->phase = 0;
  rig->motion_start_ms = now;
  rig->phase_start_ms = now;
  rig->peak_ma = 0;
  rig->over_current = false;
  h->status_led(h->ctx, true);
  if (rig->cfg.tumbler == DR_TUMBLER_SERVO) {
    h->servo_pulse(h->ctx, kind == DR_TUMBLE ? rig->cfg.flip_us : rig->cfg.rest_us);
  } else {
    h->stepper_dir(h->ctx, kind == DR_TUMBLE);
    h->stepper_enable(h->ctx, true);
    rig->steps_left = kind == DR_TUMBLE ? rig->cfg.steps : 0;
    rig->next_step_us = h->micros(h->ctx);
  }
}

/* Steps when the next step is due; returns whether it stepped. */
static bool stepper_pace(dr_rig_t *rig) {
  const dr_hal_t *h = rig->hal;
  uint32_t now_us = h->micros(h->ctx);
  if ((int32_t)(now_us - rig->next_step_us) < 0) return false;
  h->stepper_step(h->ctx);
  rig->next_step_us += 1000000UL / rig->cfg.step_rate;
  /* After a long stall of the loop, don't burst the missed steps. */
  if ((int32_t)(now_us - rig->next_step_us) > 0) rig->next_step_us = now_us + 1000000UL / rig->cfg.step_rate;
  return true;
}

/* ---- inputs -------------------------------------------------------------- */

static void sample_inputs(dr_rig_t *rig, uint32_t now) {
  const dr_hal_t *h = rig->hal;
  bool raw = h->limit_pressed(h->ctx);
  if (raw != rig->limit_raw) {
    rig->limit_raw = raw;
    rig->limit_change_ms = now;
  }
  if (raw != rig->limit_state && now - rig->limit_change_ms >= LIMIT_DEBOUNCE_MS) {
    rig->limit_state = raw;
    push(rig, raw ? "limit pressed" : "limit released");
  }
  if (now - rig->last_sample_ms >= SAMPLE_EVERY_MS) {
    rig->last_sample_ms = now;
    rig->last_ma = h->motor_ma(h->ctx);
  }
}

void dr_rig_poll(dr_rig_t *rig) {
  const dr_hal_t *h = rig->hal;
  uint32_t now = h->millis(h->ctx);
  sample_inputs(rig, now);
  if (rig->motion == DR_IDLE) return;

  if (rig->last_ma > rig->peak_ma) rig->peak_ma = rig->last_ma;
  if (now - rig->last_rx_ms > rig->cfg.deadman_ms) return motion_abort(rig, DR_E_DEADMAN, true);
  if (rig->limit_state) return motion_abort(rig, DR_E_LIMIT, true);
  if (rig->cfg.jam_ma && rig->last_ma >= rig->cfg.jam_ma) {
    if (!rig->over_current) {
      rig->over_current = true;
      rig->over_since_ms = now;
    } else if (now - rig->over_since_ms >= rig->cfg.jam_ms) {
      return motion_abort(rig, DR_E_JAM, true);
    }
  } else {
    rig->over_current = false;
  }

  if (rig->motion == DR_HOME) {
    if (h->home_pressed(h->ctx)) return motion_end_ok(rig, now);
    if (now - rig->motion_start_ms >= rig->cfg.home_ms) return motion_abort(rig, DR_E_HOME_TIMEOUT, false);
    if (rig->cfg.tumbler == DR_TUMBLER_STEPPER) (void)stepper_pace(rig);
    return;
  }
  if (rig->cfg.tumbler == DR_TUMBLER_SERVO) {
    if (now - rig->phase_start_ms < rig->cfg.flip_ms) return;
    if (rig->phase == 0) {
      rig->phase = 1;
      rig->phase_start_ms = now;
      h->servo_pulse(h->ctx, rig->cfg.rest_us);
      return;
    }
    return motion_end_ok(rig, now);
  }
  if (rig->steps_left == 0) return motion_end_ok(rig, now);
  if (stepper_pace(rig)) rig->steps_left--;
}

/* ---- commands ------------------------------------------------------------ */

static bool parse_uint(const char *s, uint32_t min, uint32_t max, uint16_t *out) {
  uint32_t v = 0;
  if (!*s) return false;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return false;
    v = v * 10u + (uint32_t)(*s - '0');
    if (v > max) return false;
  }
  if (v < min) return false;
  *out = (uint16_t)v;
  return true;
}

static bool valid_rig_id(const char *s) {
  size_t n = strlen(s);
  if (n == 0 || n > DR_CONFIG_RIG_MAX_LEN) return false;
  for (; *s; s++) {
    char c = *s;
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) return false;
  }
  return true;
}

/* Applies key=value settings to a copy; the rig config changes only if every argument is valid. */
static bool apply_config_args(dr_config_t *c, const dr_command_t *cmd) {
  for (uint8_t i = 0; i < cmd->argc; i++) {
    const char *arg = cmd->args[i];
    const char *eq = strchr(arg, '=');
    if (!eq) return false;
    size_t klen = (size_t)(eq - arg);
    const char *v = eq + 1;
#define KEY(k) (klen == sizeof(k) - 1 && dr_strncmp_P(arg, DR_P(k), klen) == 0)
    bool ok;
    if (KEY("tumbler")) {
      ok = true;
      if (dr_strcmp_P(v, DR_P("servo")) == 0) c->tumbler = DR_TUMBLER_SERVO;
      else if (dr_strcmp_P(v, DR_P("stepper")) == 0) c->tumbler = DR_TUMBLER_STEPPER;
      else ok = false;
    }
#define DR_NUMBER_KEY(key, field, lo, hi, def) else if (KEY(key)) ok = parse_uint(v, lo, hi, &c->field);
    DR_CONFIG_NUMBERS(DR_NUMBER_KEY)
#undef DR_NUMBER_KEY
    else if (KEY("rig")) {
      ok = valid_rig_id(v);
      if (ok) strcpy(c->rig, v);
    } else ok = false;
#undef KEY
    if (!ok) return false;
  }
  return true;
}

static void execute(dr_rig_t *rig, const dr_command_t *cmd) {
  const dr_hal_t *h = rig->hal;
  const char *verb = cmd->verb;
  char data[DR_MAX_OUT - 16];
  uint16_t seq = cmd->seq, crc = cmd->crc;

  if (dr_strcmp_P(verb, DR_P("ping")) == 0) {
    if (cmd->argc) return reply_err(rig, seq, crc, DR_E_BAD_ARGUMENT, true);
    dr_snprintf(data, sizeof data, DR_P("t=%lu"), (unsigned long)h->millis(h->ctx));
    return reply_ok(rig, seq, crc, data);
  }
  if (dr_strcmp_P(verb, DR_P("identify")) == 0) {
    if (cmd->argc) return reply_err(rig, seq, crc, DR_E_BAD_ARGUMENT, true);
    rig->synced = true;
    dr_snprintf(data, sizeof data, DR_P("fw=" DR_FIRMWARE_VERSION " proto=%d rig=%s cfg=%04X tumbler=" DR_PS " last=%u"),
             DR_PROTOCOL_VERSION, rig->cfg.rig, (unsigned)rig->config_hash, tumbler_name(rig->cfg.tumbler),
             (unsigned)rig->last_seq);
    return reply_ok(rig, seq, crc, data);
  }
  if (dr_strcmp_P(verb, DR_P("status")) == 0) {
    if (cmd->argc) return reply_err(rig, seq, crc, DR_E_BAD_ARGUMENT, true);
    dr_snprintf(data, sizeof data, DR_P("state=" DR_PS " motion=%u light=%u limit=%d home=%d ma=%u up=%lu"), state_name(rig->motion),
             (unsigned)(rig->motion == DR_IDLE ? 0 : rig->motion_seq), (unsigned)rig->light_level,
             rig->limit_state ? 1 : 0, h->home_pressed(h->ctx) ? 1 : 0, (unsigned)rig->last_ma,
             (unsigned long)h->millis(h->ctx));
    return reply_ok(rig, seq, crc, data);
  }
  if (dr_strcmp_P(verb, DR_P("light")) == 0) {
    uint16_t level;
    if (cmd->argc != 1) return reply_err(rig, seq, crc, DR_E_BAD_ARGUMENT, true);
    if (dr_strcmp_P(cmd->args[0], DR_P("on")) == 0) level = 255;
    else if (dr_strcmp_P(cmd->args[0], DR_P("off")) == 0) level = 0;
    else if (!parse_uint(cmd->args[0], 0, 255, &level)) return reply_err(rig, seq, crc, DR_E_BAD_ARGUMENT, true);
    rig->light_level = (uint8_t)level;
    h->light(h->ctx, rig->light_level);
    dr_snprintf(data, sizeof data, DR_P("light=%u"), (unsigned)level);
    return reply_ok(rig, seq, crc, data);
  }
  if (dr_strcmp_P(verb, DR_P("tumble")) == 0 || dr_strcmp_P(verb, DR_P("home")) == 0) {
    if (cmd->argc) return reply_err(rig, seq, crc, DR_E_BAD_ARGUMENT, true);
    if (!rig->synced) return reply_err(rig, seq, crc, DR_E_UNSYNCED, true); /* cached: a retransmit never runs it either */
    if (rig->motion != DR_IDLE) return reply_err(rig, seq, crc, DR_E_BUSY, true);
    motion_start(rig, verb[0] == 't' ? DR_TUMBLE : DR_HOME, cmd);
    return; /* the terminal reply comes from dr_rig_poll when the motion ends */
  }
  if (dr_strcmp_P(verb, DR_P("stop")) == 0) {
    if (cmd->argc) return reply_err(rig, seq, crc, DR_E_BAD_ARGUMENT, true);
    uint16_t stopped = rig->motion == DR_IDLE ? 0 : rig->motion_seq;
    if (stopped) motion_abort(rig, DR_E_STOPPED, false);
    dr_snprintf(data, sizeof data, DR_P("stopped=%u"), (unsigned)stopped);
    return reply_ok(rig, seq, crc, data);
  }
  if (dr_strcmp_P(verb, DR_P("config")) == 0) {
    if (cmd->argc) {
      dr_config_t next = rig->cfg;
      if (rig->motion != DR_IDLE) return reply_err(rig, seq, crc, DR_E_BUSY, true);
      if (!apply_config_args(&next, cmd)) return reply_err(rig, seq, crc, DR_E_BAD_ARGUMENT, true);
      rig->cfg = next;
      rig->config_hash = dr_config_hash(&rig->cfg);
      h->save_config(h->ctx, &rig->cfg);
      dr_snprintf(data, sizeof data, DR_P("cfg=%04X"), (unsigned)rig->config_hash);
      return reply_ok(rig, seq, crc, data); /* short, so it fits the retransmit cache */
    }
    int n = dr_snprintf(data, sizeof data, DR_P("cfg=%04X "), (unsigned)rig->config_hash);
    format_config(&rig->cfg, data + n, sizeof data - (size_t)n);
    return reply_ok(rig, seq, crc, data);
  }
  reply_err(rig, seq, crc, DR_E_UNKNOWN_COMMAND, true);
}

/* Sequence numbers run 1..65535 and wrap to 1; "newer" means at most half the ring ahead. */
static bool seq_newer(uint16_t seq, uint16_t last) {
  uint16_t ahead = (uint16_t)(seq - last);
  if (seq < last) ahead--; /* the wrap skips 0 */
  return ahead != 0 && ahead < 32768u;
}

/* Commands that change nothing: safe to run again, so their replies are not cached. */
static bool read_only(const dr_command_t *cmd) {
  const char *v = cmd->verb;
  return dr_strcmp_P(v, DR_P("ping")) == 0 || dr_strcmp_P(v, DR_P("identify")) == 0 || dr_strcmp_P(v, DR_P("status")) == 0 ||
         (dr_strcmp_P(v, DR_P("config")) == 0 && cmd->argc == 0);
}

static void handle_line(dr_rig_t *rig) {
  dr_command_t cmd;
  int code = dr_command_parse(&rig->line, &cmd);
  if (code) return reply_err(rig, cmd.seq, cmd.crc, code, false);

  rig->last_rx_ms = rig->hal->millis(rig->hal->ctx); /* any sound line proves the host is alive */
  if (rig->motion != DR_IDLE && cmd.seq == rig->motion_seq) {
    /* A retransmit of the running motion: its one reply comes when the motion ends. */
    if (cmd.crc != rig->motion_crc) reply_err(rig, cmd.seq, cmd.crc, DR_E_SEQ_REUSED, false);
    return;
  }
  for (uint8_t i = 0; i < DR_CACHE_SLOTS; i++) {
    dr_cache_slot_t *slot = &rig->cache[i];
    if (slot->seq == 0 || slot->seq != cmd.seq) continue;
    if (slot->crc != cmd.crc) return reply_err(rig, cmd.seq, cmd.crc, DR_E_SEQ_REUSED, false);
    if (slot->reply[0]) rig->hal->write_line(rig->hal->ctx, slot->reply); /* never executed twice */
    else reply_err(rig, cmd.seq, cmd.crc, DR_E_SEQ_STALE, false);
    return;
  }
  bool newer = !rig->have_seq || seq_newer(cmd.seq, rig->last_seq);
  rig->cacheable = !read_only(&cmd);
  /* An old seq whose reply has left the cache may be a late retransmit of a tumble: refuse it rather than
     risk running it twice. Read-only commands are answered anyway (the host resynchronises with identify). */
  if (!newer && rig->cacheable) {
    int n = dr_snprintf(rig->out, DR_MAX_OUT, DR_P("%u err %d " DR_PS " last=%u"), (unsigned)cmd.seq, DR_E_SEQ_STALE,
                     error_name(DR_E_SEQ_STALE), (unsigned)rig->last_seq);
    return emit(rig, clamp_len(n));
  }
  if (newer) {
    rig->last_seq = cmd.seq;
    rig->have_seq = true;
  }
  execute(rig, &cmd);
}

void dr_rig_receive(dr_rig_t *rig, uint8_t byte) {
  dr_line_status_t st = dr_line_feed(&rig->line, byte);
  if (st == DR_LINE_NONE) return;
  if (st == DR_LINE_READY) handle_line(rig);
  dr_line_reset(&rig->line);
}

void dr_rig_begin(dr_rig_t *rig, const dr_hal_t *hal, const dr_config_t *cfg, const char *reset_cause) {
  memset(rig, 0, sizeof *rig);
  rig->hal = hal;
  rig->cfg = *cfg;
  rig->config_hash = dr_config_hash(&rig->cfg);
  dr_line_reset(&rig->line);
  motor_off(rig);
  hal->light(hal->ctx, 0);
  uint32_t now = hal->millis(hal->ctx);
  rig->last_rx_ms = now;
  rig->last_sample_ms = now;
  rig->limit_raw = rig->limit_state = hal->limit_pressed(hal->ctx);
  rig->limit_change_ms = now;
  char text[DR_MAX_OUT - 8];
  dr_snprintf(text, sizeof text, DR_P("boot fw=" DR_FIRMWARE_VERSION " proto=%d reset=%s rig=%s cfg=%04X"), DR_PROTOCOL_VERSION,
           reset_cause, rig->cfg.rig, (unsigned)rig->config_hash);
  push(rig, text);
}
