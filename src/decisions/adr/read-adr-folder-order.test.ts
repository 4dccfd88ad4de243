import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { compareNames } from './adr-folder'
import { readAdrFolder } from './read-adr-folder'

// The listing as a file system may give it, in no order of names (ext4 lists by a hash of the
// name): here the real listing, backwards.
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>()
  const readdir = async (...args: Parameters<typeof fs.readdir>) => [...((await fs.readdir(...args)) as unknown[])].reverse()
  return { ...fs, readdir }
})

describe('the order a folder is read in', () => {
  it('says its problems by file name, whatever order the system lists the files in, and by code unit, not the locale', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'adr-order-'))
    try {
      const notARecord = '# Notes\n\nNothing decided here.\n'
      for (const name of ['0001-use-a', '0003-use-c', 'Beta.md', 'alpha.md', 'aa.md', 'z.md']) await writeFile(join(dir, name), notARecord)
      const reading = await readAdrFolder(dir)
      expect(reading.problems.map((p) => p.path)).toEqual(['0001-use-a', '0003-use-c', 'Beta.md', 'aa.md', 'alpha.md', 'z.md'])
      expect(reading.files).toEqual(['Beta.md', 'aa.md', 'alpha.md', 'z.md'])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('compareNames', () => {
  it('orders by code unit, as no locale does: capitals first, `aa` before `z`', () => {
    // localeCompare put `a` before `B` (en), `aa` after `z` (da), `adr` before `Adr` (en): by the machine.
    expect(['z', 'adr', 'aa', 'Adr', 'a', 'B'].sort(compareNames)).toEqual(['Adr', 'B', 'a', 'aa', 'adr', 'z'])
    expect(compareNames('aa', 'z')).toBeLessThan(0)
    expect(compareNames('Adr', 'adr')).toBeLessThan(0)
    expect(compareNames('adr', 'adr')).toBe(0)
  })
})
