import type { Context } from 'hono'
import type { NodeListener } from './first-path'

/** Set on Node's request of an `OPTIONS *`, which the app then answers for the server as a whole. */
const ASTERISK_FORM = Symbol('OPTIONS *')

/**
 * The path the app is handed an `OPTIONS *` at: a URL @hono/node-server can make, which `*` is
 * not. No route has it, and a client sending it is not taken for `*`: only the mark says so. Not
 * `/*`, a path a client may send as it is (a 404, as any path no route has).
 */
export const ASTERISK_PATH = '/asterisk-form'

/** Marks Node's request (or, in a test, what stands for it in the app's env) as an `OPTIONS *`. */
export function markAsteriskForm<T extends object>(incoming: T): T {
  ;(incoming as { [ASTERISK_FORM]?: boolean })[ASTERISK_FORM] = true
  return incoming
}

/**
 * In front of @hono/node-server's listener: an `OPTIONS *` (RFC 9110 §9.3.7, the asterisk-form,
 * which asks of the server as a whole) is handed to the app at ASTERISK_PATH, marked, where
 * @hono/node-server, making no URL of `*`, refused it `400 malformed_request`. Another method
 * with `*` is no request HTTP has, and is still refused so.
 */
export function answerAsteriskForm(next: NodeListener): NodeListener {
  return function answerAsteriskForm(req, res) {
    if (req.url === '*' && req.method === 'OPTIONS') {
      markAsteriskForm(req)
      req.url = ASTERISK_PATH
    }
    next(req, res)
  }
}

/** Whether the app's request is an `OPTIONS *` (answerAsteriskForm). */
export function isAsteriskForm(c: Context): boolean {
  return c.req.method === 'OPTIONS' && (c.env as { incoming?: { [ASTERISK_FORM]?: boolean } } | undefined)?.incoming?.[ASTERISK_FORM] === true
}
