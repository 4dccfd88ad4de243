import { describe, expect, it } from 'vitest'
import { singleSelectBelief } from './confidence'
import { learnPreference } from './preference'
import type { Observation } from './observation'

const AT = '2026-07-01T10:00:00.000Z'
const OPTIONS = ['Tier S', 'Tier M', 'Tier L']

function observations(spec: Record<string, number>): Observation[] {
  const out: Observation[] = []
  for (const [choice, count] of Object.entries(spec)) {
    for (let i = 0; i < count; i++) {
      out.push({
        id: `o-${out.length}`,
        user: 'u',
        project: null,
        session_id: null,
        point: 'tier',
        decision_id: null,
        timestamp: AT,
        recorded_at: AT,
        question: 'Which tier?',
        header: null,
        options: OPTIONS,
        chosen: [choice],
        other: null,
        multi_select: false,
        context: {},
        source: 'user',
      })
    }
  }
  return out
}

describe('singleSelectBelief: confidence and p have their own priors', () => {
  const preference = learnPreference(
    observations({ 'Tier S': 3, 'Tier M': 6, 'Tier L': 1 }),
    OPTIONS,
    new Date(AT),
    0.5,
  )

  it('predicts the next choice with the Krichevsky–Trofimov estimator when the predictive prior is ½', () => {
    const belief = singleSelectBelief(preference, OPTIONS, 1, 0.5)
    // (6 + ½) / (10 + 3/2)
    expect(belief.predictive('Tier M')).toBeCloseTo(6.5 / 11.5, 12)
    expect(belief.predictive('Tier L')).toBeCloseTo(1.5 / 11.5, 12)
  })

  it('keeps the confidence on the uniform prior, so the worked example stays at 0.81', () => {
    const kt = singleSelectBelief(preference, OPTIONS, 1, 0.5)
    const laplace = singleSelectBelief(preference, OPTIONS, 1)
    expect(kt.probabilityOfMax('Tier M')).toBe(laplace.probabilityOfMax('Tier M'))
    expect(kt.probabilityOfMax('Tier M')).toBeCloseTo(0.81, 2)
    // Without a predictive prior of its own, p is Laplace's (count + 1) / (n + k).
    expect(laplace.predictive('Tier M')).toBeCloseTo(7 / 13, 12)
  })
})

describe('singleSelectBelief: options alike', () => {
  it('gives each of k options alike exactly 1/k, with no evidence or the same for each', () => {
    const none = learnPreference([], OPTIONS, new Date(AT), 0.5)
    for (const option of OPTIONS) expect(singleSelectBelief(none, OPTIONS, 1).probabilityOfMax(option)).toBe(1 / 3)
    expect(singleSelectBelief(none, ['Yes', 'No'], 1).probabilityOfMax('No')).toBe(0.5)
    const even = learnPreference(observations({ 'Tier S': 2, 'Tier M': 2, 'Tier L': 2 }), OPTIONS, new Date(AT), 0.5)
    expect(singleSelectBelief(even, OPTIONS, 1).probabilityOfMax('Tier M')).toBe(1 / 3)
  })
})
