import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { captured } from '../../test/support/captured'
import { openStores } from '../open-store'
import { describeToggle, startedByToggle, toggleCommand } from './toggle'

describe('decision-memory toggle, its sentence', () => {
  it('says the setting, the session and its user', () => {
    expect(describeToggle({ session_id: 's-1', personalization: false, user: 'alice' })).toBe('personalization off for session s-1 (user alice)')
  })

  it('quotes a session or user spaced at its ends, stored so before writes refused one, as the service quotes a name', () => {
    expect(describeToggle({ session_id: ' s-1', personalization: false, user: 'carol ' })).toBe('personalization off for session " s-1" (user "carol ")')
  })

  it('shows a user named with bidirectional controls escaped, as why and preferences do', () => {
    // The store's user, printed when --user is not given: "ev\u202eil" would show reordered.
    expect(describeToggle({ session_id: 's-1', personalization: true, user: 'ev\u202eil' })).toBe('personalization on for session s-1 (user ev\\u202eil)')
  })
})

/** The stores made for a test, removed after it, with the environment it stubbed. */
const dirs: string[] = []
afterEach(async () => {
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

/**
 * A store in a folder of its own, with alice's session s-1 started as the agent starts it, and no
 * service at the URL, so that the command opens the store itself.
 */
async function storeWithSession(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dm-toggle-'))
  dirs.push(dir)
  const data = join(dir, 'data')
  const { store } = await openStores(data)
  await store.startSession({ session_id: 's-1', user: 'alice', project: '/home/dev/acme', started_at: '2026-07-01T10:00:00.000Z', personalization: true })
  await store.close()
  vi.stubEnv('DECISION_MEMORY_URL', 'http://127.0.0.1:9')
  vi.stubEnv('DECISION_MEMORY_USER', '')
  return data
}

describe('decision-memory toggle of a session id no event named', () => {

  it('starts it, as the route does, and says on stderr that no session of that id had been seen', async () => {
    const data = await storeWithSession()
    const typo = await captured(() => toggleCommand(['--session', 's-l', '--user', 'alice', '--off', '--data', data]))
    expect(typo.code).toBe(0)
    expect(typo.stdout).toBe('personalization off for session s-l (user alice)\n')
    expect(typo.stderr).toBe(
      "decision-memory toggle: no session s-l of user alice had been seen, so the toggle started it (it counts among alice's sessions): if the id is mistyped, no session of the agent was changed\n",
    )
    // Started: it counts among alice's sessions, as the route's toggle makes it count.
    const json = await captured(() => toggleCommand(['--session', 's-l', '--user', 'alice', '--on', '--json', '--data', data]))
    expect(JSON.parse(json.stdout)).toMatchObject({ session_id: 's-l', personalization: true, expertise: { sessions: 2 } })
    // Toggled again, it is a session the toggle found, said as any other.
    expect(json.stderr).toBe('')
  })

  it('says it once: a toggle repeated with the setting the session has, which adds no toggle, found the session', async () => {
    const data = await storeWithSession()
    for (const flag of ['--off', '--on']) {
      const first = await captured(() => toggleCommand(['--session', `s-${flag}`, '--user', 'alice', flag, '--data', data]))
      expect(first.stderr).toContain(`no session s-${flag} of user alice had been seen`)
      const again = await captured(() => toggleCommand(['--session', `s-${flag}`, '--user', 'alice', flag, '--data', data]))
      expect(again.code).toBe(0)
      expect(again.stdout).toBe(`personalization ${flag.slice(2)} for session s-${flag} (user alice)\n`)
      expect(again.stderr).toBe('')
    }
  })

  it('says nothing of a session started without a project at the moment it is toggled, as POST /v1/sessions starts one', async () => {
    const data = await storeWithSession()
    const { store } = await openStores(data)
    // Started in no project, and already toggled once at its start: all the toggle's answer can see.
    await store.startSession({ session_id: 's-2', user: 'alice', project: null, started_at: '2026-07-01T10:00:00.000Z', personalization: false, toggles: [{ at: '2026-07-01T10:00:00.000Z', enabled: false }] })
    await store.close()
    const { code, stderr } = await captured(() => toggleCommand(['--session', 's-2', '--off', '--data', data]))
    expect(code).toBe(0)
    expect(stderr).toBe('')
  })

  it('says nothing more of a session the agent started', async () => {
    const data = await storeWithSession()
    const { code, stdout, stderr } = await captured(() => toggleCommand(['--session', 's-1', '--off', '--data', data]))
    expect(code).toBe(0)
    expect(stdout).toBe('personalization off for session s-1 (user alice)\n')
    expect(stderr).toBe('')
  })

  it('tells a session a toggle started by its one toggle at its start, in no project', () => {
    const started = { session_id: 's-1', user: 'alice', personalization: false, project: null, started_at: '2026-07-01T10:00:00.000Z', toggles: [{ at: '2026-07-01T10:00:00.000Z' }] }
    expect(startedByToggle(started)).toBe(true)
    expect(startedByToggle({ ...started, project: '/home/dev/acme' })).toBe(false)
    expect(startedByToggle({ ...started, started_at: '2026-07-01T09:00:00.000Z' })).toBe(false)
    expect(startedByToggle({ ...started, toggles: [{ at: '2026-07-01T10:00:00.000Z' }, { at: '2026-07-01T11:00:00.000Z' }] })).toBe(false)
    const { toggles: _toggles, ...never } = started
    expect(startedByToggle(never)).toBe(false)
  })
})

describe('decision-memory toggle --show', () => {

  it('prints the setting and changes nothing, as often as it is asked', async () => {
    const data = await storeWithSession()
    for (let i = 0; i < 2; i++) {
      const { code, stdout, stderr } = await captured(() => toggleCommand(['--session', 's-1', '--show', '--data', data]))
      expect([code, stdout, stderr]).toEqual([0, 'personalization on for session s-1 (user alice)\n', ''])
    }
    await captured(() => toggleCommand(['--session', 's-1', '--off', '--data', data]))
    const json = await captured(() => toggleCommand(['--session', 's-1', '--user', 'alice', '--show', '--json', '--data', data]))
    expect(JSON.parse(json.stdout)).toMatchObject({ session_id: 's-1', user: 'alice', personalization: false, expertise: { sessions: 1 } })
  })

  it('says a session id not seen, exit 1, and starts no session for it', async () => {
    const data = await storeWithSession()
    const typo = await captured(() => toggleCommand(['--session', 's-l', '--show', '--data', data]))
    expect(typo).toEqual({ code: 1, stdout: '', stderr: 'decision-memory toggle: no session s-l has been seen: is the id right? (--show starts no session)\n' })
    const bobs = await captured(() => toggleCommand(['--session', 's-1', '--user', 'bob', '--show', '--data', data]))
    expect(bobs.stderr).toBe('decision-memory toggle: no session s-1 of user bob has been seen: is the id right? (--show starts no session)\n')
    // Still one session of alice's, and s-l none.
    const json = await captured(() => toggleCommand(['--session', 's-1', '--show', '--json', '--data', data]))
    expect(JSON.parse(json.stdout).expertise.sessions).toBe(1)
    expect((await captured(() => toggleCommand(['--session', 's-l', '--show', '--data', data]))).code).toBe(1)
  })

  it('is refused beside --on or --off, before anything is asked', async () => {
    await expect(toggleCommand(['--session', 's-1', '--show', '--off'])).rejects.toThrow('--show reads the setting, changing nothing: give it without --off')
    await expect(toggleCommand(['--session', 's-1', '--on', '--show'])).rejects.toThrow('--show reads the setting, changing nothing: give it without --on')
  })
})

describe('decision-memory toggle through a service, whether the session was there before', () => {
  afterEach(() => {
    vi.restoreAllMocks()
    vi.unstubAllEnvs()
  })

  /** What a toggle that started s-l answers: one toggle, at its start, in no project. */
  const started = { session_id: 's-l', user: 'alice', personalization: false, project: null, started_at: '2026-07-01T10:00:00.000Z', toggles: [{ at: '2026-07-01T10:00:00.000Z', enabled: false }] }

  /** A service that answers the read as `get` says and the toggle with `started`; the requests it was sent. */
  async function service(get: { status: number; body: unknown }, run: () => Promise<void>): Promise<string[]> {
    const seen: string[] = []
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`)
      const [status, body] = req.method === 'GET' ? [get.status, get.body] : [200, started]
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    })
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    vi.stubEnv('DECISION_MEMORY_USER', '')
    try {
      await run()
    } finally {
      server.closeAllConnections()
      await new Promise<void>((done) => server.close(() => done()))
    }
    return seen
  }

  const toggle = () => captured(() => toggleCommand(['--session', 's-l', '--user', 'alice', '--off']))
  const note = "decision-memory toggle: no session s-l of user alice had been seen, so the toggle started it (it counts among alice's sessions): if the id is mistyped, no session of the agent was changed\n"

  it('reads the session, then toggles it: said started when the read found none, not when it found it', async () => {
    for (const [get, stderr] of [
      [{ status: 404, body: { error: { code: 'session_not_found', message: 'no session s-l of user alice has been seen' } } }, note],
      [{ status: 200, body: { ...started, toggles: [] } }, ''],
    ] as const) {
      let out: Awaited<ReturnType<typeof toggle>> | undefined
      const seen = await service(get, async () => {
        out = await toggle()
      })
      expect(seen).toEqual(['GET /v1/sessions/s-l/personalization?user=alice', 'PUT /v1/sessions/s-l/personalization'])
      expect(out).toMatchObject({ code: 0, stdout: 'personalization off for session s-l (user alice)\n', stderr })
    }
  })

  it('goes by the answer where the read tells neither: a service without the read, a token that may not read', async () => {
    for (const get of [
      { status: 404, body: { error: { code: 'not_found', message: 'no route GET /v1/sessions/s-l/personalization' } } },
      { status: 403, body: { error: { code: 'forbidden', message: 'this token may not read sessions' } } },
      { status: 401, body: { error: { code: 'unauthorized', message: 'no token' } } },
    ]) {
      let out: Awaited<ReturnType<typeof toggle>> | undefined
      const seen = await service(get, async () => {
        out = await toggle()
      })
      expect(seen).toEqual(['GET /v1/sessions/s-l/personalization?user=alice', 'PUT /v1/sessions/s-l/personalization'])
      // The answer is one toggle at its start, in no project: started by this toggle, and said so.
      expect(out).toMatchObject({ code: 0, stdout: 'personalization off for session s-l (user alice)\n', stderr: note })
    }
  })
})
