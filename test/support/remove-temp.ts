import { dirname } from 'node:path'
import { afterAll } from 'vitest'
import { TEST_SPOOL } from './processes'
import { madeOutsideTests, removeTempDir } from './temp-dir'

// A setup file (vitest.config.ts): its afterAll, registered before the test file's own, runs after
// them, once the file's services are stopped. The spool of this test process goes too: the
// commands make it again when they need it.
afterAll(() => {
  for (const dir of madeOutsideTests) removeTempDir(dir)
  madeOutsideTests.clear()
  removeTempDir(dirname(TEST_SPOOL))
})
