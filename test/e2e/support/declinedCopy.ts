/**
 * A demo session with declined dice (`dicerig demo --declines`, see ../../server/support/reviewSession.ts), made
 * once per test run and copied into each test's own folder. The demo takes some 8 s of CPU, and the review tests
 * each need a session of their own to label, but never a different one: the demo's seed is fixed (--seed 1 by
 * default), so every run of it makes the same session, and a copy is the store a fresh run would have made. The
 * copy is the store and its evidence folder (evidence/rolls.db/..., found from the store's file name); the demo has
 * closed the store, so there is no write-ahead log to leave behind.
 * The demo is made in the run's temporary folder (test/support/globalSetup.ts), shared by the test workers: the
 * first worker to ask makes it, the others wait for it (four files label copies of the same session).
 */
import { createHash } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { declinedSession } from '../../server/support/reviewSession.js';
import { claim, copyStore, waitFor } from '../../support/demoStore.js';

/**
 * The shared demo's folder, made if no worker has made it yet (else once the worker making it is done). A file calls
 * it in a hook with a timeout for it: on a busy machine the demo alone has taken over a minute.
 */
export async function declinedDemo(declines = '6=0.9,1=0.6', dice: 'd6' | 'xwing' = 'd6'): Promise<string> {
  const key = createHash('sha256').update(JSON.stringify([dice, declines])).digest('hex').slice(0, 16);
  const folder = join(tmpdir(), `dicerig-declined-${key}`);
  const done = join(folder, 'made.json');
  let made: { error?: string };
  if (claim(folder)) {
    try {
      declinedSession(folder, declines, dice);
      made = {};
    } catch (e) {
      made = { error: String(e) };
    }
    // Written whole, then named: a waiting worker never reads half of it.
    writeFileSync(`${done}.part`, JSON.stringify(made));
    renameSync(`${done}.part`, done);
  } else {
    made = await waitFor<{ error?: string }>(done);
  }
  if (made.error !== undefined) throw new Error(`the shared declined demo (${dice}, ${declines}) failed: ${made.error}`);
  return folder;
}

/** Session 1 in `dir`/rolls.db (60 rolls a die, declines 6=0.9,1=0.6 unless told), as declinedSession makes it; the store's path. */
export async function declinedCopy(dir: string, declines = '6=0.9,1=0.6', dice: 'd6' | 'xwing' = 'd6'): Promise<string> {
  const folder = await declinedDemo(declines, dice);
  const db = join(dir, 'rolls.db');
  copyStore(join(folder, 'rolls.db'), db);
  return db;
}
