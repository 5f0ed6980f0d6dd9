/**
 * The roll API, the chat URL and the live stream against a real `serve` over
 * the simulated rig and camera (simulated clock, so throws take no wall time),
 * with a real roll store: what is answered is what was read and stored.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { cancel } from '../../src/odds/xwing-combat.js';
import { serve, simServeConfig } from '../../src/server/serve.js';
import { modifyAttack, modifyDefense } from '../../src/server/rolls/xwingRules.js';
import { RollStore } from '../../src/store/rollStore.js';
import { API_TOKEN, CHAT_TOKEN, liveClient, startTestServer, type TestServer } from './support/testServer.js';

type Die = { kind: string; symbol: string; channel: number; label: string; group: string; rerolledFrom?: string; evidence?: string };

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ limits: { apiPerMinute: 6000, apiBurst: 1000 } });
});
afterAll(async () => {
  await server?.close();
});

/** Throws of a session with their counted rolls, read back from the store file. */
function storedThrows(sessionId: number): { index: number; rolls: { channel: number; symbol: string | null }[] }[] {
  const store = RollStore.open(join(server.dir, 'rolls.db'), { mustExist: true });
  try {
    const byThrow = new Map<number, { channel: number; symbol: string | null }[]>();
    for (const r of store.countedRolls(sessionId)) byThrow.set(r.throwIndex, [...(byThrow.get(r.throwIndex) ?? []), { channel: r.channel ?? -1, symbol: r.symbol }]);
    return store.throwTimes(sessionId).map((t) => ({ index: t.index, rolls: byThrow.get(t.index) ?? [] }));
  } finally {
    store.close();
  }
}

describe('tokens and malformed requests', () => {
  it('answers 401 to a missing or wrong token and to the chat token on the full API, without echoing any token', async () => {
    const missing = await server.api('POST', '/api/rolls', { dice: '1 red' }, null);
    const wrong = await server.api('POST', '/api/rolls', { dice: '1 red' }, 'not-the-token');
    const chat = await server.api('POST', '/api/rolls', { dice: '1 red' }, CHAT_TOKEN);
    expect([missing.status, wrong.status, chat.status]).toEqual([401, 401, 401]);
    expect(missing.json.error).toBe('missing bearer token (Authorization: Bearer <token>)');
    expect(wrong.json.error).toBe('wrong token');
    for (const r of [missing, wrong, chat]) expect(JSON.stringify(r.json)).not.toContain('token-for-tests');
    expect((await server.api('POST', '/api/mode', { mode: 'fairness' }, null)).status).toBe(401);
    expect((await server.api('GET', '/api/rolls/abc', undefined, null)).status).toBe(401);
  });

  it('answers 400 naming the problem for a malformed body', async () => {
    const notJson = await server.api('POST', '/api/rolls', '{"dice": ');
    expect(notJson.status).toBe(400);
    expect(notJson.json.error).toMatch(/JSON/i);
    const badField = await server.api('POST', '/api/rolls', { attack: { red: 0 } });
    expect(badField.status).toBe(400);
    expect(badField.json.error).toMatch(/^attack\.red: /);
    const badDice = await server.api('POST', '/api/rolls', { dice: '3 purple' });
    expect(badDice.json.error).toBe('dice: cannot read "3 purple" as dice (try "3 red", "2 green", "2d6", "d3" or "1 direction")');
    expect((await server.api('POST', '/api/mode', { mode: 'party' })).status).toBe(400);
  });

  it('answers 415 naming the type to send for a JSON body sent as text/plain', async () => {
    const r = await fetch(`${server.url}/api/rolls`, { method: 'POST', headers: { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'text/plain' }, body: JSON.stringify({ dice: '1 red' }) });
    expect([r.status, ((await r.json()) as { error: string }).error]).toEqual([415, 'send the body as JSON with Content-Type: application/json (not text/plain)']);
    const run = await fetch(`${server.url}/api/run`, { method: 'POST', headers: { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'text/plain' }, body: '{"action":"pause"}' });
    expect(run.status).toBe(415);
  });

  it('answers 405 with Allow for a method an API address does not take', async () => {
    for (const method of ['GET', 'PUT']) {
      const r = await server.api(method, '/api/rolls');
      expect([r.status, r.headers.get('allow')]).toEqual([405, 'POST']);
      expect(r.json.error).toBe(`${method} is not allowed here; this address takes POST`);
    }
    const put = await server.api('PUT', '/api/rolls/abc', { dice: '1 red' });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, DELETE']);
  });

  it('refuses a roll the loaded dice cannot give, with the reason', async () => {
    const r = await server.api('POST', '/api/rolls', { dice: '2d6' });
    expect(r.status).toBe(422);
    expect(r.json.error).toBe('cannot roll this with the loaded dice: no d6 or direction die is loaded for the d6 dice asked for (the rig holds 2 red, 2 green)');
    const fumble = await server.api('POST', '/api/rolls', { fumble: { exclude: [1] } });
    expect(fumble.status).toBe(422);
  });

  it('never logs a token', () => {
    for (const line of server.logs) {
      expect(line).not.toContain(API_TOKEN);
      expect(line).not.toContain(CHAT_TOKEN);
    }
  });
});

