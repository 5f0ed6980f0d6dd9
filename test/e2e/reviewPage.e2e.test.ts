/**
 * The review page in Debian's Chromium where a person's day goes wrong: keys that belong to the browser, the
 * server stopped under an open page, two tabs labelling the same session, and a key that is no face.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { pagesBrowser, type PagesBrowser } from '../support/pagesBrowser.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCliServer, stopCliServer } from './support/cliServer.js';
import { RollStore } from '../../src/store/rollStore.js';
import { declinedCopy, declinedDemo } from './support/declinedCopy.js';
import { startReviewInProcess, type ReviewServer } from './support/reviewInProcess.js';

const dir = mkdtempSync(join(tmpdir(), 'dicerig-review-page-'));
const children: ChildProcess[] = [];
const servers: ReviewServer[] = [];
let browser: PagesBrowser;

/**
 * A demo session with declined dice in a folder of its own (a copy of the one demo run), and its review server
 * started as `dicerig review 1 --db DB --port 0 --reviewer Ada` serves it, in this process (these tests are about the
 * page; the one about the server stopped under it runs the command); its URL.
 */
async function reviewed(name: string): Promise<{ db: string; url: string }> {
  const db = await declinedCopy(mkdtempSync(join(dir, `${name}-`)));
  const server = await startReviewInProcess(db, 'Ada');
  servers.push(server);
  return { db, url: server.url };
}

/**
 * The page opened and ready, with its page errors collected in `errors`; with `clock`, its timers on Playwright's
 * clock, which runs as the real one until a test moves it on.
 */
async function open(url: string, errors: string[], clock = false): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  page.on('pageerror', (e) => errors.push(e.message));
  if (clock) await page.clock.install();
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
  browser = await pagesBrowser();
  // The demo session the tests label copies of, made before them (or by another file of the run).
  await declinedDemo();
}, 180_000);

// Each test's pages and server go when it ends: an open page keeps asking its server for news every few seconds.
afterEach(async () => {
  await browser?.close();
  for (const s of servers.splice(0)) await s.close();
});

