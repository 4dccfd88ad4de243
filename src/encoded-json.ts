// The JSON of values handed out more than once (frozen: nobody can change them), encoded once:
// the use case measures a kept answer by it, and the HTTP route sends those same bytes.
const encoded = new WeakMap<object, Uint8Array<ArrayBuffer>>()
const encoder = new TextEncoder()

/** The UTF-8 JSON of a frozen value, encoded on first use and kept as long as the value lives. */
export function encodedJson(value: object): Uint8Array<ArrayBuffer> {
  let bytes = encoded.get(value)
  if (bytes === undefined) {
    bytes = encoder.encode(JSON.stringify(value))
    if (Object.isFrozen(value)) encoded.set(value, bytes)
  }
  return bytes
}
