import { dirname, sep } from 'node:path'

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

const denied = (call: string, path: string) => Object.assign(new Error(`EACCES: permission denied, ${call} '${path}'`), { code: 'EACCES', errno: -13, syscall: call, path })

/** node:fs, its statSync, readdirSync and existsSync refused below the barred folder. */
export function barredFs<M extends typeof import('node:fs')>(real: M, faults: BarredFaults): M {
  return {
    ...real,
    statSync: ((path: string, ...rest: never[]) => {
      if (below(faults, path)) throw denied('stat', path)
      return real.statSync(path, ...rest)
    }) as M['statSync'],
    readdirSync: ((path: string, ...rest: never[]) => {
      if (below(faults, path)) throw denied('scandir', path)
      return real.readdirSync(path, ...rest)
    }) as M['readdirSync'],
    existsSync: ((path: string) => !below(faults, path) && real.existsSync(path)) as M['existsSync'],
  }
}

/** node:fs/promises, its stat, mkdir and writeFile refused below the barred folder, writeFile of `notMine`, mkdir in `unwritable`. */
export function barredFsPromises<M extends typeof import('node:fs/promises')>(real: M, faults: BarredFaults): M {
  return {
    ...real,
    stat: (async (path: string, ...rest: never[]) => {
      if (below(faults, path)) throw denied('stat', path)
      return real.stat(path, ...rest)
    }) as M['stat'],
    mkdir: (async (path: string, ...rest: never[]) => {
      if (below(faults, path) || (faults.unwritable !== undefined && typeof path === 'string' && dirname(path) === faults.unwritable)) throw denied('mkdir', path)
      return real.mkdir(path, ...rest)
    }) as M['mkdir'],
    writeFile: (async (...args: Parameters<typeof real.writeFile>) => {
      const [path, data, options] = args
      if (typeof path === 'string' && (below(faults, path) || path === faults.notMine)) throw denied('open', path)
      return real.writeFile(path, data, options)
    }) as M['writeFile'],
  }
}
