import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { captured } from '../../test/support/captured'
import { closedPort } from '../../test/support/processes'
import { tempDir } from '../../test/support/temp-dir'

/**
 * A spool that cannot be written back to once the user's events are out of the claim: the open of
 * `fails` (the others' events put back) fails, as on a disk gone read-only.
 */
const fault = vi.hoisted(() => ({ fails: '' }))

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>()
  return {
    ...real,
    open: async (...args: Parameters<typeof real.open>) => {
      if (args[0] === fault.fails) throw Object.assign(new Error(`EROFS: read-only file system, open '${fault.fails}'`), { code: 'EROFS' })
      return real.open(...args)
    },
  }
})

const { forgetCommand } = await import('./forget')
const { appendToSpool } = await import('./spool')
const { openStores } = await import('../open-store')

afterEach(() => {
  fault.fails = ''
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
})

/** A spool of one event of bob's and one of carol's, failing as the others' are put back. */
async function failingSpool(): Promise<string> {
  const spool = join(tempDir('dm-forget-fail-'), 'spool.ndjson')
  await appendToSpool(spool, { at: '2026-12-01T10:00:00.000Z', user: 'bob', payload: { hook_event_name: 'SessionStart', session_id: 's-bob' } })
  await appendToSpool(spool, { at: '2026-12-01T10:00:01.000Z', user: 'carol', payload: { hook_event_name: 'SessionStart', session_id: 's-carol' } })
  fault.fails = spool
  return spool
}

/** What the spool's folder holds, every file's text: bob's event is in none, carol's in one (the claim left). */
async function heldBeside(spool: string): Promise<string> {
  const dir = join(spool, '..')
  const texts = await Promise.all((await readdir(dir)).map((name) => readFile(join(dir, name), 'utf8')))
  return texts.join('')
}

/** A loopback URL nothing listens on, held so for the test (closedPort: no service is given its port meanwhile). */
async function deadUrl(): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}`
}

const failed = (spool: string) => `cannot take all of bob's events out of the spool ${spool} (1 removed before it failed): EROFS: read-only file system, open '${spool}'`

describe('decision-memory forget, a spool that fails partway (R-SVC-5)', () => {
  it('counts the events it removed before the failure when the store\'s part failed too, rather than say none', async () => {
    const spool = await failingSpool()
    vi.stubEnv('DECISION_MEMORY_URL', await deadUrl())
    vi.stubEnv('DECISION_MEMORY_DATA', join(tempDir('dm-forget-nostore-'), 'data'))
    vi.stubEnv('DECISION_MEMORY_SPOOL', spool)
    let thrown: unknown
    const { stderr } = await captured(() => forgetCommand(['--user', 'bob', '--yes']).catch((error: unknown) => ((thrown = error), 1)))
    expect(thrown).toMatchObject({ message: expect.stringContaining('no store in') })
    // A version before this said it could not take them out, and nothing of the one it had.
    expect(stderr).toBe(
      `decision-memory forget: ${failed(spool)}\n` +
        `decision-memory forget: 1 spooled hook event of bob removed from ${spool}, but the store's part failed (below): forget again once it is mended\n`,
    )
    const held = await heldBeside(spool)
    expect(held).not.toContain('"bob"')
    expect(held).toContain('"carol"')
  })

  it('says the store forgotten and the events removed, exit 1, when the store\'s part is done, rather than end on a stack trace', async () => {
    const spool = await failingSpool()
    vi.stubEnv('DECISION_MEMORY_URL', await deadUrl())
    const store = tempDir('dm-forget-store-')
    await (await openStores(store)).store.close()
    const { code, stdout, stderr } = await captured(() => forgetCommand(['--user', 'bob', '--yes', '--data', store, '--spool', spool]))
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toBe(`decision-memory forget: forgot bob in the store (0 entries deleted), but ${failed(spool)}; forget again once it is mended\n`)
    expect(await heldBeside(spool)).not.toContain('"bob"')
  })
})
