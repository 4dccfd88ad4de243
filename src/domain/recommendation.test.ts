import { beforeAll, describe, expect, it } from 'vitest'
import { observation, observations, pointView } from '../../test/support/observations'
import type { Observation } from './observation'
import { loadPolicy } from '../config/load-policy'
import { compilePolicy, type CompiledPolicy } from './policy'
import { splitPosterior } from './confidence'
import { recommend, type RecommendationInput } from './recommendation'

let policy: CompiledPolicy
beforeAll(async () => {
  policy = await loadPolicy()
})

const NOW = new Date('2026-07-01T10:00:00.000Z')
const TIERS = [{ option: 'Tier S' }, { option: 'Tier M' }, { option: 'Tier L' }]

/** A request over these observations, served from their aggregate as the store would serve it. */
function input(partial: Partial<RecommendationInput> & { observations?: Observation[] }): RecommendationInput {
  const { observations = [], ...rest } = partial
  const used = rest.policy ?? policy
  return {
    point: 'tier',
    // A point the policy does not name, nor any of its rules: no static default but the first option.
    question: 'Which size should it be?',
    options: TIERS,
    sessions: 1,
    personalization: true,
    asOf: NOW,
    policy: used,
    memory: pointView(observations, used),
    ...rest,
  }
}

describe('states by observation count (R-REC-1)', () => {
  it('static default below N, with the number still needed', () => {
    const r = recommend(input({ observations: observations({ 'Tier L': 3 }) }))
    expect(r.state).toBe('static-default')
    expect(r.recommended).toBe('Tier S')
    expect(r.disclosure).toBe('based on static default, 2 observations needed for personalization')
    expect(r.needed).toBe(2)
  })

  it('keeps the spec\'s text with one observation still needed, the number put in (R-REC-1)', () => {
    const r = recommend(input({ observations: observations({ 'Tier L': 4 }) }))
    expect(r.disclosure).toBe('based on static default, 1 observations needed for personalization')
  })

  it('gives the point\'s precondition only to the point\'s own default, not to the first option standing in for it', () => {
    const own = recommend(input({ point: 'complexity-tier' }))
    expect(own).toMatchObject({ recommended: 'Tier M', precondition: expect.stringMatching(/moderate scope/) })
    // Tier M is not offered: Tier S is the static default, and Tier M's precondition does not describe it.
    const fallback = recommend(input({ point: 'complexity-tier', options: [{ option: 'Tier S' }, { option: 'Tier L' }] }))
    expect(fallback).toMatchObject({ recommended: 'Tier S', precondition: policy.default_precondition })
    expect(recommend(input({ point: 'complexity-tier', static_default: 'Tier M' })).precondition).toMatch(/moderate scope/)
    expect(recommend(input({ point: 'complexity-tier', static_default: 'Tier L' })).precondition).toBe(policy.default_precondition)
  })

  it("takes the point's default where the question offers it in other words, with the point's precondition", () => {
    // "Tier S, M or L?" offered S, M and L: Tier M is M, not the first option, S.
    const tiers = recommend(input({ point: 'complexity-tier', question: 'Tier S, M or L?', options: [{ option: 'S' }, { option: 'M' }, { option: 'L' }] }))
    expect(tiers).toMatchObject({ state: 'static-default', recommended: 'M', precondition: expect.stringMatching(/moderate scope/) })
    const models = [{ option: 'Opus 4.1' }, { option: 'Claude Sonnet 4.5' }, { option: 'Haiku' }]
    const model = recommend(input({ point: 'model-selection', question: 'Which model?', options: models }))
    expect(model).toMatchObject({ recommended: 'Claude Sonnet 4.5', precondition: expect.stringMatching(/mid-size model/) })
    // A tie of choices goes to it too, as to the point's default offered as written.
    const tied = recommend(input({ point: 'complexity-tier', options: [{ option: 'S' }, { option: 'M' }, { option: 'L' }], observations: observations({ S: 3, M: 3 }) }))
    expect(tied.recommended).toBe('M')
    // Two options that would do (Sonnet 4.5, Sonnet 4): neither is the point's, the first option stands in.
    const two = recommend(input({ point: 'model-selection', question: 'Which model?', options: [{ option: 'Sonnet 4.5' }, { option: 'Sonnet 4' }] }))
    expect(two).toMatchObject({ recommended: 'Sonnet 4.5', precondition: policy.default_precondition })
    // A request's own static_default stands over it, with the general precondition.
    const asked = recommend(input({ point: 'complexity-tier', options: [{ option: 'S' }, { option: 'M' }, { option: 'L' }], static_default: 'L' }))
    expect(asked).toMatchObject({ recommended: 'L', precondition: policy.default_precondition })
  })

  it('says why the static default stands: too little history, personalization off, or none of the options ever chosen', () => {
    const few = recommend(input({ observations: observations({ 'Tier L': 3 }) }))
    expect(few.precondition).toBe('there is not yet enough personal history at this point')
    // 25 choices set aside are history enough: the precondition says what holds instead.
    for (const static_default of [undefined, 'Tier L']) {
      const off = recommend(input({ observations: observations({ 'Tier L': 25 }), personalization: false, static_default }))
      expect(off).toMatchObject({ state: 'personalization-off', observations: 25, precondition: 'your past choices are set aside for this session' })
    }
    const reworded = recommend(input({ options: [{ option: 'Small' }, { option: 'Medium' }], observations: observations({ 'Tier L': 6 }) }))
    expect(reworded).toMatchObject({ state: 'partial', recommended: 'Small', precondition: 'you have not yet chosen any of these options at this point' })
    expect(reworded.options[0]!.description).toBe(
      'Recommended when you have not yet chosen any of these options at this point — based on static default, none of the 6 choices at this point was one of these options',
    )
    // A point's own precondition speaks of its own default whatever the reason it stands.
    const tier = recommend(input({ point: 'complexity-tier', observations: observations({ 'Tier L': 25 }), personalization: false }))
    expect(tier.precondition).toMatch(/moderate scope/)
    // The texts are the policy's.
    const own = { ...policy, personalization_off_precondition: 'memory is paused', unchosen_options_precondition: 'the options are new' }
    expect(recommend(input({ policy: own, observations: observations({ 'Tier L': 25 }), personalization: false })).precondition).toBe('memory is paused')
    expect(recommend(input({ policy: own, options: [{ option: 'Small' }, { option: 'Medium' }], observations: observations({ 'Tier L': 6 }) })).precondition).toBe(
      'the options are new',
    )
  })

  it('counts every choice at the point with personalization off, not those a test it does not show kept', () => {
    // A change of preference keeps the 6 recent of 76; off, the change test is not shown (null),
    // so `observations` is not its 6 either.
    const day = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString()
    const changed = [
      ...Array.from({ length: 40 }, (_, i) => observation({ chosen: ['Tier L'], timestamp: day(200 - 2 * i) })),
      ...Array.from({ length: 30 }, (_, i) => observation({ chosen: ['Tier M'], timestamp: day(199 - 2 * i) })),
      ...Array.from({ length: 6 }, (_, i) => observation({ chosen: ['Tier M'], timestamp: day(10 - i) })),
    ]
    expect(recommend(input({ observations: changed }))).toMatchObject({ observations: 6, change_test: { recent: 6 } })
    expect(recommend(input({ observations: changed, personalization: false }))).toMatchObject({ state: 'personalization-off', observations: 76, change_test: null })
    // The context backoff keeps the 20 of phase run; off, `context_key` is null and all 40 count.
    const split = [...observations({ 'Tier L': 20 }, { context: { phase: 'run' } }), ...observations({ 'Tier S': 20 }, { context: { phase: 'plan' } })]
    expect(recommend(input({ observations: split, context: { phase: 'run' } }))).toMatchObject({ observations: 20, context_key: 'phase' })
    const off = recommend(input({ observations: split, context: { phase: 'run' }, personalization: false }))
    expect(off).toMatchObject({ state: 'personalization-off', observations: 40, context_key: null })
  })

  it('uses the request static default, then the policy point default', () => {
    expect(recommend(input({ static_default: 'Tier L' })).recommended).toBe('Tier L')
    expect(recommend(input({ point: 'complexity-tier' })).recommended).toBe('Tier M')
  })

  it('more than M with a significant majority is sufficient and high', () => {
    const r = recommend(input({ observations: observations({ 'Tier M': 19, 'Tier S': 2 }) }))
    expect(r.observations).toBe(21)
    expect(r.state).toBe('sufficient')
    expect(r.confidence.level).toBe('high')
    expect(r.confidence.significant).toBe(true)
  })

  it('more than M split evenly stays partial', () => {
    const r = recommend(input({ observations: observations({ 'Tier M': 11, 'Tier S': 11 }) }))
    expect(r.state).toBe('partial')
    expect(r.confidence.value).toBeLessThan(0.6)
  })

  it('exactly M observations, even unanimous, are partial (sufficient needs more than M)', () => {
    expect(recommend(input({ observations: observations({ 'Tier L': 20 }) })).state).toBe('partial')
  })

  it('counts a confidence equal to confidence.high as significant: sufficient needs confidence >= high, not above it', () => {
    const history = observations({ 'Tier M': 19, 'Tier S': 2 })
    const shown = recommend(input({ observations: history })).confidence.value
    const at = { ...policy, confidence: { ...policy.confidence, high: shown } }
    expect(recommend(input({ observations: history, policy: at }))).toMatchObject({ state: 'sufficient', confidence: { significant: true, level: 'high' } })
    const above = { ...policy, confidence: { ...policy.confidence, high: shown + 0.0001 } }
    expect(recommend(input({ observations: history, policy: above }))).toMatchObject({ state: 'partial', confidence: { significant: false } })
  })

  it('personalization off gives the static default, neutral', () => {
    const r = recommend(input({ observations: observations({ 'Tier L': 30 }), personalization: false }))
    expect(r.state).toBe('personalization-off')
    expect(r.recommended).toBe('Tier S')
    expect(r.strength).toBe('neutral')
    expect(r.ask).toBe(true)
    expect(r.options.map((o) => o.label)).toEqual(['Tier S', 'Tier M', 'Tier L'])
  })

  it('personalization off sets the past choices aside: no shares, counts, confidence or p learned from them', () => {
    const history = observations({ 'Tier L': 30 })
    const off = recommend(input({ observations: history, personalization: false }))
    const none = recommend(input({}))
    // As with no history: 30 choices of Tier L do not make the static default Tier S "low" (0.0000) nor p 0.02.
    expect(off.options.map((o) => [o.option, o.share, o.count])).toEqual([['Tier S', 0, 0], ['Tier M', 0, 0], ['Tier L', 0, 0]])
    expect(off.confidence.value).toBe(none.confidence.value)
    expect(off.p).toBe(none.p)
    expect(off.information).toBe(none.information)
    expect(off.entropy).toBe(none.entropy)
    expect(off).toMatchObject({ effective_observations: 0, evidence: [], evidence_total: 0, observations: 30 })
    // A multi-select point too: no learned selection rate.
    const set = recommend(input({ observations: observations({ 'Tier L': 30 }), personalization: false, multi_select: true }))
    expect(set.options.every((o) => o.share === 0 && o.count === 0 && o.rate === 0)).toBe(true)
  })
})

describe('confidence bands (R-REC-3)', () => {
  it('bands the value as reported: P = 0.75 exactly is medium-high', () => {
    // One choice of two options: Dirichlet(2, 1), P(θ_a > θ_b) = 3/4.
    const r = recommend(input({ options: [{ option: 'a' }, { option: 'b' }], observations: [observation({ chosen: ['a'], options: ['a', 'b'] })] }))
    expect(r.confidence.value).toBe(0.75)
    expect(r.confidence.level).toBe('medium-high')
  })
})

