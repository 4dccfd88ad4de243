import { describe, expect, it } from 'vitest'
import { DEFAULT_POLICY_FILE, loadPolicy } from '../config/load-policy'
import { learnedPreferences, learnedPreferencesByPoint } from './learned-preferences'
import type { Observation } from './observation'
import { recommend } from './recommendation'
import { compilePolicy } from './policy'
import { pointView } from '../../test/support/observations'

const policy = await loadPolicy(DEFAULT_POLICY_FILE)
const AS_OF = new Date('2026-07-01T10:00:00.000Z')

let n = 0
function chose(point: string, chosen: string[], fields: Partial<Observation> = {}): Observation {
  n++
  return {
    id: `obs-${n}`,
    user: 'alice',
    project: 'acme/api',
    session_id: 's-1',
    point,
    decision_id: `d-${n}`,
    timestamp: AS_OF.toISOString(),
    recorded_at: AS_OF.toISOString(),
    question: 'Which complexity tier should this SPEC use?',
    header: 'Tier',
    options: ['Tier S', 'Tier M', 'Tier L'],
    chosen,
    other: null,
    multi_select: false,
    context: {},
    source: 'user',
    ...fields,
  }
}

function times(count: number, make: () => Observation): Observation[] {
  return Array.from({ length: count }, make)
}

