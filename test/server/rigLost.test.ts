/**
 * The board hangs or goes away while serve runs, on the emulated board (the real firmware in simavr): the roll
 * under way fails naming the lost link and what to do, later rolls fail at once without storing throws the rig
 * never made, rig health and the console say the rig is lost, and a board that answers again is used again at the
 * next roll, without restarting serve.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { simServeConfig } from '../../src/server/serve.js';
import { RollStore } from '../../src/store/rollStore.js';
import { buildFirmware } from '../rig/support/build.js';
import { liveClient, startTestServer, type TestServer } from './support/testServer.js';

beforeAll(() => {
  buildFirmware();
});

/** Process ids of this process's emulated boards (the simavr harness). */
function boardPids(): Set<number> {
  const out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return new Set(out.split('\n').filter((l) => l.includes('dicerig-sim')).map((l) => Number(l.trim().split(/\s+/)[0])));
}

async function finished(s: TestServer, id: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 300; i++) {
    const r = await s.api('GET', `/api/rolls/${id}`);
    if (r.status !== 200) throw new Error(`GET roll ${id}: ${r.status} ${JSON.stringify(r.json)}`);
    if (r.json.state !== 'queued' && r.json.state !== 'rolling') return r.json;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`roll ${id} did not finish`);
}

async function roll(s: TestServer): Promise<Record<string, unknown>> {
  const r = await s.api('POST', '/api/rolls', { dice: '2 red' });
  if (typeof r.json.id !== 'string') throw new Error(`no roll: ${r.status} ${JSON.stringify(r.json)}`);
  return finished(s, r.json.id as string);
}

function voidThrows(s: TestServer, sessionId: number): number {
  const store = RollStore.open(join(s.dir, 'rolls.db'), { mustExist: true });
  try {
    return store.counts(sessionId).void;
  } finally {
    store.close();
  }
}

describe('the emulated board hangs during a stream roll', () => {
  it('fails the roll naming the lost link, stores no throw it never made, shows the rig lost, and rolls again once the board answers', async () => {
    const before = boardPids();
    const config = { ...simServeConfig('xwing', { clock: 'system', seed: 5, cockedRate: 0 }), rig: { driver: 'emulated' as const, light: 200 } };
    const s = await startTestServer({ config, limits: { apiPerMinute: 6000, apiBurst: 1000 } });
    const [board] = [...boardPids()].filter((p) => !before.has(p));
    expect(board).toBeDefined();
    const pid = board as number;
    const live = await liveClient(s.url);
    try {
      expect((await roll(s)).state).toBe('done');
      const sessionId = (await s.api('GET', '/api/state')).json.streamSession as number;

      // The board stops answering part-way through the next roll's tumble.
      const asked = await s.api('POST', '/api/rolls', { dice: '2 red' });
      await live.next((m) => m.type === 'throw-started' && m.rollId === asked.json.id);
      await new Promise((done) => setTimeout(done, 300));
      process.kill(pid, 'SIGSTOP');
      const failed = await finished(s, asked.json.id as string);
      expect(failed.state).toBe('failed');
      expect(failed.error).toMatch(/^rig disconnected: The link to the rig on \S+ was lost/);
      expect(failed.error).toContain("check the rig's USB cable and power; serve connects to it again at the next roll");
      // The tumble the loss cut is void (the dice may have moved); nothing else was stored.
      expect(voidThrows(s, sessionId)).toBe(1);
      const health = (await s.api('GET', '/api/state')).json.rigHealth as Record<string, unknown>;
      expect(health.state).toBe('lost');
      expect(s.logs.join('\n')).toMatch(/Rig rig-01 disconnected: .* Rolls fail until it is back/);

      // Still hung: the next roll tries to connect, fails saying so, and stores nothing.
      const again = await roll(s);
      expect(again.state).toBe('failed');
      expect(again.error).toContain('Connecting again failed: its port opens but the board says nothing');
      expect(voidThrows(s, sessionId)).toBe(1);

      // The board answers again: the next roll connects to it and rolls.
      process.kill(pid, 'SIGCONT');
      expect((await roll(s)).state).toBe('done');
      expect(s.logs.join('\n')).toContain('Rig rig-01 connected again');
      expect(((await s.api('GET', '/api/state')).json.rigHealth as Record<string, unknown>).state).toBe('ok');
      expect(voidThrows(s, sessionId)).toBe(1);
    } finally {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // already gone
      }
      live.close();
      await s.close();
    }
  }, 120_000);
});
