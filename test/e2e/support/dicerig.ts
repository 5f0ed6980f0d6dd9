// The dicerig command as a user runs it (`dicerig serve ...`), run from source with tsx by the browser tests.
import { main } from '../../../src/cli/main.js';

process.exitCode = await main(process.argv);
