import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RollStore } from '../../src/store/rollStore.js';
import { runCli } from './runCli.js';

type Verdicts = { dice: { label: string; counts: number[]; faces: { label: string }[] }[] };

/*
 * A person's label counted by a session's verdict, corrected after the verdict was made: the verdict stands as the
 * session made it (one verdict, made once), but analyze, pool and report must not show it silently on rolls that
 * now read otherwise.
 */
describe('a verdict made before a label it counted was corrected', () => {
  it('is shown as the session made it, and analyze, pool and report say which counts the correction changed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dicerig-corrected-'));
    const db = join(dir, 'rolls.db');
    expect((await runCli('demo', '--seed', '3', '--budget', '60', '--declines', '6=0.6', '--db', db)).code).toBe(0);
    // A person labels an unresolved roll 6 between runs; the resumed session counts the label in its verdict.
    let store = RollStore.open(db);
    const roll = store.unresolvedRolls(1)[0]!;
    store.reviewRoll(1, { rollId: roll.rollId, faceId: '6', reviewer: 'ada', at: 1_790_000_000_000 });
    store.close();
    const resumed = await runCli('run', '--resume', '1', '--more-rolls', '10', '--db', db);
    expect(resumed.code, resumed.err).toBe(0);
    const before = await runCli('analyze', '1', '--db', db);
    expect(before.err).toBe('');
    store = RollStore.open(db);
    const made = (store.storedVerdicts(1)?.verdicts as Verdicts).dice.find((d) => d.label === roll.dieLabel)!;
    const label = store.reviewLog.reviews(1).find((r) => r.rollId === roll.rollId)!;
    store.reviewLog.correct(1, { rollId: roll.rollId, faceId: '1', reviewer: 'bob', at: 1_790_000_100_000, supersedes: label.id });
    store.close();
    const [one, six] = [made.faces.findIndex((f) => f.label === '1'), made.faces.findIndex((f) => f.label === '6')];
    const [then1, then6] = [made.counts[one] as number, made.counts[six] as number];
    const changed = `it counted 1 ${then1}, 6 ${then6}; now 1 ${then1 + 1}, 6 ${then6 - 1}`;
    const after = await runCli('analyze', '1', '--db', db);
    expect(after.err).toBe(`dicerig: note: session 1: die ${roll.dieLabel}'s verdict was made before labels it counted were corrected (${changed}): it is shown as the session made it, on the labels of its time.\n`);
    // The verdict itself is the one the session made.
    const sentence = (out: string) => out.split('\n').find((l, i, all) => all[i - 1]?.startsWith(`${roll.dieLabel} `));
    expect(sentence(after.out)).toBe(sentence(before.out));
    expect((await runCli('pool', '1', '--db', db, '--size', '2')).err).toContain(`die ${roll.dieLabel}'s verdict was made before labels it counted were corrected`);
    expect((await runCli('report', '1', '--db', db, '--out', join(dir, 'report'))).code).toBe(0);
    expect(readFileSync(join(dir, 'report', 'report.html'), 'utf8')).toContain(`This verdict was made before labels it counted were corrected (${changed})`);
  }, 120_000);
});
