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
})

describe('effectiveSampleSize', () => {
  it('is n for equal weights and less for unequal ones', () => {
    expect(effectiveSampleSize([1, 1, 1, 1])).toBe(4)
    expect(effectiveSampleSize([1, 0.5, 0.25])).toBeLessThan(3)
  })
})
