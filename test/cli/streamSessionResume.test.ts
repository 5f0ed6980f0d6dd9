import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RollStore } from '../../src/store/rollStore.js';
import { tempDir } from '../store/support/fixtures.js';
import { runCli } from './runCli.js';

describe("serve's stream session left running (serve killed)", () => {
  it('is listed as not resumed, without advice to resume it, and run --resume refuses to roll a fairness run into it', async () => {
    const db = join(tempDir('dicerig-stream-'), 'rolls.db');
    const store = RollStore.open(db);
    const stream = store.createSession({ config: {}, simulated: true, startedAt: 1_700_000_000_000, kind: 'stream' });
    store.close();
    const listed = await runCli('sessions', '--db', db);
    expect(listed.out).toContain('running? (no process holds it: a stream session of dicerig serve: it is not resumed, its rolls stand as they are)');
    expect(listed.out).not.toContain('--resume');
    const resumed = await runCli('run', '--resume', String(stream.id), '--db', db);
    expect(resumed.code).not.toBe(0);
    expect(resumed.err).toContain(`session ${stream.id} is a stream session of dicerig serve (the rolls viewers and the chat asked for): run --resume would roll a fairness run into it`);
    const after = RollStore.open(db, { mustExist: true });
    expect(after.getSession(stream.id)?.throwCount ?? 0).toBe(0);
    after.close();
  });
});
