/**
 * The dashboard, in Debian's Chromium, when stream rolling stops because no die was read in
 * `stopping.maxConsecutiveUnread` throws in a row (a reader that reads nothing: here the simulated reader declines
 * every face): the streamer sees that it stopped and why, also on a page opened afterwards, until Start.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { pagesBrowser, type PagesBrowser } from '../support/pagesBrowser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unreadingD6Config } from './support/unreadingServe.js';
import { API_TOKEN, startTestServer, type TestServer } from '../server/support/testServer.js';

let server: TestServer;
let browser: PagesBrowser;
const problems: string[] = [];

beforeAll(async () => {
  const config = unreadingD6Config();
  server = await startTestServer({ config, dir: mkdtempSync(join(tmpdir(), 'dicerig-serve-unread-e2e-')), limits: { apiPerMinute: 6000, apiBurst: 1000 } });
  browser = await pagesBrowser();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function dashboard(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${server.url}/#token=${API_TOKEN}`);
  await expect.poll(() => page.locator('#mode-now').textContent()).toBe('stream rolling');
  return page;
}

describe('the dashboard when stream rolling stops because no die is read', { timeout: 90_000 }, () => {
  it('says rolling stopped and why, on the page open then and on one opened later, until Start clears it', async () => {
    const open = await dashboard();
    expect(await open.locator('#run-reason').isHidden()).toBe(true);
    // The API waits 10 s at most; four throws read by a loaded machine have taken longer: then asked again until done.
    let failed = await server.api('POST', '/api/rolls?wait=10', { dice: '1d6' });
    for (let i = 0; i < 600 && ['queued', 'rolling'].includes(String(failed.json.state)); i++) {
      await new Promise((r) => setTimeout(r, 100));
      failed = await server.api('GET', `/api/rolls/${String(failed.json.id)}`);
    }
    expect(failed.json.state).toBe('failed');
    const why = String(failed.json.error);
    expect(why).toMatch(/^No die was read in 4 throws in a row: .* then press Start on the dashboard/);
    for (const page of [open, await dashboard()]) {
      await expect.poll(() => page.locator('#run-now').textContent()).toBe('(stopped)');
      expect(await page.locator('#run-reason').isVisible()).toBe(true);
      expect(await page.locator('#run-reason').textContent()).toBe(why);
    }
    await open.locator('#start').click();
    await expect.poll(() => open.locator('#run-reason').isHidden()).toBe(true);
    expect(await open.locator('#run-now').textContent()).toBe('(ready)');
    expect(problems).toEqual([]);
  });
});
