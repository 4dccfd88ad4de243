import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { closedPort } from '../../test/support/processes'
import { Level } from 'level'
import { markServedBy, openStores, StoreOpenError } from '../open-store'
import { errorMessage, hasFields, ServiceUnavailableError, throughServiceOrLocal, USER_FROM_FLAG_OR_VARIABLE } from './service-client'
import { main } from './main'
import { captured } from '../../test/support/captured'
import { tempDir } from '../../test/support/temp-dir'
import { damagedStore } from '../../test/support/damaged-store'

/**
 * A LevelDB store in `dataDir` holding `entries`, each put on its own, closed; with `tables`,
 * opened once more so that its log is written into a table file.
 */
async function storeIn(dataDir: string, entries: Record<string, string>, { tables = false } = {}): Promise<void> {
  const db = new Level<string, string>(dataDir)
  await db.open()
  for (const [key, value] of Object.entries(entries)) await db.put(key, value)
  await db.close()
  if (!tables) return
  await db.open()
  await db.close()
}

/** Thirty entries of `size` repeats of a choice's text: enough to fill a log past a block. */
const choices = (size: number) => Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, 'an acknowledged choice '.repeat(size)]))

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
})

describe('throughServiceOrLocal when no service runs', () => {
  it('answers concurrent calls of one process from the store, one after the other', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const dataDir = tempDir('dm-local-')
    const question = { question: 'Which database?', all_options: ['pg', 'mysql'], user: 'alice' }
    // What an agent's parallel tool use sends the MCP server: LevelDB refused the second open.
    const answers = await Promise.all([
      throughServiceOrLocal({
        method: 'POST',
        path: '/v1/observations',
        dataDir,
        local: (memory) => memory.observe([{ ...question, user_choice: 'pg', decision_id: 'd-1', source: 'user' }]),
      }),
      throughServiceOrLocal({ method: 'POST', path: '/v1/recommendations', dataDir, local: (memory) => memory.recommend(question) }),
      throughServiceOrLocal({ method: 'POST', path: '/v1/decisions/check', dataDir, local: (_memory, decisions) => decisions.check({ action: 'ls' }) }),
    ])
    expect(answers.map((a) => [a.status, a.via])).toEqual([
      [200, 'local'],
      [200, 'local'],
      [200, 'local'],
    ])
  })

  it('sends to DECISION_MEMORY_URL, not to start a service, when the store it falls back on is held (one serving on another port)', async () => {
    const closed = `http://127.0.0.1:${await closedPort()}`
    vi.stubEnv('DECISION_MEMORY_URL', closed)
    const dataDir = tempDir('dm-held-')
    vi.stubEnv('DECISION_MEMORY_DATA', dataDir)
    const { store } = await openStores(dataDir)
    try {
      const call = throughServiceOrLocal({ method: 'GET', path: '/x', local: async () => 'ok' })
      await expect(call).rejects.toThrow(
        `the store in ${dataDir} is in use by another process, and no service runs at ${closed}: ` +
          'if the service runs on it at another port or host, set DECISION_MEMORY_URL to it',
      )
      await expect(call).rejects.not.toThrow('is the service running?')
    } finally {
      await store.close()
    }
  })

  it('quotes a --data with a space in what it says, for the shell, as the user would give it again', async () => {
    const closed = `http://127.0.0.1:${await closedPort()}`
    vi.stubEnv('DECISION_MEMORY_URL', closed)
    const dataDir = join(tempDir('dm-held-'), 'data 1')
    const { store } = await openStores(dataDir)
    try {
      const named = throughServiceOrLocal({ method: 'GET', path: '/x', dataDir, local: async () => 'ok' })
      await expect(named).rejects.toThrow(`the store in '${dataDir}' (--data) is in use by another process, and no service has said it runs on it`)
      vi.stubEnv('DECISION_MEMORY_DATA', dataDir)
      const unnamed = throughServiceOrLocal({ method: 'GET', path: '/x', local: async () => 'ok' })
      await expect(unnamed).rejects.toThrow(`the store in '${dataDir}' is in use by another process, and no service runs at ${closed}`)
    } finally {
      await store.close()
    }
    const none = join(tempDir('dm-none-'), 'no store')
    const call = throughServiceOrLocal({ method: 'GET', path: '/x', dataDir: none, local: async () => 'ok' })
    await expect(call).rejects.toThrow(`there is no store in '${none}' (--data): give the data directory of a store`)
  })

  it('says a --data that is a file, or under one, is that, not a store it could not make (it makes none)', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const file = join(tempDir('dm-local-'), 'a-file')
    await writeFile(file, 'not a folder')
    const under = throughServiceOrLocal({ method: 'GET', path: '/x', dataDir: join(file, 'data'), local: async () => 'ok' })
    await expect(under).rejects.toThrow(`there is no store in ${join(file, 'data')} (--data): a folder above it is a file: give the data directory of a store`)
    const itself = throughServiceOrLocal({ method: 'GET', path: '/x', dataDir: file, local: async () => 'ok' })
    await expect(itself).rejects.toThrow(`there is no store in ${file} (--data): it is a file, not a folder: give the data directory of a store`)
    await expect(itself).rejects.not.toThrow('cannot make the store')
    expect(await readFile(file, 'utf8')).toBe('not a folder')
  })

  it('refuses a --data folder of other files (--data . in a project) as no store, and writes nothing in it', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const project = tempDir('dm-local-')
    await writeFile(join(project, 'README.md'), '# a project')
    const call = throughServiceOrLocal({ method: 'GET', path: '/x', dataDir: project, local: async () => 'ok' })
    await expect(call).rejects.toThrow(`there is no store in ${project} (--data): give the data directory of a store`)
    expect(await readdir(project)).toEqual(['README.md'])
  })

  it('opens a store in a folder beside the files the service writes there, and an empty folder', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const dataDir = tempDir('dm-local-')
    expect((await throughServiceOrLocal({ method: 'GET', path: '/x', dataDir, local: async () => 'ok' })).body).toBe('ok')
    await writeFile(join(dataDir, 'SERVICE_ID'), 'abc\n')
    expect((await throughServiceOrLocal({ method: 'GET', path: '/x', dataDir, local: async () => 'ok' })).body).toBe('ok')
  })

  it('makes no store in an empty folder for a command that only shows what is stored: there is none, said as of a folder not there', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const dataDir = tempDir('dm-local-')
    const file = join(tempDir('dm-repo-'), 'billing.ts')
    await writeFile(file, 'export {}\n')
    const reads = [
      ['preferences', '--user', 'alice', '--data', dataDir],
      ['export', '--user', 'alice', '--data', dataDir],
      ['why', 'D-1', '--data', dataDir],
      ['why', file, '--data', dataDir],
      ['why', '--point', 'complexity-tier', '--user', 'alice', '--all-projects', '--data', dataDir],
      ['toggle', '--session', 's-1', '--user', 'alice', '--show', '--data', dataDir],
    ]
    for (const argv of reads) {
      // Opened, it made an empty LevelDB there, and answered as from a store with nothing in it.
      const { code, stderr } = await captured(() => main(argv))
      expect({ code, stderr }, argv.join(' ')).toEqual({ code: 1, stderr: `decision-memory ${argv[0]}: there is no store in ${dataDir} (--data): give the data directory of a store\n` })
      expect(await readdir(dataDir), argv.join(' ')).toEqual([])
    }
    // Nor in one holding only what is no store's data (the hook's spool, a LOG of an open refused).
    await writeFile(join(dataDir, 'spool.ndjson'), '')
    await writeFile(join(dataDir, 'LOG'), '')
    const spooled = await captured(() => main(['preferences', '--user', 'alice', '--data', dataDir]))
    expect(spooled.code).toBe(1)
    expect((await readdir(dataDir)).sort()).toEqual(['LOG', 'spool.ndjson'])
  })

  it('says no service and no store, rather than make one, when the folder of DECISION_MEMORY_DATA is empty, for a command that only shows', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`
    vi.stubEnv('DECISION_MEMORY_URL', url)
    const dataDir = tempDir('dm-local-')
    vi.stubEnv('DECISION_MEMORY_DATA', dataDir)
    const { code, stderr } = await captured(() => main(['export', '--user', 'alice']))
    expect({ code, stderr }).toEqual({
      code: 1,
      stderr: `decision-memory export: no service at ${url} (connection refused), and no store in ${dataDir}: start the service, or set DECISION_MEMORY_URL to where it runs, or --data to its store\n`,
    })
    expect(await readdir(dataDir)).toEqual([])
  })

  it('makes no store in an empty folder to forget a user in or to scan: there is nothing there to delete or age', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`
    vi.stubEnv('DECISION_MEMORY_URL', url)
    const dataDir = tempDir('dm-local-')
    const spool = join(tempDir('dm-spool-'), 'spool.ndjson')
    for (const argv of [
      ['forget', '--user', 'bob', '--yes', '--spool', spool, '--data', dataDir],
      ['decay-scan', '--data', dataDir],
      ['decay-scan', '--force', '--json', '--data', dataDir],
    ]) {
      // Made there, a mistyped --data said `forgot bob: 0 entries deleted`, exit 0, bob kept in the store meant.
      const { code, stdout, stderr } = await captured(() => main(argv))
      expect({ code, stdout, stderr }, argv.join(' ')).toEqual({ code: 1, stdout: '', stderr: `decision-memory ${argv[0]}: there is no store in ${dataDir} (--data): give the data directory of a store\n` })
      expect(await readdir(dataDir), argv.join(' ')).toEqual([])
    }
    // Nor in the folder of DECISION_MEMORY_DATA (or ./data) when no service runs.
    vi.stubEnv('DECISION_MEMORY_DATA', dataDir)
    for (const argv of [['forget', '--user', 'bob', '--yes', '--spool', spool], ['decay-scan']]) {
      const { code, stderr } = await captured(() => main(argv))
      expect({ code, stderr }, argv.join(' ')).toEqual({
        code: 1,
        stderr: `decision-memory ${argv[0]}: no service at ${url} (connection refused), and no store in ${dataDir}: start the service, or set DECISION_MEMORY_URL to where it runs, or --data to its store\n`,
      })
      expect(await readdir(dataDir), argv.join(' ')).toEqual([])
    }
    // A store with nothing in it is one: forgotten in, and scanned.
    await (await openStores(dataDir)).store.close()
    expect((await captured(() => main(['forget', '--user', 'bob', '--yes', '--spool', spool, '--data', dataDir]))).stdout).toBe('forgot bob: 0 entries deleted\n')
    expect((await captured(() => main(['decay-scan', '--data', dataDir]))).code).toBe(0)
  })

  it('makes the store in an empty folder for a command that writes to it (a toggle), as before', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const dataDir = tempDir('dm-local-')
    const toggled = await captured(() => main(['toggle', '--session', 's-1', '--user', 'alice', '--off', '--data', dataDir]))
    expect(toggled.code).toBe(0)
    expect(await readdir(dataDir)).toContain('CURRENT')
    // And a command that shows reads it then.
    const shown = await captured(() => main(['toggle', '--session', 's-1', '--user', 'alice', '--show', '--data', dataDir]))
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain('personalization off for session s-1')
  })

  it("says a damaged store in one line naming its folder, not as LevelDB's error thrown on", async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const dataDir = tempDir('dm-local-')
    await storeIn(dataDir, { k: 'v' }, { tables: true })
    const table = (await readdir(dataDir)).find((name) => name.endsWith('.ldb'))
    expect(table).toBeDefined()
    await writeFile(join(dataDir, table as string), 'not a table '.repeat(100))
    const read = throughServiceOrLocal({ method: 'GET', path: '/x', dataDir, local: (memory) => memory.preferences('alice') })
    await expect(read).rejects.toBeInstanceOf(StoreOpenError)
    await expect(read).rejects.toThrow(new RegExp(`^the store in ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged \\(Corruption: .*\\): restore the folder from a backup$`))
  })

  it('says on stderr, once, what LevelDB dropped of a damaged log as the command opened the store', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const dataDir = tempDir('dm-local-')
    await storeIn(dataDir, choices(40))
    const log = (await readdir(dataDir)).find((name) => name.endsWith('.log')) as string
    const bytes = await readFile(join(dataDir, log))
    bytes.fill(0xff, 12_000, 12_200)
    await writeFile(join(dataDir, log), bytes)
    const said: string[] = []
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => said.push(String(chunk)) > 0)
    try {
      for (let i = 0; i < 2; i++) await throughServiceOrLocal({ method: 'GET', path: '/x', dataDir, local: async () => 'ok' })
    } finally {
      stderr.mockRestore()
    }
    expect(said).toHaveLength(1)
    expect(said[0]).toMatch(new RegExp(`^decision-memory: the store in ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was damaged: LevelDB dropped .*dropping \\d+ bytes; Corruption: checksum mismatch.*\n$`))
  })

  it('says a store that lost its CURRENT damaged, not no store, when a file of another lies beside it', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const dataDir = tempDir('dm-local-')
    await storeIn(dataDir, { k: 'an acknowledged choice' })
    await rm(join(dataDir, 'CURRENT'))
    await writeFile(join(dataDir, 'nohup.out'), 'started\n')
    const read = throughServiceOrLocal({ method: 'GET', path: '/x', dataDir, local: async () => 'ok' })
    await expect(read).rejects.toThrow(`the store in ${dataDir} is damaged: its file CURRENT is missing, beside its data (`)
  })

  it('says what to do about a table file cut short, not only what it may be', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const dataDir = tempDir('dm-local-')
    await storeIn(dataDir, choices(10), { tables: true })
    const table = join(dataDir, (await readdir(dataDir)).find((name) => name.endsWith('.ldb')) as string)
    await writeFile(table, (await readFile(table)).subarray(0, 300))
    const read = throughServiceOrLocal({ method: 'GET', path: '/x', dataDir, local: (memory) => memory.preferences('alice') })
    await expect(read).rejects.toBeInstanceOf(StoreOpenError)
    await expect(read).rejects.toThrow(
      /could not be read or written \(IO error: .*\.ldb: .*\): .*; a write that failed stored nothing: if a file of it is damaged or cut short, restore the folder from a backup; else fix the cause and run the command again$/,
    )
  })

  it('says a read failed, not that a write stored nothing, where the command only reads the store', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const dataDir = await damagedStore('dm-local-')
    // A file the decisions are listed for (`why FILE`).
    const file = join(tempDir('dm-repo-'), 'billing.ts')
    await writeFile(file, 'export {}\n')
    const reads = [
      ['preferences', '--user', 'alice', '--data', dataDir],
      ['export', '--user', 'alice', '--data', dataDir],
      ['why', 'D-1', '--data', dataDir],
      ['why', file, '--data', dataDir],
      ['toggle', '--session', 's-1', '--user', 'alice', '--show', '--data', dataDir],
    ]
    for (const argv of reads) {
      const { code, stderr } = await captured(() => main(argv))
      expect(code, argv[0]).toBe(1)
      expect(stderr, argv[0]).toMatch(/could not be read or written \(IO error: .*\): .*; a read failed, and this command writes nothing: if a file of it is damaged or cut short, restore the folder from a backup; else fix the cause and run the command again\n$/)
    }
    // A scan and a toggle write, and a point's why may rebuild its aggregate: said as a write's.
    const writes = [
      ['decay-scan', '--force', '--data', dataDir],
      ['toggle', '--session', 's-1', '--user', 'alice', '--off', '--data', dataDir],
      ['why', '--point', 'complexity-tier', '--user', 'alice', '--all-projects', '--data', dataDir],
    ]
    for (const argv of writes) {
      const { code, stderr } = await captured(() => main(argv))
      expect(code, argv[0]).toBe(1)
      expect(stderr, argv[0]).toMatch(/could not be read or written \(IO error: .*\): .*; a write that failed stored nothing: if a file of it is damaged/)
    }
  })

  it('still answers the next call after one fails', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const dataDir = tempDir('dm-local-')
    const failing = throughServiceOrLocal({ method: 'GET', path: '/x', dataDir, local: async () => Promise.reject(new Error('boom')) })
    const next = throughServiceOrLocal({ method: 'GET', path: '/x', dataDir, local: async () => 'ok' })
    await expect(failing).rejects.toThrow('boom')
    expect((await next).body).toBe('ok')
  })
})

