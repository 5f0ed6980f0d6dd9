/* Host unit test of the firmware protocol core (dr_line, dr_crc16, dr_rig) over a fake board.
   Built with the host compiler by `make -C firmware hosttest`; run by test/rig/firmwareCore.test.ts.
   `core_test crc TEXT...` prints the CRC of each argument (for the C/TypeScript agreement test). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../dr_crc16.h"
#include "../dr_line.h"
#include "../dr_rig.h"

static int failures = 0, checks = 0;
#define CHECK(cond, ...)                                   \
  do {                                                     \
    checks++;                                              \
    if (!(cond)) {                                         \
      failures++;                                          \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);          \
      printf(__VA_ARGS__);                                 \
      printf("\n");                                        \
    }                                                      \
  } while (0)

/* ---- fake board ---- */
typedef struct {
  uint32_t now_us;
  char lines[64][DR_MAX_OUT];
  int nlines;
  uint16_t servo_us;
  int flips;     /* pulses set to the flip position */
  int steps;
  bool enabled;
  uint8_t light;
  bool limit, home;
  uint16_t ma;
  int saves;
} fake_t;

static fake_t F;
static uint32_t f_millis(void *c) { (void)c; return F.now_us / 1000u; }
static uint32_t f_micros(void *c) { (void)c; return F.now_us; }
static void f_write(void *c, const char *l) {
  (void)c;
  if (F.nlines < 64) strcpy(F.lines[F.nlines++], l);
}
static void f_servo(void *c, uint16_t us) { (void)c; F.servo_us = us; if (us == 2400) F.flips++; }
static void f_en(void *c, bool on) { (void)c; F.enabled = on; }
static void f_dir(void *c, bool fwd) { (void)c; (void)fwd; }
static void f_step(void *c) { (void)c; F.steps++; }
static void f_light(void *c, uint8_t l) { (void)c; F.light = l; }
static void f_led(void *c, bool on) { (void)c; (void)on; }
static bool f_limit(void *c) { (void)c; return F.limit; }
static bool f_home(void *c) { (void)c; return F.home; }
static uint16_t f_ma(void *c) { (void)c; return F.ma; }
static void f_save(void *c, const dr_config_t *cfg) { (void)c; (void)cfg; F.saves++; }
static const dr_hal_t HAL = {NULL, f_millis, f_micros, f_write, f_servo, f_en, f_dir, f_step,
                             f_light, f_led, f_limit, f_home, f_ma, f_save};

static dr_rig_t rig;

static void boot(void) {
  dr_config_t cfg;
  memset(&F, 0, sizeof F);
  F.now_us = 5000000u;
  dr_config_defaults(&cfg);
  dr_rig_begin(&rig, &HAL, &cfg, "power");
}

static void send_raw(const char *s) {
  for (; *s; s++) dr_rig_receive(&rig, (uint8_t)*s);
}

/* Sends "<seq> <body>*CRC\n". */
static void send_cmd(unsigned seq, const char *body) {
  char line[200];
  int n = snprintf(line, sizeof line, "%u %s", seq, body);
  size_t len = dr_line_seal(line, (size_t)n, sizeof line);
  line[len] = '\n';
  line[len + 1] = '\0';
  send_raw(line);
}

/* Boots and identifies, as a host does before its first motion: a fresh board runs none until it has answered
   identify. Seq 65535, so that every seq the tests send afterwards counts as newer. */
static void boot_synced(void) {
  boot();
  send_cmd(65535, "identify");
}

/* Advances fake time in 100 us steps, polling; a ping every keepalive_ms keeps the dead-man fed (0: silent host).
   The pings use seqs far "behind" the tests' own (60000+), which also shows read-only commands are answered
   whatever their seq and never move the board's last seq. */
static unsigned ping_seq = 60000;
static void run_ms(uint32_t ms, uint32_t keepalive_ms) {
  uint32_t end = F.now_us + ms * 1000u, next_ping = F.now_us + keepalive_ms * 1000u;
  while ((int32_t)(end - F.now_us) > 0) {
    F.now_us += 100;
    dr_rig_poll(&rig);
    if (keepalive_ms && (int32_t)(F.now_us - next_ping) >= 0) {
      send_cmd(ping_seq++, "ping");
      next_ping += keepalive_ms * 1000u;
    }
  }
}

