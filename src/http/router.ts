import { OpenAPIHono } from '@hono/zod-openapi'
import { pathAndQueryHook, validationHook } from './errors'

/**
 * A router whose every route answers validation failures the same way. A route with a path
 * parameter and a query gets a hook of its own that names what is wrong in both at once
 * (errors.ts's pathAndQueryHook), unless it is given one.
 */
export function createRouter() {
  const router = new OpenAPIHono({ defaultHook: validationHook as never })
  const openapi = router.openapi
  router.openapi = ((route: Parameters<typeof openapi>[0], handler: Parameters<typeof openapi>[1], hook?: Parameters<typeof openapi>[2]) => {
    const params = route.request?.params
    const both = params !== undefined && route.request?.query !== undefined
    return openapi(route, handler, hook ?? (both ? (pathAndQueryHook(params as never) as never) : undefined))
  }) as typeof openapi
  return router
}
