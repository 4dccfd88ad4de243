import type { MiddlewareHandler } from 'hono'
import type { Logger } from 'pino'

export const REQUEST_ID_HEADER = 'X-Request-Id'

/** When a request began, set on Node's request by a path that read its body before the app (first-path.ts). */
export const REQUEST_STARTED = Symbol('request started')

/**
 * The id a request is answered and logged under: the caller's `X-Request-Id` when it is a
 * plausible one (hono's rule: at most 255 word characters, `-` or `=`), so that an orchestrator
 * can follow its own id through our logs; a new UUID otherwise.
 */
export function requestIdFor(sent: string | undefined): string {
  return sent === undefined || sent === '' || sent.length > 255 || /[^\w\-=]/.test(sent) ? crypto.randomUUID() : sent
}

/** The line logged for every request, whichever path answered it. Never the body or the headers: they may carry tokens and personal data. */
export function logRequest(
  logger: Logger,
  line: { requestId: string; method: string; path: string; status: number; started: number },
): void {
  logger.info(
    {
      req_id: line.requestId,
      method: line.method,
      path: line.path,
      status: line.status,
      ms: Math.round((performance.now() - line.started) * 10) / 10,
    },
    'request',
  )
}

/** Gives every request its id (in `c.get('requestId')` and the `X-Request-Id` answer header) and logs it once answered. */
export function requestLog(logger: Logger): MiddlewareHandler {
  return async function requestLog(c, next) {
    // From the moment the request began, its body's upload included, when a path before the app read it.
    const incoming = (c.env as { incoming?: { [REQUEST_STARTED]?: number } } | undefined)?.incoming
    const started = incoming?.[REQUEST_STARTED] ?? performance.now()
    const requestId = requestIdFor(c.req.header(REQUEST_ID_HEADER))
    c.set('requestId' as never, requestId as never)
    c.header(REQUEST_ID_HEADER, requestId)
    await next()
    logRequest(logger, { requestId, method: c.req.method, path: c.req.path, status: c.res.status, started })
  }
}