static const char *last_line(void) { return F.nlines ? F.lines[F.nlines - 1] : ""; }
static int count_prefix(const char *prefix) {
  int n = 0;
  for (int i = 0; i < F.nlines; i++) n += strncmp(F.lines[i], prefix, strlen(prefix)) == 0;
  return n;
}
static const char *find_prefix(const char *prefix) {
  for (int i = 0; i < F.nlines; i++)
    if (strncmp(F.lines[i], prefix, strlen(prefix)) == 0) return F.lines[i];
  return NULL;
}
/* Every line the board sends carries a valid CRC. */
static bool sealed(const char *l) {
  size_t n = strlen(l);
  char copy[DR_MAX_OUT];
  if (n < 6 || l[n - 5] != '*') return false;
  memcpy(copy, l, n - 5);
  copy[n - 5] = 0;
  char again[DR_MAX_OUT];
  strcpy(again, copy);
  dr_line_seal(again, n - 5, sizeof again);
  return strcmp(again, l) == 0;
}

static void test_crc(void) {
  CHECK(dr_crc16("123456789", 9) == 0x29B1, "check value 0x%04X", dr_crc16("123456789", 9));
  CHECK(dr_crc16("", 0) == 0xFFFF, "empty");
}

static void test_banner_and_identify(void) {
  char expect[64];
  boot();
  snprintf(expect, sizeof expect, "! boot fw=%s proto=%d reset=power rig=rig-01 cfg=", DR_FIRMWARE_VERSION, DR_PROTOCOL_VERSION);
  CHECK(strncmp(F.lines[0], expect, strlen(expect)) == 0, "banner %s", F.lines[0]);
  CHECK(sealed(F.lines[0]), "banner sealed %s", F.lines[0]);
  send_cmd(1, "identify");
  snprintf(expect, sizeof expect, "1 ok fw=%s proto=%d rig=rig-01 cfg=", DR_FIRMWARE_VERSION, DR_PROTOCOL_VERSION);
  CHECK(strncmp(last_line(), expect, strlen(expect)) == 0, "identify %s", last_line());
  CHECK(sealed(last_line()), "identify sealed");
}

/* A motion line that reaches a fresh board before the host has identified it was sent before the host saw the
   banner: it is refused (and its retransmit too), everything else runs, and identify lifts the refusal. */
static void test_no_motion_before_identify(void) {
  boot();
  send_cmd(5, "tumble");
  CHECK(strncmp(last_line(), "5 err 10 unsynced*", 18) == 0, "tumble before identify: %s", last_line());
  send_cmd(5, "tumble");
  CHECK(strncmp(last_line(), "5 err 10 unsynced*", 18) == 0, "its retransmit: %s", last_line());
  send_cmd(6, "home");
  CHECK(strncmp(last_line(), "6 err 10 unsynced*", 18) == 0, "home before identify: %s", last_line());
  CHECK(F.flips == 0 && rig.motion == DR_IDLE, "no motion ran");
  send_cmd(7, "light 9");
  send_cmd(8, "status");
  CHECK(F.light == 9 && strncmp(last_line(), "8 ok state=idle", 15) == 0, "other commands run: %s", last_line());
  send_cmd(9, "identify");
  send_cmd(10, "tumble");
  CHECK(F.flips == 1 && rig.motion == DR_TUMBLE, "a tumble after identify runs");
  boot();
  CHECK(!rig.synced, "a reset forgets it");
}

static void test_bad_lines(void) {
  boot();
  int before = F.nlines;
  send_raw("\n\r\n");
  CHECK(F.nlines == before, "blank lines are ignored");
  send_raw("1 ping*0000\n");
  CHECK(strncmp(last_line(), "- err 1 bad_crc*", 16) == 0, "bad crc: %s", last_line());
  send_raw("garbage\n");
  CHECK(strncmp(last_line(), "- err 2 bad_syntax*", 19) == 0, "garbage: %s", last_line());
  char longline[300];
  memset(longline, 'x', 200);
  longline[200] = '\n';
  longline[201] = 0;
  send_raw(longline);
  CHECK(strncmp(last_line(), "- err 3 line_too_long*", 22) == 0, "long: %s", last_line());
  send_raw("1 pi\001ng*1234\n");
  CHECK(strncmp(last_line(), "- err 2 bad_syntax*", 19) == 0, "control byte: %s", last_line());
  send_cmd(0, "ping");
  CHECK(strncmp(last_line(), "- err 4 bad_seq*", 16) == 0, "seq 0: %s", last_line());
  send_cmd(70000, "ping");
  CHECK(strncmp(last_line(), "- err 4 bad_seq*", 16) == 0, "seq 70000: %s", last_line());
  send_cmd(9, "Ping");
  CHECK(strncmp(last_line(), "9 err 2 bad_syntax*", 19) == 0, "upper-case verb: %s", last_line());
  send_cmd(10, "dance");
  CHECK(strncmp(last_line(), "10 err 5 unknown_command*", 25) == 0, "unknown: %s", last_line());
  send_cmd(11, "light 256");
  CHECK(strncmp(last_line(), "11 err 6 bad_argument*", 22) == 0, "light 256: %s", last_line());
  send_raw("17 ping*8cb0\n");
  CHECK(strncmp(last_line(), "17 ok t=", 8) == 0, "a lower-case CRC is accepted (PROTOCOL.md): %s", last_line());
  send_raw("12 ping*");
  CHECK(F.nlines > 0, "lines were sent");
  int n = F.nlines;
  send_raw("ABCD\r\n");
  CHECK(F.nlines == n + 1, "a CRLF line is answered once");
  CHECK(F.flips == 0 && F.steps == 0, "no motion from bad lines");
}

