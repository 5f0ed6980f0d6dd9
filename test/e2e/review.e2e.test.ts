/**
 * `dicerig review` as a user runs it, with the page open in Debian's Chromium:
 * a demo session whose reader declined dice, the grid of its crops, a face
 * pressed on the keyboard and stored as the reviewer's, the die's counts and
 * verdict updated on the page, and the refusals (a face the die does not have,
 * a crop already labelled, a session that does not exist, nothing to review).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pagesBrowser, type PagesBrowser } from '../support/pagesBrowser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliServer, stopCliServer } from './support/cliServer.js';
import { RollStore } from '../../src/store/rollStore.js';
import { dicerig, repoRoot } from '../server/support/reviewSession.js';
import { declinedCopy, declinedDemo } from './support/declinedCopy.js';
import { DICERIG } from '../support/builtCli.js';

const dir = mkdtempSync(join(tmpdir(), 'dicerig-review-e2e-'));
// The screenshot stays for a person to look at.
const shots = mkdtempSync(join(tmpdir(), 'dicerig-review-shots-'));
let child: ChildProcess | undefined;
let bulkChild: ChildProcess | undefined;
let browser: PagesBrowser | undefined;

const cli = (args: string[]) => spawnSync(process.execPath, [DICERIG, ...args], { cwd: repoRoot, encoding: 'utf8' });

/** Starts `dicerig review` and resolves with the URL it prints. */
async function startReview(db: string): Promise<string> {
  const server = await startCliServer(['review', '1', '--db', db, '--port', '0', '--reviewer', 'Grace <b>Hopper</b>'], { timeoutMs: 30_000 });
  child = server.proc;
  return server.url;
}

// The demo session the tests label copies of, made before them (or by another file of the run) with a timeout of its own.
beforeAll(() => declinedDemo().then(() => undefined), 180_000);

afterAll(async () => {
  await browser?.close();
  await stopCliServer(child);
  await stopCliServer(bulkChild);
  rmSync(dir, { recursive: true, force: true });
});

