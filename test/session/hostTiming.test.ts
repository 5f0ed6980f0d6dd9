import { describe, expect, it } from 'vitest';
import { cpuStopwatch, HostTiming } from '../../src/session/hostTiming.js';

describe('host time per throw', () => {
  it('adds each phase of a throw to the throw and to the phase, with an injected stopwatch', () => {
    let now = 0;
    const timing = new HostTiming(() => now);
    timing.startThrow();
    let t = timing.tick();
    now += 3;
    timing.tock(t, 'vision');
    t = timing.tick();
    now += 1.5;
    timing.tock(t, 'store');
    timing.endThrow();
    expect(timing.perThrow).toEqual([4.5]);
    expect(timing.phases).toMatchObject({ vision: 3, store: 1.5, settle: 0 });
  });

  it('measures nothing without a stopwatch', () => {
    const timing = new HostTiming();
    timing.startThrow();
    timing.tock(timing.tick(), 'vision');
    timing.endThrow();
    expect(timing.perThrow).toEqual([]);
  });

  it('counts CPU time with cpuStopwatch: work moves it, a thread that waits (for a core, a lock, a reply) does not', () => {
    const before = cpuStopwatch();
    let x = 0;
    for (let i = 0; i < 3e6; i++) x += Math.sqrt(i);
    const worked = cpuStopwatch() - before;
    expect(x).toBeGreaterThan(0);
    expect(worked).toBeGreaterThan(0);
    // Blocked for 300 ms of wall time without computing anything.
    const t0 = cpuStopwatch();
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
    expect(cpuStopwatch() - t0).toBeLessThan(150);
  });
});
