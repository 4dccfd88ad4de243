import { describe, expect, it } from 'vitest'
import { randomHex } from './random-hex'

describe('randomHex', () => {
  it('gives hex of the length asked, never the same twice across refills of its pool', () => {
    // 6 KB a pool: 5,000 draws of 6 bytes refill it four times.
    const drawn = Array.from({ length: 5_000 }, () => randomHex(6))
    for (const hex of drawn) expect(hex).toMatch(/^[0-9a-f]{12}$/)
    expect(new Set(drawn).size).toBe(drawn.length)
    expect(randomHex(4)).toMatch(/^[0-9a-f]{8}$/)
  })

  it('refuses more bytes than its pool holds, rather than give fewer', () => {
    expect(randomHex(6 * 1024)).toHaveLength(12 * 1024)
    expect(() => randomHex(6 * 1024 + 1)).toThrow(RangeError)
    expect(() => randomHex(0)).toThrow(RangeError)
  })
})
