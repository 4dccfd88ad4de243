import { mkdir, readdir, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { tempDir } from '../test/support/temp-dir'

// Run as root, the tests cannot meet a folder they may not enter, nor a file they may not write:
// the calls on them fail as the kernel fails them for another account (test/support/barred-folder.ts),
// and the account may be one with no name (a uid without a passwd entry) or with neither a name nor a uid.
const faults = vi.hoisted(() => ({ barred: undefined as string | undefined, notMine: undefined as string | undefined, unwritable: undefined as string | undefined, nameless: false, username: undefined as string | undefined }))

vi.mock('node:fs', async (importOriginal) => (await import('../test/support/barred-folder')).barredFs(await importOriginal(), faults))
vi.mock('node:fs/promises', async (importOriginal) => (await import('../test/support/barred-folder')).barredFsPromises(await importOriginal(), faults))
vi.mock('node:os', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:os')>()
  return {
    ...real,
    userInfo: ((...args: Parameters<typeof real.userInfo>) => {
      if (faults.nameless) throw Object.assign(new Error('uv_os_get_passwd returned ENOENT (no such file or directory)'), { code: 'ERR_SYSTEM_ERROR' })
      const info = real.userInfo(...args)
      return faults.username === undefined ? info : { ...info, username: faults.username }
    }) as typeof real.userInfo,
  }
})

const { userInfo } = await import('node:os')
const { barredFolderAbove, markServedBy, openStores, SERVICE_FOLDER_FILE, storePlaceProblem, StoreOpenError } = await import('./open-store')

afterEach(() => {
  faults.barred = undefined
  faults.notMine = undefined
  faults.unwritable = undefined
  faults.nameless = false
  faults.username = undefined
  vi.restoreAllMocks()
})

/** A folder of another account's, mode 0700, and a path for a store below it. */
function barredFolder(): { folder: string; dir: string } {
  const folder = join(tempDir('dm-barred-'), 'root')
  faults.barred = folder
  return { folder, dir: join(folder, 'db') }
}

const cannotReach = (dir: string, folder: string, account = userInfo().username) =>
  `cannot reach the store in ${dir}: this account (${account}) may not enter ${folder}, a folder above it (EACCES): ` +
  'run the command as an account that may enter it, or keep the store in a folder this account may enter'

describe('a store under a folder this account may not enter', () => {
  it('is said as that by openStores (serve, import-adr), not as no permission to make a folder that may be there', async () => {
    const { folder, dir } = barredFolder()
    await mkdir(folder)
    await expect(openStores(dir)).rejects.toThrow(new StoreOpenError(cannotReach(dir, folder)))
  })

  it('names the folder that may not be entered, several levels above the store too', async () => {
    const { folder } = barredFolder()
    await mkdir(folder)
    const dir = join(folder, 'a', 'b', 'db')
    expect(barredFolderAbove(dir)).toBe(folder)
    await expect(openStores(dir)).rejects.toThrow(new StoreOpenError(cannotReach(dir, folder)))
  })

  it('names the folder a symbolic link to the store leads under, not the folder the link is in, which this account may enter', async () => {
    // `--data ~/link` to /root/db said `may not enter ~`, the link's own folder: false, and no
    // help to the person who then looks at the permissions of their home.
    const { folder, dir } = barredFolder()
    await mkdir(folder)
    const link = join(tempDir('dm-barred-link-'), 'db')
    await symlink(dir, link)
    expect(barredFolderAbove(link)).toBe(folder)
    const through = (account = userInfo().username) =>
      `cannot reach the store in ${link}: this account (${account}) may not enter ${folder}, a folder above where a symbolic link on its way leads (EACCES): ` +
      'run the command as an account that may enter it, or keep the store in a folder this account may enter'
    expect(storePlaceProblem(link)).toBe(through())
    await expect(openStores(link)).rejects.toThrow(new StoreOpenError(through()))
    // A link to a link, and one in a folder on the way, are followed as far as they lead.
    const twice = join(tempDir('dm-barred-link-'), 'again')
    await symlink(link, twice)
    expect(barredFolderAbove(twice)).toBe(folder)
    const above = tempDir('dm-barred-link-')
    await symlink(folder, join(above, 'up'))
    expect(barredFolderAbove(join(above, 'up', 'a', 'db'))).toBe(folder)
  })

  it('reads a `..` after a symbolic link from where the link leads, as the kernel does, not from the folder the link is in', async () => {
    // A link to `elsewhere/../root/db`, `elsewhere` a link to a folder beside `root`: the kernel
    // reaches root/db. Read as written, `..` undid `elsewhere` and led to a folder not there, and
    // the store was said to be none (`there is no store in …`) rather than out of reach.
    const { folder } = barredFolder()
    await mkdir(folder)
    const base = join(folder, '..')
    await mkdir(join(base, 'open'))
    const links = join(base, 'links')
    await mkdir(links)
    await symlink('../open', join(links, 'elsewhere'))
    await symlink('elsewhere/../root/db', join(links, 'db'))
    const link = join(links, 'db')
    expect(barredFolderAbove(link)).toBe(folder)
    await expect(openStores(link)).rejects.toThrow(
      new StoreOpenError(
        `cannot reach the store in ${link}: this account (${userInfo().username}) may not enter ${folder}, a folder above where a symbolic link on its way leads (EACCES): ` +
          'run the command as an account that may enter it, or keep the store in a folder this account may enter',
      ),
    )
  })

  it('is said by storePlaceProblem (the MCP server at its start)', async () => {
    const { folder, dir } = barredFolder()
    await mkdir(folder)
    expect(storePlaceProblem(dir)).toBe(cannotReach(dir, folder))
  })

  it('finds no such folder above a store this account may reach, nor above one not there yet', async () => {
    const dir = tempDir('dm-barred-')
    expect(barredFolderAbove(dir)).toBeUndefined()
    expect(barredFolderAbove(join(dir, 'not', 'there'))).toBeUndefined()
  })

  it('still says a folder this account may enter but not write (systemd\'s User= given a folder of /var/lib) as no permission to make it', async () => {
    const parent = tempDir('dm-barred-')
    faults.unwritable = join(parent, 'lib')
    await mkdir(faults.unwritable)
    const dir = join(faults.unwritable, 'decision-memory')
    await expect(openStores(dir)).rejects.toThrow(
      new StoreOpenError(`cannot make the store in ${dir}: no permission to make ${dir} (EACCES): make it beforehand, owned by the account the command runs as`),
    )
  })
})

