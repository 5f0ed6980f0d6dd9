// When the serial driver talks to a board it would not otherwise talk to: heartbeats during a motion (the
// board's dead-man stops the motor after a second without a line from the host) and pings when idle (to notice
// an unplugged board). On a simulated clock against a scripted board, so every time below is exact.
import { afterEach, describe, expect, it } from 'vitest';
import type { SimulatedClock } from '../../src/core/clock.js';
import type { SerialRigDriver} from '../../src/rig/serial/serialDriver.js';
import { type SerialDriverOptions } from '../../src/rig/serial/serialDriver.js';
import type { ScriptedBoard} from './support/scriptedBoard.js';
import { type ScriptedBoardOptions } from './support/scriptedBoard.js';
import { scriptedDriver } from './support/scriptedDriver.js';

let driver: SerialRigDriver | undefined;

afterEach(async () => {
  await driver?.close();
  driver = undefined;
});

async function connect(
  options: Partial<SerialDriverOptions> = {},
  boardOptions: ScriptedBoardOptions = { motionMs: 1200 },
): Promise<{ d: SerialRigDriver; board: ScriptedBoard; clock: SimulatedClock }> {
  const { d, board, clock } = scriptedDriver(options, boardOptions);
  driver = d;
  await d.connect();
  return { d, board, clock };
}

/** Host lines sent while the motion ran, i.e. between the tumble line and its reply. */
function duringMotion(board: ScriptedBoard, verb: string, from: number, to: number): number {
  return board.linesOf(verb).filter((l) => l.t > from && l.t < to).length;
}

describe('heartbeats during a motion', () => {
  it('keeps the dead-man fed: the host is never silent for more than 200 ms while the motor runs', async () => {
    const { d, board, clock } = await connect();
    for (let i = 0; i < 3; i++) await d.tumble();
    expect(board.longestSilenceInMotion).toBeLessThanOrEqual(200);
    // 1.2 s tumbles: a status first (did it start?), then pings: five or six a tumble.
    const tumbles = board.linesOf('tumble');
    expect(tumbles).toHaveLength(3);
    const start = tumbles[0]?.t ?? 0;
    expect(duringMotion(board, 'status', start, start + 1200)).toBe(1);
    expect(duringMotion(board, 'ping', start, start + 1200)).toBeGreaterThanOrEqual(4);
    expect(clock.now()).toBeGreaterThan(3 * 1200);
  });

  it("sends none while the session's own commands keep the board fed, and the motor still never waits over 200 ms", async () => {
    const { d, board, clock } = await connect();
    const tumbling = d.tumble();
    let done = false;
    void tumbling.finally(() => {
      done = true;
    });
    let asked = 0;
    while (!done) {
      await clock.sleep(120);
      if (!done) {
        await d.status();
        asked++;
      }
    }
    await tumbling;
    const start = board.linesOf('tumble')[0]?.t ?? 0;
    expect(asked).toBeGreaterThanOrEqual(8);
    expect(duringMotion(board, 'ping', start, start + 1200)).toBe(0);
    expect(duringMotion(board, 'status', start, start + 1200)).toBe(asked);
    expect(board.longestSilenceInMotion).toBeLessThanOrEqual(200);
  });

  it('keeps within a quarter of a shorter dead-man time the board is configured with', async () => {
    const { d, board } = await connect({}, { motionMs: 1200, deadmanMs: 400 });
    await d.tumble();
    expect(board.longestSilenceInMotion).toBeLessThanOrEqual(100);
  });
});

describe('pings when idle', () => {
  it('sends none while replies prove the link alive, then one after a period without a line from the board', async () => {
    const { d, board, clock } = await connect({ idleHeartbeatMs: 1000 });
    const t0 = clock.now();
    for (let i = 0; i < 10; i++) {
      await d.status();
      await clock.sleep(300);
    }
    expect(board.linesOf('ping').filter((l) => l.t > t0)).toHaveLength(0);
    const lastReply = clock.now() - 300;
    await clock.sleep(2500);
    const pings = board.linesOf('ping').filter((l) => l.t > t0);
    expect(pings.length).toBeGreaterThanOrEqual(2);
    // The first comes a period (less the 10 % slack) after the board's last line, not earlier.
    expect((pings[0]?.t ?? 0) - lastReply).toBeGreaterThanOrEqual(900);
    expect((pings[0]?.t ?? 0) - lastReply).toBeLessThanOrEqual(1100);
  });
});
