import { renameSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { runCli } from '../cli/runCli.js';
import { claim, copyStore, demoStore, waitFor, type DemoRun } from './demoStore.js';

/**
 * `dicerig demo RUNS[0] --db DB`, then `dicerig demo RUNS[1] --db DB` and so on: a store holding sessions 1, 2, ...,
 * one a demo, for a test that goes on from them. As `demoStore` does for one demo, the demos run once per test run
 * however many test files ask for the same runs, and DB gets a copy of the store (with its evidence folder). A store's
 * first sessions are shared too: the first demo is `demoStore`'s, and sessions 1 to n-1 are those of a caller that asked
 * for those runs alone. Each caller owns its copy, so a test that changes it changes no other test's store.
 * What each demo printed comes back in order; a demo that failed ends the list (the later ones were not run).
 */
export async function demoSessions(runs: readonly (readonly string[])[], db: string): Promise<DemoRun[]> {
  const last = runs[runs.length - 1];
  if (last === undefined) throw new RangeError('demoSessions needs at least one demo to run');
  if (runs.length === 1) return [await demoStore(last, db)];
  const name = basename(db);
  const key = createHash('sha256').update(JSON.stringify([runs, name])).digest('hex').slice(0, 16);
  const folder = join(tmpdir(), `dicerig-demo-sessions-${key}`);
  const done = join(folder, 'runs.json');
  const store = join(folder, name);
  let made: DemoRun[];
  if (claim(folder)) {
    made = await demoSessions(runs.slice(0, -1), store);
    if (made.every((r) => r.code === 0)) {
      made.push(await runCli('demo', ...last, '--db', store).catch((e: unknown) => ({ code: -1, out: '', err: `the shared demo threw: ${String(e)}` })));
    }
    // Written whole, then named: a waiting worker never reads half of it.
    writeFileSync(`${done}.part`, JSON.stringify(made));
    renameSync(`${done}.part`, done);
  } else {
    made = await waitFor<DemoRun[]>(done);
  }
  if (made.length === runs.length && made.every((r) => r.code === 0)) copyStore(store, db);
  return made;
}
