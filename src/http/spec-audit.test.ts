import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { createTestApp, START } from '../../test/support/test-app'
import { choices as wireChoices, record } from '../../test/support/wire-choices'

// Black-box checks of SPEC.md's R-REC, R-ASK, R-MEM-2/5/6 and R-SES through the documented wire
// format only (README "HTTP API"), as acceptance tests built from the spec and the seed would be.

const TIER = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }
/** A question no policy point fits: its static default is its first option, Redis. */
const QUEUE = { question: 'Which queue backend should the worker use?', all_options: ['Redis', 'SQS', 'Kafka'] }
const DAY = 86_400_000

type Call = Awaited<ReturnType<typeof createTestApp>>['call']

/** Observations of `question`, `count` of each choice in the order given, all at START unless `extra` says. */
const choices = (question: Record<string, unknown>, spec: Array<[unknown, number]>, extra: Record<string, unknown> = {}) =>
  wireChoices('audit', question, spec, extra)

async function startSessions(call: Call, count: number, user = 'default') {
  for (let i = 0; i < count; i++) {
    const { status } = await call('POST', '/v1/sessions', { user, session_id: `audit-s-${i}`, started_at: '2026-06-01T00:00:00Z' })
    expect(status).toBe(201)
  }
}

const labels = (body: { options: Array<{ label: string }> }) => body.options.map((o) => o.label)

describe('R-REC-1: the state at the boundaries n = N-1, N, M, M+1 (N = 5, M = 20)', () => {
  it.each([
    [4, 'static-default', 'Tier M', 1],
    [5, 'partial', 'Tier L', 0],
    [20, 'partial', 'Tier L', 0],
    [21, 'sufficient', 'Tier L', 0],
  ])('n = %i of one option is %s, recommending %s, %i needed', async (n, state, recommended, needed) => {
    const { call } = await createTestApp()
    await record(call, choices(TIER, [['Tier L', n]]))
    const { status, body } = await call('POST', '/v1/recommendations', TIER)
    expect(status).toBe(200)
    expect(body).toMatchObject({ state, recommended, observations: n, needed })
    // The spec's text with N - n put in, "1 observations" too (b8dec93): clients match it.
    if (state === 'static-default') expect(body.disclosure).toBe('based on static default, 1 observations needed for personalization')
    else expect(body.disclosure).toBe('based on 100% of recent choices')
  })

  it('stays partial past M without a significant majority, and says why it is not sufficient', async () => {
    const { call } = await createTestApp()
    await record(call, choices(TIER, [['Tier L', 12], ['Tier S', 10]]))
    const { body } = await call('POST', '/v1/recommendations', TIER)
    expect(body).toMatchObject({ state: 'partial', recommended: 'Tier L', observations: 22, ask: true })
    expect(body.confidence.value).toBeLessThan(0.95)
    expect(body.confidence.significant).toBe(false)
    expect(body.ask_reason).toMatch(/below 0\.95/)
  })

  it('the request\'s static_default stands while n < N, disclosed', async () => {
    const { call } = await createTestApp()
    await record(call, choices(QUEUE, [['Redis', 2]]))
    const { body } = await call('POST', '/v1/recommendations', { ...QUEUE, static_default: 'Kafka' })
    expect(body).toMatchObject({ state: 'static-default', recommended: 'Kafka', needed: 3 })
    expect(body.disclosure).toBe('based on static default, 3 observations needed for personalization')
    expect(body.options[0]).toMatchObject({ option: 'Kafka', label: 'Kafka (Recommended)' })
  })
})