describe('majority and ties (R-REC-2)', () => {
  it('breaks a tie toward the static default', () => {
    const r = recommend(input({ observations: observations({ 'Tier L': 3, 'Tier M': 3 }), static_default: 'Tier M' }))
    expect(r.recommended).toBe('Tier M')
  })

  it('breaks a tie without the default toward the most recent choice', () => {
    // Without decay (α = 0) equal counts are equal weights whatever their age.
    const flat = { ...policy, decay: { alpha: 0 } }
    const at = (day: number) => `2026-06-${String(day).padStart(2, '0')}T10:00:00.000Z`
    const obs = [
      ...[1, 2, 3].map((d) => observation({ chosen: ['Tier L'], timestamp: at(d) })),
      ...[4, 5, 6].map((d) => observation({ chosen: ['Tier M'], timestamp: at(d) })),
    ]
    expect(recommend(input({ observations: obs, policy: flat })).recommended).toBe('Tier M')
    const later = [...obs, observation({ chosen: ['Tier L'], timestamp: at(9) }), observation({ chosen: ['Tier M'], timestamp: at(8) })]
    expect(recommend(input({ observations: later, policy: flat })).recommended).toBe('Tier L')
  })

  it('breaks a tie of equal weight and equal recency by label, whatever the order the options are offered in', () => {
    // All at one instant, as the seed's examples are: Tier L and Tier M tie on weight and on
    // recency, and the static default Tier S is not among them.
    const tied = observations({ 'Tier M': 3, 'Tier L': 3 })
    expect(recommend(input({ observations: tied, static_default: 'Tier S' })).recommended).toBe('Tier L')
    const reordered = [{ option: 'Tier M' }, { option: 'Tier S' }, { option: 'Tier L' }]
    expect(recommend(input({ observations: tied, options: reordered, static_default: 'Tier S' })).recommended).toBe('Tier L')
  })

  it('weighs recent choices more (power-law decay)', () => {
    const obs = [
      ...observations({ 'Tier L': 4 }, { timestamp: '2026-04-01T10:00:00.000Z' }),
      ...observations({ 'Tier M': 3 }, { timestamp: '2026-07-01T09:00:00.000Z' }),
    ]
    const r = recommend(input({ observations: obs }))
    expect(r.recommended).toBe('Tier M')
    expect(r.effective_observations).toBeLessThan(7)
    const m = r.options.find((o) => o.option === 'Tier M')!
    expect(m.count).toBe(3)
    expect(m.share).toBeGreaterThan(0.5)
  })
})

