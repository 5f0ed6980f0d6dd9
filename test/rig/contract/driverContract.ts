// The behaviour every RigDriver must have, run against each implementation (test/rig/contract.test.ts):
// our firmware over serial on the emulated board, the simulated rig, a real board when DICERIG_PORT
// names one, and the Firmata driver. A driver's setup returns the driver (not yet connected) and, when
// the rig is emulated, the board, so the suite can watch what the motor really did.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { FaultKind, RigDriver, RigFault } from '../../../src/rig/driver.js';
import type { BoardEvent, EmulatedBoard } from '../../../src/rig/emulator/emulatedBoard.js';
import { RigFaultError } from '../../../src/rig/errors.js';
import type { FaultyLinkBus } from '../support/faultyLink.js';
import { countFlips } from '../support/flips.js';
import { patience } from '../support/patience.js';

export interface ContractSetup {
  readonly driver: RigDriver;
  readonly board?: EmulatedBoard;
  /** The "USB cable" between the driver and an emulated board, when the driver opens the board through one. */
  readonly bus?: FaultyLinkBus;
  cleanup(): Promise<void>;
}

export interface ContractOptions {
  /** Skip everything, saying why and what to do in the test name (e.g. no board plugged in). */
  readonly skip?: string;
  /**
   * Makes a fault strike the tumble that is running, and returns the fault kind the driver should
   * report. Default with a board: press its limit switch once the servo moves. Without a board and
   * without this, the fault case is skipped (a real rig needs a person at the switch).
   */
  readonly faultDuringTumble?: (s: ContractSetup) => Promise<FaultKind>;
  /** Undoes what `faultDuringTumble` did (e.g. release the switch). Default with a board: release the limit switch. */
  readonly clearFault?: (s: ContractSetup) => Promise<void>;
  /**
   * Cuts the driver's link once a tumble is under way (pulls the emulated board's cable, drops the
   * simulated link) and returns what plugs it back in. Without it the lifecycle case is skipped.
   */
  readonly unplugDuringTumble?: (s: ContractSetup) => Promise<() => Promise<void>>;
  /** Counts servo flips in the board's events; default: pulses at the firmware's flip position (2400 us). */
  readonly countFlips?: (events: readonly BoardEvent[]) => number;
  /** What `identify` must say. */
  readonly expectDriver: RigDriver['kind'];
  readonly expectSimulated: boolean;
  /** Whether identity carries a serial port path. */
  readonly hasPort?: boolean;
  /** Per-test timeout (a real rig or an emulated board tumbles in real time). Default 20 s. */
  readonly timeoutMs?: number;
}

const defaultFlips = countFlips;

/** Timers and child processes alive in this process, by kind (what a forgotten close leaves behind). */
function liveHandles(): { timers: number; children: number } {
  const info = process.getActiveResourcesInfo();
  return { timers: info.filter((r) => r === 'Timeout').length, children: info.filter((r) => r === 'ProcessWrap').length };
}

async function settleHandles(baseline: { timers: number; children: number }, withinMs: number): Promise<{ timers: number; children: number }> {
  const until = Date.now() + withinMs;
  let now = liveHandles();
  while ((now.timers > baseline.timers || now.children > baseline.children) && Date.now() < until) {
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setTimeout(r, 20));
    now = liveHandles();
  }
  return now;
}

