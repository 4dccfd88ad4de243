import { createRoute } from '@hono/zod-openapi'
import type { Context, MiddlewareHandler, TypedResponse } from 'hono'
import type { Logger } from 'pino'
import type { TokenTable } from '../config/load-tokens'
import type { DecisionMemory } from '../decision-memory'
import type { ContractedRecommendation } from '../decisions/enforcement'
import { deepFreeze } from '../domain/freeze'
import type { RecommendationRequest as Request } from '../domain/recommendation'
import { authorizeUsers, mayActFor, principalFor } from './auth'
import { ErrorSchema } from './errors'
import { logRequest, REQUEST_ID_HEADER, requestIdFor } from './request-log'
import { createRouter } from './router'
import { RecommendationRequest, RecommendationSchema } from './schemas'

/** Bodies whose validation is remembered: short ones (an orchestrator's), not too many (about 4 KB each in memory). */
const REMEMBERED_BODIES = { count: 4096, textLength: 1024 }

/**
 * The requests validated recently, by the text of their body and its declared content type:
 * validation is a function of those alone, and an orchestrator sends the same body before every
 * question. Bounded: at most REMEMBERED_BODIES.count bodies of at most textLength characters (16 MB
 * at the very most), the least recently used out first.
 */
export interface ValidBodies {
  /** The request this body validated to, if it was seen and remembered. */
  get(type: string, text: string): Request | undefined
  /** Remembers a body the route's validator accepted. */
  remember(type: string, text: string, request: Request): void
}

export function validBodies(): ValidBodies {
  const valid = new Map<string, Request>()
  return {
    get(type, text) {
      const key = `${type}\n${text}`
      const known = valid.get(key)
      if (known !== undefined) {
        // The most recently used last: the oldest unused go first.
        valid.delete(key)
        valid.set(key, known)
      }
      return known
    },
    remember(type, text, request) {
      if (text.length > REMEMBERED_BODIES.textLength) return
      if (valid.size >= REMEMBERED_BODIES.count) valid.delete(valid.keys().next().value as string)
      valid.set(`${type}\n${text}`, deepFreeze(request))
    },
  }
}

const JSON_TYPE = /^application\/json/i

/**
 * A body seen before with the same content type skips JSON parsing and zod (about a third of a
 * recommendation served from memory); any other goes through the route's validator, and is
 * remembered when it was valid.
 */
function rememberValidBodies(bodies: ValidBodies, answer: (c: Context, request: Request) => Promise<Response>): MiddlewareHandler {
  return async (c, next) => {
    const type = c.req.header('content-type')
    if (type === undefined || !JSON_TYPE.test(type)) return next()
    const text = await c.req.text()
    const known = bodies.get(type, text)
    if (known !== undefined) return answer(c, known)
    await next()
    if (c.res.status === 200) bodies.remember(type, text, c.req.valid('json' as never) as Request)
  }
}

/**
 * `POST /v1/recommendations` with a body remembered valid, answered before the app's middleware
 * chain: the request an orchestrator sends before every question, whose answer is mostly kept in
 * memory. Each middleware layer of the chain costs a few µs of a request of about 75; side by side
 * (`cpu-per-request.ts --checkout`, bench/README.md), this path took a request from 83-118 µs of
 * CPU to 70-95. It does what the chain would do for such a request, with the same parts: the
 * request id and its header, the log line, the token and the user it may act for, the answer's
 * bytes, and the app's error handler (`onError`) for an error. Anything else (another method,
 * a query string, which may name users, a body of unknown or too large a length, a missing or
 * unknown token, before the body is read; then a body not remembered, or a user the token may not
 * act for) it leaves to the chain, untouched but for the body text read, which hono keeps: the
 * chain answers it as if this path were not there, and logs it.
 */
export function answerRememberedFirst(options: {
  memory: DecisionMemory
  bodies: ValidBodies
  logger: Logger
  onError: (error: Error, c: Context) => Response | Promise<Response>
  auth?: TokenTable | undefined
}): MiddlewareHandler {
  const { memory, bodies, logger, onError, auth } = options
  return async function answerRememberedFirst(c, next) {
    const started = performance.now()
    const type = c.req.header('content-type')
    const length = Number(c.req.header('content-length'))
    if (
      c.req.method !== 'POST' ||
      type === undefined ||
      !JSON_TYPE.test(type) ||
      // Read here only when it is short enough to be remembered (UTF-8: at most 4 bytes a character).
      !(length > 0 && length <= 4 * REMEMBERED_BODIES.textLength) ||
      c.req.header('transfer-encoding') !== undefined ||
      c.req.url.includes('?')
    ) {
      return next()
    }
    // The token before the body: a request the chain refuses (401) is never made to wait for it.
    const principal = auth === undefined ? undefined : principalFor(auth, c.req.header('authorization'))
    if (auth !== undefined && principal === undefined) return next()
    const requestId = requestIdFor(c.req.header(REQUEST_ID_HEADER))
    let response: Response
    try {
      const known = bodies.get(type, await c.req.text())
      if (known === undefined || (principal !== undefined && !mayActFor(principal, known.user))) return next()
      // Headers as a plain object: @hono/node-server writes them to the socket as they are.
      response = new Response(await memory.recommendJson(known), {
        status: 200,
        headers: { 'content-type': 'application/json', [REQUEST_ID_HEADER.toLowerCase()]: requestId },
      })
    } catch (error) {
      // A body that could not be read, a store that failed: answered as the chain answers it,
      // under this request's id, without asking the use case again.
      c.set('requestId' as never, requestId as never)
      response = await onError(error instanceof Error ? error : new Error(String(error)), c)
      response.headers.set(REQUEST_ID_HEADER, requestId)
    }
    logRequest(logger, { requestId, method: 'POST', path: c.req.path, status: response.status, started })
    return response
  }
}

const route = createRoute({
  method: 'post',
  path: '/v1/recommendations',
  summary: 'What will this user pick at this decision point? (R-REC, R-ASK-1, R-ASK-2)',
  description:
    'Answers with the recommended option, a calibrated confidence, the precondition it holds under, ' +
    'a strength suited to the user, and whether the question is worth asking (`ask`).',
  request: { body: { required: true, content: { 'application/json': { schema: RecommendationRequest } } } },
  responses: {
    200: { description: 'The recommendation', content: { 'application/json': { schema: RecommendationSchema } } },
    400: { description: 'Invalid body', content: { 'application/json': { schema: ErrorSchema } } },
  },
})

export function recommendationRoutes(memory: DecisionMemory, bodies: ValidBodies = validBodies()) {
  const answer = async (c: Context, request: Request) => {
    authorizeUsers(c, [request.user])
    // The answer's JSON as the use case gives it: a kept answer's bytes, not serialised again.
    const json = await memory.recommendJson(request)
    // Typed as what the bytes are, for the route's declared answer.
    return c.body(json, 200, { 'content-type': 'application/json' }) as unknown as Response & TypedResponse<ContractedRecommendation, 200, 'json'>
  }
  return createRouter().openapi({ ...route, middleware: [rememberValidBodies(bodies, answer)] }, (c) => answer(c, c.req.valid('json')))
}
