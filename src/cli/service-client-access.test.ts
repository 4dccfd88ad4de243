import { mkdir } from 'node:fs/promises'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { captured } from '../../test/support/captured'
import { closedPort } from '../../test/support/processes'
import { tempDir } from '../../test/support/temp-dir'

// Run as root, the tests cannot meet a folder they may not enter: the calls on a path below it fail
// as the kernel fails them for another account (test/support/barred-folder.ts).
const faults = vi.hoisted(() => ({ barred: undefined as string | undefined }))

vi.mock('node:fs', async (importOriginal) => (await import('../../test/support/barred-folder')).barredFs(await importOriginal(), faults))
vi.mock('node:fs/promises', async (importOriginal) => (await import('../../test/support/barred-folder')).barredFsPromises(await importOriginal(), faults))

const { throughServiceOrLocal } = await import('./service-client')
const { main } = await import('./main')

afterEach(() => {
  faults.barred = undefined
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
})

/** A folder of another account's, mode 0700 (`/root`), and the store's path below it. */
async function barredFolder(): Promise<{ folder: string; dir: string }> {
  const folder = join(tempDir('dm-barred-'), 'root')
  await mkdir(folder)
  faults.barred = folder
  return { folder, dir: join(folder, 'db') }
}

const cannotReach = (dir: string, folder: string) =>
  `cannot reach the store in ${dir}: this account (${userInfo().username}) may not enter ${folder}, a folder above it (EACCES): ` +
  'run the command as an account that may enter it, or keep the store in a folder this account may enter'

describe('a command on a store under a folder this account may not enter', () => {
  it('says the folder cannot be entered, not that there is no store in it (--data)', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const { folder, dir } = await barredFolder()
    const call = throughServiceOrLocal({ method: 'GET', path: '/x', dataDir: dir, local: async () => 'ok' })
    await expect(call).rejects.toThrow(cannotReach(dir, folder))
  })

  it('says it of $DECISION_MEMORY_DATA with no service running, not "no service …, and no store in DIR"', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const { folder, dir } = await barredFolder()
    vi.stubEnv('DECISION_MEMORY_DATA', dir)
    const call = throughServiceOrLocal({ method: 'GET', path: '/x', local: async () => 'ok' })
    await expect(call).rejects.toThrow(cannotReach(dir, folder))
  })

  it('says it before a command answers as for no store (preferences prints nothing learned)', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const { folder, dir } = await barredFolder()
    const run = await captured(() => main(['preferences', '--user', 'alice', '--data', dir]))
    expect(run).toEqual({ code: 1, stdout: '', stderr: `decision-memory preferences: ${cannotReach(dir, folder)}\n` })
  })
})
