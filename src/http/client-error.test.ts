import { createServer, type IncomingMessage, type Server } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { getRequestListener } from '@hono/node-server'
import { Hono } from 'hono'
import { answerClientError, answerConnect, answerExpectation, answerMissingHost, appListener } from './client-error'

const servers: Server[] = []
afterEach(() => {
  for (const server of servers.splice(0)) server.close()
})

/** A server with the listener, answering 200 to whatever Node's parser takes. */
async function serving() {
  const lines: Array<Record<string, unknown>> = []
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
  const server = createServer({ maxHeaderSize: 1024 }, (_req, res) => res.end('ok'))
  server.on('clientError', answerClientError(logger))
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as AddressInfo).port, lines, server }
}

/** Sends raw bytes and reads the whole answer, until the server closes the connection. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text))
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')))
    socket.on('end', () => resolve(answer))
    socket.on('error', reject)
  })
}

/** Sends raw bytes, then half-closes (the client's end), and reads the whole answer until the connection closes. */
function halfClosed(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.end(text))
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')))
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
  })
}

function parsed(answer: string) {
  const [head = '', body = ''] = answer.split('\r\n\r\n')
  return { statusLine: head.split('\r\n')[0], headers: head.toLowerCase(), body: JSON.parse(body) }
}

/** The id a refused request is answered and logged under: a new one, as no request id was read. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('requests Node’s parser refuses (R-SVC-2)', () => {
  it('answers a malformed request with a JSON error naming what was wrong, and logs a warning', async () => {
    const { port, lines } = await serving()
    const answer = parsed(await raw(port, 'POST /v1/observations HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n'))
    expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect(answer.headers).toContain('content-type: application/json')
    expect(answer.headers).toContain('connection: close')
    expect(answer.body).toEqual({ error: { code: 'malformed_request', message: expect.stringMatching(/^the request is not well-formed HTTP \(HPE_/), issues: [], request_id: expect.stringMatching(UUID) } })
    expect(answer.headers).toContain(`x-request-id: ${answer.body.error.request_id}`)
    expect(lines).toMatchObject([{ level: 40, event: 'client-error', req_id: answer.body.error.request_id, status: 400 }])
  })

  it('closes the connection once answered, even when the client keeps its side open', async () => {
    const { port, server } = await serving()
    // The server's end of the connection, closed: never, were it left half-open (the test's timeout
    // then), where a second given to close it failed the test on a machine loaded for that long.
    const serverEndClosed = new Promise<void>((resolve) => server.once('connection', (end: Socket) => end.once('close', () => resolve())))
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.write('GARBAGE\r\n\r\n'))
    socket.on('data', () => {})
    await new Promise((resolve) => socket.once('end', resolve))
    await serverEndClosed
    // The server holds no connection: a close does not wait for the client.
    expect(await new Promise((resolve) => server.getConnections((_, count) => resolve(count)))).toBe(0)
    expect(socket.destroyed).toBe(false)
    socket.destroy()
  })

  it('answers headers over the limit with a 431', async () => {
    const { port } = await serving()
    const answer = parsed(await raw(port, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(4096)}\r\n\r\n`))
    expect(answer.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large')
    expect(answer.body.error.code).toBe('headers_too_large')
  })

  it('says a method in lower case is one in capitals, naming it, and a method HTTP does not know as such', async () => {
    const { port } = await serving()
    for (const [sent, message] of [
      ['post', 'the method "post" is not one HTTP knows: methods are written in capitals, POST'],
      ['Get', 'the method "Get" is not one HTTP knows: methods are written in capitals, GET'],
      ['FETCH', 'the method "FETCH" is not one HTTP knows'],
    ] as const) {
      // After an empty line, which a server passes over before a request line (RFC 9112): the method is still found.
      const answer = parsed(await raw(port, `\r\n${sent} /v1/sessions HTTP/1.1\r\nHost: x\r\n\r\n`))
      expect(answer.statusLine, sent).toBe('HTTP/1.1 400 Bad Request')
      expect(answer.body.error, sent).toMatchObject({ code: 'malformed_request', message, issues: [{ path: 'method', message: message.replace(/^the method /, '') }] })
    }
  })

  it('names a method sent alone on its connection', async () => {
    const { port } = await serving()
    const answer = parsed(await raw(port, 'delete /v1/users/alice HTTP/1.1\r\nHost: x\r\n\r\n'))
    expect(answer.body.error.message).toBe('the method "delete" is not one HTTP knows: methods are written in capitals, DELETE')
  })

  it('says what the parser found wrong, in its words, beside its code', async () => {
    const { port } = await serving()
    const twice = parsed(await raw(port, 'POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}'))
    expect(twice.body.error.message).toBe('the request is not well-formed HTTP (HPE_UNEXPECTED_CONTENT_LENGTH: Duplicate Content-Length)')
    const both = parsed(await raw(port, 'POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n'))
    expect(both.body.error.message).toBe("the request is not well-formed HTTP (HPE_INVALID_TRANSFER_ENCODING: Transfer-Encoding can't be present with Content-Length)")
  })

  it('says of a 431 that the URL counts, as a long URL meets it with headers of a few bytes', async () => {
    const { port } = await serving()
    const answer = parsed(await raw(port, `GET /v1/users/${'a'.repeat(4096)}/preferences HTTP/1.1\r\nHost: x\r\n\r\n`))
    expect(answer.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large')
    expect(answer.body.error.message).toBe('the request line and headers are too large: a URL (its path and query) counts with the headers')
  })

  it('answers a request that did not arrive in time with a 408', async () => {
    const { port, server } = await serving()
    // What Node's timeout check raises (requestTimeout, headersTimeout), raised at once: no test waits for it.
    server.once('connection', (socket) => queueMicrotask(() => server.emit('clientError', Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket)))
    const answer = parsed(await raw(port, 'POST /v1/observations HTTP/1.1\r\nHost: x\r\n'))
    expect(answer.statusLine).toBe('HTTP/1.1 408 Request Timeout')
    expect(answer.body).toEqual({ error: { code: 'request_timeout', message: 'the request did not arrive in time', issues: [], request_id: expect.stringMatching(UUID) } })
  })

  it('answers an Expect other than 100-continue with a JSON 417 naming the header, and serves the connection on', async () => {
    const { port, server } = await serving()
    const lines: Array<Record<string, unknown>> = []
    server.on('checkExpectation', answerExpectation(pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })))
    const refused = 'POST /v1/observations HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}'
    const text = await raw(port, `${refused}GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
    const [first = '', second = ''] = text.split(/(?=HTTP\/1\.1 200)/)
    const answer = parsed(first)
    expect(answer.statusLine).toBe('HTTP/1.1 417 Expectation Failed')
    expect(answer.headers).toContain('content-type: application/json')
    expect(answer.body).toEqual({
      error: {
        code: 'expectation_failed',
        message: 'the request expects "200-ok", which the service does not meet: send no Expect, or Expect: 100-continue',
        issues: [{ path: 'expect', message: 'only 100-continue is met, not "200-ok"' }],
        request_id: expect.stringMatching(UUID),
      },
    })
    expect(answer.headers).toContain(`x-request-id: ${answer.body.error.request_id}`)
    // The body it sent is passed over, and the next request on the connection answered.
    expect(second).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*ok$/)
    expect(lines).toMatchObject([{ level: 40, event: 'expectation-failed', req_id: answer.body.error.request_id, status: 417 }])
  })

  it('answers a 417 under the X-Request-Id the request sent, as the app answers it', async () => {
    const { port, server } = await serving()
    const lines: Array<Record<string, unknown>> = []
    server.on('checkExpectation', answerExpectation(pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })))
    const answer = parsed(await raw(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nX-Request-Id: trace-417\r\nConnection: close\r\n\r\n'))
    expect(answer.statusLine).toBe('HTTP/1.1 417 Expectation Failed')
    expect(answer.body.error.request_id).toBe('trace-417')
    expect(answer.headers).toContain('x-request-id: trace-417')
    expect(lines).toMatchObject([{ event: 'expectation-failed', req_id: 'trace-417' }])
  })

  it('leaves well-formed requests alone', async () => {
    const { port, lines } = await serving()
    expect(await raw(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*ok$/)
    expect(lines).toEqual([])
  })

  // A body over the limit is answered 413 before it is read; the client, answered, stops sending
  // and closes. Its request was well-formed: no malformed_request after the answer, no warning.
  for (const [framing, head] of [
    ['declared', 'Content-Length: 300000'],
    ['chunked', 'Transfer-Encoding: chunked'],
  ] as const) {
    it(`says nothing of a client that closes within a ${framing} body answered before it was read`, async () => {
      const { port, lines } = await serving()
      const body = framing === 'chunked' ? '10\r\n0123456789abcdef\r\n' : '0123456789'
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(`POST /v1/observations HTTP/1.1\r\nHost: x\r\n${head}\r\n\r\n${body}`))
        let text = ''
        socket.on('data', (chunk) => {
          text += chunk.toString('utf8')
          if (text.endsWith('ok')) socket.end()
        })
        socket.on('close', () => resolve(text))
        socket.on('error', reject)
      })
      expect(answer).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*ok$/)
      expect(lines).toEqual([])
    })
  }

  // A client that half-closes (shutdown(SHUT_WR)) within the body it declared: the request was
  // well-formed, and its handler, reading the body, says it was cut short under the request's id
  // (README, Errors: `body_incomplete`); the parser's end of it is no malformed request.
  for (const [framing, head, body] of [
    ['declared', 'Content-Length: 100', '{"question":'],
    ['chunked', 'Transfer-Encoding: chunked', '5\r\n{"que'],
  ] as const) {
    it(`leaves a ${framing} body its client half-closed to the request's handler: no answer of its own, no warning`, async () => {
      const lines: Array<Record<string, unknown>> = []
      const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
      const ended: string[] = []
      const server = createServer((req, res) => {
        req.on('data', () => {})
        req.on('error', () => ended.push('cut short'))
        req.on('end', () => res.end('ok'))
      })
      server.on('clientError', answerClientError(logger))
      servers.push(server)
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      const port = (server.address() as AddressInfo).port
      const answer = await halfClosed(port, `POST /v1/observations HTTP/1.1\r\nHost: x\r\n${head}\r\n\r\n${body}`)
      expect(answer).toBe('')
      expect(lines).toEqual([])
      expect(ended).toEqual(['cut short'])
    })
  }

  // Pipelined: a whole request, then one its client half-closed within the body, sent before the
  // first was answered. The first was taken (stored, at a route that writes): its answer is the
  // client's, and only the second is cut short; the connection is closed once the first is out.
  it('answers the request before one its client half-closed within the body, then closes the connection', async () => {
    const lines: Array<Record<string, unknown>> = []
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
    const seen: string[] = []
    const server = createServer((req, res) => {
      const id = req.headers['x-request-id'] as string
      req.on('data', () => {})
      req.on('error', () => seen.push(`${id} cut short`))
      // The first is answered only once the client's end has come, as a slower write is.
      req.on('end', () => {
        seen.push(`${id} read`)
        req.socket.once('end', () => res.end(`answer of ${id}`))
      })
    })
    server.on('clientError', answerClientError(logger))
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as AddressInfo).port
    const first = 'POST /v1/observations HTTP/1.1\r\nHost: x\r\nX-Request-Id: r-1\r\nContent-Length: 2\r\n\r\n{}'
    const second = 'POST /v1/observations HTTP/1.1\r\nHost: x\r\nX-Request-Id: r-2\r\nContent-Length: 100\r\n\r\n{"question":'
    const answer = await halfClosed(port, first + second)
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nanswer of r-1$/)
    expect(lines).toEqual([])
    expect(seen).toEqual(['r-1 read', 'r-2 cut short'])
  })

  // Pipelined too, but the second answered before its body was read (413 `body_too_large`, judged
  // by its declared length), its client half-closing within that body: the 413 is the client's,
  // as it is for a request sent alone. Queued behind the first's answer, it is written as Node
  // hands it the socket, when the first finishes, and only then is the connection closed: closed
  // as the first finished, before the hand-over, it took the 413 with it.
  it('gives the client the answer of the request it half-closed within, when that answer was made without its body', async () => {
    const lines: Array<Record<string, unknown>> = []
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
    // As serve.ts builds it: @hono/node-server's listener, the body's length judged before it is read.
    const app = new Hono<{ Bindings: { incoming: IncomingMessage } }>()
    app.use(async (_c, next) => {
      await next()
    })
    app.post('*', async (c) => {
      const id = c.req.header('x-request-id') as string
      if (Number(c.req.header('content-length')) > 1000) return c.json({ answer: id }, 413)
      await c.req.text()
      // Answered only once the client's end has come, as a slower write is.
      const socket = c.env.incoming.socket
      if (!socket.readableEnded) await new Promise((resolve) => socket.once('end', resolve))
      return c.text(`answer of ${id}`)
    })
    const server = createServer(getRequestListener(app.fetch))
    ;(server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true
    server.on('clientError', answerClientError(logger))
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as AddressInfo).port
    const first = 'POST /v1/observations HTTP/1.1\r\nHost: x\r\nX-Request-Id: r-1\r\nContent-Length: 2\r\n\r\n{}'
    const second = 'POST /v1/observations HTTP/1.1\r\nHost: x\r\nX-Request-Id: r-2\r\nContent-Length: 300000\r\n\r\n{"question":'
    const answer = await halfClosed(port, first + second)
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nanswer of r-1HTTP\/1\.1 413 Payload Too Large\r\n[\s\S]*\r\n\r\n\{"answer":"r-2"\}$/)
    expect(lines).toEqual([])
  })

  it('still answers and logs a request whose head the client cut short', async () => {
    const { port, lines } = await serving()
    const answer = await halfClosed(port, 'POST /v1/observations HTTP/1.1\r\nHost: x\r\n')
    expect(parsed(answer).body.error).toMatchObject({ code: 'malformed_request', message: expect.stringContaining('HPE_INVALID_EOF_STATE') })
    expect(lines).toMatchObject([{ event: 'client-error', code: 'HPE_INVALID_EOF_STATE' }])
  })
})

/** A server with @hono/node-server's listener over an app answering 200, as serve.ts builds it. */
async function servingHono() {
  const lines: Array<Record<string, unknown>> = []
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
  const app = new Hono().all('*', (c) => c.text('ok'))
  const server = createServer(appListener(app.fetch, { logger }))
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as AddressInfo).port, lines }
}

