/**
 * The dashboard for a streamer on a phone, with a keyboard or a screen reader, on `dicerig serve --sim` in Debian's
 * Chromium: it fits a 390 px screen, says which mode is on in words, reads in an order where the API token comes
 * before the buttons that need it, keeps its coloured text readable, and says what to do when a button is refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimServePages, TOKEN, type SimServePages } from './support/simServePages.js';
import { contrast } from './support/contrast.js';

const dir = mkdtempSync(join(tmpdir(), 'dicerig-dashboard-access-e2e-'));
let pages: SimServePages;
let phone: Page;

beforeAll(async () => {
  pages = await startSimServePages(dir);
  phone = await pages.open('/', { width: 390, height: 844 });
  // A locator waits without eval: waitForFunction's later polls run eval in the page, which the dashboard's CSP
  // refuses, so it only passed when the first poll already saw the connection live.
  await phone.locator('#connection[data-status="live"]').waitFor({ timeout: 60_000 });
}, 90_000);

afterAll(async () => {
  await pages?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the dashboard', { timeout: 120_000 }, () => {
  it('fits a 390 px phone screen with nothing wider than the window, and says there is no frame or queue yet in words', async () => {
    const widths = (await phone.evaluate(`({ page: document.documentElement.scrollWidth, header: document.querySelector('header').getBoundingClientRect().right,
      main: document.querySelector('main').getBoundingClientRect().right })`)) as Record<string, number>;
    expect(widths.page).toBeLessThanOrEqual(390);
    expect(widths.header).toBeLessThanOrEqual(390);
    expect(widths.main).toBeLessThanOrEqual(390);
    expect(await phone.locator('#frame').isVisible()).toBe(false);
    expect(await phone.locator('#frame-empty').innerText()).toMatch(/^No frame yet/);
    expect(await phone.locator('#queue').isVisible()).toBe(false);
    expect(await phone.locator('#queue-empty').innerText()).toBe('No rolls waiting.');
    await phone.screenshot({ path: join(dir, 'dashboard-390.png'), fullPage: true });
  });

  it('keeps the SIMULATED badge and the orange verdict and warning text at 4.5:1 contrast or more', async () => {
    const colours = (await phone.evaluate(`(() => {
      const style = (e) => getComputedStyle(e);
      const row = document.createElement('tr');
      row.innerHTML = '<td class="state-RIG_SUSPECT">RIG_SUSPECT</td><td class="unreadable">no blank read: review</td>';
      document.querySelector('#dice-table tbody').append(row);
      const page = style(document.body).backgroundColor;
      const out = { sim: [style(document.getElementById('sim')).color, style(document.getElementById('sim')).backgroundColor],
        suspect: [style(row.children[0]).color, page], unreadable: [style(row.children[1]).color, page] };
      row.remove();
      return out;
    })()`)) as Record<string, [string, string]>;
    for (const [name, [fg, bg]] of Object.entries(colours)) expect(contrast(fg, bg), `${name}: ${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
  });

  it('reaches the API token before the buttons that need it, and shows a visible focus ring on the pressed mode button', async () => {
    const order: string[] = [];
    await phone.locator('body').focus();
    for (let i = 0; i < 8; i++) {
      await phone.keyboard.press('Tab');
      order.push((await phone.evaluate('document.activeElement.id')) as string);
    }
    expect(order.indexOf('token')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('token')).toBeLessThan(order.indexOf('mode-stream'));
    while ((await phone.evaluate('document.activeElement.id')) !== 'mode-stream') await phone.keyboard.press('Shift+Tab');
    const ring = (await phone.evaluate(`(() => { const s = getComputedStyle(document.activeElement); return { style: s.outlineStyle, width: parseFloat(s.outlineWidth), colour: s.outlineColor,
      bar: getComputedStyle(document.getElementById('controls')).backgroundColor }; })()`)) as { style: string; width: number; colour: string; bar: string };
    expect(ring.style).not.toBe('none');
    expect(ring.width).toBeGreaterThanOrEqual(2);
    expect(contrast(ring.colour, ring.bar)).toBeGreaterThanOrEqual(3);
  });

  it('says which mode is on with aria-pressed, and what to do when a button is refused for want of the token', async () => {
    expect(await phone.locator('#mode-stream').getAttribute('aria-pressed')).toBe('true');
    expect(await phone.locator('#mode-fairness').getAttribute('aria-pressed')).toBe('false');
    await phone.locator('#mode-fairness').click();
    await expect.poll(() => phone.locator('#control-message').innerText()).toMatch(/^The buttons need the API token: paste the DICERIG_TOKEN/);
    expect(await phone.locator('#control-message').innerText()).not.toMatch(/bearer/i);
    await phone.locator('#token').fill(TOKEN);
    await phone.locator('#token').dispatchEvent('change');
    await phone.locator('#mode-fairness').click();
    await expect.poll(() => phone.locator('#mode-fairness').getAttribute('aria-pressed')).toBe('true');
    expect(await phone.locator('#mode-stream').getAttribute('aria-pressed')).toBe('false');
  });

  it('has polite live regions for the connection and for faults and verdicts, besides the buttons\' answers', async () => {
    expect(await phone.locator('#connection').getAttribute('role')).toBe('status');
    expect(await phone.locator('#announce').getAttribute('aria-live')).toBe('polite');
    expect(await phone.locator('#control-message').getAttribute('role')).toBe('status');
    expect(pages.problems.filter((p) => !/401/.test(p))).toEqual([]);
  });
});
