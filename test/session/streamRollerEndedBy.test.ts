/**
 * The throw that ends stream rolling (a die missing, or no die read, in too many throws in a row) is stored and did not
 * count, but is not tumbled again: the error names it as a re-tumble would have (index, why, problems), so a failed
 * roll's answer can name every throw it took.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.js';
import { StreamRoller, StreamThrowError, StreamUnreadError, type StreamRetumble } from '../../src/session/streamRoller.js';
import { ScriptedCamera, ScriptedRig, ScriptedVision, storeWithDice, type ChannelScript } from './support/fakes.js';

function roller(script: (call: number, channel: number) => ChannelScript) {
  const clock = new SimulatedClock(0);
  const { store, dice, session } = storeWithDice(['d6', 'd6']);
  const vision = new ScriptedVision(2, [], script);
  const roll = new StreamRoller(
    { rig: new ScriptedRig(clock, []), camera: new ScriptedCamera(clock), readThrow: vision.readThrow, store, clock, timeOrigin: 0 },
    { sessionId: session.id, dice, settle: { mode: 'detect', timeoutMs: 5000 }, maxConsecutiveMissing: 3, maxConsecutiveUnread: 2 },
  );
  return { roll, store, session };
}

async function failure(p: Promise<unknown>): Promise<StreamThrowError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(StreamThrowError);
  return e as StreamThrowError;
}

describe('the throw that ends stream rolling', () => {
  it('is named with the error when a die was not found in its channel in too many throws in a row: the last stored throw, why, its problems', async () => {
    const { roll, store, session } = roller((_call, c) => (c === 1 ? { missing: true } : '2'));
    const retumbles: StreamRetumble[] = [];
    const e = await failure(roll.throwFor([0, 1], (r) => retumbles.push(r)));
    expect(e.message).toMatch(/^Die "d6-1" was not found in channel 1 in 3 throws in a row/);
    expect(retumbles.map((r) => r.index)).toEqual([1, 2]);
    expect(e.endedBy).toEqual({ index: 3, status: 'rerolled', reason: 'd6-1 (channel 1) not found; kept unresolved for review', problems: [{ kind: 'missing', channel: 1 }] });
    expect(store.lastThrowIndex(session.id)).toBe(3);
  });

  it('is named with the error when no die was read in too many throws in a row', async () => {
    const { roll } = roller(() => ({ unreadable: true }));
    const retumbles: StreamRetumble[] = [];
    const e = await failure(roll.throwFor([0, 1], (r) => retumbles.push(r)));
    expect(e).toBeInstanceOf(StreamUnreadError);
    expect(retumbles.map((r) => r.index)).toEqual([1]);
    expect(e.endedBy).toEqual({ index: 2, status: 'rerolled', reason: 'd6-0 (channel 0) declined by the reader, d6-1 (channel 1) declined by the reader; kept unresolved for review', problems: [{ kind: 'unreadable', channel: 0 }, { kind: 'unreadable', channel: 1 }] });
  });
});
