/**
 * `dicerig serve --sim` as a user runs it, with the dashboard and the OBS
 * overlay open in Debian's Chromium: a roll asked through the API appears on
 * the overlay (the die icons in the DOM are the faces the API answered, and a
 * screenshot of each icon is closest to the picture of that face among all the
 * die's faces), the dashboard updates, and both pages reconnect by themselves
 * after the server restarts.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { pagesBrowser, type PagesBrowser } from '../support/pagesBrowser.js';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { startCliServer, stopCliServer } from './support/cliServer.js';

const TOKEN = 'e2e-api-token-0123456789abcdef';
const CHAT = 'e2e-chat-token-0123';
type Dataset = { dataset: Record<string, string | undefined> };
type Styled = { getComputedStyle(element: unknown): { backgroundColor: string } };
const SYMBOLS: Record<string, string[]> = { red: ['hit', 'crit', 'focus', 'blank'], green: ['evade', 'focus', 'blank'] };

const dir = mkdtempSync(join(tmpdir(), 'dicerig-serve-e2e-'));
// The screenshots stay in their own temp folder for a person to look at; the rest goes.
const shots = mkdtempSync(join(tmpdir(), 'dicerig-serve-shots-'));
let child: ChildProcess | undefined;
let browser: PagesBrowser | undefined;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a !== null ? a.port : 0));
    });
  });
}

/** Starts `dicerig serve --sim` and resolves once it prints its dashboard address. */
async function startServe(port: number): Promise<{ proc: ChildProcess }> {
  return startCliServer(['serve', '--sim', '--port', String(port), '--db', join(dir, 'rolls.db')], {
    timeoutMs: 60_000,
    env: { ...process.env, DICERIG_TOKEN: TOKEN, DICERIG_CHAT_TOKEN: CHAT },
  });
}

async function roll(url: string, body: unknown): Promise<{ id: string; state: string; dice: { kind: string; symbol: string }[]; line: string }> {
  const r = await fetch(`${url}/api/rolls?wait=10`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await r.json()) as { id: string; state: string; dice: { kind: string; symbol: string }[]; line: string };
}

