import { OpenAPIHono } from '@hono/zod-openapi'
import { bodyLimit } from 'hono/body-limit'
import { RegExpRouter } from 'hono/router/reg-exp-router'
import { SmartRouter } from 'hono/router/smart-router'
import { TrieRouter } from 'hono/router/trie-router'
import type { Context, MiddlewareHandler } from 'hono'
import type { H, RouterRoute } from 'hono/types'
import type { Logger } from 'pino'
import type { TokenTable } from '../config/load-tokens'
import type { DecisionMemory } from '../decision-memory'
import type { Decisions } from '../decisions/decisions'
import { LIMITS } from '../domain/limits'
import { bearerAuth } from './auth'
import { isAsteriskForm } from './asterisk-form'
import { isUnservedAsset, mountDocs } from './docs'
import { decisionRoutes } from './decisions'
import { createErrorHandler, errorBody, validationHook } from './errors'
import { healthRoutes } from './health'
import { JSON_REQUEST, judgedType, SENT_TYPE } from './json-type'
import { hookRoutes } from './hooks'
import { maintenanceRoutes } from './maintenance'
import { matchedOnce } from './matched-once'
import { observationRoutes } from './observations'
import { planRoutes } from './plan'
import { recommendationRoutes, type ValidBodies, validBodies } from './recommendations'
import { requestLog } from './request-log'
import { routeUsers } from './route-users'
import { sameMachineOnly } from './same-machine'
import { sessionRoutes } from './sessions'
import type { StoreFailure } from '../open-store'
import { storeCheck } from './store-id'
import { decodableUrl } from './url-encoding'
import { userRoutes } from './users'

/**
 * A request that declares a length of 0 in a type that is not JSON (`curl -d ''` says a form's)
 * sends no body: its type is dropped, so that it is answered as a request without a body, not
 * refused 415 for a body's type. (One that declares a JSON body and sends none is read as `{}` by
 * utf8Body.)
 */
const emptyFormBody: MiddlewareHandler = async (c, next) => {
  const type = c.req.header('content-type')
  // JSON as the route takes it: a type that only begins as JSON's (`application/jsonl`) is another.
  const declared = type !== undefined && JSON_REQUEST.test(judgedType(type))
  const length = Number(c.req.header('content-length') ?? NaN)
  if (type !== undefined && !declared && length === 0 && c.req.header('transfer-encoding') === undefined) c.req.raw.headers.delete('content-type')
  await next()
}

/** Decodes a body as UTF-8, throwing (a TypeError) at bytes that are not UTF-8. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/** Set by utf8Body on a request whose body is not UTF-8, which refuseNotUtf8 answers. */
const NOT_UTF8 = 'bodyNotUtf8'

/**
 * Whether a request of `method` has its body left unread, so neither judged (utf8Body) nor counted
 * (limitBody, and serve.ts's 413 before 100 Continue): GET and HEAD take none, a DELETE's path names
 * the user it forgets, an OPTIONS is answered by its path's Allow.
 */
export const bodyNotRead = (method: string) => method === 'GET' || method === 'HEAD' || method === 'DELETE' || method === 'OPTIONS'

/**
 * A JSON body is UTF-8 (RFC 8259), whatever its content type's `charset` says: bytes that are not
 * UTF-8 (`Caf\xE9` sent as Latin-1) are refused as `invalid_json`, not read with U+FFFD in their
 * place, which would store `Caf\uFFFD` and make two labels, users or questions that differ there one
 * and the same. The text read is kept, so the route parses it without reading the body again.
 * Such a body is read as empty here and refused by refuseNotUtf8, after the token is checked: a
 * request without one answers 401 whatever its body, and auth never reads a `user` with U+FFFD in it.
 *
 * A body that holds no JSON, none at all (`curl -X POST -H 'content-type: application/json'
 * …/accept`), white space alone, or a byte order mark alone (an empty file saved by a Windows
 * editor, which the decoder drops), is read as `{}`: routes whose body is optional then work, and
 * the others name their missing fields. Whether its length was declared does not matter: read as
 * `{}` only when sent chunked, such a body was refused as "not valid JSON" with a length, and with
 * no place to say where once its byte order mark was dropped.
 */