describe('preconditions and context backoff (R-REC-5, R-REC-7)', () => {
  const phased = [
    ...observations({ 'Tier S': 6 }, { context: { phase: 'run' } }),
    ...observations({ 'Tier L': 6 }, { context: { phase: 'plan' } }),
  ]

  it('learns from the observations that share a context value which changes the choice', () => {
    const run = recommend(input({ observations: phased, context: { phase: 'run' } }))
    expect(run.recommended).toBe('Tier S')
    expect(run.context_key).toBe('phase')
    expect(run.precondition).toContain('phase is run')
    expect(run.observations).toBe(6)
    // The test is stated (R-REC-7): 6 choices in phase run against 6 others, beyond chance.
    expect(run.context_test).toMatchObject({ key: 'phase', value: 'run', matching: 6, others: 6, level: policy.context.significance / 1 })
    expect(run.context_test!.p_value).toBeLessThan(run.context_test!.level)
    expect(run.context_test!.method).toMatch(/^chi-squared test of independence/)
    expect(run.change_test).toBeNull()
    const plan = recommend(input({ observations: phased, context: { phase: 'plan' } }))
    expect(plan.recommended).toBe('Tier L')
    expect(plan.precondition).toContain('phase is plan')
  })

  it('narrows to the same key whatever the order of the request\'s context keys, when two keys test alike', () => {
    // phase and workflow always go together: their tests are one table, with one p-value.
    const paired = [
      ...observations({ 'Tier S': 6 }, { context: { phase: 'run', workflow: '/moai run' } }),
      ...observations({ 'Tier L': 6 }, { context: { phase: 'plan', workflow: '/moai plan' } }),
    ]
    const a = recommend(input({ observations: paired, context: { phase: 'run', workflow: '/moai run' } }))
    const b = recommend(input({ observations: paired, context: { workflow: '/moai run', phase: 'run' } }))
    expect(a).toMatchObject({ recommended: 'Tier S', context_key: 'phase', precondition: 'phase is run and workflow is /moai run' })
    expect(b).toEqual(a)
  })

  it('keeps every observation when the context makes no difference', () => {
    const mixed = [
      ...observations({ 'Tier M': 4, 'Tier S': 1 }, { context: { phase: 'run' } }),
      ...observations({ 'Tier M': 4, 'Tier S': 1 }, { context: { phase: 'plan' } }),
    ]
    const r = recommend(input({ observations: mixed, context: { phase: 'run' } }))
    expect(r.context_key).toBeNull()
    expect(r.context_test).toBeNull()
    expect(r.observations).toBe(10)
  })

  it('always states a precondition, and the recommended option says when it holds', () => {
    const r = recommend(input({ observations: observations({ 'Tier M': 6 }) }))
    // Read after "Recommended when", as the user sees it in the picker: "Recommended when any
    // context, as chosen on …" was no sentence, and named nothing the user could find false.
    expect(r.precondition).toMatch(/^your choices of 2026-07-01 still hold$/)
    expect(r.options[0]!.description).toBe(`Recommended when ${r.precondition} — based on 100% of recent choices`)
    expect(recommend(input({})).precondition).toBe(policy.default_precondition)
  })

  it('lowers confidence when the request contradicts the precondition, and says why', () => {
    const obs = observations({ 'Tier M': 8 }, { context: { phase: 'run' } })
    const agreeing = recommend(input({ observations: obs, context: { phase: 'run' } }))
    const contradicting = recommend(input({ observations: obs, context: { phase: 'sync' } }))
    expect(contradicting.confidence.value).toBeLessThan(agreeing.confidence.value)
    expect(contradicting.confidence.lowered_because).toContain('phase is sync, not run')
    expect(contradicting.contradictions).toEqual([{ key: 'phase', expected: 'run', got: 'sync' }])
  })

  it('says a context value or key of control characters or a lone surrogate escaped in its prose, kept as sent in its fields', () => {
    // The precondition becomes the recommended option's description, which the PreToolUse hook
    // passes to the picker: an ESC there, or a lone surrogate (no UTF-8 can carry it), would reach
    // the user's terminal raw. The fields that carry the values as data keep them as sent.
    const obs = observations({ 'Tier M': 8 }, { context: { 'ph\ud800': 'r\u0007un\u001b[2J\u009b\u202e' } })
    const r = recommend(input({ observations: obs, context: { 'ph\ud800': 'sy\u001bnc' } }))
    expect(r.precondition).toBe('ph\\ud800 is r\\u0007un\\u001b[2J\\u009b\\u202e')
    expect(r.confidence.lowered_because).toBe(
      "the request's context contradicts the precondition: ph\\ud800 is sy\\u001bnc, not r\\u0007un\\u001b[2J\\u009b\\u202e",
    )
    for (const text of [r.precondition, r.confidence.lowered_because, r.ask_reason, r.options[0]!.description]) {
      expect(text).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/)
      expect(text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/)
    }
    expect(r.contradictions).toEqual([{ key: 'ph\ud800', expected: 'r\u0007un\u001b[2J\u009b\u202e', got: 'sy\u001bnc' }])
  })

  it('says why a partial state is not sufficient: too few observations, or a confidence below high, with what lowered it (R-ASK-2)', () => {
    expect(recommend(input({ observations: observations({ 'Tier M': 8 }) })).ask_reason).toBe('state is partial, not sufficient: 8 observations, sufficient takes more than 20')
    const split = recommend(input({ observations: observations({ 'Tier M': 14, 'Tier S': 12 }) }))
    expect(split).toMatchObject({ state: 'partial', ask: true })
    expect(split.ask_reason).toBe(`state is partial, not sufficient: confidence ${split.confidence.value} is below 0.95`)
    const obs = observations({ 'Tier M': 30 }, { context: { phase: 'run' } })
    expect(recommend(input({ observations: obs, context: { phase: 'run' } })).state).toBe('sufficient')
    const contradicted = recommend(input({ observations: obs, context: { phase: 'sync' } }))
    expect(contradicted).toMatchObject({ state: 'partial', ask: true })
    expect(contradicted.ask_reason).toBe(
      `state is partial, not sufficient: confidence ${contradicted.confidence.value} is below 0.95, lowered because the request's context contradicts the precondition: phase is sync, not run`,
    )
  })

  it('pulls a contradicted confidence toward chance by the policy\'s contradiction_shrink: 0 not at all, 1 all the way', () => {
    const obs = observations({ 'Tier M': 8 }, { context: { phase: 'run' } })
    const agreeing = recommend(input({ observations: obs, context: { phase: 'run' } })).confidence.value
    const shrinking = (contradiction_shrink: number) =>
      recommend(input({ observations: obs, context: { phase: 'sync' }, policy: { ...policy, confidence: { ...policy.confidence, contradiction_shrink } } }))
    const none = shrinking(0)
    expect(none.contradictions).toEqual([{ key: 'phase', expected: 'run', got: 'sync' }])
    expect(none.confidence.value).toBe(agreeing)
    expect(none.confidence.lowered_because).toBeUndefined()
    // Chance among three options is 1/3.
    expect(shrinking(1).confidence.value).toBe(0.3333)
    expect(shrinking(0.25).confidence.value).toBeCloseTo(1 / 3 + (agreeing - 1 / 3) * 0.75, 3)
  })

  it('is not contradicted by a context value the context backoff tested and found to make no difference (R-REC-7)', () => {
    // Tier L every time: 40 times in phase run, 10 in phase plan. "phase is run" is shared by 80%
    // of the choices, but the 10 in plan went the same way: asked in plan, nothing contradicts.
    const obs = [
      ...observations({ 'Tier L': 40 }, { context: { phase: 'run' } }),
      ...observations({ 'Tier L': 10 }, { context: { phase: 'plan' } }),
    ]
    const inRun = recommend(input({ observations: obs, context: { phase: 'run' } }))
    const inPlan = recommend(input({ observations: obs, context: { phase: 'plan' } }))
    expect(inPlan.precondition).toBe('phase is run')
    expect(inPlan.contradictions).toEqual([])
    expect(inPlan.confidence.lowered_because).toBeUndefined()
    expect(inPlan).toMatchObject({ state: 'sufficient', ask: false, confidence: { value: inRun.confidence.value } })
    // Too few choices in the request's value to test (fewer than N): still a contradiction.
    const few = [...observations({ 'Tier L': 40 }, { context: { phase: 'run' } }), ...observations({ 'Tier L': 4 }, { context: { phase: 'plan' } })]
    expect(recommend(input({ observations: few, context: { phase: 'plan' } })).contradictions).toEqual([
      { key: 'phase', expected: 'run', got: 'plan' },
    ])
    // A value never seen at the point is still a contradiction.
    expect(recommend(input({ observations: obs, context: { phase: 'sync' } })).contradictions).toEqual([
      { key: 'phase', expected: 'run', got: 'sync' },
    ])
  })

  it('is not contradicted by a request that does not state the precondition\'s key', () => {
    const obs = observations({ 'Tier M': 8 }, { context: { phase: 'run' } })
    const agreeing = recommend(input({ observations: obs, context: { phase: 'run' } }))
    for (const context of [undefined, {}, { workflow: '/moai run' }] as Array<Record<string, string> | undefined>) {
      const r = recommend(input({ observations: obs, context }))
      expect(r.precondition).toBe('phase is run')
      expect(r.contradictions).toEqual([])
      expect(r.confidence.lowered_because).toBeUndefined()
      expect(r.confidence.value).toBe(agreeing.confidence.value)
    }
  })

  it('after a change of preference, states the window of the recent choices it learned from, not of older ones', () => {
    // Tier M was chosen 30 times long ago, among 40 Tier L, then 6 times lately: the change test
    // keeps the six, and the window the precondition names is theirs. (Among them: an older Tier M
    // chosen only after the Tier L would be where the change began, and count.)
    const day = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString()
    const obs = [
      ...Array.from({ length: 40 }, (_, i) => observation({ chosen: ['Tier L'], timestamp: day(200 - 2 * i) })),
      ...Array.from({ length: 30 }, (_, i) => observation({ chosen: ['Tier M'], timestamp: day(199 - 2 * i) })),
      ...Array.from({ length: 6 }, (_, i) => observation({ chosen: ['Tier M'], timestamp: day(10 - i) })),
    ]
    const r = recommend(input({ observations: obs }))
    expect(r.change_test).toMatchObject({ recent: 6, older: 70 })
    expect(r.conditions.window).toEqual({ from: day(10), to: day(5) })
    expect(r.precondition).toBe(`your choices from ${day(10).slice(0, 10)} to ${day(5).slice(0, 10)} still hold`)
  })

  it('keeps a change of preference over a break longer than the change window', () => {
    // A year of Tier L every day, then Tier M every other day for 200 days, then five weeks off (a
    // holiday): the window of the change test ends at the newest choice, not at the moment asked,
    // else it held no choice after the break and the decayed year of Tier L outvoted Tier M again.
    const day = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString()
    const obs = [
      ...Array.from({ length: 365 }, (_, i) => observation({ chosen: ['Tier L'], timestamp: day(600 - i) })),
      ...Array.from({ length: 100 }, (_, i) => observation({ chosen: ['Tier M'], timestamp: day(234 - 2 * i) })),
    ]
    const r = recommend(input({ observations: obs }))
    expect(r.recommended).toBe('Tier M')
    // Every choice of Tier M counts, from the first (README), not the window's 14 alone.
    expect(r.change_test).toMatchObject({ since: day(234), recent: 100, older: 365 })
    expect(r.disclosure).toMatch(/differ from your earlier choices/)
  })

  it('auto-resolves to an option the user switched to and kept to, months after, rather than ask every day', () => {
    // A month of Tier S every day, then Tier M every day since. 60 days after the switch the change
    // window counted Tier M's newest 15 choices only (`partial`, asked); 100 days after, none
    // differed any more and the 30 old Tier S kept p under 0.9. Every choice since the switch counts.
    const day = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString()
    for (const days of [60, 100]) {
      const obs = [
        ...Array.from({ length: 30 }, (_, i) => observation({ chosen: ['Tier S'], timestamp: day(days + 30 - i) })),
        ...Array.from({ length: days }, (_, i) => observation({ chosen: ['Tier M'], timestamp: day(days - 1 - i + 0.5) })),
      ]
      const r = recommend(input({ observations: obs }))
      expect(r).toMatchObject({ recommended: 'Tier M', state: 'sufficient', observations: days, ask: false })
      expect(r.change_test).toMatchObject({ recent: days, older: 30 })
    }
  })

  it('keeps auto-resolving an option switched to when the user, no longer asked, chooses only at the check-ins', () => {
    // A month of Tier S every day, then a month of Tier M every day, then Tier M only every tenth
    // day (the check-ins: the answers between them were auto-resolved, which are no choices). The
    // window held 3 choices, too few to test a change, and the 30 old Tier S outvoted the 37 Tier M
    // enough to ask again after every check-in.
    const day = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString()
    const obs = [
      ...Array.from({ length: 30 }, (_, i) => observation({ chosen: ['Tier S'], timestamp: day(130 - i) })),
      ...Array.from({ length: 30 }, (_, i) => observation({ chosen: ['Tier M'], timestamp: day(100 - i) })),
      ...Array.from({ length: 7 }, (_, i) => observation({ chosen: ['Tier M'], timestamp: day(60.5 - 10 * i) })),
    ]
    const r = recommend(input({ observations: obs }))
    expect(r).toMatchObject({ recommended: 'Tier M', state: 'sufficient', observations: 37, ask: false })
    expect(r.change_test).toMatchObject({ recent: 37, older: 30, since: day(100) })
  })

  it('auto-resolves to an option switched to and chosen every other day since, rather than ask every time', () => {
    // A year of Tier L every day, then Tier M every other day for 200 days (the break longer than
    // the window above, without the break): the window held 14 choices of Tier M, never more
    // than M, so the point stayed `partial` and was asked every time. Every choice since the
    // switch counts.
    const day = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString()
    const obs = [
      ...Array.from({ length: 365 }, (_, i) => observation({ chosen: ['Tier L'], timestamp: day(566 - i) })),
      ...Array.from({ length: 100 }, (_, i) => observation({ chosen: ['Tier M'], timestamp: day(200 - 2 * i) })),
    ]
    const r = recommend(input({ observations: obs }))
    expect(r).toMatchObject({ recommended: 'Tier M', state: 'sufficient', observations: 100, ask: false })
    expect(r.change_test).toMatchObject({ recent: 100, older: 365, since: day(200) })
  })

  it('after a change of preference, states the precondition of the recent choices it learned from', () => {
    // A year of Tier L and Tier M mostly in phase plan, then Tier M six times in phase run: the
    // change test keeps only the six, all in phase run. Tier M's older choices in phase plan
    // support nothing the recommendation rests on, and must not make its precondition "phase is
    // plan" (nor lower the confidence of a request in phase run for contradicting it). Seven of
    // the older Tier L were in phase run, so that over the whole history the phase makes no
    // difference (run 6 M and 7 L, plan 30 M and 33 L) and the context backoff keeps every choice.
    const day = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString()
    const obs = [
      ...Array.from({ length: 40 }, (_, i) =>
        observation({ chosen: ['Tier L'], timestamp: day(200 - 2 * i), context: { phase: i < 7 ? 'run' : 'plan' } }),
      ),
      ...Array.from({ length: 30 }, (_, i) => observation({ chosen: ['Tier M'], timestamp: day(199 - 2 * i), context: { phase: 'plan' } })),
      ...Array.from({ length: 6 }, (_, i) => observation({ chosen: ['Tier M'], timestamp: day(10 - i), context: { phase: 'run' } })),
    ]
    const r = recommend(input({ observations: obs, context: { phase: 'run' } }))
    expect(r.disclosure).toMatch(/differ from your earlier choices/)
    expect(r.change_test).toMatchObject({ recent: 6, older: 70, level: policy.change.significance })
    expect(r.change_test!.p_value).toBeLessThan(policy.change.significance)
    expect(r).toMatchObject({ recommended: 'Tier M', observations: 6, precondition: 'phase is run', contradictions: [] })
    expect(r.confidence.lowered_because).toBeUndefined()
    // Not lowered: as sure as a request with no context, which nothing can contradict.
    expect(r.confidence.value).toBe(recommend(input({ observations: obs })).confidence.value)
    // Nor is phase plan, which none of the six was chosen under, a precondition for a request in it.
    const plan = recommend(input({ observations: obs, context: { phase: 'plan' } }))
    expect(plan.conditions.context).toEqual([])
  })

  it('after a change of preference narrowed to a context value, claims no other value it cannot count', () => {
    // Narrowed to workflow=feature and to the recent choices: the pair cells count the whole
    // history, so an older share of phase=plan is not a precondition of the recent choices.
    const day = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString()
    const obs = [
      ...Array.from({ length: 40 }, (_, i) => observation({ chosen: ['Tier L'], timestamp: day(200 - 2 * i), context: { phase: 'plan', workflow: 'feature' } })),
      ...Array.from({ length: 34 }, (_, i) => observation({ chosen: ['Tier M'], timestamp: day(199 - 2 * i), context: { phase: 'plan', workflow: 'feature' } })),
      ...Array.from({ length: 8 }, (_, i) => observation({ chosen: ['Tier M'], timestamp: day(10 - i), context: { phase: 'run', workflow: 'feature' } })),
      ...Array.from({ length: 8 }, (_, i) => observation({ chosen: ['Tier S'], timestamp: day(10 - i), context: { phase: 'run', workflow: 'bugfix' } })),
    ]
    const r = recommend(input({ observations: obs, context: { workflow: 'feature', phase: 'run' } }))
    expect(r.disclosure).toMatch(/differ from your earlier choices/)
    expect(r.recommended).toBe('Tier M')
    expect(r.conditions.context.map((c) => `${c.key} is ${c.value}`)).not.toContain('phase is plan')
    expect(r.contradictions).toEqual([])
  })

  it('never raises confidence for a contradiction, even when it is below chance among the offered options', () => {
    // The only option offered, and free text ("other") 4 times in 9: chance is 1/2 (the option or
    // something else), not 1/1, and a contradiction must not pull 0.6 up toward 1.
    const only = [{ option: 'Only' }]
    const obs = [
      ...observations({ Only: 5 }, { options: ['Only'], context: { phase: 'run' } }),
      ...Array.from({ length: 4 }, () => observation({ options: ['Only'], chosen: [], other: 'something else', context: { phase: 'run' } })),
    ]
    const agreeing = recommend(input({ options: only, observations: obs, context: { phase: 'run' } }))
    const contradicting = recommend(input({ options: only, observations: obs, context: { phase: 'sync' } }))
    expect(agreeing.confidence.value).toBeLessThan(0.75)
    expect(contradicting.confidence.lowered_because).toContain('phase is sync, not run')
    expect(contradicting.confidence.value).toBeLessThan(agreeing.confidence.value)

    // The options were reworded: the recommended Tier S was chosen twice, the no-longer-offered
    // Tier M 8 times. Its confidence (well below 1/3) must not rise toward 1/3 on a contradiction.
    const reworded = [{ option: 'Tier S' }, { option: 'Medium' }, { option: 'Tier L' }]
    const history = observations({ 'Tier M': 8, 'Tier S': 2 }, { context: { phase: 'run' } })
    const before = recommend(input({ options: reworded, observations: history, context: { phase: 'run' } }))
    const after = recommend(input({ options: reworded, observations: history, context: { phase: 'sync' } }))
    expect(before.recommended).toBe('Tier S')
    expect(before.confidence.value).toBeLessThan(1 / 3)
    expect(after.contradictions).toEqual([{ key: 'phase', expected: 'run', got: 'sync' }])
    expect(after.confidence.value).toBeLessThanOrEqual(before.confidence.value)
    // Left as it was, it is not said to be lowered; the contradiction is still named.
    expect(after.confidence.value).toBe(before.confidence.value)
    expect(after.confidence.lowered_because).toBeUndefined()
  })

  it('of a multi-select set held whole only before a change rests on the recent sets that held any of it', () => {
    // 40 sets of {Lint, Unit} months ago, then Lint and Unit each alone, six days running: a
    // change, after which both are selected at a rate of one half, and no recent set held both.
    const labels = ['Lint', 'Unit', 'E2E']
    const day = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString()
    const set = (chosen: string[], d: number) => observation({ chosen, timestamp: day(d), options: labels, multi_select: true })
    const obs = [...Array.from({ length: 40 }, (_, i) => set(['Lint', 'Unit'], 120 - i)), ...Array.from({ length: 12 }, (_, i) => set(i % 2 ? ['Lint'] : ['Unit'], 6 - Math.floor(i / 2)))]
    const r = recommend(input({ observations: obs, options: labels.map((option) => ({ option })), multi_select: true }))
    expect(r.recommended).toEqual(['Lint', 'Unit'])
    expect(r.change_test).not.toBeNull()
    // The window is that of the recent sets, as of a set held whole in them; not "any context".
    expect(r.conditions.window).toEqual({ from: day(6), to: day(1) })
    expect(r.precondition).toBe(`your choices from ${day(6).slice(0, 10)} to ${day(1).slice(0, 10)} still hold`)
  })
})

