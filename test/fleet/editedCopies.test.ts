/**
 * Truths 2 and 3 on a real PostgreSQL fleet store: an import of an edited export says so wherever it is listed or
 * reported, a copy of a fleet session shows no second set of verdicts, an import that copies one file of several
 * names the others, and `verify FILE --db postgres://...` compares the export's rows with the fleet's session.
 *
 * Fleet ids follow the sync order: 1 the session (rig:1), 2 an import of its export with another session's export
 * (multi:1), 3 an import of its export edited since (edited:1), 4 the other session's export imported alone (b-only:1).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allDice } from '../../src/dice/catalogue.js';
import { openFleet } from '../../src/fleet/connect.js';
import { FleetView } from '../../src/server/fleet/fleetView.js';
import { serveFleet } from '../../src/server/fleet/serveFleet.js';
import { sealOf } from '../../src/store/exportSeal.js';
import { runCli, runCliOk as ok } from '../cli/runCli.js';
import { tempDir } from '../store/support/fixtures.js';
import { pagesBrowser } from '../support/pagesBrowser.js';
import { startScratchPostgres, type ScratchPostgres } from '../support/postgres.js';
import { loadedSessionStore } from './support/loadedSession.js';

let pg: ScratchPostgres;
let url: string;
const dir = tempDir('dicerig-fleet-edited-copies-');
const rigDb = join(dir, 'rig.db');
const bDb = join(dir, 'b.db');
const multiDb = join(dir, 'multi.db');
const editedDb = join(dir, 'edited.db');
const bOnlyDb = join(dir, 'b-only.db');
const s1 = join(dir, 's1.jsonl');
const b1 = join(dir, 'b1.jsonl');
const edited = join(dir, 'edited.jsonl');
let editedLabel = '';
let multiSync: { code: number; out: string; err: string };

/** A copy of the JSON Lines export `from` with its manifest (first line) and rows changed. */
function editExport(from: string, to: string, change: (manifest: Record<string, unknown>, rows: string[]) => void): void {
  const [first, ...rows] = readFileSync(from, 'utf8').split('\n');
  const manifest = JSON.parse(first as string) as Record<string, unknown>;
  change(manifest, rows);
  writeFileSync(to, [JSON.stringify(manifest), ...rows].join('\n'));
}

/** Row 5 (line 6) of an export with its face turned (6 to 5, else to 6). */
const turnFace = (rows: string[]): string => {
  const r = JSON.parse(rows[4] as string) as { die: string; face: string; symbol: string };
  const face = r.face === '6' ? '5' : '6';
  rows[4] = JSON.stringify({ ...r, face, symbol: face });
  return r.die;
};

beforeAll(async () => {
  pg = await startScratchPostgres();
  url = await pg.createDatabase('fleet');
  writeFileSync(join(dir, 'b.yaml'), 'seed: 7\ndice:\n  - { label: other-6, type: d6 }\nrig: { driver: sim }\nstopping: { budgetRolls: 60 }\n');
  await loadedSessionStore(dir, rigDb);
  await ok('run', join(dir, 'b.yaml'), '--db', bDb, '--plain');
  await ok('export', '1', '--db', rigDb, '--format', 'jsonl', '--out', s1);
  await ok('export', '1', '--db', bDb, '--format', 'jsonl', '--out', b1);
  await ok('import', s1, b1, '--db', multiDb);
  editExport(s1, edited, (_, rows) => void (editedLabel = turnFace(rows)));
  await ok('import', edited, '--db', editedDb, '--allow-edited');
  await ok('sync', '--db', rigDb, '--to', url, '--host', 'rig', '--quiet');
  multiSync = await runCli('sync', '--db', multiDb, '--to', url, '--host', 'multi', '--quiet');
  await ok('sync', '--db', editedDb, '--to', url, '--host', 'edited', '--quiet');
}, 240_000);

afterAll(async () => {
  await pg?.remove();
});

const EDITED_MARK = () => `imported from an EDITED export (${edited}: die ${editedLabel} from line 6): its rolls are the user's own, no session verdict`;

