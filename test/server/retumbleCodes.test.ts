/**
 * Why a throw was tumbled again travels as data in the live `retumble` event (a code for the throw and one per die
 * concerned), beside the server's own words for the dashboard's log: the overlay words the codes, never the words.
 */
import { describe, expect, it } from 'vitest';
import { retumbleCodes } from '../../src/server/live/retumbleCode.js';
import { liveClient, startTestServer } from './support/testServer.js';

describe('a re-tumble\'s codes', () => {
  it('name the throw by its most telling problem and each die by its own', () => {
    expect(
      retumbleCodes('rerolled', [
        { kind: 'unreadable', channel: 0 },
        { kind: 'cocked', channel: 2 },
        { kind: 'extra', channel: 1 },
        { kind: 'missing', channel: 3 },
      ]),
    ).toEqual({ code: 'cocked', dice: [{ channel: 0, code: 'unreadable' }, { channel: 1, code: 'touching' }, { channel: 2, code: 'cocked' }, { channel: 3, code: 'missing' }] });
    // A die joined by its hard shadow, and a die outside every channel (no die of the roll to mark).
    expect(retumbleCodes('rerolled', [{ kind: 'unreadable', channel: 1, cause: 'shadow' }, { kind: 'extra' }])).toEqual({ code: 'shadow', dice: [{ channel: 1, code: 'shadow' }] });
    expect(retumbleCodes('rerolled', [{ kind: 'extra' }])).toEqual({ code: 'stray', dice: [] });
    expect(retumbleCodes('rerolled', [{ kind: 'not-settled' }])).toEqual({ code: 'not-settled', dice: [] });
    // A fault interrupted the throw: void, whatever else it says.
    expect(retumbleCodes('void', [])).toEqual({ code: 'interrupted', dice: [] });
  });

  it('come with a stream roll\'s cocked throw on the live stream, the server\'s words beside them', async () => {
    const s = await startTestServer({ cockedRate: 0.4, limits: { apiPerMinute: 6000, apiBurst: 1000 } });
    const live = await liveClient(s.url);
    try {
      // Four dice each cocked 4 times in 10: the first roll all but surely meets a cocked die.
      for (let i = 0; i < 5 && !live.messages.some((m) => m.type === 'retumble'); i++) await s.api('POST', '/api/rolls?wait=10', { dice: '2 red, 2 green' });
      const event = await live.next((m) => m.type === 'retumble' && m.mode === 'stream');
      const cocked = [...String(event.reason).matchAll(/\(channel (\d)\) cocked/g)].map((m) => ({ channel: Number(m[1]), code: 'cocked' }));
      expect(cocked.length).toBeGreaterThan(0);
      expect(event).toMatchObject({ status: 'rerolled', code: 'cocked', dice: cocked });
      expect(event.reason).toMatch(/^Re-tumbled: /);
    } finally {
      live.close();
      await s.close();
    }
  });
});
