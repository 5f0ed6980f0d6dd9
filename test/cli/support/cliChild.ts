import { main } from '../../../src/cli/main.js';

// The CLI in a process of its own (for a test that runs it as another user).
process.exitCode = await main(process.argv);
