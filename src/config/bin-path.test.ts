import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { outsideEnv } from '../../test/support/processes'
import { BIN_PATH, commandLine, shellWord } from './bin-path'
import { packageVersion } from '../cli/package-version'

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

describe('the command line of this checkout', () => {
  it('names the bin that exists, and quotes for a POSIX shell only what needs it', () => {
    expect(existsSync(BIN_PATH)).toBe(true)
    expect(shellWord('s-1')).toBe('s-1')
    expect(shellWord("it's me; rm -rf /")).toBe(`'it'\\''s me; rm -rf /'`)
    expect(commandLine(['toggle', '--session', 'a b'])).toBe(`node ${shellWord(BIN_PATH)} toggle --session 'a b'`)
    // The shell gives the words back as they were.
    const words = ["it's", 'a b', '$HOME', '`x`', '"q"']
    const echoed = execFileSync('sh', ['-c', `printf '%s\\n' ${words.map(shellWord).join(' ')}`], { encoding: 'utf8' })
    expect(echoed.split('\n').slice(0, -1)).toEqual(words)
  })
})

describe('the command run from the sources (no bundle, or one older than a source)', () => {
  it.skipIf(process.platform === 'win32')('starts where the temporary folder cannot be written (a read-only /tmp), without tsx\'s cache', async () => {
    // A checkout with no bundle: this one's bin, sources and packages, no dist.
    const checkout = await mkdtemp(join(tmpdir(), 'dm-bin-'))
    dirs.push(checkout)
    const root = dirname(dirname(BIN_PATH))
    await mkdir(join(checkout, 'bin'))
    for (const name of await readdir(join(root, 'bin'))) await copyFile(join(root, 'bin', name), join(checkout, 'bin', name))
    await symlink(join(root, 'src'), join(checkout, 'src'))
    await symlink(join(root, 'node_modules'), join(checkout, 'node_modules'))
    // A temporary folder under a file: no account may make a folder there, root included.
    await writeFile(join(checkout, 'file'), '')
    const out = execFileSync(process.execPath, [join(checkout, 'bin', 'decision-memory.js'), 'version'], {
      encoding: 'utf8',
      env: { ...outsideEnv(), TMPDIR: join(checkout, 'file', 'tmp'), TSX_DISABLE_CACHE: '' },
    })
    expect(out).toBe(`${packageVersion()}\n`)
  })
})
