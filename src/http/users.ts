import { createRoute, z } from '@hono/zod-openapi'
import { exportLineText } from '../data-rights'
import type { DecisionMemory } from '../decision-memory'
import { IdentifierSchema, QueryTimestampSchema } from '../domain/observation'
import { authorizeUsers } from './auth'
import { refuseOtherQueryUser } from './query-user'
import type { Logger } from 'pino'
import { COUNT_DESCRIPTION } from './decision-schemas'
import { ErrorSchema, storeFailureOf } from './errors'
import { createRouter } from './router'

const UserParam = z.object({
  user: IdentifierSchema.openapi({ param: { name: 'user', in: 'path' }, example: 'alice' }),
})

const PreferencesQuery = z.object({
  as_of: QueryTimestampSchema.optional().openapi({
    description:
      'What had been learned then (R-REC-9), as a recommendation with this `as_of` learns it: only the choices dated up to it ' +
      '(those dated exactly then too), aged from it; not more than 5 minutes ahead of the service clock.',
  }),
})

const PointPreferenceSchema = z
  .object({
    point: z.string(),
    question: z.string(),
    header: z.string().nullable(),
    multi_select: z.boolean(),
    observations: z.number().int(),
    needed: z.number().int().openapi({
      description:
        'How many more choices a recommendation at the point needs before it is personalised (thresholds.min_observations less ' +
        '`observations`; 0 once there are enough): until then it recommends the static default, whatever `majority` and `confidence` say.',
    }),
    changed_since: z.string().nullable(),
    majority: z.string().nullable(),
    selection: z.array(z.string()).nullable(),
    share: z.number(),
    confidence: z
      .object({ value: z.number(), level: z.enum(['high', 'medium-high', 'medium', 'low']), method: z.string() })
      .nullable(),
    options: z.array(z.object({ option: z.string(), count: z.number().openapi({ description: COUNT_DESCRIPTION }), share: z.number() })),
    other: z.number().int().openapi({ description: 'How many of the choices counted were answers outside the options (free text, "Other"), which no option counts.' }),
    projects: z.array(z.string()),
    first_observed: z.string(),
    last_observed: z.string(),
  })
  .openapi('PointPreference')

const PreferencesSchema = z
  .object({
    user: z.string(),
    as_of: z.string().openapi({ description: 'The moment the answer is as of: the `as_of` asked for, in UTC, or the moment it was read.' }),
    points: z.array(PointPreferenceSchema),
  })
  .openapi('Preferences')

const ForgetSchema = z
  .object({
    user: z.string(),
    deleted: z.number().int().openapi({ description: 'Entries deleted from the store, indexes included.' }),
  })
  .openapi('Forgotten')

const errors = {
  400: { description: 'Invalid user', content: { 'application/json': { schema: ErrorSchema } } },
}

const preferencesErrors = {
  400: { description: 'Invalid user, or `as_of`', content: { 'application/json': { schema: ErrorSchema } } },
}

const preferences = createRoute({
  method: 'get',
  path: '/v1/users/{user}/preferences',
  operationId: 'getUserPreferences',
  tags: ['users'],
  summary: 'What has been learned about a user at each decision point (R-SVC-5)',
  description:
    'Per point: the decayed majority, its share and confidence as a recommendation computes them, and every ' +
    'option with its count and share. Only the user’s own choices count. With `as_of`, an audit: what had been learned ' +
    'then, from the choices dated up to it, aged from it.',
  request: { params: UserParam, query: PreferencesQuery },
  responses: {
    200: { description: 'The preferences', content: { 'application/json': { schema: PreferencesSchema } } },
    ...preferencesErrors,
  },
})

