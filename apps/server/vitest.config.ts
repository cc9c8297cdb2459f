import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The CLI and startup tests spawn Node processes that each open an embedded database.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
