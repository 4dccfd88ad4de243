/**
 * The bytes, in UTF-8, of `value` as JSON.stringify writes it (undefined fields left out, undefined
 * in an array as null), counted without writing it: iterative, so that a value nested thousands deep,
 * which JSON.parse takes but JSON.stringify, being recursive, cannot write, is measured too. For
 * values read from JSON and their copies: no toJSON, no function, no bigint.
 */
export function jsonBytes(value: unknown): number {
  let bytes = 0
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const item = stack.pop()
    if (Array.isArray(item)) {
      bytes += 2 + Math.max(item.length - 1, 0)
      for (const child of item) stack.push(child === undefined ? null : child)
    } else if (typeof item === 'object' && item !== null) {
      const fields = Object.entries(item).filter(([, child]) => child !== undefined)
      bytes += 2 + Math.max(fields.length - 1, 0)
      for (const [name, child] of fields) {
        bytes += Buffer.byteLength(JSON.stringify(name)) + 1
        stack.push(child)
      }
    } else {
      bytes += Buffer.byteLength(JSON.stringify(item) ?? 'null')
    }
  }
  return bytes
}
