import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { DEFAULT_POLICY_FILE, parsePolicy } from '../config/load-policy'
import { REQUIRED_TIER_L } from '../../test/support/decision-record'
import { createTestApp, START } from '../../test/support/test-app'
import { splitPosterior } from '../domain/confidence'
import { REMEMBERED_BODIES, type ValidBodies, validBodies } from './recommendations'

const TIER = {
  question: 'Which complexity tier should this SPEC use?',
  header: 'Tier',
  all_options: ['Tier S', 'Tier M', 'Tier L'],
}

function choices(spec: Record<string, number>, base: Record<string, unknown>) {
  const out: Array<Record<string, unknown>> = []
  let i = 0
  for (const [choice, count] of Object.entries(spec)) {
    for (let k = 0; k < count; k++) out.push({ ...base, user_choice: choice, decision_id: `d-${i++}`, timestamp: START })
  }
  return out
}

describe('POST /v1/recommendations: the seed worked examples (R-REC-4)', () => {
  it('Tier S 3 / Tier M 6 / Tier L 1 gives Tier M, partial, medium-high, 60%', async () => {
    const { call } = await createTestApp()
    const posted = await call('POST', '/v1/observations', choices({ 'Tier S': 3, 'Tier M': 6, 'Tier L': 1 }, TIER))
    expect(posted.status).toBe(201)
    expect(posted.body.stored).toHaveLength(10)
    const { status, body } = await call('POST', '/v1/recommendations', TIER)
    expect(status).toBe(200)
    expect(body.recommended).toBe('Tier M')
    expect(body.state).toBe('partial')
    expect(body.confidence.level).toBe('medium-high')
    expect(body.confidence.value).toBeCloseTo(0.81, 2)
    expect(body.options[0].share).toBe(0.6)
    expect(body.options[0].label).toBe('Tier M (Recommended)')
    expect(body.disclosure).toBe('based on 60% of recent choices')
    expect(body.observations).toBe(10)
    expect(body.effective_observations).toBe(10)
    expect(body.needed).toBe(0)
  })

  it('the worked example in the seed\'s own record shape (a spec_id each, three sessions, a project) gives the same answer', async () => {
    const { call } = await createTestApp()
    const picks = ['Tier S', 'Tier M', 'Tier M', 'Tier S', 'Tier M', 'Tier L', 'Tier M', 'Tier S', 'Tier M', 'Tier M']
    const records = picks.map((choice, i) => ({
      ...TIER,
      decision_id: `moai-ask-${String(i + 1).padStart(3, '0')}`,
      timestamp: START,
      user_choice: i === 1 ? `${choice} (Recommended)` : choice,
      context: { spec_id: `SPEC-XXX-${String(i + 1).padStart(3, '0')}`, phase: 'run', workflow: '/moai run' },
      user: 'alice',
      project: 'acme/api',
      session_id: `s-${(i % 3) + 1}`,
    }))
    expect((await call('POST', '/v1/observations', records)).status).toBe(201)
    const { body } = await call('POST', '/v1/recommendations', {
      ...TIER,
      user: 'alice',
      project: 'acme/api',
      session_id: 's-3',
      context: { spec_id: 'SPEC-XXX-011', phase: 'run', workflow: '/moai run' },
    })
    expect(body).toMatchObject({
      recommended: 'Tier M',
      state: 'partial',
      observations: 10,
      effective_observations: 10,
      needed: 0,
      disclosure: 'based on 60% of recent choices',
      scope: 'project',
      expertise: { sessions: 3, level: 'beginner' },
      strength: 'strong',
    })
    expect(body.confidence.level).toBe('medium-high')
    expect(body.confidence.value).toBeCloseTo(0.81, 2)
    expect(body.options[0]).toMatchObject({ option: 'Tier M', label: 'Tier M (Recommended)', share: 0.6, count: 6 })
    expect(body.precondition).toContain('phase is run')
    expect(body.options[0].description).toBe(`Recommended when ${body.precondition} — based on 60% of recent choices`)
  })

  it('DDD 4 / TDD 5 / Other 1 gives TDD at medium', async () => {
    const { call } = await createTestApp()
    const base = { question: 'Which development methodology?', all_options: ['DDD', 'TDD', 'Other'] }
    await call('POST', '/v1/observations', choices({ DDD: 4, TDD: 5, Other: 1 }, base))
    const { body } = await call('POST', '/v1/recommendations', base)
    expect(body.recommended).toBe('TDD')
    expect(body.confidence.level).toBe('medium')
    expect(body.options[0].label).toBe('TDD (Recommended)')
  })

  it('free text counts as other and still gives TDD at medium', async () => {
    const { call } = await createTestApp()
    const base = { question: 'TDD or DDD for the billing module?', all_options: ['DDD', 'TDD'] }
    await call('POST', '/v1/observations', choices({ DDD: 4, TDD: 5, 'something else entirely': 1 }, base))
    const { body } = await call('POST', '/v1/recommendations', base)
    expect(body.recommended).toBe('TDD')
    expect(body.confidence.level).toBe('medium')
    expect(body.observations).toBe(10)
  })

  it('no observations give the static default, disclosed', async () => {
    const { call } = await createTestApp()
    const { body } = await call('POST', '/v1/recommendations', TIER)
    expect(body.state).toBe('static-default')
    expect(body.recommended).toBe('Tier M')
    expect(body.options[0].label).toBe('Tier M (Recommended)')
    expect(body.disclosure).toBe('based on static default, 5 observations needed for personalization')
    expect(body.needed).toBe(5)
    expect(body.precondition).not.toBe('')
  })

  it('options none of which was ever chosen at the point give the static default, said as such, not "0% of recent choices"', async () => {
    const { call } = await createTestApp()
    // The policy point matches by header: the agent now offers reworded tiers.
    await call('POST', '/v1/observations', choices({ 'Tier S': 4, 'Tier L': 2 }, TIER))
    const reworded = { ...TIER, all_options: ['Small', 'Medium', 'Large'] }
    const { body } = await call('POST', '/v1/recommendations', reworded)
    expect(body).toMatchObject({ point: 'complexity-tier', observations: 6, recommended: 'Small' })
    expect(body.disclosure).toBe('based on static default, none of the 6 choices at this point was one of these options')
    // Six choices are history enough: what holds is that none of them was of these options.
    expect(body.precondition).toBe('you have not yet chosen any of these options at this point')
    expect(body.options[0].description).toBe(`Recommended when ${body.precondition} — ${body.disclosure}`)
    const expert = await createTestApp()
    for (let i = 0; i < 51; i++) await expert.call('POST', '/v1/sessions', { session_id: `s-${i}` })
    await expert.call('POST', '/v1/observations', choices({ 'Tier S': 6 }, TIER))
    const weak = (await expert.call('POST', '/v1/recommendations', reworded)).body
    expect(weak.options[0].label).toBe('Small (static default)')
  })
})

