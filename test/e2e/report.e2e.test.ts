/**
 * Opens a generated report in headless Chromium, as a user would: it must
 * render with no console error and no request beyond the file itself, show
 * its key parts (the simulated banner on the first screen), print, and look
 * like something (a screenshot that is not blank).
 *
 * Chromium is the Debian package (scripts/apt-packages.txt); playwright-core
 * never downloads a browser. Without /usr/bin/chromium this test fails with
 * the instruction: a report nobody checked in a browser is not tested.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/runCli.js';
import { pagesBrowser, type PagesBrowser } from '../support/pagesBrowser.js';
import { fixtureStore } from '../report/support/fixtureStore.js';

const CHROMIUM = '/usr/bin/chromium';
const VIEWPORT = { width: 1280, height: 900 };

let browser: PagesBrowser | undefined;
let opened: Promise<OpenedReport> | undefined;
let fixtureDir: string | undefined;

interface OpenedReport {
  readonly page: Page;
  readonly url: string;
  readonly consoleErrors: string[];
  readonly failedRequests: string[];
  readonly otherRequests: string[];
}

/**
 * Writes the fixture report and opens it in Chromium, once for the file. Every
 * test awaits it, so a missing browser fails each test with the instruction
 * (rather than skipping them).
 */
function openReport(): Promise<OpenedReport> {
  opened ??= (async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `Chromium is not installed at ${CHROMIUM}, and the report's browser test needs it. ` +
          'Run `bash scripts/setup.sh` (it installs the Debian packages in scripts/apt-packages.txt), or `sudo apt-get install --no-install-recommends chromium`.',
      );
    }
    const fixture = fixtureStore();
    fixtureDir = fixture.dir;
    const out = join(fixture.dir, 'report');
    const r = await runCli('report', 'demo-loaded', '--db', fixture.db, '--out', out);
    if (r.code !== 0) throw new Error(`dicerig report failed: ${r.err}`);
    const url = pathToFileURL(join(out, 'report.html')).href;
    // The worker's shared Chromium (test/support/pagesBrowser.ts), a fresh context of its own: a launch of its own cost over a second of CPU.
    browser = await pagesBrowser();
    const page = await browser.newPage({ viewport: VIEWPORT });
    const report: OpenedReport = { page, url, consoleErrors: [], failedRequests: [], otherRequests: [] };
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') report.consoleErrors.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => report.consoleErrors.push(`page error: ${e.message}`));
    page.on('requestfailed', (req) => report.failedRequests.push(`${req.url()}: ${req.failure()?.errorText ?? 'failed'}`));
    page.on('request', (req) => {
      if (req.url() !== url) report.otherRequests.push(req.url());
    });
    await page.goto(url, { waitUntil: 'load' });
    return report;
  })();
  return opened;
}

afterAll(async () => {
  await browser?.close();
  // The screenshot stays in its own temp folder for a person to look at; the rest goes.
  if (fixtureDir !== undefined) rmSync(fixtureDir, { recursive: true, force: true });
});

