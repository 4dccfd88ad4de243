import { createRoute, z } from '@hono/zod-openapi'
import { ErrorSchema, errorBody } from './errors'
import { createRouter } from './router'

const route = createRoute({
  method: 'get',
  path: '/healthz',
  operationId: 'getHealth',
  tags: ['health'],
  summary: 'Liveness: the service is up and its store is open and can be written',
  // The one route open with --auth (R-SVC-4): a load balancer's probe carries no token.
  security: [],
  responses: {
    200: {
      description: 'Up',
      content: { 'application/json': { schema: z.object({ status: z.literal('ok'), version: z.string() }) } },
    },
    503: {
      description:
        'Up, but the last write to the store failed (`store_unavailable`: a full disk, a file it may not write), so every write is refused: fix the cause and restart the service',
      content: { 'application/json': { schema: ErrorSchema } },
    },
  },
})

/**
 * `/healthz`. `storeFailure` says why the store's last write failed (open-store.ts's watchWrites):
 * a probe (systemd, a container's health check) then sees the service cannot store anything,
 * rather than `ok` while every write is refused.
 */
export function healthRoutes(version: string, storeFailure: () => string | undefined = () => undefined) {
  return createRouter().openapi(route, (c) => {
    const failure = storeFailure()
    if (failure !== undefined) {
      return c.json(
        errorBody(c, 'store_unavailable', `the store's last write failed (${failure}): every write is refused until one succeeds, and LevelDB refuses them all after most such failures; fix the cause (a full disk, a file it may not write), then restart the service`),
        503,
      )
    }
    return c.json({ status: 'ok' as const, version }, 200)
  })
}
