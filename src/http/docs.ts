import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { OpenAPIHono } from '@hono/zod-openapi'
import { LIMITS } from '../domain/limits'
import { ErrorSchema } from './errors'
import { REQUEST_ID_HEADER } from './request-log'
import { STORE_HEADER } from './store-id'

const require = createRequire(import.meta.url)

/**
 * The Swagger UI files /docs needs, served from node_modules so that the page works offline; and
 * the source map the stylesheet names (`sourceMappingURL=swagger-ui.css.map`), which a browser's
 * developer tools fetch from beside it.
 */
const ASSETS = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui.css.map', 'application/json; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
])

/** Whether a path is one under /docs/ that names no asset served there (a 404 to every method, OPTIONS too). */
export const isUnservedAsset = (path: string) => path.startsWith('/docs/') && path !== '/docs/' && !ASSETS.has(path.slice('/docs/'.length))

/**
 * The page of /docs. Every URL in it is relative to the page's own, so that it works where a
 * reverse proxy serves the service under a sub-path (`https://host/dm/docs` loads
 * `https://host/dm/openapi.json`), as well as at the root: from `/docs` the assets are `docs/…` and
 * the document `openapi.json`; from `/docs/` (the slash a browser or a hand adds) they are `…` and
 * `../openapi.json`. Named from the root (`/openapi.json`), the page under a sub-path fetched the
 * host's own, another service's or a 404.
 */
const docsPage = (assets: '' | 'docs/', root: '' | '../') => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>decision-memory API</title>
  <link rel="stylesheet" href="${assets}swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${assets}swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '${root}openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null })
  </script>
</body>
</html>
`

type Document = ReturnType<OpenAPIHono['getOpenAPI31Document']>
type Operation = { security?: unknown[]; requestBody?: unknown; responses?: Record<string, unknown>; parameters?: unknown[] }

const OPERATIONS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

/** The header a command sends to say which store it means (store-id.ts), on every operation. */
const STORE_PARAMETER = {
  name: STORE_HEADER,
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description:
    'The id the service wrote into its store\'s folder (`SERVICE_ID`): a command told to use that store sends it, and a service ' +
    'holding another (or given the header empty, which names no store) answers 409 `store_mismatch`, acting on nothing; the service holding it sends the header back.',
}

/** The id a caller may give its request (request-log.ts), on every operation. */
const REQUEST_ID_PARAMETER = {
  name: REQUEST_ID_HEADER,
  in: 'header',
  required: false,
  schema: { type: 'string', maxLength: 255, pattern: '^[\\w\\-=]+$' },
  description:
    'The id to answer and log the request under, so that a caller can follow its own id through the logs: up to 255 word ' +
    'characters, `-` or `=`; another is replaced by a new UUID. Sent back in the answer\'s `X-Request-Id`.',
}

const STORE_MISMATCH = `\`store_mismatch\`: the request names, by \`${STORE_HEADER}\`, a store this service does not hold, or gives that header empty`

function errorAnswer(description: string) {
  return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }
}