describe('strength by expertise (R-REC-6)', () => {
  const obs = observations({ 'Tier L': 6, 'Tier M': 3, 'Tier S': 1 })
  it.each([
    [9, 'beginner', 'strong'],
    [10, 'intermediate', 'medium'],
    [50, 'intermediate', 'medium'],
    [51, 'expert', 'weak'],
  ])('%i sessions: %s, %s', (sessions, level, strength) => {
    const r = recommend(input({ observations: obs, sessions }))
    expect(r.expertise).toEqual({ sessions, level })
    expect(r.strength).toBe(strength)
  })

  it('labels the recommended option first for beginners', () => {
    const r = recommend(input({ observations: obs, sessions: 3 }))
    expect(r.options.map((o) => o.label)).toEqual(['Tier L (Recommended)', 'Tier S', 'Tier M'])
  })

  it('is never stronger than the evidence: a beginner\'s partial majority held with low confidence is medium', () => {
    const thin = recommend(input({ observations: observations({ 'Tier L': 4, 'Tier M': 3, 'Tier S': 2 }), sessions: 3 }))
    expect(thin).toMatchObject({ state: 'partial', expertise: { level: 'beginner' }, confidence: { level: 'low' }, strength: 'medium' })
    expect(thin.options[0]!.label).toBe('Tier L (Recommended)')
    // The same beginner with firmer evidence gets the strong recommendation.
    expect(recommend(input({ observations: obs, sessions: 3 })).strength).toBe('strong')
  })

  it('is never stronger than the evidence: a static default the beginner\'s few choices went against is medium', () => {
    const against = recommend(input({ observations: observations({ 'Tier L': 3 }), static_default: 'Tier M', sessions: 3 }))
    expect(against).toMatchObject({ state: 'static-default', recommended: 'Tier M', confidence: { level: 'low' }, strength: 'medium' })
    expect(against.options[0]!.label).toBe('Tier M (Recommended)')
    // Nothing known yet, or choices that went its way: the beginner's strong recommendation.
    expect(recommend(input({ static_default: 'Tier M', sessions: 3 })).strength).toBe('strong')
    expect(recommend(input({ observations: observations({ 'Tier M': 3 }), static_default: 'Tier M', sessions: 3 })).strength).toBe('strong')
  })

  it('annotates the recommended option with its share for experts and keeps the others in order', () => {
    const r = recommend(input({ observations: obs, sessions: 60 }))
    expect(r.options.map((o) => o.label)).toEqual(['Tier L (60% of recent choices)', 'Tier S', 'Tier M'])
    expect(r.options.some((o) => o.label.includes('(Recommended)'))).toBe(false)
    // R-REC-5 holds at every strength: the recommended option says when it holds.
    expect(r.options[0]?.description).toBe(`Recommended when ${r.precondition} — ${r.disclosure}`)
    expect(r.options.slice(1).every((o) => o.description === undefined)).toBe(true)
  })

  it('says 100% only of an option chosen every time: 333 of 334 is 99%, for experts and in the disclosure', () => {
    const flat = { ...policy, decay: { alpha: 0 } }
    const r = recommend(input({ observations: observations({ 'Tier L': 333, 'Tier S': 1 }), sessions: 60, policy: flat }))
    expect(r.options[0]?.label).toBe('Tier L (99% of recent choices)')
    expect(r.disclosure).toBe('based on 99% of recent choices')
    const every = recommend(input({ observations: observations({ 'Tier L': 334 }), sessions: 60, policy: flat }))
    expect(every.options[0]?.label).toBe('Tier L (100% of recent choices)')
  })

  it('says 3 of 8 chosen at one instant is 38%, whatever their age: a decayed sum\'s last bit does not round it down', () => {
    // 10 days old, the decayed sums make 3/8 0.37499999…, which Math.round read as 37%.
    const timestamp = new Date(NOW.getTime() - 10 * 86_400_000).toISOString()
    const options = ['A', 'B', 'C', 'D']
    const chosen = observations({ A: 3, B: 2, C: 2, D: 1 }, { timestamp, options })
    const r = recommend(input({ observations: chosen, options: options.map((option) => ({ option })), sessions: 60 }))
    expect(r).toMatchObject({ recommended: 'A', disclosure: 'based on 38% of recent choices' })
    expect(r.options[0]?.label).toBe('A (38% of recent choices)')
  })

  it('says 21 of 56 chosen at one instant is 38% too, where sums past the 16 kept moments are approximated', () => {
    // A batch without timestamps is one instant; the exponential-sum tail made 21/56 0.374999998….
    const timestamp = new Date(NOW.getTime() - 86_400_000).toISOString()
    const options = ['A', 'B', 'C']
    const chosen = observations({ A: 21, B: 18, C: 17 }, { timestamp, options })
    const r = recommend(input({ observations: chosen, options: options.map((option) => ({ option })), sessions: 60 }))
    expect(r).toMatchObject({ recommended: 'A', disclosure: 'based on 38% of recent choices' })
    expect(r.options[0]?.label).toBe('A (38% of recent choices)')
  })

  it('says 0% only of an option never chosen: once among 300 answers in free text is 1%, for experts and in the disclosure', () => {
    const flat = { ...policy, decay: { alpha: 0 } }
    const once = [...observations({ 'something else': 300 }), ...observations({ 'Tier L': 1 })]
    const r = recommend(input({ observations: once, sessions: 60, policy: flat }))
    expect(r.recommended).toBe('Tier L')
    expect(r.options[0]?.label).toBe('Tier L (1% of recent choices)')
    expect(r.disclosure).toBe('based on 1% of recent choices')
  })

  it('is neutral on sensitive points: options as offered, no label, always asked', () => {
    const r = recommend(
      input({ question: 'How do we respond to this security incident?', observations: observations({ 'Tier L': 40 }) }),
    )
    expect(r.sensitive).toBe(true)
    expect(r.strength).toBe('neutral')
    expect(r.options.map((o) => o.label)).toEqual(['Tier S', 'Tier M', 'Tier L'])
    expect(r.options.every((o) => o.description === undefined)).toBe(true)
    expect(r.ask).toBe(true)
  })
})

describe('sensitive by the options offered (R-REC-6, R-ASK-2)', () => {
  const DATA = [{ option: 'Keep production data' }, { option: 'Drop it' }]
  const history = () => observations({ 'Drop it': 25 }, { options: ['Keep production data', 'Drop it'] })

  it('is neutral and asked when an option names a sensitive term, however plain the question', () => {
    const r = recommend(input({ question: 'What should the migration do with the old table?', options: DATA, observations: history() }))
    expect(r).toMatchObject({ sensitive: true, strength: 'neutral', ask: true, ask_reason: 'the point is sensitive: always asked' })
    expect(r.options.map((o) => o.label)).toEqual(['Keep production data', 'Drop it'])
  })

  it('is neutral and asked when the point the agent named names a sensitive term, however plain the question', () => {
    const r = recommend(input({ point: 'security-review', question: 'Who reviews this change?', observations: observations({ 'Tier L': 40 }) }))
    expect(r).toMatchObject({ sensitive: true, strength: 'neutral', ask: true, ask_reason: 'the point is sensitive: always asked' })
    expect(recommend(input({ point: 'review-owner', question: 'Who reviews this change?', observations: observations({ 'Tier L': 40 }) })).sensitive).toBe(false)
  })

  it('reads every option the question offered, those required decisions ruled out among them', () => {
    const r = recommend(
      input({ question: 'What should the migration do with the old table?', options: [{ option: 'Drop it' }], offered: DATA, observations: history() }),
    )
    expect(r).toMatchObject({ sensitive: true, ask: true })
  })
})

describe('asking (R-ASK-1, R-ASK-2)', () => {
  it('auto-resolves a sufficient, consistent point', () => {
    const r = recommend(input({ observations: observations({ 'Tier M': 40 }) }))
    expect(r.state).toBe('sufficient')
    expect(r.p).toBeGreaterThanOrEqual(0.9)
    expect(r.information).toBeCloseTo(r.p * (1 - r.p), 3)
    expect(r.ask).toBe(false)
  })

  it('says why a partial state of one observation is not sufficient in the singular (thresholds.min_observations 1)', () => {
    const one = compilePolicy({ ...policy, thresholds: { min_observations: 1, sufficient_observations: 3 } })
    const r = recommend(input({ policy: one, observations: observations({ 'Tier M': 1 }) }))
    expect(r.state).toBe('partial')
    expect(r.ask_reason).toBe('state is partial, not sufficient: 1 observation, sufficient takes more than 3')
  })

  it('says the one choice at a point that was none of the options in the singular (thresholds.min_observations 1)', () => {
    const one = compilePolicy({ ...policy, thresholds: { min_observations: 1, sufficient_observations: 3 } })
    const r = recommend(input({ policy: one, options: [{ option: 'Small' }, { option: 'Medium' }], observations: observations({ 'Tier M': 1 }) }))
    expect(r.disclosure).toBe('based on static default, the one choice at this point was not one of these options')
  })

  it('asks when p is near one half, where information is largest', () => {
    const r = recommend(input({ observations: observations({ 'Tier M': 6, 'Tier S': 5 }) }))
    expect(r.ask).toBe(true)
    expect(r.information).toBeGreaterThan(0.2)
  })

  it('predicts p as the smoothed share of the next choice, not as the confidence in the majority (R-ASK-1)', () => {
    // The seed's example at one instant: Tier M 6 of 10 among 3 options, with the predictive
    // prior as pseudo-count per option, (6 + prior) / (10 + 3 prior).
    const r = recommend(input({ observations: observations({ 'Tier S': 3, 'Tier M': 6, 'Tier L': 1 }) }))
    const prior = policy.confidence.predictive_prior
    expect(r.recommended).toBe('Tier M')
    expect(r.p).toBe(Math.round(((6 + prior) / (10 + 3 * prior)) * 10_000) / 10_000)
    expect(r.p).not.toBe(r.confidence.value)
  })

  it('decides by the p it shows: p equal to auto_resolve_p auto-resolves, and information is of that p', () => {
    let sufficient = 0
    for (let others = 0; others <= 4; others++) {
      for (let chosen = 20; chosen <= 60; chosen++) {
        const history = observations({ 'Tier M': chosen, 'Tier S': others })
        const shown = recommend(input({ observations: history }))
        if (shown.state !== 'sufficient') continue
        sufficient++
        expect(shown.information).toBe(Math.round(shown.p * (1 - shown.p) * 10_000) / 10_000)
        const at = recommend(input({ observations: history, policy: { ...policy, ask: { ...policy.ask, auto_resolve_p: shown.p } } }))
        expect(at.ask, `${chosen} against ${others}: p ${shown.p}`).toBe(false)
        expect(at.ask_reason).toBe(`sufficient evidence and p ${shown.p} >= auto_resolve_p ${shown.p}: auto-resolve`)
        const above = Math.round((shown.p + 0.0001) * 10_000) / 10_000
        const below = recommend(input({ observations: history, policy: { ...policy, ask: { ...policy.ask, auto_resolve_p: above } } }))
        expect(below.ask).toBe(true)
        expect(below.ask_reason).toBe(`p ${shown.p} is below auto_resolve_p ${above}`)
      }
    }
    expect(sufficient).toBeGreaterThan(100)
  })
})

