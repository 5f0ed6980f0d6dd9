import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that take 20 s or more on a quiet 2-core machine (measured 2026-12-01), slowest first.
 * Once Vitest has timings of every file (node_modules/.vite) it starts the slowest files first by itself; on a
 * fresh clone (CI) it has none and starts the largest files first, which left these small but slow
 * files for the end of the run, where one of them runs alone while the other workers idle. It gathers timings
 * file by file, from every run (a worktree sharing node_modules shares them): after runs of a few files it knows
 * those, and used to sort every other file by size, the slow small ones last again (its cache held 4 files after
 * one such run). So unless it knows every file of this run, these go first.
 */
const SLOW = [
  'test/cli/demo.test.ts',
  'test/camera/render3d.test.ts',
  'test/campaign/campaignFleet.test.ts',
  'test/camera/render3dScene.test.ts',
  'test/e2e/serve.e2e.test.ts',
  'test/vision/fineTune.test.ts',
  'test/fleet/faults.test.ts',
  'test/vision/learnedCalibration.test.ts',
  'test/server/review.test.ts',
  'test/vision/settle.test.ts',
  'test/rig/firmataDriver.test.ts',
  'test/vision/simAccuracy.test.ts',
  'test/e2e/fleet.e2e.test.ts',
  'test/rig/firmataContract.test.ts',
  'test/e2e/review.e2e.test.ts',
  'test/vision/d8Accuracy.test.ts',
  'test/vision/learnedOnRenders.test.ts',
  'test/session/crash.test.ts',
  'test/cli/reportSessionEvidence.test.ts',
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
