import type { Context, TypedResponse } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

// The text of answers handed out more than once (frozen: the use case keeps them), serialised
// once: serialising a recommendation cost more than the rest of a request answered from memory.
const texts = new WeakMap<object, Uint8Array<ArrayBuffer>>()
const encoder = new TextEncoder()

function jsonText(value: object): string | Uint8Array<ArrayBuffer> {
  const kept = texts.get(value)
  if (kept !== undefined) return kept
  const text = JSON.stringify(value)
  if (!Object.isFrozen(value)) return text
  // As bytes: writing a string to the socket encodes it again on every answer.
  const bytes = encoder.encode(text)
  texts.set(value, bytes)
  return bytes
}

/** `c.json`, except that a frozen value is serialised once however often it is answered. */
export function json<T extends object, S extends ContentfulStatusCode>(c: Context, value: T, status: S): Response & TypedResponse<T, S, 'json'> {
  return c.body(jsonText(value), status, { 'content-type': 'application/json' }) as never
}
