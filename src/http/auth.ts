import type { RouteConfig } from '@hono/zod-openapi'
import type { Context, MiddlewareHandler } from 'hono'
import type { Principal, TokenTable } from '../config/load-tokens'
import { InputError } from '../domain/errors'
import { IdentifierSchema, quotedName } from '../domain/observation'
import { errorBody, ErrorSchema } from './errors'
import type { RouteUsers } from './route-users'

/** Routes anyone may call: a load balancer's liveness probe carries no token. */
const PUBLIC_PATHS = new Set(['/healthz'])

/**
 * The service's address opened in a browser (`GET /`), which sends no token: answered where the
 * routes are listed (app.ts's 404), which says nothing of the store nor of any user, rather than a
 * bare 401 that left a new user with no pointer to /docs. Any other method there needs the token.
 */
const isRootBrowsed = (c: Context) => c.req.path === '/' && (c.req.method === 'GET' || c.req.method === 'HEAD')

const BEARER = /^Bearer +([^\s]+) *$/i

/**
 * What separates `Bearer` from a token where RFC 6750 wants a space (`1*SP`), said (`a tab`), or
 * undefined when nothing does: `Bearer<TAB>token`, as a header pasted from a tab-separated file or
 * typed in some HTTP clients sends it, was told "a bearer token is required", and its sender
 * looked for a token missing rather than at the character before it.
 */
function badSeparator(authorization: string): string | undefined {
  const separator = /^Bearer(\s+)\S/i.exec(authorization)?.[1]
  const odd = separator?.replace(/ /g, '')[0]
  if (odd === undefined) return undefined
  return odd === '\t' ? 'a tab' : `U+${odd.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`
}

function principalOf(c: Context): Principal | undefined {
  return c.get('principal' as never) as Principal | undefined
}

/** A name as the routes' IdentifierSchema sees it: URI-decoded and NFC. */
function asIdentifier(raw: string): string {
  let text = raw
  try {
    text = decodeURIComponent(raw)
  } catch {
    // Left as sent: decodableUrl (url-encoding.ts) has answered 400 for it before this runs.
  }
  return text.normalize('NFC')
}

/**
 * The users a request names where its route reads them: the path (`/v1/users/{user}`), else the
 * query (`?user=`), and the body (`user`, in every item of an array; not a hook's payload,
 * FOREIGN_BODIES). Each route still checks the user it acts for after validation, where a missing
 * `user` has become `default`. A name the route does not take (empty, too long, `!bob`, a write's
 * ` alice `), or a `user` where it takes none, is left to the route, whose 400 names the field
 * (R-SVC-2): it names nobody the token could be refused. The body only of a POST or a PUT, the
 * methods whose routes read one: `DELETE /v1/users/alice` forgets alice whatever a body says,
 * which the route never reads (nor most clients and proxies send), and alice's own token was
 * refused it, 403, for a body naming bob.
 */
