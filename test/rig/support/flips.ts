import type { BoardEvent } from '../../../src/rig/emulator/emulatedBoard.js';

/**
 * How many times the servo moved to the flip position (`flipUs`, the firmware's 2400 us) in
 * the board's events: a flip is a pulse near that width after a pulse elsewhere or the servo
 * released. Counting moves, not pulse reports, matters for StandardFirmata, whose servo is
 * timed by an interrupt: UART interrupts can stretch a pulse by a few microseconds, and the
 * emulator then reports the same held position more than once.
 */
export function countFlips(events: readonly BoardEvent[], flipUs = 2400): number {
  let atFlip = false;
  let flips = 0;
  for (const e of events) {
    if (e.kind === 'servo-off') atFlip = false;
    if (e.kind !== 'servo') continue;
    // A band, not one width: a stretched pulse (a few to tens of us) is the same held position; the rest position is 1,800 us away.
    const here = Math.abs(e.pulseUs - flipUs) <= 50;
    if (here && !atFlip) flips++;
    atFlip = here;
  }
  return flips;
}