describe('learnedPreferences (R-SVC-5)', () => {
  it('after a change found on few choices, states the confidence a recommendation states, weighed by how sure the change is', () => {
    const day = (d: number) => new Date(AS_OF.getTime() - d * 86_400_000).toISOString()
    const at = (d: number) => ({ timestamp: day(d), recorded_at: day(d) })
    const observations = [
      ...Array.from({ length: 40 }, (_, i) => chose('complexity-tier', ['Tier L'], at(200 - 2 * i))),
      ...Array.from({ length: 36 }, (_, i) => chose('complexity-tier', ['Tier M'], at(199 - 2 * i))),
      ...Array.from({ length: 7 }, (_, i) => chose('complexity-tier', ['Tier M'], at(7 - i))),
    ]
    const [tier] = learnedPreferences(observations, AS_OF, policy)
    expect(tier).toMatchObject({ majority: 'Tier M', observations: 7, changed_since: expect.any(String) })
    const compiled = compilePolicy(policy)
    const r = recommend({
      point: 'complexity-tier',
      question: 'Which complexity tier should this SPEC use?',
      options: [{ option: 'Tier S' }, { option: 'Tier M' }, { option: 'Tier L' }],
      sessions: 1,
      personalization: true,
      asOf: AS_OF,
      policy: compiled,
      memory: pointView(observations, compiled),
    })
    expect(r).toMatchObject({ recommended: 'Tier M', observations: 7 })
    expect(r.change_test).not.toBeNull()
    expect(tier?.confidence).toMatchObject({ value: r.confidence.value, method: r.confidence.method })
    expect(tier?.confidence?.method).toContain('weighed by the posterior probability that the split is real')
  })

  it('gives the seed example as a recommendation learns it: Tier M, 60%, medium-high', () => {
    const observations = [
      ...times(3, () => chose('complexity-tier', ['Tier S'])),
      ...times(6, () => chose('complexity-tier', ['Tier M'])),
      ...times(1, () => chose('complexity-tier', ['Tier L'])),
    ]
    const [tier] = learnedPreferences(observations, AS_OF, policy)
    expect(tier?.majority).toBe('Tier M')
    expect(tier?.share).toBe(0.6)
    expect(tier?.confidence?.level).toBe('medium-high')
    expect(tier?.confidence?.value).toBeCloseTo(0.81, 2)
    expect(tier?.options).toEqual([
      { option: 'Tier S', count: 3, share: 0.3 },
      { option: 'Tier M', count: 6, share: 0.6 },
      { option: 'Tier L', count: 1, share: 0.1 },
    ])
    expect(tier?.other).toBe(0)
  })

  it('says how many more choices a recommendation needs before it is personalised, as the recommendation says it', () => {
    // One choice: the recommendation is still the static default (`4 observations needed for
    // personalization`); a line saying only "Drizzle 100%, confidence medium-high" hid that.
    const [one] = learnedPreferences([chose('complexity-tier', ['Tier L'])], AS_OF, policy)
    expect(one?.needed).toBe(policy.thresholds.min_observations - 1)
    const [enough] = learnedPreferences(times(policy.thresholds.min_observations, () => chose('complexity-tier', ['Tier L'])), AS_OF, policy)
    expect(enough?.needed).toBe(0)
  })

  it('counts the answers outside the options, which no option counts', () => {
    const observations = [
      ...times(4, () => chose('complexity-tier', ['Tier M'])),
      ...times(2, () => chose('complexity-tier', [], { other: 'something in between' })),
    ]
    const [tier] = learnedPreferences(observations, AS_OF, policy)
    expect(tier?.observations).toBe(6)
    expect(tier?.options.reduce((sum, o) => sum + o.count, 0)).toBe(4)
    expect(tier?.other).toBe(2)
  })

  it('keeps points apart, ignores auto-resolved answers and what came after as_of', () => {
    const observations = [
      chose('b-point', ['Tier S']),
      chose('a-point', ['Tier L']),
      chose('a-point', ['Tier M'], { source: 'auto-resolved' }),
      chose('a-point', ['Tier M'], { timestamp: '2026-07-02T00:00:00.000Z' }),
    ]
    const points = learnedPreferences(observations, AS_OF, policy)
    expect(points.map((p) => [p.point, p.majority, p.observations])).toEqual([
      ['a-point', 'Tier L', 1],
      ['b-point', 'Tier S', 1],
    ])
  })

  it('keeps a past choice in view after the question stopped offering it', () => {
    const points = learnedPreferences(
      [
        chose('tier', ['Tier XL'], { options: ['Tier S', 'Tier XL'], timestamp: '2026-06-01T00:00:00.000Z' }),
        chose('tier', ['Tier S'], { options: ['Tier S', 'Tier M'] }),
      ],
      AS_OF,
      policy,
    )
    expect(points[0]?.options.map((o) => o.option)).toEqual(['Tier S', 'Tier M', 'Tier XL'])
    expect(points[0]?.first_observed).toBe('2026-06-01T00:00:00.000Z')
  })

  it('counts a choice stored in another case as the option the question offers now, as a recommendation does', () => {
    const points = learnedPreferences(
      [
        ...times(6, () => chose('tier', ['Tier M'], { timestamp: '2026-06-01T00:00:00.000Z' })),
        ...times(3, () => chose('tier', ['Tier S'], { timestamp: '2026-06-01T00:00:00.000Z' })),
        chose('tier', ['tier l'], { options: ['tier s', 'tier m', 'tier l'] }),
      ],
      AS_OF,
      policy,
    )
    expect(points[0]?.options.map((o) => [o.option, o.count])).toEqual([
      ['tier s', 3],
      ['tier m', 6],
      ['tier l', 1],
    ])
    expect(points[0]?.majority).toBe('tier m')
  })

  it('has no single-select confidence for a multi-select point, and treats __proto__ as a label', () => {
    const points = learnedPreferences(
      [chose('checks', ['__proto__', 'toString'], { options: ['__proto__', 'toString', 'constructor'], multi_select: true })],
      AS_OF,
      policy,
    )
    expect(points[0]?.confidence).toBeNull()
    expect(points[0]?.options).toEqual([
      { option: '__proto__', count: 1, share: 1 },
      { option: 'toString', count: 1, share: 1 },
      { option: 'constructor', count: 0, share: 0 },
    ])
    // The set a recommendation would give, not one option of it.
    expect(points[0]?.selection).toEqual(['__proto__', 'toString'])
  })

  it('reads sets chosen before as one choice each where the point is now asked single-select, as a recommendation does', () => {
    const models = { question: 'Which model?', header: 'Model', options: ['Opus', 'Sonnet', 'Haiku'] }
    const points = learnedPreferences(
      [...times(8, () => chose('model-selection', ['Opus', 'Sonnet'], { ...models, multi_select: true })), chose('model-selection', ['Haiku'], models)],
      AS_OF,
      policy,
    )
    expect(points[0]?.multi_select).toBe(false)
    expect(points[0]?.options).toEqual([
      { option: 'Opus', count: 4, share: 0.4444 },
      { option: 'Sonnet', count: 4, share: 0.4444 },
      { option: 'Haiku', count: 1, share: 0.1111 },
    ])
    // Each set one choice, half to each option: the counts add up to the 9 choices, as the shares to 1.
    expect(points[0]?.observations).toBe(9)
    expect(points[0]?.majority).toBe('Sonnet')
    expect(points[0]?.share).toBe(0.4444)
  })

  it('counts as other, where the point is now asked single-select, only the choices no option counts: a set with a text of its own beside its options is theirs', () => {
    const checks = { question: 'Which checks?', header: 'Checks', options: ['Lint', 'Test', 'Build'] }
    const points = learnedPreferences(
      [
        ...times(3, () => chose('checks', ['Lint', 'Test'], { ...checks, other: 'my own', multi_select: true })),
        ...times(2, () => chose('checks', ['Lint'], checks)),
        chose('checks', [], { ...checks, other: 'free text' }),
      ],
      AS_OF,
      policy,
    )
    expect(points[0]?.multi_select).toBe(false)
    expect(points[0]?.options.map((o) => o.count)).toEqual([3.5, 1.5, 0])
    // The counts and other add up to the 6 choices: each set went whole to its options.
    expect(points[0]?.other).toBe(1)
    expect(points[0]?.observations).toBe(6)
  })

  it('counts as other, at a multi-select point, every choice that held an answer outside the options', () => {
    const checks = { question: 'Which checks?', header: 'Checks', options: ['Lint', 'Test', 'Build'], multi_select: true }
    const points = learnedPreferences(
      [...times(3, () => chose('checks', ['Lint', 'Test'], { ...checks, other: 'my own' })), chose('checks', [], { ...checks, other: 'free text' }), chose('checks', ['Lint'], checks)],
      AS_OF,
      policy,
    )
    expect(points[0]?.other).toBe(4)
  })

  it('gives the selection of a multi-select point: each option chosen at least half the time', () => {
    const checks = { options: ['Lint, format', 'Unit tests', 'E2E'], multi_select: true }
    const points = learnedPreferences(
      [
        chose('checks', ['Lint, format', 'Unit tests'], checks),
        chose('checks', ['Lint, format', 'Unit tests'], checks),
        chose('checks', ['Lint, format', 'E2E'], checks),
      ],
      AS_OF,
      policy,
    )
    expect(points[0]?.selection).toEqual(['Lint, format', 'Unit tests'])
    expect(learnedPreferences([chose('tier', ['Tier M'])], AS_OF, policy)[0]?.selection).toBeNull()
  })
})

