import { ChainRows } from '../../../src/store/chainRows.js';
import { genesisHash, throwHash } from '../../../src/store/hashChain.js';
import { MIGRATIONS, migrate } from '../../../src/store/migrations.js';
import { openDatabase } from '../../../src/store/sqlite.js';

/**
 * Writes at `path` a store as the first dicerig wrote it (schema version 1, before sessions were sealed): one
 * finished session "old" of one D6, a throw per face in `faces`, its hash chain as that dicerig made it.
 */
export function writeSchema1Store(path: string, faces: readonly string[], endedAt: number): void {
  const db = openDatabase(path);
  migrate(db, MIGRATIONS.filter((m) => m.version === 1));
  db.prepare("INSERT INTO sessions (id, name, origin, config_json, software_version, simulated, started_at, state, head_hash) VALUES (1, 'old', 'rig', '{}', '0.0.9', 0, 5, 'running', '')").run();
  db.prepare("INSERT INTO dice (id, label, type_id) VALUES (1, 'D1', 'd6')").run();
  const rows = new ChainRows(db);
  let head = genesisHash(rows.session(1) as NonNullable<ReturnType<ChainRows['session']>>);
  faces.forEach((face, k) => {
    const i = k + 1;
    const id = db.prepare("INSERT INTO throws (session_id, idx, started_at, ended_at, status, prev_hash, hash) VALUES (1, ?, ?, ?, 'ok', ?, '')").run(i, i, i + 1, head).lastInsertRowid;
    db.prepare('INSERT INTO rolls (throw_id, seq, die_id, face_id, symbol, cocked, simulated) VALUES (?, 0, 1, ?, ?, 0, 0)').run(id, face, face);
    head = throwHash(head, rows.throwFields(Number(id)) as NonNullable<ReturnType<ChainRows['throwFields']>>, rows.rolls(Number(id)));
    db.prepare('UPDATE throws SET hash = ? WHERE id = ?').run(head, id);
  });
  db.prepare("UPDATE sessions SET head_hash = ?, throw_count = ?, state = 'finished', ended_at = ?").run(head, faces.length, endedAt);
  db.close();
}
