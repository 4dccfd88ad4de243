import { createRoute } from '@hono/zod-openapi'
import type { DecisionMemory } from '../decision-memory'
import type { z } from '../domain/zod'
import { actingUser, authorizeUsers } from './auth'
import { ErrorSchema } from './errors'
import { refuseOtherQueryUser } from './query-user'
import { createRouter } from './router'
import { PersonalizationRequest, SessionIdParam, SessionQuery, SessionRequest, SessionSchema } from './schemas'

const start = createRoute({
  method: 'post',
  path: '/v1/sessions',
  operationId: 'startSession',
  tags: ['sessions'],
  summary: 'Start a session (R-SES-1)',
  description:
    'Idempotent: starting a session that exists returns it as stored (200), its `project` the one it was started in ' +
    'whatever the request says; a `started_at` earlier than the stored one moves its start back, and a `project` given with it is the ' +
    'session’s, that start being the session’s (none given keeps it, even after the clock stepped back behind it). A new one answers 201.',
  // Every field has a default: a request without a body starts a session for "default".
  request: { body: { required: false, content: { 'application/json': { schema: SessionRequest } } } },
  responses: {
    201: { description: 'Started', content: { 'application/json': { schema: SessionSchema } } },
    200: { description: 'Already started', content: { 'application/json': { schema: SessionSchema } } },
    400: { description: 'Invalid body', content: { 'application/json': { schema: ErrorSchema } } },
  },
})

const personalization = createRoute({
  method: 'put',
  path: '/v1/sessions/{id}/personalization',
  operationId: 'setSessionPersonalization',
  tags: ['sessions'],
  summary: "Turn a session's personalization on or off (R-SES-3)",
  description: 'Holds for that session only; every new session starts with personalization on. Omit `enabled` to flip.',
  request: {
    params: SessionIdParam,
    // A request without a body flips the setting, as one without `enabled` does.
    body: { required: false, content: { 'application/json': { schema: PersonalizationRequest } } },
  },
  responses: {
    200: { description: 'The session', content: { 'application/json': { schema: SessionSchema } } },
    400: { description: 'Invalid request', content: { 'application/json': { schema: ErrorSchema } } },
  },
})

const readPersonalization = createRoute({
  method: 'get',
  path: '/v1/sessions/{id}/personalization',
  operationId: 'getSessionPersonalization',
  tags: ['sessions'],
  summary: "A session's personalization setting, read (R-SES-3)",
  description:
    'The session as the toggle answers it, its `personalization` and `toggles` among it: read, never started or changed ' +
    '(`decision-memory toggle --show`). A session id nobody has is `404 session_not_found`, not a session started.',
  request: { params: SessionIdParam, query: SessionQuery },
  responses: {
    200: { description: 'The session', content: { 'application/json': { schema: SessionSchema } } },
    400: { description: 'Invalid request, or a session id several users have without `user`', content: { 'application/json': { schema: ErrorSchema } } },
    404: { description: 'No session of this id (of `user`, when given)', content: { 'application/json': { schema: ErrorSchema } } },
  },
})

/** The read of a session: its `?user=` is its own query parameter, read, not one let pass for a body's user. */
function sessionReadRoutes(memory: DecisionMemory) {
  return createRouter().openapi(readPersonalization, async (c) => {
    const { id } = c.req.valid('param')
    // As the toggle: with auth, a request without `user` reads "default"'s, never a guess among the users who have the id.
    const user = actingUser(c, c.req.valid('query').user)
    if (user !== undefined) authorizeUsers(c, [user])
    return c.json(await memory.session({ session_id: id, user, sessionField: 'id' }), 200)
  })
}

export function sessionRoutes(memory: DecisionMemory) {
  return createRouter({ queryUser: true })
    .openapi(start, async (c) => {
      // A request without a body skips the schema (it is {} as is), so its default user is set here.
      const body = c.req.valid('json') as Partial<z.output<typeof SessionRequest>>
      const request = { ...body, user: body.user ?? 'default' }
      refuseOtherQueryUser(c, [request.user], 'body')
      authorizeUsers(c, [request.user])
      const { created, ...session } = await memory.startSession(request)
      return c.json(session, created ? 201 : 200)
    })
    .openapi(personalization, async (c) => {
      const { id } = c.req.valid('param')
      const body = c.req.valid('json')
      const user = actingUser(c, body.user)
      // Without auth and without `user`, the session's owner: never the query's, which it does not read.
      refuseOtherQueryUser(c, user === undefined ? [] : [user], 'body', user === undefined ? 'the session\'s owner' : undefined)
      if (user !== undefined) authorizeUsers(c, [user])
      return c.json(await memory.setPersonalization({ session_id: id, user, enabled: body.enabled, sessionField: 'id' }), 200)
    })
    .route('/', sessionReadRoutes(memory))
}
