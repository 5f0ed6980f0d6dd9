import { describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../../src/store/migrations.js';
import { RollStore } from '../../src/store/rollStore.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { tempDbPath } from './support/fixtures.js';

describe('session kind', () => {
  it('opens a store written before sessions had a kind, calling its sessions fairness runs, and keeps their hash chains valid', () => {
    const path = tempDbPath();
    const db = openDatabase(path);
    migrate(db, MIGRATIONS.filter((m) => m.version === 1));
    db.prepare(
      "INSERT INTO sessions (name, origin, config_json, software_version, simulated, started_at, state, head_hash) VALUES ('old', 'rig', '{}', '0.0.1', 1, 1000, 'finished', '')",
    ).run();
    db.close();
    const store = RollStore.open(path);
    expect(store.findSession('old').kind).toBe('fairness');
    store.close();
  });

  it('stores a stream session as kind "stream", and a session made without a kind as a fairness run', () => {
    const store = RollStore.open(tempDbPath());
    const stream = store.createSession({ config: {}, simulated: true, startedAt: 1, kind: 'stream' });
    const plain = store.createSession({ config: {}, simulated: true, startedAt: 2 });
    expect(store.getSession(stream.id)?.kind).toBe('stream');
    expect(store.getSession(plain.id)?.kind).toBe('fairness');
    store.recordThrow(stream.id, { startedAt: 3, endedAt: 4, status: 'ok', rolls: [{ dieId: store.registerDie({ label: 'R1', typeId: 'red' }).id, symbol: 'hit' }] });
    expect(store.verify().ok).toBe(true);
    store.close();
  });
});
