import { METHODS, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Logger } from 'pino'
import { getRequestListener, RequestError } from '@hono/node-server'
import { answerError, errorBodyFor, quotedHeader } from './errors'
import type { NodeListener } from './first-path'
import { REQUEST_ID_HEADER, requestIdFor } from './request-log'

/**
 * What Node's HTTP parser could not take, as the status and code answered (R-SVC-2), with the
 * parser's own words for it beside its code (`Duplicate Content-Length`): the code alone
 * (`HPE_UNEXPECTED_CONTENT_LENGTH`) left a client to look it up.
 */
function statusOf(code: string | undefined, reason: unknown): { status: number; code: string; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, code: 'headers_too_large', message: 'the request line and headers are too large: a URL (its path and query) counts with the headers' }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, code: 'request_timeout', message: 'the request did not arrive in time' }
  const words = typeof reason === 'string' && reason !== '' ? `: ${reason}` : ''
  return { status: 400, code: 'malformed_request', message: `the request is not well-formed HTTP (${code ?? 'unknown'}${words})` }
}

/**
 * The server's `clientError` listener: a request Node's parser refuses (a malformed request line
 * or header, headers over its limit, a request that never arrived in full) is answered as every
 * other bad input is, with a JSON error naming what was wrong, where Node alone answers a bare
 * `400 Bad Request`; and logged as a warning. The socket is then closed. A socket already gone,
 * or one whose response has begun, is destroyed, as Node does.
 */
export function answerClientError(logger: Logger) {
  return function onClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
    const response = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage
    const cut = endedWithinBody(error, socket)
    if (cut !== undefined && socket.writable) {
      closeAfterAnswersBefore(socket, cut)
      return
    }
    if (error.code === 'ECONNRESET' || !socket.writable || response?.headersSent === true) {
      socket.destroy()
      return
    }
    const { status, code, message: said } = statusOf(error.code, (error as ParserError).reason)
    const method = error.code === 'HPE_INVALID_METHOD' ? unknownMethod(error as ParserError) : undefined
    const message = method?.message ?? said
    // An id, as every error has (README, HTTP API), that finds the warning in the log.
    const requestId = crypto.randomUUID()
    logger.warn({ event: 'client-error', req_id: requestId, code: error.code, status }, message)
    endWith(socket, status, errorBodyFor(requestId, code, message, method === undefined ? [] : [method.issue]), requestId)
  }
}

/** What Node's parser adds to the error of the bytes it refused: the chunk, and where in it it stopped. */
type ParserError = NodeJS.ErrnoException & { rawPacket?: Buffer; bytesParsed?: number; reason?: unknown }

/**
 * The method of a request Node's parser refused for it, said: `curl -X post` (or Python's
 * http.client given `post`) sends the method as typed, and HTTP's methods are case-sensitive,
 * which `not well-formed HTTP (HPE_INVALID_METHOD)` left its client to work out. Read from the
 * line the parser stopped in (the chunk may hold the empty lines a client sent before it).
 */
function unknownMethod(error: ParserError): { message: string; issue: { path: string; message: string } } | undefined {
  const packet = error.rawPacket
  if (packet === undefined) return undefined
  const at = Math.min(error.bytesParsed ?? 0, packet.length)
  // (lastIndexOf counts a negative offset from the end.)
  const start = at === 0 ? 0 : packet.lastIndexOf(0x0a, at - 1) + 1
  const name = /^[^\s]{1,32}/.exec(packet.subarray(start, start + 33).toString('latin1'))?.[0]
  if (name === undefined) return undefined
  const capitals = name.toUpperCase()
  const known = capitals !== name && METHODS.includes(capitals) ? `: methods are written in capitals, ${capitals}` : ''
  const quoted = `${quotedHeader(name)} is not one HTTP knows${known}`
  return { message: `the method ${quoted}`, issue: { path: 'method', message: quoted } }
}