describe('requests Node takes but @hono/node-server cannot make a Request of (R-SVC-2)', () => {
  // Node's parser takes them; @hono/node-server then refused them with a bare 400 and no body.
  it.each([
    ['a Host with a space', 'GET /healthz HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n', /invalid url/i],
    ['a Host with an unclosed bracket', 'GET /healthz HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n', /invalid url/i],
    ['an absolute URL that is not one', 'GET http://[x/healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', /invalid absolute url/i],
    // (The service hands an `OPTIONS *` to the app, asterisk-form.ts; another method's `*` is none.)
    ['GET *', 'GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', /url/i],
    ['a backslash in the path', 'GET /v1\\..\\healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', /backslash/i],
  ])('%s: a JSON 400 naming what was wrong, logged as a warning', async (_name, request, why) => {
    const { port, lines } = await servingHono()
    const answer = parsed(await raw(port, request))
    expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect(answer.headers).toContain('content-type: application/json')
    expect(answer.body).toEqual({ error: { code: 'malformed_request', message: expect.stringMatching(why), issues: [], request_id: expect.stringMatching(UUID) } })
    expect(answer.headers).toContain(`x-request-id: ${answer.body.error.request_id}`)
    expect(lines).toMatchObject([{ level: 40, event: 'request-error', req_id: answer.body.error.request_id, status: 400 }])
  })

  it.each([
    ['a Host with a space', 'GET /healthz HTTP/1.1\r\nHost: a b\r\nX-Request-Id: trace-42\r\nConnection: close\r\n\r\n'],
    ['GET *', 'GET * HTTP/1.1\r\nHost: x\r\nX-Request-Id: trace-42\r\nConnection: close\r\n\r\n'],
    ['a backslash in the path', 'GET /v1\\..\\healthz HTTP/1.1\r\nHost: x\r\nX-Request-Id: trace-42\r\nConnection: close\r\n\r\n'],
  ])('%s: answered and logged under the X-Request-Id it sent, when a plausible one, as the app answers a request', async (_name, request) => {
    const { port, lines } = await servingHono()
    const answer = parsed(await raw(port, request))
    expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect(answer.body.error).toMatchObject({ code: 'malformed_request', request_id: 'trace-42' })
    expect(answer.headers).toContain('x-request-id: trace-42')
    expect(lines).toMatchObject([{ level: 40, event: 'request-error', req_id: 'trace-42' }])
    // One that is not plausible (a space in it) gets an id of its own.
    const other = parsed(await raw(port, request.replace('trace-42', 'not one')))
    expect(other.body.error.request_id).toMatch(UUID)
    expect(lines[1]).toMatchObject({ event: 'request-error', req_id: other.body.error.request_id })
  })

  it('leaves well-formed requests alone', async () => {
    const { port, lines } = await servingHono()
    expect(await raw(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*ok$/)
    expect(lines).toEqual([])
  })
})

describe('CONNECT, which Node hands to no request listener (R-SVC-2)', () => {
  // Without a 'connect' listener Node destroyed the socket: the client got no answer at all.
  it('is answered with a JSON 404 like any other method no route takes, and the connection closed', async () => {
    const lines: Array<Record<string, unknown>> = []
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
    const server = createServer((_req, res) => res.end('ok'))
    server.on('connect', answerConnect(logger))
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as AddressInfo).port
    const answer = parsed(await raw(port, 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n'))
    expect(answer.statusLine).toBe('HTTP/1.1 404 Not Found')
    expect(answer.headers).toContain('content-type: application/json')
    expect(answer.headers).toContain('connection: close')
    expect(answer.body).toEqual({ error: { code: 'not_found', message: 'no route CONNECT 127.0.0.1:22', issues: [], request_id: expect.stringMatching(UUID) } })
    expect(answer.headers).toContain(`x-request-id: ${answer.body.error.request_id}`)
    expect(lines).toMatchObject([{ level: 40, event: 'connect-refused', req_id: answer.body.error.request_id }])
    // A target with a query: logged, and answered, without it (the log never holds a query string).
    const queried = parsed(await raw(port, 'CONNECT /x?token=secret HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n'))
    expect(queried.body.error.message).toBe('no route CONNECT /x')
    expect(JSON.stringify(lines)).not.toContain('secret')
  })
})

describe('a HTTP/1.1 request without Host, which Node itself refused with a bare 400 (R-SVC-2)', () => {
  async function servingWithoutNodesCheck() {
    const lines: Array<Record<string, unknown>> = []
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
    const server = createServer({ requireHostHeader: false }, answerMissingHost(logger, (_req, res) => res.end('ok')))
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return { port: (server.address() as AddressInfo).port, lines }
  }

  it('gets the JSON error naming what is missing, logged as a warning, and the connection closed', async () => {
    const { port, lines } = await servingWithoutNodesCheck()
    const answer = parsed(await raw(port, 'POST /v1/observations HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}'))
    expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect(answer.headers).toContain('content-type: application/json')
    expect(answer.headers).toContain('connection: close')
    expect(answer.body).toEqual({ error: { code: 'malformed_request', message: expect.stringMatching(/Host/), issues: [], request_id: expect.stringMatching(UUID) } })
    expect(answer.headers).toContain(`x-request-id: ${answer.body.error.request_id}`)
    expect(lines).toMatchObject([{ level: 40, event: 'request-error', req_id: answer.body.error.request_id, status: 400 }])
  })

  it('is answered and logged under the X-Request-Id it sent, when a plausible one, as the app answers a request', async () => {
    const { port, lines } = await servingWithoutNodesCheck()
    const answer = parsed(await raw(port, 'GET /healthz HTTP/1.1\r\nX-Request-Id: trace-42\r\n\r\n'))
    expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect(answer.body.error).toMatchObject({ code: 'malformed_request', request_id: 'trace-42' })
    expect(answer.headers).toContain('x-request-id: trace-42')
    expect(lines).toMatchObject([{ level: 40, event: 'request-error', req_id: 'trace-42' }])
    // One that is not plausible (a space in it) gets an id of its own.
    const other = parsed(await raw(port, 'GET /healthz HTTP/1.1\r\nX-Request-Id: not one\r\n\r\n'))
    expect(other.body.error.request_id).toMatch(UUID)
  })

  it('leaves HTTP/1.0 without Host, and HTTP/1.1 with one, alone', async () => {
    const { port, lines } = await servingWithoutNodesCheck()
    expect(await raw(port, 'GET /healthz HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*ok$/)
    expect(await raw(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*ok$/)
    expect(lines).toEqual([])
  })
})
