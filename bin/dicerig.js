#!/usr/bin/env node
// Thin launcher: `npm run build` (the set-up line runs it) compiles the CLI to dist/ and bundles it into dist/cli/.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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