/** Registers the contract cases for one driver under `describe(name)`. */
export function describeRigDriverContract(name: string, setup: () => Promise<ContractSetup>, options: ContractOptions): void {
  const timeout = options.timeoutMs ?? 20_000;
  const title = options.skip ? `${name} (SKIPPED: ${options.skip})` : name;

  describe.skipIf(options.skip !== undefined)(title, () => {
    // A case whose claim is about closing or losing the link gets a rig of its own; the others share one (below). An
    // emulated StandardFirmata board blinks for ~2 s after every open before it answers.
    let s: ContractSetup | undefined;

    afterEach(async () => {
      await s?.cleanup();
      s = undefined;
    }, timeout);

    const own = async (): Promise<ContractSetup> => {
      s = await setup();
      return s;
    };

    it('closes idempotently, refuses commands afterwards, and leaves no timers or child processes behind', { timeout }, async () => {
      const before = liveHandles();
      const fresh = await setup();
      await fresh.driver.connect();
      await fresh.driver.setLight(10);
      await fresh.driver.close();
      await fresh.driver.close();
      await expect(fresh.driver.status()).rejects.toThrow(/closed/);
      await fresh.cleanup();
      await fresh.cleanup();
      const after = await settleHandles(before, 3000);
      expect(after.timers).toBeLessThanOrEqual(before.timers);
      expect(after.children).toBeLessThanOrEqual(before.children);
    });

    describe('on one rig, connected by the first case', () => {
      // Cases whose claim is not about closing or losing the link share one rig; the first connects it.
      let made: Promise<ContractSetup> | undefined;
      const rig = (): Promise<ContractSetup> => (made ??= setup());
      const connected = async (): Promise<ContractSetup> => {
        const one = await rig();
        await one.driver.connect(); // at once when connected already
        return one;
      };

      afterAll(async () => {
        await (await made?.catch(() => undefined))?.cleanup();
        made = undefined;
      }, timeout);

      it('connects and identifies the rig: driver kind, protocol, rig id, config hash, simulated or not', { timeout }, async () => {
        const { driver } = await rig(); // not connected yet: this case connects it
        expect(driver.isSimulated).toBe(options.expectSimulated);
        expect(driver.kind).toBe(options.expectDriver);
        const id = await driver.connect();
        expect(id.driver).toBe(options.expectDriver);
        expect(id.rigId).toMatch(/\S/);
        expect(id.configHash).toMatch(/\S/);
        expect(Number.isFinite(id.protocol)).toBe(true);
        expect(['servo', 'stepper']).toContain(id.tumbler);
        if (options.hasPort) expect(id.port).toMatch(/\S/);
        const again = await driver.identify();
        expect(again.rigId).toBe(id.rigId);
        expect(again.configHash).toBe(id.configHash);
      });

      it('tumbles once: the promise resolves with the motion duration, and the rig is idle again', { timeout }, async () => {
        const { driver, board } = await connected();
        const mark = board?.events.length ?? 0;
        const result = await driver.tumble();
        expect(result.durationMs).toBeGreaterThan(0);
        expect(Number.isFinite(result.durationMs)).toBe(true);
        const st = await driver.status();
        expect(st.state).toBe('idle');
        if (board) {
          // What the motor really did: exactly one flip for one tumble.
          await board.waitFor((e) => e.kind === 'servo-off', patience(5000), mark, 'the servo released');
          expect((options.countFlips ?? defaultFlips)(board.events.slice(mark))).toBe(1);
        }
        expect(driver.linkStats().commands).toBeGreaterThan(0);
      });

      it('sets light levels and reads each back, in the reply and in status', { timeout }, async () => {
        const { driver } = await connected();
        for (const level of [255, 128, 0]) {
          expect(await driver.setLight(level)).toBe(level);
          expect((await driver.status()).light).toBe(level);
        }
        // An impossible level is a programming error: thrown or rejected, a RangeError.
        let bad: unknown;
        try {
          await driver.setLight(256);
        } catch (e) {
          bad = e;
        }
        expect(bad).toBeInstanceOf(RangeError);
      });

      it('reports status: idle, light, switches, uptime', { timeout }, async () => {
        const { driver } = await connected();
        const st = await driver.status();
        expect(st.state).toBe('idle');
        expect(typeof st.limitPressed).toBe('boolean');
        expect(typeof st.homePressed).toBe('boolean');
        expect(st.light).toBeGreaterThanOrEqual(0);
        const rt = driver.linkStats().roundTripsMs;
        expect(rt.length).toBeGreaterThan(0);
        expect(rt.every((x) => x >= 0)).toBe(true);
      });

      it('homes and resolves with the motion duration', { timeout }, async () => {
        const { driver } = await connected();
        const r = await driver.home();
        expect(r.durationMs).toBeGreaterThanOrEqual(0);
        expect((await driver.status()).state).toBe('idle');
      });

      const canFault = options.faultDuringTumble !== undefined;
      it.skipIf(!canFault)(
        canFault
          ? 'rejects a tumble a fault interrupts with interrupted: true, tells onFault, and tumbles again afterwards'
          : 'fault during a tumble (SKIPPED: needs a person at the limit switch; run it on the emulated board)',
        { timeout },
        async () => {
          const st = await connected();
          const { driver } = st;
          const seen: RigFault[] = [];
          const off = driver.onFault((f) => seen.push(f));
          const tumbling = driver.tumble();
          const kind = await (options.faultDuringTumble as (s: ContractSetup) => Promise<FaultKind>)(st);
          const err = await tumbling.then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(err).toBeInstanceOf(RigFaultError);
          expect(err).toMatchObject({ fault: kind, interrupted: true });
          expect((err as RigFaultError).rig.command).toBe('tumble');
          expect(seen.map((f) => f.kind)).toContain(kind);
          await options.clearFault?.(st);
          off();
          const next = await driver.tumble();
          expect(next.durationMs).toBeGreaterThan(0);
          expect(seen.filter((f) => f.kind === kind)).toHaveLength(1);
        },
      );
    });

    const canUnplug = options.unplugDuringTumble !== undefined;
    it.skipIf(!canUnplug)(
      canUnplug
        ? 'lifecycle: a link lost mid-tumble rejects that tumble as interrupted (disconnected) and never re-runs it; the driver reconnects by itself, restores the light, and tumbles again'
        : 'lifecycle: unplug and replug mid-tumble (SKIPPED: needs a person at the USB cable; run it on the emulated board)',
      { timeout },
      async () => {
        const st = await own();
        const { driver, board } = st;
        await driver.connect();
        expect(await driver.setLight(90)).toBe(90);
        const seen: RigFault[] = [];
        driver.onFault((f) => seen.push(f));
        const beforeCut = board?.events.length ?? 0;
        const tumbling = driver.tumble();
        const replug = await (options.unplugDuringTumble as (s: ContractSetup) => Promise<() => Promise<void>>)(st);
        const err = await tumbling.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(RigFaultError);
        expect(err).toMatchObject({ fault: 'disconnected', interrupted: true });
        expect((err as RigFaultError).rig.command).toBe('tumble');
        expect(seen.map((f) => f.kind)).toContain('disconnected');

        await replug();
        // Nobody calls connect(): a command issued while the link is down waits for the driver to reconnect.
        expect((await driver.status()).state).toBe('idle');
        expect(driver.linkStats().reconnects).toBe(1);
        const next = await driver.tumble();
        expect(next.durationMs).toBeGreaterThan(0);
        // The light the session set is back, on the board as in the driver.
        expect((await driver.status()).light).toBe(90);
        if (board) {
          // What the motor did: the cut tumble's flip and the new tumble's, and no third (the cut tumble never ran again).
          // Counted with the shared band and from before the cut tumble: StandardFirmata's stretched pulses re-report a
          // held flip, which a narrow band or a count started during the hold takes for a new flip. The emulator can lag
          // the wall clock, so wait for it to release the servo after the second flip, then a moment more.
          const flips = options.countFlips ?? defaultFlips;
          await until(() => flips(board.events.slice(beforeCut)) >= 2 && board.events.filter((e) => e.kind === 'servo' || e.kind === 'servo-off').at(-1)?.kind === 'servo-off', patience(5000), 'the servo released after the new tumble');
          await new Promise((r) => setTimeout(r, 300));
          expect(flips(board.events.slice(beforeCut))).toBe(2);
        }
      },
    );
  });
}