describe('the precondition of a static default (R-REC-5)', () => {
  it('says personalization off, not too little history, of a session whose 25 choices are set aside', async () => {
    const { call } = await createTestApp()
    const formatter = { question: 'Which formatter?', all_options: ['Prettier', 'Biome'], user: 'u' }
    await call('POST', '/v1/observations', choices({ Biome: 25 }, formatter))
    expect((await call('PUT', '/v1/sessions/s9/personalization', { enabled: false, user: 'u' })).status).toBe(200)
    for (const extra of [{}, { static_default: 'Biome' }]) {
      const { body } = await call('POST', '/v1/recommendations', { ...formatter, ...extra, session_id: 's9' })
      expect(body).toMatchObject({
        state: 'personalization-off',
        observations: 25,
        precondition: 'your past choices are set aside for this session',
        disclosure: 'based on static default, personalization is off for this session',
      })
    }
  })
})

describe('the precondition of a learned answer (R-REC-5)', () => {
  it('takes a blank context value for no value and a padded one for the value: no "phase is " precondition', async () => {
    const { call } = await createTestApp()
    const blank = choices({ 'Tier M': 6 }, { ...TIER, context: { phase: '', stage: '  ', workflow: ' /moai run ' } })
    await call('POST', '/v1/observations', blank)
    const { body } = await call('POST', '/v1/recommendations', { ...TIER, context: { phase: ' ', workflow: '/moai run' } })
    expect(body).toMatchObject({ state: 'partial', recommended: 'Tier M', contradictions: [] })
    expect(body.precondition).toContain('workflow is /moai run')
    expect(body.precondition).not.toMatch(/phase|stage/)
    expect(body.conditions.context).toEqual([{ key: 'workflow', value: '/moai run', share: 1 }])
  })

  it('of a multi-select set rests on the sets that hold all of it: Unit tests chosen only in run is "phase is run"', async () => {
    const { call } = await createTestApp()
    const checks = { question: 'Which checks should run?', header: 'Checks', all_options: ['Lint', 'Unit tests', 'E2E tests'], multi_select: true }
    // Lint every time; Unit tests with it in the 20 sets of phase run, never in the 4 of plan nor the 4 of review.
    const sets = [
      ...Array.from({ length: 20 }, () => ({ user_choice: ['Lint', 'Unit tests'], context: { phase: 'run' } })),
      ...Array.from({ length: 4 }, () => ({ user_choice: ['Lint'], context: { phase: 'plan' } })),
      ...Array.from({ length: 4 }, () => ({ user_choice: ['Lint'], context: { phase: 'review' } })),
    ]
    await call('POST', '/v1/observations', sets.map((o, i) => ({ ...checks, ...o, decision_id: `m-${i}`, timestamp: START })))
    const plan = (await call('POST', '/v1/recommendations', { ...checks, context: { phase: 'plan' } })).body
    // Too few sets in plan to narrow to them (4 < N): all 28 count, and Lint and Unit tests are selected.
    expect(plan).toMatchObject({ recommended: ['Lint', 'Unit tests'], context_key: null })
    expect(plan.precondition).toBe('phase is run')
    expect(plan.conditions.context).toEqual([{ key: 'phase', value: 'run', share: 1 }])
    expect(plan.contradictions).toEqual([{ key: 'phase', expected: 'run', got: 'plan' }])
    expect(plan.confidence.lowered_because).toMatch(/phase is plan, not run/)
    expect(plan.state).toBe('partial')
    expect(plan.options[0].description).toBe('Recommended when phase is run — each selected in at least 71% of recent choices')
    // Asked in run, nothing is contradicted.
    const run = (await call('POST', '/v1/recommendations', { ...checks, context: { phase: 'run' } })).body
    expect(run).toMatchObject({ precondition: 'phase is run', contradictions: [] })
    // The same choices at a single-select point, Beta where Unit tests was chosen, say the same.
    const single = sets.map((o, i) => ({
      question: 'Which one?',
      all_options: ['Alpha', 'Beta'],
      user_choice: o.user_choice.includes('Unit tests') ? 'Beta' : 'Alpha',
      context: o.context,
      user: 'single',
      decision_id: `s-${i}`,
      timestamp: START,
    }))
    await call('POST', '/v1/observations', single)
    const s = (await call('POST', '/v1/recommendations', { question: 'Which one?', all_options: ['Alpha', 'Beta'], user: 'single', context: { phase: 'plan' } })).body
    expect(s).toMatchObject({ recommended: 'Beta', precondition: 'phase is run', contradictions: [{ key: 'phase', expected: 'run', got: 'plan' }] })
  })

  it('of a multi-select set no choice held whole rests on the sets that hold any of it', async () => {
    const { call } = await createTestApp()
    const checks = { question: 'Which checks should run?', header: 'Checks', all_options: ['Lint', 'Unit tests', 'E2E tests'], multi_select: true }
    // Each option in 2 of 3 sets, never all three in one: all three are selected, no set holds them.
    const pairs = [['Lint', 'Unit tests'], ['Unit tests', 'E2E tests'], ['Lint', 'E2E tests']]
    const sets = Array.from({ length: 9 }, (_, i) => ({ user_choice: pairs[i % 3], context: { phase: 'run' } }))
    await call('POST', '/v1/observations', sets.map((o, i) => ({ ...checks, ...o, decision_id: `m-${i}`, timestamp: START })))
    const { body } = await call('POST', '/v1/recommendations', checks)
    expect(body.recommended).toEqual(['Lint', 'Unit tests', 'E2E tests'])
    expect(body.precondition).toBe('phase is run')
  })

  it('of a multi-select set seldom held whole rests on the sets that hold any of it, not on those few', async () => {
    const { call } = await createTestApp()
    const checks = { question: 'Which checks should run?', header: 'Checks', all_options: ['Lint', 'Unit tests', 'E2E tests'], multi_select: true }
    // 30 sets in phase run, each option in 2 of 3, then all three once, in phase plan: the set of
    // all three is recommended, and the one set that held it whole is no evidence of where it holds.
    const pairs = [['Lint', 'Unit tests'], ['Unit tests', 'E2E tests'], ['Lint', 'E2E tests']]
    const sets = [
      ...Array.from({ length: 30 }, (_, i) => ({ user_choice: pairs[i % 3], context: { phase: 'run' } })),
      { user_choice: ['Lint', 'Unit tests', 'E2E tests'], context: { phase: 'plan' } },
    ]
    await call('POST', '/v1/observations', sets.map((o, i) => ({ ...checks, ...o, decision_id: `m-${i}`, timestamp: START })))
    // Asked with no context, as before the change: 30 of the 31 sets were made in run.
    const { body } = await call('POST', '/v1/recommendations', checks)
    expect(body).toMatchObject({ recommended: ['Lint', 'Unit tests', 'E2E tests'], context_key: null })
    expect(body.precondition).toBe('phase is run')
    expect(body.conditions.context).toEqual([{ key: 'phase', value: 'run', share: 30 / 31 }])
  })
})

