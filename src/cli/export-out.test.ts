import { lstat, mkdir, open, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { tempDir } from '../../test/support/temp-dir'

/**
 * A full disk, which a test cannot cause for real on every machine: the write of the export
 * fails halfway, as it does when the disk fills under it.
 */
const faults = vi.hoisted(() => ({ writeHalf: undefined as string | undefined, newFile: undefined as string | undefined, replace: undefined as string | undefined, writeBeside: undefined as string | undefined }))

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>()
  const errno = (code: string) => Object.assign(new Error(`${code}: simulated`), { code })
  const half = async (write: () => Promise<void>, cut: () => Promise<void>) => {
    if (faults.writeHalf === undefined) return write()
    await cut()
    throw errno(faults.writeHalf)
  }
  return {
    ...real,
    writeFile: (async (file: Parameters<typeof real.writeFile>[0], data: string, options?: Parameters<typeof real.writeFile>[2]) =>
      half(
        () => real.writeFile(file, data, options),
        () => real.writeFile(file, data.slice(0, data.length / 2), options),
      )) as typeof real.writeFile,
    // A file that can be written but not replaced: mounted on its own (EBUSY), or open in another program on Windows.
    rename: (async (from: string, to: string) => (faults.replace === undefined ? real.rename(from, to) : Promise.reject(errno(faults.replace)))) as typeof real.rename,
    open: async (...args: Parameters<typeof real.open>) => {
      // A folder this account may not add a file to (root, as tests may run, may add one anywhere).
      if (faults.newFile !== undefined && args[1] === 'wx') throw errno(faults.newFile)
      const handle = await real.open(...args)
      const writeFile = handle.writeFile.bind(handle)
      return Object.assign(handle, {
        writeFile: async (data: string) =>
          // Refused halfway into the file made beside the export (EPERM, EACCES of a file system that
          // takes the file, then not its bytes): the export there was to be left whole.
          faults.writeBeside !== undefined ? writeFile(data.slice(0, data.length / 2)).then(() => Promise.reject(errno(faults.writeBeside as string))) :
          half(
            () => writeFile(data),
            () => writeFile(data.slice(0, data.length / 2)),
          ),
      })
    },
  }
})

const { exportCommand } = await import('./export')
const { openStores } = await import('../open-store')

let stderr: string
beforeEach(() => {
  stderr = ''
  faults.writeHalf = undefined
  faults.newFile = undefined
  faults.replace = undefined
  faults.writeBeside = undefined
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true))
  // No service: the export is read from the store in --data.
  vi.stubEnv('DECISION_MEMORY_URL', 'http://127.0.0.1:9')
})
afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
})

/** A store of one session of dave's, and an empty folder beside it for the export. */
async function shop(): Promise<{ data: string; folder: string }> {
  const dir = tempDir('dm-export-out-')
  const data = join(dir, 'data')
  const { store } = await openStores(data)
  await store.startSession({ session_id: 's-1', user: 'dave', project: null, started_at: '2026-07-01T10:00:00.000Z', personalization: true })
  await store.close()
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
  const folder = join(dir, 'backups')
  await mkdir(folder)
  return { data, folder }
}

const YESTERDAY = '{"type":"export","format":1,"user":"dave"}\n{"type":"end","counts":{"observation":0,"session":1,"aggregate":0,"entry":0}}\n'

