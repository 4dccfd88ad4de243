import type { Context, TypedResponse } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { STAMPED_FROM } from '../memory/restamp'

// Answers handed out more than once are frozen (the use case keeps them) and encoded once:
// serialising a recommendation cost more than the rest of a request answered from memory. A copy
// of a kept answer with another `as_of` (restamp.ts) is its encoding with those bytes rewritten.
const encoded = new WeakMap<object, { bytes: Uint8Array<ArrayBuffer>; asOfAt: number }>()
const encoder = new TextEncoder()
const AS_OF_KEY = '"as_of":"'

function encodingOf(value: object): { bytes: Uint8Array<ArrayBuffer>; asOfAt: number } {
  let kept = encoded.get(value)
  if (kept === undefined) {
    const text = JSON.stringify(value)
    const asOf = (value as { as_of?: unknown }).as_of
    // Where the top-level as_of's value starts, in bytes: the key and that value, unescaped, can
    // only be the property itself (text inside a string escapes its quotes).
    const at = typeof asOf === 'string' ? text.lastIndexOf(`${AS_OF_KEY}${asOf}"`) : -1
    kept = { bytes: encoder.encode(text), asOfAt: at < 0 ? -1 : encoder.encode(text.slice(0, at + AS_OF_KEY.length)).length }
    encoded.set(value, kept)
  }
  return kept
}

function jsonBytes(value: object): string | Uint8Array<ArrayBuffer> {
  if (!Object.isFrozen(value)) return JSON.stringify(value)
  const base = (value as { [STAMPED_FROM]?: { as_of: string } })[STAMPED_FROM]
  if (base === undefined) return encodingOf(value).bytes
  const asOf = (value as { as_of: string }).as_of
  const { bytes, asOfAt } = encodingOf(base)
  if (asOfAt < 0 || asOf.length !== base.as_of.length || !/^[0-9T:.Z-]+$/.test(asOf)) return JSON.stringify(value)
  const copy = bytes.slice()
  encoder.encodeInto(asOf, copy.subarray(asOfAt, asOfAt + asOf.length))
  return copy
}

/** `c.json`, except that a frozen value is serialised once however often it is answered. */
export function json<T extends object, S extends ContentfulStatusCode>(c: Context, value: T, status: S): Response & TypedResponse<T, S, 'json'> {
  return c.body(jsonBytes(value), status, { 'content-type': 'application/json' }) as never
}