describe('throughServiceOrLocal when what answers is not a working service', () => {
  /** A server on a free port that answers every request with `listener`; closed after the test. */
  async function serving(listener: RequestListener) {
    const server = createServer(listener)
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    vi.stubEnv('DECISION_MEMORY_URL', url)
    return {
      url,
      close: () => {
        server.closeAllConnections()
        return new Promise<void>((done) => server.close(() => done()))
      },
    }
  }
  const call = (timeoutMs?: number) =>
    throughServiceOrLocal({ method: 'POST', path: '/v1/recommendations', body: {}, timeoutMs, local: async () => 'local' })

  it('names the URL and the status when the answer is not JSON (a proxy error page), instead of a JSON parse error', async () => {
    const service = await serving((_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad gateway</html>'))
    try {
      const error = await call().catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ServiceUnavailableError)
      expect((error as Error).message).toBe(
        `POST ${service.url}/v1/recommendations: answered HTTP 502 with a body that is not JSON (is DECISION_MEMORY_URL a decision-memory service?)`,
      )
    } finally {
      await service.close()
    }
  })

  it('refuses a 2xx answer that is not the route\'s (another program answering {} or nothing), instead of printing it as done', async () => {
    for (const [type, text] of [['application/json', '{}'], ['application/json', '[]'], ['application/json', ''], ['application/x-ndjson', '{}\n']]) {
      const service = await serving((_req, res) => res.writeHead(200, { 'content-type': type }).end(text))
      try {
        const error = await throughServiceOrLocal({
          method: 'DELETE',
          path: '/v1/users/bob',
          expect: hasFields({ user: 'string', deleted: 'number' }),
          local: async () => 'local',
        }).catch((e: unknown) => e)
        expect(error).toBeInstanceOf(ServiceUnavailableError)
        expect((error as Error).message).toBe(
          `DELETE ${service.url}/v1/users/bob: answered HTTP 200 with what is not this route's answer (is DECISION_MEMORY_URL a decision-memory service?)`,
        )
      } finally {
        await service.close()
      }
    }
    // The route's own answer, and an error (said by the command as the service's), pass.
    const service = await serving((req, res) =>
      res.writeHead(req.url === '/v1/users/bob' ? 200 : 404, { 'content-type': 'application/json' }).end(req.url === '/v1/users/bob' ? '{"user":"bob","deleted":3}' : '{}'),
    )
    try {
      const forget = (path: string) => throughServiceOrLocal({ method: 'DELETE', path, expect: hasFields({ user: 'string', deleted: 'number' }), local: async () => 'local' })
      expect(await forget('/v1/users/bob')).toMatchObject({ status: 200, body: { user: 'bob', deleted: 3 } })
      expect(await forget('/v1/users/carol')).toMatchObject({ status: 404, body: {} })
    } finally {
      await service.close()
    }
  })

  it('names the URL and the cause when the connection is cut, instead of "fetch failed"', async () => {
    const service = await serving((req) => req.socket.destroy())
    try {
      const error = await call().catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ServiceUnavailableError)
      expect((error as Error).message).toMatch(
        new RegExp(`^POST ${service.url}/v1/recommendations: the service closed the connection before it answered \\((UND_ERR_SOCKET|ECONNRESET)\\): did it stop or restart\\?$`),
      )
      expect((error as Error).message).not.toContain('fetch failed')
    } finally {
      await service.close()
    }
  })

  it('names DECISION_MEMORY_URL when it is no http:// address (a scheme left out)', async () => {
    for (const wrong of ['localhost:7420', '127.0.0.1:7420', 'ftp://127.0.0.1:7420']) {
      vi.stubEnv('DECISION_MEMORY_URL', wrong)
      const error = await call().catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ServiceUnavailableError)
      expect((error as Error).message).toBe(`DECISION_MEMORY_URL is "${wrong}": give the service's address as http://HOST:PORT`)
    }
  })

  it('names DECISION_MEMORY_URL holding a user name or password, which fetch sends nothing with, and prints no password', async () => {
    const service = await serving((_req, res) => res.end('{}'))
    try {
      const host = new URL(service.url).host
      for (const wrong of [`http://me:s3cret@${host}`, `http://me@${host}`]) {
        vi.stubEnv('DECISION_MEMORY_URL', wrong)
        const error = await call().catch((e: unknown) => e)
        expect(error).toBeInstanceOf(ServiceUnavailableError)
        expect((error as Error).message).toBe(
          `DECISION_MEMORY_URL holds a user name or password (http://…@${host}), which fetch, the client of the commands and hooks, ` +
            'sends no request with: give the service\'s address as http://HOST:PORT, and its token in DECISION_MEMORY_TOKEN',
        )
      }
    } finally {
      await service.close()
    }
  })

  it('says how long it waited when the service does not answer', async () => {
    const service = await serving(() => undefined)
    try {
      const error = await call(1).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ServiceUnavailableError)
      expect((error as Error).message).toBe(`POST ${service.url}/v1/recommendations: no answer within 0.001 s (is the service busy or stuck?)`)
    } finally {
      await service.close()
    }
  })

  it('still takes an NDJSON answer as text and an empty one as null', async () => {
    const service = await serving((req, res) =>
      req.url?.endsWith('ndjson') ? res.writeHead(200, { 'content-type': 'application/x-ndjson' }).end('{"a":1}\n{"b":2}\n') : res.writeHead(204).end(),
    )
    try {
      const ndjson = await throughServiceOrLocal({ method: 'GET', path: '/x-ndjson', local: async () => 'local' })
      expect(ndjson).toEqual({ status: 200, body: '{"a":1}\n{"b":2}\n', via: 'service' })
      expect(await throughServiceOrLocal({ method: 'DELETE', path: '/x', local: async () => 'local' })).toEqual({ status: 204, body: null, via: 'service' })
    } finally {
      await service.close()
    }
  })
})