describe('the report in a browser', { timeout: 60_000 }, () => {
  it('renders with no console error, no failed request and no request beyond the file itself', async () => {
    const { consoleErrors, failedRequests, otherRequests } = await openReport();
    expect(consoleErrors).toEqual([]);
    expect(failedRequests).toEqual([]);
    expect(otherRequests).toEqual([]);
  });

  it('shows on the first screen that the session is simulated, and the verdict table', async () => {
    const { page } = await openReport();
    const banner = page.locator('#provenance');
    await expect.poll(() => banner.isVisible()).toBe(true);
    expect(await banner.innerText()).toMatch(/^SIMULATED SESSION\./);
    const box = await banner.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.y ?? Infinity) + (box?.height ?? 0)).toBeLessThanOrEqual(VIEWPORT.height);
    expect(await page.locator('h1').innerText()).toBe('Dice report: session 1 (demo-loaded)');
    const rows = page.locator('#summary table.organiser-table tbody tr');
    expect(await rows.count()).toBe(4);
    expect(await page.locator('#summary tr[data-die="R2"] [data-col="verdict"]').innerText()).toBe('UNFAIR');
    // The inline style sheet applied: the UNFAIR badge has its colour.
    const badge = page.locator('#summary tr[data-die="R2"] .badge');
    type Styled = { getComputedStyle(element: unknown): { backgroundColor: string } };
    expect(await badge.evaluate((e) => (globalThis as unknown as Styled).getComputedStyle(e).backgroundColor)).toBe('rgb(168, 74, 0)');
  });

  it('draws every die’s charts at a readable size', async () => {
    const { page } = await openReport();
    for (const key of ['r1', 'r2', 'g1', 'g2']) {
      const section = page.locator(`#die-${key}`);
      expect(await section.isVisible()).toBe(true);
      const charts = section.locator('figure svg');
      expect(await charts.count()).toBe(5);
      for (let i = 0; i < 5; i++) {
        const box = await charts.nth(i).boundingBox();
        expect(box?.width ?? 0).toBeGreaterThan(300);
        expect(box?.height ?? 0).toBeGreaterThan(100);
      }
    }
    expect(await page.locator('#die-r2 [data-role="bar"][data-label="hit-1"]').first().isVisible()).toBe(true);
    expect(await page.locator('#rig-health table.rig-figures').isVisible()).toBe(true);
    expect(await page.locator('#homogeneity table.homogeneity').isVisible()).toBe(true);
  });

  it('fits a phone’s width: only tables and charts scroll sideways, each in its own frame, and chart labels stay readable', async () => {
    const { page } = await openReport();
    await page.setViewportSize({ width: 390, height: 800 });
    type Box = { getBoundingClientRect(): { right: number; width: number }; getAttribute(n: string): string | null };
    type Doc = { documentElement: { scrollWidth: number }; querySelectorAll(s: string): ArrayLike<Box> };
    let widths: { page: number; figures: number[]; scales: number[] };
    try {
      widths = await page.evaluate(() => {
        const doc = (globalThis as unknown as { document: Doc }).document;
        // How much each chart is scaled from its drawing (viewBox) to the screen: its 11-px labels are that times 11 px.
        const scales = Array.from(doc.querySelectorAll('figure svg')).map((svg) => svg.getBoundingClientRect().width / Number((svg.getAttribute('viewBox') ?? '0 0 1 1').split(' ')[2]));
        return { page: doc.documentElement.scrollWidth, figures: Array.from(doc.querySelectorAll('figure')).map((f) => f.getBoundingClientRect().right), scales };
      });
    } finally {
      // The page is shared with the other tests, which expect the usual viewport.
      await page.setViewportSize(VIEWPORT);
    }
    expect(widths.page).toBeLessThanOrEqual(390);
    expect(widths.figures.length).toBeGreaterThan(0);
    for (const right of widths.figures) expect(right).toBeLessThanOrEqual(390);
    expect(widths.scales.length).toBeGreaterThan(0);
    // Labels of 11 px drawn at 10 px or more (at 390 px wide without the rule they were 5-6 px).
    for (const scale of widths.scales) expect(scale * 11).toBeGreaterThanOrEqual(9.9);
  });

  it('takes a full-page screenshot that is a real picture, not a blank page', async () => {
    const { page } = await openReport();
    const file = join(mkdtempSync(join(tmpdir(), 'dicerig-report-shot-')), 'report.png');
    await page.screenshot({ path: file, fullPage: true });
    const meta = await sharp(file).metadata();
    expect(meta.format).toBe('png');
    expect(meta.width).toBe(VIEWPORT.width);
    // Four dice with five charts each make a long page.
    expect(meta.height).toBeGreaterThan(4 * VIEWPORT.height);
    const stats = await sharp(file).stats();
    expect(Math.max(...stats.channels.slice(0, 3).map((c) => c.stdev))).toBeGreaterThan(20);
  });

  it('prints: the navigation is hidden, the verdict table stays, and each die starts a page', async () => {
    const { page } = await openReport();
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('nav.toc').isVisible()).toBe(false);
    expect(await page.locator('#summary table.organiser-table').isVisible()).toBe(true);
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page(?![s\w])/g) ?? []).length;
    // Verdicts, four dice, rig health, homogeneity, method: at least seven pages.
    expect(pages).toBeGreaterThanOrEqual(7);
    await page.emulateMedia({ media: 'screen' });
  });
});