describe('sensitive points (R-REC-6, R-ASK-2)', () => {
  it('asks, neutral, a question whose option names a sensitive term, however often the other was chosen', async () => {
    const { call } = await createTestApp()
    const table = { point: 'old-table', question: 'What should the migration do with the old table?', all_options: ['Keep production data', 'Drop it'] }
    await call('POST', '/v1/observations', choices({ 'Drop it': 25 }, table))
    const { body } = await call('POST', '/v1/recommendations', table)
    expect(body).toMatchObject({ sensitive: true, strength: 'neutral', ask: true, ask_reason: 'the point is sensitive: always asked' })
    expect(body.options.map((o: { label: string }) => o.label)).toEqual(['Keep production data', 'Drop it'])
    // Ruling the sensitive option out leaves the question as sensitive: the one option left is not answered for the user.
    const never = {
      ...REQUIRED_TIER_L,
      title: 'Never keep it',
      scope: { points: ['old-table'] },
      constraints: [{ kind: 'must_not', option: 'Keep production data' }],
    }
    expect((await call('POST', '/v1/decisions', never)).status).toBe(201)
    const ruled = (await call('POST', '/v1/recommendations', table)).body
    expect(ruled).toMatchObject({ state: 'enforced', recommended: 'Drop it', sensitive: true, strength: 'neutral', ask: true })
    // An option's description describes: a term there does not make the question sensitive.
    const described = { ...table, question: 'Which model?', point: 'model-2', all_options: [{ label: 'Opus', description: 'best for security reviews' }, 'Sonnet'] }
    await call('POST', '/v1/observations', choices({ Opus: 25 }, described).map((o) => ({ ...o, decision_id: `model-${o.decision_id}` })))
    expect((await call('POST', '/v1/recommendations', described)).body).toMatchObject({ sensitive: false, ask: false })
  })

  it('asks, neutral, a question about vulnerabilities: a term in its plural in -ies is the term', async () => {
    const { call } = await createTestApp()
    const patch = { question: 'Which vulnerabilities should we patch first?', all_options: ['Critical ones', 'All of them'] }
    await call('POST', '/v1/observations', choices({ 'All of them': 25 }, patch))
    const { body } = await call('POST', '/v1/recommendations', patch)
    expect(body).toMatchObject({ sensitive: true, strength: 'neutral', ask: true })
    expect(body.options.map((o: { label: string }) => o.label)).toEqual(['Critical ones', 'All of them'])
  })
})

describe('ask (R-ASK-2)', () => {
  it('asks at a multi-select point where no option is selected at half the rate: an empty set is no answer to auto-resolve to', async () => {
    const { call } = await createTestApp()
    const extras = { question: 'Which extras?', header: 'Extras', all_options: ['A', 'B'], multi_select: true }
    await call(
      'POST',
      '/v1/observations',
      Array.from({ length: 30 }, (_, i) => ({ ...extras, user_choice: ['none of these'], decision_id: `n-${i}`, timestamp: START })),
    )
    const { body } = await call('POST', '/v1/recommendations', extras)
    expect(body).toMatchObject({ state: 'sufficient', recommended: [], ask: true })
    expect(body.p).toBeGreaterThanOrEqual(0.9)
    expect(body.ask_reason).toBe('no option is selected at a rate of at least one half: there is no answer to give')
  })
})

