/**
 * A failed roll on the OBS overlay, in Debian's Chromium: viewers see a short line saying the roll failed, never the
 * server's message for the streamer (here the stop after throws with no die read, which names the dashboard's
 * button and an API call with its JSON body); that message stays on the result line's title.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { pagesBrowser, type PagesBrowser } from '../support/pagesBrowser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unreadingD6Config } from './support/unreadingServe.js';
import { startTestServer, type TestServer } from '../server/support/testServer.js';

const dir = mkdtempSync(join(tmpdir(), 'dicerig-overlay-failed-e2e-'));
let server: TestServer;
let browser: PagesBrowser;
const problems: string[] = [];

beforeAll(async () => {
  // A reader that declines every face: after four throws with no die read the roll fails and stream rolling stops.
  const config = unreadingD6Config();
  server = await startTestServer({ config, dir, limits: { apiPerMinute: 6000, apiBurst: 1000 } });
  browser = await pagesBrowser();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function overlay(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 800, height: 400 } });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${server.url}/overlay`);
  await expect.poll(() => page.locator('#overlay').getAttribute('data-state')).toBeTruthy();
  return page;
}

describe('a failed roll on the overlay', { timeout: 90_000 }, () => {
  it('says in a short line that the roll failed, the server\'s message only in the title', async () => {
    const open = await overlay();
    const failed = await server.api('POST', '/api/rolls?wait=10', { dice: '1d6' });
    expect(failed.json.state).toBe('failed');
    const why = String(failed.json.error);
    expect(why).toContain('{"action": "start"}');
    await expect.poll(() => open.locator('#overlay').getAttribute('data-state')).toBe('failed');
    expect(await open.locator('#result').textContent()).toBe('failed: the rig could not finish this roll');
    expect(await open.locator('#result').getAttribute('title')).toBe(why);
    expect(problems).toEqual([]);
  });
});
