import { readFileSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname, join, parse, relative, resolve, sep } from 'node:path'
import { homeFolder } from './home-folder'

/** Whether `dir` holds a `.git` entry: a directory, or the file of a worktree or a submodule. */
export function holdsGit(dir: string): boolean {
  try {
    statSync(join(dir, '.git'))
    return true
  } catch {
    return false
  }
}

/**
 * A folder as the file system has it, every symbolic link (a Windows junction) in it followed, as
 * process.cwd() and git give it: `/home/u/proj`, a link to `/data/proj`, is `/data/proj`. What is
 * not there (a folder removed since, a path of another machine) is resolved as far as it exists,
 * the rest as written.
 */
export function realFolder(path: string): string {
  const resolved = resolve(path)
  try {
    return realpathSync(resolved)
  } catch {
    const parent = dirname(resolved)
    return parent === resolved ? resolved : join(realFolder(parent), basename(resolved))
  }
}

/**
 * The root of the git repository `cwd` is in: the nearest folder above it, itself included, that
 * holds `.git`; undefined when it is in none. Read where the hook runs, on the agent's machine.
 * `isRoot` given (a test's folders, or holdsGit itself), the path is taken as written, its links
 * not followed: import-adr names a folder so (see importAdrCommand).
 */
export function repositoryRoot(cwd: string, isRoot?: (dir: string) => boolean): string | undefined {
  // Resolved first: `/repo/` and `/repo/src/..` are the root `/repo`, not two other projects; and
  // its links followed, as the MCP server's process.cwd() has them, which the hook's payload `cwd`
  // may not: a project reached through a link is one project, not two.
  for (let dir = isRoot === undefined ? realFolder(cwd) : resolve(cwd); ; dir = dirname(dir)) {
    if ((isRoot ?? holdsGit)(dir)) return dir
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
  // As written, links not followed: `services/payments`, a link to `../legacy/payments`, is where a
  // decision scoped to services/payments holds (followed, the guard let its commands through). A
  // link to the root changes nothing here. Followed only where the cwd as written is in no
  // repository and the folder it points to is (a link from outside into one), or where that folder
  // is in another repository than the cwd as written (`~/payments`, in a home folder that is a
  // repository, a link into shop): the path is then of the repository the project is.
  const written = repositoryRoot(cwd, isRoot ?? holdsGit)
  const root = isRoot === undefined ? repositoryRoot(cwd) : undefined
  if (written !== undefined && (root === undefined || realFolder(written) === root)) return relative(written, resolve(cwd)).split(sep).join('/') || '.'
  return root === undefined ? cwd : relative(root, realFolder(cwd)).split(sep).join('/') || '.'
}

/**
 * Where the `.git` file of a worktree or a submodule points (`dir`), and for a worktree the common
 * directory that holds the repository's config (`common`); undefined for a `.git` folder, or none.
 */
function linkedGitDirectory(root: string): { dir: string; common: string | undefined } | undefined {
  try {
    const pointed = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(join(root, '.git'), 'utf8'))?.[1]
    if (pointed === undefined) return undefined
    const dir = resolve(root, pointed)
    try {
      return { dir, common: resolve(dir, readFileSync(join(dir, 'commondir'), 'utf8').trim()) }
    } catch {
      return { dir, common: undefined }
    }
  } catch {
    return undefined
  }
}

/**
 * The git directory of a repository root: `.git` itself, or where a worktree's or submodule's
 * `.git` file points; for a worktree, the common directory that holds the repository's config.
 */
function gitDirectory(root: string): string | undefined {
  const dotGit = join(root, '.git')
  try {
    if (statSync(dotGit).isDirectory()) return dotGit
  } catch {
    return undefined
  }
  const linked = linkedGitDirectory(root)
  return linked === undefined ? undefined : (linked.common ?? linked.dir)
}

/**
 * The project a repository root is of: the root itself, or, for a linked worktree (`git worktree
 * add`, `claude --worktree`), the main working tree of its repository, so that every worktree of
 * one repository is one project, as its checkouts of other branches are. The main working tree is
 * the folder of the common `.git`; a repository whose common directory is bare (`proj/.bare`,
 * `web.git`) has none, and is named by that directory. A submodule, whose `.git` file points to
 * no common directory, is its own project; so is a worktree whose git directory is gone.
 */
export function projectRoot(root: string): string {
  const common = linkedGitDirectory(root)?.common
  if (common === undefined) return root
  return basename(common) === '.git' ? dirname(common) : common
}

/**
 * The project the hook records for a folder (R-SES, `?project=`): the root of the repository it is
 * in, the main working tree's for a linked worktree (projectRoot); undefined outside a repository,
 * where the folder itself is the project.
 */
