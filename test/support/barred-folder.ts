import { createRequire } from 'node:module'
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path'

/** node:fs itself, not the test file's mock of it (vi.mock does not reach require): links are followed with it. */
const realFs = createRequire(import.meta.url)('node:fs') as typeof import('node:fs')

/**
 * A folder this account may not enter (mode 0700, another account's), which a test run as root
 * cannot make for real: the calls of node:fs and node:fs/promises on a path below `faults.barred`
 * fail as the kernel fails them for such a folder (stat, readdir, mkdir, writeFile: EACCES;
 * existsSync: false), and those on any other path are the real ones; and a file of another account's,
 * mode 0600, in a folder this one may enter (`faults.notMine`), which writeFile is refused (EACCES);
 * and a folder this account may enter but not write (`faults.unwritable`, mode 0555), in which mkdir is refused (EACCES).
 * Given to `vi.mock` by a test file, with its own `faults` from `vi.hoisted`.
 */
export type BarredFaults = { barred: string | undefined; notMine?: string | undefined; unwritable?: string | undefined }

const below = (faults: BarredFaults, path: unknown): boolean =>
  faults.barred !== undefined && typeof path === 'string' && path.startsWith(faults.barred + sep)

/**
 * The path the kernel reaches for `path`, its symbolic links followed as far as they lead (a link
 * to a store below the barred folder is refused as the store's own path is), and a `..` after a
 * link taken from where the link leads, not from the folder it is in. A link whose target is not
 * there yet is followed too, as the kernel follows it.
 */
function followed(path: string): string {
  const steps = (p: string) => p.split(sep).filter((name) => name !== '' && name !== '.')
  let rest = steps(isAbsolute(path) ? path : `${process.cwd()}${sep}${path}`)
  let at = resolve(sep)
  for (let links = 0; rest.length > 0; ) {
    const [name, ...after] = rest as [string, ...string[]]
    rest = after
    if (name === '..') {
      at = dirname(at)
      continue
    }
    const next = join(at, name)
    let link: string | undefined
    try {
      link = realFs.lstatSync(next).isSymbolicLink() ? realFs.readlinkSync(next) : undefined
    } catch {
      return join(next, ...rest)
    }
    if (link === undefined || ++links > 40) {
      at = next
      continue
    }
    if (isAbsolute(link)) at = resolve(sep)
    rest = [...steps(link), ...rest]
  }
  return at
}

/** Below the barred folder as the kernel reaches `path`: its links followed, the last one too or not (lstat). */
const reached = (faults: BarredFaults, path: unknown, last = true): boolean =>
  below(faults, path) || (faults.barred !== undefined && typeof path === 'string' && below(faults, last ? followed(path) : join(followed(dirname(path)), basename(path))))

const denied = (call: string, path: string) => Object.assign(new Error(`EACCES: permission denied, ${call} '${path}'`), { code: 'EACCES', errno: -13, syscall: call, path })

/** node:fs, its statSync, lstatSync, readdirSync and existsSync refused below the barred folder, through a symbolic link too. */
export function barredFs<M extends typeof import('node:fs')>(real: M, faults: BarredFaults): M {
  return {
    ...real,
    statSync: ((path: string, ...rest: never[]) => {
      if (reached(faults, path)) throw denied('stat', path)
      return real.statSync(path, ...rest)
    }) as M['statSync'],
    lstatSync: ((path: string, ...rest: never[]) => {
      if (reached(faults, path, false)) throw denied('lstat', path)
      return real.lstatSync(path, ...rest)
    }) as M['lstatSync'],
    readdirSync: ((path: string, ...rest: never[]) => {
      if (reached(faults, path)) throw denied('scandir', path)
      return real.readdirSync(path, ...rest)
    }) as M['readdirSync'],
    existsSync: ((path: string) => !reached(faults, path) && real.existsSync(path)) as M['existsSync'],
  }
}

/** node:fs/promises, its stat, mkdir and writeFile refused below the barred folder (stat and mkdir through a symbolic link too), writeFile of `notMine`, mkdir in `unwritable`. */
export function barredFsPromises<M extends typeof import('node:fs/promises')>(real: M, faults: BarredFaults): M {
  return {
    ...real,
    stat: (async (path: string, ...rest: never[]) => {
      if (reached(faults, path)) throw denied('stat', path)
      return real.stat(path, ...rest)
    }) as M['stat'],
    mkdir: (async (path: string, ...rest: never[]) => {
      if (reached(faults, path) || (faults.unwritable !== undefined && typeof path === 'string' && dirname(path) === faults.unwritable)) throw denied('mkdir', path)
      return real.mkdir(path, ...rest)
    }) as M['mkdir'],
    writeFile: (async (...args: Parameters<typeof real.writeFile>) => {
      const [path, data, options] = args
      if (typeof path === 'string' && (below(faults, path) || path === faults.notMine)) throw denied('open', path)
      return real.writeFile(path, data, options)
    }) as M['writeFile'],
  }
}
