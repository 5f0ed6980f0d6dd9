/*
 * dicerig-sim: runs an ATmega328P firmware (ELF or Intel HEX) in libsimavr and makes it behave like a
 * USB Arduino Uno on a pseudo-terminal, so the host's real serial code can talk to it.
 *
 *   dicerig-sim FIRMWARE.elf|FIRMWARE.hex
 *
 * stdout, one event per line, "kind key=value ...", t= is simulated milliseconds since start:
 *   pty path=/dev/pts/N          first line: open this path as the serial port (115200 8N1)
 *   ready firmware=... mcu=atmega328p hz=16000000
 *   client open|close count=N    a process opened/closed the port (an open resets the MCU, like DTR)
 *   reset reason=port-open|command|watchdog t=...   the MCU reset (watchdog: the firmware's own watchdog fired)
 *   hang pc=0xADDR t=...         the CPU was sent into an endless loop (the "hang" command)
 *   servo pulse=US t=...         servo pulse width changed (measured high time of D9)
 *   servo off t=...              no servo pulse for 30 ms, or the MCU was reset
 *   light level=0..255 t=...     LED PWM duty on D6
 *   stepper steps=N dir=0|1 t=... a burst of STEP pulses on D4 ended (no step for 20 ms)
 *   pin name=Dn value=0|1 t=...  another watched output changed (stepper DIR/ENABLE, status LED)
 *   mcu state=crashed|done       the firmware stopped; the harness exits with status 2
 * stdin, one command per line:
 *   switch limit|home press|release    close/open a switch (switches pull the pin to GND)
 *   pin Dn 0|1                          drive an input pin
 *   current MA                          motor current in mA (sets the current-sense ADC input)
 *   adc N MV                            any ADC input in millivolts
 *   reset                               reset the MCU
 *   hang                                hang the firmware: the CPU jumps into an endless loop in its own code
 *                                       (avr-libc's __stop_program) with interrupts still on, so the main loop
 *                                       stops, as with a runaway pointer or a wait that never ends; only the
 *                                       firmware's watchdog gets it out
 *   quit                                exit (so does end of stdin)
 *
 * Faithful to a real Uno where host code cares: the MCU is reset when a client opens the port; MCU
 * output is dropped while nobody has the port open (a pty would hand stale bytes to the next opener);
 * host bytes are held until the firmware enables its receiver, then delivered at 115200 baud pace;
 * the simulation is paced to wall-clock time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "avr_adc.h"
#include "avr_ioport.h"
#include "avr_uart.h"
#include "sim_avr.h"
#include "sim_elf.h"
#include "sim_hex.h"

#include "generated/dr_table.h"

#define HZ 16000000u
#define CYCLES_PER_MS (HZ / 1000u)
#define BYTE_CYCLES (HZ / (DR_BAUD / 10u)) /* 10 bits per byte on the wire */
#define UCSR0B 0xC1
#define RXEN0 4

static avr_t *avr;
static int master_fd = -1, slave_fd = -1, inotify_fd = -1;
static char slave_path[128];
static int clients;

/* host -> MCU bytes waiting for the receiver */
static uint8_t rx_buf[8192];
static size_t rx_head, rx_len;
static avr_cycle_count_t next_rx_cycle;
static int uart_xoff;
static avr_irq_t *uart_in;

/* MCU -> host bytes not yet written to the pty */
static uint8_t tx_buf[8192];
static size_t tx_len;
/* The Uno's USB bridge (16U2) sends serial bytes to the host in USB packets, at most every 1 ms or per
 * 64 bytes, not byte by byte. Sending each byte on its own made the host do a read per byte, which
 * tripled the round trip and the host's CPU per command. */
#define TX_PACKET_BYTES 64
static avr_cycle_count_t tx_first_cycle; /* when the oldest unsent byte was produced */
static int tx_blocked;                    /* the last write hit a full pty: wait for POLLOUT */

static double t_ms(void) { return (double)avr->cycle / (double)CYCLES_PER_MS; }

static void event(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
  fflush(stdout);
}

/* ---- UART bridge ---------------------------------------------------------- */

