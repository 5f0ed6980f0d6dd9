/**
 * The name of the fairness session a `serve` start opens. A session name is unique in the roll store, and serve
 * begins new sessions at each start: the config's own name (`name:`) would refuse the second start on the same
 * store, and a `dicerig run` of that config after serve. So each start takes the config's name with when it
 * started, and a number when that is taken too; the plain name stays free for `dicerig run`. Every session serve
 * begins is named so, the stream session and a fairness session begun again after one finished too.
 */
import { existsSync } from 'node:fs';
import { MAX_LABEL_LENGTH } from '../session/config.js';
import { RollStore } from '../store/rollStore.js';

/** "2026-12-06 08:10", local time (what the streamer's clock showed at the start). */
function minuteOf(at: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())} ${p(at.getHours())}:${p(at.getMinutes())}`;
}

/** Names of the sessions in the store at `dbPath`, read without writing; none when it does not exist or cannot be read (opening it for the session then says why). */
function takenNames(dbPath: string): Set<string> {
  if (dbPath === ':memory:' || dbPath === '' || !existsSync(dbPath)) return new Set();
  try {
    const store = RollStore.open(dbPath, { readonly: true });
    try {
      return new Set(store.sessions().flatMap((s) => (s.name !== null ? [s.name] : [])));
    } finally {
      store.close();
    }
  } catch {
    return new Set();
  }
}

/** `<name> (serve 2026-12-06 08:10)`, or `… 08:10 #2)` and on when a start in the same minute took it. */
export function serveSessionName(name: string, dbPath: string, at: Date): string {
  return freeServeName(name, takenNames(dbPath), at);
}

/** The same among names already `taken` (a store serve has open). */
export function freeServeName(name: string, taken: ReadonlySet<string>, at: Date): string {
  for (let n = 1; ; n++) {
    const suffix = ` (serve ${minuteOf(at)}${n > 1 ? ` #${n}` : ''})`;
    const candidate = `${name.slice(0, MAX_LABEL_LENGTH - suffix.length).trimEnd()}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * What a session serve begins is called before its start: the config's name, or `fairness`; a stream session the
 * config's name and `stream`, or `stream`. An unnamed session showed as a blank in `sessions` and on the fleet page.
 */
export function serveSessionBase(configName: string | undefined, kind: 'fairness' | 'stream'): string {
  if (kind === 'fairness') return configName ?? 'fairness';
  return configName !== undefined ? `${configName} stream` : 'stream';
}
