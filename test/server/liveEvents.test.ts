/**
 * What a live page learns besides rolls and throws: the queue as it changes,
 * each die's verdict when the fairness run reaches it, the rig's faults, and
 * the run's end. A small budget and a jamming simulated rig get there in a few
 * dozen throws.
 */
import { describe, expect, it } from 'vitest';
import { simServeConfig } from '../../src/server/serve.js';
import { checkSessionConfig } from '../../src/session/config.js';
import { liveClient, startTestServer } from './support/testServer.js';

describe('the live stream of a fairness run', () => {
  it('tells of queue changes, every die’s verdict, rig faults and the run’s end', async () => {
    const base = simServeConfig('xwing', { clock: 'simulated', seed: 11 });
    const config = checkSessionConfig({ ...base, rig: { ...base.rig, sim: { faults: { jamRate: 0.25 } } }, stopping: { ...base.stopping, budgetRolls: 15 } }, 'test');
    const s = await startTestServer({ config });
    const live = await liveClient(s.url);
    try {
      await s.api('POST', '/api/mode', { mode: 'fairness' });
      const waiting = await s.api('POST', '/api/rolls', { dice: '1 red' });
      const queued = await live.next((m) => m.type === 'queue');
      expect(queued.queue).toEqual([expect.objectContaining({ id: waiting.json.id, request: '1 red', place: 1 })]);
      await s.api('POST', '/api/run', { action: 'start' });
      const ended = await live.next((m) => m.type === 'run-ended', 60_000);
      expect(ended.state).toBe('finished');
      const fault = live.messages.find((m) => m.type === 'rig' && m.state === 'fault');
      expect(String(fault?.message ?? '')).not.toBe('');
      const verdicts = live.messages.filter((m) => m.type === 'verdict');
      expect(verdicts.map((v) => String(v.label)).sort()).toEqual(['sim-green-1', 'sim-green-2', 'sim-red-1', 'sim-red-2']);
      for (const v of verdicts) expect([typeof v.verdict, String(v.sentence) !== '']).toEqual(['string', true]);
      // Back to stream rolling: the waiting roll leaves the queue and is rolled.
      await s.api('POST', '/api/mode', { mode: 'stream' });
      await live.next((m) => m.type === 'queue' && Array.isArray(m.queue) && m.queue.length === 0);
      await live.next((m) => m.type === 'roll' && (m.roll as { id: string; state: string }).id === waiting.json.id && (m.roll as { state: string }).state === 'done');
    } finally {
      live.close();
      await s.close();
    }
  });

  it('tells of a die whose face the reader cannot read (a logo), once, naming the die and the face', async () => {
    const base = simServeConfig('d6', { clock: 'simulated', seed: 12 });
    const dice = base.dice.map((d, i) => (i === 0 ? { ...d, simulatedLogo: '6' } : d));
    // The notice comes once no 6 is among some 76 reads (odds of a million to one for a fair die): at roll 92 of this
    // seeded run. The budget leaves 38 rolls after it in which a notice said again would show (it was 200: 108 after).
    const config = checkSessionConfig({ ...base, dice, stopping: { ...base.stopping, budgetRolls: 130 } }, 'test');
    const s = await startTestServer({ config });
    const live = await liveClient(s.url);
    try {
      await s.api('POST', '/api/mode', { mode: 'fairness' });
      await s.api('POST', '/api/run', { action: 'start' });
      const notice = await live.next((m) => m.type === 'notice', 60_000);
      expect(notice).toMatchObject({ label: 'sim-d6-1', face: '6' });
      expect(String(notice.message)).toMatch(/^no 6 was read in \d+ rolls.*--learn-faces/);
      await live.next((m) => m.type === 'run-ended', 60_000);
      expect(live.messages.filter((m) => m.type === 'notice')).toHaveLength(1);
    } finally {
      live.close();
      await s.close();
    }
  });
});
