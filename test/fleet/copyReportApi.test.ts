/**
 * Truth 3 for a fleet copy on the fleet dashboard, with a real PostgreSQL fleet store, the real HTTP server and
 * Chromium: `GET /api/fleet/sessions/COPY/report` answers what `dicerig report COPY --db URL --json` prints (the
 * report of the session the copy holds the rolls of, in its place, with `inPlaceOf`; without the files `report`
 * writes), and the copy's row on the page shows that session's verdicts, saying first whose they are. When that
 * session's report cannot be made, the copy has none either: a 409 naming why, never verdicts made of the copy.
 *
 * Fleet ids follow the sync order: 1 the session (rig:1), 2 an import of its export (other:1).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allDice } from '../../src/dice/catalogue.js';
import { serveFleet, type RunningFleetServer } from '../../src/server/fleet/serveFleet.js';
import { runCliOk as ok } from '../cli/runCli.js';
import { tempDir } from '../store/support/fixtures.js';
import { pagesBrowser, type PagesBrowser } from '../support/pagesBrowser.js';
import type { ScratchPostgres } from '../support/postgres.js';
import { copyFleet } from './support/copyFleet.js';

let pg: ScratchPostgres;
let url: string;
let browser: PagesBrowser | undefined;
const dir = tempDir('dicerig-fleet-copy-report-api-');

beforeAll(async () => {
  ({ pg, url } = await copyFleet(dir));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await pg?.remove();
});

/** The fleet dashboard on a port of this test's range, knowing the dice `dice`. */
function serve(port: number, dice = allDice()): Promise<RunningFleetServer> {
  return serveFleet({ url, dice, host: '127.0.0.1', port, tokens: {}, pollMs: 100 });
}

/** A session's report from the API, asked again while it is not made yet (503, Retry-After). */
async function apiReport(server: RunningFleetServer, id: number): Promise<{ status: number; body: Record<string, unknown> }> {
  for (let i = 0; ; i++) {
    const r = await fetch(`${server.url}/api/fleet/sessions/${id}/report`);
    const body = (await r.json()) as Record<string, unknown>;
    if (r.status !== 503 || i >= 50) return { status: r.status, body };
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await new Promise((done) => setTimeout(done, 100));
  }
}

const COPY_WORDS = /^IN PLACE OF A COPY: fleet session 2, session 1 of other:\S+ is an import of an export of fleet session 1 \(rig:1\).*: its rolls count once, as fleet session 1's, so it has no verdicts of its own\. This is fleet session 1's report in its place: the verdicts below are that session's, as its own report shows them \(dicerig report 1 --db URL\)\.$/;

describe("a fleet copy's report on the fleet dashboard", () => {
  it("is answered by the API as `dicerig report COPY --db URL --json` prints it: its session's report, with inPlaceOf", async () => {
    const cli = JSON.parse((await ok('report', '2', '--db', url, '--out', join(dir, 'copy-json'), '--json')).out) as Record<string, unknown>;
    const { html: _html, charts: _charts, ...json } = cli;
    const server = await serve(47301);
    try {
      const copy = await apiReport(server, 2);
      expect(copy.status, JSON.stringify(copy.body)).toBe(200);
      expect(copy.body).toEqual(json);
      expect(copy.body['inPlaceOf']).toMatchObject({ fleetSession: 2, reportedAs: 1 });
      expect((copy.body['fleetSession'] as { id: number }).id).toBe(1);
      // The session's own report says it is no one's copy; its dice and verdicts are the copy's.
      const original = await apiReport(server, 1);
      expect(original.status).toBe(200);
      expect(original.body['inPlaceOf']).toBeNull();
      expect(copy.body['dice']).toEqual(original.body['dice']);
      expect(copy.body['dice']).not.toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("shows on the page, in the copy's row, its session's verdicts as that session's row shows them, saying first whose they are", async () => {
    const cliLines = (await ok('report', '2', '--db', url, '--out', join(dir, 'copy-text'))).out.split('\n');
    expect(cliLines[1]).toMatch(COPY_WORDS);
    const server = await serve(47302);
    browser = await pagesBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(`${server.url}/`);
      await page.waitForSelector('body[data-ready="true"]');
      const verdicts = (id: number) => page.locator(`tr[data-session="${id}"] [data-col="verdicts"]`);
      for (const id of [1, 2]) await expect.poll(() => verdicts(id).locator('[data-die="loaded-6"] .verdict').count(), { timeout: 20_000 }).toBe(1);
      const die = (id: number) => verdicts(id).locator('[data-die="loaded-6"]').innerText();
      expect(await die(2)).toBe(await die(1));
      // Said first, in the words of the report's second line.
      const said = verdicts(2).locator('.in-place-of-copy');
      expect(await said.innerText()).toBe(cliLines[1]);
      expect(await verdicts(2).locator(':scope > *').first().getAttribute('class')).toContain('in-place-of-copy');
      expect(await verdicts(1).locator('.in-place-of-copy').count()).toBe(0);
    } finally {
      await browser.close();
      await server.close();
    }
  }, 60_000);

  it("is a 409 naming why when its session's report cannot be made (here: a dashboard that knows no die type), and the page shows no verdicts for it", async () => {
    const server = await serve(47303, []);
    try {
      const original = await apiReport(server, 1);
      expect(original.status).toBe(409);
      const why = original.body['error'] as string;
      expect(why).toMatch(/d6/);
      const copy = await apiReport(server, 2);
      expect(copy.status).toBe(409);
      expect(copy.body['error']).toBe(
        `fleet session 2, session 1 of other:${(copy.body['inPlaceOf'] as { originDb: string }).originDb} is ${(copy.body['inPlaceOf'] as { why: string }).why}: it has no verdicts of its own, and fleet session 1's report, whose verdicts they are, could not be made (${why}); \`dicerig report 1 --db URL\` writes it once it can.`,
      );
      expect(copy.body).not.toHaveProperty('dice');
      const state = (await (await fetch(`${server.url}/api/fleet`)).json()) as { sessions: { id: number; verdicts: { dice: unknown[]; note: string | null; inPlaceOf: string | null } | null }[] };
      const row = state.sessions.find((s) => s.id === 2)?.verdicts;
      expect(row).toMatchObject({ dice: [], note: copy.body['error'], inPlaceOf: null });
    } finally {
      await server.close();
    }
  });
});
