import { describe, expect, it } from 'vitest'
import { randomHex } from './random-hex'

describe('randomHex', () => {
  it('gives hex of the length asked, never the same bytes again across refills of its pool', () => {
    // 6 KB a pool: 5,000 draws of 6 bytes refill it four times.
    const drawn = Array.from({ length: 5_000 }, () => randomHex(6))
    for (const hex of drawn) expect(hex).toMatch(/^[0-9a-f]{12}$/)
    // Two draws of 48 bits are equal by chance (4e-8 among 5,000), two pool-long runs of them
    // (1,024 draws) never: a pool used again, or a draw that does not move on, repeats a run.
    const runs = Array.from({ length: 4 }, (_, i) => drawn.slice(i * 1024, (i + 1) * 1024).join(''))
    expect(new Set(runs).size).toBe(runs.length)
    // Ten draws equal by chance: about 1e-80.
    expect(new Set(drawn).size).toBeGreaterThan(drawn.length - 10)
    expect(randomHex(4)).toMatch(/^[0-9a-f]{8}$/)
  })

  it('refuses more bytes than its pool holds, rather than give fewer', () => {
    expect(randomHex(6 * 1024)).toHaveLength(12 * 1024)
    expect(() => randomHex(6 * 1024 + 1)).toThrow(RangeError)
    expect(() => randomHex(0)).toThrow(RangeError)
  })
})
