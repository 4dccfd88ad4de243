import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { OpenAPIHono } from '@hono/zod-openapi'

const require = createRequire(import.meta.url)

/** The Swagger UI files /docs needs, served from node_modules so that the page works offline. */
const ASSETS = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
])

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>decision-memory API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null })
  </script>
</body>
</html>
`

/** `GET /openapi.json` from the route schemas, and `GET /docs`, which loads nothing from the network. */
export function mountDocs(app: OpenAPIHono, info: { version: string }) {
  // With --auth every route but /healthz needs `Authorization: Bearer <token>`.
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'Needed on every route but /healthz when the service runs with --auth (R-SVC-4).',
  })
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'decision-memory',
      version: info.version,
      description:
        'Remembers the choices a user makes when an AI coding agent asks, and recommends what they will pick.',
    },
    // Swagger UI sends the token given to its Authorize dialog only where an operation requires the scheme.
    security: [{ bearer: [] }],
  })
  const root = dirname(require.resolve('swagger-ui-dist/package.json'))
  const cache = new Map<string, string>()
  app.get('/docs', (c) => c.html(PAGE))
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