describe('a request context that contradicts the precondition (R-REC-5)', () => {
  it('lowers the confidence of a multi-select set, never raises it, however low the set confidence is', async () => {
    const { call } = await createTestApp()
    const checks = { question: 'Which checks should run?', header: 'Checks', all_options: ['Lint', 'Types', 'Unit', 'E2E'], multi_select: true }
    const picks = [['Lint', 'Types'], ['Lint', 'Unit'], ['Lint', 'Types', 'E2E'], ['Types', 'Unit'], ['Lint'], ['Types', 'E2E'], ['Lint', 'Unit', 'E2E']]
    await call(
      'POST',
      '/v1/observations',
      picks.map((user_choice, i) => ({ ...checks, user_choice, decision_id: `m-${i}`, timestamp: START, context: { phase: 'run' } })),
    )
    const held = (await call('POST', '/v1/recommendations', { ...checks, context: { phase: 'run' } })).body
    const contradicted = (await call('POST', '/v1/recommendations', { ...checks, context: { phase: 'plan' } })).body
    expect(held.precondition).toBe('phase is run')
    expect(held.confidence.value).toBeLessThan(0.5)
    expect(contradicted.confidence.lowered_because).toMatch(/phase is plan, not run/)
    expect(contradicted.confidence.value).toBeLessThan(held.confidence.value)
    // Halfway toward chance: for a set of 4 options, 0.5 ** 4.
    expect(contradicted.confidence.value).toBeCloseTo(0.5 ** 4 + (held.confidence.value - 0.5 ** 4) / 2, 3)
  })
})

describe("the option the agent marked (Recommended) (R-REC-1)", () => {
  it('is the static default of a recommendation, as of the plan of the same question (the MCP tools recommend and plan_questions agree)', async () => {
    const { call } = await createTestApp()
    const options = [
      { label: 'SQLite', description: 'one file' },
      { label: 'PostgreSQL (Recommended)', description: 'joins for billing' },
    ]
    const question = 'Which database engine?'
    const planned = await call('POST', '/v1/plan', { questions: [{ question, header: 'DB', options, multiSelect: false }] })
    expect(planned.body.questions[0].recommendation.recommended).toBe('PostgreSQL')
    const { body } = await call('POST', '/v1/recommendations', { question, header: 'DB', all_options: options })
    expect(body).toMatchObject({ state: 'static-default', recommended: 'PostgreSQL' })
    expect(body.options.map((o: { label: string }) => o.label)).toEqual(['PostgreSQL (Recommended)', 'SQLite'])
    expect(body.precondition).toBe(planned.body.questions[0].recommendation.precondition)
    // Named in the request, a static default wins; two marks, or a multi-select question, name none.
    expect((await call('POST', '/v1/recommendations', { question, all_options: options, static_default: 'SQLite' })).body.recommended).toBe('SQLite')
    const twice = [{ label: 'SQLite (Recommended)' }, { label: 'PostgreSQL (Recommended)' }]
    expect((await call('POST', '/v1/recommendations', { question: 'Which engine, again?', all_options: twice })).body.recommended).toBe('SQLite')
  })

  it('is read as normalizeLabel reads the mark: with spaces inside its parentheses, or the RLM a right-to-left label ends in after it', async () => {
    const { call } = await createTestApp()
    for (const marked of ['PostgreSQL ( Recommended )', 'PostgreSQL (Recommended)\u200f', 'PostgreSQL\u200b (static default)']) {
      const question = `Which database engine for ${marked.length}?`
      const all_options = [{ label: 'SQLite' }, { label: marked }]
      const { body } = await call('POST', '/v1/recommendations', { question, all_options })
      expect(body, marked).toMatchObject({ state: 'static-default', recommended: 'PostgreSQL' })
      const planned = await call('POST', '/v1/plan', { questions: [{ question, header: 'DB', options: all_options, multiSelect: false }] })
      expect(planned.body.questions[0].recommendation.recommended, marked).toBe('PostgreSQL')
    }
  })

  it('is no static default at a point the user\'s choices make multi-select, for a request that does not say, as the plan of the question takes none', async () => {
    const { call } = await createTestApp()
    const question = 'Which checks should run?'
    const chosen = { question, header: 'Checks', all_options: ['Lint', 'Tests', 'Types'], user_choice: ['Lint', 'Tests'], multi_select: true }
    for (let i = 0; i < 2; i++) expect((await call('POST', '/v1/observations', chosen)).status).toBe(201)
    const options = ['Lint', 'Tests (Recommended)', 'Types']
    const planned = await call('POST', '/v1/plan', { questions: [{ question, header: 'Checks', options: options.map((label) => ({ label })), multiSelect: true }] })
    const { body } = await call('POST', '/v1/recommendations', { question, header: 'Checks', all_options: options })
    expect(body).toMatchObject({ state: 'static-default', multi_select: true })
    expect(body.recommended).toEqual(planned.body.questions[0].recommendation.recommended)
  })
})

