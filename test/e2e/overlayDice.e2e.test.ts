/**
 * The dice on the OBS overlay, on `dicerig serve --sim` (two red, two green X-Wing dice) in Debian's Chromium: each
 * symbol drawn as the dice (and the camera's model of them) show it, a roll under way holding exactly the dice asked
 * in the order asked, and the result line kept in sight in a small browser source.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimServePages, TOKEN, type SimServePages } from './support/simServePages.js';

const dir = mkdtempSync(join(tmpdir(), 'dicerig-overlay-dice-e2e-'));
let pages: SimServePages;

beforeAll(async () => {
  // A fixed seed: the lock's reroll test needs a roll with a blank or focus among six reds, which a random seed misses
  // one roll in 64 (it did in a full suite run); seeded, the rolls are the same on every run, loaded or not.
  pages = await startSimServePages(dir, ['--sim', 'xwing', '--seed', '5']);
}, 90_000);

afterAll(async () => {
  await pages?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The roll once done (a plain wait, not expect.poll, so a hook may wait for one too); fails after 90 s. */
async function finished(id: string): Promise<{ state: string; dice: { kind: string; rerolledFrom?: string }[] }> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const roll = (await fetch(`${pages.url}/api/rolls/${id}`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.json())) as { state: string; dice: { kind: string; rerolledFrom?: string }[] };
    if (roll.state === 'done') return roll;
    if (Date.now() > deadline) throw new Error(`roll ${id} not done in 90 s: ${JSON.stringify(roll)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Every state of the dice row while the roll is under way: each slot's die kind, whether it waits, and its note. */
async function watchDiceRow(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    window.rows = [];
    const box = document.getElementById('dice');
    new MutationObserver(() => {
      if (document.getElementById('overlay').dataset.state !== 'rolling') return;
      window.rows.push([...box.children].map((s) => ({ kind: s.dataset.kind, pending: s.classList.contains('pending'), note: s.querySelector('.note').textContent })));
    }).observe(box, { childList: true, subtree: true });
  })()`);
}

describe('the overlay\'s dice', { timeout: 150_000 }, () => {
  it('draws a hit as a solid 8-point burst and a crit as a 4-point star in a ring, as the dice and the camera show them', async () => {
    const page = await pages.open('/overlay', { width: 800, height: 420 });
    const drawn = (await page.evaluate(`(async () => {
      const { dieIcon } = await import('/static/icons.js');
      const shape = (symbol) => {
        const g = dieIcon('red', symbol).querySelector('.glyph');
        const star = g.querySelector('polygon');
        return { starPoints: star ? star.getAttribute('points').split(' ').length / 2 : 0, filled: star?.getAttribute('fill') === 'currentColor', ring: g.querySelector('circle') !== null };
      };
      return { hit: shape('hit'), crit: shape('crit') };
    })()`)) as Record<string, { starPoints: number; filled: boolean; ring: boolean }>;
    // src/camera/sim/dieArt.ts and src/vision/d8/iconFeatures.ts: hit = 8-point star, crit = 4-point star in a circle.
    expect(drawn).toEqual({ hit: { starPoints: 8, filled: true, ring: false }, crit: { starPoints: 4, filled: true, ring: true } });
  });

  it('draws a D3 result as its numeral marked D3, not as the pips of a D6 face the die did not show', async () => {
    const page = await pages.open('/overlay', { width: 800, height: 420 });
    const drawn = (await page.evaluate(`(async () => {
      const { dieIcon } = await import('/static/icons.js');
      const icon = dieIcon('d3', '2');
      return { pips: icon.querySelectorAll('.pip').length, text: [...icon.querySelectorAll('text')].map((t) => t.textContent) };
    })()`)) as { pips: number; text: string[] };
    expect(drawn).toEqual({ pips: 0, text: ['2', 'D3'] });
  });

  it('shows a rolling attack with exactly the dice asked, reds then greens, each target-lock reroll in the place of the die it rerolls', async () => {
    const page = await pages.open('/overlay', { width: 1400, height: 420 });
    await expect.poll(() => page.locator('#overlay').getAttribute('data-state')).toBeTruthy();
    await watchDiceRow(page);
    // Six reds take three throws of the two red channels; a lock rerolls each blank and focus (half the faces).
    const id = await pages.queueRoll({ attack: { red: 6, lock: true }, defense: { green: 2 } });
    const roll = await finished(id);
    expect(roll.dice.filter((d) => d.rerolledFrom !== undefined).length).toBeGreaterThan(0);
    const rows = (await page.evaluate('window.rows')) as { kind: string; pending: boolean; note: string }[][];
    expect(rows.length).toBeGreaterThan(3);
    const want = ['red', 'red', 'red', 'red', 'red', 'red', 'green', 'green'];
    for (const row of rows) expect(row.map((s) => s.kind)).toEqual(want);
    // While the lock's dice are thrown again, each waits in its die's place saying what that die showed.
    expect(rows.some((row) => row.some((s) => s.pending && /^was (blank|focus)$/.test(s.note)))).toBe(true);
    expect(pages.problems).toEqual([]);
  });

  describe('with an 11-dice attack done', () => {
    // One roll for both sizes: the tests only open pages on it, and a roll takes the simulated rig some 12 s.
    let id: string;
    beforeAll(async () => {
      id = await pages.queueRoll({ attack: { red: 8, focus: true }, defense: { green: 3, focus: true } });
      await finished(id);
    }, 150_000);

    for (const address of ['/overlay', '/overlay?size=48&theme=light']) {
      it(`keeps the result line of an 11-dice attack inside a 600x200 browser source (${address})`, async () => {
        const page = await pages.open(address, { width: 600, height: 200 });
        await expect.poll(() => page.locator('#overlay').getAttribute('data-roll')).toBe(id);
        expect(await page.locator('#dice .die-slot').count()).toBe(11);
        const box = (await page.evaluate(`(() => { const r = document.getElementById('result').getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, text: document.getElementById('result').innerText }; })()`)) as {
          top: number;
          bottom: number;
          left: number;
          right: number;
          text: string;
        };
        await page.screenshot({ path: join(dir, 'overlay-600x200.png') });
        expect(box.text).toMatch(/uncancelled result/);
        expect(box.top).toBeGreaterThanOrEqual(0);
        expect(box.left).toBeGreaterThanOrEqual(0);
        expect(box.bottom).toBeLessThanOrEqual(200);
        expect(box.right).toBeLessThanOrEqual(600);
      });
    }
  });
});