const exportRoute = createRoute({
  method: 'get',
  path: '/v1/users/{user}/export',
  operationId: 'exportUser',
  tags: ['users'],
  summary: 'Everything held about a user, as NDJSON (R-SVC-5)',
  description:
    'One JSON object per line: first `{"type":"export","format":1,"user","exported_at"}`, then ' +
    '`{"type":"observation","data"}`, `{"type":"session","data"}`, `{"type":"aggregate","data":{"sublevel","key","value"}}` ' +
    'for each stored part of what has been learned per decision point (core), `{"type":"entry","data":{"sublevel","key","value"}}` ' +
    'for anything else stored about the user, and last `{"type":"end","counts":{…}}`. An export without its ' +
    '`end` line was cut short.',
  request: { params: UserParam },
  responses: {
    200: {
      description: 'The export',
      content: { 'application/x-ndjson': { schema: z.string().openapi({ description: 'NDJSON lines' }) } },
    },
    ...errors,
  },
})

const forget = createRoute({
  method: 'delete',
  path: '/v1/users/{user}',
  operationId: 'forgetUser',
  tags: ['users'],
  summary: 'Forget a user: every tier, every index, every aggregate (R-SVC-5)',
  description:
    'Deletes every entry of the store that belongs to the user, in one atomic, synced write. Other users’ ' +
    'data is untouched, even where it mentions the user’s name. Forgetting a user with no data deletes nothing.',
  request: { params: UserParam },
  responses: {
    200: { description: 'Forgotten', content: { 'application/json': { schema: ForgetSchema } } },
    ...errors,
  },
})

/**
 * Streams export lines as NDJSON, pulling the next line only when the client has taken the last.
 * A line that cannot be read (the store failed, or closed as the service stops) errors the stream,
 * which cuts the connection before the `end` line; `cutShort` is told first, with how many lines
 * went out, since the request's own line was logged with its 200 before the first one. So is a
 * stream cancelled before its last line: its connection closed under it (the stop's grace ran out
 * on a slow reader, or the client went away), which the request's 200 line does not say either.
 */
function ndjsonStream(lines: AsyncIterable<unknown>, cutShort: (error: Error | undefined, sent: number) => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  const iterator = lines[Symbol.asyncIterator]()
  let sent = 0
  let finished = false
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next
      try {
        next = await iterator.next()
      } catch (error) {
        finished = true
        cutShort(error as Error, sent)
        throw error
      }
      if (next.done === true) {
        finished = true
        controller.close()
      } else {
        controller.enqueue(encoder.encode(exportLineText(next.value) + '\n'))
        sent += 1
      }
    },
    async cancel() {
      if (!finished) cutShort(undefined, sent)
      finished = true
      await iterator.return?.()
    },
  })
}

/** A user's data rights over HTTP: preferences, export and forget (R-SVC-5). */
export function userRoutes(memory: DecisionMemory, logger: Logger) {
  return createRouter({ queryUser: true })
    .openapi(preferences, async (c) => {
      const { user } = c.req.valid('param')
      refuseOtherQueryUser(c, [user], 'path')
      authorizeUsers(c, [user])
      return c.json(await memory.preferences(user, c.req.valid('query')), 200)
    })
    .openapi(exportRoute, async (c) => {
      const { user } = c.req.valid('param')
      refuseOtherQueryUser(c, [user], 'path')
      authorizeUsers(c, [user])
      const requestId = c.get('requestId' as never) as string | undefined
      // `error` undefined: the connection closed under the stream (no error of the store's).
      const cutShort = (error: Error | undefined, sent: number) =>
        logger.error(
          { event: 'export-cut-short', ...(error === undefined ? {} : { err: error }), req_id: requestId, lines: sent },
          `the export of a user was cut short after ${sent} lines: ${error === undefined ? 'the connection closed before the end line' : (storeFailureOf(error, false) ?? error.message)}`,
        )
      return c.body(ndjsonStream(memory.exportUser(user), cutShort), 200, {
        'content-type': 'application/x-ndjson; charset=utf-8',
      }) as never
    })
    .openapi(forget, async (c) => {
      const { user } = c.req.valid('param')
      refuseOtherQueryUser(c, [user], 'path')
      authorizeUsers(c, [user])
      return c.json(await memory.forgetUser(user), 200)
    })
}