describe('a policy static default (R-POL, R-REC-1)', () => {
  it("holds at a point the request names that the policy does not, where the policy's rule matches the question (R-REC's example names `tier`)", async () => {
    const { call } = await createTestApp()
    const named = { ...TIER, point: 'tier' }
    const { body } = await call('POST', '/v1/recommendations', named)
    expect(body).toMatchObject({ point: 'tier', state: 'static-default', recommended: 'Tier M' })
    expect(body.precondition).toBe('the change is of typical, moderate scope (the usual default for SPEC work)')
    expect(body.disclosure).toBe('based on static default, 5 observations needed for personalization')
    // Under its own key: what is learned there is the named point's, and a tie goes to the policy's default.
    const tie = ['Tier S', 'Tier M'].map((user_choice, i) => ({ ...named, user_choice, decision_id: `named-${i}`, timestamp: START }))
    expect((await call('POST', '/v1/observations', tie)).status).toBe(201)
    const [point] = (await call('GET', '/v1/users/default/preferences')).body.points
    expect(point).toMatchObject({ point: 'tier', majority: 'Tier M', observations: 2 })
    // A question no rule matches keeps the first option.
    const other = await call('POST', '/v1/recommendations', { point: 'tier', question: 'How big is it?', all_options: ['Tier S', 'Tier M'] })
    expect(other.body.recommended).toBe('Tier S')
  })

  it("always_ask and multi_select hold at a point the request names that the policy does not, where the policy's rule matches", async () => {
    const base = JSON.parse(readFileSync(DEFAULT_POLICY_FILE, 'utf8'))
    const policy = parsePolicy(
      JSON.stringify({
        points: [
          ...base.points.map((p: { key: string }) => (p.key === 'complexity-tier' ? { ...p, always_ask: true } : p)),
          { key: 'checks', match: { header: '^checks$' }, multi_select: true },
        ],
      }),
      'mine.json',
      base,
    )
    const { call } = await createTestApp({ policy })
    await call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, scope: { points: ['tier'] } })
    const enforced = (await call('POST', '/v1/recommendations', { ...TIER, point: 'tier' })).body
    expect(enforced).toMatchObject({ point: 'tier', state: 'enforced', recommended: 'Tier L', ask: true, ask_reason: 'the policy marks this point always_ask' })
    const checks = { point: 'my-checks', header: 'Checks', question: 'Which checks should run?', all_options: ['Lint', 'Test', 'Docs'] }
    expect((await call('POST', '/v1/observations', { ...checks, user_choice: 'Lint, Test' })).status).toBe(201)
    const [learned] = (await call('GET', '/v1/users/default/preferences')).body.points
    expect(learned).toMatchObject({ point: 'my-checks', multi_select: true, selection: ['Lint', 'Test'] })
  })

  it('is matched as a label is: written as an agent writes it, it is still the static default', async () => {
    const policy = parsePolicy(
      JSON.stringify({ points: [{ key: 'tier', match: { header: '^tier$' }, static_default: ' Tier  M (Recommended)', precondition: 'a typical change' }] }),
      'mine.json',
      JSON.parse(readFileSync(DEFAULT_POLICY_FILE, 'utf8')),
    )
    const { call } = await createTestApp({ policy })
    const { body } = await call('POST', '/v1/recommendations', TIER)
    expect(body).toMatchObject({ point: 'tier', state: 'static-default', recommended: 'Tier M', precondition: 'a typical change' })
  })

  it("names the point's default where the question offers it in other words: recommended, preferred in a tie, kept from an advisory decision's fallback", async () => {
    // The seed's own question, as an agent asks it: the tiers without the word Tier, under a header of its own.
    const tiers = { question: 'Tier S, M or L?', header: 'Scope', all_options: ['S', 'M', 'L'] }
    const { call } = await createTestApp()
    const { body } = await call('POST', '/v1/recommendations', tiers)
    expect(body).toMatchObject({ point: 'complexity-tier', state: 'static-default', recommended: 'M' })
    expect(body.precondition).toBe('the change is of typical, moderate scope (the usual default for SPEC work)')
    const model = await call('POST', '/v1/recommendations', { question: 'Which model?', header: 'Model', all_options: ['Opus 4.1', 'Claude Sonnet 4.5', 'Haiku'] })
    expect(model.body).toMatchObject({ point: 'model-selection', recommended: 'Claude Sonnet 4.5' })
    // The preferences break a tie to it, as the recommendation does.
    const tie = ['S', 'M'].map((user_choice, i) => ({ ...tiers, user_choice, decision_id: `tie-${i}`, timestamp: START }))
    expect((await call('POST', '/v1/observations', tie)).status).toBe(201)
    const [point] = (await call('GET', '/v1/users/default/preferences')).body.points
    expect(point).toMatchObject({ point: 'complexity-tier', majority: 'M' })
    // An advisory decision against S, the first option, leaves the point's default, M, as it is: it
    // moved no default (it would claim to have moved S to M), and advises against nothing recommended.
    const app = await createTestApp()
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, enforce: 'advisory', title: 'Avoid S', rationale: 'S skips the review.', constraints: [{ kind: 'must_not', option: 'S' }] })
    const advised = (await app.call('POST', '/v1/recommendations', tiers)).body
    expect(advised).toMatchObject({ state: 'static-default', recommended: 'M', precondition: 'the change is of typical, moderate scope (the usual default for SPEC work)' })
    expect(advised.decisions).toBeUndefined()
  })

  it("does not take the point's default for an option whose other words negate or grade it: High is not Very high, TDD not Skip TDD", async () => {
    const policy = parsePolicy(
      JSON.stringify({ points: [{ key: 'effort', match: { header: '^effort$' }, static_default: 'High', precondition: 'the task is hard' }] }),
      'mine.json',
      JSON.parse(readFileSync(DEFAULT_POLICY_FILE, 'utf8')),
    )
    const { call } = await createTestApp({ policy })
    const effort = { question: 'How much effort?', header: 'Effort' }
    // Not offered: the first option stands in, for the policy's general reason, as for any default not offered.
    const veryFirst = (await call('POST', '/v1/recommendations', { ...effort, all_options: ['Very high', 'Low'] })).body
    expect(veryFirst).toMatchObject({ point: 'effort', state: 'static-default', recommended: 'Very high', precondition: 'there is not yet enough personal history at this point' })
    const lowFirst = (await call('POST', '/v1/recommendations', { ...effort, all_options: ['Low', 'Very high'] })).body
    expect(lowFirst).toMatchObject({ state: 'static-default', recommended: 'Low', precondition: 'there is not yet enough personal history at this point' })
    // Where it is offered, in other words too, it is still the default.
    const offered = (await call('POST', '/v1/recommendations', { ...effort, all_options: ['Low', 'Very high', 'High effort'] })).body
    expect(offered).toMatchObject({ state: 'static-default', recommended: 'High effort', precondition: 'the task is hard' })
    // The default policy's TDD is not the Skip TDD offered beside DDD.
    const methods = (await createTestApp()).call
    const skip = (await methods('POST', '/v1/recommendations', { question: 'Which development methodology?', header: 'Methodology', all_options: ['DDD', 'Skip TDD'] })).body
    expect(skip).toMatchObject({ point: 'development-methodology', recommended: 'DDD', precondition: 'there is not yet enough personal history at this point' })
  })

  it("does not take a request's static default in other words: it names one of all_options, in another case at most", async () => {
    const { call } = await createTestApp()
    const asked = { question: 'Tier S, M or L?', all_options: ['S', 'M', 'L'], static_default: 'Tier M' }
    const { status, body } = await call('POST', '/v1/recommendations', asked)
    expect(status).toBe(400)
    expect(body.error).toMatchObject({ code: 'static_default_not_offered', issues: [{ path: 'static_default' }] })
  })

  it("takes a request's static default in another case as the option offered, as the policy's (R-CAP-3)", async () => {
    const { call } = await createTestApp()
    const asked = { question: 'Which model for this run?', all_options: ['Opus', 'Sonnet', 'Haiku'], static_default: 'sonnet' }
    const { status, body } = await call('POST', '/v1/recommendations', asked)
    expect(status).toBe(200)
    expect(body).toMatchObject({ state: 'static-default', recommended: 'Sonnet' })
    expect((await call('POST', '/v1/recommendations', { ...asked, static_default: 'Gemini' })).body.error.code).toBe('static_default_not_offered')
  })

  it('names an offered option in another case, as a choice does (R-CAP-3): the recommendation and the preferences break a tie to it', async () => {
    const policy = parsePolicy(
      JSON.stringify({ points: [{ key: 'tier', match: { header: '^tier$' }, static_default: 'tier m', precondition: 'a typical change' }] }),
      'mine.json',
      JSON.parse(readFileSync(DEFAULT_POLICY_FILE, 'utf8')),
    )
    const { call } = await createTestApp({ policy })
    const first = await call('POST', '/v1/recommendations', TIER)
    expect(first.body).toMatchObject({ point: 'tier', state: 'static-default', recommended: 'Tier M', precondition: 'a typical change' })
    // One choice each of Tier S and Tier M at one instant: a tie, which goes to the static default (R-REC-2).
    const tie = ['Tier S', 'Tier M'].map((user_choice, i) => ({ ...TIER, user_choice, decision_id: `tie-${i}`, timestamp: START }))
    expect((await call('POST', '/v1/observations', tie)).status).toBe(201)
    const [point] = (await call('GET', '/v1/users/default/preferences')).body.points
    expect(point).toMatchObject({ point: 'tier', majority: 'Tier M' })
  })
})

