import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Files share their worker's modules instead of importing them afresh each (a third of CI's CPU went on
    // that). A file that replaces a module with vi.mock needs isolation: see packages/storage/vitest.config.ts.
    isolate: false,
  },
});