static void uart_out_hook(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  (void)param;
  if (clients <= 0) return; /* nobody listening: drop, as a USB serial chip with no open port does */
  if (tx_len == 0) tx_first_cycle = avr->cycle;
  if (tx_len < sizeof tx_buf) tx_buf[tx_len++] = (uint8_t)value;
}

/* A packet is due at a line end, when 64 bytes are waiting, or 1 ms after its first byte. */
static int tx_due(void) {
  if (tx_len == 0) return 0;
  if (tx_blocked || tx_len >= TX_PACKET_BYTES) return 1;
  if (tx_buf[tx_len - 1] == '\n' || memchr(tx_buf, '\n', tx_len) != NULL) return 1;
  return avr->cycle - tx_first_cycle >= CYCLES_PER_MS;
}

static void uart_xon_hook(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq, (void)value, (void)param;
  uart_xoff = 0;
}
static void uart_xoff_hook(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq, (void)value, (void)param;
  uart_xoff = 1;
}

static void flush_tx(void) {
  size_t off = 0;
  tx_blocked = 0;
  while (off < tx_len) {
    ssize_t n = write(master_fd, tx_buf + off, tx_len - off);
    if (n <= 0) { /* pty full (client not reading): keep the rest for later */
      tx_blocked = 1;
      break;
    }
    off += (size_t)n;
  }
  if (off > 0) {
    memmove(tx_buf, tx_buf + off, tx_len - off);
    tx_len -= off;
    tx_first_cycle = avr->cycle;
  }
}

static void feed_rx(void) {
  if (rx_len == 0 || uart_xoff) return;
  if (!(avr->data[UCSR0B] & (1 << RXEN0))) return; /* firmware has not opened its receiver yet */
  if (avr->cycle < next_rx_cycle) return;
  uint8_t b = rx_buf[rx_head];
  rx_head = (rx_head + 1) % sizeof rx_buf;
  rx_len--;
  avr_raise_irq(uart_in, b);
  /* Space bytes from when this one was due, not from when the loop got round to it: restarting from
   * "now" added the loop's lateness to every byte (116 us a byte instead of 87 at 115200). */
  avr_cycle_count_t late = avr->cycle - next_rx_cycle;
  next_rx_cycle = (late < BYTE_CYCLES ? next_rx_cycle : avr->cycle) + BYTE_CYCLES;
}

static void read_master(void) {
  uint8_t buf[512];
  for (;;) {
    ssize_t n = read(master_fd, buf, sizeof buf);
    if (n <= 0) return;
    for (ssize_t i = 0; i < n && rx_len < sizeof rx_buf; i++) {
      rx_buf[(rx_head + rx_len) % sizeof rx_buf] = buf[i];
      rx_len++;
    }
  }
}

/* ---- pins ------------------------------------------------------------------ */

static avr_irq_t *pin_irq(char port, int bit) { return avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(port), bit); }

static int limit_level = 1, home_level = 1; /* released: the pull-up holds the pin high */
static uint32_t adc_mv[8];

_Static_assert(DR_PORT_LIMIT_SWITCH == 'D' && DR_PORT_HOME_SWITCH == 'D', "apply_inputs assumes both switches on port D");

static void apply_inputs(void) {
  /* simavr recomputes input pins from this "external" level whenever the firmware writes the port register
     (e.g. a digitalWrite on another pin of port D), so it must carry the switch state, not just the pull-up */
  avr_ioport_external_t ext = {.name = 'D', .mask = (1 << DR_BIT_LIMIT_SWITCH) | (1 << DR_BIT_HOME_SWITCH),
                               .value = (uint8_t)((limit_level << DR_BIT_LIMIT_SWITCH) | (home_level << DR_BIT_HOME_SWITCH))};
  avr_ioctl(avr, AVR_IOCTL_IOPORT_SET_EXTERNAL('D'), &ext);
  avr_raise_irq(pin_irq(DR_PORT_LIMIT_SWITCH, DR_BIT_LIMIT_SWITCH), (uint32_t)limit_level);
  avr_raise_irq(pin_irq(DR_PORT_HOME_SWITCH, DR_BIT_HOME_SWITCH), (uint32_t)home_level);
  for (int i = 0; i < 8; i++) avr_raise_irq(avr_io_getirq(avr, AVR_IOCTL_ADC_GETIRQ, ADC_IRQ_ADC0 + i), adc_mv[i]);
}

