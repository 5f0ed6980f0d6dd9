/**
 * What a caller is told about a roll that will not be rolled now, and how an ended roll is answered: a queued roll's
 * note follows the run as well as the mode, and a roll that ended while its caller waited is a final 200.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TOKEN, startTestServer, type TestServer } from './support/testServer.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ chatWaitMs: 200, limits: { apiPerMinute: 6000, apiBurst: 1000 } });
});

afterAll(async () => {
  await server.close();
});

async function chat(dice: string, by: string): Promise<{ status: number; text: string }> {
  const r = await fetch(`${server.url}/api/chat/roll?dice=${encodeURIComponent(dice)}&by=${by}&token=${CHAT_TOKEN}`);
  return { status: r.status, text: await r.text() };
}

describe('a roll asked while the rig will not roll the queue', () => {
  it('after stream rolling was stopped, tells chat and the API that it waits until rolling is started again', async () => {
    await server.api('POST', '/api/run', { action: 'stop' });
    const said = await chat('1 red', 'viewer');
    expect(said.status).toBe(202);
    expect(said.text).toMatch(/^@viewer Roll \w+ \(1 red\) is number 1 in the queue \(stream rolling is paused or stopped; the roll waits until it is started again\); the overlay will show the result\.$/);
    const asked = await server.api('POST', '/api/rolls', { dice: '1 green' });
    expect(asked.json).toMatchObject({ state: 'queued', note: 'stream rolling is paused or stopped; the roll waits until it is started again' });
    for (const q of server.controller.queueView()) await server.api('DELETE', `/api/rolls/${q.id}`);
  });

  it('in fairness mode with no test running, does not say a fairness test is running', async () => {
    await server.api('POST', '/api/mode', { mode: 'fairness' });
    const asked = await server.api('POST', '/api/rolls', { dice: '1 red' });
    expect(asked.json).toMatchObject({ state: 'queued', note: 'the rig is in fairness-test mode; the roll waits until stream rolling is on' });
    expect((await chat('1 red', 'viewer')).text).toContain('(the rig is in fairness-test mode; the roll waits until stream rolling is on)');
    for (const q of server.controller.queueView()) await server.api('DELETE', `/api/rolls/${q.id}`);
    await server.api('POST', '/api/mode', { mode: 'stream' });
  });
});

describe('a roll that ends while its caller waits (?wait=)', () => {
  it('is answered 200 with the state it ended in, not 202 as if still to come', async () => {
    await server.api('POST', '/api/run', { action: 'pause' });
    const waiting = server.api('POST', '/api/rolls?wait=5', { dice: '1 red' });
    let id: string | undefined;
    for (let i = 0; i < 100 && id === undefined; i++) {
      id = server.controller.queueView()[0]?.id;
      if (id === undefined) await new Promise((r) => setTimeout(r, 20));
    }
    expect((await server.api('DELETE', `/api/rolls/${id as string}`)).status).toBe(200);
    const answer = await waiting;
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ id, state: 'cancelled' });
  });
});
