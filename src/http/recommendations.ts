import { createRoute } from '@hono/zod-openapi'
import type { DecisionMemory } from '../decision-memory'
import { authorizeUsers } from './auth'
import { ErrorSchema } from './errors'
import { json } from './json-text'
import { createRouter } from './router'
import { RecommendationRequest, RecommendationSchema } from './schemas'

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
  return createRouter().openapi(route, async (c) => {
    const request = c.req.valid('json')
    authorizeUsers(c, [request.user])
    return json(c, await memory.recommend(request), 200)
  })
}