/**
 * The connection ended within the body of a request Node's parser had taken, a well-formed one
 * whose client stopped sending. Answered already, a body refused unread (413 `body_too_large`),
 * whose client, answered, stops sending and closes: a 400 after it answered nothing the client
 * sent. Or still being read, its client having half-closed (shutdown(SHUT_WR)) before the length
 * it declared: the request's own handler says it, `body-incomplete` under the request's id, as for
 * a connection closed whole, where a `malformed_request` under another id, and a `client-error`
 * warning, told of a malformed request that was not. Either way, the connection is closed.
 * (Node's parser keeps the request it is reading until it is done.)
 */
function endedWithinBody(error: NodeJS.ErrnoException, socket: Duplex): IncomingMessage | undefined {
  if (error.code !== 'HPE_INVALID_EOF_STATE') return undefined
  const reading = (socket as Duplex & { parser?: { incoming?: IncomingMessage | null } | null }).parser?.incoming
  return reading !== undefined && reading !== null && !reading.complete ? reading : undefined
}

/**
 * Closes a connection whose client half-closed within the body of `cut`, once the answers of the
 * requests it sent before that one are out: pipelined, a whole request sent before it was taken
 * (stored, at a route that writes), and its answer is the client's, where the connection closed at
 * once lost it. Node hands the socket to each answer in turn (`_httpMessage`); the one of `cut`, or
 * none, is the socket's once those before it are sent. Closed, `cut`'s handler finds its body cut
 * short (`body-incomplete`).
 */
function closeAfterAnswersBefore(socket: Duplex, cut: IncomingMessage): void {
  const answering = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage
  if (answering === undefined || answering === null || answering.req === cut || socket.destroyed) {
    socket.destroy()
    return
  }
  // Node's own listener, added when the answer was made, has handed the socket on by then.
  answering.once('finish', () => closeAfterAnswersBefore(socket, cut))
  answering.once('close', () => {
    if (!answering.writableFinished) socket.destroy()
  })
}

/** Writes a JSON answer on a socket no ServerResponse holds, then closes it. */
function endWith(socket: Duplex, status: number, answer: unknown, requestId: string): void {
  const body = JSON.stringify(answer)
  // Closed once the answer is out, as Node closes it: the server allows half-open sockets, and
  // end() alone left one open for as long as the client kept its side open, out of every
  // timeout and holding a stop up for its whole grace.
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  )
}

/**
 * The server's `connect` listener: Node hands a CONNECT to no request listener, and without this
 * one destroys its socket, leaving the client without an answer. It is answered as any method no
 * route takes (404 `not_found`), logged as a warning, and the socket closed.
 */
export function answerConnect(logger: Logger) {
  return function onConnect(req: IncomingMessage, socket: Duplex): void {
    // The target as a path is logged: without its query, as every request's path (never a query string).
    const target = (req.url ?? '').split('?')[0] as string
    const message = `no route CONNECT ${target}`
    const requestId = crypto.randomUUID()
    logger.warn({ event: 'connect-refused', req_id: requestId, target }, message)
    if (!socket.writable) {
      socket.destroy()
      return
    }
    endWith(socket, 404, errorBodyFor(requestId, 'not_found', message), requestId)
  }
}

/**
 * @hono/node-server's listener over the app's `fetch`, a request it cannot make a Request of (a
 * Host that is not one, `GET *`, a backslash in the path) answered by answerRequestError, under the
 * request's own `X-Request-Id` when it sends a plausible one, as the app answers a request: its
 * errorHandler is given the error alone. It makes its Request, and hands a failure to make one to
 * its errorHandler, within the call of its listener, before anything is awaited: the request being
 * handed over then is the one that failed. An error handed over later (none is: the app answers
 * its own) finds none, and is answered under an id of its own.
 */
