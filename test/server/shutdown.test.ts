/**
 * Stopping `serve` (Ctrl-C) with rolls under way and waiting, against a real
 * server over the simulated rig: it stops after the current throw, ends what it
 * could not finish as abandoned, and answers every caller still waiting before
 * it closes.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { atOnceLine } from '../../src/cli/commands/serve.js';
import { RollStore } from '../../src/store/rollStore.js';
import { CHAT_TOKEN, liveClient, startTestServer, type TestServer } from './support/testServer.js';

/** Calls `onTumble(n)` as the rig starts its n-th tumble (the simulated rig, watched). */
function watchTumbles(server: TestServer, onTumble: (n: number) => void): void {
  const rig = server.opened.rig;
  const tumble = rig.tumble.bind(rig);
  let n = 0;
  rig.tumble = () => {
    onTumble(++n);
    return tumble();
  };
}

function storedThrows(server: TestServer, sessionId: number): number {
  const store = RollStore.open(join(server.dir, 'rolls.db'), { mustExist: true });
  try {
    return store.throwTimes(sessionId).length;
  } finally {
    store.close();
  }
}

describe('stopping the server during a roll of several throws', () => {
  it('finishes the throw under way and starts no other, ends the roll as abandoned, answers its waiting caller 503 naming it, and tells the live pages', async () => {
    const s = await startTestServer({ cockedRate: 0, limits: { apiPerMinute: 6000, apiBurst: 1000 } });
    const live = await liveClient(s.url);
    let closing: ReturnType<TestServer['close']> | undefined;
    let tumbles = 0;
    // 30 red dice on two red channels take 15 throws; the stop comes as the second one starts.
    watchTumbles(s, (n) => {
      tumbles = n;
      if (n === 2) closing = s.close();
    });
    const answer = await s.api('POST', '/api/rolls?wait=10', { dice: '30 red', by: 'bob' });
    const abandoned = await closing;
    live.close();
    const id = String(answer.json.id);
    expect(answer.status).toBe(503);
    expect(answer.json).toMatchObject({ state: 'abandoned', error: `roll ${id} was abandoned: the server is stopping`, by: 'bob' });
    expect(tumbles).toBe(2);
    expect(storedThrows(s, answer.json.sessionId as number)).toBe(2);
    expect(abandoned?.map((j) => j.id)).toEqual([id]);
    expect(s.logs).toContain(`Abandoned roll ${id} (30 red, asked by bob); 4 dice read in 2 stored throws, no answer.`);
    expect(live.messages.some((m) => m.type === 'server-stopping' && m.rolling === id)).toBe(true);
    expect(live.messages.some((m) => m.type === 'roll' && (m.roll as { id: string; state: string }).id === id && (m.roll as { state: string }).state === 'abandoned')).toBe(true);
  });
});

describe('stopping the server with rolls waiting', () => {
  it('names every abandoned roll on the console, answers the callers still waiting (API and chat) with 503, and tells the live pages', async () => {
    const s = await startTestServer({ chatWaitMs: 10_000, limits: { apiPerMinute: 6000, apiBurst: 1000 } });
    const live = await liveClient(s.url);
    await s.controller.pause();
    const answered = await s.api('POST', '/api/rolls', { dice: '1 red', by: 'ann' });
    expect(answered.status).toBe(202);
    const waitingApi = s.api('POST', '/api/rolls?wait=10', { dice: '2 green' });
    const waitingChat = fetch(`${s.url}/api/chat/roll?dice=1+green&by=cal&token=${CHAT_TOKEN}`);
    for (let i = 0; i < 100 && s.controller.queue.size < 3; i++) await new Promise((r) => setTimeout(r, 20));
    expect(s.controller.queue.size).toBe(3);
    const abandoned = await s.close();
    live.close();
    const api = await waitingApi;
    const chat = await waitingChat;
    const ids = (abandoned ?? []).map((j) => j.id);
    expect(ids).toHaveLength(3);
    expect(api.status).toBe(503);
    expect(api.json).toMatchObject({ state: 'abandoned', error: `roll ${String(api.json.id)} was abandoned: the server is stopping` });
    expect(chat.status).toBe(503);
    expect(await chat.text()).toMatch(/^@cal Roll [0-9a-f]{10} \(1 green\) was abandoned: the server is stopping\.$/);
    const byId = new Map((abandoned ?? []).map((j) => [j.id, j]));
    expect(s.logs).toContain(`Abandoned roll ${String(answered.json.id)} (1 red, asked by ann); not started.`);
    expect(s.logs).toContain(`Abandoned roll ${String(api.json.id)} (2 green); not started.`);
    const chatJob = [...byId.values()].find((j) => j.by === 'cal');
    expect(s.logs).toContain(`Abandoned roll ${String(chatJob?.id)} (1 green, asked by cal); not started.`);
    const stopping = live.messages.find((m) => m.type === 'server-stopping');
    expect(new Set(stopping?.abandoned as string[])).toEqual(new Set(ids));
  });
});

describe('quitting at once during a roll, with rolls waiting', () => {
  it('has named the waiting rolls before the throw under way ends, and the at-once line names the roll under way', async () => {
    const s = await startTestServer({ cockedRate: 0, limits: { apiPerMinute: 6000, apiBurst: 1000 } });
    let closing: ReturnType<TestServer['close']> | undefined;
    let underWay: string | undefined;
    watchTumbles(s, (n) => {
      if (n !== 2) return;
      underWay = atOnceLine(s.controller.runningSessions(), s.controller.rollUnderWay());
      closing = s.close();
    });
    // A second roll waits behind the long one; the close comes as the long one's second throw starts.
    const long = s.api('POST', '/api/rolls?wait=10', { dice: '30 red', by: 'bob' });
    for (let i = 0; i < 100 && s.controller.rollUnderWay() === undefined; i++) await new Promise((r) => setTimeout(r, 10));
    const waiting = await s.api('POST', '/api/rolls', { dice: '1 green', by: 'cal' });
    expect(waiting.status).toBe(202);
    // Right after close began (the throw under way still running), as a second Ctrl-C would find the console.
    for (let i = 0; i < 500 && closing === undefined; i++) await new Promise((r) => setTimeout(r, 10));
    const logsAtSecondTumble = [...s.logs];
    const answer = await long;
    await closing;
    expect(logsAtSecondTumble).toContain(`Abandoned roll ${String(waiting.json.id)} (1 green, asked by cal); not started.`);
    expect(underWay).toMatch(new RegExp(`^Stopping at once: the throw under way \\(roll ${String(answer.json.id)}: 30 red, asked by bob\\) is not stored`));
  });
});
