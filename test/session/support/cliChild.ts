/**
 * The `dicerig` command in a child process, from the TypeScript sources (as
 * `bin/dicerig.js` runs it from dist/), for tests that kill it or run it on
 * the emulated board: `node --import tsx cliChild.ts demo --seed 3 ...`.
 */
import { main } from '../../../src/cli/main.js';

process.exitCode = await main(process.argv);
