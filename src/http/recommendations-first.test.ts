import { Hono } from 'hono'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
import { createTokenTable, TokensFileSchema } from '../config/load-tokens'
import type { DecisionMemory } from '../decision-memory'
import { RecommendationRequestSchema } from '../domain/recommendation'
import { InputError } from '../domain/errors'
import { createErrorHandler } from './errors'
import { answerRememberedFirst, validBodies } from './recommendations'

const TIER = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }
const ALICE = 'alice-token-0123456789abcdef'
const OPS = 'ops-token-0123456789abcdef'
const auth = createTokenTable(
  TokensFileSchema.parse({
    tokens: [
      { name: 'alice-laptop', token: ALICE, users: ['alice'] },
      { name: 'ops', token: OPS, users: ['*'] },
    ],
  }),
)
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** Log lines as objects, from a logger that writes into an array. */
function capturedLogger() {
  const lines: Array<Record<string, unknown>> = []
  return { lines, logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }) }
}

/** A JSON POST as an HTTP/1.1 client sends it: with its Content-Length (app.request() adds none). */
function post(text: string, headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers },
    body: text,
  }
}

/**
 * The fast path alone in front of a stand-in for the chain, which answers 418 with the body's text
 * and whether the fast path had read it: which of the two answered shows.
 */
async function firstOnly(options: { auth?: typeof auth; recommendJson?: DecisionMemory['recommendJson'] } = {}) {
  const { memory } = await createTestApp()
  const bodies = validBodies()
  const { lines, logger } = capturedLogger()
  const app = new Hono()
  const recommendJson = options.recommendJson ?? memory.recommendJson
  const onError = createErrorHandler(logger)
  app.use('/v1/recommendations', answerRememberedFirst({ memory: { ...memory, recommendJson }, bodies, logger, onError, auth: options.auth }))
  app.all('*', async (c) => {
    const read = c.req.raw.bodyUsed
    return c.json({ read, text: await c.req.text() }, 418)
  })
  const remember = (body: unknown, type = 'application/json') => {
    const text = JSON.stringify(body)
    bodies.remember(type, text, RecommendationRequestSchema.parse(body))
    return text
  }
  return { app, memory, lines, remember }
}

