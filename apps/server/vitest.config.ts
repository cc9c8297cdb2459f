import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Files share their worker's modules instead of importing them afresh each (a third of CI's CPU went on
    // that). A file that replaces a module with vi.mock needs isolation: see packages/storage/vitest.config.ts.
    isolate: false,
    // The CLI and startup tests spawn server processes, which may take up to serverStartLimitMs each to start
    // while CI runs every suite at once (test/support/processes.ts); a test may start two.
    testTimeout: 360_000,
    hookTimeout: 360_000,
  },
});