afterAll(async () => {
  await browser?.close();
  for (const c of children) await stopCliServer(c);
  for (const s of servers) await s.close();
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

  it('says a label was not saved when the review server has stopped, naming the command that starts it on the same port as the same reviewer, and leaves the card unlabelled', async () => {
    // The command itself, in a process of its own, stopped as Ctrl-C stops it.
    const db = await declinedCopy(mkdtempSync(join(dir, 'gone-')));
    const server = await startCliServer(['review', '1', '--db', db, '--port', '0', '--reviewer', 'Ada'], { timeoutMs: 30_000 });
    children.push(server.proc);
    const { url, proc } = server;
    const errors: string[] = [];
    const page = await open(url, errors);
    const first = page.locator('#grid .crop').first();
    await stopCliServer(proc);
    await page.keyboard.press('4');
    await expect.poll(() => page.locator('#message').textContent()).toBe(`not saved: the review server is not running (start dicerig review 1 --db ${db} --port ${new URL(url).port} --reviewer Ada again)`);
    expect(await first.getAttribute('class')).not.toContain('labelled');
    expect(await first.locator('.label').textContent()).toBe('');
    expect(await first.locator('.faces button').first().isDisabled()).toBe(false);
    expect(stored(db, (s) => s.reviews(1))).toEqual([]);
    expect(errors).toEqual([]);
  }, 90_000);

  it('shows on a second tab the label the first gave: on a refused press with who and what, on its own in a few seconds, and counts what is left as the server does', async () => {
    const { db, url } = await reviewed('tabs');
    const errors: string[] = [];
    const a = await open(url, errors);
    const b = await open(url, errors, true);
    const todo = stored(db, (s) => s.rollsToReview(1));
    const firstId = (todo[0] as (typeof todo)[number]).rollId;
    // Tab A labels the first crop 6; tab B, still showing it open, presses 2 on it.
    await a.keyboard.press('6');
    await expect.poll(() => a.locator(`.crop[data-roll="${firstId}"]`).getAttribute('class')).toContain('labelled');
    await b.keyboard.press('2');
    const onB = b.locator(`.crop[data-roll="${firstId}"]`);
    await expect.poll(() => onB.locator('.label').textContent()).toBe('labelled 6 by Ada');
    expect(await onB.getAttribute('class')).toContain('labelled');
    expect(await b.locator('#message').textContent()).toMatch(new RegExp(`^Roll ${firstId} \\(die ".+"\\) is already labelled`));
    expect(await b.locator('#left').textContent()).toBe(`(${todo.length - 1} left)`);

    // A labels another crop; B shows it without a press, on its next look at the server.
    const secondId = (todo[1] as (typeof todo)[number]).rollId;
    await a.keyboard.press('1');
    await expect.poll(() => a.locator(`.crop[data-roll="${secondId}"]`).getAttribute('class')).toContain('labelled');
    // A few seconds on B's clock (its look comes every 5 s), not waited out here.
    await b.clock.fastForward(5000);
    await expect.poll(() => b.locator(`.crop[data-roll="${secondId}"] .label`).textContent()).toBe('labelled 1 by Ada');

    // A labels a third; B labels a batch of crops (a die's select button) without having seen it: the count left is the server's.
    const thirdId = (todo[2] as (typeof todo)[number]).rollId;
    await a.keyboard.press('1');
    await expect.poll(() => a.locator(`.crop[data-roll="${thirdId}"]`).getAttribute('class')).toContain('labelled');
    const thirdDie = todo[2]?.dieLabel;
    const batchOf = (die: string) => todo.filter((r) => r.dieLabel === die && ![firstId, secondId].includes(r.rollId)).map((r) => r.rollId);
    const otherDie = [...new Set(todo.map((r) => r.dieLabel))].find((d) => d !== thirdDie && batchOf(d).length > 1) as string;
    const batch = batchOf(otherDie);
    await b.locator(`#dice tr[data-die="${otherDie}"] .pick button`).click();
    expect(await b.locator('.crop.chosen').count()).toBe(batch.length);
    b.once('dialog', (d) => void d.accept());
    await b.keyboard.press('5');
    await expect.poll(() => b.locator('.crop.labelled').count()).toBe(3 + batch.length);
    expect(stored(db, (s) => s.rollsToReview(1).length)).toBe(todo.length - 3 - batch.length);
    await expect.poll(() => b.locator('#left').textContent()).toBe(`(${todo.length - 3 - batch.length} left)`);
    expect(errors).toEqual([]);
  }, 120_000);

  it('corrects a wrong label on its card, after the page is opened again: the earlier label shown as history, the correction stored superseding it, the counts the server\'s', async () => {
    const { db, url } = await reviewed('correct');
    const errors: string[] = [];
    let page = await open(url, errors);
    const todo = stored(db, (s) => s.rollsToReview(1));
    const first = todo[0] as (typeof todo)[number];
    await page.keyboard.press('6');
    const card = () => page.locator(`.crop[data-roll="${first.rollId}"]`);
    await expect.poll(() => card().locator('.label').textContent()).toBe('labelled 6 by Ada');
    const row = () => page.locator(`#dice tr[data-die="${first.dieLabel}"]`);
    const reviewedBefore = Number(await row().locator('.reviewed').textContent());
    await page.close();

    // Opened again: the labelled crop is there, greyed, with its label and a correct button; its faces stay shut until pressed.
    page = await open(url, errors);
    expect(await page.locator('#grid .crop').count()).toBe(todo.length);
    expect(await card().locator('.label').textContent()).toBe('labelled 6 by Ada');
    expect(await card().locator('.faces button').first().isDisabled()).toBe(true);
    expect(await page.locator('#left').textContent()).toBe(`(${todo.length - 1} left)`);
    await card().locator('button.correct').click();
    expect(await page.locator('#message').textContent()).toBe(`Correcting roll ${first.rollId} (6 (Ada)): press the right face, or 0 if you cannot tell (Esc: keep it).`);
    await page.keyboard.press('1');
    await expect.poll(() => card().locator('.label').textContent()).toBe('labelled 1 by Ada (corrected)');
    expect(await card().locator('.earlier').textContent()).toBe('earlier: 6 (Ada)');
    expect(Number(await row().locator('.reviewed').textContent())).toBe(reviewedBefore);
    expect(await page.locator('#left').textContent()).toBe(`(${todo.length - 1} left)`);
    const reviews = stored(db, (s) => s.reviews(1));
    expect(reviews.map((r) => [r.rollId, r.faceId, r.supersedes])).toEqual([[first.rollId, '6', null], [first.rollId, '1', reviews[0]?.id]]);
    expect(stored(db, (s) => s.verify())).toMatchObject({ ok: true });

    // Corrected again, to "cannot tell": the roll is unresolved again, the history grows.
    await card().locator('button.correct').click();
    await page.keyboard.press('0');
    await expect.poll(() => card().locator('.label').textContent()).toBe('Ada could not tell its face: it stays unresolved (corrected)');
    expect(await card().locator('.earlier').textContent()).toBe('earlier: 6 (Ada), then 1 (Ada)');
    await expect.poll(async () => Number(await row().locator('.reviewed').textContent())).toBe(reviewedBefore - 1);
    expect(stored(db, (s) => s.unresolvedRolls(1).find((r) => r.rollId === first.rollId)?.cannotTell)).toBe(true);
    expect(errors).toEqual([]);
  }, 120_000);

  it('corrects a range labelled with the wrong face in one action: shift-click the labelled crops, correct, the right face; a refusal changes nothing, and the counts and each card\'s history are the server\'s', async () => {
    const { db, url } = await reviewed('batchfix');
    const errors: string[] = [];
    const page = await open(url, errors);
    const asked: string[] = [];
    page.on('dialog', (d) => {
      asked.push(d.message());
      void d.accept();
    });
    const ids = (await cardIds(page)).slice(0, 3);
    const card = (k: number) => page.locator(`.crop[data-roll="${ids[k]}"]`);
    const total = async (cell: string) => (await page.locator(`#dice .${cell}`).allTextContents()).reduce((n, t) => n + Number.parseInt(t, 10), 0);
    // A range of three labelled 6, wrongly.
    await card(0).click();
    await card(2).click({ modifiers: ['Shift'] });
    await page.keyboard.press('6');
    await expect.poll(() => page.locator('.crop.labelled').count()).toBe(3);
    const reviewedBefore = await total('reviewed');

    // The same range of labelled crops selected, "correct" on one of them, then 5: one request corrects all three.
    await card(0).click();
    await card(2).click({ modifiers: ['Shift'] });
    expect(await page.locator('#selection').textContent()).toBe('3 labelled crops selected: press "correct" (or c), then the right face, to correct all 3 (Esc: just one)');
    // The range is of cards, not of the text on them.
    expect(await page.evaluate(() => (globalThis as unknown as { getSelection(): { toString(): string } }).getSelection().toString())).toBe('');
    await card(1).locator('button.correct').click();
    expect(await page.locator('#message').textContent()).toBe('Correcting 3 crops (3 say 6 (Ada)): press the right face, or 0 if you cannot tell (Esc: keep them).');
    await page.keyboard.press('5');
    for (const k of [0, 1, 2]) {
      await expect.poll(() => card(k).locator('.label').textContent()).toBe('labelled 5 by Ada (corrected)');
      expect(await card(k).locator('.earlier').textContent()).toBe('earlier: 6 (Ada)');
    }
    expect(asked.at(-1)).toBe('Correct 3 crops to 5? Their answers now: 3 say 6 (Ada).');
    expect(await page.locator('#saved').textContent()).toMatch(/^3 rolls corrected to 5; \d+ left$/);
    expect(await total('reviewed')).toBe(reviewedBefore);
    const labels = stored(db, (s) => s.reviews(1).slice(0, 3));
    expect(stored(db, (s) => s.reviews(1).slice(3).map((r) => [r.rollId, r.faceId, r.supersedes]))).toEqual(labels.map((l) => [l.rollId, '5', l.id]));

    // Another person corrects the middle one behind the page's back: the page's batch is refused whole, and says so.
    const middle = stored(db, (s) => s.reviews(1).at(-2)) as NonNullable<ReturnType<RollStore['reviews']>[number]>;
    const write = RollStore.open(db);
    try {
      write.reviewLog.correct(1, { rollId: middle.rollId, faceId: '4', reviewer: 'Bob', at: Date.now(), supersedes: middle.id });
    } finally {
      write.close();
    }
    const count = stored(db, (s) => s.reviews(1).length);
    await page.keyboard.press('c');
    await page.keyboard.press('0');
    await expect.poll(() => page.locator('#message').textContent()).toMatch(new RegExp(`^Roll ${middle.rollId} \\(die "[^"]+"\\) was answered again since you looked: it is labelled 4 by Bob now\\. No correction of this batch was stored\\.$`));
    expect(await card(1).locator('.label').textContent()).toBe('labelled 4 by Bob (corrected)');
    for (const k of [0, 2]) expect(await card(k).locator('.label').textContent()).toBe('labelled 5 by Ada (corrected)');
    expect(await page.locator('.crop.correcting').count()).toBe(0);
    expect(stored(db, (s) => s.reviews(1).length)).toBe(count);

    // Seen now, the batch is given again (c, then 0): all three can't tell, out of the reviewed count.
    await page.keyboard.press('c');
    await page.keyboard.press('0');
    await expect.poll(() => card(1).locator('.label').textContent()).toBe('Ada could not tell its face: it stays unresolved (corrected)');
    expect(await card(1).locator('.earlier').textContent()).toBe('earlier: 6 (Ada), then 5 (Ada), then 4 (Bob)');
    expect(await card(0).locator('.earlier').textContent()).toBe('earlier: 6 (Ada), then 5 (Ada)');
    await expect.poll(() => total('reviewed')).toBe(reviewedBefore - 3);
    expect(stored(db, (s) => s.verify())).toMatchObject({ ok: true });
    expect(errors).toEqual([]);
  }, 90_000);

  it('asks before a face labels many crops, saying how many and what the reader had read; said no, it stores nothing', async () => {
    const { db, url } = await reviewed('confirm');
    const errors: string[] = [];
    const page = await open(url, errors);
    const todo = stored(db, (s) => s.rollsToReview(1));
    const die = todo[0]?.dieLabel as string;
    const ids = todo.filter((r) => r.dieLabel === die).map((r) => r.rollId);
    expect(ids.length).toBeGreaterThan(1);
    await page.locator(`#dice tr[data-die="${die}"] .pick button`).click();
    const asked: string[] = [];
    page.once('dialog', (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await page.keyboard.press('1');
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toMatch(new RegExp(`^Label ${ids.length} crops 1\\? The reader had read: \\d+ counted [16] pips? \\(confidence [01]\\.\\d\\d(-[01]\\.\\d\\d)?\\)`));
    expect(await page.locator('.crop.labelled').count()).toBe(0);
    expect(stored(db, (s) => s.reviews(1))).toEqual([]);
    expect(errors).toEqual([]);
  }, 90_000);
});

/** The cards' roll ids in page order, and which card (by roll id) the keyboard focus is in, if any. */
const cardIds = (page: Page) => page.locator('#grid .crop').evaluateAll((cs) => cs.map((c) => Number((c as unknown as { dataset: { roll: string } }).dataset.roll)));
const focusedRoll = (page: Page) =>
  page.evaluate(() => {
    const d = (globalThis as unknown as { document: { activeElement: { closest(s: string): { dataset: { roll: string } } | null } | null } }).document;
    const c = d.activeElement?.closest('.crop');
    return c ? Number(c.dataset.roll) : null;
  });
const focusedIs = (page: Page, selector: string) => page.evaluate((sel) => (globalThis as unknown as { document: { activeElement: { matches(s: string): boolean } | null } }).document.activeElement?.matches(sel) ?? false, selector);

describe('the review page from the keyboard and a screen reader', () => {
  it('labels the card the keyboard focus is in, not the one highlighted before, when a digit is pressed', async () => {
    const { db, url } = await reviewed('focus');
    const errors: string[] = [];
    const page = await open(url, errors);
    const [firstId, secondId] = await cardIds(page);
    // Tab on (as a keyboard user does, without clicking) until focus is on the second card's "can't tell".
    for (let n = 0; n < 60; n++) {
      if ((await focusedRoll(page)) === secondId && (await focusedIs(page, 'button.cannot-tell'))) break;
      await page.keyboard.press('Tab');
    }
    expect(await focusedRoll(page)).toBe(secondId);
    await page.keyboard.press('4');
    await expect.poll(() => page.locator(`.crop[data-roll="${secondId}"] .label`).textContent()).toBe('labelled 4 by Ada');
    expect(stored(db, (s) => s.reviews(1)).map((r) => [r.rollId, r.faceId])).toEqual([[secondId, '4']]);
    expect(await page.locator(`.crop[data-roll="${firstId}"]`).getAttribute('class')).not.toContain('labelled');
    // A card is a named group the keyboard can reach.
    const second = page.locator(`.crop[data-roll="${secondId}"]`);
    expect([await second.getAttribute('tabindex'), await second.getAttribute('role')]).toEqual(['0', 'group']);
    expect(await second.getAttribute('aria-label')).toMatch(new RegExp(`^roll ${secondId}, .+, throw \\d+$`));
    expect(errors).toEqual([]);
  }, 90_000);

  it('says each saved label in a status region, with how many are left, and keeps focus on the next card to label, then on "correct" when none is left', async () => {
    const { db, url } = await reviewed('said');
    // All but the last two crops labelled beforehand, so the page is near its end.
    const todo = stored(db, (s) => s.rollsToReview(1));
    const write = RollStore.open(db);
    try {
      for (const r of todo.slice(0, -2)) write.reviewRoll(1, { rollId: r.rollId, faceId: '1', reviewer: 'Ada', at: Date.now() });
    } finally {
      write.close();
    }
    const [a, b] = todo.slice(-2) as [(typeof todo)[number], (typeof todo)[number]];
    const errors: string[] = [];
    const page = await open(url, errors);
    expect(await page.locator('#saved').getAttribute('role')).toBe('status');
    const open2 = (await cardIds(page)).filter((id) => id === a.rollId || id === b.rollId);
    const [x, y] = open2.map((id) => todo.find((r) => r.rollId === id)) as [(typeof todo)[number], (typeof todo)[number]];
    const words = (r: (typeof todo)[number]) => `Roll ${r.rollId} (${r.dieLabel}, throw ${r.throwIndex})`;

    // A face button clicked: it is disabled, so focus goes on to the next card still to label.
    await page.locator(`.crop[data-roll="${x.rollId}"] .faces button[data-face="2"]`).click();
    await expect.poll(() => page.locator('#saved').textContent()).toBe(`${words(x)} labelled 2; 1 left`);
    expect(await focusedRoll(page)).toBe(y.rollId);
    expect(await focusedIs(page, '.crop')).toBe(true);

    // The last one: focus on its "correct" button, and the done state said.
    await page.keyboard.press('0');
    await expect.poll(() => page.locator('#saved').textContent()).toBe(`${words(y)} labelled can't tell; none left: every unresolved roll of this session has been looked at`);
    expect(await focusedRoll(page)).toBe(y.rollId);
    expect(await focusedIs(page, 'button.correct')).toBe(true);

    // A correction is said too, and focus stays on the card's "correct".
    await page.keyboard.press('Enter');
    await page.keyboard.press('5');
    await expect.poll(() => page.locator('#saved').textContent()).toBe(`${words(y)} corrected to 5; none left: every unresolved roll of this session has been looked at`);
    expect(await focusedIs(page, `.crop[data-roll="${y.rollId}"] button.correct`)).toBe(true);
    expect(errors).toEqual([]);
  }, 90_000);

  it('fits a phone screen, keeps a labelled card readable, and names every face button, the empty header and the tab by roll and session', async () => {
    const { db, url } = await reviewed('phone');
    const errors: string[] = [];
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${url}/`);
    await page.waitForSelector('body[data-ready="true"]');
    type Doc = { document: { documentElement: { scrollWidth: number }; title: string } };
    // No sideways scroll of the page: the dice table scrolls in its own box.
    expect(await page.evaluate(() => (globalThis as unknown as Doc).document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const [firstId] = await cardIds(page);
    const first = stored(db, (s) => s.rollsToReview(1)).find((r) => r.rollId === firstId) as { rollId: number; dieLabel: string; throwIndex: number };
    const face = page.locator(`.crop[data-roll="${firstId}"] .faces button[data-face="2"]`);
    const box = await face.boundingBox();
    expect(Math.min(box?.width ?? 0, box?.height ?? 0)).toBeGreaterThanOrEqual(24);
    expect(await face.getAttribute('aria-label')).toBe(`roll ${firstId}, ${first.dieLabel} throw ${first.throwIndex}: face 2`);
    expect(await page.evaluate(() => (globalThis as unknown as Doc).document.title)).toBe('dicerig review session 1: unresolved dice');
    expect(await page.locator('#dice thead th').last().textContent()).not.toBe('');

    // Labelled: the card's text and its "correct" button are not faded (only the crop is), the label a dark green.
    await page.keyboard.press('2');
    const card = page.locator(`.crop[data-roll="${firstId}"]`);
    await expect.poll(() => card.getAttribute('class')).toContain('labelled');
    const look = (sel: string, prop: string) => page.locator(sel).evaluate((e, p) => (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(e)[p] as string, prop);
    expect(await look(`.crop[data-roll="${firstId}"]`, 'opacity')).toBe('1');
    expect(await look(`.crop[data-roll="${firstId}"] .label`, 'color')).toBe('rgb(42, 122, 42)');
    expect(await look(`.crop[data-roll="${firstId}"] img`, 'opacity')).toBe('0.5');
    await page.close();
    expect(errors).toEqual([]);
  }, 90_000);
});