describe('an import of an edited export', () => {
  it('says so in sessions, in the table and as a field of --json, in its own store', async () => {
    const table = await ok('sessions', '--db', editedDb);
    expect(table.out).toContain(`finished; ${EDITED_MARK()}`);
    const json = JSON.parse((await ok('sessions', '--db', editedDb, '--json')).out) as { edited: { file: string; session: number; differences: string[] }[] | null }[];
    expect(json[0]?.edited).toEqual([{ file: edited, session: 1, differences: [expect.stringContaining(`die ${editedLabel}: its rows differ from the sealed ones from line 6 on`) as unknown as string] }]);
    // An import of an unedited export is not marked.
    const plain = JSON.parse((await ok('sessions', '--db', multiDb, '--json')).out) as { edited: unknown }[];
    expect(plain[0]?.edited).toBeNull();
  });

  it("says so at the head of its report: the text, the HTML page's header and the JSON", async () => {
    const out = join(dir, 'report-edited');
    const text = await ok('report', '1', '--db', editedDb, '--out', out);
    expect(text.out.split('\n')[1]).toBe(`EDITED EXPORT: this session was ${EDITED_MARK()}: the verdicts below are judged on those rolls at the default settings, and are no session's verdicts.`);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    const header = html.slice(html.indexOf('<header>'), html.indexOf('</header>'));
    expect(header).toContain('<strong>EDITED EXPORT.</strong>');
    expect(header).toContain(`die ${editedLabel} from line 6): its rolls are the user&#39;s own, no session verdict`);
    const json = JSON.parse((await ok('report', '1', '--db', editedDb, '--out', out, '--force', '--json')).out) as { edited: { file: string }[] | null };
    expect(json.edited?.map((e) => e.file)).toEqual([edited]);
  });

  it('says so in the fleet once synced: sessions --db URL (table and --json) and the fleet page', async () => {
    const table = await ok('sessions', '--db', url);
    const row = table.out.split('\n').find((l) => l.includes('edited:1')) ?? '';
    expect(row).toContain("finished, a copy: its rolls count once, as fleet session 1's; imported from an EDITED export (");
    const json = JSON.parse((await ok('sessions', '--db', url, '--json')).out) as { id: number; edited: { file: string }[] | null }[];
    expect(json.map((s) => [s.id, s.edited?.map((e) => e.file) ?? null])).toEqual([
      [1, null],
      [2, null],
      [3, [edited]],
    ]);
    const fleet = await openFleet(url, { readOnly: true });
    try {
      const state = await new FleetView({ fleet, dice: allDice(), pollMs: 1000, now: () => Date.now() }).state();
      expect(state.problem).toBeNull();
      const shown = state.sessions.find((s) => s.id === 3);
      expect(shown?.stateText).toContain(EDITED_MARK());
      expect(shown?.edited?.map((e) => e.file)).toEqual([edited]);
    } finally {
      await fleet.close();
    }
  });
});

describe('a copy of a fleet session', () => {
  it("shows no verdicts of its own on the fleet page: its row shows the verdicts of the session whose rolls it holds, saying so first, as its report does", async () => {
    const fleet = await openFleet(url, { readOnly: true });
    try {
      const view = new FleetView({ fleet, dice: allDice(), pollMs: 0, now: () => Date.now() });
      let state = await view.state();
      for (let i = 0; i < 5 && state.sessions.some((s) => s.verdicts === null); i++) state = await view.state();
      const byId = new Map(state.sessions.map((s) => [s.id, s]));
      expect(byId.get(1)?.verdicts?.dice.map((d) => d.label)).toEqual(['loaded-6']);
      for (const copy of [2, 3]) {
        // The one verdict for those rolls: the session's, unchanged (never one made of the copy's, edited, rolls).
        expect(byId.get(copy)?.verdicts?.dice, `fleet session ${copy}`).toEqual(byId.get(1)?.verdicts?.dice);
        expect(byId.get(copy)?.verdicts?.note).toBeNull();
        expect(byId.get(copy)?.verdicts?.inPlaceOf).toMatch(new RegExp(`^IN PLACE OF A COPY: fleet session ${copy}, session 1 of \\S+ is an import of an export of fleet session 1 \\(rig:1\\) .*: its rolls count once, as fleet session 1's, so it has no verdicts of its own\\. This is fleet session 1's report in its place`));
      }
      expect(await view.report(3)).toMatchObject({ status: 200, body: { inPlaceOf: { fleetSession: 3, reportedAs: 1 }, fleetSession: { id: 1 } } });
    } finally {
      await fleet.close();
    }
  });

  it("shows so on the fleet page in a browser: the copy's row has the session's verdict and says first whose it is", async () => {
    const server = await serveFleet({ url, dice: allDice(), host: '127.0.0.1', port: 0, tokens: {}, pollMs: 200 });
    // The worker's shared Chromium (test/support/pagesBrowser.ts): a launch of its own cost over a second of CPU.
    const browser = await pagesBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(`${server.url}/`);
      await page.waitForSelector('body[data-ready="true"]');
      const verdicts = (id: number) => page.locator(`tr[data-session="${id}"] [data-col="verdicts"]`);
      await expect.poll(() => verdicts(1).locator('[data-die="loaded-6"] .verdict').count(), { timeout: 20_000 }).toBe(1);
      await expect.poll(() => verdicts(3).innerText(), { timeout: 20_000 }).toContain('IN PLACE OF A COPY: fleet session 3, session 1 of edited:');
      expect(await verdicts(3).locator('[data-die="loaded-6"]').innerText()).toBe(await verdicts(1).locator('[data-die="loaded-6"]').innerText());
      expect(await page.locator('tr[data-session="3"] [data-col="status"]').innerText()).toContain(EDITED_MARK());
    } finally {
      await browser.close();
      await server.close();
    }
  }, 60_000);

  it("named alone to analyze, is judged as the session it copies: the same verdict, not one made on the copy's (edited) rolls", async () => {
    const original = await ok('analyze', '1', '--db', url);
    for (const copy of ['2', '3']) {
      const r = await ok('analyze', copy, '--db', url);
      expect(r.err).toMatch(new RegExp(`fleet session ${copy} is an import of an export of fleet session 1 .*: judged as fleet session 1, whose rolls they are`));
      expect(r.out).toBe(original.out);
    }
  });

  it('has its report written as that of the session it copies, whose verdicts are the fleet\'s, saying so (copyReport.test.ts has the rest)', async () => {
    const r = await ok('report', '3', '--db', url, '--out', join(dir, 'report-copy'));
    expect(r.out.split('\n')[1]).toMatch(/^IN PLACE OF A COPY: fleet session 3, session 1 of edited:\S+ is an import of an export of fleet session 1 \(rig:1\) .*: its rolls count once, as fleet session 1's, so it has no verdicts of its own\. This is fleet session 1's report in its place/);
    expect(r.out.split('\n')[0]).toMatch(/^Report of fleet session 1, /);
  });
});

