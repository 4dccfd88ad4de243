import { createServer, request as httpRequest, type IncomingMessage } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { getRequestListener } from '@hono/node-server'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
import { ALICE, OPS, testTokens as auth } from '../../test/support/tokens'
import type { DecisionMemory } from '../decision-memory'
import { InputError } from '../domain/errors'
import { RecommendationRequestSchema } from '../domain/recommendation'
import { answerRememberedFirst, type NodeListener } from './first-path'
import { validBodies } from './recommendations'

const TIER = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
/**
 * The Host the requests are sent with: the path answers only a Host @hono/node-server takes as it
 * is (a port of 4 or 5 digits under 60000: first-path.ts's PLAIN_HOST), and the port a test's
 * server is given may be over it (Linux gives one of 32768-60999), which left the request to the app.
 */
const HOST = '127.0.0.1:7420'

/** Log lines as objects, from a logger that writes into an array; `requestLogged` resolves at the first request line. */
function capturedLogger() {
  const lines: Array<Record<string, unknown>> = []
  let logged!: () => void
  const requestLogged = new Promise<void>((resolve) => (logged = resolve))
  const logger = pino({ level: 'info' }, {
    write: (line: string) => {
      lines.push(JSON.parse(line))
      if (lines.at(-1)?.msg === 'request') logged()
    },
  })
  return { lines, logger, requestLogged }
}

const servers: Array<{ close(): void }> = []
afterEach(() => {
  for (const server of servers.splice(0)) server.close()
})

/** A real HTTP server on a free loopback port, over a Node listener. */
async function listening(listener: NodeListener): Promise<string> {
  const server = createServer(listener)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

interface Sent {
  status: number
  headers: IncomingMessage['headers']
  text: string
}

/**
 * A request with exactly these headers (Content-Length as given, unlike fetch), the body sent in
 * one piece, or in chunks of unknown length with `chunked`.
 */
function send(url: string, options: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean }): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const body = options.body ?? ''
    const headers: Record<string, string> = { host: HOST, 'content-type': 'application/json', ...(options.chunked ? {} : { 'content-length': String(Buffer.byteLength(body)) }), ...options.headers }
    const req = httpRequest(`${url}${options.path ?? '/v1/recommendations'}`, { method: options.method ?? 'POST', headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode as number, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', reject)
    if (options.chunked) {
      req.write(body.slice(0, 10))
      req.end(body.slice(10))
    } else req.end(body)
  })
}

/**
 * The path alone in front of a stand-in for the app, which answers 418 with the body it was
 * handed (`rawBody`, read by the path) or read itself from the stream: which of the two answered,
 * and whether the path had read the body, shows.
 */
async function firstOnly(options: { auth?: typeof auth; recommendJson?: DecisionMemory['recommendJson'] } = {}) {
  const { memory } = await createTestApp()
  const bodies = validBodies()
  const { lines, logger } = capturedLogger()
  const handed: Array<{ rawBody: string | null }> = []
  const app: NodeListener = (req, res) => {
    const rawBody = (req as IncomingMessage & { rawBody?: Buffer }).rawBody
    handed.push({ rawBody: rawBody === undefined ? null : rawBody.toString('utf8') })
    const answer = (streamed: string) => {
      const json = JSON.stringify({ rawBody: rawBody?.toString('utf8') ?? null, streamed })
      res.writeHead(418, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) })
      res.end(json)
    }
    // As @hono/node-server does: a body read before is not read again from the stream.
    if (rawBody !== undefined) return answer('')
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => answer(Buffer.concat(chunks).toString('utf8')))
  }
  const recommendJson = options.recommendJson ?? memory.recommendJson
  const url = await listening(answerRememberedFirst({ memory: { ...memory, recommendJson }, bodies, logger, auth: options.auth }, app))
  const remember = (body: unknown, type = 'application/json') => {
    const text = JSON.stringify(body)
    bodies.remember(type, text, RecommendationRequestSchema.parse(body))
    return text
  }
  return { url, memory, lines, handed, remember }
}

