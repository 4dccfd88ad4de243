import { chmod, chown, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Level } from 'level'
import { afterAll, describe, expect, it } from 'vitest'
import { openStores } from '../../src/open-store'
import { runCli, startService, type ServiceProcess } from '../support/service-process'

const dirs: string[] = []
const running: ServiceProcess[] = []
afterAll(async () => {
  for (const service of running) await service.stop()
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  dirs.push(dir)
  return dir
}

async function start(dataDir: string, args: string[] = []): Promise<ServiceProcess> {
  const service = await startService({ dataDir, args })
  running.push(service)
  return service
}

async function request(service: ServiceProcess, method: string, path: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = {}
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (token !== undefined) headers.authorization = `Bearer ${token}`
  const response = await fetch(service.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await response.text()
  return { status: response.status, text, body: response.headers.get('content-type')?.includes('application/json') ? JSON.parse(text) : text }
}

const TIER = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }
const METHOD = { question: 'TDD or DDD for this module?', header: 'Method', all_options: ['TDD', 'DDD'] }

describe('the real service on LevelDB', () => {
  it('counts 1,000 concurrent observations at one point exactly, in the recommendation and the export', async () => {
    const service = await start(await tempDir('dm-e2e-'))
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        request(service, 'POST', '/v1/observations', { ...TIER, user: 'carol', user_choice: i % 4 === 0 ? 'Tier L' : 'Tier M', decision_id: `d-${i}` }),
      ),
    )
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1000)
    const recommendation = await request(service, 'POST', '/v1/recommendations', { ...TIER, user: 'carol' })
    expect(recommendation.body.observations).toBe(1000)
    expect(recommendation.body.options.map((o: any) => [o.option, o.count])).toEqual([
      ['Tier M', 750],
      ['Tier S', 0],
      ['Tier L', 250],
    ])
    const exported = (await request(service, 'GET', '/v1/users/carol/export')).text.split('\n').filter((l) => l !== '')
    expect(exported.filter((l) => JSON.parse(l).type === 'observation')).toHaveLength(1000)
  })

  it("forgets alice: a raw scan of the LevelDB store finds no key or value naming her, and bob's recommendations are unchanged", async () => {
    const dataDir = await tempDir('dm-e2e-')
    const service = await start(dataDir)
    const posts = []
    for (let i = 0; i < 12; i++) {
      for (const user of ['alice', 'bob']) {
        const choice = (user === 'alice') === i < 8 ? 'Tier S' : 'Tier L'
        const timestamp = new Date(Date.UTC(2025, 0, 1 + i)).toISOString()
        posts.push({ ...TIER, user, user_choice: choice, decision_id: `${user}-t-${i}`, project: `${user}/repo`, session_id: `${user}-${i % 3}`, context: { phase: 'run' }, timestamp })
        posts.push({ ...METHOD, user, user_choice: i % 3 === 0 ? 'DDD' : 'TDD', decision_id: `${user}-m-${i}`, session_id: `${user}-${i % 3}`, timestamp })
      }
    }
    expect((await request(service, 'POST', '/v1/observations', posts)).status).toBe(201)
    await request(service, 'POST', '/v1/sessions', { user: 'alice', session_id: 'shared-id' })
    await request(service, 'POST', '/v1/sessions', { user: 'bob', session_id: 'shared-id' })
    await request(service, 'PUT', '/v1/sessions/alice-0/personalization', { user: 'alice', enabled: false })
    // as_of fixes the moment (R-REC-9), so that the answers before and after can be compared whole.
    const as_of = '2025-06-01T00:00:00.000Z'
    const asked = [
      { ...TIER, user: 'bob', project: 'bob/repo', context: { phase: 'run' }, as_of },
      { ...METHOD, user: 'bob', as_of },
    ]
    const before = await Promise.all(asked.map((r) => request(service, 'POST', '/v1/recommendations', r)))

    const forgotten = await request(service, 'DELETE', '/v1/users/alice')
    expect(forgotten.status).toBe(200)
    expect(forgotten.body.deleted).toBeGreaterThan(48)
    const after = await Promise.all(asked.map((r) => request(service, 'POST', '/v1/recommendations', r)))
    expect(after.map((a) => a.body)).toEqual(before.map((b) => b.body))
    expect(after[0]?.body.observations).toBe(12)
    await service.stop()

    const db = new Level<string, string>(dataDir)
    const naming: string[] = []
    let entries = 0
    for await (const [key, value] of db.iterator()) {
      entries++
      if (key.includes('alice') || value.includes('alice')) naming.push(JSON.stringify(key))
    }
    await db.close()
    expect(naming).toEqual([])
    expect(entries).toBeGreaterThan(48)
  })

  it('runs preferences, export and forget as commands, through the service and on the store alone', async () => {
    const dataDir = await tempDir('dm-e2e-')
    const service = await start(dataDir)
    const env = { DECISION_MEMORY_URL: service.url }
    for (let i = 0; i < 5; i++) await request(service, 'POST', '/v1/observations', { ...TIER, user: 'dave', user_choice: 'Tier L', decision_id: `d-${i}` })

    const preferences = await runCli(['preferences', '--user', 'dave'], env)
    expect(preferences.code).toBe(0)
    expect(preferences.stdout).toMatch(/^complexity-tier: Tier L 100%/)
    const exported = await runCli(['export', '--user', 'dave'], env)
    expect(exported.code).toBe(0)
    expect(exported.stdout.split('\n').filter((l) => l.includes('"type":"observation"'))).toHaveLength(5)
    expect((await runCli(['forget', '--user', 'dave'], env)).code).toBe(2)
    // Hook events of dave's waiting in this machine's spool: forget reaches them too.
    const spool = join(await tempDir('dm-spool-'), 'spool.ndjson')
    const spooled = (user: string, id: string) => JSON.stringify({ at: '2026-07-01T10:00:00.000Z', user, payload: { id } }) + '\n'
    await writeFile(spool, spooled('dave', 'a') + spooled('erin', 'b') + spooled('dave', 'c'))
    const forgotten = await runCli(['forget', '--user', 'dave', '--yes', '--json'], { ...env, DECISION_MEMORY_SPOOL: spool })
    // 5 observations and their 5 idempotency keys, and what derives from them (recall, core).
    expect(JSON.parse(forgotten.stdout)).toMatchObject({ user: 'dave', spooled: 2 })
    expect(JSON.parse(forgotten.stdout).deleted).toBeGreaterThan(10)
    expect(await readFile(spool, 'utf8')).toBe(spooled('erin', 'b'))
    await service.stop()

    // No service: the commands open the store themselves.
    const offline = { DECISION_MEMORY_URL: service.url }
    const local = await runCli(['export', '--user', 'dave', '--data', dataDir], offline)
    expect(local.code).toBe(0)
    expect(JSON.parse(local.stdout.trim().split('\n').pop() as string)).toEqual({ type: 'end', counts: { observation: 0, session: 0, aggregate: 0, entry: 0 } })
    expect((await runCli(['preferences', '--user', '!x', '--data', dataDir], offline)).code).toBe(2)
    // A file it cannot write: one line naming it and why, exit 1, no stack.
    const nowhere = join(dataDir, 'no-such-folder', 'dave.ndjson')
    const unwritable = await runCli(['export', '--user', 'dave', '--data', dataDir, '--out', nowhere], offline)
    expect(unwritable).toMatchObject({ code: 1, stdout: '', stderr: `decision-memory export: cannot write ${nowhere}: there is no folder ${join(dataDir, 'no-such-folder')} (ENOENT)\n` })
    // A file that is there already, readable by others, is made the user's alone before the data goes in.
    const existing = join(dataDir, 'dave.ndjson')
    await writeFile(existing, 'old\n', { mode: 0o644 })
    await chmod(existing, 0o644)
    expect((await runCli(['export', '--user', 'dave', '--data', dataDir, '--out', existing], offline)).code).toBe(0)
    expect((await stat(existing)).mode & 0o777).toBe(0o600)
    expect(await readFile(existing, 'utf8')).toContain('"type":"end"')
  })
})

