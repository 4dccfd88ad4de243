import { OpenAPIHono } from '@hono/zod-openapi'
import { bodyLimit } from 'hono/body-limit'
import { requestId } from 'hono/request-id'
import type { Logger } from 'pino'
import type { DecisionMemory } from '../decision-memory'
import { LIMITS } from '../domain/limits'
import { mountDocs } from './docs'
import { createErrorHandler, errorBody, validationHook } from './errors'
import { healthRoutes } from './health'
import { maintenanceRoutes } from './maintenance'
import { observationRoutes } from './observations'
import { recommendationRoutes } from './recommendations'
import { sessionRoutes } from './sessions'

export interface AppOptions {
  memory: DecisionMemory
  logger: Logger
  version?: string
}

/** Builds the HTTP app over decision-memory's use cases; it opens no socket (tests call `app.request()`). */
export function createApp({ memory, logger, version = '0.0.0' }: AppOptions) {
  const app = new OpenAPIHono({ defaultHook: validationHook as never })

  app.use('*', requestId())
  app.use('*', async (c, next) => {
    const started = performance.now()
    await next()
    // Never the body or the headers: they may carry tokens and personal data.
    logger.info(
      {
        req_id: c.get('requestId'),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    )
  })
  app.use(
    '*',
    bodyLimit({
      maxSize: LIMITS.bodyBytes,
      onError: (c) =>
        c.json(errorBody(c, 'body_too_large', `the body is over ${LIMITS.bodyBytes / 1024} KB`), 413),
    }),
  )

  app.route('/', healthRoutes(version))
  app.route('/', observationRoutes(memory))
  app.route('/', recommendationRoutes(memory))
  app.route('/', sessionRoutes(memory))
  app.route('/', maintenanceRoutes(memory))
  mountDocs(app, { version })

  app.notFound((c) => c.json(errorBody(c, 'not_found', `no route ${c.req.method} ${c.req.path}`), 404))
  app.onError(createErrorHandler(logger))
  return app
}
