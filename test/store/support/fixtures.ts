import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RigIdentity } from '../../../src/rig/driver.js';
import type { DieRecord, ThrowInput } from '../../../src/store/records.js';
import { RollStore } from '../../../src/store/rollStore.js';
import { openDatabase, type Database } from '../../../src/store/sqlite.js';

/** A fresh folder for one test's database files. */
export function tempDir(prefix = 'dicerig-store-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function tempDbPath(): string {
  return join(tempDir(), 'rolls.db');
}

export const simRig: RigIdentity = { driver: 'simulated', firmware: '0.1.0', protocol: 1, rigId: 'sim-4ch', configHash: 'cfg-1', tumbler: 'servo' };

/** A store with a rig, two red and one green die, and one running session. */
export function storeWithSession(path = tempDbPath(), simulated = false) {
  const store = RollStore.open(path);
  const rig = store.registerRig(simRig, 'cal-1');
  const dice = [
    store.registerDie({ label: 'R1', typeId: 'red' }),
    store.registerDie({ label: 'R2', typeId: 'red' }),
    store.registerDie({ label: 'G1', typeId: 'green' }),
  ];
  const session = store.createSession({ name: 'bench-test', config: { channels: 3 }, simulated, rigId: rig.id, startedAt: 1_700_000_000_000 });
  return { store, rig, dice, session, path };
}

const RED = ['hit-1', 'hit-2', 'hit-3', 'crit', 'focus-1', 'focus-2', 'blank-1', 'blank-2'];
const GREEN = ['evade-1', 'evade-2', 'evade-3', 'focus-1', 'focus-2', 'blank-1', 'blank-2', 'blank-3'];

/** The symbol of a red or green face id (`hit-2` -> `hit`, `crit` -> `crit`). */
export function symbolOf(face: string): string {
  return face.replace(/-\d+$/, '');
}

/** A deterministic ok throw of every die: face k of throw n is a fixed function of n, so counts are known. */
export function okThrow(n: number, dice: readonly DieRecord[]): ThrowInput {
  return {
    startedAt: 1_700_000_000_000 + n * 1000,
    endedAt: 1_700_000_000_000 + n * 1000 + 800,
    status: 'ok',
    rolls: dice.map((d, i) => {
      const faces = d.typeId === 'green' ? GREEN : RED;
      const face = faces[(n * (i + 3)) % 8] as string;
      return { dieId: d.id, channel: i, faceId: face, symbol: symbolOf(face), confidence: 0.99, classifierVersion: 'd8-v1', evidencePath: `ev/${n}-${i}.png`, evidenceHash: `h${n}${i}` };
    }),
  };
}

/** Edits a store file behind the store's back, as a tamperer would (not bound by our foreign keys, which better-sqlite3 turns on by default). */
export function tamper(path: string, fn: (db: Database) => void): void {
  const db = openDatabase(path);
  db.pragma('foreign_keys = OFF');
  try {
    fn(db);
  } finally {
    db.close();
  }
}

/** A store file `rolls.db` in `dir` holding one finished session of 20 ok throws (the dice of `storeWithSession`). */
export function smallFinishedStore(dir: string): string {
  const db = join(dir, 'rolls.db');
  const { store, session, dice } = storeWithSession(db);
  for (let n = 1; n <= 20; n++) store.recordThrow(session.id, okThrow(n, dice));
  store.endSession(session.id, 1_800_000_000_000, 'finished');
  store.close();
  return db;
}