describe('rolling through the API', () => {
  it('rolls "3 red" on two red channels in two throws, answers every face, and stores exactly those rolls in a stream session', async () => {
    const r = await server.api('POST', '/api/rolls?wait=10', { dice: '3 red' });
    expect(r.status).toBe(200);
    const roll = r.json as unknown as { id: string; state: string; dice: Die[]; result: Record<string, number>; line: string; throws: number[]; sessionId: number; evidence: string };
    expect(roll.state).toBe('done');
    expect(roll.dice).toHaveLength(3);
    expect(roll.dice.every((d) => d.kind === 'red' && ['hit', 'crit', 'focus', 'blank'].includes(d.symbol))).toBe(true);
    expect(roll.throws).toHaveLength(2);
    const hits = roll.dice.filter((d) => d.symbol === 'hit').length;
    const crits = roll.dice.filter((d) => d.symbol === 'crit').length;
    expect(roll.result).toEqual({ hits, crits, damage: hits + crits });
    expect(roll.line).toBe(`3 red: ${roll.dice.map((d) => d.symbol).join(', ')} -> ${hits + crits} damage`);

    const store = RollStore.open(join(server.dir, 'rolls.db'), { mustExist: true });
    const session = store.getSession(roll.sessionId);
    store.close();
    expect(session?.kind).toBe('stream');
    const stored = storedThrows(roll.sessionId).filter((t) => roll.throws.includes(t.index));
    // The first throw read both red channels, the second only the one die still needed.
    expect(stored.map((t) => t.rolls.length)).toEqual([2, 1]);
    expect(stored.flatMap((t) => t.rolls.map((x) => `${x.channel}:${x.symbol}`))).toEqual(roll.dice.map((d) => `${d.channel}:${d.symbol}`));

    const evidence = (await server.api('GET', roll.evidence)).json as { frames: { url: string; stored?: string }[] };
    expect(evidence.frames).toHaveLength(3);
    const png = await fetch(`${server.url}${roll.dice[0]?.evidence}`);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await png.arrayBuffer()).subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(existsSync(join(server.dir, evidence.frames[0]?.stored ?? 'missing'))).toBe(true);
  });

  it('rolls a red/green attack with focus and lock: the answer is the odds engine’s rules applied to the faces read, and the lock reroll reads only the dice it rerolls', async () => {
    let sawReroll = false;
    for (let attempt = 0; attempt < 12 && !sawReroll; attempt++) {
      const r = await server.api('POST', '/api/rolls?wait=10', { attack: { red: 2, focus: true, lock: true }, defense: { green: 2, focus: false } });
      const roll = r.json as unknown as { dice: Die[]; result: Record<string, number>; throws: number[]; sessionId: number };
      const red = roll.dice.filter((d) => d.group === 'attack');
      const green = roll.dice.filter((d) => d.group === 'defense');
      expect([red.length, green.length]).toEqual([2, 2]);
      // Focus + lock: blanks are rerolled once; a die not rerolled is never a blank-before-reroll.
      for (const d of red) if (d.rerolledFrom !== undefined) expect(d.rerolledFrom).toBe('blank');
      const atk = modifyAttack(red.map((d) => d.symbol), 'focus+lock');
      const def = modifyDefense(green.map((d) => d.symbol), 'none');
      const left = cancel({ hits: atk.hits, crits: atk.crits }, def.evades);
      expect(roll.result).toEqual({ hits: atk.hits, crits: atk.crits, evades: def.evades, uncancelledHits: left.hits, uncancelledCrits: left.crits, damage: left.hits + left.crits });
      const rerolled = red.filter((d) => d.rerolledFrom !== undefined);
      const stored = storedThrows(roll.sessionId).filter((t) => roll.throws.includes(t.index));
      expect(stored[0]?.rolls).toHaveLength(4);
      if (rerolled.length > 0) {
        sawReroll = true;
        expect(stored).toHaveLength(2);
        expect(stored[1]?.rolls.map((x) => x.channel).sort()).toEqual(rerolled.map((d) => d.channel).sort());
      } else expect(stored).toHaveLength(1);
    }
    expect(sawReroll).toBe(true);
  });

  it('reports a roll’s progress and answer by id, and 404 for one it does not know', async () => {
    const posted = await server.api('POST', '/api/rolls', { dice: '1 green', by: 'viewer' });
    expect([200, 202]).toContain(posted.status);
    expect(posted.headers.get('location')).toBe(`/api/rolls/${String(posted.json.id)}`);
    let view = posted.json;
    for (let i = 0; i < 50 && view.state !== 'done'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      view = (await server.api('GET', `/api/rolls/${String(posted.json.id)}`)).json;
    }
    expect(view).toMatchObject({ state: 'done', request: '1 green', by: 'viewer' });
    expect((await server.api('GET', '/api/rolls/nope')).status).toBe(404);
  });
});

