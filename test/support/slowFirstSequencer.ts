import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that took 20 s or more on the 2-core CI machine (its run of 2026-12-07, 3 workers), slowest first. Once
 * Vitest has timings of every file (node_modules/.vite) it starts the slowest files first by itself; on a fresh clone (CI) it has none and starts
 * the largest files first, which left these small but slow files for the end of the run, where one of them runs
 * alone while the other workers idle (calibrateD6Faces, 188 s on CI, was once missing from this list). It gathers
 * timings file by file, from every run (a worktree sharing node_modules shares them): after runs of a few files it
 * knows those, and used to sort every other file by size, the slow small ones last again (its cache held 4 files
 * after one such run). So unless it knows every file of this run, these go first. The rig files run in a project
 * of their own (realtimeFiles.ts) and are not listed, nor is the work counter (a project of its own).
 */
const SLOW = [
  'test/cli/calibrateD6Faces.test.ts', // 145 s
  'test/camera/render3d.test.ts', // 131 s
  'test/cli/analyze.test.ts', // 126 s
  'test/cli/moreRolls.test.ts', // 101 s
  'test/cli/demo.test.ts', // 92 s
  'test/campaign/campaignFleet.test.ts', // 82 s
  'test/cli/calibrate.test.ts', // 79 s
  'test/e2e/fleet.e2e.test.ts', // 78 s
  'test/cli/keepFrames.test.ts', // 55 s
  'test/fleet/faults.test.ts', // 47 s
  'test/vision/simAccuracy.test.ts', // 47 s
  'test/e2e/reviewPage.e2e.test.ts', // 46 s
  'test/campaign/batchClaims.test.ts', // 40 s
  'test/verdict/sessionMisreads.test.ts', // 40 s
  'test/vision/learnedCalibration.test.ts', // 39 s
  'test/campaign/campaignReaders.test.ts', // 39 s
  'test/vision/fineTune.test.ts', // 38 s
  'test/e2e/unreadableFace.e2e.test.ts', // 36 s
  'test/vision/learnedOnRenders.test.ts', // 33 s
  'test/vision/d8Accuracy.test.ts', // 31 s
  'test/cli/sessionLock.test.ts', // 30 s
  'test/e2e/overlayDice.e2e.test.ts', // 29 s
  'test/e2e/serve.e2e.test.ts', // 29 s
  'test/fleet/login.test.ts', // 28 s
  'test/cli/exportVerdicts.test.ts', // 25 s
  'test/cli/calibrateD6Guided.test.ts', // 25 s
  'test/e2e/overlayQueue.e2e.test.ts', // 24 s
  'test/cli/acrossSessions.test.ts', // 24 s
  'test/vision/tinyNetWasm.test.ts', // 23 s
  'test/cli/reportSessionEvidence.test.ts', // 22 s
  'test/fleet/sync.test.ts', // 22 s
  'test/session/crash.test.ts', // 21 s
  'test/e2e/review.e2e.test.ts', // 21 s
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const path = (f: TestSpecification): string => relative(root, f.moduleId);
    if (sorted.every((f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${path(f)}`) !== undefined)) return sorted;
    const rank = (f: TestSpecification): number => {
      const i = SLOW.indexOf(path(f));
      return i < 0 ? SLOW.length : i;
    };
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}
