/**
 * Test files that drive the real firmware in the emulated board, which runs in real time. vitest.config.ts runs
 * them first, two at a time and beside nothing else: on a 2-core CI machine a render's Chromium (which raises its
 * own priority) and two other busy files slowed the emulator so far that a 5 s wait for a flip ran out (stop 58's
 * CI run), and with renders running a driver gave up tumbles as overdue. Each needs about half a core while it
 * waits on the board. test/unit/core/realtimeFiles.test.ts checks that the list names every such file.
 */
export const REALTIME = [
  'test/cli/rig.test.ts',
  'test/hardware/rigConfig.test.ts',
  'test/rig/contract.test.ts',
  'test/rig/emulatedBoard.test.ts',
  'test/rig/faults.test.ts',
  'test/rig/firmataContract.test.ts',
  'test/rig/firmataDriver.test.ts',
  'test/rig/fuzz.test.ts',
  'test/rig/serialLink.test.ts',
  'test/session/emulated.test.ts',
];
