import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir } from './temp-dir'

describe('tempDir', () => {
  let made = ''
  let seenByAfterEach: boolean | undefined
  afterEach(() => {
    // A test's afterEach (which stops the services it started) still has the folder.
    if (made !== '' && seenByAfterEach === undefined) seenByAfterEach = existsSync(made)
  })

  it('makes a folder under the temporary one', () => {
    made = tempDir('dm-temp-dir-')
    writeFileSync(join(made, 'a-file'), 'x')
    expect(existsSync(join(made, 'a-file'))).toBe(true)
  })

  it('removed it, with what was in it, once the test that made it ended, after its afterEach hooks', () => {
    expect(seenByAfterEach).toBe(true)
    expect(existsSync(made)).toBe(false)
  })
})
