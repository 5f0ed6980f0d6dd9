/**
 * Every session `serve` begins has a name (unique in the roll store), so `sessions` and the fleet page never list a
 * blank: the fairness session and the stream session, from a config with a name or without.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { simServeConfig } from '../../src/server/serve.js';
import { RollStore } from '../../src/store/rollStore.js';
import { startTestServer } from './support/testServer.js';

const SERVED = String.raw`\(serve \d{4}-\d\d-\d\d \d\d:\d\d( #\d+)?\)`;

/** Starts serve with `config`, has one stream roll rolled, and returns the names of the sessions in its store by kind. */
async function namesAfterOneRoll(config: ReturnType<typeof simServeConfig>): Promise<Map<string, string | null>> {
  const dir = mkdtempSync(join(tmpdir(), 'dicerig-serve-names-'));
  const s = await startTestServer({ config, dir });
  try {
    const r = await s.api('POST', '/api/rolls?wait=30', { dice: '1 red' });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
  } finally {
    await s.close();
  }
  const store = RollStore.open(join(dir, 'rolls.db'), { mustExist: true });
  try {
    return new Map(store.sessions().map((x) => [x.kind ?? 'fairness', x.name]));
  } finally {
    store.close();
  }
}

it('names the fairness and stream sessions of a config without a name "fairness (serve …)" and "stream (serve …)"', async () => {
  const names = await namesAfterOneRoll(simServeConfig('xwing', { clock: 'simulated', seed: 4 }));
  expect(names.get('fairness')).toMatch(new RegExp(`^fairness ${SERVED}$`));
  expect(names.get('stream')).toMatch(new RegExp(`^stream ${SERVED}$`));
}, 60_000);

it('names the stream session of a named config after it, "NAME stream (serve …)"', async () => {
  const names = await namesAfterOneRoll({ ...simServeConfig('xwing', { clock: 'simulated', seed: 4 }), name: 'table 3' });
  expect(names.get('fairness')).toMatch(new RegExp(`^table 3 ${SERVED}$`));
  expect(names.get('stream')).toMatch(new RegExp(`^table 3 stream ${SERVED}$`));
}, 60_000);