/** Resolves once `done()` holds, checking every 20 ms; rejects naming `what` after `timeoutMs`. */
async function until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Pulls the cable of an emulated board opened through a bus once its motion starts; plugs it back in under another path. */
export async function unplugBusDuringTumble(s: ContractSetup): Promise<() => Promise<void>> {
  const board = s.board as EmulatedBoard;
  const bus = s.bus as FaultyLinkBus;
  const mark = board.events.length;
  // Once the servo is at the flip position, so the cut tumble's one flip is reported before the replug.
  await board.waitFor((e) => e.kind === 'servo' && Math.abs(e.pulseUs - 2400) <= 8, patience(5000), mark, 'the flip');
  await bus.unplug({ closeEvent: true });
  return () => bus.replug('/virtual/ttyACM1');
}

/** The usual fault on an emulated board: the limit switch closes once the servo has started to move. */
export async function pressLimitDuringTumble(s: ContractSetup): Promise<FaultKind> {
  const board = s.board as EmulatedBoard;
  const mark = board.events.length;
  await board.waitFor((e) => e.kind === 'servo' || (e.kind === 'pin' && e.name === 'D13' && e.value === 1), patience(5000), mark, 'the motion to start');
  board.pressSwitch('limit');
  return 'limit';
}

export async function releaseLimit(s: ContractSetup): Promise<void> {
  const board = s.board as EmulatedBoard;
  const mark = board.events.length;
  board.releaseSwitch('limit');
  await board.waitFor((e) => e.kind === 'switch' && e.name === 'limit' && !e.pressed, patience(2000), mark, 'the limit switch released');
  // The firmware debounces for 5 ms; give it a moment before the next motion.
  await new Promise((r) => setTimeout(r, 30));
}