export function appListener(fetch: Parameters<typeof getRequestListener>[0], options: { hostname?: string; logger: Logger }): NodeListener {
  let handing: IncomingMessage | undefined
  const listener = getRequestListener(fetch, { hostname: options.hostname, errorHandler: answerRequestError(options.logger, () => handing) })
  return function appListener(req, res) {
    handing = req
    try {
      void listener(req, res)
    } finally {
      handing = undefined
    }
  }
}

/**
 * @hono/node-server's `errorHandler`: a request Node's parser took but of which @hono/node-server
 * cannot make a fetch Request is answered with a JSON error naming what was wrong, where it alone
 * answers a bare 400 without a body; and logged as a warning. Anything else reaching it (the app
 * answers its own errors) is answered as the app answers a bug. Under the `X-Request-Id` of
 * `failed()`, the request that failed, when it is known and sends a plausible one (appListener).
 */
export function answerRequestError(logger: Logger, failed: () => IncomingMessage | undefined = () => undefined) {
  return function onRequestError(error: unknown): Response {
    const requestId = requestIdFor(failed()?.headers[REQUEST_ID_HEADER.toLowerCase()] as string | undefined)
    const headers = { 'x-request-id': requestId }
    if (error instanceof RequestError) {
      const message = `the request is not well-formed HTTP (${error.message})`
      logger.warn({ event: 'request-error', req_id: requestId, reason: error.message, status: 400 }, message)
      return Response.json(errorBodyFor(requestId, 'malformed_request', message), { status: 400, headers })
    }
    const { status, body } = answerError(logger, error instanceof Error ? error : new Error(String(error)), requestId)
    return Response.json(body, { status, headers })
  }
}

/**
 * The server's `checkExpectation` listener: a request whose `Expect` is not `100-continue`, the
 * one expectation RFC 9110 defines (Node's own 100 Continue answers that one), is refused 417
 * with a JSON error naming the header, where Node alone answers a bare 417 without a body; and
 * logged as a warning. Its body is passed over by Node, and the connection serves on.
 */
export function answerExpectation(logger: Logger) {
  return function onCheckExpectation(req: IncomingMessage, res: ServerResponse): void {
    const expectation = quotedHeader(req.headers.expect ?? '')
    const message = `the request expects ${expectation}, which the service does not meet: send no Expect, or Expect: 100-continue`
    // Its headers are read: under the caller's own id, as the app answers and logs a request.
    const requestId = requestIdFor(req.headers[REQUEST_ID_HEADER.toLowerCase()] as string | undefined)
    logger.warn({ event: 'expectation-failed', req_id: requestId, status: 417 }, message)
    const body = JSON.stringify(errorBodyFor(requestId, 'expectation_failed', message, [{ path: 'expect', message: `only 100-continue is met, not ${expectation}` }]))
    res.writeHead(417, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-request-id': requestId })
    res.end(body)
  }
}

/**
 * In front of the listener of a server made with `requireHostHeader: false`: a HTTP/1.1 request
 * without Host is answered with the JSON error (400 `malformed_request`), logged as a warning, and
 * its connection closed, where Node's own check answers a bare 400 without a body; under the
 * request's `X-Request-Id` when it sends a plausible one. HTTP/1.0 needs no Host, and goes on as before.
 */
export function answerMissingHost(logger: Logger, next: NodeListener): NodeListener {
  return function answerMissingHost(req, res) {
    if (req.httpVersionMajor !== 1 || req.httpVersionMinor !== 1 || req.headers.host !== undefined) {
      next(req, res)
      return
    }
    const message = 'the request is not well-formed HTTP (a HTTP/1.1 request needs a Host header)'
    // Its headers are read: under the caller's own id, as the app answers and logs a request.
    const requestId = requestIdFor(req.headers[REQUEST_ID_HEADER.toLowerCase()] as string | undefined)
    logger.warn({ event: 'request-error', req_id: requestId, reason: 'Missing host header', status: 400 }, message)
    const body = JSON.stringify(errorBodyFor(requestId, 'malformed_request', message))
    res.writeHead(400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-request-id': requestId, connection: 'close' })
    res.end(body)
  }
}
