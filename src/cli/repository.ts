import { statSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'

/** Whether `dir` holds a `.git` entry: a directory, or the file of a worktree or a submodule. */
function holdsGit(dir: string): boolean {
  try {
    statSync(join(dir, '.git'))
    return true
  } catch {
    return false
  }
}

/**
 * The root of the git repository `cwd` is in: the nearest folder above it, itself included, that
 * holds `.git`; undefined when it is in none. Read where the hook runs, on the agent's machine.
 */
export function repositoryRoot(cwd: string, isRoot: (dir: string) => boolean = holdsGit): string | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (isRoot(dir)) return dir
    if (dirname(dir) === dir) return undefined
  }
}

/**
 * The path a command runs in, as decisions are scoped (R-CON-4): relative to the root of the
 * repository `cwd` is in, with forward slashes, `.` at the root; `cwd` as it is when it is in no
 * repository. Decisions are scoped by repository-relative paths (`services/payments`), which an
 * absolute `cwd` never matched.
 */
export function pathInRepository(cwd: string, isRoot?: (dir: string) => boolean): string {
  const root = repositoryRoot(cwd, isRoot)
  return root === undefined ? cwd : relative(root, cwd).split(sep).join('/') || '.'
}