/* servo: pulse width from the high time of the signal */
static avr_cycle_count_t servo_rise, servo_last_rise;
static int servo_on, servo_reported_us = -1000;
static int servo_hw_last_us = -1; /* the last sample of the timer-driven width (see watch_timer) */
#define TCCR1A 0x80
#define TCCR1B 0x81
#define ICR1L 0x86
#define OCR1AL 0x88
#define COM1A_MASK 0xC0

/* Hardware PWM on OC1A: simavr 1.6 does not generate the OC1A wave in fast PWM with ICR1 as TOP (mode 14),
   so the pulse the firmware asks for is read from the timer registers instead: width = OCR1A ticks. */
static int hw_servo_us(void) {
  uint8_t a = avr->data[TCCR1A], b = avr->data[TCCR1B];
  if (!(a & COM1A_MASK)) return 0;
  static const unsigned prescale[8] = {0, 1, 8, 64, 256, 1024, 0, 0};
  unsigned div = prescale[b & 7];
  if (!div) return 0;
  unsigned ocr = avr->data[OCR1AL] | (unsigned)avr->data[OCR1AL + 1] << 8;
  return (int)((unsigned long)ocr * div * 1000000UL / HZ);
}

static void servo_hook(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq, (void)param;
  if (avr->data[TCCR1A] & COM1A_MASK) return; /* timer-driven pin: see hw_servo_us */
  if (value) {
    servo_rise = servo_last_rise = avr->cycle;
    servo_on = 1;
    return;
  }
  if (!servo_rise) return;
  int us = (int)((avr->cycle - servo_rise) * 1000000u / HZ);
  servo_rise = 0;
  if (abs(us - servo_reported_us) > 4) {
    servo_reported_us = us;
    event("servo pulse=%d t=%.1f", us, t_ms());
  }
}

/* light: duty of the last full PWM period; a pin that stops toggling is fully on or off */
static avr_cycle_count_t light_rise, light_fall, light_edge;
static int light_pin, light_reported = -1;
static void light_report(int level) {
  /* one count of jitter comes from sampling edges at instruction boundaries: don't report it */
  if (level == light_reported || (level > 0 && level < 255 && abs(level - light_reported) < 2)) return;
  light_reported = level;
  event("light level=%d t=%.1f", level, t_ms());
}
static void light_hook(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq, (void)param;
  light_pin = value ? 1 : 0;
  avr_cycle_count_t now = avr->cycle;
  light_edge = now;
  if (value) {
    if (light_rise && light_fall > light_rise) {
      avr_cycle_count_t period = now - light_rise, high = light_fall - light_rise;
      if (period < CYCLES_PER_MS * 5) light_report((int)((high * 255 + period / 2) / period));
    }
    light_rise = now;
  } else {
    light_fall = now;
  }
}

/* stepper: count STEP rising edges and report each burst */
static int step_count, step_dir;
static avr_cycle_count_t step_last;
static void step_hook(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq, (void)param;
  if (!value) return;
  step_count++;
  step_last = avr->cycle;
}

struct watched_pin {
  const char *name;
  char port;
  int bit;
  int value;
};
static struct watched_pin watched[] = {
    {"D5", DR_PORT_STEPPER_DIR, DR_BIT_STEPPER_DIR, -1},
    {"D8", DR_PORT_STEPPER_ENABLE, DR_BIT_STEPPER_ENABLE, -1},
    {"D13", DR_PORT_STATUS_LED, DR_BIT_STATUS_LED, -1},
};
static void pin_hook(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  struct watched_pin *w = param;
  int v = value ? 1 : 0;
  if (w->port == DR_PORT_STEPPER_DIR && w->bit == DR_BIT_STEPPER_DIR) step_dir = v;
  if (v == w->value) return;
  w->value = v;
  event("pin name=%s value=%d t=%.1f", w->name, v, t_ms());
}

/* The servo pulse stopped: say so, and forget the width reported, so the next pulse is reported whatever its width. */
static void servo_release(void) {
  servo_on = 0;
  servo_reported_us = -1000;
  event("servo off t=%.1f", t_ms());
}

