import { OpenAPIHono } from '@hono/zod-openapi'
import type { MiddlewareHandler } from 'hono'
import { InputError } from '../domain/errors'
import { IdentifierSchema, shownName } from '../domain/observation'
import { z } from '../domain/zod'
import { everyPartHook, fieldsOf, type PartSchema, queryFaultsHook, type QueryFaults, type RequestParts, validationHook } from './errors'
import { nullBodyLeftOut, nullReadAsNoBody } from './nulls-left-out'
import { queryUserIssues } from './query-user'

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
 * A query parameter every route lets pass unread: `_`, what a client adds to a GET so that no
 * cache answers it (jQuery's `cache: false`), and no parameter's name misspelt.
 */
const CACHE_BUSTER = '_'

export interface RouterOptions {
  /**
   * The route reads its user from the body or the path and takes a `?user=` naming that user
   * (query-user.ts refuses one naming another): `user` is not an unknown query parameter there.
   */
  queryUser?: boolean
  /** Any query parameter is let pass unread (`/healthz`: a probe's query changes nothing it says). */
  anyQuery?: boolean
}

/**
 * The `?user=` a route that reads its user from the body or the path lets pass, as the document
 * lists it: only the 400's text said it, and a client reading the parameters saw none. Documented
 * alone, not validated as the route's query (query-user.ts refuses one naming another user), so
 * that what the route answers is unchanged.
 */
function queryUserParameter(route: Route) {
  const inPath = userInPath(route)
  const description = inPath
    ? 'Not read: the operation acts for the user of its path. Let pass where it names that user, as a client adding `?user=` to every call sends it; ' +
      'one naming another user is refused, `400 invalid_request` naming `user` (`give the user in the path, not in the query`), and so is one given more than once, ' +
      'even twice that user (`given more than once in the query: give it once`).'
    : 'Not read: the operation acts for the user its body names (`default` where a body of observations, a recommendation, a plan or a session names none; a check that names none acts for no user, and any `?user=` beside it is refused). ' +
      'Let pass where it names that user, as a client adding `?user=` to every call sends it; one naming another user is refused, ' +
      '`400 invalid_request` naming `user` (`give the user in the body, not in the query`), and so is one given more than once, even twice that user ' +
      '(`given more than once in the query: give it once`).'
  return { name: 'user', in: 'query' as const, required: false, description, schema: { ...z.toJSONSchema(IdentifierSchema, { io: 'input' }), $schema: undefined } }
}

/** Whether the route reads its user from its path (`/v1/users/{user}`), not its body. */
function userInPath(route: Route): boolean {
  return (route.request?.params as { shape?: Record<string, unknown> } | undefined)?.shape?.user !== undefined
}

/**
 * The faults of a `?user=` beside the others of a request refused (query-user.ts's
 * queryUserIssues): whether it names another user is told by the path's user, as sent; a body's
 * is not read.
 */
function queryUserFaults(route: Route): QueryFaults {
  if (!userInPath(route)) return (c) => queryUserIssues(c, undefined, 'body')
  return (c) => queryUserIssues(c, [c.req.param('user') ?? ''], 'path')
}

/**
 * Whether the query has a parameter with a value but no name (`?=2026-07-01T09:00:00Z`, `?=`),
 * which hono's queries() leaves out: such a one was let pass unread, as a misspelt one was. An
 * empty pair (`?`, `?&&`) sends nothing and passes; nor does a `?` after a `#` start a query.
 */
function namesNone(url: string): boolean {
  const hash = url.indexOf('#')
  const at = url.slice(0, hash === -1 ? undefined : hash).indexOf('?')
  if (at === -1) return false
  return url
    .slice(at + 1, hash === -1 ? undefined : hash)
    .split('&')
    .some((pair) => pair.startsWith('='))
}

/**
 * Refuses (400) the query parameters a route does not have, each named: they were ignored, so that
 * `GET /v1/decisions/pulses?as_of=…` answered as of now and a misspelt `?asof=` on a route that
 * has `as_of` gave a wrong answer as if it were right.
 */
function knownQueryOnly(route: Route, queryUser: boolean): MiddlewareHandler {
  const shape = (route.request?.query as { shape?: Record<string, unknown> } | undefined)?.shape ?? {}
  const names = Object.keys(shape)
  const known = new Set([...names, CACHE_BUSTER, ...(queryUser ? ['user'] : [])])
  const takes = names.length === 0 ? 'this route takes none' : `this route takes ${names.join(', ')}`
  return async (c, next) => {
    const unknown = Object.keys(c.req.queries()).filter((name) => !known.has(name))
    if (!known.has('') && namesNone(c.req.url)) unknown.unshift('')
    if (unknown.length > 0) {
      const issues = unknown.map((name) => ({ path: shownName(name), message: `unknown query parameter: ${takes}` }))
      throw new InputError('invalid_request', `invalid request: ${fieldsOf(issues)} (unknown query parameter: ${takes})`, { issues })
    }
    await next()
  }
}

/**
 * A router whose every route answers validation failures the same way. A route with two or more
 * of a query, path parameters and a JSON body gets a hook of its own that names what is wrong in
 * each at once (errors.ts's everyPartHook), unless it is given one; with `queryUser`, a `?user=` at
 * fault is named among them. A query parameter a route does
 * not have is refused before anything else of the request is read (but with `anyQuery`). A body
 * a route may go without is read as none when it is JSON `null` (nullBodyLeftOut).
 */
export function createRouter({ queryUser = false, anyQuery = false }: RouterOptions = {}) {
  const router = new OpenAPIHono({ defaultHook: validationHook as never })
  const openapi = router.openapi
  router.openapi = ((route: Route, handler: Parameters<typeof openapi>[1], hook?: Parameters<typeof openapi>[2]) => {
    const parts = partsOf(route)
    const own = route.middleware === undefined ? [] : Array.isArray(route.middleware) ? route.middleware : [route.middleware]
    const listed = queryUser ? { ...route, parameters: [...((route as { parameters?: unknown[] }).parameters ?? []), queryUserParameter(route)] } : route
    // A body that may be left out is left out when sent as null (nullBodyLeftOut), before any part is validated.
    const json = route.request?.body?.content?.['application/json']
    const optionalBody = json !== undefined && route.request?.body?.required !== true && nullReadAsNoBody((json as { schema?: unknown }).schema)
    const before = optionalBody ? [nullBodyLeftOut, ...own] : own
    const checked = anyQuery ? { ...listed, middleware: before } : { ...listed, middleware: [knownQueryOnly(route, queryUser), ...before] }
    // A ?user= at fault beside another fault is named with it (query-user.ts).
    const faults = queryUser ? queryUserFaults(route) : undefined
    const ownHook = parts === undefined ? (faults === undefined ? undefined : queryFaultsHook(faults)) : everyPartHook(parts, faults)
    return openapi(checked as typeof route, handler, hook ?? (ownHook as never))
  }) as typeof openapi
  return router
}