describe('R-REC-2: ties by decayed weight', () => {
  it('go to the static default, even when the other tied option was chosen last', async () => {
    const { call } = await createTestApp()
    await record(call, choices(TIER, [['Tier M', 3], ['Tier S', 3]]))
    const { body } = await call('POST', '/v1/recommendations', TIER)
    expect(body).toMatchObject({ state: 'partial', recommended: 'Tier M' })
    expect(body.options[0]).toMatchObject({ option: 'Tier M', share: 0.5 })
  })

  it('go to the request\'s static default over the policy\'s', async () => {
    const { call } = await createTestApp()
    await record(call, choices(TIER, [['Tier L', 3], ['Tier M', 3]]))
    expect((await call('POST', '/v1/recommendations', { ...TIER, static_default: 'Tier L' })).body.recommended).toBe('Tier L')
  })

  it.each([
    ['Kafka', 'SQS'],
    ['SQS', 'Kafka'],
  ])('without the static default among them, go to the most recent choice: %s then %s at one instant is the latter\'s', async (first, last) => {
    const { call } = await createTestApp()
    // The first option, Redis, is the static default, and is not among the tied.
    await record(call, choices(QUEUE, [[first, 3], [last, 3]]))
    const { body } = await call('POST', '/v1/recommendations', QUEUE)
    expect(body.options.find((o: { option: string }) => o.option === first).share).toBe(0.5)
    expect(body.recommended).toBe(last)
    // The layers break the tie alike.
    expect(body.layers.long_term.majority).toBe(last)
  })

  it('without the static default among them, go to the most recent choice in a replay as of then and in the preferences too', async () => {
    const { call, clock } = await createTestApp()
    await record(call, choices(QUEUE, [['Kafka', 3], ['SQS', 3]]))
    clock.advance(DAY)
    await record(call, choices(QUEUE, [['Kafka', 5]], { timestamp: clock.now().toISOString() }))
    const replay = (await call('POST', '/v1/recommendations', { ...QUEUE, as_of: START })).body
    expect(replay).toMatchObject({ recommended: 'SQS', observations: 6 })
    const preferences = (await call('GET', `/v1/users/default/preferences?as_of=${START}`)).body
    expect(JSON.stringify(preferences)).toContain('"majority":"SQS"')
  })

  it('without the static default among them, go to the most recent choice sent in a later request', async () => {
    const { call } = await createTestApp()
    await record(call, choices(QUEUE, [['SQS', 2], ['Kafka', 2]]))
    await record(call, choices(QUEUE, [['SQS', 1], ['Kafka', 1]]))
    await record(call, choices(QUEUE, [['Kafka', 1]]))
    await record(call, choices(QUEUE, [['SQS', 1]]))
    expect((await call('POST', '/v1/recommendations', QUEUE)).body.recommended).toBe('SQS')
  })
})

describe('R-REC-4: the seed\'s worked examples at one instant', () => {
  it('DDD 4 / TDD 5 / Other 1 recommends TDD, partial, medium, 50%', async () => {
    const { call } = await createTestApp()
    const method = { question: 'TDD or DDD for this change?', header: 'Method', all_options: ['DDD', 'TDD'] }
    await record(call, choices(method, [['DDD', 4], ['TDD', 5], ['Something else entirely', 1]]))
    const { body } = await call('POST', '/v1/recommendations', method)
    expect(body).toMatchObject({ recommended: 'TDD', state: 'partial', observations: 10, disclosure: 'based on 50% of recent choices' })
    expect(body.confidence.level).toBe('medium')
    expect(body.options[0]).toMatchObject({ option: 'TDD', label: 'TDD (Recommended)', share: 0.5, count: 5 })
    expect(body.options[0].description).toBe(`Recommended when ${body.precondition} — based on 50% of recent choices`)
  })
})

