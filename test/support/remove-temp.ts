import { dirname } from 'node:path'
import { afterAll } from 'vitest'
import { heldOutsideTests, TEST_SPOOL } from './processes'
import { madeOutsideTests, removeTempDir } from './temp-dir'

// A setup file (vitest.config.ts): its afterAll, registered before the test file's own, runs after
// them, once the file's services are stopped. The spool of this test process goes too: the
// commands make it again when they need it. So do the ports closedPort held outside a test.
afterAll(() => {
  for (const dir of madeOutsideTests) removeTempDir(dir)
  madeOutsideTests.clear()
  for (const release of heldOutsideTests) release()
  heldOutsideTests.clear()
  removeTempDir(dirname(TEST_SPOOL))
})
