import { createRoute } from '@hono/zod-openapi'
import type { DecisionMemory } from '../decision-memory'
import { authorizeUsers } from './auth'
import { refuseOtherQueryUser } from './query-user'
import { ErrorSchema } from './errors'
import { createRouter } from './router'
import { ObservationsBody, ObservationsResult } from './schemas'

const route = createRoute({
  method: 'post',
  path: '/v1/observations',
  operationId: 'recordObservation',
  tags: ['observations'],
  summary: 'Record one observation or an array of them (R-CAP-1, R-CAP-2)',
  description:
    'A `decision_id` already stored for the user is not stored again and is listed in `duplicates`. ' +
    'Labels are normalised (a trailing " (Recommended)" is dropped); a choice that matches no option is kept as `other`.',
  request: { body: { required: true, content: { 'application/json': { schema: ObservationsBody } } } },
  responses: {
    201: { description: 'Stored', content: { 'application/json': { schema: ObservationsResult } } },
    400: { description: 'Invalid body', content: { 'application/json': { schema: ErrorSchema } } },
  },
})

export function observationRoutes(memory: DecisionMemory) {
  return createRouter({ queryUser: true }).openapi(route, async (c) => {
    const body = c.req.valid('json')
    const observations = Array.isArray(body) ? body : [body]
    refuseOtherQueryUser(c, observations.map((o) => o.user), 'body')
    authorizeUsers(c, observations.map((o, i) => (Array.isArray(body) ? { user: o.user, path: `${i}.user` } : o.user)))
    // A body sent as an array has each field named by its item's place, `[{…}]` too (`0.timestamp`),
    // as its schema errors name them (`0.decisionId`).
    const result = await memory.observe(observations, { indexed: Array.isArray(body) })
    return c.json(result, 201)
  })
}
