/**
 * A D3 roll under way on the OBS overlay, on `dicerig serve --sim d6` (D6s: a D3 is a D6 halved, rounded up) in
 * Debian's Chromium: the dice read so far, live and kept, and each reroll's "was N" show the D3's numeral (1-3), as
 * the finished roll does, never the D6 face the camera saw; a reroll is seen live, its "was N" staying on its die
 * for the rest of the roll.
 *
 * The overlay is opened with hold=0. With the default hold (6 s on each result) a roll the rig rolls while the last
 * result is held is shown only when the hold ends, finished (overlayQueue.e2e.test.ts): the simulated rig rolls
 * these four D3s in about 2-4 s, so rolls asked one after another were never seen live after the first, and when the
 * first had no 1 (one roll in five) no reroll could be seen live at all, loaded machine or not.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimServePages, TOKEN, type SimServePages } from './support/simServePages.js';

const dir = mkdtempSync(join(tmpdir(), 'dicerig-overlay-d3-e2e-'));
let pages: SimServePages;

beforeAll(async () => {
  // Seed 17: the first roll has no 1 and the second has (the same rolls on every run, loaded or not), so the reroll
  // seen live is in a roll after a finished one, the case the hold hid.
  pages = await startSimServePages(dir, ['--sim', 'd6', '--seed', '17']);
}, 90_000);

afterAll(async () => {
  await pages?.close();
  rmSync(dir, { recursive: true, force: true });
});

type Slot = { kind: string; symbol: string; pending: boolean; note: string; status: string | null };
/** One state of the dice row while a roll is under way, with the page's clock. */
type Row = { t: number; roll: string; slots: Slot[] };

/** Shortest time a viewer must have to see a reroll's "was N" live (a glance at a number). */
const HUMAN_MS = 500;

describe('a D3 roll on the overlay', { timeout: 300_000 }, () => {
  it('shows every die read so far, and what a rerolled die showed, as the D3 numeral 1-3, live for the rest of the roll and when finished', async () => {
    const page = await pages.open('/overlay?hold=0', { width: 1000, height: 420 });
    await expect.poll(() => page.locator('#overlay').getAttribute('data-state')).toBeTruthy();
    await page.evaluate(`(() => {
      window.rows = [];
      window.doneAt = {};
      const root = document.getElementById('overlay');
      const box = document.getElementById('dice');
      new MutationObserver(() => {
        if (root.dataset.state === 'done') window.doneAt[root.dataset.roll] ??= performance.now();
        if (root.dataset.state !== 'rolling') return;
        window.rows.push({ t: performance.now(), roll: root.dataset.roll, slots: [...box.children].map((s) => ({ kind: s.dataset.kind, symbol: s.dataset.symbol, pending: s.classList.contains('pending'), note: s.querySelector('.note').textContent, status: s.dataset.status ?? null })) });
      }).observe(root, { attributes: true, attributeFilter: ['data-state', 'data-roll'], childList: true, subtree: true });
    })()`);
    const rows = async (): Promise<Row[]> => (await page.evaluate('window.rows')) as Row[];
    const rerolledLive = async (): Promise<boolean> => (await rows()).some((r) => r.slots.some((s) => s.note.startsWith('was ')));
    // What each finished roll shows of its rerolls ("was N" beside the die thrown again).
    const finishedNotes: string[] = [];
    // Four D3s at 2+ rerolling failures: each 1 is thrown again (a roll has one 4 times in 5).
    for (let i = 0; i < 12 && !(await rerolledLive()); i++) {
      const id = await pages.queueRoll({ t9a: { dice: 4, target: '2+', d3: true, reroll: 'failures' } });
      await expect
        .poll(async () => ((await fetch(`${pages.url}/api/rolls/${id}`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.json())) as { state: string }).state, { timeout: 60_000, interval: 250 })
        .toBe('done');
      // This roll's answer on the panel (not an earlier one still shown).
      await expect.poll(async () => `${await page.locator('#overlay').getAttribute('data-roll')} ${await page.locator('#overlay').getAttribute('data-state')}`).toBe(`${id} done`);
      finishedNotes.push(...(await page.locator('#dice .note').allTextContents()).filter((n) => n.startsWith('was ')));
    }
    const all = await rows();
    const slots = all.flatMap((r) => r.slots);
    expect(slots.length).toBeGreaterThan(0);
    expect(new Set(slots.map((s) => s.kind))).toEqual(new Set(['d3']));
    // A die read (flat) shows its numeral; one waiting or declined shows none.
    const shown = slots.filter((s) => !s.pending && (s.status === null || s.status === 'read'));
    expect(shown.length).toBeGreaterThan(0);
    for (const s of shown) expect(s.symbol).toMatch(/^[1-3]$/);
    // A reroll seen live, and every "was N", live or finished, the D3's numeral.
    const live = slots.map((s) => s.note).filter((n) => n.startsWith('was '));
    expect(live.length).toBeGreaterThan(0);
    expect(finishedNotes.length).toBeGreaterThan(0);
    for (const n of [...live, ...finishedNotes]) expect(n).toMatch(/^was [1-3]$/);
    // From the moment a die is thrown again its "was N" stays on it until the roll is done (unless a throw is
    // declined and the die says why), long enough for a viewer to read it.
    const roll = all.find((r) => r.slots.some((s) => s.note.startsWith('was ')))?.roll as string;
    const mine = all.filter((r) => r.roll === roll);
    const first = mine.findIndex((r) => r.slots.some((s) => s.note.startsWith('was ')));
    const places = (mine[first] as Row).slots.flatMap((s, k) => (s.note.startsWith('was ') ? [k] : []));
    for (const r of mine.slice(first)) for (const k of places) if (r.slots[k]?.status === null || r.slots[k]?.status === 'read') expect(r.slots[k]?.note).toMatch(/^was [1-3]$/);
    const doneAt = ((await page.evaluate('window.doneAt')) as Record<string, number>)[roll] as number;
    expect(doneAt - (mine[first] as Row).t).toBeGreaterThan(HUMAN_MS);
    expect(pages.problems).toEqual([]);
  });
});
