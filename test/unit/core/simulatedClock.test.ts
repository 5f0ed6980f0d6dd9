import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../../src/core/clock.js';

describe('SimulatedClock', () => {
  it('wakes concurrent sleepers in time order and reports the simulated time at each wake', async () => {
    const clock = new SimulatedClock(1000);
    const log: string[] = [];
    const heartbeat = (async () => {
      for (let i = 0; i < 3; i++) {
        await clock.sleep(200);
        log.push(`ping@${clock.now()}`);
      }
    })();
    const tumble = (async () => {
      await clock.sleep(500);
      log.push(`tumble-done@${clock.now()}`);
    })();
    await Promise.all([heartbeat, tumble]);
    expect(log).toEqual(['ping@1200', 'ping@1400', 'tumble-done@1500', 'ping@1600']);
  });

  it('runs an hour of simulated sleeps without waiting an hour', async () => {
    const clock = new SimulatedClock();
    // Real sleeps would take an hour and trip the test timeout; no wall-clock assertion needed.
    for (let i = 0; i < 1440; i++) await clock.sleep(2500);
    expect(clock.now()).toBe(3_600_000);
  });
});

describe('a sleep called off by its signal', () => {
  it('ends at once and never moves the simulated clock on to its end', async () => {
    const clock = new SimulatedClock(0);
    const stop = new AbortController();
    const timeout = clock.sleep(5000, stop.signal);
    await clock.sleep(100);
    stop.abort();
    await timeout;
    expect(clock.now()).toBe(100);
    // Nothing else pending: a forgotten 5 s timeout would have moved time to 5000 on the next turn.
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(clock.now()).toBe(100);
    await clock.sleep(10);
    expect(clock.now()).toBe(110);
  });

  it('ends at once when its signal is aborted already', async () => {
    const clock = new SimulatedClock(0);
    await clock.sleep(5000, AbortSignal.abort());
    expect(clock.now()).toBe(0);
  });
});
