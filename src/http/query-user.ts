import type { Context } from 'hono'
import { InputError } from '../domain/errors'

/**
 * Refuses (400) a `?user=` on a route that reads its user from the body or the path, when it names
 * another user than the one the route acts for. Such a route reads no query, so it acted for
 * another user than the request named: `POST /v1/observations?user=alice` with a body without
 * `user` stored alice's choice as `default`'s, and with auth on, after the token had been checked
 * for alice (auth.ts reads `?user=` on every route). `where` says where the route's user is read,
 * `withoutUser` whom a body without `user` acts for.
 */
export function refuseOtherQueryUser(c: Context, users: readonly string[], where: 'body' | 'path', withoutUser = '`default`'): void {
  for (const named of c.req.queries('user') ?? []) {
    const user = named.normalize('NFC')
    if (users.includes(user)) continue
    const source = where === 'body' ? `the user of its body (${withoutUser} when it names none)` : 'the user of its path'
    throw new InputError('invalid_request', `invalid request: user (the query names user "${user}", which this route does not read: it acts for ${source})`, {
      issues: [{ path: 'user', message: `give the user in the ${where}, not in the query` }],
    })
  }
}

/** A route as the OpenAPI registry holds it: its method, its path (`/v1/sessions/{id}/…`) and its request's parts. */
interface RegisteredRoute {
  method: string
  path: string
  request?: { query?: unknown }
}

/** A schema as the routes validate a `?user=` with. */
export interface UserSchema {
  safeParse(value: unknown): { success: boolean }
}

/**
 * The schema of the `?user=` each route reads as the user it acts for (`/v1/why`, the hook, a
 * session's read), from the routes' own query schemas: `undefined` for a route that reads none,
 * whose `?user=` is unknown there or let pass for the body's or path's user (refuseOtherQueryUser).
 * A path named as it is (`/v1/decisions/check`) is its own route, not one of a parameter's.
 */
export function queryUserSchemas(definitions: ReadonlyArray<{ type: string; route?: RegisteredRoute }>): (method: string, path: string) => UserSchema | undefined {
  const routes = definitions.flatMap((definition) => {
    if (definition.type !== 'route' || definition.route === undefined) return []
    const { method, path, request } = definition.route
    const user = (request?.query as { shape?: Record<string, UserSchema | undefined> } | undefined)?.shape?.user
    const parts = path.split('/').map((part) => (/^\{.+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    return [{ method: method.toUpperCase(), named: !path.includes('{'), path, pattern: new RegExp(`^${parts.join('/')}$`), user }]
  })
  return (method, path) => {
    const asked = method === 'HEAD' ? 'GET' : method
    const fitting = routes.filter((route) => route.method === asked && (route.named ? route.path === path : route.pattern.test(path)))
    return (fitting.find((route) => route.named) ?? fitting[0])?.user
  }
}
