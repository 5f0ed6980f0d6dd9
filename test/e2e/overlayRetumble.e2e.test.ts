/**
 * A throw tumbled again on the OBS overlay, in Debian's Chromium: `dicerig serve --config` on a simulated X-Wing rig
 * whose dice often come to rest cocked (as a worn tray makes them), so the overlay must say why the rig throws again.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimServePages, TOKEN, type SimServePages } from './support/simServePages.js';

const dir = mkdtempSync(join(tmpdir(), 'dicerig-overlay-retumble-e2e-'));
let pages: SimServePages;

const CONFIG = `name: cocky-tray
seed: 5
dice:
  - { label: red-1, type: red }
  - { label: red-2, type: red }
  - { label: green-1, type: green }
  - { label: green-2, type: green }
rig:
  driver: sim
camera:
  source: sim
  lighting: studio
  cockedRate: 0.3
`;

beforeAll(async () => {
  const file = join(dir, 'session.yaml');
  writeFileSync(file, CONFIG);
  pages = await startSimServePages(dir, ['--config', file]);
}, 90_000);

afterAll(async () => {
  await pages?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a re-tumbled throw on the overlay', { timeout: 150_000 }, () => {
  it('says the rig rolls again because a die is cocked, and marks that die cocked', async () => {
    const page = await pages.open('/overlay', { width: 900, height: 420 });
    await expect.poll(() => page.locator('#overlay').getAttribute('data-state')).toBeTruthy();
    await page.evaluate(`(() => {
      window.seen = { results: [], declined: [] };
      new MutationObserver(() => {
        window.seen.results.push(document.getElementById('result').textContent);
        for (const s of document.querySelectorAll('#dice .die-slot.declined')) window.seen.declined.push({ status: s.dataset.status, note: s.querySelector('.note').textContent });
      }).observe(document.getElementById('current'), { childList: true, subtree: true, characterData: true });
    })()`);
    type Seen = { results: string[]; declined: { status: string; note: string }[] };
    const cocked = async (): Promise<boolean> => ((await page.evaluate('window.seen')) as Seen).results.includes('rolling again: a die is cocked');
    // Each die is cocked 3 times in 10: a few rolls of four dice meet one.
    for (let i = 0; i < 6 && !(await cocked()); i++) {
      const id = await pages.queueRoll({ dice: '2 red, 2 green' });
      await expect
        .poll(async () => ((await fetch(`${pages.url}/api/rolls/${id}`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.json())) as { state: string }).state, { timeout: 60_000, interval: 250 })
        .toMatch(/^(done|failed)$/);
    }
    const seen = (await page.evaluate('window.seen')) as Seen;
    expect(seen.results).toContain('rolling again: a die is cocked');
    expect(seen.declined).toContainEqual({ status: 'cocked', note: 'cocked' });
    expect(pages.problems).toEqual([]);
  });
});
