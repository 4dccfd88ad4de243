import fc from 'fast-check'
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

  it('counts what JSON.stringify writes for any value read from JSON and its copies', () => {
    // Text of any code point, lone surrogates and the characters JSON escapes among them; numbers
    // JSON.stringify writes as null or 0 (NaN, Infinity, -0); fields left undefined; arrays with holes.
    const text = fc
      .array(fc.oneof(fc.string({ unit: 'binary' }), fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), fc.constantFrom('"', '\\', '\u2028', '\u0000', '\n', '__proto__')), { maxLength: 4 })
      .map((parts) => parts.join(''))
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.constant(undefined), fc.boolean(), fc.double(), fc.integer(), text, tie('list'), tie('holes'), tie('object')),
      list: fc.array(tie('value'), { maxLength: 4 }),
      holes: fc.array(tie('value'), { maxLength: 4 }).map((items) => {
        const holey: unknown[] = new Array(items.length * 2)
        items.forEach((item, i) => (holey[2 * i + 1] = item))
        return holey
      }),
      object: fc.dictionary(text, tie('value'), { maxKeys: 4 }),
    }))
    fc.assert(
      fc.property(value, (v) => {
        if (v !== undefined) expect(jsonBytes(v)).toBe(Buffer.byteLength(JSON.stringify(v)))
      }),
      // A fixed seed, as the other property tests have: DM_FUZZ_SEED tries another.
      { seed: Number(process.env.DM_FUZZ_SEED ?? 20261205), numRuns: 2000 },
    )
  })

  it('counts a value nested deeper than JSON.stringify can write', () => {
    const levels = 100_000
    const value = JSON.parse('['.repeat(levels) + '"x"' + ']'.repeat(levels)) as unknown
    expect(() => JSON.stringify(value)).toThrow(RangeError)
    expect(jsonBytes(value)).toBe(2 * levels + 3)
  })
})