static void test_light_and_status(void) {
  boot();
  send_cmd(2, "light on");
  CHECK(F.light == 255 && strncmp(last_line(), "2 ok light=255*", 15) == 0, "light on: %s", last_line());
  send_cmd(3, "light 40");
  CHECK(F.light == 40, "light 40");
  send_cmd(4, "light off");
  CHECK(F.light == 0, "light off");
  send_cmd(5, "status");
  CHECK(strncmp(last_line(), "5 ok state=idle motion=0 light=0 limit=0 home=0 ma=0 up=", 56) == 0, "status: %s", last_line());
}

static void test_tumble_and_retransmit(void) {
  boot_synced();
  send_cmd(7, "tumble");
  CHECK(F.flips == 1 && F.servo_us == 2400, "tumble starts a flip");
  send_cmd(7, "tumble"); /* retransmit while it runs: no reply, no second flip */
  CHECK(count_prefix("7 ") == 0, "no early reply");
  run_ms(2000, 200);
  CHECK(count_prefix("7 ok ms=") == 1, "one ok reply");
  CHECK(F.flips == 1 && F.servo_us == 0, "one flip, servo released after");
  const char *reply = find_prefix("7 ok");
  char saved[DR_MAX_OUT];
  strcpy(saved, reply ? reply : "");
  send_cmd(7, "tumble");
  CHECK(strcmp(last_line(), saved) == 0, "retransmit gets the cached reply: %s vs %s", last_line(), saved);
  CHECK(F.flips == 1, "never tumbles twice");
  send_cmd(7, "light on");
  CHECK(strncmp(last_line(), "7 err 8 seq_reused*", 19) == 0, "seq reused: %s", last_line());
  CHECK(F.light == 0, "reused seq not executed");
  send_cmd(20, "light 1");
  send_cmd(21, "light 2");
  send_cmd(22, "light 3");
  send_cmd(23, "light 3");
  send_cmd(7, "tumble"); /* its reply has left the cache now */
  CHECK(strncmp(last_line(), "7 err 9 seq_stale last=23*", 26) == 0, "stale: %s", last_line());
  CHECK(F.flips == 1, "a stale retransmit never tumbles");
  send_cmd(24, "identify");
  CHECK(strstr(last_line(), " last=24*") != NULL, "identify tells the last seq: %s", last_line());
  send_cmd(8, "tumble");
  CHECK(strncmp(last_line(), "8 err 9 seq_stale", 17) == 0, "older new command refused");
  send_cmd(30000, "light 4");
  send_cmd(60000, "light 4");
  send_cmd(65535, "light 4");
  send_cmd(1, "light 5");
  CHECK(F.light == 5, "seq wraps from 65535 to 1");
  send_cmd(8, "tumble");
  send_cmd(9, "tumble");
  CHECK(strncmp(last_line(), "9 err 7 busy*", 13) == 0, "busy: %s", last_line());
  send_cmd(10, "stop");
  CHECK(count_prefix("8 err 24 stopped*") == 1 && strncmp(last_line(), "10 ok stopped=8*", 16) == 0, "stop: %s",
        last_line());
  CHECK(F.servo_us == 0, "stop releases the servo");
}

static void test_deadman(void) {
  boot_synced();
  send_cmd(3, "tumble");
  run_ms(1500, 0);
  CHECK(count_prefix("3 err 23 deadman*") == 1, "deadman reply");
  CHECK(count_prefix("! fault 23 deadman seq=3*") == 1, "deadman push");
  CHECK(F.servo_us == 0, "motor stopped");
  CHECK(F.flips == 1, "no second flip");
}

static void test_jam_and_limit(void) {
  boot_synced();
  send_cmd(4, "tumble");
  run_ms(100, 200);
  F.ma = 1600;
  run_ms(50, 200);
  CHECK(count_prefix("4 ") == 0, "a short spike is not a jam");
  run_ms(100, 200);
  CHECK(count_prefix("4 err 20 jam*") == 1 && count_prefix("! fault 20 jam seq=4*") == 1, "jam reported");
  CHECK(F.servo_us == 0, "jam stops the motor");
  F.ma = 0;
  send_cmd(5, "tumble");
  F.limit = true;
  run_ms(3, 200);
  CHECK(count_prefix("5 ") == 0, "limit is debounced");
  run_ms(10, 200);
  CHECK(count_prefix("! limit pressed*") == 1 && count_prefix("5 err 21 limit*") == 1, "limit reported");
  F.limit = false;
  run_ms(10, 200);
  CHECK(count_prefix("! limit released*") == 1, "limit release pushed");
}