/** The headers the middleware sends with answers (request-log.ts, store-id.ts, auth.ts), named once in `components.headers`. */
const HEADERS = {
  [REQUEST_ID_HEADER]: {
    description: 'The id the request is answered and logged under (the error\'s `request_id`): the caller\'s own `X-Request-Id` when it sent a plausible one, else a new UUID.',
    required: true,
    schema: { type: 'string' as const },
  },
  [STORE_HEADER]: {
    description: `Sent back when the request named, by \`${STORE_HEADER}\`, the store this service holds.`,
    schema: { type: 'string' as const },
  },
  'WWW-Authenticate': {
    description:
      'The scheme a token is sent by: `Bearer realm="decision-memory"`, with `error="invalid_token"` when the request sent a ' +
      'bearer token that is not valid (RFC 6750): not when it sent none.',
    required: true,
    schema: { type: 'string' as const },
  },
}
const header = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` })

/** A 403's challenge: sent only with auth on, for a token that may not do what was asked (auth.ts). */
const SCOPE_CHALLENGE = {
  description: 'With auth on, for a token that may not act for the user named or for every user: `Bearer realm="decision-memory", error="insufficient_scope"` (RFC 6750).',
  schema: { type: 'string' as const },
}

/**
 * The error answers that come from the app's middleware rather than from a route (app.ts,
 * auth.ts), added here to every operation that can give them instead of being copied into each
 * route: 401 and 403 wherever the bearer scheme is required (with --auth, every route but
 * /healthz, for a user the request names; without it, a request not of this machine), 413 wherever a body is read (every
 * method but GET, HEAD and DELETE: the limit is the method's, whatever the route), 415 wherever a body is
 * declared, or may be sent compressed (every method but GET, HEAD and DELETE), and 400 on every one: a
 * URL whose percent-encoding is not UTF-8 is refused before any route (url-encoding.ts),
 * `/healthz?x=%FF` too, and a query parameter a route does not have (router.ts); 408 on every one,
 * answered by Node (client-error.ts) to a request that did not arrive in full within its timeouts;
 * and 431 on every one, answered before any route by Node's parser
 * (client-error.ts) to a request line and headers over its 16 KB, as a URL the document takes can
 * be (the hook's `project` at its 4096 characters, each of 4 bytes). A route that says more of one
 * of them (`forEveryUser`'s 403, a route's own 400) keeps its own; a route's own 409 names
 * store_mismatch too, and a route's own 400 a query parameter it does not list.
 */
/** What a route's own 400 is answered for besides what it says (router.ts). */
const UNLISTED_QUERY =
  '`invalid_request` naming a query parameter the operation does not list (`_`, a cache-buster, aside; and `user` where the operation reads its user from the body or the path, ' +
  'which must name that user), or one whose percent-encoding is not UTF-8'

export function withMiddlewareErrors(document: Document): Document {
  const required = (security: unknown[] | undefined) => (security ?? document.security ?? []).some((s) => Object.keys(s as object).includes('bearer'))
  for (const item of Object.values(document.paths ?? {})) {
    for (const [method, value] of Object.entries(item as Record<string, unknown>)) {
      if (!OPERATIONS.has(method)) continue
      const operation = value as Operation
      const common: Record<string, unknown> = {
        400: errorAnswer(
          '`invalid_request`: a part of the URL, a path or query parameter (one the route does not have too), whose percent-encoding is not UTF-8; ' +
            'on every operation but `getHealth`, a query parameter the operation does not list (`_`, a cache-buster, aside; and `user` where the operation reads its user from the body or the path)',
        ),
        408: errorAnswer(
          '`request_timeout`: the request did not arrive in full in time (Node’s timeouts: its headers within 60 s, the whole of it within 5 minutes); ' +
            'answered before any route, the connection then closed',
        ),
        431: errorAnswer(
          '`headers_too_large`: the request line and headers over Node’s 16 KB, as a query of long values of characters outside ASCII can be ' +
            '(each up to 12 bytes once percent-encoded); answered before any route, the connection then closed',
        ),
      }
      if (required(operation.security)) {
        common[401] = errorAnswer('No valid bearer token: with auth on, every route but /healthz needs one (R-SVC-4)')
        common[403] = errorAnswer(
          'The token may not act for a user the request names: in the path (on `/v1/users/{user}`, the path alone), in a `?user=` or a body\'s `user` the operation reads (R-SVC-4); without auth, ' +
            'a request addressed to a name not of this machine (`host`) or sent by a web page of another site (`origin`)',
        )
      }
      // A DELETE's body is not read (app.ts's bodyNotRead), so neither counted nor judged.
      const readsBody = method !== 'get' && method !== 'head' && method !== 'delete'
      if (readsBody) common[413] = errorAnswer(`The body is over ${LIMITS.bodyBytes / 1024} KB`)
      if (operation.requestBody !== undefined) common[415] = errorAnswer('A body sent without `content-type: application/json`, or compressed (a `content-encoding` other than `identity`, or a transfer coding besides `chunked`)')
      // A compressed body is refused whatever the route (app.ts), one that takes no body too.
      else if (readsBody) common[415] = errorAnswer('A body sent compressed (a `content-encoding` other than `identity`, or a transfer coding besides `chunked`), though the operation reads none')
      // Every request may name the store it is meant for (store-id.ts), /healthz included.
      common[409] = errorAnswer(STORE_MISMATCH)
      operation.parameters = [...(operation.parameters ?? []), STORE_PARAMETER, REQUEST_ID_PARAMETER]
      // Numeric keys: the statuses stay in order.
      operation.responses = { ...common, ...operation.responses }
      // A route's own 409 (a decision's lifecycle) is answered besides store_mismatch: it says both.
      const own = operation.responses[409] as { description: string }
      if (own !== common[409]) operation.responses[409] = { ...own, description: `${own.description}; or ${STORE_MISMATCH}` }
      // So does a route's own 400 (`Invalid body`): a query parameter it does not list is refused
      // there too, which the common 400 alone said, on the two operations without one of their own.
      const own400 = operation.responses[400] as { description: string }
      if (own400 !== common[400]) operation.responses[400] = { ...own400, description: `${own400.description}; or ${UNLISTED_QUERY}` }
      for (const [status, answer] of Object.entries(operation.responses) as Array<[string, { headers?: Record<string, unknown> }]>) {
        answer.headers = {
          ...answer.headers,
          [REQUEST_ID_HEADER]: header(REQUEST_ID_HEADER),
          [STORE_HEADER]: header(STORE_HEADER),
          ...(status === '401' ? { 'WWW-Authenticate': header('WWW-Authenticate') } : {}),
          ...(status === '403' ? { 'WWW-Authenticate': SCOPE_CHALLENGE } : {}),
        }
      }
    }
  }
  document.components = { ...document.components, headers: { ...document.components?.headers, ...HEADERS } }
  return document
}

type Schema = { $ref?: string; properties?: Record<string, Schema>; required?: string[]; default?: unknown; description?: string; examples?: unknown[]; example?: unknown } & Record<string, unknown>

/** The component schemas a part of the document names by `$ref`, those they name included. */
function componentsNamed(part: unknown, schemas: Record<string, Schema>, found = new Set<string>()): Set<string> {
  if (Array.isArray(part)) for (const item of part) componentsNamed(item, schemas, found)
  else if (part !== null && typeof part === 'object') {
    const ref = (part as Schema).$ref
    const name = typeof ref === 'string' && ref.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : undefined
    if (name !== undefined && !found.has(name) && schemas[name] !== undefined) {
      found.add(name)
      componentsNamed(schemas[name], schemas, found)
    }
    for (const value of Object.values(part)) componentsNamed(value, schemas, found)
  }
  return found
}

/** Every property schema of a schema, those of its nested objects, items and alternatives included. */
function* propertiesOf(schema: unknown): Generator<[Schema, string, Schema]> {
  if (Array.isArray(schema)) for (const item of schema) yield* propertiesOf(item)
  else if (schema !== null && typeof schema === 'object') {
    const object = schema as Schema
    for (const [key, value] of Object.entries(object)) {
      if (key === 'properties' && value !== null && typeof value === 'object') {
        for (const [name, property] of Object.entries(value as Record<string, Schema>)) {
          yield [object, name, property]
          yield* propertiesOf(property)
        }
      } else if (key !== 'example' && key !== 'examples' && key !== 'default') yield* propertiesOf(value)
    }
  }
}

/**
 * A field of a request that the service fills in when it is not sent (zod's `.default()`: `user`,
 * `source`, `enforce`, `status`, `evidence`, …) is not in `required`, but its `default` keyword made
 * openapi-typescript, the usual generator of TypeScript clients, type it as one the caller must
 * send: it takes a property with a default to be always there (true of an answer) except in a
 * schema written inline in a request body, and the request schemas here are named components. So
 * the schemas only request bodies name say the value in their description and as the example
 * (what Swagger UI's "Try it out" fills in), not as `default`. A schema an answer names too keeps
 * its `default`: an answer always carries the field.
 */
export function withRequestDefaultsOptional(document: Document): Document {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>
  const operations = Object.values(document.paths ?? {}).flatMap((item) =>
    Object.entries(item as Record<string, unknown>).filter(([method]) => OPERATIONS.has(method)).map(([, value]) => value as Operation),
  )
  const answered = componentsNamed(operations.map((operation) => operation.responses), schemas)
  const requestOnly = [...componentsNamed(operations.map((operation) => operation.requestBody), schemas)].filter((name) => !answered.has(name))
  const inline = operations.map((operation) => operation.requestBody)
  for (const schema of [...requestOnly.map((name) => schemas[name]), ...inline]) {
    for (const [object, name, property] of propertiesOf(schema)) {
      if (!('default' in property) || object.required?.includes(name)) continue
      const { default: value, ...rest } = property
      const stated = `When not sent: \`${JSON.stringify(value)}\`.`
      const described = { ...rest, description: rest.description === undefined ? stated : `${rest.description} ${stated}` }
      ;(object.properties as Record<string, Schema>)[name] =
        rest.examples === undefined && rest.example === undefined ? { ...described, examples: [value] } : described
    }
  }
  return document
}