describe("asking against the session's own latest choice (R-MEM-5, R-ASK-2)", () => {
  const at = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString()
  const day = (d: number) => at(d * 1440)
  /** 120 choices of Tier M, one a day, in sessions of their own, then `then` in session `now`. */
  const history = (...then: Observation[]) => [
    ...Array.from({ length: 120 }, (_, i) => observation({ chosen: ['Tier M'], timestamp: day(121 - i), session_id: `s-${i}` })),
    ...then,
  ]
  const ASKED = 'in this session you last chose Tier S here, not Tier M: asked until your choice in this session agrees'

  it('asks, the recommendation unchanged, in the session whose latest choice there was another option', () => {
    const obs = history(observation({ chosen: ['Tier S'], timestamp: at(5), session_id: 'now' }))
    const now = recommend(input({ observations: obs, session_id: 'now' }))
    // What the evidence says stands: only ask changes.
    expect(now).toMatchObject({ recommended: 'Tier M', state: 'sufficient', ask: true, ask_reason: ASKED })
    // The p recommend()'s comment quotes: above auto_resolve_p, so only this rule asks.
    expect(now.p).toBe(0.9389)
    expect(now.p).toBeGreaterThanOrEqual(policy.ask.auto_resolve_p)
    const fresh = recommend(input({ observations: obs, session_id: 'new' }))
    expect(fresh).toMatchObject({ recommended: 'Tier M', state: 'sufficient', ask: false })
    expect({ ...now, ask: false, ask_reason: fresh.ask_reason, layers: fresh.layers }).toEqual(fresh)
    // No session asked for, none is read.
    expect(recommend(input({ observations: obs })).ask).toBe(false)
    // Before the choice was made (as_of), the session had not chosen otherwise yet.
    const before = recommend(input({ observations: obs.filter((o) => Date.parse(o.timestamp) <= Date.parse(at(10))), session_id: 'now', asOf: new Date(at(10)) }))
    expect(before.ask).toBe(false)
  })

  it('auto-resolves again once the session chooses the recommended option', () => {
    const obs = history(
      observation({ chosen: ['Tier S'], timestamp: at(9), session_id: 'now' }),
      observation({ chosen: ['Tier M'], timestamp: at(5), session_id: 'now' }),
    )
    expect(recommend(input({ observations: obs, session_id: 'now' }))).toMatchObject({ recommended: 'Tier M', ask: false })
  })

  it("counts the user's own choices only: an answer auto-resolved in the session is not theirs", () => {
    const obs = history(
      observation({ chosen: ['Tier S'], timestamp: at(9), session_id: 'now' }),
      observation({ chosen: ['Tier M'], timestamp: at(5), session_id: 'now', source: 'auto-resolved' }),
    )
    expect(recommend(input({ observations: obs, session_id: 'now' }))).toMatchObject({ ask: true, ask_reason: ASKED })
  })

  it("reads the session's choices in the evidence's project, and in the context value it was narrowed to", () => {
    // In another project the session's choice is no answer against this one's.
    const mine = history().map((o) => ({ ...o, project: 'acme/api' }))
    const elsewhere = observation({ chosen: ['Tier S'], timestamp: at(5), session_id: 'now', project: 'other/repo' })
    expect(recommend(input({ observations: [...mine, elsewhere], project: 'acme/api', session_id: 'now' })).ask).toBe(false)
    const here = observation({ chosen: ['Tier S'], timestamp: at(5), session_id: 'now', project: 'acme/api' })
    expect(recommend(input({ observations: [...mine, here], project: 'acme/api', session_id: 'now' })).ask_reason).toBe(ASKED)

    // Tier M in run, Tier S in plan: a request in run is narrowed to run's choices.
    const phased = [
      ...Array.from({ length: 60 }, (_, i) => observation({ chosen: ['Tier M'], timestamp: day(61 - i), context: { phase: 'run' } })),
      ...Array.from({ length: 60 }, (_, i) => observation({ chosen: ['Tier S'], timestamp: day(61 - i), context: { phase: 'plan' } })),
    ]
    const inRun = (...then: Observation[]) => recommend(input({ observations: [...phased, ...then], context: { phase: 'run' }, session_id: 'now' }))
    const chose = (option: string, phase: string, minutes: number) =>
      observation({ chosen: [option], timestamp: at(minutes), session_id: 'now', context: { phase } })
    expect(inRun()).toMatchObject({ recommended: 'Tier M', context_key: 'phase', state: 'sufficient', ask: false })
    // Tier S chosen in plan, where Tier S goes, says nothing against Tier M in run.
    expect(inRun(chose('Tier S', 'plan', 5)).ask).toBe(false)
    expect(inRun(chose('Tier S', 'run', 5))).toMatchObject({ recommended: 'Tier M', ask: true, ask_reason: ASKED })
    // The session's latest choice, of Tier M in plan, was not in run: its latest in run was Tier S.
    expect(inRun(chose('Tier S', 'run', 9), chose('Tier M', 'plan', 5)).ask_reason).toBe(ASKED)
    expect(inRun(chose('Tier S', 'run', 9), chose('Tier M', 'run', 5)).ask).toBe(false)
  })

  it('counts a choice made after the latest of the recommended option only, not with it nor before it', () => {
    const chose = (option: string, timestamp: string, session_id: string) => observation({ chosen: [option], timestamp, session_id })
    const r = (...then: Observation[]) => recommend(input({ observations: history(...then), session_id: 'now' }))
    // Tier S at the instant of the latest Tier M (a batch with one timestamp) went no other way after it.
    expect(r(chose('Tier S', day(2), 'now'))).toMatchObject({ recommended: 'Tier M', state: 'sufficient', ask: false })
    // Tier M chosen in another session since: the user's latest word at the point is the recommended one.
    expect(r(chose('Tier S', at(9), 'now'), chose('Tier M', at(5), 'other'))).toMatchObject({ recommended: 'Tier M', ask: false })
    expect(r(chose('Tier M', at(9), 'other'), chose('Tier S', at(5), 'now'))).toMatchObject({ ask: true, ask_reason: ASKED })
  })

  it('asks at a multi-select point where the set the session chose last is not the recommended set', () => {
    const checks = [{ option: 'Lint' }, { option: 'Test' }, { option: 'Docs' }]
    const set = (chosen: string[], timestamp: string, session_id: string) =>
      observation({ chosen, options: ['Lint', 'Test', 'Docs'], multi_select: true, timestamp, session_id })
    const obs = [...Array.from({ length: 120 }, (_, i) => set(['Lint', 'Test'], day(121 - i), `s-${i}`)), set(['Lint'], at(5), 'now')]
    const r = (session_id: string) => recommend(input({ options: checks, multi_select: true, observations: obs, session_id }))
    expect(r('new')).toMatchObject({ recommended: ['Lint', 'Test'], state: 'sufficient', ask: false })
    expect(r('now')).toMatchObject({
      recommended: ['Lint', 'Test'],
      ask: true,
      ask_reason: 'in this session you last chose Lint here, not Lint and Test: asked until your choice in this session agrees',
    })
  })

  it('reads an answer typed instead of an option as none of the options, and text typed beside a set as no part of it', () => {
    const typed = observation({ chosen: [], other: 'Tier XS, just a typo fix', timestamp: at(5), session_id: 'now' })
    expect(recommend(input({ observations: history(typed), session_id: 'now' }))).toMatchObject({
      recommended: 'Tier M',
      ask: true,
      ask_reason: 'in this session you last chose none of the options here, not Tier M: asked until your choice in this session agrees',
    })
    const checks = [{ option: 'Lint' }, { option: 'Test' }, { option: 'Docs' }]
    const set = (chosen: string[], timestamp: string, session_id: string, other: string | null = null) =>
      observation({ chosen, other, options: ['Lint', 'Test', 'Docs'], multi_select: true, timestamp, session_id })
    const sets = Array.from({ length: 120 }, (_, i) => set(['Lint', 'Test'], day(121 - i), `s-${i}`))
    const r = (...then: Observation[]) => recommend(input({ options: checks, multi_select: true, observations: [...sets, ...then], session_id: 'now' }))
    // Lint and Test ticked, and more typed beside them: the set is Lint and Test, the one recommended.
    expect(r(set(['Lint', 'Test'], at(5), 'now', 'and the changelog'))).toMatchObject({ recommended: ['Lint', 'Test'], ask: false })
  })

  it('gives way, in ask_reason, to the rules README lists before it, and goes before the options reworded', () => {
    const chose = (option: string, minutes: number) => observation({ chosen: [option], timestamp: at(minutes), session_id: 'now' })
    const auto = (minutes: number) => observation({ chosen: ['Tier M'], timestamp: at(minutes), session_id: 'other', source: 'auto-resolved' })
    const reason = (obs: Observation[], more: Partial<RecommendationInput> = {}) => {
      const r = recommend(input({ observations: obs, session_id: 'now', ...more }))
      expect(r.ask).toBe(true)
      return r.ask_reason
    }
    expect(reason(history(chose('Tier S', 5)), { personalization: false })).toBe('personalization is off for this session')
    const asking = compilePolicy({ ...policy, points: [{ key: 'tier', match: { question: '^Which size should it be\\?$' }, always_ask: true, sensitive: false }] })
    expect(reason(history(chose('Tier S', 5)), { policy: asking })).toBe('the policy marks this point always_ask')
    // Nine answers given for the user since the session's choice: the check-in.
    const nine = Array.from({ length: 9 }, (_, i) => auto(4 - i / 10))
    expect(reason(history(chose('Tier S', 5), ...nine))).toBe('9 answers in a row were auto-resolved: checking in with the user')
    // An answer given for them, then the session's Tier S: asked as a check-in answered otherwise.
    expect(reason(history(auto(9), chose('Tier S', 5)))).toBe('asked after answers given for them, the user last chose Tier S, not Tier M: asking again')
    expect(reason(history(chose('Tier S', 5)))).toBe(ASKED)

    // Multi-select, Test reworded Testing: every choice names an option not offered now, the
    // session's last too, which is then not the set recommended: the session's rule is named.
    const offered = [{ option: 'Lint' }, { option: 'Testing' }, { option: 'Docs' }]
    const set = (chosen: string[], timestamp: string, session_id: string) =>
      observation({ chosen, options: ['Lint', 'Test', 'Docs'], multi_select: true, timestamp, session_id })
    const sets = Array.from({ length: 120 }, (_, i) => set(['Lint', 'Test'], day(121 - i), `s-${i}`))
    const r = (...then: Observation[]) => recommend(input({ options: offered, multi_select: true, observations: [...sets, ...then], session_id: 'now' }))
    expect(r()).toMatchObject({ recommended: ['Lint'], ask: true, ask_reason: expect.stringMatching(/% of the choices here named options not offered now: asking$/) })
    expect(r(set(['Lint', 'Test'], at(5), 'now'))).toMatchObject({
      recommended: ['Lint'],
      ask: true,
      ask_reason: 'in this session you last chose Lint and Test here, not Lint: asked until your choice in this session agrees',
    })
  })
})

describe('layers (R-MEM-5)', () => {
  it('reports session, recent and long-term, and a suspected change of preference', () => {
    const old = observations({ 'Tier L': 10 }, { timestamp: '2026-06-01T10:00:00.000Z', session_id: 'old' })
    const recent = ['s1', 's2', 's3'].flatMap((s, i) =>
      observations({ 'Tier S': 2 }, { timestamp: `2026-06-2${i}T10:00:00.000Z`, session_id: s }),
    )
    const r = recommend(input({ observations: [...old, ...recent], session_id: 's3' }))
    expect(r.layers.session.observations).toBe(2)
    expect(r.layers.recent.sessions).toEqual(['s3', 's2', 's1'])
    expect(r.layers.recent.majority).toBe('Tier S')
    expect(r.layers.long_term.observations).toBe(16)
    expect(r.layers.change_suspected).toBe(r.layers.long_term.majority !== 'Tier S')
  })

  it('suspects no change where the recent sessions are no later than the rest (the worked example, made at one instant)', () => {
    // Tier S 3 / Tier M 6 / Tier L 1, each in a session of its own, all at one instant (R-REC-4):
    // no three of those sessions are "the last", whatever their ids.
    let session = 0
    const oneInstant = (spec: Record<string, number>) =>
      Object.entries(spec).flatMap(([choice, count]) =>
        Array.from({ length: count }, () => observations({ [choice]: 1 }, { session_id: `s${++session}`, project: 'acme/api' })).flat(),
      )
    const r = recommend(input({ observations: oneInstant({ 'Tier S': 3, 'Tier M': 6, 'Tier L': 1 }), project: 'acme/api' }))
    expect(r.recommended).toBe('Tier M')
    expect(r.layers.recent.sessions).toHaveLength(3)
    expect(r.layers.long_term.majority).toBe('Tier M')
    expect(r.layers.change_suspected).toBe(false)
    // Once the sessions kept are later than the rest, a recent majority that differs is suspected again.
    const later = ['l1', 'l2', 'l3'].flatMap((id) => observations({ 'Tier S': 1 }, { session_id: id, project: 'acme/api', timestamp: '2026-07-01T11:00:00.000Z' }))
    const r2 = recommend(input({ observations: [...oneInstant({ 'Tier M': 6 }), ...later], project: 'acme/api', asOf: new Date('2026-07-01T12:00:00.000Z') }))
    expect(r2.layers.recent.sessions).toEqual(['l1', 'l2', 'l3'])
    expect(r2.layers.long_term.majority).toBe('Tier M')
    expect(r2.layers.change_suspected).toBe(true)
  })

  it("counts the session's choices at the point in every project it made them, not only the project asked", () => {
    const obs = [
      ...['a1', 'a2', 'a3'].flatMap((s, i) => observations({ 'Tier S': 2 }, { project: 'acme/api', session_id: s, timestamp: `2026-06-2${i}T10:00:00.000Z` })),
      // The same session chose twice in another repository before going on in this one.
      ...observations({ 'Tier L': 2 }, { project: 'acme/web', session_id: 's9', timestamp: '2026-06-30T10:00:00.000Z' }),
    ]
    for (const project of ['acme/api', undefined]) {
      const r = recommend(input({ observations: obs, project, session_id: 's9' }))
      expect(r.layers.session, `project ${project}`).toMatchObject({ observations: 2, majority: 'Tier L', share: 1 })
    }
    // The recent layer stays the project's own sessions.
    expect(recommend(input({ observations: obs, project: 'acme/api', session_id: 's9' })).layers.recent.sessions).toEqual(['a3', 'a2', 'a1'])
  })
})

