import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DAY_MS, decayWeight } from './decay'
import { addMoment, decayedSumAt, decayGrid, emptyDecayedSum, EXACT_NEWEST } from './decayed-sum'

const NOW = Date.parse('2026-07-01T10:00:00Z')

function exactSum(ages: readonly number[], beta: number): number {
  return ages.reduce((s, a) => s + decayWeight(a, beta), 0)
}

function sumOf(ages: readonly number[], alpha: number) {
  const grid = decayGrid(alpha)
  const sum = emptyDecayedSum()
  for (const a of ages) addMoment(sum, NOW - a * DAY_MS, grid)
  return { sum, grid }
}

function relativeError(approx: number, exact: number): number {
  return Math.abs(approx - exact) / exact
}

/** Ages in days: spread evenly, bunched in bursts, or both, over up to 50 years. */
const history = fc.oneof(
  fc.array(fc.double({ min: 0, max: 18_000, noNaN: true }), { minLength: 1, maxLength: 400 }),
  fc
    .array(
      fc.record({
        at: fc.double({ min: 0, max: 18_000, noNaN: true }),
        count: fc.integer({ min: 1, max: 60 }),
        spread: fc.double({ min: 0, max: 3, noNaN: true }),
      }),
      { minLength: 1, maxLength: 8 },
    )
    .map((bursts) => bursts.flatMap((b) => Array.from({ length: b.count }, (_, i) => b.at + (b.spread * i) / b.count))),
)

describe('decayed sums (R-MEM-2, R-MEM-8)', () => {
  it('are exact while a sum holds no more than the newest moments it keeps', () => {
    const ages = [0, 0.5, 1, 3, 29.9, 30, 400]
    const { sum, grid } = sumOf(ages, 0.5)
    expect(decayedSumAt(sum, NOW, 0.5, grid)).toBe(exactSum(ages, 0.5))
    expect(decayedSumAt(sum, NOW, 1, grid)).toBe(exactSum(ages, 1))
    expect(ages.length).toBeLessThanOrEqual(EXACT_NEWEST)
  })

  it('count the moments when α is 0', () => {
    const ages = Array.from({ length: 40 }, (_, i) => i * 3)
    const { sum, grid } = sumOf(ages, 0)
    expect(decayedSumAt(sum, NOW, 0, grid)).toBe(40)
  })

  it('approximate one old moment within 1e-6 of (age + 1)^-β, for ages up to 10^5 days', () => {
    for (const alpha of [0.1, 0.25, 0.5, 1, 2, 5]) {
      const grid = decayGrid(alpha)
      let worst = 0
      for (let lx = 0; lx <= 5; lx += 0.01) {
        const age = 10 ** lx - 1
        // The moment alone in the exponential tail, referred to itself: T_m = 1 for every node.
        const at = NOW - age * DAY_MS
        const sum = { n: 1, newest: [], ref: at, tail: grid.rates.map(() => 1) }
        for (const beta of [alpha, 2 * alpha]) {
          worst = Math.max(worst, relativeError(decayedSumAt(sum, NOW, beta, grid), decayWeight(age, beta)))
        }
      }
      expect(worst, `α = ${alpha}`).toBeLessThan(1e-6)
    }
  })

  it('keep a small α to at most 128 nodes, each old moment within 1e-6 of (age + 1)^-β', () => {
    // The grid's lower end fell as 1/α: 307 nodes at α = 0.1, 27,600 at 0.001 and 27.6 million at
    // 1e-6, a tail of 220 MB per tally (a policy of decay.alpha 0.000001 took a second per
    // recommendation at 20 observations, and 54 MB of store).
    for (const alpha of [1e-6, 1e-4, 0.001, 0.01, 0.05, 0.1, 0.2, 0.29]) {
      const grid = decayGrid(alpha)
      expect(grid.rates.length, `α = ${alpha}`).toBeLessThanOrEqual(128)
      let worst = 0
      for (let lx = 0; lx <= 5; lx += 0.01) {
        const age = 10 ** lx - 1
        const at = NOW - age * DAY_MS
        const sum = { n: 1, newest: [], ref: at, tail: grid.rates.map(() => 1) }
        for (const beta of [alpha, 2 * alpha]) {
          worst = Math.max(worst, relativeError(decayedSumAt(sum, NOW, beta, grid), decayWeight(age, beta)))
        }
      }
      expect(worst, `α = ${alpha}`).toBeLessThan(1e-6)
    }
  })

  it('over a history at a small α, stay within 1e-6 of the exact sum, read now and years later', () => {
    const ages = Array.from({ length: 300 }, (_, i) => (i * i) / 3)
    for (const alpha of [1e-6, 0.001, 0.1]) {
      const { sum, grid } = sumOf(ages, alpha)
      for (const later of [0, 5, 5_000]) {
        for (const beta of [alpha, 2 * alpha]) {
          const exact = exactSum(ages.map((a) => a + later), beta)
          expect(relativeError(decayedSumAt(sum, NOW + later * DAY_MS, beta, grid), exact), `α = ${alpha}`).toBeLessThan(1e-6)
        }
      }
    }
  })

  it('stay within 1% of the exact sum over randomised histories (in fact within 1e-6)', () => {
    fc.assert(
      fc.property(history, fc.constantFrom(0.5, 0.3, 0.8, 1.5), fc.double({ min: 0, max: 2_000, noNaN: true }), (ages, alpha, later) => {
        const { sum, grid } = sumOf(ages, alpha)
        const at = NOW + later * DAY_MS
        const aged = ages.map((a) => a + later)
        for (const beta of [alpha, 2 * alpha]) {
          const error = relativeError(decayedSumAt(sum, at, beta, grid), exactSum(aged, beta))
          expect(error).toBeLessThan(0.01)
          expect(error).toBeLessThan(1e-6)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('do not depend on the order the moments were added in', () => {
    fc.assert(
      fc.property(history, fc.integer(), (ages, seed) => {
        const shuffled = [...ages].sort((a, b) => Math.sin(a * 1e3 + seed) - Math.sin(b * 1e3 + seed))
        const one = sumOf(ages, 0.5)
        const other = sumOf(shuffled, 0.5)
        expect(other.sum.newest).toEqual(one.sum.newest)
        const a = decayedSumAt(one.sum, NOW, 0.5, one.grid)
        expect(relativeError(decayedSumAt(other.sum, NOW, 0.5, other.grid), a)).toBeLessThan(1e-12)
      }),
      { numRuns: 100 },
    )
  })
})