/**
 * The tags the routes are filed under, in the order Swagger UI shows them (and README's route
 * table lists them): an operation with no tag, or one not declared here, is filed under "default".
 */
const TAGS = [
  { name: 'health', description: 'Liveness, open with --auth too.' },
  { name: 'observations', description: 'Record the choices a user made when asked.' },
  {
    name: 'recommendations',
    description: 'What a user will pick at a decision point, and the plan of the questions an agent is about to ask.',
  },
  { name: 'sessions', description: 'Start a session; turn its personalization on or off.' },
  { name: 'hooks', description: "Answer the events of Claude Code's command hooks." },
  { name: 'decisions', description: 'Decisions as contracts: lifecycle, applicability, check, import and why.' },
  { name: 'users', description: "A user's data: preferences, export, forget." },
  { name: 'maintenance', description: 'The decay scan.' },
]

/** `GET /openapi.json` from the route schemas, and `GET /docs`, which loads nothing from the network. */
export function mountDocs(app: OpenAPIHono, info: { version: string }) {
  // With --auth every route but /healthz needs `Authorization: Bearer <token>`.
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'Needed on every route but /healthz when the service runs with --auth (R-SVC-4).',
  })
  // The schema every error answer has, which the answers added by withMiddlewareErrors name.
  app.openAPIRegistry.register('Error', ErrorSchema)
  const config = {
    openapi: '3.1.0',
    info: {
      title: 'decision-memory',
      version: info.version,
      description:
        'Remembers the choices a user makes when an AI coding agent asks, and recommends what they will pick. ' +
        // Said here once, for every text field: a pattern without the u flag cannot say it.
        'No text of a request that the service stores or reads holds a lone UTF-16 surrogate (`"\\ud800"`), which UTF-8 cannot carry: a 400 names the field that does ' +
        "(the fields it keeps as sent, a plan question's `metadata`, and those of a hook payload it neither stores nor sends back, are let be). " +
        'Every path answers OPTIONS with 204 and an Allow header listing its methods, given the bearer token its operations ask for.',
      // The license package.json names, as linters of the document (redocly's info-license) ask.
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // Relative: a client reads it against the URL it fetched the document from, whatever the host,
    // port or scheme the service is reached by (what OpenAPI assumes of a document without servers,
    // said for the generators and linters that want one). `.`, the folder the document is in, not
    // `/`, the host's root: behind a proxy that serves the service under a sub-path
    // (`https://host/dm/openapi.json`), `/` made Try it out of /docs call `https://host/v1/…`,
    // Swagger UI resolving it against the document's URL (swagger-client's buildOas3UrlWithContext)
    // as OpenAPI says; `.` is `https://host/dm/` there, and the service's root at the root.
    servers: [{ url: '.', description: 'The service this document was fetched from: the folder of its URL' }],
    // Swagger UI sends the token given to its Authorize dialog only where an operation requires the scheme.
    security: [{ bearer: [] }],
    tags: TAGS,
  }
  app.get('/openapi.json', (c) => c.json(withRequestDefaultsOptional(withMiddlewareErrors(app.getOpenAPI31Document(config)))))
  const root = dirname(require.resolve('swagger-ui-dist/package.json'))
  const cache = new Map<string, string>()
  const page = docsPage('docs/', '')
  app.get('/docs', (c) => c.html(page))
  // A browser or a hand that adds the slash gets the page too, its URLs relative to that one.
  const slashed = docsPage('', '../')
  app.get('/docs/', (c) => c.html(slashed))
  app.get('/docs/:asset', async (c) => {
    const name = c.req.param('asset')
    // A Map: `/docs/constructor` names no asset, not what a plain object inherits.
    const type = ASSETS.get(name)
    if (type === undefined) return c.notFound()
    let body = cache.get(name)
    if (body === undefined) {
      body = await readFile(join(root, name), 'utf8')
      cache.set(name, body)
    }
    return c.body(body, 200, { 'content-type': type, 'cache-control': 'public, max-age=86400' })
  })
}