describe('throughServiceOrLocal with a store named (--data) that another process holds', () => {
  const ID = '0123456789abcdef0123456789abcdef'

  /** A store held by this process, as a service holds it, with `id` written as the service would. */
  async function held(id?: string) {
    const dataDir = tempDir('dm-held-')
    const { store } = await openStores(dataDir)
    if (id !== undefined) await markServedBy(dataDir, id)
    return { dataDir, close: () => store.close() }
  }

  /** A server standing for the service at the URL: what it is asked, with the store header sent. */
  async function standIn(answer: (req: IncomingMessage, res: ServerResponse) => void) {
    const asked: Array<{ method: string; url: string; store: string | undefined }> = []
    const server = createServer((req, res) => {
      asked.push({ method: req.method ?? '', url: req.url ?? '', store: req.headers['x-decision-memory-store'] as string | undefined })
      answer(req, res)
    })
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    vi.stubEnv('DECISION_MEMORY_URL', url)
    return { url, asked, close: () => new Promise<void>((done) => server.close(() => done())) }
  }

  const forget = (dataDir: string) =>
    throughServiceOrLocal({ method: 'DELETE', path: '/v1/users/bom', dataDir, local: async () => 'local' })

  it('does not take a service that sends no header back (one from before it) for the one holding the store, and asks it nothing more', async () => {
    const store = await held(ID)
    const service = await standIn((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok","version":"0.0.1"}'))
    try {
      await expect(forget(store.dataDir)).rejects.toThrow(`the service at ${service.url} does not say it runs on it`)
      expect(service.asked).toEqual([{ method: 'GET', url: '/healthz', store: ID }])
    } finally {
      await service.close()
      await store.close()
    }
  })

  it('goes through the service that answers to the id, naming the store on the request too', async () => {
    const store = await held(ID)
    const service = await standIn((req, res) =>
      res.writeHead(200, { 'content-type': 'application/json', 'x-decision-memory-store': req.headers['x-decision-memory-store'] }).end('{"user":"bom","deleted":3}'),
    )
    try {
      expect(await forget(store.dataDir)).toEqual({ status: 200, body: { user: 'bom', deleted: 3 }, via: 'service' })
      expect(service.asked).toEqual([
        { method: 'GET', url: '/healthz', store: ID },
        { method: 'DELETE', url: '/v1/users/bom', store: ID },
      ])
    } finally {
      await service.close()
      await store.close()
    }
  })

  it('acts on a copy of the folder itself, not through the service of the original that the copied id names', async () => {
    const store = await held(ID)
    const copy = tempDir('dm-copy-')
    await cp(store.dataDir, copy, { recursive: true, force: true })
    const service = await standIn((req, res) =>
      res.writeHead(200, { 'content-type': 'application/json', 'x-decision-memory-store': req.headers['x-decision-memory-store'] }).end('{"user":"bom","deleted":3}'),
    )
    try {
      expect(await forget(copy)).toEqual({ status: 200, body: 'local', via: 'local' })
      expect(service.asked).toEqual([])
    } finally {
      await service.close()
      await store.close()
      await rm(copy, { recursive: true, force: true })
    }
  })

  it('asks no service at all when no service has written an id there', async () => {
    const store = await held()
    const service = await standIn((_req, res) => res.writeHead(500).end())
    try {
      await expect(forget(store.dataDir)).rejects.toThrow('no service has said it runs on it')
      expect(service.asked).toEqual([])
    } finally {
      await service.close()
      await store.close()
    }
  })

  it('names a service of a version from before the id, still running after an upgrade, as a holder to restart', async () => {
    // Such a service writes no id and ignores the header: DECISION_MEMORY_URL may already be set to
    // it, so the refusal must not leave setting it as the only way out.
    const store = await held()
    const service = await standIn((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok","version":"0.1.0"}'))
    try {
      await expect(forget(store.dataDir)).rejects.toThrow(
        /no service has said it runs on it \(.*a service of a version from before services said which store they hold, still running after an upgrade: restart that one\)/,
      )
      expect(service.asked).toEqual([])
    } finally {
      await service.close()
      await store.close()
    }
  })
})

describe('errorMessage', () => {
  const answer = (status: number, error: unknown) => ({ status, body: { error }, via: 'service' as const })

  it('says what is wrong with each field, not only which', () => {
    const message = errorMessage(answer(400, { code: 'invalid_request', message: 'invalid request: user', issues: [{ path: 'user', message: 'must not start with "!"' }] }))
    expect(message).toBe('invalid request: user (user: must not start with "!")')
  })

  it('names the setting to mend for a missing token and for a URL with a path', () => {
    vi.stubEnv('DECISION_MEMORY_URL', 'http://127.0.0.1:7420/v1/')
    expect(errorMessage(answer(401, { code: 'unauthorized', message: 'a bearer token is required', issues: [] }))).toBe(
      "a bearer token is required; set DECISION_MEMORY_TOKEN to a token of the service's tokens file",
    )
    expect(errorMessage(answer(404, { code: 'not_found', message: 'no route GET /v1/v1/users/a/export', issues: [] }))).toBe(
      "no route GET /v1/v1/users/a/export; is DECISION_MEMORY_URL (http://127.0.0.1:7420/v1) the service's address, with no path?",
    )
    const forbidden = { code: 'forbidden', message: 'token "alice" may not act for user "default"', issues: [{ path: 'user', message: 'not a user this token may act for' }] }
    expect(errorMessage(answer(403, forbidden))).toBe(
      'token "alice" may not act for user "default" (user: not a user this token may act for); name a user this token may act for with --user, or set DECISION_MEMORY_TOKEN to a token of that user',
    )
    // A token not for every user writing what every user shares: no user to name.
    const shared = { code: 'forbidden', message: 'token "alice" may not run the decay scan', issues: [{ path: 'authorization', message: 'not a token for every user' }] }
    expect(errorMessage(answer(403, shared))).not.toContain('--user')
  })

  it('asks whether DECISION_MEMORY_URL is a decision-memory service when an error answer is not one of its', () => {
    vi.stubEnv('DECISION_MEMORY_URL', 'http://127.0.0.1:8000')
    const asked = "is DECISION_MEMORY_URL (http://127.0.0.1:8000) a decision-memory service?"
    expect(errorMessage({ status: 404, body: { detail: 'Not Found' }, via: 'service' })).toBe(`HTTP 404 with no error of decision-memory's in its answer: ${asked}`)
    expect(errorMessage({ status: 502, body: null, via: 'service' })).toContain(asked)
    expect(errorMessage(answer(409, { code: 'store_mismatch', message: 'another store', issues: [] }))).toBe('another store')
  })
})


describe('the 403 of a user the token may not act for, as each command says it', () => {
  const forbidden = { code: 'forbidden', message: 'token "alice" may not act for user "default"', issues: [{ path: 'user', message: 'not a user this token may act for' }] }

  it('names DECISION_MEMORY_USER beside --user for why, preferences and toggle, which read it, and --user alone for export and forget', async () => {
    const server = createServer((_req, res) => res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ error: forbidden })))
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    vi.stubEnv('DECISION_MEMORY_USER', '')
    try {
      for (const argv of [['why', '--point', 'complexity-tier', '--all-projects'], ['preferences'], ['toggle', '--session', 's-1']]) {
        const { code, stderr } = await captured(() => main(argv))
        expect(code, argv[0]).toBe(1)
        expect(stderr, argv[0]).toContain('name a user this token may act for with --user (or DECISION_MEMORY_USER, its default), or set DECISION_MEMORY_TOKEN')
      }
      for (const argv of [['export', '--user', 'bob'], ['forget', '--user', 'bob', '--yes', '--spool', join(tempDir('dm-spool-'), 'spool.ndjson')]]) {
        const { code, stderr } = await captured(() => main(argv))
        expect(code, argv[0]).toBe(1)
        expect(stderr, argv[0]).toContain('name a user this token may act for with --user, or set DECISION_MEMORY_TOKEN')
      }
    } finally {
      server.closeAllConnections()
      await new Promise<void>((done) => server.close(() => done()))
    }
    expect(errorMessage({ status: 403, body: { error: forbidden }, via: 'service' }, USER_FROM_FLAG_OR_VARIABLE)).toBe(
      'token "alice" may not act for user "default" (user: not a user this token may act for); name a user this token may act for with --user (or DECISION_MEMORY_USER, its default), or set DECISION_MEMORY_TOKEN to a token of that user',
    )
  })
})

describe('a DECISION_MEMORY_URL mistyped', () => {
  const call = () => throughServiceOrLocal({ method: 'GET', path: '/v1/users/a/preferences', local: async () => 'local' })

  it.each([
    // A host that does not exist is the host in the variable, not "the request failed: ENOTFOUND".
    ['ENOTFOUND', 'dm-host.invalid', 'no host of that name was found (ENOTFOUND): is the host in DECISION_MEMORY_URL right?'],
    // A name the resolver could not look up for now may be right: not said as a host that does not exist.
    ['EAI_AGAIN', 'dm-host.example', "the host's name could not be looked up for now (EAI_AGAIN): is the network or DNS down, or the host in DECISION_MEMORY_URL wrong?"],
  ])('says the resolver\'s %s as what it means for the variable', async (code, host, said) => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://${host}:7420`)
    vi.stubGlobal('fetch', async () => {
      throw Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(`getaddrinfo ${code} ${host}`), { code }) })
    })
    try {
      await expect(call()).rejects.toThrow(`GET http://${host}:7420/v1/users/a/preferences: ${said}`)
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('says https:// to the service, which speaks HTTP, is the scheme, not an OpenSSL code alone', async () => {
    const server = createServer((_req, res) => res.end('{}'))
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
    vi.stubEnv('DECISION_MEMORY_URL', url)
    try {
      await expect(call()).rejects.toThrow(
        `GET ${url}/v1/users/a/preferences: what answers there does not speak TLS (ERR_SSL_WRONG_VERSION_NUMBER): the service speaks plain HTTP; give DECISION_MEMORY_URL as http://, not https://`,
      )
    } finally {
      server.closeAllConnections()
      await new Promise<void>((done) => server.close(() => done()))
    }
  })
})