async function namedUsers(c: Context, routeUsers: RouteUsersOf): Promise<NamedUser[]> {
  const users: NamedUser[] = []
  const read = routeUsers(c.req.method, c.req.path)
  const inPath = /^\/v1\/users\/([^/]+)/.exec(c.req.path)
  if (inPath !== null) users.push(asIdentifier(inPath[1] as string))
  // The path names the user of /v1/users/{user}, whatever a `?user=` says: the route refuses one
  // naming another user, 400 naming `user`, as without auth (refuseOtherQueryUser), rather than a
  // 403 that sent alice looking for bob's token to forget herself.
  // A `?user=` is read where the route reads it as its user, and judged as that route judges it:
  // one the route refuses (the hook's ` alice `, which it would write under) is left to its 400
  // naming `user`. Where no route reads it, the route answers it as without auth, 400 naming
  // `user` (unknown there, or another than its body's user): a 403 for a parameter the route never
  // read sent alice looking for bob's token to check a choice or record her own.
  else for (const user of c.req.queries('user') ?? []) if (read.query?.safeParse(user).success === true) users.push(user.normalize('NFC'))
  // So is a body's `user`, where the route's body has one: an import's `user`, an unknown field, is
  // refused by the route naming it, and a write's ` alice ` with the words that it is spaced.
  const json = /^application\/([a-z.-]+\+)?json/i.test(c.req.header('content-type') ?? '')
  if ((c.req.method === 'POST' || c.req.method === 'PUT') && read.body !== undefined && !FOREIGN_BODIES.has(c.req.path) && json) {
    // hono keeps the parsed body, so the route's validator does not read it again.
    const body: unknown = await c.req.json().catch(() => undefined)
    const items: unknown[] = Array.isArray(body) ? body : [body]
    items.forEach((item, i) => {
      const user = (item as { user?: unknown } | null)?.user
      if (typeof user !== 'string' || read.body?.safeParse(user).success !== true) return
      // An array's item is named by its place, as every refusal of an item's field is (`1.user`).
      users.push(Array.isArray(body) ? { user: user.normalize('NFC'), path: `${i}.user` } : user.normalize('NFC'))
    })
  }
  return users.filter((named) => IdentifierSchema.safeParse(typeof named === 'string' ? named : named.user).success)
}

/**
 * Routes whose body is another program's, not fields of this service: a Claude Code hook's payload,
 * whose user is the `?user=` the hook was run with. A `user` a later Claude Code adds to its payload
 * names no user here; read as one, it refused alice's own token her own hook (403), and the hook
 * kept the capture spooled for a token that could never deliver it.
 */
const FOREIGN_BODIES = new Set(['/v1/hooks/claude-code'])

/** A user a request names, with the field that names it when that is not `user` (an array's `1.user`). */
type NamedUser = string | { user: string; path: string }

/**
 * The challenge of a 403 for a token that may not do what was asked: RFC 6750 §3 wants one
 * whenever the token sent does not give access, and `insufficient_scope` tells a client that
 * another token, not this one again, is needed. A 403 without auth (same-machine.ts) has none.
 */
const INSUFFICIENT_SCOPE = 'Bearer realm="decision-memory", error="insufficient_scope"'

/** Whether a token's principal may act for this user (R-SVC-4). */
export function mayActFor(principal: Principal, user: string): boolean {
  return principal.users === 'any' || principal.users.has(user)
}

/** The principal an `Authorization` header authenticates: a known bearer token's; undefined without one. */
export function principalFor(tokens: TokenTable, authorization: string | undefined): Principal | undefined {
  const presented = BEARER.exec(authorization ?? '')?.[1]
  return presented === undefined ? undefined : tokens.authenticate(presented)
}

/**
 * Refuses (403) a request whose token may not act for every one of these users (R-SVC-4). Does
 * nothing when the service runs without auth.
 */
export function authorizeUsers(c: Context, users: Iterable<NamedUser>): void {
  const principal = principalOf(c)
  if (principal === undefined) return
  for (const named of users) {
    const { user, path } = typeof named === 'string' ? { user: named, path: 'user' } : named
    if (!mayActFor(principal, user)) {
      c.header('WWW-Authenticate', INSUFFICIENT_SCOPE)
      // The message names the user asked for, which the caller sent, and the token's name, never the token;
      // the user quoted as every message quotes a name, an invisible character at its ends escaped
      // (`"alice\u200b"`, read by its path as a name stored before writes refused it, looked like "alice").
      throw new InputError('forbidden', `token "${principal.name}" may not act for user ${quotedName(user)}`, {
        status: 403,
        issues: [{ path, message: 'not a user this token may act for' }],
      })
    }
  }
}

/**
 * Refuses (403) a request whose token may not act for every user: what it writes is shared by
 * every user (the decisions, which every user's recommendations and checks follow; the decay
 * scan, which ages every user's observations), so a token scoped to some users writing it would
 * change what the others get (R-SVC-4). `what` says what the request does and why that is
 * everyone's (`create a decision, which every user shares`). Does nothing without auth.
 */
