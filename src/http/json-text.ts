import type { Context, TypedResponse } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { encodedJson } from '../encoded-json'

/**
 * The JSON text of an answer: for a frozen value (an answer the use case keeps and hands out
 * again), the bytes encoded once for it, since serialising a recommendation cost more than the
 * rest of a request answered from memory.
 */
export function encoded(value: object): string | Uint8Array<ArrayBuffer> {
  return Object.isFrozen(value) ? encodedJson(value) : JSON.stringify(value)
}

/** `c.json`, with the answer's JSON text as `encoded` gives it. */
export function json<T extends object, S extends ContentfulStatusCode>(c: Context, value: T, status: S): Response & TypedResponse<T, S, 'json'> {
  return c.body(encoded(value), status, { 'content-type': 'application/json' }) as never
}
