import type { Context, TypedResponse } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

// Answers handed out more than once are frozen (the use case keeps them) and encoded once:
// serialising a recommendation cost more than the rest of a request answered from memory.
const encoded = new WeakMap<object, Uint8Array<ArrayBuffer>>()
const encoder = new TextEncoder()

function jsonBytes(value: object): string | Uint8Array<ArrayBuffer> {
  if (!Object.isFrozen(value)) return JSON.stringify(value)
  let bytes = encoded.get(value)
  if (bytes === undefined) {
    bytes = encoder.encode(JSON.stringify(value))
    encoded.set(value, bytes)
  }
  return bytes
}

/** `c.json`, except that a frozen value is serialised once however often it is answered. */
export function json<T extends object, S extends ContentfulStatusCode>(c: Context, value: T, status: S): Response & TypedResponse<T, S, 'json'> {
  return c.body(jsonBytes(value), status, { 'content-type': 'application/json' }) as never
}