static void test_home_and_stepper(void) {
  boot_synced();
  send_cmd(1, "home");
  run_ms(2100, 200);
  CHECK(count_prefix("1 err 22 home_timeout*") == 1, "home timeout");
  send_cmd(2, "home");
  run_ms(300, 200);
  F.home = true;
  run_ms(10, 200);
  CHECK(count_prefix("2 ok ms=") == 1, "home ok");
  F.home = false;
  send_cmd(3, "config tumbler=stepper steps=100 step_rate=1000");
  CHECK(strncmp(last_line(), "3 ok cfg=", 9) == 0 && F.saves == 1, "config: %s", last_line());
  CHECK(rig.cfg.tumbler == DR_TUMBLER_STEPPER, "stepper chosen");
  send_cmd(4, "tumble");
  CHECK(F.enabled, "driver enabled");
  run_ms(300, 100);
  CHECK(F.steps == 100, "steps %d", F.steps);
  CHECK(count_prefix("4 ok ms=") == 1 && !F.enabled, "stepper tumble done");
}

static void test_config(void) {
  boot();
  uint16_t h0 = rig.config_hash;
  send_cmd(1, "config deadman=500 rig=bench_2");
  CHECK(rig.cfg.deadman_ms == 500 && strcmp(rig.cfg.rig, "bench_2") == 0, "config applied");
  CHECK(rig.config_hash != h0, "hash changes");
  send_cmd(2, "config deadman=700 rig=bad!id");
  CHECK(strncmp(last_line(), "2 err 6 bad_argument*", 21) == 0 && rig.cfg.deadman_ms == 500, "atomic config");
  send_cmd(3, "config");
  char expect[16];
  snprintf(expect, sizeof expect, "3 ok cfg=%04X ", rig.config_hash);
  CHECK(strncmp(last_line(), expect, strlen(expect)) == 0, "config get: %s", last_line());
  CHECK(strlen(last_line()) < DR_MAX_OUT - 1, "fits");
}

/* Every number setting takes both ends of its range from the protocol table and refuses one step outside (the host
   checks against the same table before it sends). */
static void test_config_ranges(void) {
  boot();
  unsigned seq = 1;
  char body[64];
#define DR_RANGE_CHECK(key, field, lo, hi, def)                                                          \
  snprintf(body, sizeof body, "config %s=%u", key, (unsigned)(lo));                                     \
  send_cmd(seq++, body);                                                                                \
  CHECK(strstr(last_line(), " ok cfg=") != NULL && rig.cfg.field == (lo), "%s at its minimum", key);    \
  snprintf(body, sizeof body, "config %s=%u", key, (unsigned)(hi));                                     \
  send_cmd(seq++, body);                                                                                \
  CHECK(strstr(last_line(), " ok cfg=") != NULL && rig.cfg.field == (hi), "%s at its maximum", key);    \
  snprintf(body, sizeof body, "config %s=%u", key, (unsigned)(hi) + 1u);                                \
  send_cmd(seq++, body);                                                                                \
  CHECK(strstr(last_line(), " err 6 bad_argument*") != NULL, "%s above its maximum: %s", key, last_line()); \
  if ((lo) > 0) {                                                                                       \
    snprintf(body, sizeof body, "config %s=%u", key, (unsigned)(lo) - 1u);                              \
    send_cmd(seq++, body);                                                                              \
    CHECK(strstr(last_line(), " err 6 bad_argument*") != NULL, "%s below its minimum", key);            \
  }
  DR_CONFIG_NUMBERS(DR_RANGE_CHECK)
#undef DR_RANGE_CHECK
  dr_config_t d;
  dr_config_defaults(&d);
#define DR_DEFAULT_CHECK(key, field, lo, hi, def) CHECK(d.field == (def), "%s defaults to %u", key, (unsigned)(def));
  DR_CONFIG_NUMBERS(DR_DEFAULT_CHECK)
#undef DR_DEFAULT_CHECK
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "crc") == 0) {
    for (int i = 2; i < argc; i++) printf("%04X\n", dr_crc16(argv[i], strlen(argv[i])));
    return 0;
  }
  test_crc();
  test_banner_and_identify();
  test_no_motion_before_identify();
  test_bad_lines();
  test_light_and_status();
  test_tumble_and_retransmit();
  test_deadman();
  test_jam_and_limit();
  test_home_and_stepper();
  test_config();
  test_config_ranges();
  printf("%d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