/* Periodic checks in simulated time: servo stopped, light static, stepper burst ended. */
static avr_cycle_count_t watch_timer(struct avr_t *a, avr_cycle_count_t when, void *param) {
  (void)a, (void)param;
  int hw_us = hw_servo_us();
  /* OCR1A is two bytes written one at a time; a sample between the writes reads half the old width and half the new
     (2400 -> 600 us read 608 once). The timer's double buffering keeps such a pulse off the real pin, so a width is
     reported only once two samples, 2 ms apart, agree. */
  int settled = hw_us == servo_hw_last_us;
  servo_hw_last_us = hw_us;
  if (hw_us > 0) {
    servo_on = 1;
    servo_last_rise = when;
    if (settled && abs(hw_us - servo_reported_us) > 4) {
      servo_reported_us = hw_us;
      event("servo pulse=%d t=%.1f", hw_us, t_ms());
    }
  }
  if (servo_on && when - servo_last_rise > 30u * CYCLES_PER_MS) servo_release();
  if (when - light_edge > 5u * CYCLES_PER_MS) light_report(light_pin ? 255 : 0);
  if (step_count && when - step_last > 20u * CYCLES_PER_MS) {
    event("stepper steps=%d dir=%d t=%.1f", step_count, step_dir, t_ms());
    step_count = 0;
  }
  return when + 2u * CYCLES_PER_MS;
}

/* ---- MCU ------------------------------------------------------------------- */

/* simavr logs to stdout by default; stdout carries our events, so its messages go to stderr (warnings and worse). */
static void log_to_stderr(avr_t *a, const int level, const char *fmt, va_list ap) {
  (void)a;
  if (level > LOG_WARNING) return;
  vfprintf(stderr, fmt, ap);
}

static void no_sleep(avr_t *a, avr_cycle_count_t howlong) { (void)a, (void)howlong; } /* we pace ourselves */

#define MCUSR_ADDR 0x54
#define PORF 0
#define EXTRF 1

#define WDRF 3

/* Every reset, including the ones simavr does itself (the watchdog), goes through avr->reset: count them, so the
   main loop can redo for those what reset_mcu does for the harness's own. */
static void (*mcu_reset_hook)(avr_t *a);
static int hang_pending; /* see check_hang */
static unsigned resets_seen, resets_handled;
static void count_reset(avr_t *a) {
  if (mcu_reset_hook) mcu_reset_hook(a);
  resets_seen++;
}

/* A reset makes the servo pin an input at once: the pulse stops. Released then, not 30 ms of missing pulses later,
   or a width asked again after the reset (a flip cut short by a reset, then the next tumble's flip) would go
   unreported: it did, when a port-open reset came within 30 ms of a flip, and a test waited for a flip that had
   happened. */
static void servo_stopped_by_reset(void) {
  servo_hw_last_us = -1;
  servo_rise = 0;
  if (servo_on) servo_release();
}

/* What a reset undoes that the harness must restore: input levels, its cycle timer; then it says so. */
static void after_reset(const char *reason) {
  resets_handled = resets_seen;
  hang_pending = 0; /* a hang asked of the firmware that was running */
  /* avr_reset clears the pin registers but the input IRQs keep their values, and raising an IRQ to the value it
     has is a no-op: toggle them so the pins read what is connected. */
  avr_raise_irq(pin_irq(DR_PORT_LIMIT_SWITCH, DR_BIT_LIMIT_SWITCH), (uint32_t)!limit_level);
  avr_raise_irq(pin_irq(DR_PORT_HOME_SWITCH, DR_BIT_HOME_SWITCH), (uint32_t)!home_level);
  uart_xoff = 0;
  next_rx_cycle = 0;
  apply_inputs();
  avr_cycle_timer_register(avr, 2u * CYCLES_PER_MS, watch_timer, NULL); /* avr_reset cancels cycle timers */
  event("reset reason=%s t=%.1f", reason, t_ms());
  servo_stopped_by_reset();
}

/* An Uno reset through its reset line (the port's DTR, or the button) runs the bootloader first, which waits about a
   second before it starts the sketch. The harness waits BOOT_HOLD_MS: long enough for the host's own set-up after it
   opens the port, which throws away whatever has arrived (serialport's open ends with tcflush), so a banner sent at
   once lost its start to it now and then; shorter than a real Uno, so that the tests that open the port often stay
   quick. A watchdog reset skips the bootloader's wait, on an Uno as here. */
