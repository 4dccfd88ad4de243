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
  it('says its problems by file name, whatever order the system lists the files in, and not by the locale', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'adr-order-'))
    try {
      const notARecord = '# Notes\n\nNothing decided here.\n'
      for (const name of ['0001-use-a', '0003-use-c', 'Beta.md', 'alpha.md', 'aa.md', 'z.md']) await writeFile(join(dir, name), notARecord)
      const reading = await readAdrFolder(dir)
      expect(reading.problems.map((p) => p.path)).toEqual(['0001-use-a', '0003-use-c', 'aa.md', 'alpha.md', 'Beta.md', 'z.md'])
      expect(reading.files).toEqual(['aa.md', 'alpha.md', 'Beta.md', 'z.md'])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('reads records named in mixed case, or with accents, in the order they were read before, not by code unit', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'adr-order-'))
    try {
      const madr = (title: string) => `---\nstatus: accepted\n---\n\n# ${title}\n\n## Decision Outcome\n\nChosen option: "${title}".\n`
      const names = ['ADR-0001-use-a.md', 'adr-0002-use-b.md', 'ADR-0003-use-c.md', '20240101-éclair.md', '20240101-zebra.md']
      for (const name of names) await writeFile(join(dir, name), madr(name))
      const reading = await readAdrFolder(dir)
      // By code unit, `ADR-0003` came before `adr-0002`, and `zebra` before `éclair`.
      expect(reading.records.map((r) => r.origin.path)).toEqual(['20240101-éclair.md', '20240101-zebra.md', 'ADR-0001-use-a.md', 'adr-0002-use-b.md', 'ADR-0003-use-c.md'])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('compareNames', () => {
  it('orders as English does on every machine, `aa` before `z` (after it in Danish), and only names alike as equal', () => {
    expect(['z', 'adr', 'aa', 'Adr', 'a', 'B', 'éclair'].sort(compareNames)).toEqual(['a', 'aa', 'adr', 'Adr', 'B', 'éclair', 'z'])
    expect(compareNames('aa', 'z')).toBeLessThan(0)
    expect(compareNames('ADR-0003', 'adr-0002')).toBeGreaterThan(0)
    expect(compareNames('adr', 'adr')).toBe(0)
    // The same name decomposed, as macOS may give it, is another name all the same, in one order.
    expect(compareNames('e\u0301clair', '\u00e9clair')).toBeLessThan(0)
    expect(compareNames('\u00e9clair', 'e\u0301clair')).toBeGreaterThan(0)
  })
})
