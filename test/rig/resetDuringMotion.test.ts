// A board reset while a motion is outstanding: the motion is void, but the board may run it anyway when its line
// reached the fresh firmware after the reset (a USB-serial chip holds what the host sent while the board boots).
// The driver must leave the board idle before it gives the motion up, or the session's next home is refused as busy
// and a tumble nobody watches runs until its dead-man stops it. On a scripted board and a simulated clock, so the
// board can be made to run the late motion every time (on the emulated board see test/rig/faults.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import type { SimulatedClock } from '../../src/core/clock.js';
import type { RigFault } from '../../src/rig/driver.js';
import type { SerialRigDriver } from '../../src/rig/serial/serialDriver.js';
import type { ScriptedBoard } from './support/scriptedBoard.js';
import { scriptedDriver } from './support/scriptedDriver.js';

let driver: SerialRigDriver | undefined;

afterEach(async () => {
  await driver?.close();
  driver = undefined;
});

async function connect(): Promise<{ d: SerialRigDriver; board: ScriptedBoard; clock: SimulatedClock; faults: RigFault[] }> {
  const { d, board, clock } = scriptedDriver();
  driver = d;
  await d.connect();
  const faults: RigFault[] = [];
  d.onFault((f) => faults.push(f));
  return { d, board, clock, faults };
}

const rejection = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('a board reset while a tumble is outstanding', () => {
  it('stops a tumble the fresh firmware runs after its reset before voiding it, so the board is idle when the tumble is rejected', async () => {
    const { d, board, clock, faults } = await connect();
    await d.setLight(60);
    const tumbling = rejection(d.tumble());
    await clock.sleep(100);
    const resetAt = clock.now();
    board.reset({ runsLateMotion: true });
    const err = await tumbling;
    expect(err).toMatchObject({ fault: 'reset', interrupted: true, rig: { command: 'tumble', port: '/virtual/ttyACM0' } });
    expect((err as Error).message).toMatch(/reset during the tumble \(seq \d+\).* this throw is void\. Its line reached the board after the reset, so dicerig stopped it there\.$/);
    expect(board.moving).toBe(false);
    expect(faults.map((f) => f.kind)).toEqual(['reset']);
    // It asked what the board runs after the banner, stopped it once, and never sent the tumble again.
    const after = board.fromHost.filter((l) => l.t >= resetAt).map((l) => l.line.split(' ')[1]);
    expect(after).toContain('status');
    expect(after.filter((v) => v === 'stop')).toHaveLength(1);
    expect(board.linesOf('tumble')).toHaveLength(1);
  });

  it('voids the tumble as soon as a status asked after the reset shows the board idle, sending no stop', async () => {
    const { d, board, clock, faults } = await connect();
    await d.setLight(60);
    const tumbling = rejection(d.tumble());
    await clock.sleep(100);
    board.reset();
    const err = await tumbling;
    expect(err).toMatchObject({ fault: 'reset', interrupted: true });
    expect((err as Error).message).not.toMatch(/stopped it/);
    expect(board.linesOf('stop')).toHaveLength(0);
    expect(faults.map((f) => f.kind)).toEqual(['reset']);
  });

  it('voids a tumble the board refused as unsynced (it reset and its banner was lost), identifies it again, and tumbles next time', async () => {
    const { d, board, faults } = await connect();
    await d.setLight(60);
    board.reset({ bannerLost: true });
    const err = await rejection(d.tumble());
    expect(err).toMatchObject({ fault: 'reset', interrupted: true, rig: { command: 'tumble' } });
    expect((err as Error).message).toMatch(/refused the motion as unsynced, so it reset since it was last identified and its boot banner was lost/);
    expect(faults.map((f) => f.kind)).toEqual(['reset']);
    await expect(d.tumble()).resolves.toMatchObject({ durationMs: 1200 });
    expect(board.linesOf('tumble')).toHaveLength(2);
  });

  it('identifies the board again after its reset, before the light it restores', async () => {
    const { d, board, clock } = await connect();
    await d.setLight(60);
    const resetAt = clock.now();
    board.reset();
    await clock.sleep(50);
    expect(await d.status()).toMatchObject({ light: 60 });
    const after = board.fromHost.filter((l) => l.t >= resetAt).map((l) => l.line.split(' ').slice(1).join(' '));
    expect(after.slice(0, 2)).toEqual(['identify', 'light 60']);
  });
});
