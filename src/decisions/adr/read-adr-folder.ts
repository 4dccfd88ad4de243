import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { readRecordFolder, type FolderFile, type FolderReading } from './adr-folder'
import type { AdrFormat } from './parsed-record'

/**
 * Reads the `.md` files of a folder (not its subfolders) and what they hold. Paths are relative
 * to the folder, so that a record's source is the same wherever the import is run from. A file
 * the system will not let us read is a problem at line 1; the others are read. `files` names
 * them all.
 */
/** A record's name (`0016-slug`, `ADR-016-slug`) with no extension, or with `.markdown`. */
const MISNAMED = /^(?:adr[-_]?)?\d{1,5}[-_][^.]*(?:\.markdown)?$/i

export async function readAdrFolder(dir: string, format?: AdrFormat): Promise<FolderReading & { files: string[] }> {
  const entries = await readdir(dir, { withFileTypes: true })
  const files: FolderFile[] = []
  const unreadable: FolderReading['problems'] = []
  for (const entry of entries) {
    if (entry.isFile() && MISNAMED.test(entry.name)) {
      // A record saved without its `.md` (`0016-handle-concurrent-git-operations`) or as `.markdown`:
      // not read, and said, rather than passed over as if it were an image.
      const stem = entry.name.replace(/\.markdown$/i, '')
      unreadable.push({ path: entry.name, line: 1, message: `named as a record but not a .md file, so it is not read; rename it ${stem}.md to import it` })
    }
    if (!entry.isFile() || !/\.md$/i.test(entry.name)) continue
    try {
      files.push({ path: entry.name, name: entry.name, bytes: await readFile(join(dir, entry.name)) })
    } catch (error) {
      unreadable.push({ path: entry.name, line: 1, message: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` })
    }
  }
  const reading = readRecordFolder(files, format)
  // Every `.md` file, read or not: a record whose file is among them was not deleted.
  const names = entries.filter((e) => e.isFile() && /\.md$/i.test(e.name)).map((e) => e.name).sort()
  return { ...reading, problems: [...unreadable, ...reading.problems], files: names }
}
