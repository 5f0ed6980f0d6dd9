/**
 * Test files that drive the real firmware in the emulated board, which runs in real time. vitest.config.ts runs
 * them first, three at a time and beside nothing else. With 3D renders running beside them (a render's Chromium
 * raises its own priority as root), the emulator fell behind real time and drivers gave up tumbles as overdue: 6
 * and 7 failures in two runs of four rig files on a 2-core machine. Much of their time is waiting on the board's
 * real time: two at a time kept 1.2 of 2 cores busy (158 s, 2026-12-07), three 1.9 (106 s, all passing, the
 * machine loaded besides). test/unit/core/realtimeFiles.test.ts checks that the list names every such file.
 */
export const REALTIME = [
  'test/cli/rig.test.ts',
  'test/cli/signals.test.ts',
  'test/hardware/rigConfig.test.ts',
  'test/rig/contract.test.ts',
  'test/rig/emulatedBoard.test.ts',
  'test/rig/faults.test.ts',
  'test/rig/firmataContract.test.ts',
  'test/rig/firmataDriver.test.ts',
  'test/rig/firmataMotionProof.test.ts',
  'test/rig/fuzz.test.ts',
  'test/rig/serialLink.test.ts',
  'test/server/rigLost.test.ts',
  'test/server/serveBanner.test.ts',
  'test/session/emulated.test.ts',
];
