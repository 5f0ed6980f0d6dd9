import { SimulatedClock } from '../../../src/core/clock.js';
import { SerialRigDriver, type SerialDriverOptions } from '../../../src/rig/serial/serialDriver.js';
import { clockTimers } from '../../../src/rig/timers.js';
import { ScriptedBoard, type ScriptedBoardOptions } from './scriptedBoard.js';

/**
 * The serial driver on a scripted board and a simulated clock, not yet connected: no reconnects, no idle pings and
 * no by-id links unless `options` say otherwise, so every time a test reads is exact.
 */
export function scriptedDriver(options: Partial<SerialDriverOptions> = {}, boardOptions: ScriptedBoardOptions = { motionMs: 1200 }): { d: SerialRigDriver; board: ScriptedBoard; clock: SimulatedClock } {
  const clock = new SimulatedClock();
  const board = new ScriptedBoard(clock, boardOptions);
  const d = new SerialRigDriver({
    path: '/virtual/ttyACM0',
    clock: clockTimers(clock),
    openLink: board.openLink,
    listPorts: async () => [],
    byIdDir: '/nonexistent-by-id',
    reconnect: false,
    idleHeartbeatMs: 0,
    ...options,
  });
  return { d, board, clock };
}
