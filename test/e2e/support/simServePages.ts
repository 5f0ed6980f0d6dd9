/**
 * `dicerig serve --sim` with its pages open in Debian's Chromium, for tests of one page behaviour each: the server on
 * a free port with an API token, a browser, pages opened at a given size, and the page and console errors they hit.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { pagesBrowser, type PagesBrowser } from '../../support/pagesBrowser.js';
import { startCliServer, stopCliServer, type CliServer } from './cliServer.js';

export const TOKEN = 'e2e-api-token-pages-0123456789';

export interface SimServePages {
  readonly url: string;
  readonly server: CliServer;
  /** Page errors and console errors seen so far, each with the page's path. */
  readonly problems: string[];
  open(path: string, viewport: { width: number; height: number }): Promise<Page>;
  /** Asks for a roll without waiting for it (it joins the queue); resolves to its id. */
  queueRoll(body: unknown): Promise<string>;
  close(): Promise<void>;
}

/** `serve` (on a free port, into `dir`'s roll store) with `args`: `--sim` by default, e.g. `['--sim', 'd6']` or `['--config', file]`. */
export async function startSimServePages(dir: string, args: readonly string[] = ['--sim']): Promise<SimServePages> {
  const server = await startCliServer(['serve', ...args, '--port', '0', '--db', join(dir, 'rolls.db')], { timeoutMs: 60_000, env: { ...process.env, DICERIG_TOKEN: TOKEN } });
  let browser: PagesBrowser;
  try {
    browser = await pagesBrowser();
  } catch (e) {
    await stopCliServer(server.proc);
    throw e;
  }
  const problems: string[] = [];
  return {
    url: server.url,
    server,
    problems,
    open: async (path, viewport) => {
      const page = await browser.newPage({ viewport });
      page.on('pageerror', (e) => problems.push(`${path}: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`${path}: ${m.text()}`);
      });
      await page.goto(`${server.url}${path}`);
      return page;
    },
    queueRoll: async (body) => {
      const r = await fetch(`${server.url}/api/rolls`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const answer = (await r.json()) as { id?: string; roll?: { id: string } };
      const id = answer.id ?? answer.roll?.id;
      if (!r.ok || id === undefined) throw new Error(`roll refused (${r.status}): ${JSON.stringify(answer)}`);
      return id;
    },
    close: async () => {
      await browser.close();
      await stopCliServer(server.proc);
    },
  };
}
