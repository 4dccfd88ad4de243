import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Logger } from 'pino'
import type { TokenTable } from '../config/load-tokens'
import type { DecisionMemory } from '../decision-memory'
import { mayActFor, principalFor } from './auth'
import { answerError } from './errors'
import { JSON_TYPE, REMEMBERED_BODIES, type ValidBodies } from './recommendations'
import { logRequest, REQUEST_ID_HEADER, requestIdFor } from './request-log'

/** A Node request listener: @hono/node-server's over the app, or this one in front of it. */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void

/** What @hono/node-server reads instead of the stream when a request's body was read before it. */
type ReadBefore = IncomingMessage & { rawBody?: Buffer }

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name]
  return Array.isArray(value) ? value[0] : value
}

/**
 * `POST /v1/recommendations` with a body remembered valid, answered in front of the app: the
 * request an orchestrator sends before every question, whose answer is mostly kept in memory.
 * hono's request and context, the app's middleware and @hono/node-server's response are most of
 * such a request's cost; side by side (`cpu-per-request.ts --checkout`, bench/README.md), this
 * path took it from 60-90 µs of CPU to 44-55. It does what the app does for such a request, with
 * the same parts: the request id and its header, the log line, the token and the user it may act
 * for, the answer's bytes, and `answerError` for an error.
 *
 * Anything else goes to the app (`next`) as it came: another method or path (a query string,
 * which may name users, included), a body of unknown or too large a length, a missing or unknown
 * token, all before the body is read; then, with the body read (and handed over as `rawBody`,
 * which @hono/node-server reads instead of the stream), a body not remembered, a user the token
 * may not act for, or a body whose reading failed (the client went away). The app answers it as
 * if this path were not there, and logs it.
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
      req.headers['transfer-encoding'] !== undefined
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
    let handed = false
    const handOver = () => {
      if (handed) return
      handed = true
      ;(req as ReadBefore).rawBody = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
      next(req, res)
    }
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('error', handOver)
    req.on('end', () => {
      if (handed) return
      const text = chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8')
      const known = bodies.get(type, text)
      if (known === undefined || (principal !== undefined && !mayActFor(principal, known.user))) {
        handOver()
        return
      }
      handed = true
      const requestId = requestIdFor(header(req, REQUEST_ID_HEADER.toLowerCase()))
      const send = (status: number, body: Uint8Array | string) => {
        res.writeHead(status, {
          'content-type': 'application/json',
          [REQUEST_ID_HEADER.toLowerCase()]: requestId,
          'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.length,
        })
        res.end(body)
        logRequest(logger, { requestId, method: 'POST', path: '/v1/recommendations', status, started })
      }
      memory.recommendJson(known).then(
        (json) => send(200, json),
        (error: unknown) => {
          // Answered as the app answers it, without asking the use case again.
          const { status, body } = answerError(logger, error instanceof Error ? error : new Error(String(error)), requestId)
          send(status, JSON.stringify(body))
        },
      )
    })
  }
}
