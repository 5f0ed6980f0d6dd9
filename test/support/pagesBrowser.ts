/**
 * Debian's Chromium for the page tests, launched once per test worker and shared by the files it runs one after
 * another (vitest.config.ts: isolate false, so this module and its browser outlive a file). A launch costs over a
 * second of CPU, and some fifteen files opened their own. Each page gets a fresh context of its own, as
 * Browser.newPage gives one (no cookies, storage or cache shared between pages, let alone files), and a file's
 * close() closes the contexts it made, leaving the browser for the next file. Playwright ends the browser with the
 * worker.
 */
import { existsSync } from 'node:fs';
import { DISABLE_FEATURES_SWITCH, featuresDropped } from '../../src/camera/render3d/chromiumSwitches.js';
import { processTable } from './processTable.js';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
/** The omnibox popups each context's window preloaded are switched off as in the product (chromiumSwitches.ts): 10 contexts 10.7 -> 4.5 s CPU, 2026-12-07. */
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', DISABLE_FEATURES_SWITCH];

/** featuresDropped of the launched browser (a child of this process, talking to Playwright through a pipe). */
function launchedFeaturesDropped(): string[] | undefined {
  const browser = [...processTable().values()].find((p) => p.ppid === process.pid && p.args.includes('--remote-debugging-pipe'));
  return browser === undefined ? undefined : featuresDropped(browser.args);
}

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
    async (b) => {
      const dropped = launchedFeaturesDropped();
      if (dropped === undefined || dropped.length > 0) {
        await b.close();
        throw new Error(
          dropped === undefined
            ? 'Found no launched Chromium among this process\'s children to check its --disable-features (test/support/pagesBrowser.ts).'
            : `Playwright now disables Chromium features that our --disable-features leaves out (${dropped.join(', ')}): add them to PLAYWRIGHT_DISABLED in src/camera/render3d/chromiumSwitches.ts.`,
        );
      }
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