describe('an import of several files, one of them an export of a fleet session', () => {
  it("is left out whole, and sync names the other files and how to count them; imported so, they count", async () => {
    expect(multiSync.code, multiSync.err).toBe(0);
    expect(multiSync.err).toContain(
      `is an import of an export of fleet session 1 (rig:1) (${s1}: its chain reaches the export's head`,
    );
    expect(multiSync.err).toContain(
      `; the import stored ${s1} with ${b1} as one session, which keeps no record of which rolls came from which file, so that file's rolls are left out with it: to count them, import ${b1} on its own into a store that does not hold this import, and sync that store`,
    );
    const both = await ok('analyze', '1', '2', '--db', url);
    expect(both.err).toContain(`with ${b1} as one session`);
    expect(both.out).not.toContain('other-6');
    // Following the advice: the other file's rolls count, beside the session.
    await ok('import', b1, '--db', bOnlyDb);
    await ok('sync', '--db', bOnlyDb, '--to', url, '--host', 'b-only', '--quiet');
    const json = JSON.parse((await ok('sessions', '--db', url, '--json')).out) as { id: number; copyOf: { of: number } | null }[];
    expect(json.find((s) => s.id === 4)?.copyOf).toBeNull();
    const counted = await ok('analyze', '1', '2', '4', '--db', url);
    expect(counted.out).toContain('other-6');
  });
});

describe('verify FILE --db postgres://...', () => {
  it("compares the export's rows with the fleet's session, as against the store it came from", async () => {
    const r = await runCli('verify', s1, '--db', url);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toMatch(/: fleet session 1 \(session 1 of rig\) reaches the export's head \(throw \d+\) and exports the same \d+ rows: the file holds the session's rolls\./);
    expect(r.out).not.toContain('--expect');
  });

  it('catches a file whose seal a forger rewrote too, and a file the fleet holds no session of', async () => {
    const rewritten = join(dir, 'rewritten.jsonl');
    editExport(s1, rewritten, (m, rows) => {
      turnFace(rows);
      const { seal: _old, ...rest } = m;
      Object.assign(m, { seal: sealOf(rows, rest) });
    });
    expect((await runCli('verify', rewritten)).code).toBe(0);
    const forged = await runCli('verify', rewritten, '--db', url);
    expect(forged.code).toBe(1);
    expect(forged.out).toMatch(/: ROWS DIFFER: fleet session 1 \(session 1 of rig\) reaches the export's head \(throw \d+\), but exported now its rows are not the file's/);
    const elsewhere = await runCli('verify', b1, '--db', url);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.out).toContain("EXPECTED HEAD MISSING: no fleet session's chain reaches the export's head");
  });
});