describe('the bodies remembered valid', () => {
  const request = (user: string) => ({ user, question: 'Which tier?', all_options: ['Tier S', 'Tier M'] })
  const text = (user: string) => JSON.stringify(request(user))
  const remember = (bodies: ValidBodies, user: string, type = 'application/json') => bodies.remember(type, text(user), request(user))

  it('answers a body only under the content type it was remembered with; remembered again under another, the last one holds', () => {
    const bodies = validBodies()
    remember(bodies, 'alice')
    expect(bodies.get('application/json', text('alice'))?.user).toBe('alice')
    expect(bodies.get('application/json; charset=utf-8', text('alice'))).toBeUndefined()
    expect(bodies.get('application/json', text('bob'))).toBeUndefined()
    remember(bodies, 'alice', 'application/json; charset=utf-8')
    expect(bodies.get('application/json; charset=utf-8', text('alice'))?.user).toBe('alice')
    expect(bodies.get('application/json', text('alice'))).toBeUndefined()
  })

  it('keeps at most REMEMBERED_BODIES.count, the one placed longest ago out first, and keeps one used since it drifted into the older half', () => {
    const { count } = REMEMBERED_BODIES
    const unused = validBodies()
    remember(unused, 'first')
    for (let i = 0; i < count; i++) remember(unused, `other-${i}`)
    expect(unused.get('application/json', text('first'))).toBeUndefined()
    expect(unused.get('application/json', text('other-0'))).toBeDefined()

    const used = validBodies()
    remember(used, 'first')
    remember(used, 'second')
    for (let i = 0; i < count / 2; i++) remember(used, `other-${i}`)
    expect(used.get('application/json', text('first'))?.user).toBe('first')
    for (let i = count / 2; i < count / 2 + count - 1; i++) remember(used, `other-${i}`)
    expect(used.get('application/json', text('first'))?.user).toBe('first')
    expect(used.get('application/json', text('second'))).toBeUndefined()
    expect(used.get('application/json', text(`other-${count / 2 - 1}`))).toBeUndefined()
    expect(used.get('application/json', text(`other-${count / 2}`))).toBeDefined()
  })
})

describe('multiSelect, as AskUserQuestion spells it', () => {
  it('is taken for multi_select, and named when it differs from it', async () => {
    const { call } = await createTestApp()
    const question = { question: 'Which checks should run?', all_options: ['lint', 'types', 'tests'] }
    // No history at this question: without either spelling it is single-select.
    expect((await call('POST', '/v1/recommendations', question)).body.multi_select).toBe(false)
    expect((await call('POST', '/v1/recommendations', { ...question, multiSelect: true })).body.multi_select).toBe(true)
    expect((await call('POST', '/v1/recommendations', { ...question, multi_select: true, multiSelect: true })).body.multi_select).toBe(true)
    const both = await call('POST', '/v1/recommendations', { ...question, multi_select: false, multiSelect: true })
    expect(both.status).toBe(400)
    expect(both.body.error.issues).toEqual([{ path: 'multiSelect', message: 'differs from multi_select: give one of the two' }])
  })

  it('refused as different, starts no session: a refused request stores nothing', async () => {
    const { call } = await createTestApp()
    const question = { question: 'Which checks should run?', all_options: ['lint', 'types', 'tests'], session_id: 'sess-refused' }
    expect((await call('POST', '/v1/recommendations', { ...question, multi_select: false, multiSelect: true })).status).toBe(400)
    const exported = await call('GET', '/v1/users/default/export')
    expect(String(exported.body)).not.toContain('sess-refused')
  })
})

