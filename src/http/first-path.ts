import { isUtf8 } from 'node:buffer'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Logger } from 'pino'
import type { TokenTable } from '../config/load-tokens'
import type { DecisionMemory } from '../decision-memory'
import { mayActFor, principalFor } from './auth'
import { answerError, IncompleteBodyError } from './errors'
import { JSON_TYPE, REMEMBERED_BODIES, type ValidBodies } from './recommendations'
import { foreignRequest } from './same-machine'
import { logRequest, REQUEST_ID_HEADER, REQUEST_STARTED, requestIdFor } from './request-log'
import { STORE_HEADER } from './store-id'

/** A Node request listener: @hono/node-server's over the app, or this one in front of it. */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void

/** What @hono/node-server reads instead of the stream when a request's body was read before it. */
type ReadBefore = IncomingMessage & { rawBody?: Buffer; [REQUEST_STARTED]?: number }

/** The request id's header as Node names it (lower case). */
const REQUEST_ID = REQUEST_ID_HEADER.toLowerCase()
/** The header naming the store a request is meant for, as Node names it. */
const STORE_HEADER_NAME = STORE_HEADER.toLowerCase()

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name]
  return Array.isArray(value) ? value[0] : value
}

/**
 * Whether Content-Type, Authorization or Host was sent more than once, in one pass over the raw
 * headers. Node keeps the first of a repeated one, where @hono/node-server joins them, and the app
 * judges the joined value (without auth, a Host `127.0.0.1:7420, attacker.example` is no name of
 * this machine: 403, where the path took Node's first and answered): such a request is the app's.
 */
function repeatedTypeTokenOrHost(req: IncomingMessage): boolean {
  let types = 0
  let tokens = 0
  let hosts = 0
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = (req.rawHeaders[i] as string).toLowerCase()
    if ((name === 'content-type' && ++types > 1) || (name === 'authorization' && ++tokens > 1) || (name === 'host' && ++hosts > 1)) return true
  }
  return false
}

/**
 * @hono/node-server's own test of a Host it takes as it is (lower case, a port of 4 or 5 digits);
 * any other Host it checks further, and may refuse (400): such a request is the app's.
 */
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/

/**
 * `POST /v1/recommendations` with a body remembered valid, answered in front of the app: the
 * request an orchestrator sends before every question, whose answer is mostly kept in memory.
 * hono's request and context, the app's middleware and @hono/node-server's response are most of
 * such a request's cost; side by side (`cpu-per-request.ts --checkout`, bench/HISTORY.md), this
 * path took it from 60-90 µs of CPU to 44-55. It does what the app does for such a request, with
 * the same parts: the request id and its header, the log line, the token and the user it may act
 * for, the answer's bytes, and `answerError` for an error.
 *
 * Anything else goes to the app (`next`) as it came: another method or path (a query string,
 * which may name users, included), a body of unknown or too large a length, a missing or unknown
 * token, all before the body is read; then, with the whole body read (and handed over as `rawBody`,
 * which @hono/node-server reads instead of the stream, and the moment it began, which the app's
 * log line measures from), a body not remembered, or a user the token may not act for. The app
 * answers it as if this path were not there, and logs it. A repeated Content-Type, Authorization
 * or Host, and a Host @hono/node-server would check further, and a request naming its store
 * (X-Decision-Memory-Store), are the app's too, as is, without auth, one addressed to another name
 * than this machine's or sent with the Origin of another site (same-machine.ts). A body the
 * client stopped sending is answered as the app answers it (a 400 `body_incomplete` from
 * `answerError`, logged under the request's id), never handed over as if it were whole.
 */
export function answerRememberedFirst(
  options: { memory: DecisionMemory; bodies: ValidBodies; logger: Logger; auth?: TokenTable | undefined },
  next: NodeListener,
): NodeListener {
  const { memory, bodies, logger, auth } = options
  return function answerRememberedFirst(req, res) {
    const type = header(req, 'content-type')
    const length = Number(header(req, 'content-length'))
    if (
      req.method !== 'POST' ||
      req.url !== '/v1/recommendations' ||
      type === undefined ||
      !JSON_TYPE.test(type) ||
      // Read here only when it is short enough to be remembered (UTF-8: at most 4 bytes a character).
      !(length > 0 && length <= 4 * REMEMBERED_BODIES.textLength) ||
      req.headers['transfer-encoding'] !== undefined ||
      // Compressed, or said to be: the app refuses it (415).
      req.headers['content-encoding'] !== undefined ||
      !PLAIN_HOST.test(req.headers.host ?? '') ||
      repeatedTypeTokenOrHost(req) ||
      // Naming the store it is meant for: the app checks that (store-id.ts).
      req.headers[STORE_HEADER_NAME] !== undefined ||
      // Without tokens, one a web page may have sent: the app refuses it (same-machine.ts).
      (auth === undefined && foreignRequest(req.headers.host, header(req, 'origin')) !== undefined)
    ) {
      next(req, res)
      return
    }
    // The token before the body: a request the app refuses (401) is never made to wait for it.
    const principal = auth === undefined ? undefined : principalFor(auth, header(req, 'authorization'))
    if (auth !== undefined && principal === undefined) {
      next(req, res)
      return
    }
    const started = performance.now()
    const chunks: Buffer[] = []
    let done = false
    const requestId = () => requestIdFor(header(req, REQUEST_ID))
    const send = (id: string, status: number, body: Uint8Array | string) => {
      if (!res.destroyed) {
        // Named and ordered as @hono/node-server writes the app's (Content-Length its own, after the
        // app's headers): the bytes of the head are the app's, but for Date and the id.
        res.writeHead(status, {
          'content-type': 'application/json',
          [REQUEST_ID]: id,
          'Content-Length': typeof body === 'string' ? Buffer.byteLength(body) : body.length,
        })
        res.end(body)
      }
      logRequest(logger, { requestId: id, method: 'POST', path: '/v1/recommendations', status, started })
    }
    // As the app answers an error, under the request's id: a use case that failed, a body the
    // client stopped sending (never handed over as if it were whole).
    const fail = (id: string, error: unknown) => {
      const { status, body } = answerError(logger, error instanceof Error ? error : new Error(String(error)), id)
      send(id, status, JSON.stringify(body))
    }
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('error', (error) => {
      if (done) return
      done = true
      fail(requestId(), new IncompleteBodyError(error))
    })
    req.on('end', () => {
      if (done) return
      done = true
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
      // A body that is not UTF-8 is the app's to refuse, not read as the text it would decode to.
      const known = isUtf8(body) ? bodies.get(type, body.toString('utf8')) : undefined
      if (known === undefined || (principal !== undefined && !mayActFor(principal, known.user))) {
        ;(req as ReadBefore).rawBody = body
        ;(req as ReadBefore)[REQUEST_STARTED] = started
        next(req, res)
        return
      }
      const id = requestId()
      memory.recommendJson(known).then(
        (json) => send(id, 200, json),
        // Without asking the use case again.
        (error: unknown) => fail(id, error),
      )
    })
  }
}
