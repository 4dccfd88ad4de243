import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Removes the temporary folders of a test file made outside its tests, and its spool (test/support/temp-dir.ts);
    // runs every fast-check property on a fixed seed (DM_FUZZ_SEED another).
    setupFiles: ['test/support/remove-temp.ts', 'test/support/fast-check-seed.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
})