describe('project backoff (R-MEM-6)', () => {
  it('falls back to every project when this one has fewer than N, and says so', () => {
    const obs = [
      ...observations({ 'Tier L': 8 }, { project: 'other/repo' }),
      ...observations({ 'Tier L': 1 }, { project: 'acme/api' }),
    ]
    const r = recommend(input({ observations: obs, project: 'acme/api' }))
    expect(r.scope).toBe('all-projects')
    expect(r.observations).toBe(9)
    expect(r.disclosure).toContain('across all your projects')
  })

  it('keeps the recent layer to this project\'s sessions while the evidence backs off across projects', () => {
    const obs = [
      ...['o1', 'o2', 'o3'].flatMap((s, i) => observations({ 'Tier L': 3 }, { project: 'other/repo', session_id: s, timestamp: `2026-06-2${i}T10:00:00.000Z` })),
      ...observations({ 'Tier S': 2 }, { project: 'acme/api', session_id: 'a1', timestamp: '2026-06-10T10:00:00.000Z' }),
    ]
    const r = recommend(input({ observations: obs, project: 'acme/api' }))
    expect(r.scope).toBe('all-projects')
    // R-MEM-5: the last sessions of the same project, not the other project's newer ones.
    expect(r.layers.recent.sessions).toEqual(['a1'])
    expect(r.layers.recent.majority).toBe('Tier S')
    expect(r.layers.long_term.observations).toBe(11)
    expect(r.layers.long_term.majority).toBe('Tier L')
    expect(r.layers.change_suspected).toBe(true)
  })

  it('says so of a static default too, whose count of the observations still needed is across projects', () => {
    const obs = [
      ...observations({ 'Tier L': 2 }, { project: 'other/repo' }),
      ...observations({ 'Tier L': 1 }, { project: 'acme/api' }),
    ]
    const r = recommend(input({ observations: obs, project: 'acme/api' }))
    expect(r.scope).toBe('all-projects')
    expect(r.state).toBe('static-default')
    expect(r.disclosure).toBe('based on static default, 2 observations needed for personalization across all your projects')
  })

  describe('a project with too few choices of its own is asked until they agree (R-ASK-2)', () => {
    const at = (hoursAgo: number) => new Date(NOW.getTime() - hoursAgo * 3_600_000).toISOString()
    // 60 choices of Tier L in another project in the last days: sufficient, p above auto_resolve_p
    // with a few other choices besides.
    const elsewhere = Array.from({ length: 60 }, (_, i) => observation({ chosen: ['Tier L'], project: 'other/repo', timestamp: at(10 + i) }))
    const own = (...chosen: string[]) => chosen.map((c, i) => observation({ chosen: [c], project: 'acme/api', timestamp: at(chosen.length - i) }))
    const inProject = (obs: Observation[]) => recommend(input({ observations: [...elsewhere, ...obs], project: 'acme/api' }))

    it('asks a project with no choice of its own there, however sure the other projects are', () => {
      const r = inProject([])
      expect(r).toMatchObject({ scope: 'all-projects', state: 'sufficient', recommended: 'Tier L', ask: true })
      expect(r.p).toBeGreaterThanOrEqual(policy.ask.auto_resolve_p)
      expect(r.ask_reason).toBe('no choice of yours at this point in this project yet: the recommendation rests on your other projects')
      // Without a project, the user's history is the evidence: answered for them as before.
      expect(recommend(input({ observations: elsewhere })).ask).toBe(false)
    })

    it('answers for the user once the project\'s own choices agree with the other projects\'', () => {
      for (const chosen of [['Tier L'], ['Tier L', 'Tier L'], ['Tier S', 'Tier L', 'Tier L']]) {
        const r = inProject(own(...chosen))
        expect(r.scope).toBe('all-projects')
        expect([chosen, r.ask, r.ask_reason]).toEqual([chosen, false, `sufficient evidence and p ${r.p} >= auto_resolve_p 0.9: auto-resolve`])
      }
    })

    it('asks while they do not: the latest is another option, or the recommended one is not most of them', () => {
      const rests = ': the recommendation rests on your other projects'
      expect(inProject(own('Tier S')).ask_reason).toBe(`your choice at this point in this project was not Tier L${rests}`)
      expect(inProject(own('Tier L', 'Tier S')).ask_reason).toBe(`your latest choice at this point in this project was not Tier L${rests}`)
      expect(inProject(own('Tier S', 'Tier L')).ask_reason).toBe(`only 1 of your 2 choices at this point in this project was Tier L${rests}`)
      expect(inProject(own('Tier S', 'Tier M', 'Tier L', 'Tier L')).ask_reason).toBe(`only 2 of your 4 choices at this point in this project were Tier L${rests}`)
      for (const chosen of [['Tier S'], ['Tier L', 'Tier S'], ['Tier S', 'Tier L'], ['Tier S', 'Tier M', 'Tier L', 'Tier L']]) {
        expect(inProject(own(...chosen))).toMatchObject({ scope: 'all-projects', state: 'sufficient', ask: true })
      }
      // Text typed instead of an option is no agreement.
      expect(inProject([observation({ chosen: [], other: 'Tier XL', project: 'acme/api', timestamp: at(1) })]).ask).toBe(true)
    })

    it('takes the one recorded last of own choices made at one instant for the latest, as a tie does (R-REC-2)', () => {
      // Sent at one instant (a batch, one timestamp): recorded in this order, ids rising.
      const once = (...chosen: string[]) => chosen.map((c) => observation({ chosen: [c], project: 'acme/api', timestamp: at(1) }))
      expect(inProject(once('Tier S', 'Tier L', 'Tier L'))).toMatchObject({ scope: 'all-projects', ask: false })
      expect(inProject(once('Tier L', 'Tier L', 'Tier S')).ask_reason).toBe('your latest choice at this point in this project was not Tier L: the recommendation rests on your other projects')
    })

    it('reads the project\'s own choices in the context value the evidence was narrowed to (R-REC-7)', () => {
      // The other project: Tier L in phase run, Tier S in phase plan, 30 of each.
      const byPhase = ['run', 'plan'].flatMap((phase) =>
        Array.from({ length: 30 }, (_, i) => observation({ chosen: [phase === 'run' ? 'Tier L' : 'Tier S'], project: 'other/repo', context: { phase }, timestamp: at(10 + i) })),
      )
      const mine = (...choices: Array<[string, string]>) =>
        choices.map(([c, phase], i) => observation({ chosen: [c], project: 'acme/api', context: { phase }, timestamp: at(choices.length - i) }))
      const asked = (own: Observation[], phase: string) =>
        recommend(input({ observations: [...byPhase, ...own], project: 'acme/api', context: { phase } }))
      // Tier L in run, then Tier S in plan, as the other project goes: each agrees in its own phase.
      const agreeing = mine(['Tier L', 'run'], ['Tier S', 'plan'])
      for (const [phase, recommended] of [['run', 'Tier L'], ['plan', 'Tier S']] as const) {
        const r = asked(agreeing, phase)
        expect(r).toMatchObject({ scope: 'all-projects', context_key: 'phase', state: 'sufficient', recommended })
        expect([phase, r.ask, r.ask_reason]).toEqual([phase, false, `sufficient evidence and p ${r.p} >= auto_resolve_p 0.9: auto-resolve`])
      }
      // A choice in plan is none in run, where the project has not chosen yet.
      const rests = ': the recommendation rests on your other projects'
      expect(asked(mine(['Tier S', 'plan']), 'run').ask_reason).toBe(`no choice of yours yet at this point in this project where phase is run${rests}`)
      // One in run against the other project's is still asked about, said of run.
      expect(asked(mine(['Tier S', 'run'], ['Tier S', 'plan']), 'run').ask_reason).toBe(`your choice at this point in this project where phase is run was not Tier L${rests}`)
    })

    it('reads a multi-select point\'s own choices as sets: a part of the recommended set is not it', () => {
      const checks = [{ option: 'Lint' }, { option: 'Test' }, { option: 'Docs' }]
      const sets = (project: string, chosen: string[], count: number, from: number) =>
        Array.from({ length: count }, (_, i) => observation({ chosen, options: ['Lint', 'Test', 'Docs'], multi_select: true, project, timestamp: at(from + i) }))
      const r = (obs: Observation[]) => recommend(input({ options: checks, multi_select: true, project: 'acme/api', observations: [...sets('other/repo', ['Lint', 'Test'], 60, 10), ...obs] }))
      expect(r([]).ask_reason).toBe('no choice of yours at this point in this project yet: the recommendation rests on your other projects')
      expect(r(sets('acme/api', ['Lint'], 1, 1))).toMatchObject({ scope: 'all-projects', recommended: ['Lint', 'Test'], ask: true })
      expect(r(sets('acme/api', ['Lint'], 1, 1)).ask_reason).toBe('your choice at this point in this project was not Lint and Test: the recommendation rests on your other projects')
      expect(r(sets('acme/api', ['Lint', 'Test'], 1, 1))).toMatchObject({ scope: 'all-projects', ask: false })
    })
  })

  it('uses the project alone once it has N', () => {
    const obs = [
      ...observations({ 'Tier L': 8 }, { project: 'other/repo' }),
      ...observations({ 'Tier S': 5 }, { project: 'acme/api' }),
    ]
    const r = recommend(input({ observations: obs, project: 'acme/api' }))
    expect(r.scope).toBe('project')
    expect(r.recommended).toBe('Tier S')
  })
})

