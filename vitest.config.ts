import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/support/slowFirstSequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Timeouts catch hangs, not slowness: the CPU-bound vision tests take 15-45 s on a shared 2-core machine.
    testTimeout: 90_000,
    hookTimeout: 90_000,
    pool: 'forks',
    // Vitest's default is one worker per core but one, which on a 2-core CI machine runs the files one at a
    // time; many of them spend much of their time waiting (emulated boards in real time, child processes,
    // PostgreSQL, Chromium), so two files at a time use the second core.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: SlowFirstSequencer },
    globalSetup: ['./test/support/globalSetup.ts'],
    reporters: ['default', './test/support/summaryReporter.ts'],
  },
});