describe('multi_select left out of a request (R-REC-8)', () => {
  const CHECKS = { question: 'Which checks should run before merge?', header: 'Checks', all_options: ['Lint', 'Unit tests', 'E2E'] }
  const at = (day: number) => `2026-06-${String(day).padStart(2, '0')}T10:00:00.000Z`

  it("is as the user's latest choice at the point was asked, a set of one at a multi-select question too, as preferences read it", async () => {
    const { call } = await createTestApp()
    const ones = Array.from({ length: 7 }, (_, i) => ({ ...CHECKS, multi_select: true, user_choice: ['Lint'], decision_id: `one-${i}`, timestamp: at(i + 1) }))
    expect((await call('POST', '/v1/observations', ones)).status).toBe(201)
    const [learned] = (await call('GET', '/v1/users/default/preferences')).body.points
    expect(learned).toMatchObject({ multi_select: true, selection: ['Lint'] })
    const asked = (await call('POST', '/v1/recommendations', CHECKS)).body
    expect(asked).toMatchObject({ multi_select: true, recommended: ['Lint'], disclosure: 'each selected in 100% of recent choices' })
    // The same question asked since as single-select: it is read so, and a replay before it as before.
    const single = { ...CHECKS, multi_select: false, user_choice: 'Lint', decision_id: 'single', timestamp: at(8) }
    expect((await call('POST', '/v1/observations', single)).status).toBe(201)
    expect((await call('POST', '/v1/recommendations', CHECKS)).body).toMatchObject({ multi_select: false, recommended: 'Lint' })
    expect((await call('POST', '/v1/recommendations', { ...CHECKS, as_of: at(7) })).body).toMatchObject({ multi_select: true, recommended: ['Lint'] })
    // What the request says still decides.
    expect((await call('POST', '/v1/recommendations', { ...CHECKS, multiSelect: true })).body.multi_select).toBe(true)
    // Forgotten, nothing is known of the point: single-select, as a question new to the user.
    expect((await call('DELETE', '/v1/users/default')).status).toBe(200)
    expect((await call('POST', '/v1/recommendations', { ...CHECKS, as_of: at(7) })).body.multi_select).toBe(false)
    expect((await call('POST', '/v1/recommendations', CHECKS)).body.multi_select).toBe(false)
  })

  it("at a point of the policy that leaves multi_select out, is the user's choices' there; a policy's own false or true decides", async () => {
    const models = { question: 'Which models should review this PR?', header: 'Model', all_options: ['Opus', 'Sonnet', 'Haiku'] }
    const sets = Array.from({ length: 7 }, (_, i) => ({ ...models, multi_select: true, user_choice: ['Opus', 'Sonnet'], decision_id: `set-${i}`, timestamp: at(i + 1) }))
    const { call } = await createTestApp()
    expect((await call('POST', '/v1/observations', sets)).status).toBe(201)
    const [learned] = (await call('GET', '/v1/users/default/preferences')).body.points
    expect(learned).toMatchObject({ point: 'model-selection', multi_select: true, selection: ['Opus', 'Sonnet'] })
    expect((await call('POST', '/v1/recommendations', models)).body).toMatchObject({ point: 'model-selection', multi_select: true, recommended: ['Opus', 'Sonnet'] })
    expect((await call('POST', '/v1/recommendations', { ...models, multi_select: false })).body).toMatchObject({ multi_select: false, recommended: 'Sonnet' })
    const base = JSON.parse(readFileSync(DEFAULT_POLICY_FILE, 'utf8'))
    for (const said of [false, true]) {
      const points = base.points.map((p: { key: string }) => (p.key === 'model-selection' ? { ...p, multi_select: said } : p))
      const app = await createTestApp({ policy: parsePolicy(JSON.stringify({ points }), 'mine.json', base) })
      expect((await app.call('POST', '/v1/observations', sets)).status).toBe(201)
      expect((await app.call('POST', '/v1/recommendations', models)).body.multi_select).toBe(said)
    }
  })

  it("is not read from the service's own answers: a multi-select choice stays the latest past them", async () => {
    const { call } = await createTestApp()
    const ones = Array.from({ length: 6 }, (_, i) => ({ ...CHECKS, multi_select: true, user_choice: ['Lint'], decision_id: `one-${i}`, timestamp: at(i + 1) }))
    const auto = { ...CHECKS, multi_select: false, user_choice: 'Lint', source: 'auto-resolved', decision_id: 'auto', timestamp: at(9) }
    expect((await call('POST', '/v1/observations', [...ones, auto])).status).toBe(201)
    expect((await call('POST', '/v1/recommendations', CHECKS)).body).toMatchObject({ multi_select: true, recommended: ['Lint'] })
  })
})

describe('the dates a precondition names (R-REC-5)', () => {
  it('are UTC days, whatever offset the choices were sent with', async () => {
    const { call } = await createTestApp()
    // 02:00 on 1 July in India is 20:30 on 30 June in UTC; the same moment written three ways.
    const moments = ['2026-07-01T02:00:00+05:30', '2026-06-30T20:30:00Z', '2026-06-30T20:30:00-00:00', '2026-06-30T10:30:00-10:00', '2026-07-01T02:00:00+05:30']
    const posted = await call('POST', '/v1/observations', moments.map((timestamp, i) => ({ ...TIER, user_choice: 'Tier L', decision_id: `utc-${i}`, timestamp })))
    expect(posted.status).toBe(201)
    const { body } = await call('POST', '/v1/recommendations', TIER)
    expect(body.precondition).toBe('your choices of 2026-06-30 still hold')
    expect(body.conditions.window).toEqual({ from: '2026-06-30T20:30:00.000Z', to: '2026-06-30T20:30:00.000Z' })
  })
})

