import { createRoute, z } from '@hono/zod-openapi'
import { createRouter } from './router'

const route = createRoute({
  method: 'get',
  path: '/healthz',
  operationId: 'getHealth',
  tags: ['health'],
  summary: 'Liveness: the service is up and its store is open',
  // The one route open with --auth (R-SVC-4): a load balancer's probe carries no token.
  security: [],
  responses: {
    200: {
      description: 'Up',
      content: { 'application/json': { schema: z.object({ status: z.literal('ok'), version: z.string() }) } },
    },
  },
})

export function healthRoutes(version: string) {
  return createRouter().openapi(route, (c) => c.json({ status: 'ok' as const, version }, 200))
}
