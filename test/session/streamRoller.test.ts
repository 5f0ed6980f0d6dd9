import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.js';
import { StreamRoller, StreamThrowError, type StreamRetumble } from '../../src/session/streamRoller.js';
import { ScriptedCamera, ScriptedRig, ScriptedVision, storeWithDice, type ChannelScript, type TumbleStep } from './support/fakes.js';

/** A stream roller over scripted parts: two D6 channels, each throw's channels from `script`. */
function roller(script: (call: number, channel: number) => ChannelScript, tumbles: TumbleStep[] = []) {
  const clock = new SimulatedClock(0);
  const { store, dice, session } = storeWithDice(['d6', 'd6']);
  const vision = new ScriptedVision(2, [], script);
  const roll = new StreamRoller(
    { rig: new ScriptedRig(clock, tumbles), camera: new ScriptedCamera(clock), readThrow: vision.readThrow, store, clock, timeOrigin: 0 },
    { sessionId: session.id, dice, settle: { mode: 'detect', timeoutMs: 5000 }, maxConsecutiveMissing: 3 },
  );
  return { roll, store, session, vision };
}

describe('rolling on stream', () => {
  it('keeps a die not found in its channel as an unresolved roll and tumbles again for the viewer, saying which die was not found', async () => {
    const { roll, store, session } = roller((call, c) => (c === 1 && call === 1 ? { missing: true } : String(((call + c) % 6) + 1)));
    const retumbles: StreamRetumble[] = [];
    const got = await roll.throwFor([0, 1], (r) => retumbles.push(r));
    expect(got.attempts).toBe(2);
    expect(got.reads.map((r) => r.symbol)).toEqual(['3', '4']);
    expect(retumbles).toEqual([{ index: 1, status: 'rerolled', reason: 'd6-1 (channel 1) not found; kept unresolved for review', problems: [{ kind: 'missing', channel: 1 }] }]);
    expect(store.unresolvedRolls(session.id).map((r) => [r.throwIndex, r.channel, r.reason])).toEqual([[1, 1, 'no die was found in channel 1']]);
  });

  it('keeps a die joined by its hard shadow as an unresolved roll and tumbles again for the viewer, saying so, beside a die the reader declined', async () => {
    const { roll, store, session } = roller((call, c) => (call === 1 ? (c === 0 ? { joined: true } : { unreadable: true }) : String(((call + c) % 6) + 1)));
    const retumbles: StreamRetumble[] = [];
    const got = await roll.throwFor([0, 1], (r) => retumbles.push(r));
    expect(got.attempts).toBe(2);
    expect(retumbles).toEqual([{ index: 1, status: 'rerolled', reason: 'd6-0 (channel 0) joined by its hard shadow, d6-1 (channel 1) declined by the reader; kept unresolved for review', problems: [{ kind: 'unreadable', channel: 0, cause: 'shadow' }, { kind: 'unreadable', channel: 1 }] }]);
    expect(store.unresolvedRolls(session.id).map((r) => [r.throwIndex, r.channel])).toEqual([
      [1, 0],
      [1, 1],
    ]);
  });

  it('gives up, and gives up again on the next request, once a die was not found in its channel in too many throws in a row', async () => {
    const { roll, store, session, vision } = roller((_call, c) => (c === 1 ? { missing: true } : '2'));
    await expect(roll.throwFor([0, 1])).rejects.toThrow(StreamThrowError);
    await expect(roll.throwFor([0, 1])).rejects.toThrow(/^Die "d6-1" was not found in channel 1 in 4 throws in a row: it may have left the rig/);
    // Three throws, then one more for the second request: not the twelve tumbles each request may take.
    expect(vision.calls).toBe(4);
    expect(store.unresolvedRolls(session.id)).toHaveLength(4);
  });

  it("stores its throws as the fairness loop does: each problem's details in its event, and a tumble the rig stopped as a void throw with its fault", async () => {
    const { roll, store, session } = roller((call, c) => (call === 1 && c === 0 ? { joined: true } : String(((call + c) % 6) + 1)), ['jam']);
    const retumbles: StreamRetumble[] = [];
    const got = await roll.throwFor([0, 1], (r) => retumbles.push(r));
    expect(got.attempts).toBe(3);
    expect(retumbles.map((r) => [r.index, r.status])).toEqual([
      [1, 'void'],
      [2, 'rerolled'],
    ]);
    const events = store.events(session.id);
    const fault = events.find((e) => e.kind === 'fault');
    expect(fault).toMatchObject({ throwIndex: 1, detail: { message: expect.stringMatching(/stopped: jam\./) } });
    const joined = events.find((e) => e.kind === 'unreadable' && e.throwIndex === 2);
    expect(joined?.detail).toMatchObject({ channel: 0, details: { area: expect.any(Number) } });
  });
});
