import { statSync } from 'node:fs'
import { basename, join, posix, resolve } from 'node:path'
import { holdsGit, originName, pathInRepository, projectRoot, repositoryRoot } from '../../repository'

/**
 * A folder of records as imports name it (`imported.folder`), wherever the command runs: after its
 * repository's name, its `origin` remote's (`github.com/acme/shop/docs/adr`), else its main
 * checkout's directory's (`shop/docs/adr`); absolute outside a repository. `aliases` are the names
 * imports gave it before the repository was named by its remote (`shop/docs/adr`, and any
 * directory's name before `docs/adr`).
 * As given, its links not followed (holdsGit).
 */
export function recordFolder(dir: string): { root?: string; origin?: string; directory?: string; folder: string; aliases: string[] } {
  const absolute = resolve(dir)
  const root = repositoryRoot(absolute, holdsGit)
  if (root === undefined) return { folder: absolute, aliases: [] }
  const origin = originName(root)
  const inRepository = pathInRepository(absolute, holdsGit)
  const directory = basename(projectRoot(root))
  const folder = posix.join(origin ?? directory, inRepository)
  const aliases =
    origin === undefined
      ? []
      : [...[...new Set([basename(root), directory, posix.basename(origin)].map((name) => posix.join(name, inRepository)))].filter((a) => a !== folder), `*/${inRepository}`]
  return { root, origin, directory, folder, aliases }
}

/** The folder `import-adr DIR` reads: DIR, but for AXME Code's store (`.axme-code`), whose decisions are in its `decisions/`, read as if named. */
export function recordsRead(dir: string): string {
  return basename(resolve(dir)) === '.axme-code' && isDirectory(join(dir, 'decisions')) ? join(dir, 'decisions') : dir
}

/** Whether `path` names a folder. */
function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