const utf8Body: MiddlewareHandler = async (c, next) => {
  // A DELETE's body is not read (DELETE /v1/users/{user}: the path decides), so it is not judged
  // either: one that is not UTF-8 was refused where one that is not JSON was taken. Nor an
  // OPTIONS's, which the Allow of its path answers (RFC 9110 gives its content no use).
  if (bodyNotRead(c.req.method)) return next()
  const type = c.req.header('content-type') ?? ''
  if (!/^application\/([a-z.-]+\+)?json/i.test(type)) return next()
  // `application/json ; charset=utf-8` is JSON (RFC 9110), which @hono/zod-openapi refused (415):
  // judged by its media type alone, and a type given twice by each (json-type.ts). The plain type,
  // most requests', is not tested.
  if (type !== 'application/json') {
    const judged = judgedType(type)
    if (judged !== type) {
      c.set(SENT_TYPE as never, type as never)
      c.req.raw.headers.set('content-type', judged)
    }
    // A type that only begins as JSON's (`application/jsonl`, `application/json-seq`), or one of
    // two given where the other is not JSON, is no type the route takes: its body is left unread,
    // and refused 415 for its type, as in text/plain. Judged here, its bytes that were not UTF-8
    // were refused 400 `invalid_json`, and the same body in UTF-8 415.
    if (!JSON_REQUEST.test(judged)) return next()
  }
  const bytes = await c.req.arrayBuffer()
  let text: string
  try {
    text = strictUtf8.decode(bytes)
  } catch {
    text = ''
    c.set(NOT_UTF8 as never, true as never)
  }
  // JSON's own white space alone (space, tab, line feed, carriage return): a non-breaking or an
  // ideographic space, which trim() also takes, is no JSON, and is said where it is.
  if (/^[ \t\n\r]*$/.test(text) && c.get(NOT_UTF8 as never) !== true) text = '{}'
  // hono's cache holds the promise of the body (its type says the body itself).
  ;(c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text)
  return next()
}

const refuseNotUtf8: MiddlewareHandler = async (c, next) => {
  if (c.get(NOT_UTF8 as never) === true) {
    // Its one issue on `(body)`, as a body that is not JSON has: a 4xx names what is at fault.
    const issue = { path: '(body)', message: 'not UTF-8: send JSON in UTF-8, whatever the charset says' }
    return c.json(errorBody(c, 'invalid_json', 'the body is not valid JSON: it is not UTF-8', [issue]), 400)
  }
  return next()
}

/**
 * A body sent compressed (`Content-Encoding: gzip`) is 415, naming the encoding: none is decoded
 * here, and read as it came it was refused as "not valid JSON: not UTF-8", which sent the client
 * looking at its JSON. So is one sent in a transfer coding besides chunked (`Transfer-Encoding:
 * gzip, chunked`), which Node's parser takes, chunked being the last, and hands on undecoded: it
 * too was refused as not UTF-8, and one whose bytes happened to be UTF-8 read as if sent plain.
 * After the token is checked, as the refusal of a body that is not UTF-8.
 */
const refuseEncodedBody: MiddlewareHandler = async (c, next) => {
  // A body not read (an OPTIONS's, a DELETE's) is not judged either: compressed or not, the Allow
  // of its path answers an OPTIONS, and a DELETE forgets the user of its path. Read here to see
  // whether it was empty, a DELETE's body, counted by no limit, was read whole, however long.
  if (bodyNotRead(c.req.method)) return next()
  const encoding = c.req.header('content-encoding')
  const compressed = encoding !== undefined && !/^\s*(identity\s*)?$/i.test(encoding)
  const transfer = c.req.header('transfer-encoding')
  const codings = transfer === undefined || /^\s*chunked\s*$/i.test(transfer) ? [] : transferCodings(transfer)
  if (!compressed && codings.length === 0) return next()
  // Said of a body only: a request that sends none has nothing compressed, and is answered as
  // without the header. Read only here, with such a header (rare), after limitBody: bounded.
  if (c.req.raw.body === null || (await c.req.arrayBuffer()).byteLength === 0) return next()
  if (compressed) {
    return c.json(
      errorBody(c, 'unsupported_media_type', `the body is sent with content-encoding: ${encoding.trim()}; send it uncompressed (no content-encoding)`, [
        { path: 'content-encoding', message: `unsupported content-encoding: ${encoding.trim()}` },
      ]),
      415,
    )
  }
  return c.json(
    errorBody(c, 'unsupported_media_type', `the body is sent with transfer-encoding: ${(transfer as string).trim()}; send it in no transfer coding but chunked (uncompressed)`, [
      { path: 'transfer-encoding', message: `unsupported transfer coding: ${codings.join(', ')}` },
    ]),
    415,
  )
}

