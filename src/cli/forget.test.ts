import { readdirSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { captured } from '../../test/support/captured'
import { forgetCommand, forgetSentence, heldSetAsideSentence, unnamedSetAsideSentence } from './forget'
import { appendToSpool } from './spool'
import { main } from './main'
import { openStores } from '../open-store'
import { UsageError } from './options'
import { closedPort } from '../../test/support/processes'
import { tempDir } from '../../test/support/temp-dir'

afterEach(() => {
  vi.restoreAllMocks()
})

/** A store with nothing in it, closed: an empty folder is none (forget makes no store). */
async function emptyStore(): Promise<string> {
  const data = tempDir('dm-forget-store-')
  await (await openStores(data)).store.close()
  return data
}

describe('decision-memory forget, the sentence it prints', () => {
  it('counts one entry and one spooled event in the singular, more in the plural', () => {
    expect(forgetSentence({ user: 'bob', deleted: 1, spooled: 1 })).toBe('forgot bob: 1 entry deleted, 1 spooled hook event removed\n')
    expect(forgetSentence({ user: 'bob', deleted: 5, spooled: 2 })).toBe('forgot bob: 5 entries deleted, 2 spooled hook events removed\n')
  })

  it('quotes a user spaced at its ends, as one stored before writes refused it may be, and escapes bidirectional controls', () => {
    expect(forgetSentence({ user: ' bob ', deleted: 2, spooled: 0 })).toBe('forgot " bob ": 2 entries deleted\n')
    expect(forgetSentence({ user: 'ev\u202eil', deleted: 2, spooled: 0 })).toBe('forgot ev\\u202eil: 2 entries deleted\n')
  })

  it('leaves the spool out when none of its events was the user\'s', () => {
    expect(forgetSentence({ user: 'bob', deleted: 0, spooled: 0 })).toBe('forgot bob: 0 entries deleted\n')
  })
})

describe('decision-memory forget --spool', () => {
  it('takes the user\'s events out of the spool a hook run with --spool FILE writes, and leaves the others\'', async () => {
    const folder = tempDir('dm-forget-spool-')
    const spool = join(folder, 'hook-spool.ndjson')
    await appendToSpool(spool, { at: '2026-12-01T10:00:00.000Z', user: 'bob', payload: { hook_event_name: 'SessionStart' } })
    await appendToSpool(spool, { at: '2026-12-01T10:00:01.000Z', user: 'carol', payload: { hook_event_name: 'SessionStart' } })
    // A store of its own, opened here: no service is asked for a store it does not hold.
    const data = await emptyStore()
    const { code, stdout } = await captured(() => forgetCommand(['--user', 'bob', '--yes', '--json', '--data', data, '--spool', spool]))
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toMatchObject({ user: 'bob', spooled: 1 })
    const left = await readFile(spool, 'utf8')
    expect(left).not.toContain('"bob"')
    expect(left).toContain('"carol"')
  })
})

describe('decision-memory forget, a capture set aside with its user in doubt', () => {
  it('counts among the user\'s events one the hook\'s flags named the user for (--usr bob), set aside under "default"', async () => {
    const folder = tempDir('dm-forget-doubt-')
    const spool = join(folder, 'spool.ndjson')
    const aside = (user: string, named: string[]) => JSON.stringify({ at: '2026-12-01T10:00:00.000Z', user, payload: { hook_event_name: 'SessionStart' }, user_in_doubt: named }) + '\n'
    await writeFile(`${spool}.rejected`, aside('default', ['bob']) + aside('default', ['carol']))
    const data = await emptyStore()
    const { code, stdout } = await captured(() => forgetCommand(['--user', 'bob', '--yes', '--data', data, '--spool', spool]))
    expect(code).toBe(0)
    expect(stdout).toBe('forgot bob: 0 entries deleted, 1 spooled hook event removed\n')
    expect(await readFile(`${spool}.rejected`, 'utf8')).toBe(aside('default', ['carol']))
  })

  it('says the ones it left whose flags named no user (--user with no value), which may be the user\'s, on stderr', async () => {
    const folder = tempDir('dm-forget-doubt-')
    const spool = join(folder, 'spool.ndjson')
    const aside = (named: string[]) => JSON.stringify({ at: '2026-12-01T10:00:00.000Z', user: 'default', payload: { hook_event_name: 'SessionStart' }, user_in_doubt: named }) + '\n'
    // Named no one, or a name the service refuses: either may be bob's. carol's is carol's.
    await writeFile(`${spool}.rejected`, aside([]) + aside(['..']) + aside(['carol']))
    const data = await emptyStore()
    const { code, stdout, stderr } = await captured(() => forgetCommand(['--user', 'bob', '--yes', '--json', '--data', data, '--spool', spool]))
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toMatchObject({ user: 'bob', spooled: 0 })
    expect(stderr).toBe(
      `decision-memory forget: 2 captures set aside in ${spool}.rejected with their user in doubt are left, the hook's flags having named no user (--user with no value, or a name the service refuses): if they are bob's, delete their lines there\n`,
    )
    expect(unnamedSetAsideSentence(1, ' bob ', '/s')).toBe(
      'decision-memory forget: 1 capture set aside in /s.rejected with its user in doubt is left, the hook\'s flags having named no user (--user with no value, or a name the service refuses): if it is " bob "\'s, delete its line there\n',
    )
    // None such left: nothing said.
    await writeFile(`${spool}.rejected`, aside(['carol']))
    expect((await captured(() => forgetCommand(['--user', 'bob', '--yes', '--data', data, '--spool', spool]))).stderr).toBe('')
  })
})

describe('decision-memory forget, the .rejected file held by another process as it runs', () => {
  it('says the captures a hook --record-set-aside held, which it could not take, and to run it again', async () => {
    const folder = tempDir('dm-forget-held-')
    const spool = join(folder, 'spool.ndjson')
    const aside = (named: string[]) => JSON.stringify({ at: '2026-12-01T10:00:00.000Z', user: 'default', payload: { hook_event_name: 'SessionStart' }, user_in_doubt: named }) + '\n'
    // Staged as `hook --record-set-aside` holds the file while it moves its captures: named by a
    // live pid (this process's parent's), made just now. A version before this passed over it unsaid.
    const held = join(folder, `spool.ndjson.rejected.${process.ppid}.0a1b2c3d.forgetting`)
    await writeFile(held, aside(['bob']))
    const data = await emptyStore()
    const { code, stdout, stderr } = await captured(() => forgetCommand(['--user', 'bob', '--yes', '--json', '--data', data, '--spool', spool]))
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toMatchObject({ user: 'bob', spooled: 0 })
    expect(stderr).toBe(
      `decision-memory forget: another process (pid ${process.ppid}, a hook --record-set-aside or another forget) held captures set aside in ${spool}.rejected as this ran, which this could not take: ` +
        `any of bob's among them are left, set aside there or moved into ${spool} for the next hook to deliver; run this forget again once it is done\n`,
    )
    expect(await readFile(held, 'utf8')).toBe(aside(['bob']))
    expect(heldSetAsideSentence([7, 8], ' bob ', '/s')).toBe(
      'decision-memory forget: other processes (pids 7, 8, each a hook --record-set-aside or another forget) held captures set aside in /s.rejected as this ran, which this could not take: ' +
        'any of " bob "\'s among them are left, set aside there or moved into /s for the next hook to deliver; run this forget again once they are done\n',
    )
  })
})

describe('decision-memory forget, a claim of the .rejected file named by its own pid', () => {
  it('takes it as left over, and names no process held it: its own pid is no other process\'s', async () => {
    const folder = tempDir('dm-forget-own-')
    const spool = join(folder, 'spool.ndjson')
    const aside = (named: string[]) => JSON.stringify({ at: '2026-12-01T10:00:00.000Z', user: 'default', payload: { hook_event_name: 'SessionStart' }, user_in_doubt: named }) + '\n'
    // Left by a forget killed midway that had this pid (`docker run`: every run is pid 1). A
    // version before this left bob's capture in it and said `another process (pid <its own>) held …`.
    const left = join(folder, `spool.ndjson.rejected.${process.pid}.0a1b2c3d.forgetting`)
    await writeFile(left, aside(['bob']) + aside(['carol']))
    const data = await emptyStore()
    const { code, stdout, stderr } = await captured(() => forgetCommand(['--user', 'bob', '--yes', '--json', '--data', data, '--spool', spool]))
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    expect(JSON.parse(stdout)).toMatchObject({ user: 'bob', spooled: 1 })
    expect(await readFile(`${spool}.rejected`, 'utf8')).toBe(aside(['carol']))
  })
})

describe('decision-memory forget, a spool that is a folder', () => {
  it('refuses --spool naming the folder the spool is in, before anything is deleted', async () => {
    const folder = tempDir('dm-forget-spool-folder-')
    const spool = join(folder, 'spool.ndjson')
    await appendToSpool(spool, { at: '2026-12-01T10:00:00.000Z', user: 'bob', payload: { hook_event_name: 'SessionStart' } })
    const data = tempDir('dm-forget-store-')
    await expect(forgetCommand(['--user', 'bob', '--yes', '--data', data, '--spool', folder])).rejects.toThrow(
      `--spool is ${folder}, a folder: give the path of the spool file in it (${spool}, as the hook's --spool or DECISION_MEMORY_SPOOL names it); nothing was deleted`,
    )
    // The store was not opened (nothing made in the empty folder), and the spool keeps bob's event.
    expect(readdirSync(data)).toEqual([])
    expect(await readFile(spool, 'utf8')).toContain('"bob"')
  })

  it('refuses a --spool under a file in one line, before anything is deleted, not with stat\'s stack trace', async () => {
    const folder = tempDir('dm-forget-spool-file-')
    const file = join(folder, 'spool.ndjson')
    await appendToSpool(file, { at: '2026-12-01T10:00:00.000Z', user: 'bob', payload: { hook_event_name: 'SessionStart' } })
    const data = tempDir('dm-forget-store-')
    await expect(forgetCommand(['--user', 'bob', '--yes', '--data', data, '--spool', join(file, 'x')])).rejects.toThrow(
      new UsageError(`--spool is ${join(file, 'x')}, under a file, not a folder: give the path of the spool file (as the hook's --spool or DECISION_MEMORY_SPOOL names it); nothing was deleted`),
    )
    expect(readdirSync(data)).toEqual([])
  })

  it('names DECISION_MEMORY_SPOOL when the variable is the folder', async () => {
    const folder = tempDir('dm-forget-spool-folder-')
    vi.stubEnv('DECISION_MEMORY_SPOOL', folder)
    try {
      await expect(forgetCommand(['--user', 'bob', '--yes', '--data', tempDir('dm-forget-store-')])).rejects.toMatchObject({
        code: 'ENVIRONMENT_INVALID',
        message: expect.stringContaining(`DECISION_MEMORY_SPOOL is ${folder}, a folder`),
      })
    } finally {
      vi.unstubAllEnvs()
    }
  })
})

describe('decision-memory forget, another program at DECISION_MEMORY_URL', () => {
  it('does not print "forgot undefined" (exit 0) when it answers 200 {}', async () => {
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'))
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    vi.stubEnv('DECISION_MEMORY_SPOOL', join(tempDir('dm-forget-spool-'), 'spool.ndjson'))
    try {
      const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
      await expect(forgetCommand(['--user', 'bob', '--yes'])).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: expect.stringContaining("answered HTTP 200 with what is not this route's answer"),
      })
      expect(write).not.toHaveBeenCalled()
    } finally {
      vi.unstubAllEnvs()
      server.closeAllConnections()
      await new Promise<void>((done) => server.close(() => done()))
    }
  })
})