describe('a recommendation asked with a body remembered valid, answered before the middleware chain', () => {
  it('answers the use case’s answer, with a request id in the header and the log line', async () => {
    const { app, memory, lines, remember } = await firstOnly()
    const text = remember({ ...TIER, user: 'alice' })
    const response = await app.request('/v1/recommendations', post(text))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(await response.text()).toBe(JSON.stringify(await memory.recommend(RecommendationRequestSchema.parse({ ...TIER, user: 'alice' }))))
    const id = response.headers.get('x-request-id')
    expect(id).toMatch(UUID)
    expect(lines).toEqual([expect.objectContaining({ msg: 'request', req_id: id, method: 'POST', path: '/v1/recommendations', status: 200, ms: expect.any(Number) })])
  })

  it("keeps the caller's X-Request-Id when it is a plausible one, as the chain does", async () => {
    const { app, lines, remember } = await firstOnly()
    const text = remember({ ...TIER, user: 'alice' })
    const kept = await app.request('/v1/recommendations', post(text, { 'x-request-id': 'orchestrator-42=' }))
    expect(kept.headers.get('x-request-id')).toBe('orchestrator-42=')
    const replaced = await app.request('/v1/recommendations', post(text, { 'x-request-id': 'has a space' }))
    expect(replaced.headers.get('x-request-id')).toMatch(UUID)
    expect(lines.map((l) => l.req_id)).toEqual(['orchestrator-42=', replaced.headers.get('x-request-id')])
  })

  it('leaves to the chain a body not remembered, or remembered under another content type, and logs nothing itself', async () => {
    const { app, lines, remember } = await firstOnly()
    const text = remember({ ...TIER, user: 'alice' })
    const other = JSON.stringify({ ...TIER, user: 'bob' })
    const unknown = await app.request('/v1/recommendations', post(other))
    expect(unknown.status).toBe(418)
    // The chain still reads the body: hono keeps the text read first.
    expect(((await unknown.json()) as { text: string }).text).toBe(other)
    expect((await app.request('/v1/recommendations', post(text, { 'content-type': 'application/json; charset=utf-8' }))).status).toBe(418)
    expect(lines).toEqual([])
  })

  it('does not read a body of unknown length, too long to be remembered, or not JSON, nor any method but POST', async () => {
    const { app, remember } = await firstOnly()
    const text = remember({ ...TIER, user: 'alice' })
    const chunked = new Request('http://localhost/v1/recommendations', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Blob([text]).stream(),
      duplex: 'half',
    } as RequestInit)
    const unread = async (response: Response) => {
      expect(response.status).toBe(418)
      expect(((await response.json()) as { read: boolean }).read).toBe(false)
    }
    await unread(await app.request(chunked))
    await unread(await app.request('/v1/recommendations', post(text, { 'content-length': String(300 * 1024) })))
    await unread(await app.request('/v1/recommendations', post(text, { 'content-type': 'text/plain' })))
    await unread(await app.request('/v1/recommendations', { ...post(text), method: 'PUT' }))
    expect((await app.request('/v1/recommendations')).status).toBe(418)
  })

  it('with auth: answers only a token that may act for the user; any other request is the chain’s (its 401 or 403)', async () => {
    const { app, remember } = await firstOnly({ auth })
    const alice = remember({ ...TIER, user: 'alice' })
    const bob = remember({ ...TIER, user: 'bob' })
    const unnamed = remember(TIER)
    expect((await app.request('/v1/recommendations', post(alice, { authorization: `Bearer ${ALICE}` }))).status).toBe(200)
    expect((await app.request('/v1/recommendations', post(bob, { authorization: `Bearer ${OPS}` }))).status).toBe(200)
    expect((await app.request('/v1/recommendations', post(bob, { authorization: `Bearer ${ALICE}` }))).status).toBe(418)
    // A body without a user acts for `default`, which alice's token may not.
    expect((await app.request('/v1/recommendations', post(unnamed, { authorization: `Bearer ${ALICE}` }))).status).toBe(418)
    expect((await app.request('/v1/recommendations', post(alice))).status).toBe(418)
    expect((await app.request('/v1/recommendations', post(alice, { authorization: 'Bearer not-a-token-0123456789' }))).status).toBe(418)
  })

  it('leaves to the chain a request with a query string, which may name users', async () => {
    const { app, remember } = await firstOnly()
    const text = remember({ ...TIER, user: 'alice' })
    expect((await app.request('/v1/recommendations?user=bob', post(text))).status).toBe(418)
  })

  it('with auth: leaves a request without a known token to the chain before reading its body', async () => {
    const { app, remember } = await firstOnly({ auth })
    const text = remember({ ...TIER, user: 'alice' })
    const attempts: Array<Record<string, string>> = [{}, { authorization: 'Bearer not-a-token-0123456789' }, { authorization: ALICE }]
    for (const headers of attempts) {
      const response = await app.request('/v1/recommendations', post(text, headers))
      expect(response.status).toBe(418)
      expect(((await response.json()) as { read: boolean }).read).toBe(false)
    }
  })

  it('answers an error of the use case as the app’s error handler does, asking the use case once', async () => {
    let calls = 0
    const { app, lines, remember } = await firstOnly({
      recommendJson: () => {
        calls++
        return Promise.reject(calls === 1 ? new Error('the store is closed') : new InputError('timestamp_in_future', 'as_of is in the future'))
      },
    })
    const text = remember({ ...TIER, user: 'alice' })
    const failed = await app.request('/v1/recommendations', post(text, { 'x-request-id': 'run-7' }))
    expect(failed.status).toBe(500)
    expect(failed.headers.get('x-request-id')).toBe('run-7')
    expect(((await failed.json()) as { error: unknown }).error).toEqual({
      code: 'internal_error',
      message: 'internal error: this is a bug, please report it',
      issues: [],
      request_id: 'run-7',
    })
    expect(calls).toBe(1)
    expect(lines.map(({ msg, req_id, status }) => ({ msg, req_id, status }))).toEqual([
      { msg: 'unhandled error', req_id: 'run-7', status: undefined },
      { msg: 'request', req_id: 'run-7', status: 500 },
    ])
    const refused = await app.request('/v1/recommendations', post(text))
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { error: { code: string; request_id: string } }).error).toMatchObject({
      code: 'timestamp_in_future',
      request_id: refused.headers.get('x-request-id'),
    })
  })

  it('answers a body that cannot be read (the client went away) as the chain does: 500 under its request id, logged', async () => {
    const { app, lines, remember } = await firstOnly()
    const text = remember({ ...TIER, user: 'alice' })
    const aborted = new Request('http://localhost/v1/recommendations', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(text.length), 'x-request-id': 'gone-1' },
      body: new ReadableStream({ pull: (controller) => controller.error(new Error('aborted')) }),
      duplex: 'half',
    } as RequestInit)
    const response = await app.request(aborted)
    expect(response.status).toBe(500)
    expect(response.headers.get('x-request-id')).toBe('gone-1')
    expect(lines.map(({ msg, req_id }) => ({ msg, req_id }))).toEqual([
      { msg: 'unhandled error', req_id: 'gone-1' },
      { msg: 'request', req_id: 'gone-1' },
    ])
  })
})