describe('R-REC-5: the precondition', () => {
  it('names the context value at least 80% of the supporting observations share, and the description reads "Recommended when …"', async () => {
    const { call } = await createTestApp()
    await record(call, [
      ...choices(TIER, [['Tier M', 5]], { context: { phase: 'run', workflow: '/moai run' } }),
      ...choices(TIER, [['Tier M', 1]], { context: { phase: 'plan', workflow: '/moai run' } }),
      ...choices(TIER, [['Tier S', 2]], { context: { phase: 'plan' } }),
    ])
    const { body } = await call('POST', '/v1/recommendations', TIER)
    expect(body.recommended).toBe('Tier M')
    // 6 of 6 Tier M choices were in workflow /moai run; 5 of 6 (83%) in phase run.
    expect(body.precondition).toContain('workflow is /moai run')
    expect(body.precondition).toContain('phase is run')
    expect(body.options[0].description).toBe(`Recommended when ${body.precondition} — ${body.disclosure}`)
    expect(body.conditions.window).toBeTruthy()
  })

  it('a request whose context contradicts it lowers the confidence and says why', async () => {
    const { call } = await createTestApp()
    await record(call, choices(TIER, [['Tier L', 8]], { context: { phase: 'run' } }))
    const agreeing = (await call('POST', '/v1/recommendations', { ...TIER, context: { phase: 'run' } })).body
    const contradicting = (await call('POST', '/v1/recommendations', { ...TIER, context: { phase: 'plan' } })).body
    expect(agreeing.precondition).toBe('phase is run')
    expect(agreeing.contradictions).toEqual([])
    expect(contradicting.recommended).toBe('Tier L')
    expect(contradicting.contradictions.length).toBeGreaterThan(0)
    expect(contradicting.confidence.value).toBeLessThan(agreeing.confidence.value)
    expect(contradicting.confidence.lowered_because).toMatch(/phase is plan, not run/)
  })

  it('a static default\'s precondition comes from the policy', async () => {
    const { call, policy } = await createTestApp()
    const tier = (await call('POST', '/v1/recommendations', TIER)).body
    expect(tier.precondition).toMatch(/moderate scope/)
    const queue = (await call('POST', '/v1/recommendations', QUEUE)).body
    expect(queue.precondition).toBe(policy.default_precondition)
    expect(queue.options[0].description).toBe(`Recommended when ${policy.default_precondition} — based on static default, 5 observations needed for personalization`)
  })
})

describe('R-REC-6: strength by expertise, never above what the evidence allows', () => {
  it.each([
    [9, 'beginner', 'strong'],
    [10, 'intermediate', 'medium'],
    [50, 'intermediate', 'medium'],
    [51, 'expert', 'weak'],
  ])('%i sessions: %s, %s', async (sessions, level, strength) => {
    const { call } = await createTestApp()
    await startSessions(call, sessions)
    await record(call, choices(TIER, [['Tier S', 3], ['Tier M', 6], ['Tier L', 1]]))
    const { body } = await call('POST', '/v1/recommendations', { ...TIER, session_id: 'audit-s-0' })
    expect(body.expertise).toEqual({ sessions, level })
    expect(body.strength).toBe(strength)
    expect(body.options.map((o: { option: string }) => o.option)).toEqual(['Tier M', 'Tier S', 'Tier L'])
    expect(labels(body)).toEqual(
      strength === 'weak' ? ['Tier M (60% of recent choices)', 'Tier S', 'Tier L'] : ['Tier M (Recommended)', 'Tier S', 'Tier L'],
    )
  })

  it('a beginner gets at most medium where the majority is held with low confidence', async () => {
    const { call } = await createTestApp()
    await record(call, choices(QUEUE, [['SQS', 3], ['Kafka', 2], ['Redis', 2]]))
    const { body } = await call('POST', '/v1/recommendations', QUEUE)
    expect(body.expertise.level).toBe('beginner')
    expect(body.confidence.level).toBe('low')
    expect(body.strength).toBe('medium')
  })

  it('is neutral, options as offered and unlabelled, at a sensitive point and with personalization off', async () => {
    const { call } = await createTestApp()
    const sensitive = { question: 'How do we handle this security incident?', all_options: ['Page on-call', 'Wait', 'Ignore'] }
    await record(call, choices(sensitive, [['Ignore', 25]]))
    const s = (await call('POST', '/v1/recommendations', sensitive)).body
    expect(s.strength).toBe('neutral')
    expect(labels(s)).toEqual(['Page on-call', 'Wait', 'Ignore'])
    expect(s.ask).toBe(true)

    await record(call, choices(TIER, [['Tier L', 25]]))
    expect((await call('PUT', '/v1/sessions/audit-off/personalization', { enabled: false })).status).toBeLessThan(300)
    const off = (await call('POST', '/v1/recommendations', { ...TIER, session_id: 'audit-off' })).body
    expect(off).toMatchObject({ state: 'personalization-off', strength: 'neutral', recommended: 'Tier M', ask: true })
    expect(labels(off)).toEqual(['Tier S', 'Tier M', 'Tier L'])
  })
})

