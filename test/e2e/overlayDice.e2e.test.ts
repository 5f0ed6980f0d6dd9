/**
 * The dice on the OBS overlay, on `dicerig serve --sim` (two red, two green X-Wing dice) in Debian's Chromium: each
 * symbol drawn as the dice (and the camera's model of them) show it, a roll under way holding exactly the dice asked
 * in the order asked, and the result line kept in sight in a small browser source.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimServePages, type SimServePages } from './support/simServePages.js';

const dir = mkdtempSync(join(tmpdir(), 'dicerig-overlay-dice-e2e-'));
let pages: SimServePages;

beforeAll(async () => {
  pages = await startSimServePages(dir);
}, 90_000);

afterAll(async () => {
  await pages?.close();
  rmSync(dir, { recursive: true, force: true });
});

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
});
