import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Removes the temporary folders of a test file made outside its tests, and its spool (test/support/temp-dir.ts).
    setupFiles: ['test/support/remove-temp.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
})
