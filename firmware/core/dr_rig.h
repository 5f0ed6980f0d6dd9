/* The rig controller: command dispatch, retransmit cache, motion state machine
   (servo flip or stepper), dead-man timer, jam and limit detection.
   Plain C over a small hardware interface (dr_hal_t) so it runs unchanged on the
   ATmega328P and in the host unit test. See firmware/PROTOCOL.md. */
#ifndef DR_RIG_H
#define DR_RIG_H
#include <stdbool.h>
#include <stdint.h>
#include "dr_line.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef enum { DR_TUMBLER_SERVO = 0, DR_TUMBLER_STEPPER = 1 } dr_tumbler_t;

/** Settings changed by the `config` command and kept in EEPROM. */
typedef struct {
  uint8_t tumbler;          /* dr_tumbler_t */
  uint16_t deadman_ms;      /* stop a motion after this long without a valid command line */
  uint16_t jam_ma;          /* motor current counted as a jam; 0 turns jam detection off */
  uint16_t jam_ms;          /* how long the current must stay above jam_ma */
  uint16_t flip_ms;         /* servo: time spent at each end of a flip */
  uint16_t rest_us;         /* servo pulse at the rest (home) position */
  uint16_t flip_us;         /* servo pulse at the flipped position */
  uint16_t steps;           /* stepper: steps per tumble */
  uint16_t step_rate;       /* stepper: steps per second */
  uint16_t home_ms;         /* home: give up when the home switch has not closed by then */
  char rig[DR_CONFIG_RIG_MAX_LEN + 1]; /* rig id, [A-Za-z0-9_-], up to 16 characters */
} dr_config_t;

/** Factory settings. */
void dr_config_defaults(dr_config_t *cfg);

/** What the controller needs from the board. All calls are non-blocking. */
typedef struct {
  void *ctx;
  uint32_t (*millis)(void *ctx);
  uint32_t (*micros)(void *ctx);
  void (*write_line)(void *ctx, const char *line); /* the line without newline; the HAL adds "\n" */
  void (*servo_pulse)(void *ctx, uint16_t us);     /* 0 stops the pulses (servo goes limp) */
  void (*stepper_enable)(void *ctx, bool on);
  void (*stepper_dir)(void *ctx, bool forward);
  void (*stepper_step)(void *ctx);                 /* one STEP pulse */
  void (*light)(void *ctx, uint8_t level);
  void (*status_led)(void *ctx, bool on);
  bool (*limit_pressed)(void *ctx);
  bool (*home_pressed)(void *ctx);
  uint16_t (*motor_ma)(void *ctx);
  void (*save_config)(void *ctx, const dr_config_t *cfg);
} dr_hal_t;

#define DR_CACHE_SLOTS 4
#define DR_CACHE_REPLY 48

typedef struct {
  uint16_t seq;
  uint16_t crc;
  char reply[DR_CACHE_REPLY];
} dr_cache_slot_t;

typedef enum { DR_IDLE = 0, DR_TUMBLE, DR_HOME } dr_motion_t;

typedef struct {
  const dr_hal_t *hal;
  dr_config_t cfg;
  dr_line_t line;
  char out[DR_MAX_OUT];
  dr_cache_slot_t cache[DR_CACHE_SLOTS];
  uint8_t cache_next;
  /* motion */
  dr_motion_t motion;
  uint16_t motion_seq;
  uint16_t motion_crc;
  uint8_t phase;
  uint32_t motion_start_ms;
  uint32_t phase_start_ms;
  uint16_t steps_left;
  uint32_t next_step_us;
  uint16_t peak_ma;
  bool over_current;
  uint32_t over_since_ms;
  /* inputs and timers */
  uint32_t last_rx_ms;
  uint32_t last_sample_ms;
  uint16_t last_ma;
  bool limit_state;
  bool limit_raw;
  uint32_t limit_change_ms;
  uint8_t light_level;
  uint16_t config_hash;
  /* sequence numbers: commands that change something must come with a newer seq than last_seq */
  uint16_t last_seq;
  bool have_seq;
  bool cacheable; /* the reply being built belongs to a command that changes something */
  /* Whether `identify` has been answered since the reset: until then no motion runs. A motion line the host sent
     before it saw the boot banner (a USB-serial chip holds it while the board boots) must not run: the host has
     already voided it, and would neither feed its dead-man nor expect the busy refusals its next motion gets. */
  bool synced;
} dr_rig_t;

/** Starts the controller and sends the boot banner naming the reset cause (e.g. "power", "watchdog"). */
void dr_rig_begin(dr_rig_t *rig, const dr_hal_t *hal, const dr_config_t *cfg, const char *reset_cause);
/** Feeds one received byte; a complete line is handled at once. */
void dr_rig_receive(dr_rig_t *rig, uint8_t byte);
/** Runs motion, dead-man, jam and limit checks; call it as often as possible. */
void dr_rig_poll(dr_rig_t *rig);
/** CRC-16 of the canonical config text (the `config` reply after cfg=). */
uint16_t dr_config_hash(const dr_config_t *cfg);

#ifdef __cplusplus
}
#endif
#endif