describe('multi-select (R-REC-8)', () => {
  it('recommends the options selected at a rate of at least one half, each with its confidence', () => {
    const checks = [{ option: 'Lint' }, { option: 'Unit tests' }, { option: 'E2E tests' }]
    const obs = Array.from({ length: 10 }, (_, i) =>
      observation({ chosen: i < 8 ? ['Lint', 'Unit tests'] : ['E2E tests'], options: ['Lint', 'Unit tests', 'E2E tests'] }),
    )
    const r = recommend(input({ options: checks, observations: obs, multi_select: true }))
    expect(r.recommended).toEqual(['Lint', 'Unit tests'])
    const lint = r.options.find((o) => o.option === 'Lint')!
    expect(lint.rate).toBeCloseTo(0.8, 6)
    expect(lint.confidence).toBeGreaterThan(0.9)
    expect(r.options.slice(0, 2).every((o) => o.label.endsWith('(Recommended)'))).toBe(true)
  })

  it("gives each option the confidence in what is recommended of it, the static default's set too", () => {
    const checks = [{ option: 'Lint' }, { option: 'Unit tests' }, { option: 'E2E tests' }]
    // Three choices of {Lint, Unit tests}: too few, so the static default {Lint} is recommended,
    // and Unit tests is not, though chosen every time: the confidence in leaving it out is low.
    const obs = Array.from({ length: 3 }, () => observation({ chosen: ['Lint', 'Unit tests'], options: ['Lint', 'Unit tests', 'E2E tests'] }))
    const r = recommend(input({ options: checks, observations: obs, multi_select: true }))
    expect(r).toMatchObject({ state: 'static-default', recommended: ['Lint'] })
    const unit = r.options.find((o) => o.option === 'Unit tests')!
    expect(unit).toMatchObject({ recommended: false, rate: 1 })
    // Beta(4, 1): P(rate >= 0.5) = 1 - 0.5^4; left out, the confidence is the rest, 0.0625.
    expect(unit.confidence).toBeCloseTo(0.0625, 4)
    // The set's confidence is the product of its options' (R-REC-8, README).
    const product = r.options.reduce((c, o) => c * o.confidence!, 1)
    expect(r.confidence.value).toBeCloseTo(product, 3)
  })

  it('asks, rather than auto-resolve, when the choices named an option not offered now', () => {
    const asked = ['Lint', 'Test', 'E2E']
    const always = Array.from({ length: 25 }, () => observation({ chosen: ['Lint', 'Test'], options: asked }))
    const same = recommend(input({ options: asked.map((option) => ({ option })), observations: always, multi_select: true }))
    expect(same).toMatchObject({ state: 'sufficient', recommended: ['Lint', 'Test'], ask: false })
    // Test reworded: its rate is unknown, not 0; {Lint} alone is no answer to give for the user.
    const reworded = recommend(input({ options: ['Lint', 'Testing', 'E2E'].map((option) => ({ option })), observations: always, multi_select: true }))
    expect(reworded).toMatchObject({ recommended: ['Lint'], ask: true, ask_reason: '100% of the choices here named options not offered now: asking' })
    // A choice long ago of an option since dropped, within what auto_resolve_p leaves to doubt, does not.
    const once = [observation({ chosen: ['Lint', 'Legacy'], options: [...asked, 'Legacy'] }), ...always]
    expect(recommend(input({ options: asked.map((option) => ({ option })), observations: once, multi_select: true })).ask).toBe(false)
  })

  it('recommends an option selected in exactly half of the choices: the rate is at least one half', () => {
    const checks = [{ option: 'Lint' }, { option: 'Unit tests' }, { option: 'E2E tests' }]
    // At one instant: Lint every time, Unit tests in 3 of 6, E2E tests in 2 of 6.
    const obs = Array.from({ length: 6 }, (_, i) =>
      observation({ chosen: ['Lint', ...(i < 3 ? ['Unit tests'] : []), ...(i < 2 ? ['E2E tests'] : [])], options: ['Lint', 'Unit tests', 'E2E tests'] }),
    )
    const r = recommend(input({ options: checks, observations: obs, multi_select: true }))
    expect(r.options.find((o) => o.option === 'Unit tests')!.rate).toBe(0.5)
    expect(r.recommended).toEqual(['Lint', 'Unit tests'])
  })

  it('says of a set chosen every time that each was selected in 100% of recent choices, not "at least 100%"', () => {
    const checks = [{ option: 'Lint' }, { option: 'Unit tests' }, { option: 'E2E tests' }]
    const always = Array.from({ length: 6 }, () =>
      observation({ chosen: ['Lint', 'Unit tests'], options: ['Lint', 'Unit tests', 'E2E tests'] }),
    )
    const r = recommend(input({ options: checks, observations: always, multi_select: true }))
    expect(r.disclosure).toBe('each selected in 100% of recent choices')
    expect(r.options[0]!.description).toBe(`Recommended when ${r.precondition} — each selected in 100% of recent choices`)
    const expert = recommend(input({ options: checks, observations: always, multi_select: true, sessions: 60 }))
    expect(expert.options.slice(0, 2).map((o) => o.label)).toEqual(['Lint (100% of recent choices)', 'Unit tests (100% of recent choices)'])
    // Short of every time, the least share is a floor: Unit tests in 6 of 7 choices is 85.7%, at
    // least 85%, not "at least 86%", which it is not.
    const mostly = [...always, observation({ chosen: ['Lint'], options: ['Lint', 'Unit tests', 'E2E tests'] })]
    const r7 = recommend(input({ options: checks, observations: mostly, multi_select: true }))
    expect(r7.options.find((o) => o.option === 'Unit tests')!.rate).toBeCloseTo(6 / 7, 4)
    expect(r7.disclosure).toBe('each selected in at least 85% of recent choices')
  })

  it('says of a least share short of every time that rounds to 100% that it is at least a figure under 100%', () => {
    const checks = [{ option: 'Lint' }, { option: 'Unit tests' }, { option: 'E2E tests' }]
    const flat = { ...policy, decay: { alpha: 0 } }
    const both = Array.from({ length: 333 }, () => observation({ chosen: ['Lint', 'Unit tests'], options: ['Lint', 'Unit tests', 'E2E tests'] }))
    const once = observation({ chosen: ['Lint'], options: ['Lint', 'Unit tests', 'E2E tests'] })
    // Unit tests in 333 of 334 choices: 99.7%, not "100%" and not "at least 100%".
    const r = recommend(input({ options: checks, observations: [...both, once], multi_select: true, policy: flat }))
    expect(r.recommended).toEqual(['Lint', 'Unit tests'])
    expect(r.disclosure).toBe('each selected in at least 99.7% of recent choices')
    // Rounded down, so the floor stays true: 2999 of 3000 is 99.97%, at least 99.9%.
    const many = Array.from({ length: 2999 }, () => both[0]!)
    expect(recommend(input({ options: checks, observations: [...many, once], multi_select: true, policy: flat })).disclosure).toBe(
      'each selected in at least 99.9% of recent choices',
    )
  })

  it('says 34 of 40 sets chosen at one instant are at least 85%, at any age', () => {
    // Past the 16 exact moments the exponential-sum tail (good to 1e-6) made 0.85 0.84999998…,
    // floored to "at least 84%".
    const checks = ['Lint', 'Unit tests', 'E2E tests', 'Types']
    for (let days = 0; days < 30; days += 0.7) {
      const timestamp = new Date(NOW.getTime() - days * 86_400_000).toISOString()
      const sets = [
        ...Array.from({ length: 34 }, () => observation({ chosen: ['Lint', 'Unit tests'], options: checks, timestamp })),
        ...Array.from({ length: 6 }, () => observation({ chosen: ['Unit tests'], options: checks, timestamp })),
      ]
      const r = recommend(input({ options: checks.map((option) => ({ option })), observations: sets, multi_select: true }))
      expect(r.disclosure, `${days} days`).toBe('each selected in at least 85% of recent choices')
    }
  })

  it('never says "at least 100%" of a set missed once, however light the miss: its share short of 1 by less than a millionth', () => {
    // Decayed steeply (α = 2), a set missed once three years ago is 1 − 1.7e-7 of the weight: held
    // to the millionth that is 1, but it was not chosen every time, as Lint's own 99% says.
    const steep = { ...policy, decay: { alpha: 2 } }
    const checks = ['Lint', 'Unit tests', 'E2E tests']
    const old = new Date(NOW.getTime() - 3 * 365 * 86_400_000).toISOString()
    const sets = [
      ...Array.from({ length: 5 }, () => observation({ chosen: ['Lint', 'Unit tests'], options: checks })),
      observation({ chosen: ['Unit tests'], options: checks, timestamp: old }),
    ]
    const r = recommend(input({ options: checks.map((option) => ({ option })), observations: sets, multi_select: true, sessions: 60, policy: steep }))
    expect(r.recommended).toEqual(['Lint', 'Unit tests'])
    expect(r.disclosure).toBe('each selected in at least 99.9% of recent choices')
    expect(r.options[0]?.label).toBe('Lint (99% of recent choices)')
  })

  it('says of an empty selection that no option reaches half, with the window it rests on, not "at least 100%"', () => {
    const checks = [{ option: 'Lint' }, { option: 'Unit tests' }, { option: 'E2E tests' }, { option: 'Types' }]
    const obs = ['Lint', 'Unit tests', 'E2E tests', 'Types', 'Lint', 'Unit tests', 'E2E tests', 'Types'].map((chosen) =>
      observation({ chosen: [chosen], options: checks.map((c) => c.option) }),
    )
    const r = recommend(input({ options: checks, observations: obs, multi_select: true }))
    expect(r.state).toBe('partial')
    expect(r.recommended).toEqual([])
    expect(r.disclosure).toBe('no option selected in more than 25% of recent choices')
    expect(r.precondition).toBe('your choices of 2026-07-01 still hold')
  })

  it('says no option of 21 in 60 chosen at one instant was selected in more than 35%, at any age, not 36%', () => {
    // Past the 16 exact moments the exponential-sum tail (good to 1e-6) made 0.35 0.35000001…,
    // rounded up to "more than 36%".
    const checks = ['Lint', 'Unit tests', 'E2E tests']
    for (let days = 0; days < 30; days += 0.37) {
      const timestamp = new Date(NOW.getTime() - days * 86_400_000).toISOString()
      const sets = Object.entries({ Lint: 21, 'Unit tests': 20, 'E2E tests': 19 }).flatMap(([chosen, count]) =>
        Array.from({ length: count }, () => observation({ chosen: [chosen], options: checks, timestamp })),
      )
      const r = recommend(input({ options: checks.map((option) => ({ option })), observations: sets, multi_select: true }))
      expect(r.disclosure, `${days} days`).toBe('no option selected in more than 35% of recent choices')
    }
  })

  it('says of an empty selection a highest rate rounded up, so that "no option selected in more than" stays true', () => {
    const checks = [{ option: 'Lint' }, { option: 'Unit tests' }, { option: 'E2E tests' }]
    // Lint in 3 of 7 choices: 42.9%, so no option was selected in more than 43%, not "42%".
    const obs = ['Lint', 'Unit tests', 'E2E tests', 'Lint', 'Unit tests', 'E2E tests', 'Lint'].map((chosen) =>
      observation({ chosen: [chosen], options: checks.map((c) => c.option) }),
    )
    const r = recommend(input({ options: checks, observations: obs, multi_select: true }))
    expect(r.recommended).toEqual([])
    expect(r.disclosure).toBe('no option selected in more than 43% of recent choices')
  })

  it('predicts the set with the predictive prior, as a single choice, so a consistent set auto-resolves (R-ASK-1)', () => {
    const checks = [{ option: 'A' }, { option: 'B' }, { option: 'C' }, { option: 'D' }]
    const obs = Array.from({ length: 30 }, () => observation({ chosen: ['A', 'B'], options: ['A', 'B', 'C', 'D'] }))
    const r = recommend(input({ options: checks, observations: obs, multi_select: true }))
    expect(r.recommended).toEqual(['A', 'B'])
    expect(r.state).toBe('sufficient')
    // Krichevsky–Trofimov per option, (30 + ½) / (30 + 1), for each of the 4 agreeing: 0.937, not
    // Laplace's (31/32)^4 = 0.881 below auto_resolve_p.
    expect(r.p).toBeCloseTo((30.5 / 31) ** 4, 4)
    expect(r.ask).toBe(false)
    // The confidence keeps its own prior: the predictive prior moves p and entropy only.
    const laplace = recommend(input({
      options: checks,
      observations: obs,
      multi_select: true,
      policy: { ...policy, confidence: { ...policy.confidence, predictive_prior: 1 } },
    }))
    expect(laplace.p).toBeCloseTo((31 / 32) ** 4, 4)
    expect(laplace.ask).toBe(true)
    expect(r.confidence.value).toBe(laplace.confidence.value)
    expect(r.entropy).toBeLessThan(laplace.entropy)
  })
})

describe('options offered in another case than they were chosen (R-CAP-3, R-REC-2, R-REC-5)', () => {
  it('counts the choices of Tier M for the option tier m, as a choice, a static default and a decision name it', () => {
    const seed = [
      ...observations({ 'Tier S': 3, 'Tier M': 6 }, { context: { phase: 'run' } }),
      ...observations({ 'Tier L': 1 }, { context: { phase: 'plan' } }),
    ]
    const lower = [{ option: 'tier s' }, { option: 'tier m' }, { option: 'tier l' }]
    const r = recommend(input({ options: lower, observations: seed }))
    const asChosen = recommend(input({ observations: seed }))
    expect(r).toMatchObject({
      state: 'partial',
      recommended: 'tier m',
      disclosure: 'based on 60% of recent choices',
      precondition: 'phase is run',
      confidence: asChosen.confidence,
      p: asChosen.p,
    })
    expect(r.options.map((o) => [o.option, o.share, o.count])).toEqual([
      ['tier m', 0.6, 6],
      ['tier s', 0.3, 3],
      ['tier l', 0.1, 1],
    ])
    expect(r.layers.long_term).toMatchObject({ majority: 'tier m', share: 0.6 })
  })
})

