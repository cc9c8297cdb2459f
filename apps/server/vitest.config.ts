import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The CLI and startup tests spawn server processes, which may take up to serverStartLimitMs each to start
    // while CI runs every suite at once (test/support/processes.ts); a test may start two.
    testTimeout: 360_000,
    hookTimeout: 360_000,
  },
});
