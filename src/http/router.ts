import { OpenAPIHono } from '@hono/zod-openapi'
import { everyPartHook, type PartSchema, type RequestParts, validationHook } from './errors'

type Route = Parameters<OpenAPIHono['openapi']>[0]

/**
 * The parts of a route's request that a refusal of an earlier one leaves unread (its path
 * parameters, its JSON body), when it has two or more of a query, path parameters and a JSON body.
 */
function partsOf(route: Route): RequestParts | undefined {
  const request = route.request
  // A zod schema, which @hono/zod-openapi validates the body by; a JSON Schema it only documents.
  const schema = (request?.body?.content?.['application/json'] as { schema?: Partial<PartSchema> } | undefined)?.schema
  const json = typeof schema?.safeParseAsync === 'function' ? (schema as PartSchema) : undefined
  const parts: RequestParts = {
    ...(request?.params === undefined ? {} : { params: request.params as never }),
    ...(json === undefined ? {} : { body: { schema: json, required: request?.body?.required === true } }),
  }
  const count = [request?.query, parts.params, parts.body].filter((part) => part !== undefined).length
  return count >= 2 ? parts : undefined
}

/**
 * A router whose every route answers validation failures the same way. A route with two or more
 * of a query, path parameters and a JSON body gets a hook of its own that names what is wrong in
 * each at once (errors.ts's everyPartHook), unless it is given one.
 */
export function createRouter() {
  const router = new OpenAPIHono({ defaultHook: validationHook as never })
  const openapi = router.openapi
  router.openapi = ((route: Route, handler: Parameters<typeof openapi>[1], hook?: Parameters<typeof openapi>[2]) => {
    const parts = partsOf(route)
    return openapi(route, handler, hook ?? (parts === undefined ? undefined : (everyPartHook(parts) as never)))
  }) as typeof openapi
  return router
}