describe('R-REC-7: context backoff exactly at N', () => {
  it.each([
    [4, 'Tier S', null],
    [5, 'Tier L', 'phase'],
  ])('%i choices in the request\'s phase, unlike the 15 others, recommend %s (context_key %s)', async (matching, recommended, key) => {
    const { call } = await createTestApp()
    await record(call, [...choices(TIER, [['Tier L', matching]], { context: { phase: 'plan' } }), ...choices(TIER, [['Tier S', 15]], { context: { phase: 'run' } })])
    const { body } = await call('POST', '/v1/recommendations', { ...TIER, context: { phase: 'plan' } })
    expect(body.recommended).toBe(recommended)
    expect(body.context_key).toBe(key)
    if (key !== null) {
      expect(body.observations).toBe(matching)
      expect(body.precondition).toContain('phase is plan')
      expect(body.context_test).toMatchObject({ key: 'phase', value: 'plan', matching, others: 15 })
      expect(body.context_test.p_value).toBeLessThan(0.05)
    }
  })

  it('counts every observation when the context makes no difference', async () => {
    const { call } = await createTestApp()
    await record(call, [...choices(TIER, [['Tier L', 4], ['Tier S', 2]], { context: { phase: 'plan' } }), ...choices(TIER, [['Tier L', 8], ['Tier S', 4]], { context: { phase: 'run' } })])
    const { body } = await call('POST', '/v1/recommendations', { ...TIER, context: { phase: 'plan' } })
    expect(body).toMatchObject({ recommended: 'Tier L', observations: 18, context_key: null })
  })
})

describe('R-REC-8: multi-select', () => {
  it('recommends the set of options selected at a rate of at least 0.5, each with its rate and confidence', async () => {
    const { call } = await createTestApp()
    const checks = { question: 'Which checks should run before the PR?', header: 'Checks', all_options: ['Lint', 'Unit tests', 'E2E', 'Typecheck'] }
    await record(call, choices(checks, [[['Lint', 'Unit tests'], 5], [['Lint'], 3], [['Lint', 'E2E'], 2]]))
    const { body } = await call('POST', '/v1/recommendations', checks)
    expect(body.multi_select).toBe(true)
    expect(body.recommended).toEqual(['Lint', 'Unit tests'])
    const byOption = new Map(body.options.map((o: { option: string }) => [o.option, o]))
    expect(byOption.get('Lint')).toMatchObject({ rate: 1, recommended: true })
    expect(byOption.get('Unit tests')).toMatchObject({ rate: 0.5, recommended: true })
    expect(byOption.get('E2E')).toMatchObject({ rate: 0.2, recommended: false })
    for (const o of body.options) expect(o.confidence).toBeGreaterThan(0)
    expect(labels(body).slice(0, 2)).toEqual(['Lint (Recommended)', 'Unit tests (Recommended)'])
  })
})

