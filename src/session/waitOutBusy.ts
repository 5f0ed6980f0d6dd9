/**
 * A motion the rig refuses as busy because the board is still finishing another. After a fault that is the fault
 * still clearing, not a new one: a tumble voided by a reset may have reached the fresh firmware anyway and run on,
 * and the home that brings the rig back is refused until it ends. Counted as faults, a few such refusals in a row
 * (each retried at once) ended a session over one reset.
 */
import type { Clock } from '../core/clock.js';
import { RigFaultError } from '../rig/errors.js';
import { ErrorCode } from '../rig/protocol/errorCodes.js';

/** The waits before each new try: doubling from 250 ms to 2 s, about 12 s in all, longer than any tumble or home takes. */
export const BUSY_WAITS_MS: readonly number[] = [250, 500, 1000, 2000, 2000, 2000, 2000, 2000];

/** Whether the rig refused a command because a motion is running. */
export function isBusyRefusal(e: unknown): boolean {
  return e instanceof RigFaultError && e.fault === 'refused' && e.code === ErrorCode.busy;
}

/** Runs `motion`, and while the rig refuses it as busy waits and runs it again; after the last wait a refusal stands. */
export async function waitOutBusy<T>(motion: () => Promise<T>, clock: Clock): Promise<T> {
  for (const wait of BUSY_WAITS_MS) {
    try {
      return await motion();
    } catch (e) {
      if (!isBusyRefusal(e)) throw e;
    }
    await clock.sleep(wait);
  }
  return motion();
}