/** Yields `observations` with no turn of the event loop between them, as a store read from memory would. */
async function* inMemory(observations: readonly Observation[]): AsyncGenerator<Observation> {
  yield* observations
}

describe('learnedPreferencesByPoint (R-SVC-5)', () => {
  it('learns what learnedPreferences learns from the same observations read by point then time', async () => {
    const observations = [
      ...times(3, () => chose('checks', ['Lint, format', 'E2E'], { options: ['Lint, format', 'E2E'], multi_select: true })),
      chose('tier', ['Tier M'], { source: 'auto-resolved' }),
      ...times(4, () => chose('tier', ['Tier S'])),
      ...times(2, () => chose('tier', ['Tier L'])),
      chose('tier', ['Tier L'], { timestamp: '2026-07-02T00:00:00.000Z' }),
      chose('untaken', ['Tier M'], { source: 'auto-resolved' }),
    ]
    const points = await learnedPreferencesByPoint(inMemory(observations), AS_OF, policy)
    expect(points.map((p) => p.point)).toEqual(['checks', 'tier'])
    expect(points).toEqual(learnedPreferences(observations, AS_OF, policy))
  })

  it('lets other work run while it learns a user with many points', async () => {
    const observations = Array.from({ length: 50 }, (_, i) => chose(`point-${String(i).padStart(2, '0')}`, ['Tier S']))
    let ran = false
    setImmediate(() => {
      ran = true
    })
    const points = await learnedPreferencesByPoint(inMemory(observations), AS_OF, policy)
    expect(points).toHaveLength(50)
    expect(ran).toBe(true)
  })

  it('lets other work run while it learns one point with many observations, and learns it as learnedPreferences does', async () => {
    const observations = Array.from({ length: 10_000 }, (_, i) =>
      chose('complexity-tier', [i % 3 === 0 ? 'Tier S' : 'Tier M'], { timestamp: new Date(AS_OF.getTime() - (10_000 - i) * 60_000).toISOString(), session_id: `s-${i % 40}` }),
    )
    // Other work, one step a turn of the event loop, until the answer is there.
    let turns = 0
    let done = false
    const other = () => {
      if (done) return
      turns++
      setImmediate(other)
    }
    setImmediate(other)
    const points = await learnedPreferencesByPoint(inMemory(observations), AS_OF, policy)
    done = true
    expect(turns).toBeGreaterThanOrEqual(5)
    expect(points).toEqual(learnedPreferences(observations, AS_OF, policy))
  })
})