describe('R-REC-9: as_of', () => {
  async function history() {
    const app = await createTestApp({ now: '2026-07-20T10:00:00.000Z' })
    await record(app.call, [
      ...choices(TIER, [['Tier L', 6]], { timestamp: '2026-07-01T10:00:00.000Z' }),
      ...choices(TIER, [['Tier S', 6]], { timestamp: '2026-07-10T10:00:00.000Z' }),
    ])
    return app
  }

  it('before the first observation: nothing counted, the static default', async () => {
    const { call } = await history()
    const { body } = await call('POST', '/v1/recommendations', { ...TIER, as_of: '2026-06-30T10:00:00Z' })
    expect(body).toMatchObject({ state: 'static-default', recommended: 'Tier M', observations: 0, needed: 5, as_of: '2026-06-30T10:00:00.000Z' })
  })

  it('between: only what came before, aged from as_of', async () => {
    const { call } = await history()
    const { body } = await call('POST', '/v1/recommendations', { ...TIER, as_of: '2026-07-05T10:00:00Z' })
    expect(body).toMatchObject({ state: 'partial', recommended: 'Tier L', observations: 6 })
    // Both halves at as_of 2026-07-13: Tier L aged 12 days, Tier S aged 3: shares 1/√13 against 1/√4.
    const later = (await call('POST', '/v1/recommendations', { ...TIER, as_of: '2026-07-13T10:00:00Z' })).body
    const [l, s] = [1 / Math.sqrt(13), 1 / Math.sqrt(4)]
    expect(later.recommended).toBe('Tier S')
    expect(later.options[0].share).toBeCloseTo(s / (l + s), 3)
  })

  it('after the last observation ages from as_of, not from now', async () => {
    const { call } = await history()
    const now = (await call('POST', '/v1/recommendations', TIER)).body
    const earlier = (await call('POST', '/v1/recommendations', { ...TIER, as_of: '2026-07-11T10:00:00Z' })).body
    const [l, s] = [1 / Math.sqrt(11), 1 / Math.sqrt(2)]
    expect(earlier.options[0]).toMatchObject({ option: 'Tier S' })
    expect(earlier.options[0].share).toBeCloseTo(s / (l + s), 3)
    expect(now.options[0].share).toBeCloseTo(1 / Math.sqrt(11) / (1 / Math.sqrt(20) + 1 / Math.sqrt(11)), 3)
  })

  it('far in the future is refused naming as_of (README: what is not known yet is not answered)', async () => {
    const { call } = await history()
    const { status, body } = await call('POST', '/v1/recommendations', { ...TIER, as_of: '2026-08-20T10:00:00Z' })
    expect(status).toBe(400)
    expect(body.error.issues[0].path).toBe('as_of')
  })
})

describe('R-MEM-2: power-law decay on continuous age', () => {
  it('weighs an observation of age a days (a + 1)^-0.5', async () => {
    const { call, clock } = await createTestApp()
    await record(call, [
      ...choices(QUEUE, [['SQS', 1]], { timestamp: new Date(Date.parse(START) - 3 * DAY).toISOString() }),
      ...choices(QUEUE, [['Kafka', 1]], { timestamp: new Date(Date.parse(START) - 0.5 * DAY).toISOString() }),
    ])
    clock.set(START)
    const { body } = await call('POST', '/v1/recommendations', QUEUE)
    const [sqs, kafka] = [1 / Math.sqrt(4), 1 / Math.sqrt(1.5)]
    const share = new Map(body.options.map((o: { option: string; share: number }) => [o.option, o.share]))
    expect(share.get('SQS')).toBeCloseTo(sqs / (sqs + kafka), 4)
    expect(share.get('Kafka')).toBeCloseTo(kafka / (sqs + kafka), 4)
  })
})

describe('R-MEM-5: the three layers, always reported', () => {
  it('session, recent (the last 3 sessions of the project) and long_term', async () => {
    const { call, clock } = await createTestApp()
    const project = { project: 'acme/api' }
    // Four sessions, a day apart: s-1 chose Tier S, s-2..s-4 chose Tier L; the long term is Tier S.
    await record(call, choices(TIER, [['Tier S', 12]], { ...project, session_id: 's-1', timestamp: '2026-06-26T10:00:00Z' }))
    await record(call, choices(TIER, [['Tier L', 1]], { ...project, session_id: 's-2', timestamp: '2026-06-28T10:00:00Z' }))
    await record(call, choices(TIER, [['Tier L', 1]], { ...project, session_id: 's-3', timestamp: '2026-06-29T10:00:00Z' }))
    await record(call, choices(TIER, [['Tier L', 2]], { ...project, session_id: 's-4', timestamp: '2026-06-30T10:00:00Z' }))
    clock.set(START)
    const { body } = await call('POST', '/v1/recommendations', { ...TIER, ...project, session_id: 's-4' })
    expect(body.layers.session).toMatchObject({ observations: 2, majority: 'Tier L' })
    expect(body.layers.recent).toMatchObject({ observations: 4, majority: 'Tier L', sessions: ['s-4', 's-3', 's-2'] })
    expect(body.layers.long_term).toMatchObject({ observations: 16, majority: 'Tier S' })
    expect(body.layers.change_suspected).toBe(true)
  })

  it.each([
    ['static-default', false],
    ['personalization-off', true],
  ])('are reported in the %s state too', async (state, off) => {
    const { call } = await createTestApp()
    await record(call, choices(TIER, [['Tier L', off ? 6 : 2]], { session_id: 'audit-x' }))
    if (off) await call('PUT', '/v1/sessions/audit-x/personalization', { enabled: false })
    const { body } = await call('POST', '/v1/recommendations', { ...TIER, session_id: 'audit-x' })
    expect(body.state).toBe(state)
    for (const layer of ['session', 'recent', 'long_term']) expect(body.layers[layer]).toMatchObject({ majority: 'Tier L' })
  })
})

