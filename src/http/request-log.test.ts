import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
import { REQUEST_STARTED, requestIdFor } from './request-log'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('request ids', () => {
  it("keep the caller's id when it is at most 255 word characters, '-' or '='; a new UUID otherwise", () => {
    expect(requestIdFor('orchestrator-7=')).toBe('orchestrator-7=')
    expect(requestIdFor('a'.repeat(255))).toBe('a'.repeat(255))
    for (const sent of [undefined, '', 'a'.repeat(256), 'two words', 'semi;colon', 'é']) expect(requestIdFor(sent)).toMatch(UUID)
    expect(requestIdFor(undefined)).not.toBe(requestIdFor(undefined))
  })

  it('are answered in X-Request-Id, in error bodies, and logged with the request, never its body or headers', async () => {
    const lines: Array<Record<string, unknown>> = []
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
    const { app } = await createTestApp({ logger })
    const ok = await app.request('/healthz', { headers: { 'x-request-id': 'probe-1' } })
    expect(ok.headers.get('x-request-id')).toBe('probe-1')
    const bad = await app.request('/v1/observations', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer secret-token' },
      body: JSON.stringify({ user: 'alice', question: 'Which tier?' }),
    })
    expect(bad.status).toBe(400)
    const id = bad.headers.get('x-request-id')
    expect(id).toMatch(UUID)
    expect(((await bad.json()) as { error: { request_id: string } }).error.request_id).toBe(id)
    expect(lines.map(({ req_id, method, path, status, msg }) => ({ req_id, method, path, status, msg }))).toEqual([
      { req_id: 'probe-1', method: 'GET', path: '/healthz', status: 200, msg: 'request' },
      { req_id: id, method: 'POST', path: '/v1/observations', status: 400, msg: 'request' },
    ])
    expect(JSON.stringify(lines)).not.toMatch(/secret-token|Which tier/)
  })

  it('measure a request from when it began, when a path before the app read its body (first-path.ts)', async () => {
    const lines: Array<Record<string, unknown>> = []
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
    const { app } = await createTestApp({ logger })
    await app.request('/healthz', {}, { incoming: { [REQUEST_STARTED]: performance.now() - 5_000 } })
    await app.request('/healthz')
    expect(lines.map((l) => l.ms as number)).toEqual([expect.any(Number), expect.any(Number)])
    expect(lines[0]?.ms).toBeGreaterThanOrEqual(5_000)
    expect(lines[1]?.ms).toBeLessThan(5_000)
  })
})