describe('a recommendation asked with a body remembered valid, answered in front of the app', () => {
  it('answers the use case’s answer, with a request id in the header and the log line', async () => {
    const { url, memory, lines, handed, remember } = await firstOnly()
    const text = remember({ ...TIER, user: 'alice' })
    const response = await send(url, { body: text })
    expect(response.status).toBe(200)
    expect(response.headers['content-type']).toBe('application/json')
    expect(response.text).toBe(JSON.stringify(await memory.recommend(RecommendationRequestSchema.parse({ ...TIER, user: 'alice' }))))
    expect(Number(response.headers['content-length'])).toBe(Buffer.byteLength(response.text))
    const id = response.headers['x-request-id']
    expect(id).toMatch(UUID)
    expect(lines).toEqual([expect.objectContaining({ msg: 'request', req_id: id, method: 'POST', path: '/v1/recommendations', status: 200, ms: expect.any(Number) })])
    expect(handed).toEqual([])
  })

  it("keeps the caller's X-Request-Id when it is a plausible one, as the app does", async () => {
    const { url, lines, remember } = await firstOnly()
    const text = remember({ ...TIER, user: 'alice' })
    const kept = await send(url, { body: text, headers: { 'x-request-id': 'orchestrator-42=' } })
    expect(kept.headers['x-request-id']).toBe('orchestrator-42=')
    const replaced = await send(url, { body: text, headers: { 'x-request-id': 'has a space' } })
    expect(replaced.headers['x-request-id']).toMatch(UUID)
    expect(lines.map((l) => l.req_id)).toEqual(['orchestrator-42=', replaced.headers['x-request-id']])
  })

  it('hands the app a body not remembered, or remembered under another content type, with the body it read', async () => {
    const { url, lines, handed, remember } = await firstOnly()
    const text = remember({ ...TIER, user: 'alice' })
    const other = JSON.stringify({ ...TIER, user: 'bob' })
    const unknown = await send(url, { body: other })
    expect(unknown.status).toBe(418)
    expect(JSON.parse(unknown.text)).toEqual({ rawBody: other, streamed: '' })
    const otherType = await send(url, { body: text, headers: { 'content-type': 'application/json; charset=utf-8' } })
    expect(JSON.parse(otherType.text)).toEqual({ rawBody: text, streamed: '' })
    expect(handed).toHaveLength(2)
    expect(lines).toEqual([])
  })

  it('hands the app a body that is not UTF-8, though it would decode to a body remembered', async () => {
    const { url, handed, remember } = await firstOnly()
    // A client that sent U+FFFD itself; the same text with a Latin-1 byte in its place decodes to it.
    remember({ ...TIER, user: 'jos\uFFFD' })
    const latin1 = Buffer.from(JSON.stringify({ ...TIER, user: 'jos\u00e9' }), 'latin1')
    const response = await send(url, { body: latin1 })
    expect(response.status).toBe(418)
    expect(handed).toHaveLength(1)
  })

  it('leaves to the app, unread, a body remembered sent naming the store it is meant for, which the app checks', async () => {
    const { url, handed, remember } = await firstOnly()
    const text = remember({ ...TIER, user: 'alice' })
    const response = await send(url, { body: text, headers: { 'x-decision-memory-store': '0123456789abcdef0123456789abcdef' } })
    expect(response.status).toBe(418)
    expect(JSON.parse(response.text)).toEqual({ rawBody: null, streamed: text })
    expect(handed).toEqual([{ rawBody: null }])
  })

  it('without auth, leaves to the app, unread, a body remembered sent to another name than this machine’s or from a page of another site, which the app refuses (403)', async () => {
    const { url, handed, remember } = await firstOnly()
    const text = remember({ ...TIER, user: 'alice' })
    for (const headers of [{ host: 'attacker.example' }, { origin: 'https://attacker.example' }] as Array<Record<string, string>>) {
      const response = await send(url, { body: text, headers })
      expect(response.status).toBe(418)
      expect(JSON.parse(response.text)).toEqual({ rawBody: null, streamed: text })
    }
    expect(handed).toEqual([{ rawBody: null }, { rawBody: null }])
    expect((await send(url, { body: text, headers: { origin: `${url}` } })).status).toBe(200)
  })

  it('leaves to the app, unread, a body sent with a content-encoding, which the app refuses (415)', async () => {
    const { url, handed, remember } = await firstOnly()
    const text = remember({ ...TIER, user: 'alice' })
    const response = await send(url, { body: text, headers: { 'content-encoding': 'gzip' } })
    expect(response.status).toBe(418)
    expect(handed).toEqual([{ rawBody: null }])
  })

  it('does not read a body of unknown length, too long to be remembered, or not JSON, nor any other method or path', async () => {
    const { url, remember } = await firstOnly()
    const text = remember({ ...TIER, user: 'alice' })
    const unread = (response: Sent, streamed = text) => {
      expect(response.status).toBe(418)
      expect(JSON.parse(response.text)).toEqual({ rawBody: null, streamed })
    }
    unread(await send(url, { body: text, chunked: true }))
    const long = text + ' '.repeat(5000)
    unread(await send(url, { body: long }), long)
    unread(await send(url, { body: text, headers: { 'content-type': 'text/plain' } }))
    unread(await send(url, { body: text, method: 'PUT' }))
    // A query string may name users: the app checks them.
    unread(await send(url, { body: text, path: '/v1/recommendations?user=bob' }))
    unread(await send(url, { body: text, path: '/v1/recommendations/' }))
  })

  it('with auth: answers only a token that may act for the user; a request without a known token goes to the app unread', async () => {
    const { url, remember } = await firstOnly({ auth })
    const alice = remember({ ...TIER, user: 'alice' })
    const bob = remember({ ...TIER, user: 'bob' })
    const unnamed = remember(TIER)
    expect((await send(url, { body: alice, headers: { authorization: `Bearer ${ALICE}` } })).status).toBe(200)
    expect((await send(url, { body: bob, headers: { authorization: `Bearer ${OPS}` } })).status).toBe(200)
    // Read, then handed over: the app answers 403.
    expect(JSON.parse((await send(url, { body: bob, headers: { authorization: `Bearer ${ALICE}` } })).text)).toEqual({ rawBody: bob, streamed: '' })
    // A body without a user acts for `default`, which alice's token may not.
    expect(JSON.parse((await send(url, { body: unnamed, headers: { authorization: `Bearer ${ALICE}` } })).text)).toEqual({ rawBody: unnamed, streamed: '' })
    for (const headers of [{}, { authorization: 'Bearer not-a-token-0123456789' }, { authorization: ALICE }] as Array<Record<string, string>>) {
      expect(JSON.parse((await send(url, { body: alice, headers })).text)).toEqual({ rawBody: null, streamed: alice })
    }
  })

  it('answers an error of the use case as the app’s error handler does, asking the use case once', async () => {
    let calls = 0
    const { url, lines, handed, remember } = await firstOnly({
      recommendJson: () => {
        calls++
        return Promise.reject(calls === 1 ? new Error('the store is closed') : new InputError('timestamp_in_future', 'as_of is in the future'))
      },
    })
    const text = remember({ ...TIER, user: 'alice' })
    const failed = await send(url, { body: text, headers: { 'x-request-id': 'run-7' } })
    expect(failed.status).toBe(500)
    expect(failed.headers['x-request-id']).toBe('run-7')
    expect(JSON.parse(failed.text)).toEqual({
      error: { code: 'internal_error', message: 'internal error: this is a bug, please report it', issues: [], request_id: 'run-7' },
    })
    expect(calls).toBe(1)
    expect(lines.map(({ msg, req_id, status }) => ({ msg, req_id, status }))).toEqual([
      { msg: 'unhandled error', req_id: 'run-7', status: undefined },
      { msg: 'request', req_id: 'run-7', status: 500 },
    ])
    const refused = await send(url, { body: text })
    expect(refused.status).toBe(400)
    expect(JSON.parse(refused.text).error).toMatchObject({ code: 'timestamp_in_future', request_id: refused.headers['x-request-id'] })
    expect(handed).toEqual([])
  })

  it('answers a body the client stopped sending as the app does (400 body_incomplete, a warning under its id), never handing it over as whole', async () => {
    const { memory } = await createTestApp()
    const bodies = validBodies()
    const text = JSON.stringify({ ...TIER, user: 'alice' })
    bodies.remember('application/json', text, RecommendationRequestSchema.parse({ ...TIER, user: 'alice' }))
    const { lines, logger, requestLogged } = capturedLogger()
    let handed = 0
    let received!: () => void
    const firstChunk = new Promise<void>((resolve) => (received = resolve))
    const path = answerRememberedFirst({ memory, bodies, logger }, (_req, res) => {
      handed++
      res.destroy()
    })
    const url = await listening((req, res) => {
      req.once('data', () => received())
      path(req, res)
    })
    const req = httpRequest(`${url}/v1/recommendations`, { method: 'POST', headers: { host: HOST, 'content-type': 'application/json', 'content-length': String(text.length), 'x-request-id': 'gone-1' } })
    req.on('error', () => {})
    req.write(text.slice(0, 20))
    await firstChunk
    req.destroy()
    await requestLogged
    expect(handed).toBe(0)
    expect(lines.map(({ level, msg, req_id, status }) => ({ level, msg, req_id, status }))).toEqual([
      { level: 40, msg: 'the client stopped sending its body', req_id: 'gone-1', status: undefined },
      { level: 30, msg: 'request', req_id: 'gone-1', status: 400 },
    ])
  })

  it('leaves to the app, unread, a repeated Content-Type, Authorization or Host, and a Host the app checks further', async () => {
    const { url, remember } = await firstOnly({ auth })
    const text = remember({ ...TIER, user: 'alice' })
    const unread = (response: Sent) => {
      expect(response.status).toBe(418)
      expect(JSON.parse(response.text)).toEqual({ rawBody: null, streamed: text })
    }
    const rawRequest = (headers: string[]) =>
      new Promise<Sent>((resolve, reject) => {
        const { port } = new URL(url)
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.end(['POST /v1/recommendations HTTP/1.1', ...headers, `Content-Length: ${Buffer.byteLength(text)}`, 'Connection: close', '', text].join('\r\n'))
        })
        const chunks: Buffer[] = []
        socket.on('data', (c: Buffer) => chunks.push(c))
        socket.on('error', reject)
        socket.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8')
          const [head, ...rest] = raw.split('\r\n\r\n')
          resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(head as string)?.[1]), headers: {}, text: rest.join('\r\n\r\n') })
        })
      })
    const host = `Host: ${HOST}`
    const alice = `Authorization: Bearer ${ALICE}`
    expect((await rawRequest([host, 'Content-Type: application/json', alice])).status).toBe(200)
    unread(await rawRequest([host, 'Content-Type: application/json', alice, `Authorization: Bearer ${OPS}`]))
    unread(await rawRequest([host, 'Content-Type: application/json', 'Content-Type: text/plain', alice]))
    unread(await rawRequest([host, 'host: attacker.example', 'Content-Type: application/json', alice]))
    unread(await rawRequest(['Host: Example.COM', 'Content-Type: application/json', alice]))
    unread(await rawRequest(['Host: a b', 'Content-Type: application/json', alice]))
  })
})

