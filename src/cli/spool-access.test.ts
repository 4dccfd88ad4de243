import { chown, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { tempDir } from '../../test/support/temp-dir'

// Run as root, a test is never refused a file: the spool's open fails here as the kernel fails it
// for an account that may not write the file (another account's, mode 0600) or the folder.
const faults = vi.hoisted(() => ({ refused: undefined as string | undefined }))

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>()
  return {
    ...real,
    open: (async (...args: Parameters<typeof real.open>) => {
      const [path] = args
      if (path === faults.refused) throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES', errno: -13, syscall: 'open', path })
      return real.open(...args)
    }) as typeof real.open,
  }
})

const { appendToSpool } = await import('./spool')

afterEach(() => {
  faults.refused = undefined
})

const event = { at: '2026-12-05T10:00:00.000Z', user: 'carol', payload: { hook_event_name: 'SessionStart' } }

describe('a spool this account is refused (EACCES)', () => {
  // Said `cannot write the spool FILE (EACCES): this event is not kept; free the disk, or …`: the
  // disk was never the cause, and of another account's file the owner went unsaid.
  it.skipIf(process.getuid?.() !== 0)('names the account that owns the file, as a spool of another account open to this one is said', async () => {
    const file = join(tempDir('dm-spool-access-'), 'spool.ndjson')
    await writeFile(file, '', { mode: 0o600 })
    await chown(file, 65534, 65534)
    faults.refused = file
    await expect(appendToSpool(file, event)).rejects.toThrow(
      `the spool ${file} belongs to another account (uid 65534), which could read what is spooled or add to it: this event is not kept; give DECISION_MEMORY_SPOOL or --spool a file of your own`,
    )
  })

  it('says a file this account may not write without a disk to free', async () => {
    const file = join(tempDir('dm-spool-access-'), 'spool.ndjson')
    faults.refused = file
    await expect(appendToSpool(file, event)).rejects.toThrow(
      new Error(`cannot write the spool ${file} (EACCES): this event is not kept; give DECISION_MEMORY_SPOOL or --spool a file this account can write`),
    )
  })
})
