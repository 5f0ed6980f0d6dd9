/**
 * A fairness run on `dicerig serve` with a D6 whose 6 is a logo the pip counter cannot read, watched on the dashboard
 * in Debian's Chromium: once the reader has plainly never read a 6, the die's "Still needed" cell says so instead of
 * a count of rolls (FAIR_WITHIN is out of reach without a review), the event log carries the notice, and a reloaded
 * page still shows it (it is part of the server's state, not only a passing event). Labels given on the review page
 * meanwhile (`dicerig review`, another process on the same store) are taken in by the run.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { startCliServer, stopCliServer } from './support/cliServer.js';
import { openFairnessDashboard, type FairnessDashboard } from './support/fairnessDashboard.js';

const TOKEN = 'e2e-api-token-unreadable-0123456789';

const dir = mkdtempSync(join(tmpdir(), 'dicerig-unreadable-e2e-'));
let opened: FairnessDashboard | undefined;
let reviewChild: ChildProcess | undefined;

afterAll(async () => {
  await stopCliServer(reviewChild);
  await opened?.close();
  rmSync(dir, { recursive: true, force: true });
});

// Three plain D6s and one whose 6 is drawn as a logo; no D6 check, so nothing reads the logo.
const CONFIG = `name: logo-die-e2e
seed: 11
dice:
  - { label: plain-A, type: d6 }
  - { label: logo-B, type: d6, simulatedLogo: "6" }
  - { label: plain-C, type: d6 }
  - { label: plain-D, type: d6 }
rig: { driver: sim }
camera: { source: sim, lighting: studio }
stopping: { alpha: 0.01, delta: 0.05, budgetRolls: 3000 }
`;

const needed = (page: Page, label: string) => page.locator(`#dice-table tr[data-die="${label}"] [data-col="needed"]`);

describe('the dashboard with a die whose face the reader never reads', { timeout: 180_000 }, () => {
  it('says "no 6 read" in the die\'s Still needed cell and logs the notice, while the plain dice show rolls still needed; a reloaded page still says it; labels given meanwhile on the review page are taken in by the run', async () => {
    opened = await openFairnessDashboard(dir, CONFIG, TOKEN);
    const { page, problems } = opened;

    // About 90 rolls without a 6 read make it plain (a fair die shows a 6 in them with odds of a million to one).
    await expect.poll(() => needed(page, 'logo-B').innerText(), { timeout: 90_000 }).toBe('no 6 read: review');
    expect(await needed(page, 'logo-B').getAttribute('title')).toMatch(/^No 6 has been read: the reader likely cannot read this face/);
    for (const label of ['plain-A', 'plain-C', 'plain-D']) {
      const text = await needed(page, label).innerText();
      expect(text === '—' || /^\d+$/.test(text), `${label}: ${text}`).toBe(true);
    }
    await expect.poll(async () => (await page.locator('#events li').allInnerTexts()).some((t) => /logo-B: no 6 was read in \d+ rolls.*dicerig review/.test(t))).toBe(true);

    await page.reload();
    await expect.poll(() => page.locator('#connection').getAttribute('data-status')).toBe('live');
    await expect.poll(() => needed(page, 'logo-B').innerText()).toBe('no 6 read: review');

    // A person labels the die's crops on the review page (another process, the same store) while the run goes on:
    // the run takes the labels in; the reader itself still reads no 6, so the cell still asks for reviews.
    const review = await startCliServer(['review', '1', '--db', opened.db, '--port', '0', '--reviewer', 'Ada'], { timeoutMs: 30_000 });
    reviewChild = review.proc;
    expect(review.output()).toMatch(/Session 1 is still open: its run takes each label in at its next throw/);
    const todo = (await (await fetch(`${review.url}/api/review`)).json()) as { rolls: { rollId: number; die: string }[] };
    const logo = todo.rolls.filter((r) => r.die === 'logo-B').map((r) => r.rollId);
    expect(logo.length).toBeGreaterThan(10);
    const labelled = await fetch(`${review.url}/api/labels`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rolls: logo, face: '6' }) });
    expect(labelled.status).toBe(200);
    // Its tally counts the labelled 6s with the read faces.
    const sixes = async (): Promise<number> => Number(/6:(\d+)/.exec(await page.locator('#dice-table tr[data-die="logo-B"] .tally').innerText())?.[1] ?? 0);
    await expect.poll(sixes, { timeout: 30_000 }).toBeGreaterThanOrEqual(logo.length);
    expect(await needed(page, 'logo-B').innerText()).toBe('no 6 read: review');
    // The review page of the running session says so, and adds the crops the run declines from now on.
    const reviewPage = await opened.browser.newPage({ viewport: { width: 1100, height: 900 } });
    reviewPage.on('pageerror', (e) => problems.push(`review: ${e.message}`));
    // Its timers on Playwright's clock, which runs as the real one until moved on: its next look at the server (every
    // 5 s) is not waited out while the run keeps both cores busy.
    await reviewPage.clock.install();
    await reviewPage.goto(`${review.url}/`);
    await reviewPage.waitForSelector('body[data-ready="true"]');
    expect(await reviewPage.locator('body').getAttribute('data-open')).toBe('true');
    expect(await reviewPage.locator('#open').isVisible()).toBe(true);
    expect(await reviewPage.locator('#dice tr[data-die="logo-B"] .kind').innerText()).toBe('running');
    const cropsAtFirst = await reviewPage.locator('#grid .crop').count();
    // Each try moves the page on to its next look; the run may not have declined a new crop by the first.
    await expect.poll(async () => (await reviewPage.clock.fastForward(5000), reviewPage.locator('#grid .crop').count()), { timeout: 30_000 }).toBeGreaterThan(cropsAtFirst);
    await page.locator('#stop').click();
    await expect.poll(() => page.locator('body').getAttribute('data-run'), { timeout: 30_000 }).not.toBe('running');
    expect(problems).toEqual([]);
  });
});