describe('R-MEM-6: project backoff', () => {
  it.each([
    [4, 'all-projects', 'Tier L', 14],
    [5, 'project', 'Tier S', 5],
  ])('a project with %i observations of its own: scope %s, %s from %i', async (own, scope, recommended, observations) => {
    const { call } = await createTestApp()
    await record(call, [...choices(TIER, [['Tier L', 10]], { project: 'other' }), ...choices(TIER, [['Tier S', own]], { project: 'mine' })])
    const { body } = await call('POST', '/v1/recommendations', { ...TIER, project: 'mine' })
    expect(body).toMatchObject({ scope, recommended, observations })
    if (scope === 'all-projects') expect(body.disclosure).toMatch(/across all your projects$/)
    else expect(body.disclosure).not.toMatch(/project/)
  })
})

describe('R-ASK-1 and R-ASK-2: p, information, entropy, ask', () => {
  it('p is the smoothed predicted probability of the recommended option, information p(1 - p), with the entropy of the prediction', async () => {
    const { call } = await createTestApp()
    await record(call, choices(TIER, [['Tier S', 3], ['Tier M', 6], ['Tier L', 1]]))
    const { body } = await call('POST', '/v1/recommendations', TIER)
    // Half a pseudo-count per option (confidence.predictive_prior): (6 + ½) / (10 + 3/2).
    const predicted = [3.5, 6.5, 1.5].map((w) => w / 11.5)
    expect(body.p).toBeCloseTo(6.5 / 11.5, 4)
    expect(body.information).toBeCloseTo(body.p * (1 - body.p), 4)
    expect(body.entropy).toBeCloseTo(-predicted.reduce((h, q) => h + q * Math.log2(q), 0), 3)
  })

  it('ask is false only when sufficient with p >= 0.9, and true at n = M, at a sensitive point, or with personalization off', async () => {
    const { call } = await createTestApp()
    await record(call, choices(TIER, [['Tier L', 20]]))
    const twenty = (await call('POST', '/v1/recommendations', TIER)).body
    expect(twenty).toMatchObject({ state: 'partial', ask: true })
    expect(twenty.p).toBeGreaterThanOrEqual(0.9)
    await record(call, choices(TIER, [['Tier L', 1]]))
    const sufficient = (await call('POST', '/v1/recommendations', TIER)).body
    expect(sufficient).toMatchObject({ state: 'sufficient', ask: false, recommended: 'Tier L' })
    await call('PUT', '/v1/sessions/audit-off/personalization', { enabled: false })
    expect((await call('POST', '/v1/recommendations', { ...TIER, session_id: 'audit-off' })).body.ask).toBe(true)
  })

  it('asks where sufficient evidence leaves p below 0.9', async () => {
    const { call } = await createTestApp()
    await record(call, choices(TIER, [['Tier L', 40], ['Tier S', 6]]))
    const { body } = await call('POST', '/v1/recommendations', TIER)
    expect(body.state).toBe('sufficient')
    expect(body.p).toBeLessThan(0.9)
    expect(body.ask).toBe(true)
  })
})

