import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildFirmware } from '../rig/support/build.js';
import { ensureBuilt } from './builtCli.js';

/**
 * Builds the firmware, the simavr harness and the host test once, before any test file runs, and dist/ when a
 * source is newer than it (the tests that start `dicerig` in a process of its own run bin/dicerig.js).
 * Test files run in parallel workers; the rig files also call buildFirmware() (a no-op by then),
 * but two workers running `make` on an out-of-date tree at the same time would race on its outputs.
 *
 * Every folder a test makes in the temporary directory (databases, renders, browser profiles, child
 * processes' files) lands in one folder for the run, removed when the run ends: a suite run used to
 * leave some 180 folders behind in /tmp each time. Workers and the processes tests start inherit TMPDIR.
 */
export default function setup(): () => void {
  try {
    buildFirmware();
  } catch {
    // Without the toolchain only the files that need the firmware fail: their own buildFirmware() says what to install.
  }
  ensureBuilt();
  const previous = process.env.TMPDIR;
  const runDir = mkdtempSync(join(tmpdir(), 'dicerig-tests-'));
  // Open to every user, sticky, as /tmp is: some tests run PostgreSQL and the CLI as other users, who make their own folders here.
  chmodSync(runDir, 0o1777);
  process.env.TMPDIR = runDir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(runDir, { recursive: true, force: true });
  };
}
