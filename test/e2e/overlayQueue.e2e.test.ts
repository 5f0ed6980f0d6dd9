/**
 * The OBS overlay while rolls queue up on `dicerig serve --sim`, in Debian's Chromium: each result stays on the panel
 * for the overlay's hold time before the next roll is shown, in the order they were asked, but only 2 s once a later
 * roll has finished too (so the overlay is at most one roll behind the rig), and the history list holds every finished
 * roll that is not on the panel. (The simulated rig finishes a roll of two dice in about 2 s, and the next one starts
 * at once.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimServePages, type SimServePages } from './support/simServePages.js';

const dir = mkdtempSync(join(tmpdir(), 'dicerig-overlay-queue-e2e-'));
let pages: SimServePages | undefined;

afterAll(async () => {
  await pages?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One moment of the overlay: what the panel shows and the rolls in the history list. */
interface Seen {
  readonly t: number;
  /** The wall clock (Date.now), to compare two pages' moments. */
  readonly wall: number;
  readonly roll: string | null;
  readonly state: string | null;
  readonly fresh: string | null;
  readonly history: string[];
}

/** Records every change of the panel and the history list, with the page's clock. */
async function watch(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    const root = document.getElementById('overlay');
    window.seen = [];
    const note = () => {
      const last = window.seen[window.seen.length - 1];
      const now = { t: performance.now(), wall: Date.now(), roll: root.dataset.roll ?? null, state: root.dataset.state ?? null,
        fresh: document.getElementById('current').dataset.fresh ?? null,
        history: [...document.querySelectorAll('#history li')].map((li) => li.dataset.roll) };
      if (!last || last.roll !== now.roll || last.state !== now.state || last.history.join() !== now.history.join()) window.seen.push(now);
    };
    new MutationObserver(note).observe(root, { attributes: true, attributeFilter: ['data-roll', 'data-state'], subtree: true, childList: true });
    note();
  })()`);
}

const seenOn = async (page: Page): Promise<Seen[]> => (await page.evaluate('window.seen')) as Seen[];

/** How long each roll's result was on the panel: from its first 'done' to the next roll shown (Infinity while still shown). */
function resultTimes(seen: readonly Seen[]): Map<string, number> {
  const times = new Map<string, number>();
  seen.forEach((s, i) => {
    if (s.state !== 'done' || s.roll === null || times.has(s.roll)) return;
    const next = seen.slice(i + 1).find((o) => o.roll !== s.roll);
    times.set(s.roll, next === undefined ? Infinity : next.t - s.t);
  });
  return times;
}

describe('the overlay with rolls queued', { timeout: 240_000 }, () => {
  it('keeps each result on screen for the hold time, in order, at most one roll behind the rig, and lists every finished roll not on the panel', async () => {
    pages = await startSimServePages(dir);
    const quick = await pages.open('/overlay?hold=2', { width: 800, height: 420 });
    const usual = await pages.open('/overlay?hold=abc', { width: 800, height: 420 });
    for (const page of [quick, usual]) {
      await expect.poll(() => page.locator('#connection').isHidden()).toBe(true);
      await watch(page);
    }
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await pages.queueRoll({ dice: '2 red', by: `viewer${i}` }));

    // hold=2: every result in turn, each for at least 2 s, though the rig finishes them faster than that.
    await expect.poll(async () => (await seenOn(quick)).some((s) => s.roll === ids[3] && s.state === 'done'), { timeout: 60_000 }).toBe(true);
    const seen = await seenOn(quick);
    const times = resultTimes(seen);
    expect([...times.keys()]).toEqual(ids);
    for (const id of ids.slice(0, 3)) expect(times.get(id), `${id}: ${JSON.stringify(seen)}`).toBeGreaterThanOrEqual(1990);
    expect(seen.filter((s) => s.state === 'done').every((s) => s.fresh === 'true')).toBe(true);
    // The history: every finished roll shown before the one on the panel, newest first, never the panel's own.
    for (const s of seen) {
      const k = ids.indexOf(s.roll ?? '');
      if (k < 0) continue;
      expect(s.history, JSON.stringify(s)).toEqual(ids.slice(0, k).reverse());
    }
    await quick.screenshot({ path: join(dir, 'overlay-queued.png'), omitBackground: true });

    // No hold given (or not a number): 6 s, but a result whose next roll has finished too stays only 2 s, so the
    // overlay is at most one roll behind the rig: it shows the fourth result a few seconds after the hold=2 page, not
    // the 3 x 4 s later that a full hold for each result put it (the rig rolls these in about 2 s each).
    await expect.poll(async () => (await seenOn(usual)).some((s) => s.roll === ids[3] && s.state === 'done'), { timeout: 60_000 }).toBe(true);
    const usualSeen = await seenOn(usual);
    const usualTimes = resultTimes(usualSeen);
    expect([...usualTimes.keys()]).toEqual(ids);
    for (const id of ids.slice(0, 3)) expect(usualTimes.get(id), `${id}: ${JSON.stringify(usualSeen)}`).toBeGreaterThanOrEqual(1990);
    const shownAt = (list: readonly Seen[]): number => list.find((s) => s.roll === ids[3] && s.state === 'done')?.wall ?? NaN;
    expect(shownAt(usualSeen) - shownAt(seen), JSON.stringify(usualSeen)).toBeLessThan(6000);

    // A result whose next roll is still rolling keeps its full hold: an 11-dice attack takes the rig far over 6 s.
    const quickOne = await pages.queueRoll({ dice: '2 red', by: 'viewer4' });
    const slow = await pages.queueRoll({ attack: { red: 8 }, defense: { green: 3 } });
    await expect.poll(async () => (await seenOn(usual)).some((s) => s.roll === slow), { timeout: 90_000 }).toBe(true);
    expect(resultTimes(await seenOn(usual)).get(quickOne)).toBeGreaterThanOrEqual(5990);
    expect(pages.problems).toEqual([]);
  });
});
