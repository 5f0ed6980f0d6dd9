import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.js';
import type { RigFault } from '../../src/rig/driver.js';
import { RigError, RigFaultError } from '../../src/rig/errors.js';
import { SimulatedRig } from '../../src/rig/simulated/simulatedRig.js';

// Acceptance bounds from SciPy (two-sided 99.9 %), computed once:
//   from scipy.stats import binom
//   n = 2000
//   binom.ppf(0.0005, n, 0.1), binom.ppf(0.9995, n, 0.1)    -> 157.0, 245.0   (jams at rate 0.1)
//   binom.ppf(0.0005, n, 0.05), binom.ppf(0.9995, n, 0.05)  -> 69.0, 133.0    (resets at rate 0.05)
//   binom.ppf(0.0005, n, 0.5)                               -> 926.0
//   binom.cdf(925, n, 0.5)                                  -> 0.00043
// so the 926th and 1075th smallest of 2000 settle times bracket the true median with probability > 99.9 %.
const N = 2000;

async function run(rig: SimulatedRig, n: number) {
  const out: { ok: true; durationMs: number; settleMs: number; peak: number | undefined }[] = [];
  const failed: RigFaultError[] = [];
  for (let i = 0; i < n; i++) {
    try {
      const r = await rig.tumble();
      out.push({ ok: true, durationMs: r.durationMs, settleMs: r.settleMs, peak: r.peakMilliamps });
    } catch (e) {
      if (!(e instanceof RigFaultError)) throw e;
      failed.push(e);
    }
  }
  return { out, failed };
}

describe('the simulated rig', () => {
  it('tumbles for two servo holds plus under 15 ms of jitter, on simulated time, thousands of throws in moments', async () => {
    const clock = new SimulatedClock();
    const rig = new SimulatedRig({ clock, seed: 11 });
    await rig.connect();
    const wall = performance.now();
    const { out, failed } = await run(rig, N);
    expect(performance.now() - wall).toBeLessThan(5000);
    expect(failed).toHaveLength(0);
    expect(Math.min(...out.map((r) => r.durationMs))).toBeGreaterThanOrEqual(1200);
    expect(Math.max(...out.map((r) => r.durationMs))).toBeLessThanOrEqual(1215);
    // The simulated clock moved by the motions' time, not the wall's.
    expect(clock.now()).toBeGreaterThanOrEqual(N * 1200);
    await rig.close();
  });

  it('draws settle times log-normal with the configured median, inside the clamps', async () => {
    const rig = new SimulatedRig({ clock: new SimulatedClock(), seed: 12 });
    await rig.connect();
    const { out } = await run(rig, N);
    const settle = out.map((r) => r.settleMs).sort((a, b) => a - b);
    expect(settle[0]).toBeGreaterThanOrEqual(120);
    expect(settle.at(-1)).toBeLessThanOrEqual(2000);
    expect(settle[925]).toBeLessThanOrEqual(350);
    expect(settle[N - 926]).toBeGreaterThanOrEqual(350);
    await rig.close();
  });

  it('is reproducible from its seed', async () => {
    const a = new SimulatedRig({ clock: new SimulatedClock(), seed: 99, faults: { jamRate: 0.2 } });
    const b = new SimulatedRig({ clock: new SimulatedClock(), seed: 99, faults: { jamRate: 0.2 } });
    await a.connect();
    await b.connect();
    const ra = await run(a, 50);
    const rb = await run(b, 50);
    expect(ra.out).toEqual(rb.out);
    expect(ra.failed.map((e) => e.message)).toEqual(rb.failed.map((e) => e.message));
  });

  it('jams and resets at the configured rates, each an interrupted tumble announced to onFault', async () => {
    const rig = new SimulatedRig({ clock: new SimulatedClock(), seed: 13, faults: { jamRate: 0.1, resetRate: 0.05 } });
    await rig.connect();
    const seen: RigFault[] = [];
    rig.onFault((f) => seen.push(f));
    const { failed } = await run(rig, N);
    const jams = failed.filter((e) => e.fault === 'jam').length;
    const resets = failed.filter((e) => e.fault === 'reset').length;
    expect(jams).toBeGreaterThanOrEqual(157);
    expect(jams).toBeLessThanOrEqual(245);
    expect(resets).toBeGreaterThanOrEqual(69);
    expect(resets).toBeLessThanOrEqual(133);
    expect(failed.every((e) => e.interrupted && e.rig.command === 'tumble')).toBe(true);
    expect(failed.find((e) => e.fault === 'jam')?.code).toBe(20);
    expect(seen).toHaveLength(failed.length);
  });

  it('turns the light off when the board resets', async () => {
    const rig = new SimulatedRig({ clock: new SimulatedClock(), seed: 3 });
    await rig.connect();
    await rig.setLight(200);
    rig.injectFault('reset');
    await expect(rig.tumble()).rejects.toMatchObject({ fault: 'reset', interrupted: true });
    expect((await rig.status()).light).toBe(0);
  });

  it('after a dropped link, waits for it to come back before the next command, and counts a reconnect', async () => {
    const clock = new SimulatedClock();
    const rig = new SimulatedRig({ clock, seed: 4, faults: { relinkMs: 1500 } });
    await rig.connect();
    rig.injectFault('disconnected');
    await expect(rig.tumble()).rejects.toMatchObject({ fault: 'disconnected', interrupted: true });
    const cut = clock.now();
    await rig.status();
    expect(clock.now() - cut).toBeGreaterThanOrEqual(1500);
    expect(rig.linkStats().reconnects).toBe(1);
  });

  it('stops a running tumble when a fault is injected, after the time it ran', async () => {
    const clock = new SimulatedClock();
    const rig = new SimulatedRig({ clock, seed: 5 });
    await rig.connect();
    const t0 = clock.now();
    const tumbling = rig.tumble();
    await clock.sleep(300);
    rig.injectFault('limit');
    await expect(tumbling).rejects.toMatchObject({ fault: 'limit', interrupted: true, code: 21 });
    expect(clock.now() - t0).toBeLessThan(400);
  });

  it('refuses commands before connect and after close, with a RigError', async () => {
    const rig = new SimulatedRig({ clock: new SimulatedClock() });
    await expect(rig.tumble()).rejects.toThrow(/not connected: call connect\(\) first/);
    await rig.connect();
    await rig.close();
    await rig.close();
    await expect(rig.status()).rejects.toBeInstanceOf(RigError);
    await expect(rig.connect()).rejects.toThrow(/closed/);
  });
});
