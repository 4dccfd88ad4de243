import { createRoute } from '@hono/zod-openapi'
import type { Context, MiddlewareHandler, TypedResponse } from 'hono'
import type { DecisionMemory } from '../decision-memory'
import type { ContractedRecommendation } from '../decisions/enforcement'
import { deepFreeze } from '../domain/freeze'
import type { RecommendationRequest as Request } from '../domain/recommendation'
import { authorizeUsers } from './auth'
import { refuseOtherQueryUser } from './query-user'
import { ErrorSchema } from './errors'
import { createRouter } from './router'
import { RecommendationRequest, RecommendationSchema } from './schemas'

/** Bodies whose validation is remembered: short ones (an orchestrator's), not too many (about 4 KB each in memory). */
export const REMEMBERED_BODIES = { count: 4096, textLength: 1024 }

/**
 * The requests validated recently, by the text of their body and its declared content type:
 * validation is a function of those alone, and an orchestrator sends the same body before every
 * question. Bounded: at most REMEMBERED_BODIES.count bodies of at most textLength characters (16 MB
 * at the very most), about the least recently used out first.
 */
export interface ValidBodies {
  /** The request this body validated to, if it was seen and remembered. */
  get(type: string, text: string): Request | undefined
  /** Remembers a body the route's validator accepted. */
  remember(type: string, text: string, request: Request): void
}

export function validBodies(): ValidBodies {
  // By the text alone, each with the content type it came with: the text is hashed as it is, never
  // joined to the type first. A text remembered again under another type replaces the first.
  const valid = new Map<string, { type: string; request: Request; moved: number }>()
  // How many have been remembered: the order of `valid`, oldest first, is by this.
  let remembered = 0
  return {
    get(type, text) {
      const known = valid.get(text)
      if (known === undefined || known.type !== type) return undefined
      // Used: moved behind the newest, but only once half the bound has been remembered since it
      // was last placed, not at every hit (every request of an orchestrator is one, and a move is
      // two more lookups). The next out is the one placed longest ago: about the least recently
      // used, and at worst a body asked again is validated again.
      if (remembered - known.moved > REMEMBERED_BODIES.count / 2) {
        valid.delete(text)
        known.moved = remembered
        valid.set(text, known)
      }
      return known.request
    },
    remember(type, text, request) {
      if (text.length > REMEMBERED_BODIES.textLength) return
      valid.delete(text)
      if (valid.size >= REMEMBERED_BODIES.count) valid.delete(valid.keys().next().value as string)
      valid.set(text, { type, request: deepFreeze(request), moved: ++remembered })
    },
  }
}

export const JSON_TYPE = /^application\/json/i

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

const route = createRoute({
  method: 'post',
  path: '/v1/recommendations',
  operationId: 'recommend',
  tags: ['recommendations'],
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
    refuseOtherQueryUser(c, [request.user], 'body')
    authorizeUsers(c, [request.user])
    // The answer's JSON as the use case gives it: a kept answer's bytes, not serialised again.
    const json = await memory.recommendJson(request)
    // Typed as what the bytes are, for the route's declared answer.
    return c.body(json, 200, { 'content-type': 'application/json' }) as unknown as Response & TypedResponse<ContractedRecommendation, 200, 'json'>
  }
  return createRouter({ queryUser: true }).openapi({ ...route, middleware: [rememberValidBodies(bodies, answer)] }, (c) => answer(c, c.req.valid('json')))
}
