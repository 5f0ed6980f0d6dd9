import { main } from '../../../src/cli/main.js';

// The CLI from source in a process of its own (a replicator or a rig process a test can SIGKILL).
process.exitCode = await main(process.argv);
