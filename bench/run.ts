/**
 * `npm run bench`: prints speed and memory figures with their targets. Figures,
 * never pass/fail: these machines are shared, so compare ratios from one run.
 */
import { runAnalysisBench, runManyDiceBench } from './analysisBench.js';
import { runCliBench } from './cli.js';
import { runRigBench } from './rig.js';
import { runSessionBench } from './session.js';
import { runServeBench } from './serve.js';
import { runServeSoakBench } from './serveSoak.js';
import { runFleetBench } from './fleet.js';
import { runGcSessionsBench } from './gcSessions.js';
import { runGuidedBench } from './guided.js';
import { runStoreBench } from './store.js';
import { runVisionBench } from './vision.js';
import { runVisionD8Bench } from './visionD8.js';
import { runVisionLearnedBench } from './visionLearned.js';

console.log(`dicerig benchmarks — node ${process.version}, ${new Date().toISOString()}`);
runAnalysisBench();
runManyDiceBench();
runCliBench();
await runRigBench();
await runVisionBench();
await runVisionD8Bench();
await runVisionLearnedBench();
await runGuidedBench();
await runStoreBench();
await runSessionBench();
runGcSessionsBench();
await runServeBench();
runServeSoakBench();
await runFleetBench();
console.log(`\npeak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