describe('decision-memory export --out a file there already', () => {
  it('leaves the export that was there whole, and nothing beside it, when the disk fills under the new one', async () => {
    const { data, folder } = await shop()
    const out = join(folder, 'dave.ndjson')
    await writeFile(out, YESTERDAY, { mode: 0o600 })
    faults.writeHalf = 'ENOSPC'
    expect(await exportCommand(['--user', 'dave', '--data', data, '--out', out])).toBe(1)
    expect(stderr).toBe(`decision-memory export: cannot write ${out}: the disk is full (ENOSPC)\n`)
    expect(await readFile(out, 'utf8')).toBe(YESTERDAY)
    expect(await readdir(folder)).toEqual(['dave.ndjson'])
  })

  it('replaces it whole with the new export, mode 0600, through a link the link kept', async () => {
    const { data, folder } = await shop()
    const real = join(folder, 'dave.ndjson')
    await writeFile(real, YESTERDAY, { mode: 0o644 })
    const link = join(folder, 'latest.ndjson')
    await symlink('dave.ndjson', link)
    expect(await exportCommand(['--user', 'dave', '--data', data, '--out', link])).toBe(0)
    expect(stderr).toBe('')
    const lines = (await readFile(real, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { type: string; counts?: { session: number } })
    expect(lines.map((line) => line.type)).toEqual(['export', 'session', 'end'])
    expect(lines.at(-1)?.counts?.session).toBe(1)
    expect((await stat(real)).mode & 0o777).toBe(0o600)
    expect((await lstat(link)).isSymbolicLink()).toBe(true)
    expect((await readdir(folder)).sort()).toEqual(['dave.ndjson', 'latest.ndjson'])
  })

  it('writes it in place, as before, in a folder this account may not add a file to', async () => {
    const { data, folder } = await shop()
    const out = join(folder, 'dave.ndjson')
    await writeFile(out, YESTERDAY, { mode: 0o644 })
    faults.newFile = 'EACCES'
    expect(await exportCommand(['--user', 'dave', '--data', data, '--out', out])).toBe(0)
    expect(stderr).toBe('')
    expect((await readFile(out, 'utf8')).trim().split('\n').map((line) => (JSON.parse(line) as { type: string }).type)).toEqual(['export', 'session', 'end'])
    expect((await stat(out)).mode & 0o777).toBe(0o600)
    // A new file there is refused as before: said with why.
    const other = join(folder, 'erin.ndjson')
    expect(await exportCommand(['--user', 'dave', '--data', data, '--out', other])).toBe(1)
    expect(stderr).toBe(`decision-memory export: cannot write ${other}: this account may not write there (EACCES)\n`)
  })

  it('makes the file a link leads to, not there yet, and keeps the link', async () => {
    const { data, folder } = await shop()
    // `latest.ndjson` names the day's backup before it is made.
    const link = join(folder, 'latest.ndjson')
    await symlink('2026-07-01.ndjson', link)
    expect(await exportCommand(['--user', 'dave', '--data', data, '--out', link])).toBe(0)
    expect(stderr).toBe('')
    expect((await lstat(link)).isSymbolicLink()).toBe(true)
    const made = join(folder, '2026-07-01.ndjson')
    expect((await readFile(made, 'utf8')).trim().split('\n').map((line) => (JSON.parse(line) as { type: string }).type)).toEqual(['export', 'session', 'end'])
    expect((await stat(made)).mode & 0o777).toBe(0o600)
    expect((await readdir(folder)).sort()).toEqual(['2026-07-01.ndjson', 'latest.ndjson'])
  })

  it('makes the file a link not there yet leads to from the folder the link is really in', async () => {
    const { data, folder } = await shop()
    // `current` → `2026/07`, holding `latest.ndjson` → `../latest.ndjson`: the system reads `..` from
    // `2026/07`, not from `current`'s folder, and the file to make is `2026/latest.ndjson`.
    await mkdir(join(folder, '2026', '07'), { recursive: true })
    await symlink(join('2026', '07'), join(folder, 'current'))
    await symlink(join('..', 'latest.ndjson'), join(folder, '2026', '07', 'latest.ndjson'))
    expect(await exportCommand(['--user', 'dave', '--data', data, '--out', join(folder, 'current', 'latest.ndjson')])).toBe(0)
    expect(stderr).toBe('')
    const made = join(folder, '2026', 'latest.ndjson')
    expect((await readFile(made, 'utf8')).trim().split('\n').map((line) => (JSON.parse(line) as { type: string }).type)).toEqual(['export', 'session', 'end'])
    expect((await readdir(folder)).sort()).toEqual(['2026', 'current'])
  })

  it('names the folder a link leads into when that folder is not there, not the link\'s own', async () => {
    const { data, folder } = await shop()
    const link = join(folder, 'latest.ndjson')
    await symlink(join('2026', 'latest.ndjson'), link)
    expect(await exportCommand(['--user', 'dave', '--data', data, '--out', link])).toBe(1)
    expect(stderr).toBe(`decision-memory export: cannot write ${link}: there is no folder ${join(folder, '2026')} (ENOENT)\n`)
    expect(await readdir(folder)).toEqual(['latest.ndjson'])
  })

  it.runIf(process.platform === 'linux')('writes into a file the command was handed open (`--out /dev/stdout > FILE`), not a new one in its place', async () => {
    const { data, folder } = await shop()
    const out = join(folder, 'dave.ndjson')
    await writeFile(out, YESTERDAY, { mode: 0o600 })
    const before = (await stat(out)).ino
    // What `/dev/stdout` leads to when the shell sent stdout to FILE: a descriptor of this process's.
    const handle = await open(out, 'a')
    try {
      expect(await exportCommand(['--user', 'dave', '--data', data, '--out', `/proc/self/fd/${handle.fd}`])).toBe(0)
    } finally {
      await handle.close()
    }
    expect(stderr).toBe('')
    // The file the shell holds open: what it writes after the command lands beside the export.
    expect((await stat(out)).ino).toBe(before)
    // Opened to append (`>> FILE`), as the shell did: what it held is kept, the export after it.
    const text = await readFile(out, 'utf8')
    expect(text.startsWith(YESTERDAY)).toBe(true)
    expect(text.slice(YESTERDAY.length).trim().split('\n').map((line) => (JSON.parse(line) as { type: string }).type)).toEqual(['export', 'session', 'end'])
    expect(await readdir(folder)).toEqual(['dave.ndjson'])
  })

  it.runIf(process.platform === 'linux')('writes where the descriptor it was handed stands, between what the shell writes before and after it', async () => {
    const { data, folder } = await shop()
    const out = join(folder, 'dave.ndjson')
    // `{ echo first; decision-memory export --out /dev/stdout; echo last; } > FILE`: opened again by
    // its name, the file was cut to nothing, `first` lost and `last` written over the export's start.
    const handle = await open(out, 'w')
    try {
      await handle.write('first\n')
      expect(await exportCommand(['--user', 'dave', '--data', data, '--out', `/proc/self/fd/${handle.fd}`])).toBe(0)
      await handle.write('last\n')
    } finally {
      await handle.close()
    }
    expect(stderr).toBe('')
    const lines = (await readFile(out, 'utf8')).trim().split('\n')
    expect(lines.at(0)).toBe('first')
    expect(lines.at(-1)).toBe('last')
    expect(lines.slice(1, -1).map((line) => (JSON.parse(line) as { type: string }).type)).toEqual(['export', 'session', 'end'])
    expect((await stat(out)).mode & 0o777).toBe(0o600)
  })

  it('leaves the export there whole when writing beside it is refused once the file was made, not written in place', async () => {
    const { data, folder } = await shop()
    const out = join(folder, 'dave.ndjson')
    await writeFile(out, YESTERDAY, { mode: 0o600 })
    faults.writeBeside = 'EPERM'
    expect(await exportCommand(['--user', 'dave', '--data', data, '--out', out])).toBe(1)
    expect(stderr).toBe(`decision-memory export: cannot write ${out}: this account may not write there (EPERM)\n`)
    expect(await readFile(out, 'utf8')).toBe(YESTERDAY)
    expect(await readdir(folder)).toEqual(['dave.ndjson'])
  })

  it('writes it in place, as before, where the file there cannot be replaced (a container\'s bind mount of it: EBUSY)', async () => {
    const { data, folder } = await shop()
    const out = join(folder, 'dave.ndjson')
    await writeFile(out, YESTERDAY, { mode: 0o644 })
    faults.replace = 'EBUSY'
    expect(await exportCommand(['--user', 'dave', '--data', data, '--out', out])).toBe(0)
    expect(stderr).toBe('')
    expect((await readFile(out, 'utf8')).trim().split('\n').map((line) => (JSON.parse(line) as { type: string }).type)).toEqual(['export', 'session', 'end'])
    expect((await stat(out)).mode & 0o777).toBe(0o600)
    expect(await readdir(folder)).toEqual(['dave.ndjson'])
  })
})