describe('R-ASK-3: the plan', () => {
  const question = (text: string, header: string, options: string[]) => ({
    question: text,
    header,
    options: options.map((label) => ({ label, description: `about ${label}` })),
    multiSelect: false,
  })

  it('orders by information, labels per strength, answers the auto-resolved and passes the rest to AskUserQuestion', async () => {
    const { call } = await createTestApp()
    await startSessions(call, 51)
    await record(call, choices(TIER, [['Tier L', 25]]))
    await record(call, choices({ question: 'TDD or DDD for this change?', header: 'Method', all_options: ['TDD', 'DDD'] }, [['DDD', 4], ['TDD', 3]]))
    const { status, body } = await call('POST', '/v1/plan', {
      session_id: 'audit-s-0',
      questions: [
        question('Which complexity tier should this SPEC use?', 'Tier', ['Tier S', 'Tier M', 'Tier L']),
        question('Which database should we use?', 'DB', ['Postgres', 'MySQL', 'SQLite', 'Mongo']),
        question('TDD or DDD for this change?', 'Method', ['TDD', 'DDD']),
      ],
    })
    expect(status).toBe(200)
    const information = body.questions.map((q: { recommendation: { information: number } }) => q.recommendation.information)
    expect(information).toEqual([...information].sort((a: number, b: number) => b - a))
    expect(body.questions.map((q: { ask_user_question: { question: string } }) => q.ask_user_question.question)).toEqual([
      'TDD or DDD for this change?',
      'Which database should we use?',
      'Which complexity tier should this SPEC use?',
    ])
    // An expert: no label, the recommended option first annotated with its share.
    expect(body.questions[0].ask_user_question.options.map((o: { label: string }) => o.label)).toEqual(['DDD (57% of recent choices)', 'TDD'])
    expect(body.questions[2]).toMatchObject({ ask: false, answer: 'Tier L (100% of recent choices)' })
    expect(body.answers).toEqual({ 'Which complexity tier should this SPEC use?': 'Tier L (100% of recent choices)' })
    expect(body.ask_user_question_input.questions.map((q: { question: string }) => q.question)).toEqual([
      'TDD or DDD for this change?',
      'Which database should we use?',
    ])
  })
})

describe('R-ASK-4: the PreToolUse hook on a real Claude Code payload', () => {
  const payload = JSON.parse(readFileSync(new URL('../../test/fixtures/claude-code/pre-tool-use.json', import.meta.url), 'utf8'))
  const hook = (call: Call, body: unknown) => call('POST', '/v1/hooks/claude-code', body)

  it('allows with the answers when every question auto-resolves, and changes nothing with personalization off', async () => {
    const { call } = await createTestApp()
    await record(call, choices(TIER, [['Tier L', 25]], { project: payload.cwd }))
    const { status, body } = await hook(call, payload)
    expect(status).toBe(200)
    const out = body.hookSpecificOutput
    expect(out).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'allow' })
    expect(out.updatedInput.questions[0].options.map((o: { label: string }) => o.label)).toEqual(['Tier L (Recommended)', 'Tier S', 'Tier M'])
    expect(out.updatedInput.answers).toEqual({ 'Which complexity tier should this SPEC use?': 'Tier L (Recommended)' })

    await call('PUT', `/v1/sessions/${payload.session_id}/personalization`, { enabled: false })
    const off = await hook(call, { ...payload, tool_use_id: 'toolu_audit_off' })
    expect(off.status).toBe(200)
    expect(off.body).toEqual({})
  })

  it('re-orders and labels a question it cannot answer yet, and answers none', async () => {
    const { call } = await createTestApp()
    await record(call, choices(TIER, [['Tier L', 6]], { project: payload.cwd }))
    const out = (await hook(call, payload)).body.hookSpecificOutput
    expect(out.updatedInput.questions[0].options.map((o: { label: string }) => o.label)).toEqual(['Tier L (Recommended)', 'Tier S', 'Tier M'])
    expect(out.updatedInput.answers).toBeUndefined()
    // README "What the PreToolUse answer does": `ask`, not R-ASK-4's `allow`, so that Claude Code shows its picker.
    expect(out.permissionDecision).toBe('ask')
  })
})

