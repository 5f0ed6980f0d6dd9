/**
 * The review page typed at a person's speed while the store is slow to answer (a big store took ~1.3 s a label):
 * each digit labels the next card, none reaches a card whose label is still on its way, and nothing is refused.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pagesBrowser, type PagesBrowser } from '../support/pagesBrowser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliServer, stopCliServer } from './support/cliServer.js';
import { RollStore } from '../../src/store/rollStore.js';
import { declinedCopy, declinedDemo } from './support/declinedCopy.js';

const dir = mkdtempSync(join(tmpdir(), 'dicerig-review-fast-'));
let browser: PagesBrowser;
let server: ChildProcess | undefined;

beforeAll(async () => {
  browser = await pagesBrowser();
  // The demo session the test labels a copy of, made before it (or by another file of the run).
  await declinedDemo();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (server) await stopCliServer(server);
  rmSync(dir, { recursive: true, force: true });
});

describe('the review page typed fast', () => {
  it('labels one card a digit, in order, while each label takes the store most of a second, with no label refused', async () => {
    const db = await declinedCopy(dir);
    const started = await startCliServer(['review', '1', '--db', db, '--port', '0', '--reviewer', 'Ada'], { timeoutMs: 30_000 });
    server = started.proc;
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // Each label held back before it reaches the server, as a slow store holds its answer.
    await page.route('**/api/rolls/*/label', async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await page.goto(`${started.url}/`);
    await page.waitForSelector('body[data-ready="true"]');
    const ids = await page.locator('#grid .crop').evaluateAll((cs) => cs.map((c) => Number((c as unknown as { dataset: { roll: string } }).dataset.roll)));
    expect(ids.length).toBeGreaterThanOrEqual(3);
    await page.keyboard.press('1');
    // The first card says its label is on its way, and is shut to keys and clicks.
    const first = page.locator(`.crop[data-roll="${ids[0]}"]`);
    expect(await first.getAttribute('class')).toContain('saving');
    expect(await first.locator('.label').textContent()).toBe('saving 1…');
    expect(await first.locator('.faces button').first().isDisabled()).toBe(true);
    await page.keyboard.press('2');
    await page.keyboard.press('3');
    await expect.poll(() => page.locator('.crop.labelled').count(), { timeout: 15_000 }).toBe(3);
    const store = RollStore.open(db, { readonly: true });
    try {
      expect(store.reviews(1).map((r) => [r.rollId, r.faceId]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
        [ids[0], '1'],
        [ids[1], '2'],
        [ids[2], '3'],
      ]);
    } finally {
      store.close();
    }
    expect(await page.locator('#message').textContent()).toBe('');
    expect(await page.locator(`.crop[data-roll="${ids[1]}"] .label`).textContent()).toBe('labelled 2 by Ada');
    expect(errors).toEqual([]);
  }, 90_000);
});
