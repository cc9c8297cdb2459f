import { configDefaults, defineConfig } from 'vitest/config';

// Files share their worker's modules instead of importing them afresh each: on two cores that took CI's CPU
// from 1,735 to 1,081 s (bash .ci/run, 2026-11-28). A file that replaces a module with vi.mock cannot share
// (the module is already loaded), so it runs isolated, as vitest does by default.
const mockingFiles = ['test/identity.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'storage',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...mockingFiles],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'storage, isolated', include: mockingFiles } },
    ],
  },
});