describe('the app with the path in front of it: the same answers', () => {
  async function served(options: { auth?: typeof auth } = {}) {
    const { lines, logger } = capturedLogger()
    const test = await createTestApp({ logger, auth: options.auth })
    const url = await listening(answerRememberedFirst({ memory: test.memory, bodies: test.bodies, logger, auth: options.auth }, getRequestListener(test.app.fetch)))
    return { url, lines }
  }

  it('answers a body asked again exactly as the first time, with one log line per request', async () => {
    const { url, lines } = await served()
    const text = JSON.stringify({ ...TIER, user: 'alice' })
    const first = await send(url, { body: text })
    const again = await send(url, { body: text })
    expect([first.status, again.status]).toEqual([200, 200])
    expect(again.text).toBe(first.text)
    for (const response of [first, again]) expect(response.headers['content-type']).toBe('application/json')
    const ids = [first.headers['x-request-id'], again.headers['x-request-id']]
    for (const id of ids) expect(id).toMatch(UUID)
    expect(ids[1]).not.toBe(ids[0])
    expect(lines.map(({ req_id, method, path, status }) => ({ req_id, method, path, status }))).toEqual(
      ids.map((req_id) => ({ req_id, method: 'POST', path: '/v1/recommendations', status: 200 })),
    )
  })

  it('answers with the app’s header lines, names spelled and ordered as it writes them, but for Date and the id', async () => {
    const { url } = await served()
    const text = JSON.stringify({ ...TIER, user: 'alice' })
    const rawHeaders = () =>
      new Promise<string[]>((resolve, reject) => {
        const req = httpRequest(`${url}/v1/recommendations`, { method: 'POST', headers: { host: HOST, 'content-type': 'application/json', 'content-length': String(text.length) } }, (res) => {
          res.resume()
          res.on('end', () => resolve(res.rawHeaders.map((part, i) => (i % 2 === 1 && /^(date|x-request-id)$/i.test(res.rawHeaders[i - 1] as string) ? '…' : part))))
        })
        req.on('error', reject)
        req.end(text)
      })
    // The first asked of the app, the second answered in front of it.
    const byApp = await rawHeaders()
    expect(await rawHeaders()).toEqual(byApp)
    expect(byApp.filter((_, i) => i % 2 === 0)).toEqual(['content-type', 'x-request-id', 'Content-Length', 'Date', 'Connection', 'Keep-Alive'])
  })

  it('logs a body the client stopped sending on the app’s routes as a 400 body_incomplete warning, not as a bug', async () => {
    const { lines, logger, requestLogged } = capturedLogger()
    const test = await createTestApp({ logger })
    let received!: () => void
    const firstChunk = new Promise<void>((resolve) => (received = resolve))
    const app = getRequestListener(test.app.fetch)
    const url = await listening((req, res) => {
      req.once('data', () => received())
      app(req, res)
    })
    const text = JSON.stringify({ question: 'Which tier?', all_options: ['S', 'M'], user_choice: 'S', user: 'alice' })
    const req = httpRequest(`${url}/v1/observations`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(text.length), 'x-request-id': 'gone-2' } })
    req.on('error', () => {})
    req.write(text.slice(0, 20))
    await firstChunk
    req.destroy()
    await requestLogged
    expect(lines.map(({ level, msg, req_id, status }) => ({ level, msg, req_id, status }))).toEqual([
      { level: 40, msg: 'the client stopped sending its body', req_id: 'gone-2', status: undefined },
      { level: 30, msg: 'request', req_id: 'gone-2', status: 400 },
    ])
    expect((await test.call('POST', '/v1/recommendations', { question: 'Which tier?', all_options: ['S', 'M'], user: 'alice' })).body.observations).toBe(0)
  })

  it('answers a body it handed over as the app alone would: invalid bodies, other routes', async () => {
    const { url } = await served()
    const invalid = await send(url, { body: JSON.stringify({ user: 'alice', question: 'Which tier?' }) })
    expect(invalid.status).toBe(400)
    expect(JSON.parse(invalid.text).error.issues).toEqual([expect.objectContaining({ path: 'all_options' })])
    expect((await send(url, { body: '{"user": ' })).status).toBe(400)
    const latin1 = await send(url, { body: Buffer.from(JSON.stringify({ ...TIER, user: 'jos\u00e9' }), 'latin1') })
    expect([latin1.status, JSON.parse(latin1.text).error.code]).toEqual([400, 'invalid_json'])
    expect((await send(url, { path: '/healthz', method: 'GET', headers: { 'content-type': '' } })).status).toBe(200)
  })

  it('refuses a body the app refuses as often as it is sent (a user spaced at its ends), and a body remembered sent with a query parameter the route does not have', async () => {
    const { url } = await served()
    const spaced = JSON.stringify({ ...TIER, user: 'alice ' })
    for (const answer of [await send(url, { body: spaced }), await send(url, { body: spaced })]) {
      expect(answer.status).toBe(400)
      expect(JSON.parse(answer.text).error.issues).toEqual([expect.objectContaining({ path: 'user' })])
    }
    const body = JSON.stringify({ ...TIER, user: 'alice' })
    expect((await send(url, { body })).status).toBe(200)
    expect((await send(url, { body })).status).toBe(200)
    const unknown = await send(url, { body, path: '/v1/recommendations?usr=alice' })
    expect([unknown.status, JSON.parse(unknown.text).error.issues[0].path]).toEqual([400, 'usr'])
    expect((await send(url, { body, path: '/v1/recommendations?_=1' })).status).toBe(200)
  })

  it('without auth, refuses (403) a Host sent twice, as the app does, though Node keeps the first, of this machine', async () => {
    const { url, lines } = await served()
    const text = JSON.stringify({ ...TIER, user: 'alice' })
    const { port } = new URL(url)
    const twice = () =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.end(['POST /v1/recommendations HTTP/1.1', `Host: ${HOST}`, 'Host: attacker.example', 'Content-Type: application/json', `Content-Length: ${text.length}`, 'Connection: close', '', text].join('\r\n'))
        })
        const chunks: Buffer[] = []
        socket.on('data', (c: Buffer) => chunks.push(c))
        socket.on('error', reject)
        socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
      })
    // Remembered from its first answer, by the app.
    expect((await send(url, { body: text })).status).toBe(200)
    for (const answer of [await twice(), await twice()]) {
      expect(answer).toMatch(/^HTTP\/1\.1 403 /)
      expect(answer).toContain(`"the request names its Host twice (\\"${HOST}, attacker.example\\")`)
    }
    expect(lines.map((l) => l.status)).toEqual([200, 403, 403])
  })

  it('with auth: a body remembered under one token gets 403 for a token that may not act for its user, 400 for another user named in the query, and 401 without a token', async () => {
    const { url } = await served({ auth })
    const text = JSON.stringify({ ...TIER, user: 'alice' })
    const asAlice = { authorization: `Bearer ${ALICE}` }
    expect((await send(url, { body: text, headers: asAlice })).status).toBe(200)
    expect((await send(url, { body: text, headers: asAlice })).status).toBe(200)
    // The route reads its user from the body: a query naming another is refused as without auth, naming user.
    const queried = await send(url, { body: text, headers: asAlice, path: '/v1/recommendations?user=bob' })
    expect([queried.status, JSON.parse(queried.text).error.issues]).toEqual([400, [{ path: 'user', message: 'give the user in the body, not in the query' }]])
    const bob = JSON.stringify({ ...TIER, user: 'bob' })
    expect((await send(url, { body: bob, headers: { authorization: `Bearer ${OPS}` } })).status).toBe(200)
    const refused = await send(url, { body: bob, headers: asAlice })
    expect(refused.status).toBe(403)
    expect(JSON.parse(refused.text).error).toMatchObject({ code: 'forbidden', request_id: refused.headers['x-request-id'] })
    expect((await send(url, { body: text })).status).toBe(401)
  })
})