describe('the chat URL', () => {
  it('answers one line of text with the roll, for the chat token in the query string', async () => {
    const r = await fetch(`${server.url}/api/chat/roll?dice=2+red&token=${CHAT_TOKEN}&by=someone`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await r.text();
    expect(text).toMatch(/^@someone 2 red: (hit|crit|focus|blank), (hit|crit|focus|blank) -> \d damage$/);
    expect(text).not.toContain('\n');
  });

  it('says so in a line for a wrong token, bad dice or dice not loaded', async () => {
    const wrong = await fetch(`${server.url}/api/chat/roll?dice=2+red&token=guess`);
    expect([wrong.status, await wrong.text()]).toEqual([401, 'Dice roller: wrong or missing chat token.']);
    const bad = await fetch(`${server.url}/api/chat/roll?dice=many&token=${CHAT_TOKEN}`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/^Dice roller: cannot read "many" as dice/);
    // A bot command typed with nothing after it sends no dice: the line says what to give.
    const none = await fetch(`${server.url}/api/chat/roll?dice=&token=${CHAT_TOKEN}`);
    expect([none.status, await none.text()]).toEqual([400, 'Dice roller: say which dice, e.g. "3 red" or "2d6".']);
    const d6 = await fetch(`${server.url}/api/chat/roll?dice=2d6&token=${CHAT_TOKEN}`);
    expect([d6.status, await d6.text()]).toEqual([422, 'Dice roller: cannot roll that: no d6 or direction die is loaded for the d6 dice asked for (the rig holds 2 red, 2 green).']);
  });
});

describe('names and dice from chat', () => {
  it('never make a second chat line or turn a line around: line breaks and terminal codes in a viewer’s name or dice become spaces, bidirectional overrides go', async () => {
    const s = await startTestServer({ limits: { chatPerMinute: 6000, chatBurst: 100 } });
    try {
      for (const query of ['dice=1+red&by=a%0A%1B%5B31mb%0D!ban%20x', 'dice=1+red%0A!ban+x', 'dice=1+red&by=%E2%80%AEnimda%C2%9B']) {
        const reply = await (await fetch(`${s.url}/api/chat/roll?${query}&token=${CHAT_TOKEN}`)).text();
        // eslint-disable-next-line no-control-regex
        expect(reply, query).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
      }
      const api = await s.api('POST', '/api/rolls', { dice: '1 red', by: 'a\nb\u0007c' });
      expect(api.json.by).toBe('a b c');
    } finally {
      await s.close();
    }
  });
});

describe('rate limits and the queue', () => {
  it('answers 429 with Retry-After once a client has spent its burst of rolls, and still lets it look at and cancel its rolls', async () => {
    const s = await startTestServer({ limits: { apiPerMinute: 6, apiBurst: 2 } });
    try {
      await s.controller.pause();
      const codes: number[] = [];
      let retry: string | null = null;
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await s.api('POST', '/api/rolls', { dice: '1 red' });
        codes.push(r.status);
        if (r.status === 202) ids.push((r.json as { id: string }).id);
        retry ??= r.headers.get('retry-after');
      }
      expect(codes).toEqual([202, 202, 429]);
      expect(Number(retry)).toBeGreaterThanOrEqual(1);
      // Looking and cancelling spend nothing: a bot polling its roll's Location is not locked out of rolling by it.
      for (let i = 0; i < 5; i++) expect((await s.api('GET', `/api/rolls/${ids[0]}`)).status).toBe(200);
      expect((await s.api('GET', '/api/rolls/none')).status).toBe(404);
      expect((await s.api('DELETE', `/api/rolls/${ids[1]}`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('rate-limits chat per token, answering in text with Retry-After', async () => {
    const s = await startTestServer({ limits: { chatPerMinute: 1, chatBurst: 1 }, chatWaitMs: 1 });
    try {
      await fetch(`${s.url}/api/chat/roll?dice=1+red&token=${CHAT_TOKEN}`);
      const r = await fetch(`${s.url}/api/chat/roll?dice=1+red&token=${CHAT_TOKEN}&by=viewer`);
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).toBe('60');
      expect(await r.text()).toBe('@viewer too many rolls asked from chat: try again in 60 s.');
      const anonymous = await fetch(`${s.url}/api/chat/roll?dice=1+red&token=${CHAT_TOKEN}`);
      expect(await anonymous.text()).toBe('Dice roller: too many rolls asked from chat: try again in 60 s.');
    } finally {
      await s.close();
    }
  });

  it('spends nothing from the chat rate limit on a roll it refuses, so a typo does not use up a viewer\'s next roll', async () => {
    const s = await startTestServer({ limits: { chatPerMinute: 1, chatBurst: 1 }, chatWaitMs: 1 });
    try {
      for (const dice of ['3+blue', '40+red']) expect((await fetch(`${s.url}/api/chat/roll?dice=${dice}&token=${CHAT_TOKEN}`)).status).toBe(400);
      expect((await fetch(`${s.url}/api/chat/roll?dice=1+red&token=${CHAT_TOKEN}`)).status).not.toBe(429);
      expect((await fetch(`${s.url}/api/chat/roll?dice=1+red&token=${CHAT_TOKEN}`)).status).toBe(429);
    } finally {
      await s.close();
    }
  });

  it('tells a chat bot the place in the queue, why it waits, and that the overlay will show the result when the roll is not done in time', async () => {
    const s = await startTestServer({ chatWaitMs: 1 });
    try {
      await s.controller.pause();
      const first = await fetch(`${s.url}/api/chat/roll?dice=1+red&token=${CHAT_TOKEN}`);
      const second = await fetch(`${s.url}/api/chat/roll?dice=2+green&token=${API_TOKEN}&by=bob`);
      expect(first.status).toBe(202);
      // Paused, so the rolls wait: the reply says so.
      const waits = ' \\(stream rolling is paused or stopped; the roll waits until it is started again\\)';
      expect(await first.text()).toMatch(new RegExp(`^Roll [0-9a-f]{10} \\(1 red\\) is number 1 in the queue${waits}; the overlay will show the result\\.$`));
      expect(await second.text()).toMatch(new RegExp(`^@bob Roll [0-9a-f]{10} \\(2 green\\) is number 2 in the queue${waits}; the overlay will show the result\\.$`));
    } finally {
      await s.close();
    }
  });

  it('refuses a chat user’s roll past their cap of waiting rolls, in the bot’s reply form, while another chat user may still ask', async () => {
    const s = await startTestServer({ limits: { chatPerMinute: 6000, chatBurst: 100 }, chatWaitMs: 1 });
    try {
      await s.controller.pause();
      const ask = async (by: string): Promise<[number, string]> => {
        const r = await fetch(`${s.url}/api/chat/roll?dice=1+red&by=${by}&token=${CHAT_TOKEN}`);
        return [r.status, await r.text()];
      };
      for (let i = 0; i < s.controller.maxWaitingPerChatUser; i++) expect((await ask('greedy'))[0]).toBe(202);
      const refused = await fetch(`${s.url}/api/chat/roll?dice=30+red&by=Greedy&token=${CHAT_TOKEN}`);
      expect([refused.status, refused.headers.get('retry-after'), await refused.text()]).toEqual([429, '10', `@Greedy you already have ${s.controller.maxWaitingPerChatUser} rolls waiting; wait for them first.`]);
      expect((await ask('other'))[0]).toBe(202);
      expect(s.controller.queue.size).toBe(s.controller.maxWaitingPerChatUser + 1);
    } finally {
      await s.close();
    }
  });

  it('lets a client that spent its rate limit still stop the rig and switch modes', async () => {
    const s = await startTestServer({ limits: { apiPerMinute: 1, apiBurst: 2 } });
    try {
      await s.controller.pause();
      for (let i = 0; i < 2; i++) expect((await s.api('POST', '/api/rolls', { dice: '1 red' })).status).toBe(202);
      expect((await s.api('POST', '/api/rolls', { dice: '1 red' })).status).toBe(429);
      const stop = await s.api('POST', '/api/run', { action: 'stop' });
      expect([stop.status, stop.json.run]).toEqual([200, 'paused']);
      expect((await s.api('POST', '/api/mode', { mode: 'stream' })).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('serves waiting clients in turn rather than in arrival order', async () => {
    const s = await startTestServer({ limits: { apiPerMinute: 6000, apiBurst: 1000 }, chatWaitMs: 1 });
    try {
      await s.controller.pause();
      const a = [];
      for (let i = 0; i < 3; i++) a.push((await s.api('POST', '/api/rolls', { dice: '1 red', by: `a${i}` })).json.id);
      const c = await fetch(`${s.url}/api/chat/roll?dice=1+green&token=${CHAT_TOKEN}&by=chat`);
      expect(await c.text()).toMatch(/is number 2 in the queue/);
      const state = (await s.api('GET', '/api/state')).json as { queue: { by: string }[] };
      expect(state.queue.map((q) => q.by)).toEqual(['a0', 'chat', 'a1', 'a2']);
      expect(a).toHaveLength(3);
    } finally {
      await s.close();
    }
  });
});

describe('modes and the live stream', () => {
  it('gives a new live client the state first, then the events of a roll in order', async () => {
    const live = await liveClient(server.url);
    try {
      const first = await live.next(() => true);
      expect(first).toMatchObject({ type: 'state', mode: 'stream', epoch: server.hub.epoch });
      const posted = await server.api('POST', '/api/rolls', { dice: '1 red, 1 green' });
      const id = String(posted.json.id);
      await live.next((m) => m.type === 'throw-started' && m.rollId === id);
      const read = await live.next((m) => m.type === 'die-read' && m.rollId === id && m.counted === true);
      expect(read).toMatchObject({ status: 'read', confidence: expect.any(Number), crop: expect.stringMatching(/^\/live\/crop\/\d+\/\d+\.png$/) });
      await live.next((m) => m.type === 'throw' && m.rollId === id);
      const done = (await live.next((m) => m.type === 'roll' && (m.roll as { id: string; state: string }).id === id && (m.roll as { state: string }).state === 'done')) as { roll: { line: string } };
      expect(done.roll.line).toMatch(/^1 red: \w+ -> \d damage; 1 green: \w+ -> \d evades?$/);
      const crop = await fetch(`${server.url}${String(read.crop)}`);
      expect(crop.headers.get('content-type')).toBe('image/png');
    } finally {
      live.close();
    }
  });

  it('switches to a fairness run and back: the run stores its throws in a fairness session, rolls asked meanwhile wait, then roll', async () => {
    const live = await liveClient(server.url);
    try {
      expect((await server.api('POST', '/api/mode', { mode: 'fairness' })).json).toMatchObject({ mode: 'fairness' });
      expect((await server.api('POST', '/api/run', { action: 'start' })).json).toMatchObject({ mode: 'fairness', run: 'running' });
      const thr = await live.next((m) => m.type === 'throw' && m.mode === 'fairness');
      expect(thr.dice).toHaveLength(4);
      const waiting = await server.api('POST', '/api/rolls', { dice: '1 red' });
      expect(waiting.json).toMatchObject({ state: 'queued', note: 'the rig is running a fairness test; the roll waits until stream rolling is on' });
      const paused = await server.api('POST', '/api/run', { action: 'pause' });
      expect(paused.json).toMatchObject({ mode: 'fairness', run: 'paused' });
      const state = (await server.api('GET', '/api/state')).json as { fairnessSession: number; dice: { rolls: number; trace: unknown[] }[]; totals: { throws: number } };
      expect(state.totals.throws).toBeGreaterThan(0);
      const store = RollStore.open(join(server.dir, 'rolls.db'), { mustExist: true });
      const session = store.getSession(state.fairnessSession);
      const counts = store.counts(state.fairnessSession);
      store.close();
      expect(session).toMatchObject({ kind: 'fairness', state: 'stopped' });
      expect(counts.throws).toBe(state.totals.throws);
      expect(state.dice[0]?.trace.length).toBeGreaterThan(0);
      await server.api('POST', '/api/mode', { mode: 'stream' });
      const done = await live.next((m) => m.type === 'roll' && (m.roll as { id: string }).id === waiting.json.id && (m.roll as { state: string }).state === 'done');
      expect(done).toBeDefined();
    } finally {
      live.close();
    }
  });
});

describe('pages and files', () => {
  it('sends a Content-Security-Policy with the pages, and serves only the app folder’s files', async () => {
    for (const path of ['/', '/overlay', '/static/overlay.js']) {
      const r = await fetch(`${server.url}${path}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    }
    const pkg = readFileSync('package.json', 'utf8');
    for (const path of ['/static/../../../package.json', '/static/%2e%2e/%2e%2e/package.json', '/static/..%2f..%2fpackage.json', '/package.json', '/static/public/dashboard.html', '/static/']) {
      const r = await fetch(`${server.url}${path}`);
      const body = await r.text();
      expect(r.status, path).toBe(404);
      expect(body).not.toContain(pkg.slice(0, 40));
    }
  });
});

describe('binding', () => {
  it('refuses a network address without an API token before opening the rig', async () => {
    await expect(
      serve({ config: simServeConfig('xwing', { clock: 'simulated' }), dbPath: ':memory:', host: '0.0.0.0', port: 0, tokens: { chat: CHAT_TOKEN } }),
    ).rejects.toThrow(InputError);
  });

  it('refuses a port already in use in one line, before any store is made', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dicerig-port-'));
    const port = Number(new URL(server.url).port);
    const e = await serve({ config: simServeConfig('xwing', { clock: 'simulated' }), dbPath: join(dir, 'rolls.db'), host: '127.0.0.1', port, tokens: { api: API_TOKEN } }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(InputError);
    expect((e as InputError).message).toBe(`--port ${port}: 127.0.0.1:${port} is already in use: something is listening there (another dicerig serve?); stop it, or give --port 0 for a free port`);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('a rig loaded with D6s and a direction die', () => {
  let d6: TestServer;
  beforeAll(async () => {
    d6 = await startTestServer({ dice: 'd6', limits: { apiPerMinute: 6000, apiBurst: 1000 } });
  });
  afterAll(async () => {
    await d6?.close();
  });

  it('rolls 2d6 and a D3 (a D6 halved) with totals', async () => {
    const r = (await d6.api('POST', '/api/rolls?wait=10', { dice: '2d6, d3' })).json as unknown as { dice: Die[] & { value?: number }[]; result: Record<string, number>; line: string };
    const values = r.dice.map((d) => Number(d.symbol));
    expect(r.dice.map((d) => d.kind)).toEqual(['d6', 'd6', 'd3']);
    expect(values[2]).toBeLessThanOrEqual(3);
    expect(r.result).toEqual({ d6Total: (values[0] as number) + (values[1] as number), d3Total: values[2] });
  });

  it('rolls four 9th Age dice at 4+ rerolling failures: the reroll throw reads only the failed dice, and the successes are counted from the final dice', async () => {
    let sawReroll = false;
    for (let attempt = 0; attempt < 8 && !sawReroll; attempt++) {
      const r = (await d6.api('POST', '/api/rolls?wait=10', { t9a: { dice: 4, target: '4+', reroll: 'failures' } })).json as unknown as {
        dice: (Die & { group: string })[];
        result: Record<string, number>;
        throws: number[];
        sessionId: number;
      };
      expect(r.dice).toHaveLength(4);
      const rerolled = r.dice.filter((d) => d.rerolledFrom !== undefined);
      for (const d of rerolled) expect(Number(d.rerolledFrom)).toBeLessThan(4);
      for (const d of r.dice.filter((x) => x.rerolledFrom === undefined)) expect(Number(d.symbol)).toBeGreaterThanOrEqual(4);
      expect(r.result.successes).toBe(r.dice.filter((d) => Number(d.symbol) >= 4).length);
      const store = RollStore.open(join(d6.dir, 'rolls.db'), { mustExist: true });
      const rows = new Map<number, number>();
      for (const x of store.countedRolls(r.sessionId)) if (r.throws.includes(x.throwIndex)) rows.set(x.throwIndex, (rows.get(x.throwIndex) ?? 0) + 1);
      store.close();
      // Three D6 channels and a direction die (a D6 with pips): the four dice take one throw; the reroll one more, reading only the failed dice.
      const sizes = r.throws.map((t) => rows.get(t) ?? 0);
      expect(sizes).toEqual(rerolled.length > 0 ? [4, rerolled.length] : [4]);
      if (rerolled.length > 0) sawReroll = true;
    }
    expect(sawReroll).toBe(true);
  });

  it('rolls the rugby fumble on the direction die until it lands in an allowed direction', async () => {
    const r = (await d6.api('POST', '/api/rolls?wait=10', { fumble: { exclude: [1, 2, 3] } })).json as unknown as { dice: (Die & { kept: boolean })[]; result: Record<string, number> };
    const last = r.dice.at(-1);
    expect(last?.kind).toBe('direction');
    expect(last?.channel).toBe(3);
    expect([4, 5, 6]).toContain(r.result.direction);
    expect(r.dice.slice(0, -1).every((d) => !d.kept && [1, 2, 3].includes(Number(d.symbol)))).toBe(true);
  });

  it('refuses X-Wing dice it does not hold', async () => {
    const r = await d6.api('POST', '/api/rolls', { attack: { red: 2 } });
    expect([r.status, r.json.error]).toEqual([422, 'cannot roll this with the loaded dice: no red die is loaded for the red dice asked for (the rig holds 3 d6, 1 direction)']);
  });
});

describe('re-tumbles on stream', () => {
  it('re-tumbles a throw with a cocked die, stores it as rerolled with its reason, tells the live stream, and answers only from the throw that counted', async () => {
    const s = await startTestServer({ cockedRate: 0.2, seed: 3 });
    const live = await liveClient(s.url);
    try {
      let r: { state: string; throws: number[]; sessionId: number; dice: Die[] } | undefined;
      let retumble: Record<string, unknown> | undefined;
      for (let i = 0; i < 8 && retumble === undefined; i++) {
        r = (await s.api('POST', '/api/rolls?wait=10', { dice: '2 red, 2 green' })).json as unknown as { state: string; throws: number[]; sessionId: number; dice: Die[] };
        expect(r.state).toBe('done');
        retumble = live.messages.find((m) => m.type === 'retumble' && m.mode === 'stream');
      }
      if (r === undefined || retumble === undefined) throw new Error('no throw was re-tumbled in 8 rolls at a 20 % cocked rate');
      expect(String(retumble.reason)).toMatch(/^Re-tumbled: .*cocked/);
      const store = RollStore.open(join(s.dir, 'rolls.db'), { mustExist: true });
      const stored = store.throwTimes(r.sessionId).length;
      const events = store.events(r.sessionId).filter((e) => e.kind === 'cocked');
      const counted = [...store.countedRolls(r.sessionId)];
      const okThrows = new Set(counted.map((x) => x.throwIndex)).size;
      store.close();
      expect(stored).toBeGreaterThan(okThrows);
      expect(events.length).toBeGreaterThan(0);
      // The answer's dice are the counted rolls of its one ok throw.
      expect(counted.filter((x) => r.throws.includes(x.throwIndex)).map((x) => `${x.channel}:${x.symbol}`).sort()).toEqual(r.dice.map((d) => `${d.channel}:${d.symbol}`).sort());
    } finally {
      live.close();
      await s.close();
    }
  });
});
