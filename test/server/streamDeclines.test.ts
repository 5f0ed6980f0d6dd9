import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serve, simServeConfig, type RunningServer } from '../../src/server/serve.js';
import { checkSessionConfig } from '../../src/session/config.js';
import { RollStore } from '../../src/store/rollStore.js';

const API_TOKEN = 'api-token-for-declines-0123456789';
let running: RunningServer | undefined;

afterAll(async () => {
  await running?.close();
});

describe('stream rolling with a reader that declines a face', () => {
  it('keeps every declined die as an unresolved roll and answers the viewer only with faces it read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dicerig-stream-declines-'));
    const base = simServeConfig('d6', { clock: 'simulated', seed: 11 });
    // The simulated reader never reads a 6: every 6 stays unresolved, whatever the re-reads.
    const config = checkSessionConfig({ ...base, camera: { ...base.camera, declines: { '6': 1 } } }, '(test)');
    running = await serve({ config, dbPath: join(dir, 'rolls.db'), host: '127.0.0.1', port: 0, tokens: { api: API_TOKEN } });
    const answers: string[] = [];
    let sessionId = 0;
    for (let i = 0; i < 4; i++) {
      const r = await fetch(`${running.url}/api/rolls?wait=20`, {
        method: 'POST',
        headers: { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ dice: '3d6' }),
      });
      expect(r.status).toBe(200);
      const roll = (await r.json()) as { dice: { symbol: string }[]; sessionId: number };
      answers.push(...roll.dice.map((d) => d.symbol));
      sessionId = roll.sessionId;
    }
    // The viewer never gets an empty or unread face...
    expect(answers).toHaveLength(12);
    expect(answers.every((s) => ['1', '2', '3', '4', '5'].includes(s))).toBe(true);
    // ...and the declined dice are not dropped from the record: they wait for a person to label them.
    const store = RollStore.open(join(dir, 'rolls.db'), { mustExist: true });
    try {
      const unresolved = store.unresolvedRolls(sessionId);
      // 12 dice of a fair D6 with every 6 declined: P(no 6 in >= 12 dice) = (5/6)^12 < 0.12, and this seed shows some.
      expect(unresolved.length).toBeGreaterThan(0);
      expect(store.verify().ok).toBe(true);
    } finally {
      store.close();
    }
  });
});
