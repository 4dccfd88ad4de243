import { spawnSync } from 'node:child_process'
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../test/support/temp-dir'
import { ReplaceError, replaceFile } from './replace-file'

describe('replaceFile', () => {
  it('replaces a file whole, with the mode given, and leaves nothing beside it', async () => {
    const dir = tempDir('dm-replace-')
    const target = join(dir, 'settings.json')
    await writeFile(target, 'old', { mode: 0o644 })
    await replaceFile(target, 'new', 0o600)
    expect(await readFile(target, 'utf8')).toBe('new')
    expect((await stat(target)).mode & 0o777).toBe(0o600)
    expect(await readdir(dir)).toEqual(['settings.json'])
  })

  it('gives the new file the mode given exactly, not as the umask masks it (settings shared with a group)', async () => {
    const dir = tempDir('dm-replace-')
    const target = join(dir, 'settings.json')
    await writeFile(target, 'old')
    // 0666 is cut by any umask but 0 (022 makes 0644).
    await replaceFile(target, 'new', 0o666)
    expect((await stat(target)).mode & 0o777).toBe(0o666)
  })

  it('never renames over what is no file (a named pipe, a device), leaving it as it was and nothing beside it', async () => {
    const dir = tempDir('dm-replace-')
    const fifo = join(dir, 'settings.json')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    const refused = await replaceFile(fifo, 'text').catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ReplaceError)
    expect(refused).toMatchObject({ step: 'beside', code: 'EINVAL' })
    expect((await stat(fifo)).isFIFO()).toBe(true)
    expect(await readdir(dir)).toEqual(['settings.json'])
  })

  it('says the step it failed at, with the code, and leaves the file as it was and nothing beside it', async () => {
    const dir = tempDir('dm-replace-')
    const missing = join(dir, 'no-such-folder', 'export.ndjson')
    const beside = await replaceFile(missing, 'text').catch((error: unknown) => error)
    expect(beside).toBeInstanceOf(ReplaceError)
    expect(beside).toMatchObject({ step: 'beside', code: 'ENOENT' })
    // A folder where the file would be: written whole beside it, then not renamed over it.
    const folder = join(dir, 'export.ndjson')
    await mkdir(folder)
    const rename = await replaceFile(folder, 'text').catch((error: unknown) => error)
    expect(rename).toMatchObject({ step: 'rename', code: 'EISDIR' })
    expect(await readdir(dir)).toEqual(['export.ndjson'])
    expect(await readdir(folder)).toEqual([])
  })
})
