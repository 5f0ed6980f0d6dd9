import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { LiveHub, type LiveClient } from '../../src/server/live/hub.js';

function client(bufferedAmount = 0): LiveClient & { got: Record<string, unknown>[]; closed: boolean } {
  const c = {
    got: [] as Record<string, unknown>[],
    closed: false,
    bufferedAmount,
    send: (text: string) => void c.got.push(JSON.parse(text) as Record<string, unknown>),
    close: () => void (c.closed = true),
  };
  return c;
}

describe('the live hub', () => {
  it('writes nothing inside publish (that is the throw’s time) and every event, in order, on the next turn', async () => {
    const hub = new LiveHub(() => ({ mode: 'fairness' }));
    const page = client();
    hub.join(page);
    hub.publish({ type: 'throw', index: 1 });
    hub.publish({ type: 'verdict', label: 'R1' });
    expect(page.got.map((e) => e.type)).toEqual(['state']);
    await nextTurn();
    expect(page.got.map((e) => [e.type, e.seq])).toEqual([
      ['state', 0],
      ['throw', 1],
      ['verdict', 2],
    ]);
    expect(page.got[1]?.epoch).toBe(hub.epoch);
  });

  it('gives a page that joins with events pending the state that includes them, and the others those events first', async () => {
    let throws = 0;
    const hub = new LiveHub(() => ({ throws }));
    const early = client();
    hub.join(early);
    throws = 1;
    hub.publish({ type: 'throw', index: 1 });
    const late = client();
    hub.join(late);
    expect(early.got.map((e) => e.type)).toEqual(['state', 'throw']);
    expect(late.got).toEqual([{ type: 'state', seq: 1, epoch: hub.epoch, throws: 1 }]);
    hub.publish({ type: 'throw', index: 2 });
    await nextTurn();
    expect(early.got.map((e) => e.seq)).toEqual([0, 1, 2]);
    expect(late.got.map((e) => e.seq)).toEqual([1, 2]);
  });

  it('drops a page too slow to take its events, and keeps numbering events when no page is open', async () => {
    const hub = new LiveHub(() => ({}));
    hub.publish({ type: 'throw' });
    const slow = client(64 * 1024 * 1024);
    const fine = client();
    hub.join(slow);
    hub.join(fine);
    hub.publish({ type: 'throw' });
    await nextTurn();
    expect(slow.closed).toBe(true);
    expect(hub.clientCount).toBe(1);
    expect(fine.got.map((e) => e.seq)).toEqual([1, 2]);
  });

  it('sends what is pending before closing every page', () => {
    const hub = new LiveHub(() => ({}));
    const page = client();
    hub.join(page);
    hub.publish({ type: 'run-ended' });
    hub.closeAll();
    expect(page.got.map((e) => e.type)).toEqual(['state', 'run-ended']);
    expect(page.closed).toBe(true);
  });
});
