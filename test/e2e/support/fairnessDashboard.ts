/**
 * `dicerig serve --config` on a session config with the simulated rig (on the simulated clock, so throws come as fast
 * as the host reads them), in fairness mode, with its dashboard open in Debian's Chromium and the run started by the
 * page's own Start button. Page errors and console errors are collected for the test to check.
 */
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { pagesBrowser, type PagesBrowser } from '../../support/pagesBrowser.js';
import { startCliServer, stopCliServer, type CliServer } from './cliServer.js';

export interface FairnessDashboard {
  readonly server: CliServer;
  readonly browser: PagesBrowser;
  readonly page: Page;
  /** Page errors and console errors seen so far. */
  readonly problems: string[];
  /** The roll store the server writes (`dir`/rolls.db). */
  readonly db: string;
  close(): Promise<void>;
}

/** Writes `config` into `dir`, serves it and opens its dashboard with the run started. */
export async function openFairnessDashboard(dir: string, config: string, token: string): Promise<FairnessDashboard> {
  const file = join(dir, 'session.yaml');
  const db = join(dir, 'rolls.db');
  writeFileSync(file, config);
  const server = await startCliServer(['serve', '--config', file, '--port', '0', '--mode', 'fairness', '--db', db], { timeoutMs: 60_000, env: { ...process.env, DICERIG_TOKEN: token } });
  let browser: PagesBrowser | undefined;
  try {
    browser = await pagesBrowser();
    const problems: string[] = [];
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      // A frame the server let go of before the page loaded its picture answers 404, and the page skips it by design
      // (dashboard.js, renderFrame); Chromium still logs the failed load. Under load that is ordinary, not a fault.
      if (m.type() === 'error' && !/\/live\/frame\/\d+\.jpg$/.test(m.location().url)) problems.push(m.text());
    });
    await page.goto(`${server.url}/#token=${token}`);
    await expect.poll(() => page.locator('#connection').getAttribute('data-status')).toBe('live');
    await page.locator('#start').click();
    await expect.poll(() => page.locator('body').getAttribute('data-run')).toBe('running');
    const opened = browser;
    return { server, browser: opened, page, problems, db, close: async () => (await opened.close(), await stopCliServer(server.proc)) };
  } catch (e) {
    await browser?.close();
    await stopCliServer(server.proc as ChildProcess);
    throw e;
  }
}