describe('POST /v1/recommendations: a precondition_share of one half or less', () => {
  const policyWithShare = (share: number) =>
    parsePolicy(JSON.stringify({ context: { precondition_share: share } }), 'mine.json', JSON.parse(readFileSync(DEFAULT_POLICY_FILE, 'utf8')))
  const inPhase = (phase: string, count: number, prefix: string) =>
    choices({ 'Tier L': count }, { ...TIER, context: { phase } }).map((o) => ({ ...o, decision_id: `${prefix}-${String(o.decision_id)}` }))

  it('claims one value of a key, the one most supporting choices were made in, and a request in it contradicts nothing', async () => {
    const { call } = await createTestApp({ policy: policyWithShare(0.4) })
    await call('POST', '/v1/observations', [...inPhase('run', 6, 'a'), ...inPhase('plan', 4, 'b')])
    const { body } = await call('POST', '/v1/recommendations', { ...TIER, context: { phase: 'run' } })
    expect(body.precondition).toBe('phase is run')
    expect(body.contradictions).toEqual([])
    expect(body.confidence.lowered_because).toBeUndefined()
  })

  it('claims neither of two values that share the choices alike, and no value none of them was made in', async () => {
    const { call } = await createTestApp({ policy: policyWithShare(0) })
    await call('POST', '/v1/observations', [...inPhase('run', 5, 'a'), ...inPhase('plan', 5, 'b')])
    const { body } = await call('POST', '/v1/recommendations', { ...TIER, context: { phase: 'plan' } })
    expect(body.conditions.context).toEqual([])
    expect(body.precondition).toBe('your choices of 2026-07-01 still hold')
    expect(body.contradictions).toEqual([])
  })
})

describe('confidence on evidence the context backoff split, at a multi-select point (R-REC-3, R-REC-7, R-REC-8)', () => {
  const CHECKS = { question: 'Which checks should run?', header: 'Checks', all_options: ['Lint', 'Unit tests'], multi_select: true }
  /** Lint every time; Unit tests in 10 of 32 sets in phase run and 6 of 8 in phase plan: p ≈ 0.02, as chance makes it. */
  const sets = (phases: readonly string[]) =>
    phases.flatMap((phase) =>
      Array.from({ length: phase === 'run' ? 32 : 8 }, (_, i) => ({
        ...CHECKS,
        user_choice: i < (phase === 'run' ? 10 : 6) ? ['Lint', 'Unit tests'] : ['Lint'],
        decision_id: `${phase}-${i}`,
        timestamp: START,
        context: { phase },
      })),
    )

  it("weighs each option's confidence by how sure the split is, as a single-select answer's is", async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/observations', sets(['run', 'plan']).map((o) => ({ ...o, user: 'split' })))
    await call('POST', '/v1/observations', sets(['plan']).map((o) => ({ ...o, user: 'plan-only' })))
    const r = (await call('POST', '/v1/recommendations', { ...CHECKS, user: 'split', context: { phase: 'plan' } })).body
    expect(r).toMatchObject({ recommended: ['Lint', 'Unit tests'], context_key: 'phase' })
    const real = splitPosterior(r.context_test.p_value * (0.05 / r.context_test.level))
    expect(real).toBeGreaterThan(0.2)
    expect(real).toBeLessThan(0.8)
    const unit = (body: any) => body.options.find((o: any) => o.option === 'Unit tests')
    // On the 8 sets of plan alone, Unit tests is selected at 0.75: P(rate >= 0.5) = 0.91.
    const alone = unit((await call('POST', '/v1/recommendations', { ...CHECKS, user: 'plan-only' })).body)
    expect(alone).toMatchObject({ recommended: true })
    expect(alone.confidence).toBeGreaterThan(0.9)
    // On all 40, at 0.4, it is left out: its P(rate >= 0.5) is 1 less the confidence in leaving it out.
    const whole = unit((await call('POST', '/v1/recommendations', { ...CHECKS, user: 'split' })).body)
    expect(whole).toMatchObject({ recommended: false })
    expect(unit(r).confidence).toBeCloseTo(real * alone.confidence + (1 - real) * (1 - whole.confidence), 3)
    // The set's is still the product of its options', and the method says it was weighed.
    const lint = r.options.find((o: any) => o.option === 'Lint')
    expect(r.confidence.value).toBeCloseTo(lint.confidence * unit(r).confidence, 3)
    expect(r.confidence.level).not.toBe('medium-high')
    expect(r.confidence.method).toContain('weighed by the posterior probability that the split is real')
    // The same choices at a single-select point are weighed alike: Beta chosen where Unit tests was.
    const single = sets(['run', 'plan']).map(({ multi_select: _, ...o }) => ({
      ...o,
      user: 'single',
      question: 'Which one?',
      all_options: ['Alpha', 'Beta'],
      user_choice: (o.user_choice as string[]).includes('Unit tests') ? 'Beta' : 'Alpha',
    }))
    await call('POST', '/v1/observations', single)
    const s = (await call('POST', '/v1/recommendations', { question: 'Which one?', all_options: ['Alpha', 'Beta'], user: 'single', context: { phase: 'plan' } })).body
    expect(s).toMatchObject({ recommended: 'Beta', context_key: 'phase' })
    expect(Math.abs(unit(r).confidence - s.confidence.value)).toBeLessThan(0.05)
  })

  it("says in the document that an option's confidence on split evidence is weighed so", async () => {
    const { call } = await createTestApp()
    const { confidence } = (await call('GET', '/openapi.json')).body.components.schemas.Recommendation.properties.options.items.properties
    expect(confidence.description).toContain('where the change test or the context backoff split the evidence, mixed with the same on the evidence before the split')
  })
})
