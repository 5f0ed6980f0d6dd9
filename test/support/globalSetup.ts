import { buildFirmware } from '../rig/support/build.js';
import { ensureBuilt } from './builtCli.js';
import { makeScratchFolder, removeLeftovers } from './scratchFolder.js';

/**
 * Builds the firmware, the simavr harness and the host test once, before any test file runs, and dist/ when a
 * source is newer than it (the tests that start `dicerig` in a process of its own run bin/dicerig.js).
 * Test files run in parallel workers; the rig files also call buildFirmware() (a no-op by then),
 * but two workers running `make` on an out-of-date tree at the same time would race on its outputs.
 *
 * Every folder a test makes in the temporary directory (databases, renders, browser profiles, child
 * processes' files) lands in one folder for the run, removed when the run ends: a suite run used to
 * leave some 180 folders behind in /tmp each time. Workers and the processes tests start inherit TMPDIR.
 * The folder is kept in memory where it can be (see makeScratchFolder).
 */
export default function setup(): () => void {
  try {
    buildFirmware();
  } catch {
    // Without the toolchain only the files that need the firmware fail: their own buildFirmware() says what to install.
  }
  ensureBuilt();
  const previous = process.env.TMPDIR;
  const leftovers = removeLeftovers();
  if (leftovers.length > 0) console.log(`Removed the scratch folders of ${leftovers.length} run(s) that were stopped before they could: ${leftovers.join(', ')}`);
  const scratch = makeScratchFolder();
  process.env.TMPDIR = scratch.path;
  console.log(`Scratch files of this run: ${scratch.path} (${scratch.kind})`);
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    scratch.remove();
  };
}