#define BOOT_HOLD_MS 100u
static uint64_t now_ns(void);
static uint64_t held_from_ns, held_until_ns; /* the bootloader's wait; 0: the sketch runs */

static void reset_mcu(const char *reason) {
  avr_reset(avr);
  held_from_ns = now_ns();
  held_until_ns = held_from_ns + BOOT_HOLD_MS * 1000000u;
  /* simavr leaves MCUSR empty; a real Uno reset through DTR reports an external reset */
  avr->data[MCUSR_ADDR] = 1 << EXTRF;
  rx_head = rx_len = 0;
  tx_len = 0;
  after_reset(reason);
}

/* A reset the harness did not ask for: simavr's watchdog sets WDRF in MCUSR as the AVR does, and the firmware reads
   it for its banner. Bytes in flight stay: the USB bridge still has what the MCU sent before, and still forwards
   what the host sends (held until the firmware enables its receiver again). */
static void check_reset(void) {
  if (resets_seen == resets_handled) return;
  after_reset(avr->data[MCUSR_ADDR] & (1 << WDRF) ? "watchdog" : "unknown");
}

/* ---- hang ----------------------------------------------------------------------- */

/* The firmware's own endless loop: avr-gcc programs end in avr-libc's __stop_program, "rjmp ." (0xCFFF). */
static int find_endless_loop(avr_flashaddr_t *at) {
  uint32_t end = avr->codeend && avr->codeend <= avr->flashend ? avr->codeend : avr->flashend;
  for (uint32_t a = 0; a + 1 <= end; a += 2) {
    if (avr->flash[a] == 0xFF && avr->flash[a + 1] == 0xCF) {
      *at = a;
      return 1;
    }
  }
  return 0;
}

/* Sends the CPU into the loop once it runs with interrupts on, i.e. in the main program and not in an ISR: the
   interrupts keep running (millis, the UART), the main loop never comes back, and nothing feeds the watchdog. */
static void check_hang(void) {
  if (!hang_pending || !avr->sreg[S_I]) return;
  hang_pending = 0;
  avr_flashaddr_t at;
  if (!find_endless_loop(&at)) return event("error message=no-endless-loop-in-firmware");
  avr->pc = at;
  event("hang pc=0x%04x t=%.1f", (unsigned)at, t_ms());
}

static void load(const char *path) {
  size_t n = strlen(path);
  if (n > 4 && strcasecmp(path + n - 4, ".hex") == 0) {
    uint32_t size = 0, base = 0;
    uint8_t *data = read_ihex_file(path, &size, &base);
    if (!data) {
      fprintf(stderr, "dicerig-sim: cannot read Intel HEX file %s\n", path);
      exit(1);
    }
    avr = avr_make_mcu_by_name("atmega328p");
    avr_init(avr);
    if (base + size > avr->flashend + 1) {
      fprintf(stderr, "dicerig-sim: %s does not fit in the ATmega328P's flash\n", path);
      exit(1);
    }
    memcpy(avr->flash + base, data, size);
    free(data);
    avr->codeend = avr->flashend;
    avr->pc = 0;
  } else {
    elf_firmware_t fw;
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(path, &fw) != 0) {
      fprintf(stderr, "dicerig-sim: cannot read ELF file %s\n", path);
      exit(1);
    }
    strcpy(fw.mmcu, "atmega328p");
    fw.frequency = HZ;
    avr = avr_make_mcu_by_name("atmega328p");
    avr_init(avr);
    avr_load_firmware(avr, &fw);
  }
  avr->frequency = HZ;
  avr->vcc = avr->avcc = avr->aref = 5000;
  avr->sleep = no_sleep;
  avr->log = LOG_WARNING;
}

