import { mkdtemp } from 'node:fs/promises'
import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { closedPort } from '../../test/support/processes'
import { errorMessage, ServiceUnavailableError, throughServiceOrLocal } from './service-client'

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('throughServiceOrLocal when no service runs', () => {
  it('answers concurrent calls of one process from the store, one after the other', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const dataDir = await mkdtemp(join(tmpdir(), 'dm-local-'))
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

  it('still answers the next call after one fails', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const dataDir = await mkdtemp(join(tmpdir(), 'dm-local-'))
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

  it('names the URL and the cause when the connection is cut, instead of "fetch failed"', async () => {
    const service = await serving((req) => req.socket.destroy())
    try {
      const error = await call().catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ServiceUnavailableError)
      expect((error as Error).message).toMatch(new RegExp(`^POST ${service.url}/v1/recommendations: the request failed: \\w+`))
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
  })
})
