/**
 * The OBS overlay in the cases a streamer meets by accident, on `dicerig serve --sim` in Debian's Chromium: the page
 * opened while a roll is under way, a history count in the address that is not a number, and a viewer's name made to
 * turn the text around it backwards (a U+202E right-to-left override).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimServePages, TOKEN, type SimServePages } from './support/simServePages.js';

const dir = mkdtempSync(join(tmpdir(), 'dicerig-overlay-edges-e2e-'));
let pages: SimServePages;
const ids: string[] = [];
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

beforeAll(async () => {
  pages = await startSimServePages(dir);
  // Two rolls of about 2 s each, then one of eight reds (four throws of the rig's two red channels, some 8 s): the
  // first test opens its page once the last is under way, so the page finds it rolling however slowly it opens
  // (with three rolls of 2 s, a loaded machine had finished them all before the page connected).
  for (let i = 0; i < 3; i++) ids.push(await pages.queueRoll({ dice: i < 2 ? '2 red' : '8 red', by: `\u202Eviewer${i}\u2066` }));
}, 90_000);

/** The roll's state as the API tells it. */
const stateOf = async (id: string | undefined): Promise<string | undefined> =>
  ((await fetch(`${pages.url}/api/rolls/${id}`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.json())) as { state?: string }).state;

afterAll(async () => {
  await pages?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the overlay', { timeout: 120_000 }, () => {
  it('shows a roll under way when it opens as rolling now, at full strength, not as an earlier roll', async () => {
    await expect.poll(() => stateOf(ids[2]), { timeout: 60_000, interval: 100 }).toBe('rolling');
    const page = await pages.open('/overlay', { width: 800, height: 420 });
    await expect.poll(() => page.locator('#overlay').getAttribute('data-roll')).toBe(ids[2]);
    const seen = (await page.evaluate(`(() => {
      const current = document.getElementById('current');
      return { state: document.getElementById('overlay').dataset.state, stale: current.classList.contains('stale'),
        opacity: getComputedStyle(current).opacity, after: getComputedStyle(document.getElementById('result'), '::after').content,
        result: document.getElementById('result').innerText, who: document.getElementById('who').innerText };
    })()`)) as { state: string; stale: boolean; opacity: string; after: string; result: string; who: string };
    expect(seen).toMatchObject({ state: 'rolling', stale: false, opacity: '1', result: 'rolling…' });
    expect(['none', 'normal']).toContain(seen.after);
    expect(seen.who).toBe('viewer2');
    await page.screenshot({ path: join(dir, 'overlay-opened-mid-roll.png') });
  });

  it('lists the default five earlier rolls when the history count in the address is not a number', async () => {
    await expect.poll(() => stateOf(ids[2]), { timeout: 30_000 }).toBe('done');
    const page = await pages.open('/overlay?history=abc', { width: 800, height: 420 });
    await expect.poll(() => page.locator('#overlay').getAttribute('data-roll')).toBe(ids[2]);
    await expect.poll(() => page.locator('#history li').evaluateAll((lis) => lis.map((li) => (li as unknown as { dataset: { roll: string } }).dataset.roll))).toEqual([ids[1], ids[0]]);
  });

  it('shows a viewer\'s name without its bidi controls, isolated from the request and result beside it', async () => {
    const page = await pages.open('/overlay', { width: 800, height: 420 });
    await expect.poll(() => page.locator('#overlay').getAttribute('data-roll')).toBe(ids[2]);
    expect(await page.locator('#who').textContent()).toBe('viewer2');
    const items = await page.locator('#history li').evaluateAll((lis) => lis.map((li) => ({ text: li.textContent ?? '', name: li.querySelector('bdi')?.textContent ?? null })));
    expect(items.map((i) => i.name)).toEqual(['viewer1', 'viewer0']);
    for (const i of items) {
      expect(i.text).not.toMatch(BIDI);
      expect(i.text).toMatch(/^viewer\d: 2 red → \d+ damage$/);
    }
    expect(pages.problems).toEqual([]);
  });
});