describe('dicerig review in a browser', () => {
  it('labels a declined die from the keyboard, stores it and shows the updated verdict', async () => {
    const db = await declinedCopy(dir);
    const url = await startReview(db);
    const readStore = RollStore.open(db, { readonly: true });
    const todo = readStore.unresolvedRolls(1);
    readStore.close();
    expect(todo.length).toBeGreaterThan(2);

    browser = await pagesBrowser();
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${url}/`);
    await page.waitForSelector('body[data-ready="true"]');

    // The grid: one card per unresolved roll, each with its crop loaded, its die and why it is unresolved.
    await expect.poll(() => page.locator('#grid .crop').count()).toBe(todo.length);
    const first = todo[0] as (typeof todo)[number];
    const card = page.locator(`.crop[data-roll="${first.rollId}"]`);
    await expect.poll(() => card.locator('img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(10);
    expect(await card.locator('.reason').textContent()).toBe(`why: ${first.reason}`);
    expect(await card.locator('.guess').textContent()).toMatch(/^reader: counted [16] pips?, confidence [01]\.\d\d$/);
    expect(await card.locator('.faces button[data-face]').allTextContents()).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(await card.locator('.faces button.cannot-tell').textContent()).toBe("can't tell");
    // The reviewer's name is shown as text, not markup.
    expect(await page.locator('#reviewer').textContent()).toBe('Grace <b>Hopper</b>');
    const row = page.locator(`#dice tr[data-die="${first.dieLabel}"]`);
    const reviewedBefore = Number(await row.locator('.reviewed').textContent());
    const unresolvedBefore = Number(await row.locator('.unresolved').textContent());
    await page.screenshot({ path: join(shots, 'review-before.png'), fullPage: true });

    // A key that is not a face of a d6 is refused on the page; the first crop is selected, so "6" labels it.
    await page.keyboard.press('7');
    await expect.poll(() => page.locator('#message').textContent()).toBe('A d6 die has no face number 7.');
    await page.keyboard.press('6');
    await expect.poll(() => card.getAttribute('class')).toContain('labelled');
    expect(await card.locator('.label').textContent()).toBe('labelled 6 by Grace <b>Hopper</b>');
    await expect.poll(async () => Number(await row.locator('.reviewed').textContent())).toBe(reviewedBefore + 1);
    expect(Number(await row.locator('.unresolved').textContent())).toBe(unresolvedBefore - 1);
    expect(await page.locator('#left').textContent()).toBe(`(${todo.length - 1} left)`);
    expect(await row.locator('.sentence').textContent()).toMatch(/^(INCONCLUSIVE|UNFAIR|FAIR_WITHIN)/);
    await page.screenshot({ path: join(shots, 'review-after.png'), fullPage: true });

    // Stored as the person's label, with the verdicts remade for `report`.
    const store = RollStore.open(db, { readonly: true });
    try {
      const reviews = store.reviews(1);
      expect(reviews).toHaveLength(1);
      expect(reviews[0]).toMatchObject({ rollId: first.rollId, faceId: '6', reviewer: 'Grace <b>Hopper</b>' });
      expect(Math.abs((reviews[0]?.at as number) - Date.now())).toBeLessThan(60_000);
      const stored = store.storedVerdicts(1)?.verdicts as { dice: { label: string; reviewed: number }[] };
      expect(stored.dice.find((d) => d.label === first.dieLabel)?.reviewed).toBe(reviewedBefore + 1);
    } finally {
      store.close();
    }

    // Through the API: a face the die does not have, and the crop already labelled.
    const second = todo[1] as (typeof todo)[number];
    const bad = await fetch(`${url}/api/rolls/${second.rollId}/label`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ face: '9' }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe('A d6 die has no face "9" (its faces: 1, 2, 3, 4, 5, 6).');
    const again = await fetch(`${url}/api/rolls/${first.rollId}/label`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ face: '1' }) });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: string }).error).toBe(`Roll ${first.rollId} (die "${first.dieLabel}") is already labelled 6 by Grace <b>Hopper</b>; correct it on its card to change it.`);
    // Clicking the labelled crop's face does nothing more.
    expect(await card.locator('.faces button').first().isDisabled()).toBe(true);
    expect(errors).toEqual([]);
  }, 60_000);

  it("labels every selected crop with one face: a die's select button, shift-click for a range, ctrl-click for one more, Esc for just one", async () => {
    const sub = mkdtempSync(join(dir, 'bulk-'));
    const db = await declinedCopy(sub);
    const server = await startCliServer(['review', '1', '--db', db, '--port', '0', '--reviewer', 'Ada'], { timeoutMs: 30_000 });
    bulkChild = server.proc;
    const readStore = RollStore.open(db, { readonly: true });
    const todo = readStore.unresolvedRolls(1);
    readStore.close();
    const byDie = new Map<string, number[]>();
    for (const r of todo) byDie.set(r.dieLabel, [...(byDie.get(r.dieLabel) ?? []), r.rollId]);
    const [die, ids] = [...byDie].sort((a, b) => b[1].length - a[1].length)[0] as [string, number[]];
    expect(ids.length).toBeGreaterThanOrEqual(3);

    browser ??= await pagesBrowser();
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/`);
    await page.waitForSelector('body[data-ready="true"]');
    const row = page.locator(`#dice tr[data-die="${die}"]`);
    const reviewedBefore = Number(await row.locator('.reviewed').textContent());

    // The die's button selects its crops still to label, and says what a face pressed now does.
    await row.locator('.pick button').click();
    expect(await row.locator('.pick button').textContent()).toBe(`select its ${ids.length}`);
    expect(await page.locator('.crop.chosen').evaluateAll((cards) => cards.map((c) => Number((c as unknown as { dataset: { roll: string } }).dataset.roll)))).toEqual(ids);
    expect(await page.locator('#selection').textContent()).toBe(`${ids.length} crops selected: a face pressed now labels all ${ids.length} (Esc: just one)`);
    await page.screenshot({ path: join(shots, 'review-die-selected.png'), fullPage: true });
    // A face for many crops asks first, saying how many and what the reader had read in them.
    const asked: string[] = [];
    page.on('dialog', (d) => {
      asked.push(d.message());
      void d.accept();
    });
    await page.keyboard.press('6');
    await expect.poll(() => page.locator('.crop.labelled').count()).toBe(ids.length);
    expect(asked[0]).toMatch(new RegExp(`^Label ${ids.length} crops 6\\? The reader had read: \\d+ counted [16] pips?`));
    await expect.poll(async () => Number(await row.locator('.reviewed').textContent())).toBe(reviewedBefore + ids.length);
    expect(await page.locator('#left').textContent()).toBe(`(${todo.length - ids.length} left)`);
    let store = RollStore.open(db, { readonly: true });
    expect(store.reviews(1).map((r) => [r.rollId, r.faceId, r.reviewer])).toEqual(ids.map((id) => [id, '6', 'Ada']));
    store.close();

    // A range by shift-click (labelled crops in it are left out), Esc back to one, then ctrl-click adds a crop.
    const rest = todo.filter((r) => !ids.includes(r.rollId));
    expect(rest.length).toBeGreaterThanOrEqual(3);
    const card = (i: number) => page.locator(`.crop[data-roll="${rest[i]?.rollId}"]`);
    await card(0).click();
    await card(2).click({ modifiers: ['Shift'] });
    const between = todo.slice(todo.indexOf(rest[0] as (typeof todo)[number]), todo.indexOf(rest[2] as (typeof todo)[number]) + 1).filter((r) => !ids.includes(r.rollId));
    expect(await page.locator('.crop.chosen').count()).toBe(between.length);
    await page.keyboard.press('Escape');
    expect(await page.locator('.crop.chosen').count()).toBe(0);
    expect(await page.locator('#selection').textContent()).toBe('');
    await card(1).click({ modifiers: ['Control'] });
    expect(await page.locator('.crop.chosen').count()).toBe(2);
    // Esc kept the crop in focus (the range's last); a face button on a chosen crop labels both, in page order.
    await card(1).locator('.faces button', { hasText: '1' }).click();
    await expect.poll(() => page.locator('.crop.labelled').count()).toBe(ids.length + 2);
    expect(await card(1).locator('.label').textContent()).toBe('labelled 1 by Ada');
    expect(await card(2).locator('.label').textContent()).toBe('labelled 1 by Ada');
    expect(await card(0).getAttribute('class')).not.toContain('labelled');
    store = RollStore.open(db, { readonly: true });
    expect(store.reviews(1).slice(ids.length).map((r) => [r.rollId, r.faceId])).toEqual([[rest[1]?.rollId, '1'], [rest[2]?.rollId, '1']]);
    expect(store.verify()).toMatchObject({ ok: true });
    store.close();

    // A crop that shows no face a person can tell: 0 says so. The roll leaves the list but stays unresolved.
    const otherDie = rest[0]?.dieLabel as string;
    const otherRow = page.locator(`#dice tr[data-die="${otherDie}"]`);
    const unresolvedBefore = Number(await otherRow.locator('.unresolved').textContent());
    await card(0).click();
    await page.keyboard.press('0');
    await expect.poll(() => card(0).locator('.label').textContent()).toBe('Ada could not tell its face: it stays unresolved');
    expect(await otherRow.locator('.unresolved').textContent()).toBe(`${unresolvedBefore} (1 nobody could tell)`);
    expect(await page.locator('#left').textContent()).toBe(`(${todo.length - ids.length - 3} left)`);
    await page.screenshot({ path: join(shots, 'review-cannot-tell.png'), fullPage: true });
    store = RollStore.open(db, { readonly: true });
    expect(store.reviews(1).at(-1)).toMatchObject({ rollId: rest[0]?.rollId, faceId: null, symbol: '', reviewer: 'Ada' });
    expect(store.rollsToReview(1).map((r) => r.rollId)).not.toContain(rest[0]?.rollId);
    expect(store.unresolvedRolls(1).map((r) => r.rollId)).toContain(rest[0]?.rollId);
    store.close();
    expect(errors).toEqual([]);
  }, 60_000);

  it('refuses a port something already listens on in one line naming it and --port 0, exit 1, before the store is opened', async () => {
    const db = join(dir, 'rolls.db');
    const other = createServer();
    await new Promise<void>((r) => other.listen({ host: '127.0.0.1', port: 0 }, r));
    const port = (other.address() as AddressInfo).port;
    try {
      const busy = cli(['review', '1', '--db', db, '--port', String(port)]);
      expect(busy.stderr).toBe(`dicerig: --port ${port}: 127.0.0.1:${port} is already in use: something is listening there (another dicerig review?); stop it, or give --port 0 for a free port\n`);
      expect(busy.status).toBe(1);
      expect(busy.stdout).toBe('');
    } finally {
      await new Promise((r) => other.close(r));
    }
  });

  it('serves a session whose declined rolls are all answered, so a wrong answer can be corrected, and says how many', async () => {
    const sub = mkdtempSync(join(dir, 'answered-'));
    const db = await declinedCopy(sub);
    const store = RollStore.open(db);
    const todo = store.rollsToReview(1);
    store.reviewRolls(1, todo.map((r) => ({ rollId: r.rollId, faceId: '6', reviewer: 'Ada', at: 1 })));
    store.close();
    const server = await startCliServer(['review', '1', '--db', db, '--port', '0', '--reviewer', 'Ada'], { timeoutMs: 30_000 });
    try {
      expect(server.output()).toContain(`dicerig review: session 1, 0 unresolved rolls to label (and ${todo.length} answered, to correct if wrong) as Ada`);
    } finally {
      await stopCliServer(server.proc);
    }
  }, 60_000);

  it('refuses a session that does not exist in one line, and says when there is nothing to review', () => {
    const db = join(dir, 'rolls.db');
    const missing = cli(['review', '42', '--db', db]);
    expect(missing.status).not.toBe(0);
    expect(missing.stderr.trim()).toBe(`dicerig: There is no session "42" in ${db}; sessions: 1.`);
    expect(missing.stdout).toBe('');
    const nobody = cli(['review', '1', '--db', db, '--reviewer', ' ']);
    expect(nobody.status).not.toBe(0);
    expect(nobody.stderr.trim()).toBe('dicerig: --reviewer needs a name on one line');

    const clean = mkdtempSync(join(tmpdir(), 'dicerig-review-clean-'));
    try {
      const cleanDb = join(clean, 'rolls.db');
      dicerig(['demo', '--budget', '20', '--db', cleanDb]);
      const nothing = cli(['review', '1', '--db', cleanDb]);
      expect(nothing.status).toBe(0);
      expect(nothing.stdout).toBe('Session 1 has no declined rolls to review: nothing to do.\n');
    } finally {
      rmSync(clean, { recursive: true, force: true });
    }
    // The default timeout (catching hangs): a demo and three CLI runs took 18 s on a quiet machine, and 30 s ran out beside two renders.
  });
});
