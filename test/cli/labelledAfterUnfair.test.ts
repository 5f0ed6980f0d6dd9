import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatLogScientific } from '../../src/core/format.js';
import { fileKeys } from '../../src/report/fileKeys.js';
import { updateStoredVerdicts } from '../../src/server/review/sessionVerdicts.js';
import type { SessionVerdicts } from '../../src/stats/dieVerdict.js';
import { RollStore } from '../../src/store/rollStore.js';
import { dieSectionHtml, stripTags } from '../report/support/html.js';
import { runCli } from './runCli.js';

/*
 * A die decided UNFAIR while some of its rolls were unresolved, labelled after the session ended (as the review page
 * does): the stored verdict stands, its sentence giving the e-value it was decided on, while the session's e-value,
 * replayed with the labels, moves. analyze and report show that e-value beside the sentence: they must say why the
 * two differ, not show two e-values for one die after one count of rolls.
 */
describe('a die labelled after its session decided it UNFAIR', () => {
  it('is shown by analyze and report with its e-value now and the one its verdict was decided on, saying labels moved the first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dicerig-labelled-after-'));
    const db = join(dir, 'rolls.db');
    // demo4-green-2 (loaded on evade) is decided UNFAIR at roll 103 with 2 evades declined and kept unresolved.
    const demo = await runCli('demo', '--seed', '4', '--dice', 'xwing', '--declines', 'evade=0.45', '--budget', '104', '--db', db);
    expect(demo.code, demo.err).toBe(0);
    const die = 'demo4-green-2';
    const store = RollStore.open(db);
    const open = store.unresolvedRolls(1).filter((r) => r.dieLabel === die);
    store.reviewRolls(1, open.map((r) => ({ rollId: r.rollId, faceId: 'evade', reviewer: 'ada', at: 1_790_000_000_000 })));
    updateStoredVerdicts(store, 1, 1_790_000_000_000);
    const stored = (store.storedVerdicts(1)?.verdicts as SessionVerdicts).dice.find((d) => d.label === die)!;
    store.close();
    expect(stored.verdict.kind).toBe('UNFAIR');
    const evidence = stored.verdict.kind === 'UNFAIR' ? stored.verdict.evidence : undefined;
    expect(evidence?.kind).toBe('e-value');
    const [decided, now] = [formatLogScientific(evidence?.kind === 'e-value' ? evidence.logE : NaN), formatLogScientific(stored.logE)];
    // The case itself: the labels (evades, the face the least favourable assignment gave none of them) raised the e-value.
    expect(open.length).toBeGreaterThan(0);
    expect(now).not.toBe(decided);
    expect(stored.sentence).toContain(`e = ${decided},`);
    const why = `decided at e = ${decided}, as its verdict says: labels given since moved the e-value, not the verdict`;

    const analyzed = await runCli('analyze', '1', '--db', db);
    expect(analyzed.code, analyzed.err).toBe(0);
    const section = analyzed.out.slice(analyzed.out.indexOf(`\n${die} `));
    const line = section.split('\n').find((l) => l.startsWith('  anytime-valid e-value'));
    expect(line).toBe(`  anytime-valid e-value against the expected odds: ${now} (UNFAIR after 103 rolls; ${why})`);

    const report = await runCli('report', '1', '--db', db, '--out', join(dir, 'report'));
    expect(report.code, report.err).toBe(0);
    const html = dieSectionHtml(readFileSync(join(dir, 'report', 'report.html'), 'utf8'), fileKeys([die])[0] as string);
    const anytime = stripTags(/<p class="note" data-test="anytime".*?<\/p>/s.exec(html)?.[0] ?? '');
    expect(anytime).toContain(`: ${now} (UNFAIR once`);
    expect(anytime).toContain(`UNFAIR at roll 103 (${why}).`);
  }, 60_000);
});