export function authorizeEveryUser(c: Context, what: string): void {
  const principal = principalOf(c)
  if (principal === undefined || principal.users === 'any') return
  c.header('WWW-Authenticate', INSUFFICIENT_SCOPE)
  throw new InputError(
    'forbidden',
    `token "${principal.name}" may not ${what}: that needs a token that may act for every user ("users": ["*"] in the tokens file)`,
    { status: 403, issues: [{ path: 'authorization', message: 'not a token for every user' }] },
  )
}

/**
 * A route that writes what every user shares: with auth on, only a token for every user may call
 * it (`authorizeEveryUser`, before its input is read), and its document says why it answers 403.
 */
export function forEveryUser<R extends RouteConfig>(what: string, route: R): R {
  const own = route.middleware === undefined ? [] : Array.isArray(route.middleware) ? route.middleware : [route.middleware]
  const check: MiddlewareHandler = async (c, next) => {
    authorizeEveryUser(c, what)
    await next()
  }
  return {
    ...route,
    middleware: [check, ...own],
    responses: {
      ...route.responses,
      403: {
        description: `The token may not act for every user (with auth on): only such a token may ${what}; without auth, a request addressed to a name not of this machine (\`host\`) or sent by a web page of another site (\`origin\`)`,
        content: { 'application/json': { schema: ErrorSchema } },
      },
    },
  }
}

/**
 * The user a route acts for when its body may omit `user`: with auth on, a missing user is
 * `default`, never a guess among the users who share a session id (which would name them).
 */
export function actingUser(c: Context, user: string | undefined): string | undefined {
  return principalOf(c) === undefined ? user : (user ?? 'default')
}

/** Where a route reads the user it acts for, and how (route-users.ts). */
type RouteUsersOf = (method: string, path: string) => RouteUsers

export interface BearerAuthOptions {
  tokens: TokenTable
  /** Which routes read a user in their query or body, and how; without it, none is read before the route (each route still checks its user). */
  routeUsers?: RouteUsersOf
}

/**
 * Bearer-token auth (R-SVC-4): every route but /healthz needs `Authorization: Bearer <token>`
 * (401 without a known one), and a token acts only for its users (403). Tokens are never logged.
 */
export function bearerAuth({ tokens, routeUsers = () => ({}) }: BearerAuthOptions): MiddlewareHandler {
  return async function bearerAuth(c, next) {
    if (PUBLIC_PATHS.has(c.req.path) || isRootBrowsed(c)) return next()
    const authorization = c.req.header('authorization')
    const principal = principalFor(tokens, authorization)
    if (principal === undefined) {
      // A token was sent when the header has the scheme and a word after it, one that BEARER does
      // not take included (`Bearer two words`, a passphrase): that one is not valid, not missing.
      const sent = /^Bearer +\S/i.test(authorization ?? '')
      const separator = sent ? undefined : badSeparator(authorization ?? '')
      const message = sent
        ? 'the bearer token is not valid'
        : separator !== undefined
          ? `the Authorization header separates Bearer from its token by ${separator}: write one space between them (Bearer <token>, RFC 6750)`
          : 'a bearer token is required'
      const issues = separator === undefined ? [] : [{ path: 'authorization', message: `${separator} after Bearer: write one space` }]
      // RFC 6750 §3.1: a token that was sent and is not valid is `invalid_token`, which tells a
      // client to get another rather than send the same again; a request without one gets no error code.
      return c.json(errorBody(c, 'unauthorized', message, issues), 401, {
        'WWW-Authenticate': sent ? 'Bearer realm="decision-memory", error="invalid_token"' : 'Bearer realm="decision-memory"',
      })
    }
    c.set('principal' as never, principal as never)
    // OPTIONS says only which methods a path takes, as /openapi.json says to any token: no user's.
    if (c.req.method !== 'OPTIONS') authorizeUsers(c, await namedUsers(c, routeUsers))
    await next()
  }
}