describe('R-CAP-5 and R-ASK-4: learnt from the captured PostToolUse, answered at the next PreToolUse', () => {
  const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../test/fixtures/claude-code/${name}.json`, import.meta.url), 'utf8'))

  it('21 answers of the two-question payload auto-resolve both the next time, and the copy of its own answers counts nothing', async () => {
    const { call, clock } = await createTestApp()
    const post = fixture('post-tool-use-multi')
    for (let i = 0; i < 21; i++) {
      clock.advance(60_000)
      const { status, body } = await call('POST', '/v1/hooks/claude-code', { ...post, tool_use_id: `toolu_audit_${i}`, session_id: `audit-${i % 4}` })
      expect(status).toBe(200)
      expect(body).toEqual({})
    }
    const pre = { ...fixture('pre-tool-use'), tool_input: { questions: post.tool_input.questions }, tool_use_id: 'toolu_audit_pre' }
    const out = (await call('POST', '/v1/hooks/claude-code', pre)).body.hookSpecificOutput
    expect(out.permissionDecision).toBe('allow')
    expect(Object.keys(out.updatedInput.answers).sort()).toEqual(['Which checks should run before the PR?', 'Which development methodology for this change?'])
    expect(out.updatedInput.answers['Which development methodology for this change?']).toBe('TDD (Recommended)')
    // Ordered by information: the multi-select set (p 0.93) is less sure than TDD (p 0.98).
    expect(out.updatedInput.questions.map((q: { question: string }) => q.question)).toEqual([
      'Which checks should run before the PR?',
      'Which development methodology for this change?',
    ])

    const answered = { ...post, tool_use_id: 'toolu_audit_pre', tool_input: out.updatedInput, tool_response: { ...post.tool_response, answers: out.updatedInput.answers } }
    expect((await call('POST', '/v1/hooks/claude-code', answered)).status).toBe(200)
    const method = { question: 'Which development methodology for this change?', header: 'Method', all_options: ['TDD', 'DDD'], project: post.cwd }
    expect((await call('POST', '/v1/recommendations', method)).body).toMatchObject({ observations: 21, recommended: 'TDD', state: 'sufficient' })
  })
})

describe('R-SES: sessions and expertise', () => {
  it('starts a session with the answer R-SES-1 names, and a session id first seen in an observation starts one too', async () => {
    const { call } = await createTestApp()
    const started = await call('POST', '/v1/sessions', { user: 'alice', project: 'acme/api' })
    expect(started.status).toBe(201)
    expect(started.body).toMatchObject({ user: 'alice', project: 'acme/api', personalization: true, expertise: { sessions: 1, level: 'beginner' } })
    expect(typeof started.body.session_id).toBe('string')
    await record(call, choices(TIER, [['Tier L', 1]], { user: 'alice', session_id: 'implicit-1' }))
    const again = await call('POST', '/v1/sessions', { user: 'alice', session_id: 'implicit-1' })
    expect(again.status).toBe(200)
    expect(again.body.expertise.sessions).toBe(2)
  })

  it('a toggle holds for its session only; flipping without a body turns it back on', async () => {
    const { call } = await createTestApp()
    await record(call, choices(TIER, [['Tier L', 6]]))
    expect((await call('PUT', '/v1/sessions/a/personalization', { enabled: false })).body.personalization).toBe(false)
    expect((await call('POST', '/v1/recommendations', { ...TIER, session_id: 'a' })).body.state).toBe('personalization-off')
    expect((await call('POST', '/v1/recommendations', { ...TIER, session_id: 'b' })).body.state).toBe('partial')
    expect((await call('PUT', '/v1/sessions/a/personalization')).body.personalization).toBe(true)
    expect((await call('POST', '/v1/recommendations', { ...TIER, session_id: 'a' })).body.state).toBe('partial')
  })
})