describe('export --out a file of another account', () => {
  // Only root can give a file to another account; elsewhere the case cannot be made.
  it.skipIf(process.getuid?.() !== 0)('is refused, exit 1, and nothing written into it: its owner would read the export', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-export-'))
    try {
      const planted = join(dir, 'alice.ndjson')
      await writeFile(planted, '')
      await chmod(planted, 0o666)
      await chown(planted, 65534, 65534)
      const { store } = await openStores(join(dir, 'data'))
      await store.close()
      const result = await runCli(['export', '--user', 'alice', '--data', join(dir, 'data'), '--out', planted], { DECISION_MEMORY_URL: 'http://127.0.0.1:9' })
      expect(result).toMatchObject({ code: 1, stdout: '' })
      expect(result.stderr).toBe(`decision-memory export: will not write ${planted}: it belongs to another account (uid 65534), which could read the export; remove it, or give --out a path of your own\n`)
      expect(await readFile(planted, 'utf8')).toBe('')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('auth on the real service (R-SVC-4)', () => {
  const ALICE = 'alice-secret-token-7f3a9c2e1b'
  const BOB = 'bob-secret-token-4d8e6a0f5c'
  const WRONG = 'mallory-guess-token-1a2b3c4d5e'

  it('needs a token, keeps users apart, and never logs a token', async () => {
    const dataDir = await tempDir('dm-e2e-')
    const tokensFile = join(await tempDir('dm-tokens-'), 'tokens.json')
    await writeFile(
      tokensFile,
      JSON.stringify({ tokens: [{ name: 'alice-laptop', token: ALICE, users: ['alice'] }, { name: 'bob-laptop', token: BOB, users: ['bob'] }] }),
    )
    const service = await start(dataDir, ['--auth', tokensFile])
    expect((await request(service, 'GET', '/healthz')).status).toBe(200)
    expect((await request(service, 'GET', '/v1/users/alice/preferences')).status).toBe(401)
    expect((await request(service, 'GET', '/v1/users/alice/preferences', undefined, WRONG)).status).toBe(401)
    expect((await request(service, 'POST', '/v1/observations', { ...TIER, user: 'alice', user_choice: 'Tier S' }, ALICE)).status).toBe(201)
    expect((await request(service, 'POST', '/v1/observations', { ...TIER, user: 'bob', user_choice: 'Tier S' }, BOB)).status).toBe(201)
    expect((await request(service, 'GET', '/v1/users/alice/preferences', undefined, ALICE)).status).toBe(200)
    expect((await request(service, 'GET', '/v1/users/bob/preferences', undefined, ALICE)).status).toBe(403)
    expect((await request(service, 'GET', '/v1/users/bob/export', undefined, ALICE)).status).toBe(403)
    expect((await request(service, 'DELETE', '/v1/users/bob', undefined, ALICE)).status).toBe(403)
    expect((await request(service, 'POST', '/v1/recommendations', { ...TIER, user: 'bob' }, ALICE)).status).toBe(403)
    const cli = await runCli(['preferences', '--user', 'alice', '--json'], { DECISION_MEMORY_URL: service.url, DECISION_MEMORY_TOKEN: ALICE })
    expect(JSON.parse(cli.stdout).points).toHaveLength(1)
    await service.stop()

    const logs = service.output()
    expect(logs).toContain('"status":403')
    expect(logs).toContain('"status":401')
    for (const token of [ALICE, BOB, WRONG]) expect(logs).not.toContain(token)
    expect(logs).not.toContain('secret-token')
  })

  it('refuses to start on a non-loopback address without a tokens file', async () => {
    const result = await runCli(['serve', '--host', '0.0.0.0', '--port', '0', '--data', await tempDir('dm-e2e-')])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--host 0.0.0.0 is not a loopback address: give --auth TOKENS_FILE')
  })

  it('refuses to start with a broken tokens file, naming the field and not the token', async () => {
    const tokensFile = join(await tempDir('dm-tokens-'), 'tokens.json')
    await writeFile(tokensFile, JSON.stringify({ tokens: [{ name: 'a', token: 'short-secret', users: ['a'] }] }))
    const result = await runCli(['serve', '--port', '0', '--auth', tokensFile, '--data', await tempDir('dm-e2e-')])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('tokens.0.token')
    expect(result.stderr).not.toContain('short-secret')
  })
})
