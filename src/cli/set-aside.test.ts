import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { captured } from '../../test/support/captured'
import { tempDir } from '../../test/support/temp-dir'
import { main } from './main'
import { HOOK_HELP } from './hook'
import { setAsideSentences } from './set-aside'

afterEach(() => {
  vi.restoreAllMocks()
})

/** A capture the hook set aside, its user in doubt, its flags having named `named`. */
function aside(id: number, named: string[]): string {
  return JSON.stringify({ at: `2026-12-01T10:00:0${id}.000Z`, user: 'default', payload: { hook_event_name: 'SessionStart', session_id: `s${id}` }, user_in_doubt: named }) + '\n'
}

describe('decision-memory hook --record-set-aside, what it prints', () => {
  it('says what it moved, and each kind of line it left and why', () => {
    const spool = '/home/dev/.decision-memory/spool.ndjson'
    expect(setAsideSentences({ moved: 2, namingOthers: [{ names: ['bob'], count: 1 }, { names: ['carol', 'dave'], count: 2 }], others: 3 }, 'alice', spool)).toBe(
      `moved 2 captures set aside for a user in doubt from ${spool}.rejected to ${spool} as user "alice": the next hook call delivers them\n` +
        `left 1 capture set aside for a user in doubt whose flags named "bob", not "alice": record it with --user "bob" if it is that user's\n` +
        `left 2 captures set aside for a user in doubt whose flags named "carol" and "dave", not "alice": record them with the --user of the one whose choices they are\n` +
        `left 3 other lines in ${spool}.rejected, for a person to read: events the service refused, lines that are no event\n`,
    )
    expect(setAsideSentences({ moved: 1, namingOthers: [], others: 1 }, 'alice', spool)).toBe(
      `moved 1 capture set aside for a user in doubt from ${spool}.rejected to ${spool} as user "alice": the next hook call delivers it\n` +
        `left 1 other line in ${spool}.rejected, for a person to read: events the service refused, lines that are no event\n`,
    )
    expect(setAsideSentences({ moved: 0, namingOthers: [], others: 0 }, 'alice', spool)).toBe(`no capture set aside for a user in doubt in ${spool}.rejected to record as user "alice"\n`)
  })

  it('escapes what a terminal would run in a name or a path', () => {
    expect(setAsideSentences({ moved: 1, namingOthers: [], others: 0 }, 'al\u202eice', '/tmp/s')).toContain('as user "al\\u202eice"')
  })
})

describe('decision-memory hook --record-set-aside', () => {
  it('moves the captures set aside for a user in doubt into the spool as USER\'s, reading no payload, exit 0', async () => {
    const spool = join(tempDir('dm-set-aside-'), 'spool.ndjson')
    await writeFile(`${spool}.rejected`, aside(1, ['alice']) + aside(2, ['bob']))
    const { code, stdout, stderr } = await captured(() => main(['hook', '--record-set-aside', '--user', 'alice', '--spool', spool]))
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    expect(stdout.split('\n')[0]).toBe(`moved 1 capture set aside for a user in doubt from ${spool}.rejected to ${spool} as user "alice": the next hook call delivers it`)
    expect(JSON.parse(await readFile(spool, 'utf8'))).toMatchObject({ user: 'alice', payload: { session_id: 's1' } })
    expect(await readFile(`${spool}.rejected`, 'utf8')).toBe(aside(2, ['bob']))
  })

  it('refuses, exit 2 with the hook\'s help and nothing moved, a call with no --user, a name the service refuses, a --budget or a folder for --spool', async () => {
    const dir = tempDir('dm-set-aside-')
    const spool = join(dir, 'spool.ndjson')
    await writeFile(`${spool}.rejected`, aside(1, []))
    await mkdir(join(dir, 'folder'))
    const refusals: Array<[string[], string]> = [
      [[], '--record-set-aside needs --user USER: whose choices the captures set aside are'],
      [['--user', 'alice '], '--user: no spaces at its ends: "alice " would be another name than "alice"'],
      [['--user', 'alice', '--budget', '3000'], '--budget is of no use with --record-set-aside, which sends nothing: the next hook call delivers what it moves'],
      [['--user', 'alice', 'bob'], 'Unexpected argument'],
    ]
    for (const [flags, said] of refusals) {
      const { code, stdout, stderr } = await captured(() => main(['hook', '--record-set-aside', '--spool', spool, ...flags]))
      expect({ code, stdout }, flags.join(' ')).toEqual({ code: 2, stdout: '' })
      expect(stderr, flags.join(' ')).toContain(said)
      expect(stderr, flags.join(' ')).toContain(HOOK_HELP)
    }
    const folder = await captured(() => main(['hook', '--record-set-aside', '--user', 'alice', '--spool', join(dir, 'folder')]))
    expect(folder.code).toBe(2)
    expect(folder.stderr.split('\n')[0]).toBe(
      `decision-memory hook: --spool is ${join(dir, 'folder')}, a folder: give the path of the spool file in it (${join(dir, 'folder', 'spool.ndjson')}, as the hook's --spool or DECISION_MEMORY_SPOOL names it); nothing was moved`,
    )
    expect(existsSync(spool)).toBe(false)
    expect(await readFile(`${spool}.rejected`, 'utf8')).toBe(aside(1, []))
  })

  it('says a spool it cannot write to, exit 1, what was not moved left set aside', async () => {
    const dir = tempDir('dm-set-aside-')
    await writeFile(join(dir, 'null.rejected'), aside(1, []))
    await symlink('/dev/null', join(dir, 'null'))
    const { code, stdout, stderr } = await captured(() => main(['hook', '--record-set-aside', '--user', 'alice', '--spool', join(dir, 'null')]))
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' })
    expect(stderr).toBe(
      `decision-memory hook: the spool ${join(dir, 'null')} is not a file: give DECISION_MEMORY_SPOOL or --spool the path of a file; what was not moved stays set aside in ${join(dir, 'null')}.rejected\n`,
    )
  })

  it('names no .rejected file where there is none, saying nothing was moved', async () => {
    // A named pipe in a folder of its own, as --spool /dev/null is a device: no file, and nothing set aside beside it.
    const fifo = join(tempDir('dm-set-aside-'), 'pipe')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    const { code, stdout, stderr } = await captured(() => main(['hook', '--record-set-aside', '--user', 'alice', '--spool', fifo]))
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' })
    // A version before this said `what was not moved stays set aside in …/pipe.rejected`, a file not there (`/dev/null.rejected`).
    expect(stderr).toBe(`decision-memory hook: the spool ${fifo} is not a file: give DECISION_MEMORY_SPOOL or --spool the path of a file; nothing was moved\n`)
    expect(existsSync(`${fifo}.rejected`)).toBe(false)
  })
})