static void wire(void) {
  uint32_t flags = 0;
  avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
  flags &= ~(uint32_t)(AVR_UART_FLAG_STDIO | AVR_UART_FLAG_POLL_SLEEP); /* no console echo, no usleep */
  avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), uart_out_hook, NULL);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), uart_xon_hook, NULL);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), uart_xoff_hook, NULL);
  uart_in = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);

  avr_irq_register_notify(pin_irq(DR_PORT_SERVO, DR_BIT_SERVO), servo_hook, NULL);
  avr_irq_register_notify(pin_irq(DR_PORT_LIGHT, DR_BIT_LIGHT), light_hook, NULL);
  avr_irq_register_notify(pin_irq(DR_PORT_STEPPER_STEP, DR_BIT_STEPPER_STEP), step_hook, NULL);
  for (size_t i = 0; i < sizeof watched / sizeof watched[0]; i++)
    avr_irq_register_notify(pin_irq(watched[i].port, watched[i].bit), pin_hook, &watched[i]);
  avr_cycle_timer_register(avr, 2u * CYCLES_PER_MS, watch_timer, NULL);
  apply_inputs();
  mcu_reset_hook = avr->reset;
  avr->reset = count_reset;
}

/* ---- pty and clients --------------------------------------------------------- */

static void open_pty(void) {
  struct termios tio;
  if (openpty(&master_fd, &slave_fd, slave_path, NULL, NULL) != 0) {
    perror("dicerig-sim: openpty");
    exit(1);
  }
  /* Raw both ways: bytes pass unchanged, as on a USB serial port. The harness keeps its own slave fd open so
     the master never sees hang-up while no client has the port. */
  tcgetattr(slave_fd, &tio);
  cfmakeraw(&tio);
  cfsetspeed(&tio, B115200);
  tcsetattr(slave_fd, TCSANOW, &tio);
  fcntl(master_fd, F_SETFL, fcntl(master_fd, F_GETFL) | O_NONBLOCK);
  inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (inotify_fd < 0 || inotify_add_watch(inotify_fd, slave_path, IN_OPEN | IN_CLOSE_WRITE | IN_CLOSE_NOWRITE) < 0) {
    perror("dicerig-sim: inotify");
    exit(1);
  }
}

static void read_inotify(void) {
  char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
  for (;;) {
    ssize_t n = read(inotify_fd, buf, sizeof buf);
    if (n <= 0) return;
    for (char *p = buf; p < buf + n;) {
      struct inotify_event *ev = (struct inotify_event *)p;
      if (ev->mask & IN_OPEN) {
        clients++;
        event("client open count=%d", clients);
        if (clients == 1) {
          tcflush(slave_fd, TCIOFLUSH); /* nothing stale for the new client */
          read_master();                /* and nothing stale from an earlier one */
          reset_mcu("port-open");       /* the Uno's DTR auto-reset */
        }
      }
      if (ev->mask & (IN_CLOSE_WRITE | IN_CLOSE_NOWRITE)) {
        if (clients > 0) clients--;
        event("client close count=%d", clients);
        if (clients == 0) tx_len = 0;
      }
      p += sizeof *ev + ev->len;
    }
  }
}

/* ---- stdin commands ------------------------------------------------------------ */

static char cmd_buf[256];
static size_t cmd_len;

static void command(char *line) {
  char a[32] = "", b[32] = "", c[32] = "";
  int n = sscanf(line, "%31s %31s %31s", a, b, c);
  if (n <= 0) return;
  if (strcmp(a, "quit") == 0) exit(0);
  if (strcmp(a, "reset") == 0) return reset_mcu("command");
  if (strcmp(a, "hang") == 0) {
    hang_pending = 1;
    return;
  }
  if (strcmp(a, "switch") == 0 && n == 3) {
    int level = strcmp(c, "press") == 0 ? 0 : 1;
    if (strcmp(b, "limit") == 0) limit_level = level;
    else if (strcmp(b, "home") == 0) home_level = level;
    else return event("error message=unknown-switch");
    apply_inputs();
    return event("switch name=%s state=%s t=%.1f", b, level ? "released" : "pressed", t_ms());
  }
  if (strcmp(a, "pin") == 0 && n == 3 && (b[0] == 'D' || b[0] == 'd')) {
    int d = atoi(b + 1);
    if (d < 0 || d > 13) return event("error message=bad-pin");
    char port = d < 8 ? 'D' : 'B';
    avr_raise_irq(pin_irq(port, d < 8 ? d : d - 8), (uint32_t)(atoi(c) ? 1 : 0));
    return;
  }
  if (strcmp(a, "current") == 0 && n == 2) {
    adc_mv[DR_ADC_MOTOR_CURRENT] = (uint32_t)(atof(b) * DR_CURRENT_MV_PER_AMP / 1000.0);
    apply_inputs();
    return event("current ma=%s t=%.1f", b, t_ms());
  }
  if (strcmp(a, "adc") == 0 && n == 3) {
    int ch = atoi(b);
    if (ch < 0 || ch > 7) return event("error message=bad-adc-channel");
    adc_mv[ch] = (uint32_t)atoi(c);
    apply_inputs();
    return;
  }
  event("error message=unknown-command");
}

