import { createRoute } from '@hono/zod-openapi'
import type { Context, MiddlewareHandler } from 'hono'
import type { DecisionMemory } from '../decision-memory'
import { deepFreeze } from '../domain/freeze'
import type { RecommendationRequest as Request } from '../domain/recommendation'
import { authorizeUsers } from './auth'
import { ErrorSchema } from './errors'
import { json } from './json-text'
import { createRouter } from './router'
import { RecommendationRequest, RecommendationSchema } from './schemas'

/** Bodies whose validation is remembered: short ones (an orchestrator's), not too many (about 4 KB each in memory). */
const REMEMBERED_BODIES = { count: 4096, textLength: 1024 }

/**
 * The requests validated recently, by the text of their body and its declared content type:
 * validation is a function of those alone, and an orchestrator sends the same body before every
 * question. A body seen before with the same content type skips JSON parsing and zod (about a
 * third of a recommendation served from memory); any other goes through the route's validator,
 * and is remembered when it was valid. Bounded: at most REMEMBERED_BODIES.count bodies of at most
 * textLength characters (16 MB at the very most), the least recently used out first.
 */
function rememberValidBodies(answer: (c: Context, request: Request) => Promise<Response>): MiddlewareHandler {
  const valid = new Map<string, Request>()
  return async (c, next) => {
    const type = c.req.header('content-type')
    if (type === undefined || !/^application\/json/i.test(type)) return next()
    const text = await c.req.text()
    const key = `${type}\n${text}`
    const known = valid.get(key)
    if (known !== undefined) {
      // The most recently used last: the oldest unused go first.
      valid.delete(key)
      valid.set(key, known)
      return answer(c, known)
    }
    await next()
    if (c.res.status !== 200 || text.length > REMEMBERED_BODIES.textLength) return
    if (valid.size >= REMEMBERED_BODIES.count) valid.delete(valid.keys().next().value as string)
    valid.set(key, deepFreeze(c.req.valid('json' as never) as Request))
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

export function recommendationRoutes(memory: DecisionMemory) {
  const answer = async (c: Context, request: Request) => {
    authorizeUsers(c, [request.user])
    return json(c, await memory.recommend(request), 200)
  }
  return createRouter().openapi({ ...route, middleware: [rememberValidBodies(answer)] }, (c) => answer(c, c.req.valid('json')))
}