describe('a store this account may not write, said with the account it runs as', () => {
  it('says a file of the store owned by another account (a chown that missed SERVICE_FOLDER) as a store this account may not write', async () => {
    const dir = tempDir('dm-not-mine-')
    faults.notMine = join(dir, SERVICE_FOLDER_FILE)
    const account = userInfo().username
    await expect(markServedBy(dir, 'abc')).rejects.toThrow(
      new StoreOpenError(
        `cannot open the store in ${dir}: this account (${account}) may not write ${join(dir, SERVICE_FOLDER_FILE)} (EACCES): ` +
          `a store made by another account, such as a first run as root, must be given to this one: chown -R -- ${account} ${dir}`,
      ),
    )
    expect(await readdir(dir)).toEqual([])
  })

  it('ends the chown\'s options before an account whose name starts with -, which chown would read as an option', async () => {
    // `chown -R -alice DIR`: GNU chown reads -a as an option it does not have, and the account is not given the store.
    faults.username = '-alice'
    const dir = tempDir('dm-not-mine-')
    faults.notMine = join(dir, SERVICE_FOLDER_FILE)
    await expect(markServedBy(dir, 'abc')).rejects.toThrow(`: this account (-alice) may not write ${join(dir, SERVICE_FOLDER_FILE)} (EACCES): `)
    await expect(markServedBy(dir, 'abc')).rejects.toThrow(new RegExp(`must be given to this one: chown -R -- -alice ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`))
  })

  it('names the account by its uid where it has no name (a container\'s uid without a passwd entry)', async () => {
    faults.nameless = true
    vi.spyOn(process, 'getuid').mockReturnValue(1234)
    const { folder, dir } = barredFolder()
    await mkdir(folder)
    await expect(openStores(dir)).rejects.toThrow(new StoreOpenError(cannotReach(dir, folder, '1234')))
  })

  it('reads sensibly where the account has neither a name nor a uid (Windows), not "this account (this account)"', async () => {
    faults.nameless = true
    vi.spyOn(process, 'getuid').mockReturnValue(undefined as never)
    const { folder, dir } = barredFolder()
    await mkdir(folder)
    await expect(openStores(dir)).rejects.toThrow(
      new StoreOpenError(
        `cannot reach the store in ${dir}: this account may not enter ${folder}, a folder above it (EACCES): ` +
          'run the command as an account that may enter it, or keep the store in a folder this account may enter',
      ),
    )
    const mine = tempDir('dm-not-mine-')
    faults.notMine = join(mine, SERVICE_FOLDER_FILE)
    await expect(markServedBy(mine, 'abc')).rejects.toThrow(
      new StoreOpenError(
        `cannot open the store in ${mine}: this account may not write ${join(mine, SERVICE_FOLDER_FILE)} (EACCES): ` +
          'a store made by another account, such as a first run as root, must be given to this one: make this account the owner of the folder and of every file in it',
      ),
    )
  })
})