async function raw(png: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

function difference(a: { data: Buffer }, b: { data: Buffer }): number {
  let d = 0;
  const n = Math.min(a.data.length, b.data.length);
  for (let i = 0; i < n; i++) d += Math.abs((a.data[i] as number) - (b.data[i] as number));
  return d / n;
}

/** Pictures of every face of each die kind, drawn by the overlay's own icons in an overlay page (same styles, same size). */
async function referenceIcons(page: Page): Promise<Map<string, Buffer>> {
  // The overlay page shows the last roll when its first state arrives, replacing the dice box: draw the references
  // only after that, or they can be wiped before they are photographed (a timeout seen twice under load).
  await page.locator('#dice .die-slot').first().waitFor();
  // Given as text: the test runner rewrites import() in functions it compiles, and this one runs in the page.
  await page.evaluate(`(async (symbols) => {
    const icons = await import('/static/icons.js');
    const box = document.getElementById('dice');
    document.getElementById('overlay').dataset.state = 'done';
    box.replaceChildren();
    for (const [kind, list] of Object.entries(symbols)) {
      for (const s of list) {
        const slot = document.createElement('div');
        slot.className = 'die-slot';
        slot.dataset.ref = kind + ':' + s;
        slot.append(icons.dieIcon(kind, s, 96));
        box.append(slot);
      }
    }
  })(${JSON.stringify(SYMBOLS)})`);
  const out = new Map<string, Buffer>();
  for (const [kind, list] of Object.entries(SYMBOLS)) for (const s of list) out.set(`${kind}:${s}`, await page.locator(`[data-ref="${kind}:${s}"] svg`).screenshot());
  return out;
}

afterAll(async () => {
  await browser?.close();
  await stopCliServer(child);
  rmSync(dir, { recursive: true, force: true });
});

describe('dicerig serve in a browser', { timeout: 180_000 }, () => {
  it('shows an API roll on the overlay with the right faces, updates the dashboard, and both reconnect after a restart', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    child = (await startServe(port)).proc;
    browser = await pagesBrowser();
    const problems: string[] = [];
    const open = async (path: string, viewport: { width: number; height: number }): Promise<Page> => {
      const page = await browser!.newPage({ viewport });
      const name = path.split('#')[0];
      page.on('pageerror', (e) => problems.push(`${name}: ${e.message}`));
      page.on('console', (m) => {
        // A refused WebSocket while the server restarts is expected; anything else is a problem.
        if (m.type() === 'error' && !/WebSocket|ERR_CONNECTION_REFUSED/.test(m.text())) problems.push(`${name}: ${m.text()}`);
      });
      await page.goto(`${url}${path}`);
      return page;
    };
    const dashboard = await open(`/#token=${TOKEN}`, { width: 1400, height: 900 });
    const overlay = await open('/overlay?size=96&theme=dark', { width: 800, height: 420 });
    await expect.poll(() => dashboard.locator('#connection').getAttribute('data-status')).toBe('live');
    await expect.poll(() => overlay.locator('#connection').isHidden()).toBe(true);
    // The token left the address bar once read.
    expect(dashboard.url()).toBe(`${url}/`);

    const answer = await roll(url, { attack: { red: 2, focus: true }, defense: { green: 2 }, by: '<b>viewer</b>' });
    expect(answer.state).toBe('done');
    await expect.poll(() => overlay.locator('#overlay').getAttribute('data-roll'), { timeout: 10_000 }).toBe(answer.id);
    await expect.poll(() => overlay.locator('#overlay').getAttribute('data-state')).toBe('done');
    const shown = await overlay.locator('#dice .die-slot').evaluateAll((els) => els.map((e) => `${(e as unknown as Dataset).dataset.kind}:${(e as unknown as Dataset).dataset.symbol}`));
    expect(shown).toEqual(answer.dice.map((d) => `${d.kind}:${d.symbol}`));
    expect(await overlay.locator('#current').getAttribute('data-fresh')).toBe('true');
    expect(await overlay.locator('#who').innerText()).toBe('<b>viewer</b>');
    expect(await overlay.locator('#result').innerText()).toBe(answer.line.slice(answer.line.lastIndexOf('->') + 2).trim());
    expect(answer.line).not.toContain('; ');
    // The overlay's background stays transparent for OBS.
    expect(await overlay.locator('body').evaluate((b) => (globalThis as unknown as Styled).getComputedStyle(b).backgroundColor)).toBe('rgba(0, 0, 0, 0)');

    // The screenshot: each die icon on screen looks like its answered face, not like any other face of that die.
    const shot = join(shots, 'overlay.png');
    await overlay.screenshot({ path: shot, omitBackground: true });
    const icons = await Promise.all(answer.dice.map((_, i) => overlay.locator('#dice .die-slot svg').nth(i).screenshot()));
    const reference = await open('/overlay?history=0', { width: 800, height: 420 });
    const refs = await referenceIcons(reference);
    for (const [i, d] of answer.dice.entries()) {
      const seen = await raw(icons[i] as Buffer);
      const scores = await Promise.all((SYMBOLS[d.kind] ?? []).map(async (s) => ({ s, diff: difference(seen, await raw(refs.get(`${d.kind}:${s}`) as Buffer)) })));
      scores.sort((a, b) => a.diff - b.diff);
      expect(scores[0]?.s, `die ${i} (${d.kind} ${d.symbol}): ${JSON.stringify(scores)}`).toBe(d.symbol);
    }
    await reference.close();

    // The dashboard: the roll listed, the frame shown with every die outlined and labelled.
    await expect.poll(() => dashboard.locator(`#rolls li[data-roll="${answer.id}"]`).innerText()).toContain(answer.line);
    expect(Number(await dashboard.locator('#frame').getAttribute('data-frame'))).toBeGreaterThan(0);
    expect(await dashboard.locator('#frame-marks rect').count()).toBe(4);
    expect(await dashboard.locator('#frame-marks text').first().textContent()).toMatch(/^sim-(red|green)-\d: /);
    await expect.poll(async () => (await dashboard.locator('#frame').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)) > 0).toBe(true);
    await dashboard.screenshot({ path: join(shots, 'dashboard.png') });

    // A page opened now shows that roll as an earlier one, never as new.
    const late = await open('/overlay', { width: 800, height: 420 });
    await expect.poll(() => late.locator('#overlay').getAttribute('data-roll')).toBe(answer.id);
    expect(await late.locator('#current').getAttribute('data-fresh')).toBe('false');
    await late.close();

    // The URL's options: only the red dice, drawn at 48 px, in the light theme.
    const reds = await open('/overlay?dice=red&size=48&theme=light', { width: 800, height: 420 });
    await expect.poll(() => reds.locator('#overlay').getAttribute('data-roll')).toBe(answer.id);
    const redSlots = await reds.locator('#dice .die-slot svg').evaluateAll((els) => els.map((e) => `${(e as unknown as Dataset).dataset.kind}:${(e as unknown as { getAttribute(n: string): string | null }).getAttribute('width')}`));
    expect(redSlots).toEqual(answer.dice.filter((d) => d.kind === 'red').map(() => 'red:48'));
    expect(await reds.locator('body').getAttribute('class')).toContain('theme-light');
    await reds.close();

    // Restart the server: both pages see it go, come back by themselves, and follow the new server.
    const epoch = await dashboard.locator('body').getAttribute('data-epoch');
    await stopCliServer(child);
    await expect.poll(() => dashboard.locator('#connection').getAttribute('data-status')).toBe('reconnecting');
    await expect.poll(() => overlay.locator('#connection').isHidden()).toBe(false);
    child = (await startServe(port)).proc;
    await expect.poll(() => dashboard.locator('#connection').getAttribute('data-status'), { timeout: 20_000 }).toBe('live');
    await expect.poll(() => overlay.locator('#connection').isHidden(), { timeout: 20_000 }).toBe(true);
    expect(await dashboard.locator('body').getAttribute('data-epoch')).not.toBe(epoch);
    // The new server knows no roll yet: the overlay clears rather than show the old roll again.
    await expect.poll(() => overlay.locator('#overlay').getAttribute('data-state')).toBe('empty');
    const after = await roll(url, { dice: '1 red, 1 green', by: 'after-restart' });
    await expect.poll(() => overlay.locator('#overlay').getAttribute('data-roll'), { timeout: 10_000 }).toBe(after.id);
    await expect.poll(() => overlay.locator('#overlay').getAttribute('data-state')).toBe('done');
    expect(await overlay.locator('#dice .die-slot').evaluateAll((els) => els.map((e) => `${(e as unknown as Dataset).dataset.kind}:${(e as unknown as Dataset).dataset.symbol}`))).toEqual(
      after.dice.map((d) => `${d.kind}:${d.symbol}`),
    );
    await expect.poll(() => dashboard.locator(`#rolls li[data-roll="${after.id}"]`).count()).toBe(1);
    // Two groups, two results: "1 red: ... -> N damage; 1 green: ... -> N evades".
    expect(await overlay.locator('#result').innerText()).toMatch(/^\d damage; \d evades?$/);
    await overlay.screenshot({ path: join(shots, 'overlay-after-restart.png'), omitBackground: true });

    // No fairness roll yet: nothing to say still needed (not "0").
    expect(await dashboard.locator('#dice-table tr[data-die="sim-red-1"] [data-col="needed"]').innerText()).toBe('—');
    // The dashboard's own buttons: switch to a fairness run, start it, watch the tallies and the evidence plot move, pause, switch back.
    await dashboard.locator('#mode-fairness').click();
    await expect.poll(() => dashboard.locator('body').getAttribute('data-mode')).toBe('fairness');
    await dashboard.locator('#start').click();
    await expect.poll(() => dashboard.locator('body').getAttribute('data-run')).toBe('running');
    await expect.poll(async () => Number(await dashboard.locator('#dice-table tr[data-die="sim-red-1"] [data-col="rolls"]').innerText()), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    expect(await dashboard.locator('#evidence polyline').count()).toBe(4);
    // The UNFAIR line is the session's own: its 4 dice are each decided at α/4, so at e = 4/α = 400 (not 1/α).
    expect(await dashboard.locator('#evidence text', { hasText: 'UNFAIR above' }).textContent()).toBe('UNFAIR above ln(4/α) = 5.99 (e ≥ 400)');
    await dashboard.locator('#pause').click();
    await expect.poll(() => dashboard.locator('body').getAttribute('data-run'), { timeout: 15_000 }).toBe('paused');
    await dashboard.locator('#mode-stream').click();
    await expect.poll(() => dashboard.locator('body').getAttribute('data-mode')).toBe('stream');
    expect(await dashboard.locator('#control-message').innerText()).toBe('ok');
    await dashboard.screenshot({ path: join(shots, 'dashboard-after-run.png') });
    expect(problems).toEqual([]);
  });
});
