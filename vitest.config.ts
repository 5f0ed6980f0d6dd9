import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Timeouts catch hangs, not slowness: the CPU-bound vision tests take 15-45 s on a shared 2-core machine.
    testTimeout: 90_000,
    hookTimeout: 90_000,
    pool: 'forks',
    reporters: ['default', './test/support/summaryReporter.ts'],
  },
});
