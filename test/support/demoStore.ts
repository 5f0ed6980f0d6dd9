import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { runCli } from '../cli/runCli.js';

export interface DemoRun {
  readonly code: number;
  /** The demo's output: it names the store the demo ran into, the run's shared one, not the copy. */
  readonly out: string;
  readonly err: string;
}

/**
 * `dicerig demo ARGS --db DB` for a test that goes on from a fresh store holding that one demo session: the demo runs
 * once per test run (and DB gets a copy of its store), however many test files ask for the same ARGS. Several files
 * start from the same seeded demo (`--declines 6=0.95 --budget 150 --seed 4`, some 8 s of CPU each) to test what
 * export, analyze and pool make of it; the demo's own behaviour is tested in test/cli/demo*.test.ts. Each caller
 * owns its copy, so a test that rolls another session into it changes no other test's store.
 * The demo is run in the run's temporary folder (test/support/globalSetup.ts), shared by the test workers: the first
 * worker to ask runs it, the others wait for it to finish.
 */
export async function demoStore(args: readonly string[], db: string): Promise<DemoRun> {
  const name = basename(db);
  const key = createHash('sha256').update(JSON.stringify([args, name])).digest('hex').slice(0, 16);
  const folder = join(tmpdir(), `dicerig-demo-store-${key}`);
  const done = join(folder, 'run.json');
  const store = join(folder, name);
  let run: DemoRun;
  if (claim(folder)) {
    run = await runCli('demo', ...args, '--db', store).catch((e: unknown) => ({ code: -1, out: '', err: `the shared demo threw: ${String(e)}` }));
    // Written whole, then named: a waiting worker never reads half of it.
    writeFileSync(`${done}.part`, JSON.stringify(run));
    renameSync(`${done}.part`, done);
  } else {
    run = await waitFor(done);
  }
  if (run.code === 0) copyStore(store, db);
  return run;
}

/** Copies the closed store `from` to `to`, with a write-ahead log left beside it and its evidence folder. */
export function copyStore(from: string, to: string): void {
  for (const suffix of ['', '-wal']) if (existsSync(from + suffix)) copyFileSync(from + suffix, to + suffix);
  const evidence = join(dirname(from), 'evidence', basename(from));
  if (existsSync(evidence)) cpSync(evidence, join(dirname(to), 'evidence', basename(to)), { recursive: true });
}

/** Whether this worker is the first to ask for `folder` (it then makes what goes in it; the others wait for it). */
export function claim(folder: string): boolean {
  try {
    mkdirSync(folder);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/** The JSON file `done`, once the worker that claimed its folder has written it. */
export async function waitFor<T = DemoRun>(done: string): Promise<T> {
  // As long as a demo may take on a busy machine (the test's own timeout ends the wait sooner).
  for (let waited = 0; waited < 600_000; waited += 100) {
    if (existsSync(done)) return JSON.parse(readFileSync(done, 'utf8')) as T;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the shared demo store (${done}) was never finished`);
}