export function projectOfFolder(cwd: string): string | undefined {
  const root = repositoryRoot(cwd)
  return root === undefined ? undefined : projectRoot(root)
}

/**
 * The project the MCP server's tools and `why --point` take for the folder they run in: the one the
 * hook records for an event there, the repository's (projectOfFolder) or, outside a repository, the
 * folder itself, its links followed (as linkedFolder sends it), so that in a project kept out of git
 * Claude Code's MCP server reads and records where its hooks do. None in the root folder or the home
 * folder, where clients other than Claude Code start an MCP server, in no project of the user's.
 * The home folder is homeFolder's: a HOME set empty made every folder the server started in the
 * home folder (`''` resolves to it), so a project kept out of git had no project again.
 */
export function workingProjectOf(folder: string, home: string = homeFolder()): string | undefined {
  const project = projectOfFolder(folder)
  if (project !== undefined) return project
  const real = realFolder(folder)
  return real === parse(real).root || real === realFolder(home) ? undefined : real
}

/**
 * The project the hook records for a folder in no repository, when a symbolic link makes it another
 * folder than as written: the folder it leads to (realFolder), as process.cwd() has it there, so
 * that `/home/u/notes`, a link to `/data/notes`, is one project with it. Undefined where no link
 * is followed: the folder as written stays the project, as it was before links were followed.
 */
export function linkedFolder(cwd: string): string | undefined {
  const real = realFolder(cwd)
  return real === resolve(cwd) ? undefined : real
}

/** The `url` of `[remote "origin"]` in the text of a git config file; undefined when it has none. */
export function originUrlIn(config: string): string | undefined {
  let inOrigin = false
  for (const line of config.split(/\r?\n/)) {
    const section = /^\s*\[\s*([^\]\s]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line)
    if (section !== null) {
      inOrigin = section[1]?.toLowerCase() === 'remote' && section[2] === 'origin'
      continue
    }
    // A value is quoted, or ends where an unquoted `#` or `;` starts a comment, as git reads it.
    const value = inOrigin ? /^\s*url\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^#;]*?))\s*(?:[#;].*)?$/i.exec(line) : null
    const url = value === null ? undefined : (value[1] ?? value[2])
    if (url !== undefined && url !== '') return url
  }
  return undefined
}

/**
 * A remote URL as the name of the repository it points to, the same for every way of writing
 * it: `git@github.com:acme/web.git`, `https://user:token@GitHub.com/acme/web` and
 * `ssh://git@github.com:22/acme/web.git` are all `github.com/acme/web` (no scheme, user,
 * credentials, port, query, fragment or `.git`). A local path is made absolute from the repository root.
 */
export function repositoryName(url: string, root: string): string {
  const trimmed = url.trim().replace(/\/+$/, '').replace(/\.git$/i, '').replace(/\/+$/, '')
  const withScheme = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(trimmed)
  if (withScheme !== null && (withScheme[1] as string).toLowerCase() !== 'file') {
    const rest = withScheme[2] as string
    const slash = rest.search(/[/?#]/)
    const authority = slash < 0 ? rest : rest.slice(0, slash)
    // A query or a fragment is no part of the repository's name, and may hold a token (`?private_token=`).
    const path = slash < 0 ? '' : rest.slice(slash).replace(/[?#].*$/, '').replace(/\/+$/, '').replace(/\.git$/i, '')
    const host = (authority.slice(authority.lastIndexOf('@') + 1).replace(/:\d*$/, '')).toLowerCase()
    // `/~/web` is `web` in the home directory on the host, as `host:~/web` and `host:web` are.
    return `${host}${path.replace(/^\/~\//, '/').replace(/^\/~?/, '/')}`
  }
  if (withScheme !== null) return resolve(root, decodeURIComponent((withScheme[2] as string).replace(/^[^/]*/, '')))
  // scp-like `[user@]host:path`, which git reads as such only with no slash before the colon.
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/\/)(.*)$/.exec(trimmed)
  if (scp !== null && !/^[a-z]$/i.test(scp[1] as string)) return `${(scp[1] as string).toLowerCase()}/${(scp[2] as string).replace(/^~\//, '').replace(/^\/+/, '')}`
  return resolve(root, trimmed)
}

/**
 * The name of the repository `root` is the root of: its `origin` remote's, as repositoryName
 * writes it, when it has one (read from its config, no network); undefined otherwise. Every clone
 * and worktree of a repository has the same, whatever its directory is called.
 */
export function originName(root: string): string | undefined {
  const gitDir = gitDirectory(root)
  if (gitDir === undefined) return undefined
  let config: string
  try {
    config = readFileSync(join(gitDir, 'config'), 'utf8')
  } catch {
    return undefined
  }
  const url = originUrlIn(config)
  return url === undefined ? undefined : repositoryName(url, root)
}
