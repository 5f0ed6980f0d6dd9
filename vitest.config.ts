import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { REALTIME } from './test/support/realtimeFiles.js';
import SlowFirstSequencer from './test/support/slowFirstSequencer.js';

/** Files that need a process of their own: V8's call counters count only code compiled after they were switched on. */
const ISOLATED = ['test/unit/analysis/linearWork.test.ts'];

// A worker runs file after file in one process (isolate: false below). Once a few CLI commands had run there, V8 held
// the old generation's limit near twice what lived and, as the frames' large buffers came and went, ran a full
// mark-compact about every 0.1 s that freed almost nothing: a simulated session of 130 throws run in-process a second
// time did 32-37 of them and took 2.9 s of CPU, against 1-3 and 2.0 s with a fixed growing factor of 4. The cost is
// a higher heap limit (four times what lives, some 250 MB a worker), not memory the tests use.
const WORKER_FLAGS: string[] = ['--heap-growing-percent=300'];

const common = {
  // Timeouts catch hangs, not slowness: the CPU-bound vision tests take 15-45 s on a shared 2-core machine.
  testTimeout: 90_000,
  hookTimeout: 90_000,
  pool: 'forks',
  execArgv: WORKER_FLAGS,
} as const;

// Vitest's default is one worker per core but one, which on a 2-core CI machine runs the files one at a
// time; many of them spend much of their time waiting (child processes, PostgreSQL, Chromium). On a 2-core
// machine (2026-12-01, nothing else running) two files at a time took 517 and 554 s, three 465, 482, 509 and
// 524 s (the last two fresh clones), four 504 s. Three it is: the gain is small next to what runs vary by, but
// every run of three beat the slower run of two.
const WORKERS = Math.max(3, availableParallelism() - 1);

export default defineConfig({
  test: {
    sequence: { sequencer: SlowFirstSequencer },
    globalSetup: ['./test/support/globalSetup.ts'],
    reporters: ['default', './test/support/summaryReporter.ts'],
    // A worker runs file after file in one process, importing our modules once: a fresh process and fresh
    // imports for each of ~185 files cost about a minute and a half of a run. Our modules hold no state a test
    // could leave behind (scratch buffers and lazily loaded networks only), and no test mocks a module.
    // The one file that must see our code compiled afresh, the work counter, keeps a process of its own.
    // Projects in one group run side by side and must share a worker count; groups run one after another.
    projects: [
      { test: { ...common, name: 'realtime', include: REALTIME, isolate: false, maxWorkers: 3, sequence: { groupOrder: 0 } } },
      { test: { ...common, name: 'shared', include: ['test/**/*.test.ts'], exclude: [...ISOLATED, ...REALTIME], isolate: false, maxWorkers: WORKERS, sequence: { groupOrder: 1 } } },
      { test: { ...common, name: 'isolated', include: ISOLATED, maxWorkers: WORKERS, sequence: { groupOrder: 1 } } },
    ],
  },
});
