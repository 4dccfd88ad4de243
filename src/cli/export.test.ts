import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { openStores } from '../open-store'
import { cannotWrite, exportCommand } from './export'

describe('cannotWrite', () => {
  it('says why --out could not be written in words, the error code kept', () => {
    expect(cannotWrite('/tmp/out', 'EISDIR', 'dave')).toBe('cannot write /tmp/out: a folder: give --out a file in it, such as /tmp/out/dave.ndjson (EISDIR)')
    // A user id that is no file name: a file in the folder all the same.
    expect(cannotWrite('/tmp/out', 'EISDIR', 'acme/dave')).toBe('cannot write /tmp/out: a folder: give --out a file in it, such as /tmp/out/acme_dave.ndjson (EISDIR)')
    expect(cannotWrite('/tmp/none/', 'EISDIR', 'dave', false)).toBe(
      "cannot write /tmp/none/: a folder's path, and there is no such folder: give --out the path of a file, in a folder that exists (EISDIR)",
    )
    expect(cannotWrite('/tmp/none/dave.ndjson', 'ENOENT', 'dave')).toBe('cannot write /tmp/none/dave.ndjson: there is no folder /tmp/none (ENOENT)')
    expect(cannotWrite('/etc/x', 'EACCES', 'dave')).toBe('cannot write /etc/x: this account may not write there (EACCES)')
    expect(cannotWrite('/x', 'EMFILE', 'dave')).toBe('cannot write /x: EMFILE')
  })
})

describe('decision-memory export --out a folder', () => {
  const dirs: string[] = []
  afterEach(async () => {
    vi.restoreAllMocks()
    vi.unstubAllEnvs()
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
  })

  it('is refused before the export is read, naming a file to give, and nothing is written in the folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-export-folder-'))
    dirs.push(dir)
    const { store } = await openStores(join(dir, 'data'))
    await store.close()
    const out = join(dir, 'out')
    await mkdir(out)
    let stderr = ''
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true))
    vi.stubEnv('DECISION_MEMORY_URL', 'http://127.0.0.1:9')
    const code = await exportCommand(['--user', 'dave', '--data', join(dir, 'data'), '--out', out])
    expect(code).toBe(1)
    expect(stderr).toBe(`decision-memory export: cannot write ${out}: a folder: give --out a file in it, such as ${join(out, 'dave.ndjson')} (EISDIR)\n`)
    expect(await readdir(out)).toEqual([])
  })

  it('refuses a path ending in / where there is no folder, saying there is none, and makes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-export-folder-'))
    dirs.push(dir)
    const { store } = await openStores(join(dir, 'data'))
    await store.close()
    let stderr = ''
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true))
    vi.stubEnv('DECISION_MEMORY_URL', 'http://127.0.0.1:9')
    const code = await exportCommand(['--user', 'dave', '--data', join(dir, 'data'), '--out', `${dir}/none/`])
    expect(code).toBe(1)
    expect(stderr).toBe(`decision-memory export: cannot write ${dir}/none/: a folder's path, and there is no such folder: give --out the path of a file, in a folder that exists (EISDIR)\n`)
    expect((await readdir(dir)).sort()).toEqual(['data'])
  })
})
