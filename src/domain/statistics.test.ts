import { describe, expect, it } from 'vitest'
import { chiSquaredIndependence, dirichletProbabilityOfMax, effectiveSampleSize, regularizedGammaP } from './statistics'

describe('regularizedGammaP', () => {
  it('is the exponential CDF for a = 1', () => {
    for (const x of [0.1, 1, 3, 10]) expect(regularizedGammaP(1, x)).toBeCloseTo(1 - Math.exp(-x), 10)
  })
  it('gives the chi-squared CDF: P(χ²₁ ≤ 3.841) = 0.95', () => {
    expect(regularizedGammaP(0.5, 3.841 / 2)).toBeCloseTo(0.95, 3)
  })
})

describe('dirichletProbabilityOfMax', () => {
  it('is 1/k for a symmetric Dirichlet', () => {
    expect(dirichletProbabilityOfMax([1, 1, 1], 0)).toBeCloseTo(1 / 3, 3)
    expect(dirichletProbabilityOfMax([5, 5, 5, 5], 2)).toBeCloseTo(0.25, 3)
  })
  it('sums to 1 over the components', () => {
    const alphas = [7, 4, 2, 1.5]
    const total = alphas.reduce((s, _, i) => s + dirichletProbabilityOfMax(alphas, i), 0)
    expect(total).toBeCloseTo(1, 3)
  })
  it('matches the Beta tail for two components: P(θ > 1/2) under Beta(3, 1) = 7/8', () => {
    expect(dirichletProbabilityOfMax([3, 1], 0)).toBeCloseTo(0.875, 3)
  })
  it('agrees with Monte Carlo for the seed example Dirichlet(7, 4, 2) (≈ 0.810)', () => {
    expect(dirichletProbabilityOfMax([7, 4, 2], 0)).toBeCloseTo(0.81, 2)
  })
})

describe('chiSquaredIndependence', () => {
  it('finds a perfect split significant', () => {
    const test = chiSquaredIndependence([[6, 0], [0, 6]])
    expect(test.statistic).toBeCloseTo(12, 9)
    expect(test.pValue).toBeLessThan(0.001)
  })
  it('finds identical rows independent', () => {
    expect(chiSquaredIndependence([[5, 5], [5, 5]]).pValue).toBeCloseTo(1, 9)
  })
  it('drops empty columns and handles an empty row', () => {
    expect(chiSquaredIndependence([[3, 0, 0], [0, 0, 0]]).pValue).toBe(1)
  })
  it('counts the exact p-value where an expected count is below 1 (Freeman-Halton), not the chi-squared one', () => {
    // One choice of a new option among 6 recent ones, after 95 of another: Pearson's p is
    // 0.00006, Fisher's exact p is 6/101. Taken at face value, one choice was a change of preference.
    expect(chiSquaredIndependence([[5, 1], [95, 0]]).pValue).toBeCloseTo(6 / 101, 9)
    // Two such choices are rare enough: C(7, 2) / C(102, 2).
    expect(chiSquaredIndependence([[5, 2], [95, 0]]).pValue).toBeCloseTo(21 / 5151, 9)
    // 2 × 3: the first row holds the one choice of each of two options chosen nowhere else.
    expect(chiSquaredIndependence([[3, 1, 1], [40, 0, 0]]).pValue).toBeCloseTo((5 * 4) / (45 * 44), 9)
  })
  it('keeps the chi-squared p-value where there are too many tables to count exactly', () => {
    // 64 recent choices over 5 columns: some hundred thousand tables, past the bound.
    const test = chiSquaredIndependence([[16, 16, 16, 15, 1], [500, 400, 300, 200, 0]])
    expect(test.pValue).toBeCloseTo(1 - regularizedGammaP(test.df / 2, test.statistic / 2), 12)
  })
  it('keeps the chi-squared p-value where every expected count is at least 1', () => {
    // phase run 5 × S; phase plan 2 × S, 3 × L: expected counts 3.5 and 1.5, Pearson's p = 0.038.
    expect(chiSquaredIndependence([[5, 0], [2, 3]]).pValue).toBeCloseTo(0.0384, 3)
  })
})

describe('effectiveSampleSize', () => {
  it('is n for equal weights and less for unequal ones', () => {
    expect(effectiveSampleSize([1, 1, 1, 1])).toBe(4)
    expect(effectiveSampleSize([1, 0.5, 0.25])).toBeLessThan(3)
  })
})

describe('dirichletProbabilityOfMax with pseudo-counts below 1 (a policy prior down to ½)', () => {
  // Exact values: for two components P(θ₁ > θ₂) = P(Beta(a, b) > ½) = 1 − I_½(a, b).
  it('is ½ for Dirichlet(½, ½), not 0.51', () => {
    expect(dirichletProbabilityOfMax([0.5, 0.5], 0)).toBeCloseTo(0.5, 4)
    expect(dirichletProbabilityOfMax([0.5, 0.5, 0.5], 1)).toBeCloseTo(1 / 3, 4)
  })
  it('matches the Beta tail where one pseudo-count is below 1', () => {
    expect(dirichletProbabilityOfMax([1.5, 0.5], 0)).toBeCloseTo(0.8183098862, 4)
    expect(dirichletProbabilityOfMax([0.75, 0.6], 0)).toBeCloseTo(0.5689404883, 4)
    expect(dirichletProbabilityOfMax([0.5, 2.7], 0)).toBeCloseTo(0.0638987399, 5)
  })
  it('keeps the steps of large pseudo-counts beside a small one', () => {
    // G(20000) against G(20100): z = −100/√40100, Φ(z) = 0.3087.
    expect(dirichletProbabilityOfMax([20000, 20100, 0.5], 0)).toBeCloseTo(0.3087, 3)
  })
})
