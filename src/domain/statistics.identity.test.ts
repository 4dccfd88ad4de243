import fc from 'fast-check'
import { gammaln } from 'simple-statistics'
import { describe, expect, it } from 'vitest'
import { dirichletProbabilityOfMax, nodesNearZero, OWN_MASS_FROM, regularizedGammaP } from './statistics'

/**
 * dirichletProbabilityOfMax as it was before it skipped work (issue 8), kept as the reference: the
 * faster one must give the same number, bit for bit, so that no recommendation changes. On the same
 * grid: the even one, or where a pseudo-count is below 1, the one nodesNearZero gives. From a
 * recommended pseudo-count of OWN_MASS_FROM the grid is not used (statistics.reference.test.ts).
 */
function referenceGammaP(a: number, x: number): number {
  if (x <= 0) return 0
  const lnPrefix = a * Math.log(x) - x - gammaln(a)
  if (x < a + 1) {
    let term = 1 / a
    let sum = term
    for (let n = 1; n < 1000; n++) {
      term *= x / (a + n)
      sum += term
      if (Math.abs(term) < Math.abs(sum) * 1e-14) break
    }
    return Math.min(1, sum * Math.exp(lnPrefix))
  }
  const tiny = 1e-300
  let b = x + 1 - a
  let c = 1 / tiny
  let d = 1 / b
  let h = d
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a)
    b += 2
    d = an * d + b
    if (Math.abs(d) < tiny) d = tiny
    c = b + an / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < 1e-14) break
  }
  return Math.max(0, 1 - Math.exp(lnPrefix) * h)
}

function referenceProbabilityOfMax(alphas: readonly number[], index: number): number {
  const own = alphas[index] as number
  if (alphas.length === 1) return 1
  let low = Infinity
  let high = 0
  for (const a of alphas) {
    const spread = 12 * Math.sqrt(a) + 12
    low = Math.min(low, Math.max(0, a - spread))
    high = Math.max(high, a + spread)
  }
  const step = (high - low) / 600
  const nodes = nodesNearZero(alphas, low, step)
  let total = 0
  let previousCdf = referenceGammaP(own, low)
  for (let i = 1; i <= (nodes === null ? 600 : nodes.nodes.length - 1); i++) {
    const x = nodes === null ? low + i * step : (nodes.nodes[i] as number)
    const cdf = referenceGammaP(own, x)
    const mass = cdf - previousCdf
    previousCdf = cdf
    if (mass <= 0) continue
    const mid = nodes === null ? x - step / 2 : (nodes.mids[i] as number)
    let others = 1
    for (let j = 0; j < alphas.length; j++) {
      if (j !== index) others *= referenceGammaP(alphas[j] as number, mid)
    }
    total += mass * others
  }
  return Math.min(1, Math.max(0, total))
}

/** Pseudo-counts as recommendations make them: the prior (0.5 to 10) plus rescaled decayed weights. */
const pseudoCount = fc.oneof(
  fc.double({ min: 0.5, max: 10, noNaN: true }),
  fc.double({ min: 0.5, max: 200, noNaN: true }),
  fc.double({ min: 0.5, max: 100_000, noNaN: true }),
)

describe('dirichletProbabilityOfMax skips work without changing its answer', () => {
  it('gives the reference number bit for bit, for 2 to 6 options and every index', () => {
    fc.assert(
      fc.property(fc.array(pseudoCount, { minLength: 2, maxLength: 6 }), fc.nat(), (alphas, i) => {
        const index = i % alphas.length
        fc.pre((alphas[index] as number) < OWN_MASS_FROM)
        expect(dirichletProbabilityOfMax(alphas, index)).toBe(referenceProbabilityOfMax(alphas, index))
      }),
      { numRuns: 300 },
    )
  })

  it('keeps regularizedGammaP as it was', () => {
    fc.assert(
      fc.property(pseudoCount, fc.double({ min: 0, max: 200_000, noNaN: true }), (a, x) => {
        expect(regularizedGammaP(a, x)).toBe(referenceGammaP(a, x))
      }),
      { numRuns: 500 },
    )
  })

  it('holds on the seed examples and on ties', () => {
    for (const [alphas, index] of [[[7, 4, 2], 0], [[5, 6, 2], 1], [[1, 1, 1], 2], [[3, 1], 0], [[40, 40, 1], 0]] as const) {
      expect(dirichletProbabilityOfMax(alphas, index)).toBe(referenceProbabilityOfMax(alphas, index))
    }
  })
})
