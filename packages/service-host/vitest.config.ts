import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The tests start real processes that migrate an embedded database, beside the other packages' suites.
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
