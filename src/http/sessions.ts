import { createRoute } from '@hono/zod-openapi'
import type { DecisionMemory } from '../decision-memory'
import { actingUser, authorizeUsers } from './auth'
import { ErrorSchema } from './errors'
import { createRouter } from './router'
import { PersonalizationRequest, SessionIdParam, SessionRequest, SessionSchema } from './schemas'

const start = createRoute({
  method: 'post',
  path: '/v1/sessions',
  summary: 'Start a session (R-SES-1)',
  description: 'Idempotent: starting a session that exists returns it (200); a new one answers 201.',
  request: { body: { required: true, content: { 'application/json': { schema: SessionRequest } } } },
  responses: {
    201: { description: 'Started', content: { 'application/json': { schema: SessionSchema } } },
    200: { description: 'Already started', content: { 'application/json': { schema: SessionSchema } } },
    400: { description: 'Invalid body', content: { 'application/json': { schema: ErrorSchema } } },
  },
})

const personalization = createRoute({
  method: 'put',
  path: '/v1/sessions/{id}/personalization',
  summary: "Turn a session's personalization on or off (R-SES-3)",
  description: 'Holds for that session only; every new session starts with personalization on. Omit `enabled` to flip.',
  request: {
    params: SessionIdParam,
    body: { required: true, content: { 'application/json': { schema: PersonalizationRequest } } },
  },
  responses: {
    200: { description: 'The session', content: { 'application/json': { schema: SessionSchema } } },
    400: { description: 'Invalid request', content: { 'application/json': { schema: ErrorSchema } } },
  },
})

export function sessionRoutes(memory: DecisionMemory) {
  return createRouter()
    .openapi(start, async (c) => {
      const request = c.req.valid('json')
      authorizeUsers(c, [request.user])
      const { created, ...session } = await memory.startSession(request)
      return c.json(session, created ? 201 : 200)
    })
    .openapi(personalization, async (c) => {
      const { id } = c.req.valid('param')
      const body = c.req.valid('json')
      const user = actingUser(c, body.user)
      if (user !== undefined) authorizeUsers(c, [user])
      return c.json(await memory.setPersonalization({ session_id: id, user, enabled: body.enabled }), 200)
    })
}
