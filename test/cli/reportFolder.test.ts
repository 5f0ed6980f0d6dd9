/**
 * `report --out DIR` keeps one session's report per folder: another session's (here: session 1 of another store) is
 * refused unless --force, the same session's is written again, and a replaced report leaves none of its charts behind.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { smallFinishedStore, tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

describe('a report folder', () => {
  it("refuses another session's report unless --force, writes its own again, and a replaced report leaves none of its charts", async () => {
    const dir = tempDir('dicerig-report-folder-');
    mkdirSync(join(dir, 'a'));
    mkdirSync(join(dir, 'b'));
    const a = smallFinishedStore(join(dir, 'a'));
    const b = smallFinishedStore(join(dir, 'b'));
    const out = join(dir, 'report');
    expect((await runCli('report', '1', '--db', a, '--out', out)).code).toBe(0);
    const first = readdirSync(out).sort();
    expect(first).toContain('report-of.json');

    const other = await runCli('report', '1', '--db', b, '--out', out);
    expect(other.code).toBe(1);
    expect(other.err).toBe(`dicerig: ${out}: holds the report of session 1 of ${a}; report does not write over another session's report: give another --out folder, or --force to replace it\n`);
    expect(readdirSync(out).sort()).toEqual(first);

    expect((await runCli('report', '1', '--db', a, '--out', out)).code).toBe(0);
    // A chart left from an earlier report of this session (another die's, say) is the old report's: it goes.
    writeFileSync(join(out, 'report-of.json'), JSON.stringify({ store: a, session: 'session 1', charts: ['gone-die-symbols.png'] }));
    writeFileSync(join(out, 'gone-die-symbols.png'), 'old chart');
    expect((await runCli('report', '1', '--db', b, '--out', out, '--force')).code).toBe(0);
    expect(readdirSync(out)).not.toContain('gone-die-symbols.png');

    // A report.html of unknown origin (another tool's, or an older dicerig's) is not written over either.
    const foreign = join(dir, 'foreign');
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'report.html'), '<p>mine</p>');
    const refused = await runCli('report', '1', '--db', a, '--out', foreign);
    expect(refused.err).toContain('holds a report.html not written by this dicerig');
  });
});
