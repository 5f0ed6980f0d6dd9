// The command lane's mid-session seq resync (after `seq_stale last=N`) only moves forward on the
// wrapping ring: a seq already sent is never given to a second command.
import { describe, expect, it } from 'vitest';
import { LinkStatsRecorder } from '../../src/rig/linkStats.js';
import { CommandLane } from '../../src/rig/serial/commandLane.js';
import { timerHostOf } from '../../src/rig/timers.js';

function lane(): CommandLane {
  const host = {
    timers: timerHostOf(undefined),
    stats: new LinkStatsRecorder(),
    path: () => '/dev/null',
    linkUp: async () => undefined,
    isClosed: () => false,
    linkLost: () => undefined,
    observe: () => undefined,
  };
  return new CommandLane(host, { commandTimeoutMs: 250, maxAttemptTimeoutMs: 1000, retries: 3 });
}

describe('seq resync after seq_stale', () => {
  it('jumps past a board that has seen newer seqs', () => {
    const l = lane();
    l.takeSeq();
    l.skipPast(20000);
    expect(l.takeSeq()).toBe(20001);
  });

  it('keeps its own seq when a heartbeat already went out after the board\'s last', () => {
    const l = lane();
    l.resumeAfter(767);
    expect(l.takeSeq()).toBe(768); // the motion, refused seq_stale last=769
    expect(l.takeSeq()).toBe(769); // the status the board saw before the resent motion
    expect(l.takeSeq()).toBe(770); // a heartbeat sent while the refusal was on its way
    l.skipPast(769);
    expect(l.takeSeq()).toBe(771);
  });

  it('moves forward across the wrap from 65535 to 1, and not back across it', () => {
    const l = lane();
    l.resumeAfter(65530);
    l.skipPast(3);
    expect(l.takeSeq()).toBe(4);
    l.skipPast(65534);
    expect(l.takeSeq()).toBe(5);
  });
});