describe('a single-select question at a point where sets were chosen (R-REC-2, R-REC-8)', () => {
  // The user once asked which models should review, and chose two, eight times; now the agent
  // asks which model should implement, a single-select question.
  const MODELS = [{ option: 'Opus' }, { option: 'Sonnet' }, { option: 'Haiku' }]
  const both = Array.from({ length: 8 }, () =>
    observation({ point: 'model-selection', chosen: ['Opus', 'Sonnet'], options: ['Opus', 'Sonnet', 'Haiku'], multi_select: true }),
  )

  it('counts each set as one choice shared by its options, so the shares add up to at most 1, and the counts to the choices', () => {
    const r = recommend(input({ point: 'model-selection', question: 'Which model should implement this?', header: 'Model', options: MODELS, observations: both, multi_select: false }))
    expect(r.multi_select).toBe(false)
    expect(r.options.map((o) => [o.option, o.share, o.count])).toEqual([
      ['Sonnet', 0.5, 4],
      ['Opus', 0.5, 4],
      ['Haiku', 0, 0],
    ])
    expect(r.disclosure).toBe('based on 50% of recent choices')
    expect(r.layers.long_term.counts.reduce((sum, c) => sum + c.share, 0)).toBeCloseTo(1, 6)
    expect(r.layers.long_term.counts.map((c) => c.count)).toEqual([4, 4, 0])
    // A set of three, once, beside them: a third of a choice each, the counts still the choices.
    const three = observation({ point: 'model-selection', chosen: ['Opus', 'Sonnet', 'Haiku'], options: ['Opus', 'Sonnet', 'Haiku'], multi_select: true })
    const more = recommend(input({ point: 'model-selection', question: 'Which model should implement this?', options: MODELS, observations: [...both, three], multi_select: false }))
    expect(more.options.reduce((sum, o) => sum + o.count, 0)).toBeCloseTo(more.observations, 9)
    expect(more.options.find((o) => o.option === 'Haiku')!.count).toBeCloseTo(1 / 3, 9)
    expect(r.layers.long_term.share).toBe(0.5)
  })

  it('leaves a single choice whole beside them', () => {
    const r = recommend(input({
      point: 'model-selection',
      question: 'Which model should implement this?',
      options: MODELS,
      observations: [...both, ...observations({ Opus: 2 }, { point: 'model-selection', options: ['Opus', 'Sonnet', 'Haiku'] })],
      multi_select: false,
    }))
    expect(r).toMatchObject({ recommended: 'Opus', disclosure: 'based on 60% of recent choices' })
    expect(r.options.find((o) => o.option === 'Sonnet')!.share).toBe(0.4)
  })
})

describe('as_of (R-REC-9)', () => {
  it('ages observations from as_of', () => {
    const obs = observations({ 'Tier M': 5 }, { timestamp: '2026-06-01T10:00:00.000Z' })
    const then = recommend(input({ observations: obs, asOf: new Date('2026-06-01T10:00:00.000Z') }))
    expect(then.options.find((o) => o.option === 'Tier M')!.share).toBe(1)
    expect(then.as_of).toBe('2026-06-01T10:00:00.000Z')
  })
})

describe('a context not worked in lately is no change of preference (R-REC-7, R-MEM-5, R-REC-5)', () => {
  // 30 × Vitest in phase run 40 to 55 days before T0, then Jest chosen recently in other phases.
  const T0 = new Date('2026-11-01T10:00:00.000Z')
  const RUNNERS = [{ option: 'Vitest' }, { option: 'Jest' }]
  const at = (days: number) => new Date(T0.getTime() - days * 86_400_000).toISOString()
  const runner = (chosen: string, days: number, phase: string) =>
    observation({ point: 'runner', options: ['Vitest', 'Jest'], chosen: [chosen], timestamp: at(days), recorded_at: at(days), context: { phase } })
  const older = Array.from({ length: 30 }, (_, i) => runner('Vitest', 40 + i / 2, 'run'))
  const ask = (obs: Observation[]) =>
    recommend(input({ point: 'runner', options: RUNNERS, observations: obs, asOf: T0, context: { phase: 'run' } }))

  it('recommends what was chosen in the requested phase, though 8 recent choices in another differ', () => {
    const r = ask([...older, ...Array.from({ length: 8 }, (_, i) => runner('Jest', 1 + i, 'plan'))])
    expect(r).toMatchObject({ recommended: 'Vitest', observations: 30, context_key: 'phase', precondition: 'phase is run', contradictions: [] })
    expect(r.disclosure).not.toMatch(/differ from your earlier choices/)
    expect(r.confidence.lowered_because).toBeUndefined()
  })

  it('answers as it would were every choice recent, though 25 recent choices in two other phases differ', () => {
    const recent = Array.from({ length: 25 }, (_, i) => runner('Jest', 1 + i / 2, i % 2 === 0 ? 'plan' : 'review'))
    const r = ask([...older, ...recent])
    expect(r).toMatchObject({ recommended: 'Vitest', state: 'sufficient', observations: 30, context_key: 'phase', precondition: 'phase is run' })
    expect(r.disclosure).not.toMatch(/differ from your earlier choices/)
    // The same choices, all of them recent.
    const allRecent = [
      ...Array.from({ length: 30 }, (_, i) => runner('Vitest', 1 + i / 2, 'run')),
      ...recent,
    ]
    const same = ask(allRecent)
    expect(same).toMatchObject({ recommended: 'Vitest', state: 'sufficient', context_key: 'phase', precondition: 'phase is run' })
  })
})

describe('confidence on split evidence, weighed by how sure the split is (R-REC-3, R-REC-7)', () => {
  const day = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString()
  const noChangeTest = () => compilePolicy({ ...policy, change: { ...policy.change, significance: 1e-300 } })

  it('after a change found on few choices, mixes the recent choices\' confidence with the whole history\'s', () => {
    // Half a year of Tier L and Tier M alike, then Tier M seven days running: a change at p < 0.01,
    // but on seven choices, as a user whose preference holds still makes one now and then.
    const recent = Array.from({ length: 7 }, (_, i) => observation({ chosen: ['Tier M'], timestamp: day(7 - i) }))
    const obs = [
      ...Array.from({ length: 40 }, (_, i) => observation({ chosen: ['Tier L'], timestamp: day(200 - 2 * i) })),
      ...Array.from({ length: 36 }, (_, i) => observation({ chosen: ['Tier M'], timestamp: day(199 - 2 * i) })),
      ...recent,
    ]
    const r = recommend(input({ observations: obs }))
    expect(r).toMatchObject({ recommended: 'Tier M', observations: 7 })
    const real = splitPosterior(r.change_test!.p_value)
    expect(real).toBeGreaterThan(0.1)
    expect(real).toBeLessThan(0.95)
    const alone = recommend(input({ observations: recent })).confidence.value
    const whole = recommend(input({ observations: obs, policy: noChangeTest() }))
    expect(whole).toMatchObject({ recommended: 'Tier M', change_test: null })
    expect(r.confidence.value).toBeCloseTo(real * alone + (1 - real) * whole.confidence.value, 3)
    // Below what the seven alone say: the change may be chance.
    expect(r.confidence.value).toBeLessThan(alone - 0.001)
    // And says so in its method, which a request on the seven alone does not.
    expect(r.confidence.method).toContain('mixed with the P(max) on the evidence before the split')
    expect(recommend(input({ observations: recent })).confidence.method).not.toContain('split')
  })

  it('leaves the confidence of a change beyond doubt as the recent choices say', () => {
    const recent = Array.from({ length: 30 }, (_, i) => observation({ chosen: ['Tier M'], timestamp: day(28 - i * 0.9) }))
    const obs = [...Array.from({ length: 80 }, (_, i) => observation({ chosen: ['Tier L'], timestamp: day(200 - 2 * i) })), ...recent]
    const r = recommend(input({ observations: obs }))
    expect(r.change_test!.p_value).toBeLessThan(1e-12)
    expect(r.confidence.value).toBe(recommend(input({ observations: recent })).confidence.value)
  })

  it('after a context value narrowed on thin evidence, mixes its confidence with the scope\'s', () => {
    // Phase run leans to Tier M (7 of 10), phase plan to Tier L (14 of 20), the two interleaved
    // over four months: different at the level, p ≈ 0.04, as chance makes it one time in 25.
    const run = ['Tier M', 'Tier M', 'Tier L', 'Tier M', 'Tier M', 'Tier L', 'Tier M', 'Tier M', 'Tier L', 'Tier M']
    const plan = [...Array(14).fill('Tier L'), ...Array(6).fill('Tier M')].map((_, i, all) => all[(i * 7) % 20] as string)
    const obs = Array.from({ length: 30 }, (_, j) => {
      const inRun = j % 3 === 0
      const chosen = inRun ? (run[j / 3] as string) : (plan[j - Math.floor(j / 3) - 1] as string)
      return observation({ chosen: [chosen], timestamp: day(120 - 3 * j), context: { phase: inRun ? 'run' : 'plan' } })
    })
    const r = recommend(input({ observations: obs, context: { phase: 'run' } }))
    expect(r.context_test).toMatchObject({ key: 'phase', value: 'run', matching: 10, others: 20 })
    expect(r.change_test).toBeNull()
    expect(r.recommended).toBe('Tier M')
    const real = splitPosterior(r.context_test!.p_value * (policy.context.significance / r.context_test!.level))
    expect(real).toBeLessThan(0.9)
    const narrowed = recommend(input({ observations: obs.filter((o) => o.context?.phase === 'run') })).confidence.value
    // Mixed with the scope's, where Tier M is the less chosen (13 of 30): well below the ten's own.
    expect(r.confidence.value).toBeLessThan(narrowed - 0.05)
    expect(r.confidence.value).toBeGreaterThanOrEqual(real * narrowed - 0.0001)
    expect(r.confidence.method).toContain('weighed by the posterior probability that the split is real')
  })
  it("at a multi-select point, after a change found on few choices, mixes each option's P(rate >= 0.5) with the whole history's", () => {
    // Half a year of {Lint}, with Unit in 3 sets of 8, then {Lint, Unit} seven days running: a
    // change at p < 0.01, but on seven sets, as a user whose rates hold still makes one now and then.
    const CHECKS = [{ option: 'Lint' }, { option: 'Unit' }, { option: 'E2E' }]
    const set = (chosen: string[], timestamp: string) => observation({ chosen, timestamp, options: ['Lint', 'Unit', 'E2E'], multi_select: true })
    const recent = Array.from({ length: 7 }, (_, i) => set(['Lint', 'Unit'], day(7 - i)))
    const obs = [
      ...Array.from({ length: 76 }, (_, i) => set(i % 8 < 3 ? ['Lint', 'Unit'] : ['Lint'], day(230 - 2.5 * i))),
      ...recent,
    ]
    const ask = (o: Observation[], p = policy) => recommend(input({ observations: o, options: CHECKS, multi_select: true, policy: p }))
    const r = ask(obs)
    expect(r).toMatchObject({ recommended: ['Lint', 'Unit'], observations: 7 })
    const real = splitPosterior(r.change_test!.p_value)
    expect(real).toBeGreaterThan(0.1)
    expect(real).toBeLessThan(0.95)
    const unit = (x: ReturnType<typeof recommend>) => x.options.find((o) => o.option === 'Unit')!
    const alone = unit(ask(recent))
    const whole = ask(obs, noChangeTest())
    expect(whole.change_test).toBeNull()
    // On the whole history, decayed, Unit is selected at about 0.6: P(rate >= 0.5) is the confidence
    // in selecting it (or 1 less the confidence in leaving it out), below the seven's own.
    const wholeAbove = unit(whole).recommended ? unit(whole).confidence! : 1 - unit(whole).confidence!
    expect(unit(r).confidence).toBeCloseTo(real * alone.confidence! + (1 - real) * wholeAbove, 3)
    expect(unit(r).confidence).toBeLessThan(alone.confidence! - 0.01)
    // The set's confidence is still the product of its options'.
    expect(r.confidence.value).toBeCloseTo(r.options.reduce((product, o) => product * o.confidence!, 1), 3)
    expect(r.confidence.method).toContain("each option's P(selection rate >= 0.5) mixed with the same on the evidence before the split")
    expect(ask(recent).confidence.method).not.toContain('split')
  })
})

describe('splitPosterior', () => {
  it('is the prior from p = 1/e on, rises as p falls, and is sure at p = 0', () => {
    // No jump at 1/e, where the bound's Bayes factor reaches 1: a policy may set significance 0.5.
    expect(splitPosterior(1 / Math.E - 1e-9)).toBeCloseTo(0.15, 6)
    expect(splitPosterior(1 / Math.E)).toBe(0.15)
    expect(splitPosterior(0.5)).toBe(0.15)
    expect(splitPosterior(1)).toBe(0.15)
    expect(splitPosterior(0.5, 0.3)).toBe(0.3)
    expect(splitPosterior(Number.NaN)).toBe(0)
    expect(splitPosterior(0)).toBe(1)
    // Bayes factor 1/(e · 0.01 · ln 100) = 7.99; prior odds 0.15/0.85: posterior odds 1.41.
    expect(splitPosterior(0.01)).toBeCloseTo(0.585, 3)
    expect(splitPosterior(0.001, 0.5)).toBeCloseTo(0.982, 3)
    expect(splitPosterior(1e-6)).toBeGreaterThan(splitPosterior(1e-3))
    expect(splitPosterior(1e-320)).toBe(1)
  })
})
