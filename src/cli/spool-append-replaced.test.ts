import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { tempDir } from '../../test/support/temp-dir'

/**
 * A spool found replaced after every write to it: stat of `file` answers another file (inode) than
 * the one written, as when other processes' drains take it each time, or a file system whose stat
 * and fstat disagree.
 */
const replaced = vi.hoisted(() => ({ file: '' }))

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>()
  return {
    ...real,
    stat: (async (...args: Parameters<typeof real.stat>) => {
      const found = await real.stat(...args)
      if (args[0] !== replaced.file) return found
      return Object.assign(Object.create(Object.getPrototypeOf(found) as object) as object, found, { ino: Number(found.ino) + 1 })
    }) as typeof real.stat,
  }
})

const { appendToRejected, appendToSpool, drainSpool, rejectedFile } = await import('./spool')

const event = { at: '2026-07-01T10:00:00.000Z', user: 'default', payload: { id: 1 } }
const why = "was replaced after each of 5 writes to it (taken by other processes' drains, or a file system whose stat and fstat disagree)"

describe('a spool found replaced after each write to it', () => {
  it('says the event may not be kept, rather than give up on it without a word', async () => {
    const file = join(tempDir('dm-spool-replaced-'), 'spool.ndjson')
    replaced.file = file
    try {
      await expect(appendToSpool(file, event)).rejects.toThrow(`the spool ${file} ${why}: this event may not be kept`)
      // Written each time: here, where the file stayed, it is kept five times, one event to a drain.
      expect((await readFile(file, 'utf8')).split('\n').filter((l) => l !== '')).toHaveLength(5)
      replaced.file = rejectedFile(file)
      await expect(appendToRejected(file, event)).rejects.toThrow(`${rejectedFile(file)} ${why}: this event may not be kept`)
    } finally {
      replaced.file = ''
    }
  })

  it('leaves a drain\'s events in its claim when it cannot put them back, for the next drain to take over', async () => {
    const dir = tempDir('dm-spool-replaced-')
    const file = join(dir, 'spool.ndjson')
    await writeFile(file, JSON.stringify(event) + '\n', { mode: 0o600 })
    replaced.file = file
    try {
      // Said as what it is, not as lines that may not be kept: they wait in the claim (the hook says so).
      await expect(drainSpool(file, async () => 'failed')).rejects.toThrow(new Error(`${file} ${why}`))
    } finally {
      replaced.file = ''
    }
    const claims = (await readdir(dir)).filter((name) => name.endsWith('.draining'))
    expect(claims).toHaveLength(1)
    expect(await readFile(join(dir, claims[0] as string), 'utf8')).toBe(JSON.stringify(event) + '\n')
  })
})
