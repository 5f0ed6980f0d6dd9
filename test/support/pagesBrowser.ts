/**
 * Debian's Chromium for the page tests, launched once per test worker and shared by the files it runs one after
 * another (vitest.config.ts: isolate false, so this module and its browser outlive a file). A launch costs over a
 * second of CPU, and some fifteen files opened their own. Each page gets a fresh context of its own, as
 * Browser.newPage gives one (no cookies, storage or cache shared between pages, let alone files), and a file's
 * close() closes the contexts it made, leaving the browser for the next file. Playwright ends the browser with the
 * worker.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let launched: Promise<Browser> | undefined;

export interface PagesBrowser {
  /** A page in a new context of its own; closing the page closes its context (as Browser.newPage). */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** Closes every page and context made through this handle; the browser stays for the next file. */
  close(): Promise<void>;
}

function browser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM}; run \`bash scripts/setup.sh\` (it installs the Debian packages in scripts/apt-packages.txt).`);
  launched ??= chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS }).then(
    (b) => {
      // A browser that crashed or was closed is launched again by the next file that asks.
      b.on('disconnected', () => {
        launched = undefined;
      });
      return b;
    },
    (e: unknown) => {
      launched = undefined;
      throw e;
    },
  );
  return launched;
}

/** The worker's Chromium (launched on first use), as a handle for one test file. */
export async function pagesBrowser(): Promise<PagesBrowser> {
  const shared = await browser();
  const contexts = new Set<BrowserContext>();
  return {
    async newPage(options) {
      const context = await shared.newContext(options);
      contexts.add(context);
      context.on('close', () => contexts.delete(context));
      const page = await context.newPage();
      page.on('close', () => void context.close().catch(() => undefined));
      return page;
    },
    async close() {
      for (const context of [...contexts]) await context.close().catch(() => undefined);
    },
  };
}
