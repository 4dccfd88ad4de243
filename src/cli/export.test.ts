import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { openStores } from '../open-store'
import { cannotWrite, exportCommand } from './export'

describe('cannotWrite', () => {
  it('says why --out could not be written in words, the error code kept', () => {
    expect(cannotWrite('/tmp/out', 'EISDIR', 'dave')).toBe('cannot write /tmp/out: a folder: give --out a file, such as /tmp/out/dave.ndjson (EISDIR)')
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
    expect(stderr).toBe(`decision-memory export: cannot write ${out}: a folder: give --out a file, such as ${join(out, 'dave.ndjson')} (EISDIR)\n`)
    expect(await readdir(out)).toEqual([])
  })
})
