import { describe, expect, it } from 'vitest'
import {
  lastChoicePrediction,
  majorityPrediction,
  oraclePrediction,
  staticDefaultPrediction,
} from '../../scripts/eval/baselines'
import {
  accuracy,
  expectedCalibrationError,
  logLoss,
  reliabilityTable,
  type ProbabilityOutcome,
} from '../../scripts/eval/metrics'
import { createRandom } from '../../scripts/eval/random'

describe('evaluation metrics on cases with known answers', () => {
  it('a perfectly calibrated predictor has an ECE near 0', () => {
    const random = createRandom(1)
    const outcomes: ProbabilityOutcome[] = []
    for (let i = 0; i < 20_000; i++) {
      const probability = random.next()
      outcomes.push({ probability, happened: random.next() < probability })
    }
    expect(expectedCalibrationError(outcomes)).toBeLessThan(0.02)
  })

  it('a predictor that is always wrong has accuracy 0, and at full confidence an ECE of 1', () => {
    const outcomes = Array.from({ length: 100 }, () => ({ probability: 1, happened: false }))
    expect(accuracy(outcomes)).toBe(0)
    expect(expectedCalibrationError(outcomes)).toBe(1)
  })

  it('an overconfident predictor shows its gap in the reliability table', () => {
    // Says 0.9, right half the time: the 0.9–1.0 bin holds all of it, 0.4 apart.
    const outcomes = Array.from({ length: 10 }, (_, i) => ({
      probability: 0.9,
      happened: i % 2 === 0,
    }))
    const table = reliabilityTable(outcomes)
    expect(table).toHaveLength(10)
    expect(table[9]).toMatchObject({ count: 10, observed: 0.5 })
    expect(table[9]?.meanProbability).toBeCloseTo(0.9, 12)
    expect(expectedCalibrationError(outcomes)).toBeCloseTo(0.4, 12)
  })

  it('puts a probability of exactly 1 in the last bin and 0 in the first', () => {
    const table = reliabilityTable([
      { probability: 0, happened: false },
      { probability: 1, happened: true },
    ])
    expect(table[0]?.count).toBe(1)
    expect(table[9]?.count).toBe(1)
  })

  it('log loss is ln 2 for a coin flip and small but finite for a certain hit or miss', () => {
    expect(logLoss([{ probability: 0.5, happened: true }])).toBeCloseTo(Math.LN2, 12)
    expect(logLoss([{ probability: 1, happened: true }])).toBeLessThan(1e-5)
    expect(logLoss([{ probability: 1, happened: false }])).toBeCloseTo(-Math.log(1e-6), 6)
  })
})

describe('baselines', () => {
  const history = (choices: string[]) => ({ options: ['A', 'B', 'C'], staticDefault: 'B', choices })

  it('the static default always names the default, with p = 1/k', () => {
    expect(staticDefaultPrediction(history(['A', 'A', 'A']))).toEqual({
      option: 'B',
      p: 1 / 3,
      autoResolve: false,
    })
  })

  it('the last choice repeats the previous choice, p the smoothed rate of repeats', () => {
    expect(lastChoicePrediction(history([]))).toMatchObject({ option: 'B', p: 0.5 })
    // Two transitions, one repeat: (1 + 1) / (2 + 2).
    expect(lastChoicePrediction(history(['A', 'A', 'C']))).toMatchObject({ option: 'C', p: 0.5 })
  })

  it('the majority gives the static default below N, then the plain majority, ties to the default then the latest', () => {
    const thresholds = { N: 5, M: 20, autoResolveP: 0.9 }
    expect(majorityPrediction(history(['A', 'A', 'A', 'A']), thresholds).option).toBe('B')
    expect(majorityPrediction(history(['A', 'A', 'A', 'C', 'C']), thresholds)).toMatchObject({
      option: 'A',
      p: 4 / 8,
    })
    expect(majorityPrediction(history(['A', 'A', 'B', 'B', 'C']), thresholds).option).toBe('B')
    expect(majorityPrediction(history(['C', 'C', 'A', 'A', 'B']), thresholds).option).toBe('A')
  })

  it('the majority auto-resolves only above M with a smoothed share of at least auto_resolve_p', () => {
    const thresholds = { N: 5, M: 20, autoResolveP: 0.9 }
    expect(majorityPrediction(history(Array(20).fill('A')), thresholds).autoResolve).toBe(false)
    expect(majorityPrediction(history(Array(27).fill('A')), thresholds).autoResolve).toBe(true)
  })

  it('the oracle names the favourite with its true probability', () => {
    expect(oraclePrediction(['A', 'B', 'C'], [0.2, 0.5, 0.3])).toEqual({
      option: 'B',
      p: 0.5,
      autoResolve: false,
    })
  })
})

describe('seeded randomness', () => {
  it('gives the same draws for the same seed and stream, and others for another stream', () => {
    const a = createRandom(42, 3)
    const b = createRandom(42, 3)
    const c = createRandom(42, 4)
    const draws = (r: ReturnType<typeof createRandom>) => Array.from({ length: 5 }, () => r.next())
    const first = draws(a)
    expect(draws(b)).toEqual(first)
    expect(draws(c)).not.toEqual(first)
  })

  it('draws Dirichlet vectors on the simplex with the right mean', () => {
    const random = createRandom(9)
    const sums = [0, 0, 0]
    for (let i = 0; i < 4000; i++) {
      const theta = random.dirichlet([1, 2, 5])
      expect(theta.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 12)
      theta.forEach((x, j) => (sums[j] = (sums[j] as number) + x))
    }
    // E[θ_j] = α_j / Σα.
    expect((sums[0] as number) / 4000).toBeCloseTo(1 / 8, 1)
    expect((sums[2] as number) / 4000).toBeCloseTo(5 / 8, 1)
  })
})
