import type { MiddlewareHandler } from 'hono'
import { errorBody } from './errors'

/**
 * The header by which a request names the store it is meant for, by the id the service wrote into
 * that store's folder when it opened it (open-store.ts): a command told to use a store (`--data`)
 * that finds it held sends it, so that a service holding another store acts on nothing.
 */
export const STORE_HEADER = 'X-Decision-Memory-Store'

/**
 * Answers 409 `store_mismatch` to a request naming a store this service does not hold (or one of
 * a service given no id, which cannot say), before any route acts; a request naming the one it
 * holds gets the header back, which says so (a service from before the header sends none). A
 * request without the header is left alone. The answer is yes or no to one random id: it tells a
 * caller without a token nothing of where the store is, nor its id.
 */
export function storeCheck(storeId: string | undefined): MiddlewareHandler {
  return async function storeCheck(c, next) {
    const named = c.req.header(STORE_HEADER)
    if (named === undefined) return next()
    if (storeId === undefined || named !== storeId) {
      return c.json(
        errorBody(c, 'store_mismatch', named.trim() === '' ? `the request names no store (${STORE_HEADER} is empty)` : `this service does not hold the store the request names (${STORE_HEADER}): it runs on another one`, [
          // Empty (a client sending it from an unset variable; curl drops a header given empty) it names none:
          // still refused, as a header that is there, but said so.
          { path: STORE_HEADER, message: named.trim() === '' ? 'is empty, so it names no store: leave the header out, or give the id of the store meant' : 'names a store this service does not hold' },
        ]),
        409,
      )
    }
    await next()
    c.header(STORE_HEADER, storeId)
  }
}