describe('decision-memory forget, the spool whatever store is reached', () => {
  /** A loopback URL nothing listens on, for the test that asked (closedPort: no other service is given its port meanwhile). */
  const deadUrl = async () => `http://127.0.0.1:${await closedPort()}`

  async function spoolOfBobAndCarol(): Promise<string> {
    const spool = join(tempDir('dm-forget-spool-'), 'spool.ndjson')
    await appendToSpool(spool, { at: '2026-12-01T10:00:00.000Z', user: 'bob', payload: { hook_event_name: 'SessionStart', session_id: 's-bob' } })
    await appendToSpool(spool, { at: '2026-12-01T10:00:01.000Z', user: 'carol', payload: { hook_event_name: 'SessionStart', session_id: 's-carol' } })
    return spool
  }

  it('takes the user\'s events, and only theirs, out of the spool with no service and no store, says so, and still fails', async () => {
    const spool = await spoolOfBobAndCarol()
    vi.stubEnv('DECISION_MEMORY_URL', await deadUrl())
    vi.stubEnv('DECISION_MEMORY_DATA', join(tempDir('dm-forget-nostore-'), 'data'))
    vi.stubEnv('DECISION_MEMORY_SPOOL', spool)
    try {
      let thrown: unknown
      const { stdout, stderr } = await captured(() => forgetCommand(['--user', 'bob', '--yes']).catch((error: unknown) => ((thrown = error), 1)))
      // Not done: what the store holds of bob (a service down, its store elsewhere) was not forgotten.
      expect(thrown).toMatchObject({ message: expect.stringContaining('no store in') })
      expect(stdout).toBe('')
      expect(stderr).toBe(`decision-memory forget: 1 spooled hook event of bob removed from ${spool}, but the store's part failed (below): forget again once it is mended\n`)
      const left = await readFile(spool, 'utf8')
      expect(left).not.toContain('"bob"')
      expect(left).toContain('"carol"')
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('says the captures set aside with their user in doubt it left, as a forget that succeeds does, before the failure', async () => {
    const spool = await spoolOfBobAndCarol()
    const aside = (named: string[]) => JSON.stringify({ at: '2026-12-01T10:00:00.000Z', user: 'default', payload: { hook_event_name: 'SessionStart' }, user_in_doubt: named }) + '\n'
    await writeFile(`${spool}.rejected`, aside([]) + aside(['bob']))
    vi.stubEnv('DECISION_MEMORY_URL', await deadUrl())
    vi.stubEnv('DECISION_MEMORY_DATA', join(tempDir('dm-forget-nostore-'), 'data'))
    vi.stubEnv('DECISION_MEMORY_SPOOL', spool)
    try {
      let thrown: unknown
      const { stderr } = await captured(() => forgetCommand(['--user', 'bob', '--yes']).catch((error: unknown) => ((thrown = error), 1)))
      expect(thrown).toMatchObject({ message: expect.stringContaining('no store in') })
      // A version before this said the two events removed, and nothing of the one left.
      expect(stderr).toBe(
        `decision-memory forget: 2 spooled hook events of bob removed from ${spool}, but the store's part failed (below): forget again once it is mended\n` +
          unnamedSetAsideSentence(1, 'bob', spool),
      )
      expect(await readFile(`${spool}.rejected`, 'utf8')).toBe(aside([]))
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('takes them out when the service answers an error too, and says the error after', async () => {
    const spool = await spoolOfBobAndCarol()
    const server = createServer((_req, res) =>
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"code":"store_unavailable","message":"the store cannot be read"}}'),
    )
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    vi.stubEnv('DECISION_MEMORY_SPOOL', spool)
    try {
      const { code, stderr } = await captured(() => forgetCommand(['--user', 'bob', '--yes']))
      expect(code).toBe(1)
      const lines = stderr.split('\n')
      expect(lines[0]).toBe(`decision-memory forget: 1 spooled hook event of bob removed from ${spool}, but the store's part failed (below): forget again once it is mended`)
      expect(lines[1]).toContain('the store cannot be read')
      expect(await readFile(spool, 'utf8')).not.toContain('"bob"')
    } finally {
      vi.unstubAllEnvs()
      server.closeAllConnections()
      await new Promise<void>((done) => server.close(() => done()))
    }
  })

  it('with --data of another store, forgets the user there and in the spool, and leaves the others\' events', async () => {
    const spool = await spoolOfBobAndCarol()
    vi.stubEnv('DECISION_MEMORY_URL', await deadUrl())
    vi.stubEnv('DECISION_MEMORY_SPOOL', spool)
    try {
      const other = await emptyStore()
      const { code, stdout } = await captured(() => forgetCommand(['--user', 'bob', '--yes', '--data', other]))
      expect(code).toBe(0)
      expect(stdout).toBe('forgot bob: 0 entries deleted, 1 spooled hook event removed\n')
      const left = await readFile(spool, 'utf8')
      expect(left).not.toContain('"bob"')
      expect(left).toContain('"carol"')
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('with --data of an empty folder, takes the user\'s events out of the spool and fails, making no store there', async () => {
    const spool = await spoolOfBobAndCarol()
    vi.stubEnv('DECISION_MEMORY_URL', await deadUrl())
    vi.stubEnv('DECISION_MEMORY_SPOOL', spool)
    try {
      const mistyped = tempDir('dm-forget-empty-')
      // A store made there said `forgot bob: 0 entries deleted, 1 spooled hook event removed`, exit 0.
      const { code, stdout, stderr } = await captured(() => main(['forget', '--user', 'bob', '--yes', '--data', mistyped]))
      expect({ code, stdout }).toEqual({ code: 1, stdout: '' })
      expect(stderr).toBe(
        `decision-memory forget: 1 spooled hook event of bob removed from ${spool}, but the store's part failed (below): forget again once it is mended\n` +
          `decision-memory forget: there is no store in ${mistyped} (--data): give the data directory of a store\n`,
      )
      expect(readdirSync(mistyped)).toEqual([])
      const left = await readFile(spool, 'utf8')
      expect(left).not.toContain('"bob"')
      expect(left).toContain('"carol"')
    } finally {
      vi.unstubAllEnvs()
    }
  })
})
