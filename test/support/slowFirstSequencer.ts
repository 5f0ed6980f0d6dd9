import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that took 20 s or more on the 2-core CI machine (its run of 2026-12-06, 3 workers; a file marked * was made
 * faster since and is placed by an estimate), slowest first. Once Vitest has timings of every file
 * (node_modules/.vite) it starts the slowest files first by itself; on a fresh clone (CI) it has none and starts
 * the largest files first, which left these small but slow files for the end of the run, where one of them runs
 * alone while the other workers idle (calibrateD6Faces, 188 s on CI, was missing from this list). It gathers
 * timings file by file, from every run (a worktree sharing node_modules shares them): after runs of a few files it
 * knows those, and used to sort every other file by size, the slow small ones last again (its cache held 4 files
 * after one such run). So unless it knows every file of this run, these go first. The rig files run in a project
 * of their own (realtimeFiles.ts) and are not listed.
 */
const SLOW = [
  'test/camera/render3d.test.ts',
  'test/cli/calibrateD6Faces.test.ts', // * 188 s before its fit was made twice as fast
  'test/cli/analyze.test.ts',
  'test/campaign/campaignFleet.test.ts', // * 130 s before one of its campaigns moved to campaignReaders
  'test/cli/demo.test.ts',
  'test/cli/moreRolls.test.ts',
  'test/campaign/campaignReaders.test.ts', // * 33 s, and now the rig-effect campaign's test too
  'test/cli/calibrate.test.ts',
  'test/e2e/fleet.e2e.test.ts',
  'test/e2e/reviewPage.e2e.test.ts', // * 73 s before it copied one demo instead of running eight
  'test/camera/render3dScene.test.ts',
  'test/vision/simAccuracy.test.ts',
  'test/campaign/batchClaims.test.ts',
  'test/e2e/overlayDice.e2e.test.ts',
  'test/vision/fineTune.test.ts',
  'test/cli/reportSessionEvidence.test.ts',
  'test/vision/d8Accuracy.test.ts',
  'test/server/api.test.ts', // * 76 s, some 60 of them a close that waited on an unused connection
  'test/e2e/serve.e2e.test.ts',
  'test/cli/keepFrames.test.ts',
  'test/rig/firmataMotionProof.test.ts',
  'test/e2e/unreadableFace.e2e.test.ts',
  'test/fleet/login.test.ts',
  'test/cli/sessionLock.test.ts',
  'test/fleet/faults.test.ts',
  'test/vision/learnedOnRenders.test.ts',
  'test/verdict/sessionMisreads.test.ts',
  'test/vision/learnedCalibration.test.ts',
  'test/e2e/review.e2e.test.ts',
  'test/vision/d6FaceHead.test.ts',
  'test/cli/exportVerdicts.test.ts',
  'test/server/liveEvents.test.ts',
  'test/session/crash.test.ts',
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