/** The transfer codings of a Transfer-Encoding but chunked, the framing Node's parser decodes, and identity, which is none. */
const transferCodings = (transfer: string) =>
  transfer
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && !/^(chunked|identity)$/i.test(coding))

/**
 * hono hands its error handler (onError) only an Error: anything else thrown or rejected with (a
 * string, a plain object) went past it and past the request log, to @hono/node-server's
 * errorHandler, and was answered 500 under a new id, the caller's X-Request-Id dropped, with no
 * request line, where first-path.ts answered the same rejection under the request's id and logged
 * it. Made an Error here, just inside the request log, it is answered and logged as any bug.
 */
const errorsOnly: MiddlewareHandler = async (_c, next) => {
  try {
    await next()
  } catch (error) {
    throw error instanceof Error ? error : new Error(String(error))
  }
}

const tooLarge = (c: Context) =>
  c.json(errorBody(c, 'body_too_large', `the body is over ${LIMITS.bodyBytes / 1024} KB`), 413)

/** hono's limit, which reads the body as a stream as it counts: for bodies of unknown length only. */
const limitStreamedBody = bodyLimit({ maxSize: LIMITS.bodyBytes, onError: tooLarge })

/**
 * Bodies over LIMITS.bodyBytes get 413. A body whose length is declared is judged by its header
 * (Node's parser never reads past it), so it stays unread here and the route reads it through
 * @hono/node-server's direct path; reading it as a stream to count it, as hono's limit does, cost
 * most of a request's time on the hot routes. Only a body of unknown length (chunked) is counted.
 */
const limitBody: MiddlewareHandler = (c, next) => {
  // An OPTIONS's body is not read (utf8Body), so not counted either: the Allow of its path answers
  // it; nor a DELETE's, whose path names the user it forgets.
  if (bodyNotRead(c.req.method)) return next()
  const length = c.req.header('content-length')
  if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
    return Number(length) > LIMITS.bodyBytes ? Promise.resolve(tooLarge(c)) : next()
  }
  return limitStreamedBody(c, next)
}

export interface AppOptions {
  memory: DecisionMemory
  logger: Logger
  version?: string
  /** Decisions as contracts (R-CON); their routes are mounted when given. */
  decisions?: Decisions
  /** Bearer tokens (R-SVC-4); without them every route is open, as on loopback. */
  auth?: TokenTable | undefined
  /** The bodies the recommendation route remembers valid, shared with the path in front of the app (first-path.ts). */
  bodies?: ValidBodies
  /** The id this run of the service wrote into its store's folder (open-store.ts), which a request may name (store-id.ts). */
  storeId?: string | undefined
  /** What is wrong with the store, if its last write failed or a read met a damaged file (open-store.ts's watchStore): `/healthz` says so. */
  storeFailure?: () => StoreFailure | undefined
}

/**
 * The methods each path of the app takes (HEAD with GET, as hono answers it): a path parameter
 * (`:key`) takes any one segment. A path named as it is (`/v1/decisions/check`) is the route of its
 * own methods only, not also one of `/v1/decisions/:key`'s.
 */
