import { renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../cli/runCli.js';
import { claim, copyStore, waitFor } from '../../support/demoStore.js';

/** A loaded D6 (its 6 two and a half times as likely), seed 5, 120 rolls: the session the fleet copy files build on. */
export const LOADED_RUN = 'seed: 5\ndice:\n  - { label: loaded-6, type: d6, simulatedLoad: { symbol: "6", factor: 2.5 } }\nrig: { driver: sim }\nstopping: { budgetRolls: 120 }\n';

/**
 * Writes LOADED_RUN to `dir`/run.yaml and a store holding its session (session 1) to `db`. Four files start from this
 * session (copies, copyReport, copyReportApi, editedCopies) and none tests the run itself: a seeded run rolls the same
 * throws each time (its export's rows differ only in their times), so it is rolled once per test run, in the run's temporary folder
 * (the first worker to ask rolls it, the others wait), and each file gets a copy of the closed store, which is the
 * store a run of its own would have made.
 */
export async function loadedSessionStore(dir: string, db: string): Promise<void> {
  writeFileSync(join(dir, 'run.yaml'), LOADED_RUN);
  const folder = join(tmpdir(), 'dicerig-fleet-loaded-session');
  const done = join(folder, 'run.json');
  const store = join(folder, 'rig.db');
  let run: { code: number; err: string };
  if (claim(folder)) {
    writeFileSync(join(folder, 'run.yaml'), LOADED_RUN);
    run = await runCli('run', join(folder, 'run.yaml'), '--db', store, '--plain').catch((e: unknown) => ({ code: -1, err: `the shared run threw: ${String(e)}` }));
    // Written whole, then named: a waiting worker never reads half of it.
    writeFileSync(`${done}.part`, JSON.stringify({ code: run.code, err: run.err }));
    renameSync(`${done}.part`, done);
  } else {
    run = await waitFor<{ code: number; err: string }>(done);
  }
  if (run.code !== 0) throw new Error(`the shared run of the loaded D6 (${store}) failed: ${run.err}`);
  copyStore(store, db);
}
