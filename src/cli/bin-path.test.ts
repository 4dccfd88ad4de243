import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BIN_PATH, commandLine, shellWord } from './bin-path'

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