describe('the app with the first path: the same answers as the chain', () => {
  it('answers a body asked again exactly as the first time, with one log line per request', async () => {
    const { lines, logger } = capturedLogger()
    const { app } = await createTestApp({ logger })
    const text = JSON.stringify({ ...TIER, user: 'alice' })
    const first = await app.request('/v1/recommendations', post(text))
    const again = await app.request('/v1/recommendations', post(text))
    expect([first.status, again.status]).toEqual([200, 200])
    expect(await again.text()).toBe(await first.text())
    for (const response of [first, again]) expect(response.headers.get('content-type')).toBe('application/json')
    const ids = [first.headers.get('x-request-id'), again.headers.get('x-request-id')]
    expect(ids[0]).toMatch(UUID)
    expect(ids[1]).toMatch(UUID)
    expect(ids[1]).not.toBe(ids[0])
    expect(lines.map(({ req_id, method, path, status }) => ({ req_id, method, path, status }))).toEqual(
      ids.map((req_id) => ({ req_id, method: 'POST', path: '/v1/recommendations', status: 200 })),
    )
  })

  it('with auth: a body remembered from an allowed token still gets 403 for a token that may not act for its user, and 401 without one', async () => {
    const { app } = await createTestApp({ auth })
    const text = JSON.stringify({ ...TIER, user: 'bob' })
    expect((await app.request('/v1/recommendations', post(text, { authorization: `Bearer ${OPS}` }))).status).toBe(200)
    expect((await app.request('/v1/recommendations', post(text, { authorization: `Bearer ${OPS}` }))).status).toBe(200)
    const refused = await app.request('/v1/recommendations', post(text, { authorization: `Bearer ${ALICE}` }))
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { error: { code: string; request_id: string } }).error).toMatchObject({
      code: 'forbidden',
      request_id: refused.headers.get('x-request-id'),
    })
    expect((await app.request('/v1/recommendations', post(text))).status).toBe(401)
  })

  it('with auth: a user named in the query is checked too (403), as the chain checks it', async () => {
    const { app } = await createTestApp({ auth })
    const text = JSON.stringify({ ...TIER, user: 'alice' })
    const asAlice = { authorization: `Bearer ${ALICE}` }
    expect((await app.request('/v1/recommendations', post(text, asAlice))).status).toBe(200)
    expect((await app.request('/v1/recommendations', post(text, asAlice))).status).toBe(200)
    expect((await app.request('/v1/recommendations?user=bob', post(text, asAlice))).status).toBe(403)
  })
})
