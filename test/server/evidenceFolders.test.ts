/**
 * `serve` stores throws of several sessions (the fairness session, the stream
 * session, a fresh fairness session after a stop), each naming its evidence
 * files by throw and channel. Each session's crops must go to its own folder:
 * in a shared one, a fairness throw's crop would overwrite a stream roll's
 * with the same throw index, and the stored hash would no longer match.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite.js';
import { liveClient, startTestServer } from './support/testServer.js';

function storedEvidence(db: string): { session: number; path: string; hash: string }[] {
  const d = openDatabase(db, { readonly: true });
  try {
    return d
      .prepare<{ session: number; path: string; hash: string }>(`SELECT t.session_id AS session, r.evidence_path AS path, r.evidence_hash AS hash FROM rolls r JOIN throws t ON t.id = r.throw_id WHERE r.evidence_path IS NOT NULL`)
      .all();
  } finally {
    d.close();
  }
}

describe('evidence of the sessions serve stores', () => {
  it('goes into each session’s own folder, so a fairness throw never overwrites a stream roll’s crop', async () => {
    const s = await startTestServer({ cockedRate: 0.2, seed: 5 });
    const live = await liveClient(s.url);
    try {
      for (let i = 0; i < 3; i++) expect((await s.api('POST', '/api/rolls?wait=10', { dice: '2 red, 2 green' })).json.state).toBe('done');
      await s.api('POST', '/api/mode', { mode: 'fairness' });
      await s.api('POST', '/api/run', { action: 'start' });
      // Enough fairness throws that some are re-tumbled (their crops are kept) at throw indexes the stream session used.
      for (let n = 0; n < 12; n++) await live.next((m) => m.type === 'throw' && m.mode === 'fairness', 60_000);
      await s.api('POST', '/api/run', { action: 'stop' });
    } finally {
      live.close();
      await s.close();
    }
    const rows = storedEvidence(join(s.dir, 'rolls.db'));
    const sessions = new Set(rows.map((r) => r.session));
    expect(sessions.size).toBeGreaterThanOrEqual(2);
    for (const r of rows) {
      expect(r.path.startsWith(join('evidence', 'rolls.db', `session-${r.session}`) + '/'), `${r.path} of session ${r.session}`).toBe(true);
      const file = join(s.dir, r.path);
      expect(existsSync(file)).toBe(true);
      expect(createHash('sha256').update(readFileSync(file)).digest('hex'), r.path).toBe(r.hash);
    }
  });
});
