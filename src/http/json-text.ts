import type { Context, TypedResponse } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { encodedJson } from '../encoded-json'

/**
 * `c.json`, except that a frozen value (an answer the use case keeps and hands out again) is sent
 * as the bytes encoded once for it: serialising a recommendation cost more than the rest of a
 * request answered from memory.
 */
export function json<T extends object, S extends ContentfulStatusCode>(c: Context, value: T, status: S): Response & TypedResponse<T, S, 'json'> {
  return c.body(Object.isFrozen(value) ? encodedJson(value) : JSON.stringify(value), status, { 'content-type': 'application/json' }) as never
}
