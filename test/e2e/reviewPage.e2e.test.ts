/**
 * The review page in Debian's Chromium where a person's day goes wrong: keys that belong to the browser, the
 * server stopped under an open page, two tabs labelling the same session, and a key that is no face.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliServer, stopCliServer } from './support/cliServer.js';
import { RollStore } from '../../src/store/rollStore.js';
import { declinedSession } from '../server/support/reviewSession.js';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const dir = mkdtempSync(join(tmpdir(), 'dicerig-review-page-'));
const children: ChildProcess[] = [];
let browser: Browser;

/** A demo session with declined dice in a folder of its own, and `dicerig review` of it started; its URL. */
async function reviewed(name: string): Promise<{ db: string; url: string; proc: ChildProcess }> {
  const db = declinedSession(mkdtempSync(join(dir, `${name}-`)));
  const server = await startCliServer(['review', '1', '--db', db, '--port', '0', '--reviewer', 'Ada'], { timeoutMs: 30_000 });
  children.push(server.proc);
  return { db, url: server.url, proc: server.proc };
}

/** The page opened and ready, with its page errors collected in `errors`. */
async function open(url: string, errors: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${url}/`);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

function stored<T>(db: string, read: (store: RollStore) => T): T {
  const store = RollStore.open(db, { readonly: true });
  try {
    return read(store);
  } finally {
    store.close();
  }
}

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
});

afterAll(async () => {
  await browser?.close();
  for (const c of children) await stopCliServer(c);
  rmSync(dir, { recursive: true, force: true });
});

describe('the review page when things go wrong', () => {
  it('leaves a digit pressed with Ctrl, Alt or Meta to the browser, and says of any digit key that is no face of the die that it is none', async () => {
    const { db, url } = await reviewed('keys');
    const errors: string[] = [];
    const page = await open(url, errors);
    for (const key of ['Control+1', 'Alt+2', 'Meta+3', 'Control+0']) await page.keyboard.press(key);
    // A key the page does take, after them: had they labelled, it would be seen by now.
    await page.keyboard.press('7');
    await expect.poll(() => page.locator('#message').textContent()).toBe('A d6 die has no face number 7.');
    await page.keyboard.press('9');
    await expect.poll(() => page.locator('#message').textContent()).toBe('A d6 die has no face number 9.');
    expect(await page.locator('.crop.labelled').count()).toBe(0);
    expect(stored(db, (s) => s.reviews(1))).toEqual([]);
    expect(errors).toEqual([]);
  }, 90_000);
});
