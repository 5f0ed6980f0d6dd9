/**
 * Starting `serve` again on the same roll store with a named session config: each start begins a new fairness
 * session, so the config's name (unique in the store) must not refuse the second start.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simServeConfig } from '../../src/server/serve.js';
import { RollStore } from '../../src/store/rollStore.js';
import { startTestServer } from './support/testServer.js';

describe('serve started again on the same roll store with a named config', () => {
  it('starts each time with a new fairness session named from the config and the start, says the name, and leaves the plain name free for dicerig run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dicerig-serve-again-'));
    const config = { ...simServeConfig('xwing', { clock: 'simulated', seed: 3 }), name: 'sim-xwing-example' };
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const s = await startTestServer({ config, dir });
      ids.push(s.opened.session.id);
      expect(s.logs.join('\n')).toMatch(/fairness session \d+ is named "sim-xwing-example \(serve \d{4}-\d\d-\d\d \d\d:\d\d( #\d)?\)"/);
      await s.close();
    }
    expect(new Set(ids).size).toBe(3);
    const store = RollStore.open(join(dir, 'rolls.db'), { mustExist: true });
    try {
      const names = ids.map((id) => store.getSession(id)?.name);
      expect(new Set(names).size).toBe(3);
      for (const n of names) expect(n).toMatch(/^sim-xwing-example \(serve /);
      // What `dicerig run` of the same config then creates.
      expect(store.createSession({ name: 'sim-xwing-example', config, simulated: true, startedAt: Date.now() }).name).toBe('sim-xwing-example');
    } finally {
      store.close();
    }
  }, 60_000);
});
