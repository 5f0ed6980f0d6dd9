/**
 * A session made by `dicerig import` has no rig run behind it and no crops: `review` and `run --resume` refuse it in
 * words, naming the files it came from and the session to go to instead (they printed the import's config as a run
 * config that failed validation).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStoreForReading } from '../../src/store/openStore.js';
import { runCli } from './runCli.js';

const dir = mkdtempSync(join(tmpdir(), 'dicerig-imported-'));
const config = join(dir, 'session.yaml');
writeFileSync(config, 'name: exported\nseed: 2\ndice:\n  - { label: ex-A, type: d6 }\n  - { label: ex-B, type: d6 }\nrig: { driver: sim }\ncamera: { source: sim, lighting: studio }\nstopping: { budgetRolls: 30 }\n');

describe('an imported session', () => {
  it('is refused by review and by run --resume with a plain sentence, and nothing is stored for it', async () => {
    const rolled = join(dir, 'rolled.db');
    const csv = join(dir, 'e.csv');
    const imported = join(dir, 'imported.db');
    expect((await runCli('run', config, '--db', rolled, '--plain')).code).toBe(0);
    expect((await runCli('export', '1', '--db', rolled, '--out', csv)).code).toBe(0);
    expect((await runCli('import', csv, '--db', imported)).code).toBe(0);

    const review = await runCli('review', '1', '--db', imported);
    expect(review.code).toBe(1);
    expect(review.err).toContain(`session 1 was imported from ${csv}: its rolls kept no crops to label; review session 1 (exported) in the store it was exported from, or run a new session.`);
    expect(review.err).not.toContain('config key');

    for (const args of [['--more-rolls', '10'], [config]]) {
      const resume = await runCli('run', ...args, '--resume', '1', '--db', imported);
      expect(resume.code).toBe(1);
      expect(resume.err).toContain(`session 1 was imported from ${csv}: no rig ran it here, so there is nothing to roll on; resume session 1 (exported) in the store it was exported from, or run a new session.`);
      expect(resume.err).not.toContain('config key');
    }
    const opened = openStoreForReading(imported);
    try {
      expect(opened.store.events(1).map((e) => e.kind)).not.toContain('resumed');
      expect(opened.store.sessions().map((s) => s.state)).toEqual(['finished']);
    } finally {
      opened.close();
    }
  });
});
