// dicerig firmware for an Arduino Uno (ATmega328P): the board side of firmware/PROTOCOL.md.
// The protocol, motion and safety logic live in firmware/core (plain C, unit-tested on the host);
// this file only binds them to the hardware: UART, Timer1 servo pulse, stepper pins, LED PWM,
// switches, current sense, EEPROM and the watchdog.
#include <Arduino.h>
#include <avr/eeprom.h>
#include <avr/wdt.h>
#include "dr_crc16.h"
#include "dr_rig.h"

// ---- reset cause -----------------------------------------------------------
// MCUSR must be read and cleared before anything else runs, and the watchdog turned off at once:
// after a watchdog reset it stays armed, and a slow start-up would reset the board again in a loop.
static uint8_t reset_flags __attribute__((section(".noinit")));
extern "C" void dr_capture_reset(void) __attribute__((naked, used, section(".init3")));
extern "C" void dr_capture_reset(void) {
  uint8_t flags = MCUSR;
  if (flags == 0) {
    // Optiboot clears MCUSR and hands its old value over in r2.
    __asm__ __volatile__("mov %0, r2" : "=r"(flags));
  }
  reset_flags = flags;
  MCUSR = 0;
  wdt_disable();
}

static const char *reset_cause(void) {
  if (reset_flags & _BV(WDRF)) return "watchdog";
  if (reset_flags & _BV(BORF)) return "brownout";
  if (reset_flags & _BV(EXTRF)) return "external";
  if (reset_flags & _BV(PORF)) return "power";
  return "unknown";
}

// ---- hardware binding ------------------------------------------------------
static uint32_t hw_millis(void *) { return millis(); }
static uint32_t hw_micros(void *) { return micros(); }

static void hw_write_line(void *, const char *line) {
  Serial.write(line);
  Serial.write('\n');
}

// Servo: Timer1 fast PWM (mode 14, TOP = ICR1), prescaler 8 -> 0.5 us ticks, 20 ms period on OC1A (D9).
// Debian's Arduino core has no Servo library, and a hardware pulse keeps jitter out of the servo.
static void servo_timer_init(void) {
  pinMode(DR_PIN_SERVO, OUTPUT);
  digitalWrite(DR_PIN_SERVO, LOW);
  TCCR1B = 0;  // clock stopped while TOP is set: the period is fixed before the timer runs
  ICR1 = 39999;
  OCR1A = 0;
  TCCR1A = _BV(WGM11);
  TCCR1B = _BV(WGM13) | _BV(WGM12) | _BV(CS11);
}

static void hw_servo(void *, uint16_t us) {
  if (us == 0) {
    TCCR1A &= (uint8_t)~(_BV(COM1A1) | _BV(COM1A0));  // detach: no pulses, the servo goes limp
    digitalWrite(DR_PIN_SERVO, LOW);
    return;
  }
  OCR1A = (uint16_t)(us * 2u);
  TCCR1A |= _BV(COM1A1);
}

static void hw_stepper_enable(void *, bool on) { digitalWrite(DR_PIN_STEPPER_ENABLE, on ? LOW : HIGH); }
static void hw_stepper_dir(void *, bool forward) { digitalWrite(DR_PIN_STEPPER_DIR, forward ? HIGH : LOW); }
static void hw_stepper_step(void *) {
  digitalWrite(DR_PIN_STEPPER_STEP, HIGH);
  delayMicroseconds(3);  // A4988/DRV8825 need >= 1.9 us high
  digitalWrite(DR_PIN_STEPPER_STEP, LOW);
}
static void hw_light(void *, uint8_t level) { analogWrite(DR_PIN_LIGHT, level); }
static void hw_status_led(void *, bool on) { digitalWrite(DR_PIN_STATUS_LED, on ? HIGH : LOW); }
static bool hw_limit(void *) { return digitalRead(DR_PIN_LIMIT_SWITCH) == LOW; }
static bool hw_home(void *) { return digitalRead(DR_PIN_HOME_SWITCH) == LOW; }
static uint16_t hw_motor_ma(void *) {
  uint32_t mv = (uint32_t)analogRead(DR_ADC_MOTOR_CURRENT) * 5000UL / 1023UL;
  return (uint16_t)(mv * 1000UL / DR_CURRENT_MV_PER_AMP);
}

// ---- config in EEPROM ------------------------------------------------------
struct stored_config {
  uint16_t magic;
  dr_config_t cfg;
  uint16_t crc;
};
static const uint16_t CONFIG_MAGIC = 0xD1CE;
static stored_config EEMEM ee_config;

static void hw_save_config(void *, const dr_config_t *cfg) {
  stored_config s;
  s.magic = CONFIG_MAGIC;
  s.cfg = *cfg;
  s.crc = dr_crc16(&s.cfg, sizeof s.cfg);
  eeprom_update_block(&s, &ee_config, sizeof s);
}

static void load_config(dr_config_t *cfg) {
  stored_config s;
  eeprom_read_block(&s, &ee_config, sizeof s);
  if (s.magic == CONFIG_MAGIC && s.crc == dr_crc16(&s.cfg, sizeof s.cfg)) {
    *cfg = s.cfg;
    cfg->rig[sizeof cfg->rig - 1] = '\0';
  } else {
    dr_config_defaults(cfg);  // blank or corrupt EEPROM: factory settings
  }
}

static const dr_hal_t hal = {
    nullptr,         hw_millis,          hw_micros,      hw_write_line, hw_servo,
    hw_stepper_enable, hw_stepper_dir,   hw_stepper_step, hw_light,     hw_status_led,
    hw_limit,        hw_home,            hw_motor_ma,    hw_save_config,
};

static dr_rig_t rig;

void setup() {
  pinMode(DR_PIN_STEPPER_STEP, OUTPUT);
  pinMode(DR_PIN_STEPPER_DIR, OUTPUT);
  pinMode(DR_PIN_STEPPER_ENABLE, OUTPUT);
  digitalWrite(DR_PIN_STEPPER_ENABLE, HIGH);
  pinMode(DR_PIN_LIGHT, OUTPUT);
  pinMode(DR_PIN_STATUS_LED, OUTPUT);
  pinMode(DR_PIN_LIMIT_SWITCH, INPUT_PULLUP);
  pinMode(DR_PIN_HOME_SWITCH, INPUT_PULLUP);
  servo_timer_init();
  Serial.begin(DR_BAUD);
  dr_config_t cfg;
  load_config(&cfg);
  dr_rig_begin(&rig, &hal, &cfg, reset_cause());
  // A hung loop (bad wiring pulling a line, a software fault) resets the board; the banner then says "watchdog".
  wdt_enable(WDTO_500MS);
}

void loop() {
  while (Serial.available() > 0) dr_rig_receive(&rig, (uint8_t)Serial.read());
  dr_rig_poll(&rig);
  wdt_reset();
}