static void read_stdin(void) {
  char buf[256];
  ssize_t n = read(0, buf, sizeof buf);
  if (n == 0) exit(0); /* the launcher went away */
  if (n < 0) return;
  for (ssize_t i = 0; i < n; i++) {
    if (buf[i] == '\n') {
      cmd_buf[cmd_len] = 0;
      command(cmd_buf);
      cmd_len = 0;
    } else if (cmd_len < sizeof cmd_buf - 1) {
      cmd_buf[cmd_len++] = buf[i];
    }
  }
}

/* ---- main loop --------------------------------------------------------------- */

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void service_io(int timeout_ms) {
  struct pollfd fds[3] = {{0, POLLIN, 0}, {inotify_fd, POLLIN, 0}, {master_fd, POLLIN, 0}};
  if (tx_blocked) fds[2].events |= POLLOUT;
  if (poll(fds, 3, timeout_ms) <= 0) return;
  if (fds[0].revents & (POLLIN | POLLHUP)) read_stdin();
  if (fds[1].revents & POLLIN) read_inotify();
  if (fds[2].revents & POLLIN) read_master();
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: dicerig-sim FIRMWARE.elf|FIRMWARE.hex\n");
    return 1;
  }
  signal(SIGPIPE, SIG_IGN);
  /* A board keeps its own time; the emulator keeps up with it only while it gets the third of a core it needs, and a
     3D render beside it (Chromium raises its own GPU thread to nice -8 as root) slowed it until drivers gave up
     tumbles as overdue. So it asks for a higher priority. That is allowed as root and refused otherwise, which is harmless: it then
     runs at normal priority as before. It sleeps whenever it is ahead, so it never takes more than it needs. */
  (void)setpriority(PRIO_PROCESS, 0, -10);
  avr_global_logger_set(log_to_stderr);
  load(argv[1]);
  wire();
  open_pty();
  avr->data[MCUSR_ADDR] = 1 << PORF; /* power-on */
  event("pty path=%s", slave_path);
  event("ready firmware=%s mcu=atmega328p hz=%u", argv[1], HZ);

  uint64_t wall0 = now_ns();
  avr_cycle_count_t cyc0 = avr->cycle;
  unsigned spin = 0;
  for (;;) {
    if (held_until_ns) {
      uint64_t now = now_ns();
      if (now < held_until_ns) {
        service_io((int)((held_until_ns - now) / 1000000u) + 1);
        continue;
      }
      wall0 += now - held_from_ns; /* the bootloader's time is not the sketch's: no racing to catch it up */
      held_until_ns = 0;
    }
    for (int i = 0; i < 400; i++) {
      int state = avr_run(avr);
      if (state == cpu_Done || state == cpu_Crashed) {
        event("mcu state=%s t=%.1f", state == cpu_Crashed ? "crashed" : "done", t_ms());
        return 2;
      }
      check_reset();
      check_hang();
    }
    feed_rx();
    if (tx_due()) flush_tx();
    int64_t sim_ns = (int64_t)((avr->cycle - cyc0) * 1000u / (HZ / 1000000u));
    int64_t ahead = sim_ns - (int64_t)(now_ns() - wall0);
    if (ahead > 1000000) {
      service_io((int)(ahead / 1000000));
    } else {
      if (ahead < -50000000) wall0 += (uint64_t)(-ahead - 50000000); /* overloaded host: don't race to catch up */
      if ((++spin & 15) == 0) service_io(0);
    }
  }
}