function routeMethods(routes: ReadonlyArray<{ method: string; path: string }>): {
  /** The methods of a path named as it is (`/v1/decisions/check`): a map lookup, on every request. */
  named: (path: string) => readonly string[] | undefined
  /** The methods of any route the path fits, a parameter's too (only for requests no route took). */
  fitting: (path: string) => string[]
  /** Whether the path fits a route's with a parameter left empty (`/v1/users//export`; only for requests no route took). */
  leftEmpty: (path: string) => boolean
  /** The methods of every route: the service's, which `OPTIONS *` asks. */
  all: readonly string[]
} {
  const byPath = new Map<string, Set<string>>()
  for (const { method, path } of routes) {
    if (method === 'ALL') continue
    const methods = byPath.get(path) ?? new Set<string>()
    methods.add(method)
    if (method === 'GET') methods.add('HEAD')
    byPath.set(path, methods)
  }
  const sorted = (methods: Iterable<string>) => [...new Set(methods)].sort()
  const named = new Map([...byPath].filter(([path]) => !path.includes(':')).map(([path, methods]) => [path, sorted(methods)]))
  const pattern = (path: string, parameter: string) =>
    new RegExp(`^${path.split('/').map((part) => (part.startsWith(':') ? parameter : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`)
  const patterns = [...byPath].map(([path, methods]) => ({ pattern: pattern(path, '[^/]+'), methods }))
  const emptied = [...byPath.keys()].filter((path) => path.includes(':')).map((path) => pattern(path, '[^/]*'))
  return {
    named: (path) => named.get(path),
    fitting: (path) => named.get(path) ?? sorted(patterns.filter((p) => p.pattern.test(path)).flatMap((p) => [...p.methods])),
    leftEmpty: (path) => emptied.some((p) => p.test(path)),
    all: sorted([...byPath.values()].flatMap((methods) => [...methods])),
  }
}

/**
 * What a path no route has meant, when it is a route's path with a slash more, at its end
 * (`/v1/observations/`, as a client joining a base URL and a path may write it) or doubled
 * (`/v1//observations`): said, where `no route POST /v1/observations/` left the client to spot
 * the slash. Undefined when no route has the path without it.
 */
function slashMore(
  path: string,
  table: ReturnType<typeof routeMethods>,
  method: string,
): { said: string; issue: { path: string; message: string } } | undefined {
  if (!path.includes('//') && (path.length === 1 || !path.endsWith('/'))) return undefined
  const single = path.replace(/\/{2,}/g, '/')
  const meant = single.length > 1 ? single.replace(/\/$/, '') : single
  const methods = table.fitting(meant)
  if (meant === path || methods.length === 0) return undefined
  const unended = path.replace(/\/+$/, '')
  const trailing = unended === meant
  // A doubled slash may be a parameter left empty (`/v1/decisions//accept`), whose path without it
  // is another route's, the next part taken for the parameter (`GET /v1/decisions/{key}`;
  // `DELETE /v1/users//export` is no `DELETE /v1/users/export`, which forgets a user "export"):
  // said only where that route takes the method, and the path is no route's with one left empty.
  if (!trailing && (!methods.includes(method) || table.leftEmpty(unended))) return undefined
  const how = trailing ? 'without the trailing slash' : 'with one slash between its parts'
  const said = methods.includes(method) ? `the route is ${method} ${meant}, ${how}` : `${meant}, ${how}, takes ${methods.join(', ')}`
  return { said, issue: { path: 'path', message: `not a route: did you mean ${meant}?` } }
}

/** What Allow lists of a path taking `methods`: them and OPTIONS, which every path answers, sorted. */
const allowed = (methods: readonly string[]) => [...methods, 'OPTIONS'].sort().join(', ')

function methodNotAllowed(c: Context, methods: readonly string[]) {
  const allow = allowed(methods)
  c.header('Allow', allow)
  // The methods Allow lists, OPTIONS among them: a message naming POST alone beside `Allow:
  // OPTIONS, POST` had the one answer say two things of the path.
  return c.json(errorBody(c, 'method_not_allowed', `${c.req.path} takes ${allow}, not ${c.req.method}`), 405)
}

/**
 * OPTIONS of a path a route has (RFC 9110 §9.3.7), or of the whole service (`OPTIONS *`, every
 * route's methods): 204, Allow listing its methods. No CORS
 * header: a web page's preflight is refused before this by the same-machine check (or needs the
 * token), as every request of a page is. It was a 405 whose Allow left OPTIONS out.
 */
const optionsAnswer = (c: Context, methods: readonly string[]) => c.body(null, 204, { Allow: allowed(methods) })

