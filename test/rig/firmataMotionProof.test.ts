// With StandardFirmata the host times a tumble, so a tumble may count only if the board is proven alive and
// un-reset through all of it. A board that resets or stalls late in a tumble used to have it counted as good: its
// silence check needs a whole second, longer than most of the tumble. On stock StandardFirmata in the emulated Uno.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RigFault } from '../../src/rig/driver.js';
import type { EmulatedBoard } from '../../src/rig/emulator/emulatedBoard.js';
import { RigFaultError } from '../../src/rig/errors.js';
import { startEmulatedFirmata, type EmulatedFirmataOptions } from '../../src/rig/firmata/emulatedFirmata.js';
import type { FirmataRigDriver } from '../../src/rig/firmata/firmataDriver.js';
import { buildFirmware } from './support/build.js';

interface Connected {
  board: EmulatedBoard;
  driver: FirmataRigDriver;
  faults: RigFault[];
}

async function stop(c: Connected | undefined): Promise<void> {
  await c?.driver.close(); // also stops the emulated board
  await c?.board.stop();
}

let own: Connected | undefined;
afterEach(async () => {
  await stop(own);
  own = undefined;
});

async function connect(options: EmulatedFirmataOptions = {}): Promise<Connected> {
  buildFirmware(); // the harness
  const { board, driver } = await startEmulatedFirmata(options);
  const faults: RigFault[] = [];
  const c = { board, driver, faults };
  try {
    board.pressSwitch('home');
    await driver.connect();
  } catch (e) {
    await stop(c);
    throw e;
  }
  driver.onFault((f) => faults.push(f));
  return c;
}

/** A board of the test's own, with the driver's `options`. */
async function connected(options: EmulatedFirmataOptions): Promise<Connected> {
  own = await connect(options);
  return own;
}

// The cases on the driver's defaults share one board (StandardFirmata blinks for ~2 s after every open before it
// answers): each leaves the driver connected or reconnecting by itself. They run last, so the board, which costs about
// half a core while it runs, is stopped when they end.
let shared: Promise<Connected> | undefined;
const onDefaults = (): Promise<Connected> => (shared ??= connect());
afterAll(async () => {
  await stop(await shared?.catch(() => undefined));
});

/** Starts a tumble, does `disturb` to the board `afterMs` into it, and settles with the tumble's result or error. */
function tumbleDisturbed(driver: FirmataRigDriver, afterMs: number, disturb: () => void): Promise<unknown> {
  const outcome = driver.tumble().then(
    (result) => ({ counted: result }),
    (e: unknown) => e,
  );
  setTimeout(disturb, afterMs);
  return outcome;
}

describe('a Firmata tumble the board did not live through', () => {
  it('is voided as a reset when StandardFirmata announces its version again in it, even before any silence is noticed', async () => {
    // Silence checks slowed far past the tumble: only the version report StandardFirmata sends when it boots tells.
    const { board, driver, faults } = await connected({ silenceMs: 60_000, motionGapMs: 60_000, settings: { flipMs: 5000 } });
    const outcome = await tumbleDisturbed(driver, 300, () => board.reset());
    expect(outcome).toMatchObject({ fault: 'reset', interrupted: true });
    expect((outcome as RigFaultError).message).toMatch(/restarted during the tumble.*this throw is void/);
    expect(faults.map((f) => f.kind)).toEqual(['reset']); // one event, one fault
    expect(await driver.status()).toMatchObject({ state: 'idle' });
  }, 40_000);

  it('is voided when the board resets early, in the flip hold, in the rest hold or just before the tumble ends', async () => {
    const { board, driver, faults } = await onDefaults();
    // The default tumble: flip 600 ms, rest 600 ms.
    for (const afterMs of [100, 450, 800, 1100]) {
      const before = faults.length;
      const outcome = await tumbleDisturbed(driver, afterMs, () => board.reset());
      expect({ afterMs, outcome }).toMatchObject({ afterMs, outcome: { fault: 'disconnected', interrupted: true } });
      expect((outcome as RigFaultError).message).toMatch(/sent no report for \d+ ms during the tumble.*this throw is void/);
      expect(faults.slice(before)[0]).toMatchObject({ kind: 'disconnected', command: 'tumble' });
      // The driver finds the board again by itself; the next tumble is a new one, and counts.
      expect(await driver.status()).toMatchObject({ state: 'idle' });
    }
    expect(await driver.tumble()).toMatchObject({ durationMs: expect.any(Number) as number });
  }, 90_000);

  it('is voided when the board stalls in mid-tumble and then runs on (its emulator stopped and continued)', async () => {
    const { board, driver } = await onDefaults();
    const outcome = await tumbleDisturbed(driver, 300, () => {
      board.freeze();
      setTimeout(() => board.thaw(), 1500);
    });
    expect(outcome).toBeInstanceOf(RigFaultError);
    expect(outcome).toMatchObject({ fault: 'disconnected', interrupted: true });
  }, 40_000);
});
