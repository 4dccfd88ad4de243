import { describe, expect, it } from 'vitest'
import { jsonBytes } from './json-bytes'

describe('jsonBytes', () => {
  it('counts what JSON.stringify writes, in UTF-8', () => {
    const values: unknown[] = [
      null,
      0,
      -1.5e300,
      true,
      '',
      'é😀\u2028"\\\n\u0000',
      [],
      {},
      [1, [2, [3, {}]], undefined, null],
      { a: 1, b: undefined, 'c"é': { d: [] }, e: [{ f: 'g' }] },
      { __proto__: null, x: 'y' },
    ]
    for (const value of values) expect(jsonBytes(value), JSON.stringify(value)).toBe(Buffer.byteLength(JSON.stringify(value)))
  })

  it('counts a value nested deeper than JSON.stringify can write', () => {
    const levels = 100_000
    const value = JSON.parse('['.repeat(levels) + '"x"' + ']'.repeat(levels)) as unknown
    expect(() => JSON.stringify(value)).toThrow(RangeError)
    expect(jsonBytes(value)).toBe(2 * levels + 3)
  })
})
