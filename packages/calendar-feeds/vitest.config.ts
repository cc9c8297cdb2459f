import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Isolated (vitest's default), unlike the other packages' files: one file replaces the address lookup
    // with vi.mock, and the package's suite is small.
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
