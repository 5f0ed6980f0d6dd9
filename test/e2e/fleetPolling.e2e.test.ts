/**
 * The fleet page's polls over a real PostgreSQL fleet store, `dicerig serve --db URL` and Debian's Chromium: the
 * state endpoint answers an unchanged state with 304 and no body (If-None-Match against its ETag), and a changed
 * one with 200 and the new state; the page asks that way, so its polls of an idle fleet download nothing, and it
 * still shows new throws when they arrive and moves its "updated" time on with each read.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/runCli.js';
import { okThrow, storeWithSession } from '../store/support/fixtures.js';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';
import { startCliServer, stopCliServer } from './support/cliServer.js';
import { pagesBrowser, type PagesBrowser } from '../support/pagesBrowser.js';


const dir = mkdtempSync(join(tmpdir(), 'dicerig-fleet-poll-'));
let pg: ScratchPostgres;
let child: ChildProcess | undefined;
let browser: PagesBrowser | undefined;
let base: string;
let store: ReturnType<typeof storeWithSession>['store'];
let addThrows: (from: number, to: number) => void;
let sync: () => Promise<void>;

beforeAll(async () => {
  pg = await startScratchPostgres();
  const url = await pg.createDatabase('poll');
  const local = join(dir, 'rig.db');
  const made = storeWithSession(local);
  store = made.store;
  addThrows = (from, to) =>
    store.atomically(() => {
      for (let i = from; i <= to; i++) store.recordThrow(made.session.id, okThrow(i, made.dice));
    });
  sync = async () => {
    const r = await runCli('sync', '--db', local, '--to', url, '--quiet');
    expect(r.code, r.err).toBe(0);
  };
  addThrows(1, 20);
  await sync();
  const server = await startCliServer(['serve', '--db', url, '--port', '0', '--poll', '250'], { timeoutMs: 60_000, urlPattern: /dashboard +(http:\/\/127\.0\.0\.1:\d+)\// });
  child = server.proc;
  base = server.url;
  // The worker's shared Chromium (test/support/pagesBrowser.ts): a launch of its own cost over a second of CPU.
  browser = await pagesBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stopCliServer(child);
  store?.close();
  await pg?.remove();
  rmSync(dir, { recursive: true, force: true });
});

interface State {
  readAt: number;
  sessions: { id: number; throwCount: number; verdicts?: { throwsThen: number } | null }[];
}

describe('the fleet state endpoint (GET /api/fleet) with If-None-Match', () => {
  it('answers 304 with no body while nothing changed, and 200 with the new state and another ETag once a throw arrives', async () => {
    const first = await fetch(`${base}/api/fleet`);
    expect(first.status).toBe(200);
    const tag = first.headers.get('etag');
    expect(tag).toMatch(/^W\/"[\w-]+"$/);
    const state = (await first.json()) as State;
    expect(state.sessions.map((s) => s.throwCount)).toEqual([20]);

    // Later reads of the store (every 250 ms) find the same fleet: 304, empty, with the time of the latest read.
    await new Promise((r) => setTimeout(r, 600));
    const same = await fetch(`${base}/api/fleet`, { headers: { 'if-none-match': tag as string } });
    expect(same.status).toBe(304);
    expect(await same.text()).toBe('');
    expect(same.headers.get('etag')).toBe(tag);
    expect(Number(same.headers.get('x-fleet-read-at'))).toBeGreaterThan(state.readAt);
    // A tag the server never gave is answered in full.
    expect((await fetch(`${base}/api/fleet`, { headers: { 'if-none-match': 'W/"other"' } })).status).toBe(200);

    addThrows(21, 25);
    await sync();
    await expect.poll(async () => (await fetch(`${base}/api/fleet`, { headers: { 'if-none-match': tag as string } })).status, { timeout: 10_000 }).toBe(200);
    const changed = await fetch(`${base}/api/fleet`, { headers: { 'if-none-match': tag as string } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(tag);
    expect(((await changed.json()) as State).sessions.map((s) => s.throwCount)).toEqual([25]);
  });
});

describe('the fleet page polling an idle, then a changing fleet', () => {
  it('is answered 304 while nothing changes, moves its "updated" time on, and shows new throws when they arrive', async () => {
    // The throws the test above synced are listed at once, but the report behind their row is remade up to 6 polls
    // later (FleetView's remakeMs): a page opened before then saw the state change twice (a flake on a fast run).
    await expect.poll(async () => ((await (await fetch(`${base}/api/fleet`)).json()) as State).sessions.every((x) => x.verdicts?.throwsThen === x.throwCount), { timeout: 10_000 }).toBe(true);
    const page = await (browser as PagesBrowser).newPage({ viewport: { width: 1400, height: 900 } });
    const statuses: number[] = [];
    page.on('response', (r) => void (new URL(r.url()).pathname === '/api/fleet' && statuses.push(r.status())));
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-ready="true"]');
    const throws = page.locator('[data-session="1"] [data-col="throws"]');
    const before = await throws.innerText();
    const updated = await page.locator('#updated').innerText();

    // Several polls of an unchanged fleet (every 250 ms): each after the first answered 304.
    await expect.poll(() => statuses.filter((s) => s === 304).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
    expect(statuses[0]).toBe(200);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    // The store is still read, and the page says when: the time moves on though the state did not change.
    await expect.poll(() => page.locator('#updated').innerText(), { timeout: 5_000 }).not.toBe(updated);
    expect(await page.locator('#connection-state').innerText()).toBe('live');

    const n = Number(before.replace(/,/g, ''));
    addThrows(n + 1, n + 10);
    await sync();
    await expect.poll(() => throws.innerText(), { timeout: 10_000 }).toBe(String(n + 10));
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
    await page.close();
  }, 60_000);
});
