/** A route as the OpenAPI registry holds it: its method, its path (`/v1/sessions/{id}/…`) and its request's parts. */
interface RegisteredRoute {
  method: string
  path: string
  request?: { query?: unknown; body?: { content?: Record<string, { schema?: unknown } | undefined> } }
}

/** A schema as the routes validate a user with. */
export interface UserSchema {
  safeParse(value: unknown): { success: boolean }
}

/** Where a route reads the user it acts for, and the schema of each: its `?user=`, the `user` of its body (of each item of an array). */
export interface RouteUsers {
  query?: UserSchema | undefined
  body?: UserSchema | undefined
}

/**
 * What zod 4's public `def` of a schema holds (the object `_zod.def` is): enough to find a `user`
 * field through arrays, tuples, unions, intersections, pipes, defaults and lazy schemas.
 */
interface ZodDef {
  type?: string
  element?: unknown
  items?: unknown[]
  rest?: unknown
  options?: unknown[]
  left?: unknown
  right?: unknown
  in?: unknown
  out?: unknown
  innerType?: unknown
  getter?: () => unknown
}

/**
 * The schema of the `user` field of a body (or of each of its items) `schema` validates, the first
 * found through arrays, tuples, unions, intersections, pipes, defaults and lazy schemas; undefined
 * where a body has none (a decision's, an import's, a hook's payload). One missed here is not judged
 * before its route (which still checks the user it acts for): `Base.and(…)` or `z.lazy(…)` was
 * missed, and a request naming another user in such a body was answered the route's 400 for its
 * other fields, not the 403 every other route's body gets.
 */
function userField(schema: unknown, depth = 0): UserSchema | undefined {
  if (schema === null || typeof schema !== 'object' || depth > 8) return undefined
  const shape = (schema as { shape?: Record<string, UserSchema | undefined> }).shape
  if (shape !== undefined && typeof shape === 'object') return shape.user
  const def = (schema as { def?: ZodDef }).def
  if (def === undefined) return undefined
  const lazy = typeof def.getter === 'function' ? def.getter() : undefined
  const inner = [def.element, ...(def.items ?? []), def.rest, ...(def.options ?? []), def.left, def.right, def.in, def.out, def.innerType, lazy]
  for (const part of inner) {
    const found = userField(part, depth + 1)
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * Where each route reads the user it acts for, from the routes' own schemas: its query's `user`
 * (`/v1/why`, the hook, a session's read) and its JSON body's (observations, a recommendation, a
 * plan, sessions). A route reads none where its schema has none: a `?user=` there is unknown or let
 * pass for the body's or path's user (refuseOtherQueryUser), a body's `user` an unknown field. A
 * path named as it is (`/v1/decisions/check`) is its own route, not one of a parameter's.
 */
export function routeUsers(definitions: ReadonlyArray<{ type: string; route?: RegisteredRoute }>): (method: string, path: string) => RouteUsers {
  const routes = definitions.flatMap((definition) => {
    if (definition.type !== 'route' || definition.route === undefined) return []
    const { method, path, request } = definition.route
    const users: RouteUsers = {
      query: userField(request?.query),
      body: userField(request?.body?.content?.['application/json']?.schema),
    }
    const parts = path.split('/').map((part) => (/^\{.+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    return [{ method: method.toUpperCase(), named: !path.includes('{'), path, pattern: new RegExp(`^${parts.join('/')}$`), users }]
  })
  // Asked on every request with a token: a path named as it is by a map lookup, the others by their patterns.
  const named = new Map(routes.filter((route) => route.named).map((route) => [`${route.method} ${route.path}`, route.users]))
  const patterned = routes.filter((route) => !route.named)
  return (method, path) => {
    const asked = method === 'HEAD' ? 'GET' : method
    return named.get(`${asked} ${path}`) ?? patterned.find((route) => route.method === asked && route.pattern.test(path))?.users ?? {}
  }
}