/** Builds the HTTP app over decision-memory's use cases; it opens no socket (tests call `app.request()`). */
export function createApp({ memory, logger, version = '0.0.0', decisions, auth, bodies = validBodies(), storeId, storeFailure }: AppOptions) {
  // hono's own router (SmartRouter over RegExpRouter and TrieRouter), each registration matched once (matched-once.ts).
  const router = matchedOnce(new SmartRouter<[H, RouterRoute]>({ routers: [new RegExpRouter(), new TrieRouter()] }))
  const app = new OpenAPIHono({ defaultHook: validationHook as never, router })

  app.use('*', requestLog(logger))
  app.use('*', errorsOnly)
  // Without tokens, only this machine's own clients: not a web page reaching loopback (same-machine.ts).
  if (auth === undefined) app.use('*', sameMachineOnly)
  app.use('*', decodableUrl)
  app.use('*', limitBody)
  app.use('*', utf8Body)
  app.use('*', emptyFormBody)
  // Read once every route is mounted (below), at the first request, as the route table is.
  let usersTable: ReturnType<typeof routeUsers> | undefined
  const usersOf = (method: string, path: string) => (usersTable ??= routeUsers(app.openAPIRegistry.definitions as never))(method, path)
  if (auth !== undefined) app.use('*', bearerAuth({ tokens: auth, routeUsers: usersOf }))
  app.use('*', refuseEncodedBody)
  app.use('*', refuseNotUtf8)
  app.use('*', storeCheck(storeId))
  // Read once every route is mounted (below), at the first request.
  let table: ReturnType<typeof routeMethods> | undefined
  const routes = () => (table ??= routeMethods(app.routes))
  // A path named as it is (`/v1/decisions/check`) asked with another method would otherwise reach
  // the route of a parameter in its place (`GET /v1/decisions/{key}`), and be told its key is reserved.
  app.use('*', async (c, next) => {
    // Of a path no route has, a 404, as any method is answered there (notFound).
    if (c.req.method === 'OPTIONS') {
      // `OPTIONS *` (RFC 9110 §9.3.7) asks of the server as a whole: the methods of its routes.
      if (isAsteriskForm(c)) return optionsAnswer(c, routes().all)
      const methods = routes().fitting(c.req.path)
      // `/docs/x` fits `/docs/:asset`, but no asset is there: a 404, as a GET of it is.
      if (methods.length > 0 && !isUnservedAsset(c.req.path)) return optionsAnswer(c, methods)
      return next()
    }
    const methods = routes().named(c.req.path)
    if (methods !== undefined && !methods.includes(c.req.method)) return methodNotAllowed(c, methods)
    await next()
  })

  app.route('/', healthRoutes(version, storeFailure))
  app.route('/', observationRoutes(memory))
  app.route('/', recommendationRoutes(memory, bodies))
  app.route('/', sessionRoutes(memory))
  app.route('/', planRoutes(memory))
  app.route('/', hookRoutes(memory))
  if (decisions !== undefined) app.route('/', decisionRoutes(decisions, memory))
  app.route('/', userRoutes(memory, logger))
  app.route('/', maintenanceRoutes(memory))
  mountDocs(app, { version })

  // A path the service has, asked with a method it does not take there, is told which it takes
  // (RFC 9110's 405 and Allow), not that there is no route: `GET /v1/observations`.
  app.notFound((c) => {
    const methods = routes().fitting(c.req.path)
    // A route of this method that found nothing (an asset `/docs/x` not served) is a 404 too. A
    // GET outside /v1/ is a person at a browser, opening the address `npm start` printed (the
    // commands and hooks ask only /v1/ paths, and say themselves what a 404 there means): told
    // where the routes are listed, rather than left with the bare 404.
    if (methods.length === 0) {
      const meant = slashMore(c.req.path, routes(), c.req.method)
      if (meant !== undefined) return c.json(errorBody(c, 'not_found', `no route ${c.req.method} ${c.req.path}: ${meant.said}`, [meant.issue]), 404)
    }
    // An OPTIONS here is of a path no route has: the middleware above answered the others.
    if (methods.length === 0 || methods.includes(c.req.method) || c.req.method === 'OPTIONS') {
      const browsing = (c.req.method === 'GET' || c.req.method === 'HEAD') && !c.req.path.startsWith('/v1/')
      // With auth, /docs and /openapi.json need the token too, which a browser does not send: said.
      const token = auth === undefined ? '' : ', which need a bearer token, as every route but /healthz does'
      const listed = browsing ? ` (the routes are listed at /docs and in /openapi.json${token})` : ''
      return c.json(errorBody(c, 'not_found', `no route ${c.req.method} ${c.req.path}${listed}`), 404)
    }
    return methodNotAllowed(c, methods)
  })
  app.onError(createErrorHandler(logger))
  return app
}
