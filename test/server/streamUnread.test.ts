/**
 * Stream rolling with a camera whose reader reads nothing (a calibration made for another camera, light or die size):
 * it stops after `stopping.maxConsecutiveUnread` throws in a row with no die read, the session's own rule, instead of
 * tumbling the rig for ever, and says why to the viewer whose roll failed, on /api/state and on the live stream.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simServeConfig } from '../../src/server/serve.js';
import { checkSessionConfig } from '../../src/session/config.js';
import { liveClient, startTestServer } from './support/testServer.js';

const UNREAD = /^No die was read in 5 throws in a row: the reader declined every die \(each kept as an unresolved roll\) or called it cocked\. The reader said of \d+ of the \d+ dice it looked at: the simulated reader declines a \d with probability 1 \(this die's words; the figures vary from die to die\)\. (.*)$/;

describe('stream rolling when no die is read', () => {
  it('stops rolling after maxConsecutiveUnread throws in a row, saying why on the roll, the state and the live stream, and holds the queue until started again', async () => {
    const base = simServeConfig('d6', { clock: 'simulated', seed: 3, cockedRate: 0 });
    // The simulated reader declines every face, as a stale calibration does.
    const declines = Object.fromEntries(['1', '2', '3', '4', '5', '6'].map((f) => [f, 1]));
    const config = checkSessionConfig({ ...base, camera: { ...base.camera, declines }, stopping: { ...base.stopping, maxConsecutiveUnread: 5 } }, '(test)');
    const s = await startTestServer({ config, dir: mkdtempSync(join(tmpdir(), 'dicerig-stream-unread-')), limits: { apiPerMinute: 6000, apiBurst: 1000 } });
    const live = await liveClient(s.url);
    try {
      const stream = (): number => (s.controller.modeState().streamSession as number | undefined) ?? 0;
      const failed = await s.api('POST', '/api/rolls?wait=10', { dice: '2d6' });
      expect(failed.json.state).toBe('failed');
      // The session's rule, in its words, then what to do on serve.
      const said = UNREAD.exec(String(failed.json.error));
      expect(said, String(failed.json.error)).not.toBeNull();
      expect(said?.[1]).toBe('Stream rolling stopped: check the calibration (one made for this camera, light and die size) and the camera, then press Start on the dashboard (POST /api/run {"action": "start"}).');
      // Five throws, not the twelve tumbles a request may take.
      expect(s.opened.store.lastThrowIndex(stream())).toBe(5);
      const state = await s.api('GET', '/api/state');
      expect([state.json.mode, state.json.run, state.json.stopped]).toEqual(['stream', 'stopped', failed.json.error]);
      const ended = await live.next((m) => m.type === 'run-ended' && m.mode === 'stream');
      expect(ended.reason).toBe(failed.json.error);
      // A roll asked now waits, saying so, and the rig does not move.
      const waiting = await s.api('POST', '/api/rolls?wait=1', { dice: '1d6' });
      expect([waiting.status, waiting.json.state, waiting.json.note]).toEqual([202, 'queued', 'stream rolling stopped by itself (the reason is on the dashboard and in /api/state); the roll waits until it is started again']);
      expect(s.opened.store.lastThrowIndex(stream())).toBe(5);
      // Started again with the reader still reading nothing: one throw, and it stops again at once.
      await s.api('POST', '/api/run', { action: 'start' });
      await expect.poll(async () => (await s.api('GET', `/api/rolls/${waiting.json.id as string}`)).json.state, { timeout: 20_000 }).toBe('failed');
      expect(s.opened.store.lastThrowIndex(stream())).toBe(6);
      expect((await s.api('GET', '/api/state')).json.run).toBe('stopped');
    } finally {
      live.close();
      await s.close();
    }
  });
});
