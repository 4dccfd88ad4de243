import { oncePerFrozen } from './domain/freeze'

// The JSON of values handed out more than once (frozen: nobody can change them), encoded once:
// the use case measures a kept answer by it, and the HTTP route sends those same bytes.
const encoder = new TextEncoder()

/** The UTF-8 JSON of a frozen value, encoded on first use and kept as long as the value lives. */
export const encodedJson: (value: object) => Uint8Array<ArrayBuffer> = oncePerFrozen((value: object) => encoder.encode(JSON.stringify(value)))
