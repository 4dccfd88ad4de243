import { createRoute } from '@hono/zod-openapi'
import type { DecisionMemory } from '../decision-memory'
import { TAKES, TimestampSchema } from '../domain/observation'
import { wrongTypeSaid } from '../domain/zod-issues'
import { z } from '../domain/zod'
import { forEveryUser } from './auth'
import { ErrorSchema } from './errors'
import { nullsLeftOut } from './nulls-left-out'
import { createRouter } from './router'

/** The body of `POST /v1/maintenance/decay-scan`; strict: a misspelt `force` dropped would skip the scan. */
export const DecayScanRequest = nullsLeftOut(
  z.strictObject({
    force: z.boolean({ error: wrongTypeSaid(TAKES.flag) }).optional().openapi({ description: 'Run even within the cadence window of the last scan.' }),
    now: TimestampSchema.optional().openapi({
      description: 'Scan as of this moment (default: now); at most 5 minutes ahead of the service clock.',
    }),
  }),
)
  // The body /docs fills in, rather than a `now` Swagger UI makes up from its pattern (a year 1455, a month 51).
  .openapi('DecayScanRequest', { example: { force: false } })

/** What a decay scan did, or why it did not run (R-MEM-7). */
export const DecayScanResult = z
  .union([
    z.object({
      status: z.literal('ran'),
      scanned_at: z.string(),
      expired_from_recall: z.number().int(),
      core_demoted: z.number().int(),
      aggregates_refreshed: z.number().int(),
      duration_ms: z.number(),
    }),
    z.object({
      status: z.literal('skipped'),
      reason: z.literal('within_cadence_window'),
      last_run: z.string(),
      next_run_after: z.string(),
    }),
  ])
  .openapi('DecayScanResult')

const route = createRoute({
  method: 'post',
  path: '/v1/maintenance/decay-scan',
  operationId: 'runDecayScan',
  tags: ['maintenance'],
  summary: 'Run the decay scan (R-MEM-7)',
  description:
    'Takes observations older than the recall TTL out of recall (they stay in archival and keep their ' +
    'decayed weight), drops the points questions were planned at as long ago whose answers never came, ' +
    'and those a plan showed with options taken out as long ago, ' +
    'rebuilds aggregates built with other policy numbers and keeps core within ' +
    '`core.max_entries`. At most once per `scan.cadence_hours` unless `force`; idempotent and crash-safe. ' +
    'The body may be omitted.',
  request: { body: { required: false, content: { 'application/json': { schema: DecayScanRequest } } } },
  responses: {
    200: { description: 'Ran, or skipped within the cadence window', content: { 'application/json': { schema: DecayScanResult } } },
    400: { description: 'Invalid body', content: { 'application/json': { schema: ErrorSchema } } },
    503: {
      description: 'The service is stopping: the scan stopped between two of its writes; what it did is kept, and the next scan finishes it',
      content: { 'application/json': { schema: ErrorSchema } },
    },
  },
})

/** The maintenance routes: the decay scan. */
export function maintenanceRoutes(memory: DecisionMemory) {
  // The scan ages every user's observations: with auth on, only a token for every user runs it.
  return createRouter().openapi(forEveryUser("run the decay scan, which ages every user's observations", route), async (c) => {
    const body = c.req.valid('json') ?? {}
    return c.json(await memory.decayScan({ force: body.force, now: body.now }), 200)
  })
}
