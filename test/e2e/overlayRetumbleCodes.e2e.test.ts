/**
 * How the OBS overlay, in Debian's Chromium, tells viewers why a throw is tumbled again: from the code the server
 * sends in its `retumble` event (never by parsing the server's words, which are for the log), marking each die
 * concerned as the server judged it. The page is driven by the events a roll under way sends, published through a
 * real `serve`'s live hub, so a sequence the simulated rig seldom makes (a die declined, then read again from a later
 * frame of the same throw and called cocked) is shown exactly.
 */
import type { Page } from 'playwright-core';
import { pagesBrowser, type PagesBrowser } from '../support/pagesBrowser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server/support/testServer.js';

let server: TestServer;
let browser: PagesBrowser;
const problems: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  await server.controller.pause();
  browser = await pagesBrowser();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

let rolls = 0;

/** The overlay showing a roll of `n` red dice under way (channels 0..n-1), as its `roll` event shows it. */
async function rollingOverlay(n: number): Promise<{ page: Page; rollId: string }> {
  const page = await browser.newPage({ viewport: { width: 900, height: 420 } });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${server.url}/overlay`);
  await expect.poll(() => page.locator('#overlay').getAttribute('data-state')).toBeTruthy();
  const rollId = `r${++rolls}`;
  const partial = Array.from({ length: n }, (_, channel) => ({ channel, label: `sim-red-${channel + 1}`, type: 'red', kind: 'red', pending: true }));
  server.hub.publish({ type: 'roll', roll: { id: rollId, state: 'rolling', request: `${n} red`, createdAt: 0, dice: [], partial, throws: [], evidence: `/api/rolls/${rollId}/evidence` } });
  await expect.poll(() => page.locator('#overlay').getAttribute('data-roll')).toBe(rollId);
  return { page, rollId };
}

const dieRead = (rollId: string, frame: number, channel: number, status: string, symbol?: string): Record<string, unknown> & { type: string } => ({
  type: 'die-read',
  at: 0,
  frame,
  mode: 'stream',
  rollId,
  channel,
  counted: true,
  label: `sim-red-${channel + 1}`,
  dieType: 'red',
  status,
  ...(symbol !== undefined ? { symbol, kind: 'red', shows: symbol } : {}),
  confidence: status === 'read' ? 0.99 : 0,
  crop: `/live/crop/${frame}/${channel}.png`,
});

async function slots(page: Page): Promise<{ status: string | null; note: string; declined: boolean }[]> {
  return (await page.evaluate(`[...document.querySelectorAll('#dice .die-slot')].map((s) => ({ status: s.dataset.status ?? null, note: s.querySelector('.note').textContent, declined: s.classList.contains('declined') }))`)) as {
    status: string | null;
    note: string;
    declined: boolean;
  }[];
}

describe('a throw tumbled again on the overlay', { timeout: 60_000 }, () => {
  it('shows a die declined and then called cocked in the same throw as cocked, as a die called cocked at once', async () => {
    const { page, rollId } = await rollingOverlay(2);
    server.hub.publish(dieRead(rollId, 1, 0, 'unreadable'));
    server.hub.publish(dieRead(rollId, 1, 1, 'read', 'hit'));
    // Read again from a later frame of the same throw, the declined die is called cocked.
    server.hub.publish(dieRead(rollId, 2, 0, 'cocked'));
    await expect.poll(async () => (await slots(page))[0]?.note).toBe('cocked');
    server.hub.publish({ type: 'retumble', mode: 'stream', at: 0, rollId, index: 4, status: 'rerolled', reason: 'Re-tumbled: sim-red-1 (channel 0) cocked: …', code: 'cocked', dice: [{ channel: 0, code: 'cocked' }] });
    await expect.poll(() => page.locator('#result').textContent()).toBe('rolling again: a die is cocked');
    expect(await slots(page)).toEqual([
      { status: 'cocked', note: 'cocked', declined: true },
      { status: 'read', note: '', declined: false },
    ]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('marks a die as the server judged its throw, even when its first reading said otherwise', async () => {
    const { page, rollId } = await rollingOverlay(1);
    server.hub.publish(dieRead(rollId, 3, 0, 'unreadable'));
    server.hub.publish({ type: 'retumble', mode: 'stream', at: 0, rollId, index: 5, status: 'rerolled', reason: 'Re-tumbled: …', code: 'cocked', dice: [{ channel: 0, code: 'cocked' }] });
    await expect.poll(() => page.locator('#result').textContent()).toBe('rolling again: a die is cocked');
    expect(await slots(page)).toEqual([{ status: 'cocked', note: 'cocked', declined: true }]);
    expect(problems).toEqual([]);
    await page.close();
  });

  for (const [code, words] of [
    ['shadow', 'a die is lost in its shadow'],
    ['touching', 'dice are touching'],
    ['missing', 'a die was not found'],
    ['interrupted', 'that throw was interrupted'],
  ] as const) {
    it(`words the reason from its code (${code}: "${words}"), whatever words the server gave it`, async () => {
      const { page, rollId } = await rollingOverlay(1);
      server.hub.publish(dieRead(rollId, 6, 0, 'read', 'focus'));
      // The server's words are for the log and the result line's title: here they name none of the causes.
      const reason = 'Nouvelle tentative : voir le journal';
      server.hub.publish({ type: 'retumble', mode: 'stream', at: 0, rollId, index: 6, status: code === 'interrupted' ? 'void' : 'rerolled', reason, code, dice: code === 'interrupted' ? [] : [{ channel: 0, code }] });
      await expect.poll(() => page.locator('#result').textContent()).toBe(`rolling again: ${words}`);
      expect(await page.locator('#result').getAttribute('title')).toBe(reason);
      expect(problems).toEqual([]);
      await page.close();
    });
  }

});
