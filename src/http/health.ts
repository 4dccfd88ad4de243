import { createRoute, z } from '@hono/zod-openapi'
import { createRouter } from './router'

const route = createRoute({
  method: 'get',
  path: '/healthz',
  summary: 'Liveness: the service is up and its store is open',
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
