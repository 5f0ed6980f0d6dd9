#!/usr/bin/env node
// Thin launcher: `npm run build` (the set-up line runs it) compiles the CLI to dist/ and bundles it into dist/cli/.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// A process that runs session after session (serve, a campaign host's batches) kept its old generation's limit close
// to what lived, and as the frames' large buffers came and went V8 ran some 50 full mark-compacts in each session
// after the first (3 sessions of a 150-roll demo in one process: 3.3, 3.8, 4.1 s of CPU; with a growing factor of 4:
// 3.3, 2.5, 2.3 s and one mark-compact each). Why (--trace-gc-verbose): after each mark-compact V8 grows the limit by
// how fast the program allocates in the old generation against how fast it collects; a session's loop allocates
// there ~0.5 MB/s, so the factor falls to its least, 1.1: the limit is what lives + 8 MB (+ the young generation), and
// the array buffers allocated since the last mark-compact count against it, ~4 MB a throw (the frame's copy most of
// it). bench/gcSessions.ts prints the figures. The cost is a heap limit of some four times what lives.
setFlagsFromString('--heap-growing-percent=300');

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  console.error('dicerig: not built yet. Run `bash scripts/setup.sh` (or `npm run build`) in the dicerig folder first.');
  process.exit(2);
}
// `dicerig odds | head` closes the pipe early: that is the reader's choice, not a failure.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});
const { main } = await import(entry.href);
process.exitCode = await main(process.argv);
