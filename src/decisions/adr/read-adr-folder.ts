import { readdir, readFile, readlink, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { compareNames, readRecordFolder, type FolderFile, type FolderReading } from './adr-folder'
import type { AdrFormat } from './parsed-record'

/**
 * Reads the `.md` files of a folder (not its subfolders) and what they hold. Paths are relative
 * to the folder, so that a record's source is the same wherever the import is run from. A file
 * the system will not let us read is a problem at line 1; the others are read. `files` names
 * them all. `today` (see readRecordFolder): a date after its tomorrow is read as none, and said.
 */
/** A record's name (`0016-slug`, `ADR-016-slug`, or by its date, `20240604-slug`, `2024-06-04-slug`) with no extension, or with `.markdown`. */
const MISNAMED = /^(?:adr[-_]?)?(?:\d{1,5}|\d{8}|\d{4}-\d{2}-\d{2})[-_][^.]*(?:\.markdown)?$/i

export async function readAdrFolder(dir: string, format?: AdrFormat, today?: string): Promise<FolderReading & { files: string[] }> {
  // By name, not as the system lists them (on ext4, by a hash of the name): what cannot be read is
  // said in the same order on every machine.
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => compareNames(a.name, b.name))
  // A record linked into the folder (`0005-use-x.md -> ../shared/0005-use-x.md`, as git checks a
  // symbolic link out) is a file of it, as the reader sees it; a link to a folder is not.
  const linked = new Set<string>()
  // Links to what is not there: files of the folder that cannot be read, as one the system will not let us read.
  const broken = new Set<string>()
  const unreadable: FolderReading['problems'] = []
  for (const entry of entries) {
    if (!entry.isSymbolicLink()) continue
    const target = await stat(join(dir, entry.name)).then(
      (s) => (s.isFile() ? 'file' : 'other'),
      (error: NodeJS.ErrnoException) => error.code ?? 'unreadable',
    )
    if (target === 'file') linked.add(entry.name)
    else if (target !== 'other' && (/\.md$/i.test(entry.name) || MISNAMED.test(entry.name))) {
      // A link to a record that is not there (its target moved or deleted, a checkout without it):
      // said, as a file that cannot be read is, rather than passed over as if it were no record.
      const to = await readlink(join(dir, entry.name)).catch(() => '?')
      broken.add(entry.name)
      const why = target === 'ENOENT' ? 'which is not there' : `which cannot be followed (${target})`
      unreadable.push({ path: entry.name, line: 1, message: `cannot read: a symbolic link to ${to}, ${why}` })
    }
  }
  const isFile = (entry: { name: string; isFile(): boolean }) => entry.isFile() || linked.has(entry.name)
  const files: FolderFile[] = []
  for (const entry of entries) {
    if (isFile(entry) && MISNAMED.test(entry.name)) {
      // A record saved without its `.md` (`0016-handle-concurrent-git-operations`) or as `.markdown`:
      // not read, and said, rather than passed over as if it were an image.
      const stem = entry.name.replace(/\.markdown$/i, '')
      unreadable.push({ path: entry.name, line: 1, message: `named as a record but not a .md file, so it is not read; rename it ${stem}.md to import it` })
    }
    if (!isFile(entry) || !/\.md$/i.test(entry.name)) continue
    try {
      files.push({ path: entry.name, name: entry.name, bytes: await readFile(join(dir, entry.name)) })
    } catch (error) {
      unreadable.push({ path: entry.name, line: 1, message: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` })
    }
  }
  // Files that could not be read are records of the folder all the same, which links may name.
  const reading = readRecordFolder(files, format, unreadable.map((p) => p.path), today)
  // Every `.md` file, read or not (a link to one that is not there too): a record whose file is among them was not deleted.
  const names = entries.filter((e) => (isFile(e) || broken.has(e.name)) && /\.md$/i.test(e.name)).map((e) => e.name)
  return { ...reading, problems: [...unreadable, ...reading.problems], files: names }
}
