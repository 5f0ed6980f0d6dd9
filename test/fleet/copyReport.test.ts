/**
 * Truth 3 for a fleet copy's report, on a real PostgreSQL fleet store: `dicerig report COPY --db URL` shows no verdicts
 * of its own. The copy's rolls count once, as the session it copies, so its report is that session's, written in its
 * place (text, HTML and JSON as that session's own report, verdicts byte for byte), saying first whose it is and why.
 * And analyze re-reading a copy as its session says a fleet gone down meanwhile in the words the first read uses.
 *
 * Fleet ids follow the sync order: 1 the session (rig:1), 2 an import of its export (other:1).
 */
import { readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStoredLogs } from '../../src/cli/storedLogs.js';
import { runCliOk as ok } from '../cli/runCli.js';
import { tempDir } from '../store/support/fixtures.js';
import type { ScratchPostgres } from '../support/postgres.js';
import { copyFleet } from './support/copyFleet.js';

let pg: ScratchPostgres;
let url: string;
const dir = tempDir('dicerig-fleet-copy-report-');

beforeAll(async () => {
  ({ pg, url } = await copyFleet(dir));
}, 180_000);

afterAll(async () => {
  await pg?.remove();
});

const COPY_WORDS = /^IN PLACE OF A COPY: fleet session 2, session 1 of other:\S+ is an import of an export of fleet session 1 \(rig:1\).*: its rolls count once, as fleet session 1's, so it has no verdicts of its own\. This is fleet session 1's report in its place: the verdicts below are that session's, as its own report shows them \(dicerig report 1 --db URL\)\.$/;

describe("a fleet copy's report", () => {
  it("is its session's report in its place, saying so first: the text's verdicts as that session's report prints them", async () => {
    const original = await ok('report', '1', '--db', url, '--out', join(dir, 'original'));
    const copy = await ok('report', '2', '--db', url, '--out', join(dir, 'copy'));
    expect(copy.err).toMatch(/dicerig: note: fleet session 2, session 1 of other:\S+ is an import of an export of fleet session 1 .*: reported as fleet session 1, whose rolls they are/);
    const lines = copy.out.split('\n');
    expect(lines[1]).toMatch(COPY_WORDS);
    // Every other line, the verdict tables among them, as the session's own report prints it (bar the folder written).
    expect([lines[0], ...lines.slice(2)].join('\n')).toBe(original.out.split(join(dir, 'original')).join(join(dir, 'copy')));
    expect(copy.out).not.toMatch(/A COPY: this fleet session/);
  });

  it("writes its session's page and charts, saying at its head whose they are and why", async () => {
    await ok('report', '1', '--db', url, '--out', join(dir, 'original-html'));
    await ok('report', '2', '--db', url, '--out', join(dir, 'copy-html'));
    const page = (d: string): string => readFileSync(join(dir, d, 'report.html'), 'utf8').replace(/Made by dicerig .* on [^.]*\./, 'Made by dicerig.');
    const copy = page('copy-html');
    const said = /<p class="provenance copy" id="in-place-of-copy" data-copy="2" data-copy-of="1"><strong>IN PLACE OF A COPY\.<\/strong> [^<]*<\/p>/.exec(copy);
    expect(said).not.toBeNull();
    expect(copy.replace(said?.[0] ?? '', '')).toBe(page('original-html'));
  });

  it('gives its JSON as its session\'s, with inPlaceOf naming the copy (null in any other report)', async () => {
    const read = async (id: string, out: string) => JSON.parse((await ok('report', id, '--db', url, '--out', join(dir, out), '--json')).out) as Record<string, unknown>;
    const original = await read('1', 'original-json');
    const copy = await read('2', 'copy-json');
    expect(original['inPlaceOf']).toBeNull();
    expect(copy['inPlaceOf']).toMatchObject({ fleetSession: 2, localId: 1, originHost: 'other', reportedAs: 1, why: expect.stringMatching(/^an import of an export of fleet session 1 \(rig:1\)/) });
    const shared = (j: Record<string, unknown>) => {
      const { html: _html, charts: _charts, inPlaceOf: _in, ...rest } = j;
      return rest;
    };
    expect(shared(copy)).toEqual(shared(original));
    expect((copy['fleetSession'] as { id: number }).id).toBe(1);
  });
});

describe('analyze naming a copy alone', () => {
  it('says a fleet gone down before it reads the session in the copy\'s place as it says one down at the first read', async () => {
    const verification = (onNote: (line: string) => void) => ({ allowUnverified: false, doing: 'nothing was analyzed', warn: onNote });
    const away = `${pg.socketDir}-away`;
    // Down from the start.
    renameSync(pg.socketDir, away);
    let first: unknown;
    try {
      first = await readStoredLogs(['2'], url, verification(() => undefined)).catch((e: unknown) => e);
    } finally {
      renameSync(away, pg.socketDir);
    }
    // Down once the copy was read, before its session is read in its place (the note comes between the two).
    let moved = false;
    const again = await readStoredLogs(
      ['2'],
      url,
      verification((line) => {
        if (/judged as fleet session 1/.test(line)) {
          renameSync(pg.socketDir, away);
          moved = true;
        }
      }),
    )
      .catch((e: unknown) => e)
      .finally(() => {
        if (moved) renameSync(away, pg.socketDir);
      });
    expect(moved).toBe(true);
    expect((first as Error).message).toMatch(/^2: no such file, and cannot reach the fleet store .* while opening it \(connect ENOENT /);
    expect((again as Error).message).toBe((first as Error).message);
    expect((again as { context?: unknown }).context).toEqual((first as { context?: unknown }).context);
  });
});
