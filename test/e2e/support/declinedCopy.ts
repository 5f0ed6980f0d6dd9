/**
 * A demo session with declined dice (`dicerig demo --declines`, see ../../server/support/reviewSession.ts), made
 * once per test process and copied into each test's own folder. The demo takes some 4 s of CPU, and the review
 * tests each need a session of their own to label, but never a different one: the demo's seed is fixed (--seed 1
 * by default), so every run of it makes the same session, and a copy is the store a fresh run would have made. The
 * copy is the whole folder: the store and its evidence folder (evidence/rolls.db/..., found from the store's file
 * name), and the demo has closed the store, so there is no write-ahead log to leave behind.
 */
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { declinedSession } from '../../server/support/reviewSession.js';

const made = new Map<string, string>();

/** Session 1 in `dir`/rolls.db (60 rolls a die, declines 6=0.9,1=0.6 unless told), as declinedSession makes it; the store's path. */
export function declinedCopy(dir: string, declines = '6=0.9,1=0.6', dice: 'd6' | 'xwing' = 'd6'): string {
  const key = `${dice} ${declines}`;
  let template = made.get(key);
  if (template === undefined) {
    template = mkdtempSync(join(tmpdir(), 'dicerig-declined-template-'));
    declinedSession(template, declines, dice);
    made.set(key, template);
  }
  cpSync(template, dir, { recursive: true });
  return join(dir, 'rolls.db');
}
