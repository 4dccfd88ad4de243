import { MemoryLevel } from 'memory-level'
import { describe, expect, it } from 'vitest'
import { REQUIRED_TIER_L } from '../../test/support/decision-record'
import { claudeCodeFixture } from '../../test/support/fixtures'
import { createTestApp, START } from '../../test/support/test-app'
import { compilePolicy } from '../domain/policy'

const HOUR = 3600_000
const TIER = {
  question: 'Which complexity tier should this SPEC use?',
  header: 'Tier',
  all_options: ['Tier S', 'Tier M', 'Tier L'],
}

type App = Awaited<ReturnType<typeof createTestApp>>

/** `count` choices of `choice` at the Tier point, one an hour up to the clock's now. */
async function choose(app: App, choice: string, count: number, extra: Record<string, unknown> = {}) {
  const now = app.clock.now().getTime()
  const batch = Array.from({ length: count }, (_, i) => ({
    ...TIER,
    ...extra,
    user_choice: choice,
    decision_id: `${choice}-${now}-${i}`,
    timestamp: new Date(now - (count - i) * HOUR).toISOString(),
  }))
  expect((await app.call('POST', '/v1/observations', batch)).status).toBe(201)
}

/** The question of dan's multi-select `checks` point (static default Lint). */
const CHECKS = { user: 'dan', header: 'Checks', question: 'Which checks?', all_options: ['Lint', 'Test', 'E2E'] }

/** An app whose policy adds the multi-select `checks` point. */
async function checksApp(): Promise<App> {
  const base = await createTestApp()
  const policy = compilePolicy({
    ...base.policy,
    points: [...base.policy.points, { key: 'checks', match: { header: '^checks$' }, static_default: 'Lint', precondition: 'the usual checks', multi_select: true, always_ask: false, sensitive: false }],
  })
  return createTestApp({ policy })
}

/** 25 choices of `5` at `question`, one an hour up to START. */
function fivesAt(question: Record<string, unknown>) {
  return Array.from({ length: 25 }, (_, i) => ({
    ...question,
    user_choice: '5',
    decision_id: `five-${i}`,
    timestamp: new Date(Date.parse(START) - (25 - i) * HOUR).toISOString(),
  }))
}

describe('decisions joined with recommendations (R-CON-2)', () => {
  it('a required decision bound to the Tier point makes it enforced, even after 30 observed choices of another tier; revoking it brings the learned one back', async () => {
    const app = await createTestApp()
    await choose(app, 'Tier S', 30)
    const learned = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(learned).toMatchObject({ recommended: 'Tier S', state: 'sufficient', ask: false })

    expect((await app.call('POST', '/v1/decisions', REQUIRED_TIER_L)).status).toBe(201)
    const enforced = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(enforced).toMatchObject({
      point: 'complexity-tier',
      state: 'enforced',
      recommended: 'Tier L',
      ask: false,
      precondition: 'required decision D-001 is in force',
      disclosure: 'required by decision D-001: Billing changes need the design review that only Tier L has.',
      learned: { state: 'sufficient', recommended: 'Tier S' },
      decisions: [{ key: 'D-001', effect: 'enforced', options: ['Tier L'] }],
    })
    expect(enforced.options[0]).toMatchObject({ option: 'Tier L', label: 'Tier L (Recommended)', recommended: true })
    expect(enforced.options.slice(1).map((o: any) => o.label)).toEqual(['Tier S', 'Tier M'])

    // Observed choices never override it.
    app.clock.advance(40 * HOUR)
    await choose(app, 'Tier S', 30)
    expect((await app.call('POST', '/v1/recommendations', TIER)).body).toMatchObject({ state: 'enforced', recommended: 'Tier L' })

    await app.call('POST', '/v1/decisions/D-001/revoke', { reason: 'billing moved to the platform team' })
    const back = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(back).toMatchObject({ state: 'sufficient', recommended: 'Tier S' })
    expect(back.decisions).toBeUndefined()
    expect(back.learned).toBeUndefined()
  })

  it('an enforced point is still asked where the policy always asks', async () => {
    const base = await createTestApp()
    const policy = compilePolicy({
      ...base.policy,
      points: base.policy.points.map((p) => (p.key === 'complexity-tier' ? { ...p, always_ask: true } : p)),
    })
    const app = await createTestApp({ policy })
    await app.call('POST', '/v1/decisions', REQUIRED_TIER_L)
    const rec = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(rec).toMatchObject({ state: 'enforced', recommended: 'Tier L', ask: true, ask_reason: 'the policy marks this point always_ask' })
  })

  it('applies a scoped decision only in its scope, read from the request context', async () => {
    const app = await createTestApp()
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, scope: { points: ['complexity-tier'], task: 'SPEC-BILL-001' } })
    expect((await app.call('POST', '/v1/recommendations', TIER)).body.state).toBe('static-default')
    const inScope = (await app.call('POST', '/v1/recommendations', { ...TIER, context: { task: 'SPEC-BILL-001' } })).body
    expect(inScope).toMatchObject({ state: 'enforced', recommended: 'Tier L', precondition: 'required decision D-001 is in force for task SPEC-BILL-001' })
    const pulse = (await app.call('GET', '/v1/decisions/pulses')).body.decisions[0]
    expect(pulse.by).toEqual({ applicable: 0, recommendation: 1, check: 0 })
  })

  it('an advisory decision is the static default, with its rationale as the precondition, until observed choices outweigh it', async () => {
    const app = await createTestApp()
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, enforce: 'advisory' })
    const thin = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(thin).toMatchObject({
      state: 'static-default',
      recommended: 'Tier L',
      precondition: 'D-001 (advisory): Billing changes need the design review that only Tier L has.',
      disclosure: 'based on advisory decision D-001, 5 observations needed for personalization',
      decisions: [{ key: 'D-001', effect: 'static-default' }],
    })
    expect(thin.options[0].description).toBe(
      'Recommended when D-001 (advisory): Billing changes need the design review that only Tier L has. — based on advisory decision D-001, 5 observations needed for personalization',
    )
    await choose(app, 'Tier S', 10)
    expect((await app.call('POST', '/v1/recommendations', TIER)).body).toMatchObject({
      state: 'partial',
      recommended: 'Tier S',
      decisions: [{ key: 'D-001', effect: 'outweighed' }],
    })
  })

  it('observed choices that agree with an advisory decision are learned: the precondition is theirs, not the decision\'s', async () => {
    const app = await createTestApp()
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, enforce: 'advisory' })
    await choose(app, 'Tier L', 6)
    const learned = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(learned).toMatchObject({
      state: 'partial',
      recommended: 'Tier L',
      disclosure: 'based on 100% of recent choices',
      decisions: [{ key: 'D-001', effect: 'outweighed' }],
    })
    expect(learned.precondition).toMatch(/^your choices of \d{4}-\d{2}-\d{2} still hold$/)
  })

  it('an advisory decision that breaks a tie of observed choices decided it: listed as the static default, and disclosed', async () => {
    const app = await createTestApp()
    // Three of each at one instant: equal weights, a tie the static default breaks (R-REC-2).
    const at = new Date(app.clock.now().getTime() - HOUR).toISOString()
    const batch = ['Tier S', 'Tier S', 'Tier S', 'Tier L', 'Tier L', 'Tier L'].map((c, i) => ({ ...TIER, user_choice: c, decision_id: `tie-${i}`, timestamp: at }))
    expect((await app.call('POST', '/v1/observations', batch)).status).toBe(201)
    expect((await app.call('POST', '/v1/recommendations', TIER)).body).toMatchObject({ state: 'partial', recommended: 'Tier L' })

    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, enforce: 'advisory', constraints: [{ kind: 'prefer', option: 'Tier S' }] })
    const tie = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(tie).toMatchObject({
      state: 'partial',
      recommended: 'Tier S',
      disclosure: 'based on 50% of recent choices, a tie broken by advisory decision D-001',
      decisions: [{ key: 'D-001', effect: 'static-default', options: ['Tier S'] }],
    })
    expect(tie.options[0].description).toMatch(/ — based on 50% of recent choices, a tie broken by advisory decision D-001$/)

    // One choice more of Tier S: no tie, the observed choices decide, and the decision is outweighed.
    await app.call('POST', '/v1/observations', { ...TIER, user_choice: 'Tier S', decision_id: 'tie-6', timestamp: at })
    expect((await app.call('POST', '/v1/recommendations', TIER)).body).toMatchObject({
      recommended: 'Tier S',
      disclosure: 'based on 57% of recent choices',
      decisions: [{ key: 'D-001', effect: 'outweighed' }],
    })
  })

  it('an advisory must_not of the static default that moves it decides a tie too: listed as the static default it moved to, and disclosed', async () => {
    const app = await createTestApp()
    // Tier M is the policy's default: it wins a tie of three choices of it and three of Tier S.
    const at = new Date(app.clock.now().getTime() - HOUR).toISOString()
    const batch = ['Tier S', 'Tier S', 'Tier S', 'Tier M', 'Tier M', 'Tier M'].map((c, i) => ({ ...TIER, user_choice: c, decision_id: `tie-${i}`, timestamp: at }))
    expect((await app.call('POST', '/v1/observations', batch)).status).toBe(201)
    expect((await app.call('POST', '/v1/recommendations', TIER)).body).toMatchObject({ state: 'partial', recommended: 'Tier M' })

    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, enforce: 'advisory', title: 'Avoid Tier M', constraints: [{ kind: 'must_not', option: 'Tier M' }] })
    const tie = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(tie).toMatchObject({
      recommended: 'Tier S',
      disclosure: 'based on 50% of recent choices, a tie broken by advisory decision D-001',
      decisions: [{ key: 'D-001', effect: 'static-default', options: ['Tier S'] }],
    })
  })

  it('required must_nots take options off the offer; when one option is left, it is enforced', async () => {
    const app = await createTestApp()
    const never = (option: string) => ({
      ...REQUIRED_TIER_L,
      title: `No ${option}`,
      constraints: [{ kind: 'must_not', option }],
    })
    await app.call('POST', '/v1/decisions', never('Tier S'))
    const two = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(two.options.map((o: any) => o.option)).toEqual(['Tier M', 'Tier L'])
    expect(two).toMatchObject({ state: 'static-default', recommended: 'Tier M', decisions: [{ key: 'D-001', effect: 'ruled-out', options: ['Tier S'] }] })
    await app.call('POST', '/v1/decisions', never('Tier M'))
    expect((await app.call('POST', '/v1/recommendations', TIER)).body).toMatchObject({ state: 'enforced', recommended: 'Tier L', ask: false })
  })

  it('holds a decision of the point\'s options to the same options offered in other words ("Tier S, M or L?" with S, M, L)', async () => {
    const app = await createTestApp()
    const sml = { question: 'Tier S, M or L?', all_options: ['S', 'M', 'L'] }
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, title: 'No Tier S', constraints: [{ kind: 'must_not', option: 'Tier S' }] })
    const two = (await app.call('POST', '/v1/recommendations', sml)).body
    expect(two.point).toBe('complexity-tier')
    expect(two.options.map((o: any) => o.option)).toEqual(['M', 'L'])
    expect(two.decisions).toMatchObject([{ key: 'D-001', effect: 'ruled-out', options: ['S'] }])
    // A required must: the option it names, said otherwise, is the answer.
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-002' })
    expect((await app.call('POST', '/v1/recommendations', sml)).body).toMatchObject({ state: 'enforced', recommended: 'L', ask: false })
    // Where two options would be its option (Tier S and S), neither is taken for it but the one named exactly.
    const both = (await app.call('POST', '/v1/recommendations', { question: 'Tier S, M or L?', all_options: ['S', 'Tier S', 'Tier L'] })).body
    expect(both).toMatchObject({ state: 'enforced', recommended: 'Tier L' })
    expect(both.options.map((o: any) => o.option)).toEqual(['Tier L', 'S'])
  })

  it('keeps the agent\'s descriptions under a required decision with personalization off: the option it fixes has its rationale after them, the others are as offered', async () => {
    const app = await createTestApp()
    const offered = [
      { label: 'A', description: 'the A one' },
      { label: 'B', description: 'the B one' },
      { label: 'C', description: 'the C one' },
    ]
    const ask = { user: 'dsc', session_id: 'desc-off', point: 'pt-desc', question: 'Pick?', all_options: offered }
    const required = (key: string, option: string) => ({
      ...REQUIRED_TIER_L,
      key,
      scope: { points: ['pt-desc'] },
      constraints: [{ kind: 'must', option }],
    })
    expect((await app.call('POST', '/v1/decisions', required('D-400', 'B'))).status).toBe(201)
    const on = (await app.call('POST', '/v1/recommendations', ask)).body
    expect((await app.call('PUT', '/v1/sessions/desc-off/personalization', { enabled: false, user: 'dsc' })).status).toBe(200)
    const off = (await app.call('POST', '/v1/recommendations', ask)).body
    expect(off).toMatchObject({ state: 'enforced', recommended: 'B', ask: true, learned: { state: 'personalization-off', recommended: 'A' } })
    // A, the static default the session's neutral answer recommended, is described as the agent wrote it.
    for (const rec of [on, off]) {
      expect(rec.options.map((o: any) => [o.label, o.original_description ?? o.description])).toEqual([
        ['B (Recommended)', 'the B one'],
        ['A', 'the A one'],
        ['C', 'the C one'],
      ])
      expect(rec.options[0].description).toMatch(/^Recommended when required decision D-400 is in force — /)
    }

    // The option the decision fixes is the static default itself: its description is still the agent's.
    const app2 = await createTestApp()
    await app2.call('POST', '/v1/decisions', required('D-401', 'A'))
    await app2.call('PUT', '/v1/sessions/desc-off/personalization', { enabled: false, user: 'dsc' })
    const fixed = (await app2.call('POST', '/v1/recommendations', ask)).body
    expect(fixed).toMatchObject({ state: 'enforced', recommended: 'A', learned: { state: 'personalization-off', recommended: 'A' } })
    expect(fixed.options[0]).toMatchObject({ label: 'A (Recommended)', original_description: 'the A one' })
  })

  it('keeps an expert\'s recommended option\'s description when a required decision fixes another', async () => {
    const app = await createTestApp()
    for (let i = 0; i < 51; i++) await app.call('POST', '/v1/sessions', { session_id: `s-${i}` })
    const offered = [
      { label: 'A', description: 'the A one' },
      { label: 'B', description: 'the B one' },
    ]
    await choose(app, 'A', 8, { point: 'pt-desc', question: 'Pick?', all_options: offered })
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, scope: { points: ['pt-desc'] }, constraints: [{ kind: 'must', option: 'B' }] })
    const rec = (await app.call('POST', '/v1/recommendations', { point: 'pt-desc', question: 'Pick?', all_options: offered })).body
    expect(rec).toMatchObject({ state: 'enforced', recommended: 'B', expertise: { level: 'expert' }, learned: { recommended: 'A' } })
    expect(rec.options[1]).toEqual(expect.objectContaining({ option: 'A', label: 'A', description: 'the A one' }))
  })

  it('a required limit takes the offered numbers over it off the offer, as the check blocks them; an advisory one only warns', async () => {
    const RETRIES = { user: 'rt', point: 'retries', question: 'How many retries?', all_options: ['2', '3', '5'] }
    const limit = (enforce: string) => ({
      ...REQUIRED_TIER_L,
      key: 'D-200',
      enforce,
      scope: { points: ['retries'] },
      constraints: [{ kind: 'limit', value: 3 }],
    })
    const fives = fivesAt(RETRIES)

    const app = await createTestApp()
    expect((await app.call('POST', '/v1/observations', fives)).status).toBe(201)
    expect((await app.call('POST', '/v1/recommendations', RETRIES)).body).toMatchObject({ state: 'sufficient', recommended: '5', ask: false })
    expect((await app.call('POST', '/v1/decisions', limit('required'))).status).toBe(201)
    const limited = (await app.call('POST', '/v1/recommendations', RETRIES)).body
    expect(limited.options.map((o: any) => o.option)).toEqual(['2', '3'])
    expect(limited.decisions).toEqual([expect.objectContaining({ key: 'D-200', effect: 'ruled-out', options: ['5'] })])
    expect(limited.recommended).not.toBe('5')
    expect(limited.ask).toBe(true)
    // What it recommends is what the check allows.
    expect((await app.call('POST', '/v1/decisions/check', { choice: limited.recommended, point: 'retries' })).body.allowed).toBe(true)
    expect((await app.call('POST', '/v1/decisions/check', { choice: '5', point: 'retries' })).body.allowed).toBe(false)
    // As the option is ruled out however the agent labelled it, so the check reads the choice.
    expect((await app.call('POST', '/v1/decisions/check', { choice: '5 (Recommended)', point: 'retries' })).body.allowed).toBe(false)

    // Advisory, like an advisory must_not: the recommendation is the learned one, the check warns,
    // and so it is not answered for the user, which no check would have warned of.
    const advised = await createTestApp()
    await advised.call('POST', '/v1/observations', fives)
    await advised.call('POST', '/v1/decisions', limit('advisory'))
    const learned = (await advised.call('POST', '/v1/recommendations', RETRIES)).body
    expect(learned).toMatchObject({ state: 'sufficient', recommended: '5', ask: true, ask_reason: 'advisory decision D-200 advises against "5": the user chooses' })
    expect(learned.decisions).toEqual([expect.objectContaining({ key: 'D-200', effect: 'advised-against', options: ['5'] })])
    expect((await advised.call('POST', '/v1/decisions/check', { choice: '5', point: 'retries' })).body).toMatchObject({
      allowed: true,
      warnings: [{ key: 'D-200' }],
    })
  })

  it('a limit bound to no point leaves the offer as it is, but an answer its check blocks or warns of is asked, not given for the user (R-CON-3)', async () => {
    const RETRIES = { user: 'rt', point: 'retries', question: 'How many retries?', all_options: ['2', '5'] }
    const fives = fivesAt(RETRIES)
    const app = await createTestApp()
    expect((await app.call('POST', '/v1/observations', fives)).status).toBe(201)
    const before = app.clock.now().toISOString()
    expect((await app.call('POST', '/v1/recommendations', RETRIES)).body).toMatchObject({ recommended: '5', ask: false })
    app.clock.advance(1000)
    const global = { ...REQUIRED_TIER_L, key: 'D-300', title: 'At most 3', scope: { points: [] }, constraints: [{ kind: 'limit', value: 3 }] }
    expect((await app.call('POST', '/v1/decisions', global)).status).toBe(201)
    expect((await app.call('POST', '/v1/decisions/check', { choice: '5', point: 'retries' })).body.allowed).toBe(false)
    const asked = (await app.call('POST', '/v1/recommendations', RETRIES)).body
    expect(asked).toMatchObject({ state: 'sufficient', recommended: '5', ask: true, ask_reason: 'required decision D-300 blocks "5" (over its limit 3): the user chooses' })
    expect(asked.options.map((o: { option: string }) => o.option)).toEqual(['5', '2'])
    // A replay before the decision was made answered it, as it did then.
    expect((await app.call('POST', '/v1/recommendations', { ...RETRIES, as_of: before })).body).toMatchObject({ recommended: '5', ask: false })
    // A number with a unit is not read by a limit bound to no point, as the check does not read it.
    const units = { ...RETRIES, point: 'memory', question: 'How much memory?', all_options: ['2 GB', '8 GB'] }
    await app.call('POST', '/v1/observations', fives.map((o, i) => ({ ...o, ...units, user_choice: '8 GB', decision_id: `gb-${i}` })))
    expect((await app.call('POST', '/v1/decisions/check', { choice: '8 GB', point: 'memory' })).body.allowed).toBe(true)
    expect((await app.call('POST', '/v1/recommendations', units)).body).toMatchObject({ recommended: '8 GB', ask: false })

    // The hook asks, and says why, rather than answering 5 for the user.
    const question = 'How many replicas should the service run?'
    // Made in the fixture's project (its cwd): a project with no choice of its own there is asked anyway.
    await app.call('POST', '/v1/observations', fives.map((o, i) => ({ question, all_options: ['2', '5'], user_choice: '5', decision_id: `hook-${i}`, timestamp: o.timestamp, project: '/home/dev/acme-api' })))
    const payload = claudeCodeFixture('pre-tool-use')
    payload.tool_input.questions = [{ question, header: 'Replicas', multiSelect: false, options: [{ label: '2', description: 'two' }, { label: '5', description: 'five' }] }]
    const hook = (await app.call('POST', '/v1/hooks/claude-code', payload)).body.hookSpecificOutput
    expect(hook.permissionDecision).toBe('ask')
    expect(hook.updatedInput.answers).toBeUndefined()
    expect(hook.permissionDecisionReason).toContain(`For "${question}", required decision D-300 blocks "5" (over its limit 3): the user chooses`)

    // Advisory, the check only warns of 5, which nobody would check of an answer given for the user: asked too.
    await app.call('POST', '/v1/decisions/D-300/revoke', {})
    expect((await app.call('POST', '/v1/recommendations', RETRIES)).body).toMatchObject({ recommended: '5', ask: false })
    await app.call('POST', '/v1/decisions', { ...global, key: 'D-301', enforce: 'advisory' })
    expect((await app.call('POST', '/v1/decisions/check', { choice: '5', point: 'retries' })).body).toMatchObject({ allowed: true, warnings: [{ key: 'D-301' }] })
    expect((await app.call('POST', '/v1/recommendations', RETRIES)).body).toMatchObject({
      recommended: '5',
      ask: true,
      ask_reason: 'advisory decision D-301 advises against "5" (over its limit 3): the user chooses',
    })
  })

  it('names a required must and a required limit bound to no point that blocks its option as contradicting each other, in every answer (R-CON-2, R-CON-3)', async () => {
    const app = await createTestApp()
    // At the point the plan and the hook read the question at.
    const question = { question: 'How many retries?', header: 'Retries', multiSelect: false, options: ['2', '5'].map((label) => ({ label, description: label })) }
    const point = (await app.call('POST', '/v1/plan', { user: 'rt', questions: [question] })).body.questions[0].recommendation.point as string
    const RETRIES = { user: 'rt', point, question: question.question, all_options: ['2', '5'] }
    const limit3 = { ...REQUIRED_TIER_L, key: 'D-300', title: 'At most 3', scope: { points: [] }, constraints: [{ kind: 'limit', value: 3 }] }
    const must5 = { ...REQUIRED_TIER_L, key: 'D-301', title: 'Five retries', scope: { points: [point] }, constraints: [{ kind: 'must', option: '5' }] }
    expect((await app.call('POST', '/v1/decisions', limit3)).status).toBe(201)
    app.clock.advance(HOUR)
    expect((await app.call('POST', '/v1/decisions', must5)).status).toBe(201)
    const conflict = { keys: ['D-301', 'D-300'], options: ['5'], message: 'required decisions D-301 and D-300 contradict each other over "5" (the newer, D-301, holds)' }
    const rec = (await app.call('POST', '/v1/recommendations', RETRIES)).body
    expect(rec).toMatchObject({ state: 'enforced', recommended: '5', ask: true, ask_reason: `${conflict.message}: the user chooses`, conflicts: [conflict] })
    // Not 1 `high`: the check blocks the enforced option too.
    expect(rec.confidence).toEqual({ value: 0, level: 'low', significant: false, method: `${conflict.message}: the check blocks every option offered` })
    // The check blocks both options, and says why.
    const check = async (choice: string, all_options?: string[]) =>
      (await app.call('POST', '/v1/decisions/check', { choice, point, ...(all_options === undefined ? {} : { all_options }) })).body
    for (const options of [undefined, RETRIES.all_options]) {
      expect(await check('5', options)).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-300' }], conflicts: [conflict] })
      expect(await check('2', options)).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-301' }], conflicts: [conflict] })
    }
    // The plan, why and the hook say the same.
    const plan = (await app.call('POST', '/v1/plan', { user: 'rt', questions: [question] })).body
    expect(plan.answers).toEqual({})
    expect(plan.questions[0].recommendation).toMatchObject({ recommended: '5', conflicts: [conflict] })
    const why = (await app.call('GET', `/v1/why?user=rt&point=${point}`)).body
    expect(why.recommendation).toMatchObject({ recommended: '5', ask: true, conflicts: [conflict] })
    const payload = claudeCodeFixture('pre-tool-use')
    payload.tool_input.questions = [question]
    const hook = (await app.call('POST', '/v1/hooks/claude-code', payload)).body.hookSpecificOutput
    expect(hook.permissionDecision).toBe('ask')
    expect(hook.permissionDecisionReason).toContain(`For "${question.question}", ${conflict.message}`)
    // Named while asked for another reason too: personalization off.
    await app.call('PUT', '/v1/sessions/s-off/personalization', { user: 'rt', enabled: false })
    const off = (await app.call('POST', '/v1/recommendations', { ...RETRIES, session_id: 's-off' })).body
    expect(off).toMatchObject({ ask: true, conflicts: [conflict] })
    expect(off.ask_reason).not.toContain('contradict')

    // The limit newer than the must: it is named the one that holds; the must's option is still the
    // one recommended (a limit bound to no point takes no option off the offer), and asked.
    await app.call('POST', '/v1/decisions/D-300/revoke')
    expect((await app.call('POST', '/v1/recommendations', RETRIES)).body.conflicts).toBeUndefined()
    expect((await check('2')).conflicts).toBeUndefined()
    app.clock.advance(HOUR)
    await app.call('POST', '/v1/decisions', { ...limit3, key: 'D-302' })
    const newer = { keys: ['D-302', 'D-301'], options: ['5'], message: 'required decisions D-302 and D-301 contradict each other over "5" (the newer, D-302, holds)' }
    expect((await app.call('POST', '/v1/recommendations', RETRIES)).body).toMatchObject({ recommended: '5', ask: true, ask_reason: `${newer.message}: the user chooses`, conflicts: [newer] })
    expect((await check('2')).conflicts).toEqual([newer])
    // An advisory limit only warns: no contradiction.
    await app.call('POST', '/v1/decisions/D-302/revoke')
    await app.call('POST', '/v1/decisions', { ...limit3, key: 'D-303', enforce: 'advisory' })
    expect((await app.call('POST', '/v1/recommendations', RETRIES)).body.conflicts).toBeUndefined()
    expect((await check('5')).conflicts).toBeUndefined()
  })

  it('names the advisory decisions that advise against the learned option by key, as the check lists its warnings (R-CON-2)', async () => {
    const app = await createTestApp()
    await choose(app, 'Tier S', 30, { project: '/home/dev/acme-api' })
    // Dated alike, D-002 is the newer: newest first named it first.
    for (const key of ['D-001', 'D-002']) {
      const avoid = { ...REQUIRED_TIER_L, key, enforce: 'advisory', title: `Avoid Tier S (${key})`, constraints: [{ kind: 'must_not', option: 'Tier S' }] }
      expect((await app.call('POST', '/v1/decisions', avoid)).status).toBe(201)
    }
    const reason = 'advisory decisions D-001, D-002 advise against "Tier S": the user chooses'
    expect((await app.call('POST', '/v1/recommendations', TIER)).body).toMatchObject({ recommended: 'Tier S', ask: true, ask_reason: reason })
    const check = (await app.call('POST', '/v1/decisions/check', { choice: 'Tier S', point: 'complexity-tier' })).body
    expect(check.warnings.map((w: { key: string }) => w.key)).toEqual(['D-001', 'D-002'])
    const hook = (await app.call('POST', '/v1/hooks/claude-code', claudeCodeFixture('pre-tool-use'))).body.hookSpecificOutput
    expect(hook.permissionDecisionReason).toContain(`For "Which complexity tier should this SPEC use?", ${reason}`)
  })

  it('an advisory must_not of the learned option keeps it recommended, but the user is asked and told, not answered for (R-CON-2)', async () => {
    const app = await createTestApp()
    // In the hook fixture's project (its cwd), which the hook asks of below.
    await choose(app, 'Tier S', 30, { project: '/home/dev/acme-api' })
    expect((await app.call('POST', '/v1/recommendations', TIER)).body).toMatchObject({ recommended: 'Tier S', state: 'sufficient', ask: false })
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, enforce: 'advisory', title: 'Avoid Tier S', constraints: [{ kind: 'must_not', option: 'Tier S' }] })
    const rec = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(rec).toMatchObject({
      state: 'sufficient',
      recommended: 'Tier S',
      ask: true,
      ask_reason: 'advisory decision D-001 advises against "Tier S": the user chooses',
      decisions: [{ key: 'D-001', enforce: 'advisory', effect: 'advised-against', options: ['Tier S'] }],
    })
    // The check warns of that very choice.
    expect((await app.call('POST', '/v1/decisions/check', { choice: 'Tier S', point: 'complexity-tier' })).body).toMatchObject({
      allowed: true,
      warnings: [{ key: 'D-001' }],
    })
    // The hook asks, and says why, rather than answering Tier S for the user.
    const hook = (await app.call('POST', '/v1/hooks/claude-code', claudeCodeFixture('pre-tool-use'))).body.hookSpecificOutput
    expect(hook.permissionDecision).toBe('ask')
    expect(hook.updatedInput.answers).toBeUndefined()
    expect(hook.permissionDecisionReason).toContain(
      'For "Which complexity tier should this SPEC use?", advisory decision D-001 advises against "Tier S": the user chooses',
    )
    // An option it does not name is answered as before.
    await app.call('POST', '/v1/decisions/D-001/revoke')
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-002', enforce: 'advisory', title: 'Avoid Tier L', constraints: [{ kind: 'must_not', option: 'Tier L' }] })
    const other = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(other).toMatchObject({ recommended: 'Tier S', ask: false })
    expect(other.decisions).toBeUndefined()
  })

  it('an advisory default recommended because none of the choices at the point was of an offered option is the static default, not outweighed (R-CON-2)', async () => {
    const app = await createTestApp()
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-020', enforce: 'advisory', constraints: [{ kind: 'prefer', option: 'Tier L' }] })
    await choose(app, 'Tier XL', 6, { all_options: ['Tier XL', 'Tier M'] })
    expect((await app.call('POST', '/v1/recommendations', TIER)).body).toMatchObject({
      state: 'partial',
      recommended: 'Tier L',
      precondition: 'D-020 (advisory): Billing changes need the design review that only Tier L has.',
      disclosure: 'based on advisory decision D-020, none of the 6 choices at this point was one of these options',
      decisions: [{ key: 'D-020', effect: 'static-default', options: ['Tier L'] }],
    })
  })

  it('lists every advisory decision in scope where a required one fixes the answer, as overruled (R-CON-2)', async () => {
    const app = await createTestApp()
    await app.call('POST', '/v1/decisions', REQUIRED_TIER_L)
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-002', enforce: 'advisory', title: 'Prefer Tier M', constraints: [{ kind: 'prefer', option: 'Tier M' }] })
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-003', enforce: 'advisory', title: 'Avoid Tier L', constraints: [{ kind: 'must_not', option: 'Tier L' }] })
    const rec = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(rec).toMatchObject({ state: 'enforced', recommended: 'Tier L', ask: false })
    expect(rec.decisions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'D-001', effect: 'enforced', options: ['Tier L'] }),
        expect.objectContaining({ key: 'D-002', enforce: 'advisory', effect: 'overruled', options: ['Tier M'] }),
        expect.objectContaining({ key: 'D-003', enforce: 'advisory', effect: 'overruled', options: ['Tier L'] }),
      ]),
    )
    expect(rec.decisions).toHaveLength(3)
  })

  it('an advisory prefer at a multi-select point is its static default, disclosed and listed as such, until chosen sets outweigh it', async () => {
    const app = await checksApp()
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-020', enforce: 'advisory', scope: { points: ['checks'] }, constraints: [{ kind: 'prefer', option: 'Test' }] })

    const fresh = (await app.call('POST', '/v1/recommendations', CHECKS)).body
    expect(fresh).toMatchObject({
      state: 'static-default',
      recommended: ['Test'],
      precondition: `D-020 (advisory): ${REQUIRED_TIER_L.rationale}`,
      disclosure: 'based on advisory decision D-020, 5 observations needed for personalization',
      decisions: [{ key: 'D-020', effect: 'static-default', options: ['Test'] }],
    })

    const at = (h: number) => new Date(app.clock.now().getTime() - h * HOUR).toISOString()
    const sets = Array.from({ length: 8 }, (_, i) => ({ ...CHECKS, user_choice: ['Lint', 'E2E'], timestamp: at(10 - i) }))
    expect((await app.call('POST', '/v1/observations', sets)).status).toBe(201)
    const learned = (await app.call('POST', '/v1/recommendations', CHECKS)).body
    expect(learned.recommended).toEqual(['Lint', 'E2E'])
    expect(learned.decisions).toEqual([expect.objectContaining({ key: 'D-020', effect: 'outweighed', options: ['Test'] })])
    // A learned set can hold two advisory decisions' options: neither contradicts the other.
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-021', date: '2026-07-02', enforce: 'advisory', scope: { points: ['checks'] }, constraints: [{ kind: 'prefer', option: 'Lint' }] })
    const both = (await app.call('POST', '/v1/recommendations', CHECKS)).body
    expect(both.decisions.map((d: { key: string; effect: string }) => [d.key, d.effect])).toEqual([
      ['D-021', 'outweighed'],
      ['D-020', 'outweighed'],
    ])
  })

  it('at a multi-select point, says the required option is required and the learned ones beside it are the user\'s (R-CON-2, R-REC-5)', async () => {
    const app = await checksApp()
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, scope: { points: ['checks'] }, constraints: [{ kind: 'must', option: 'Test' }] })
    const at = (h: number) => new Date(app.clock.now().getTime() - h * HOUR).toISOString()
    const sets = Array.from({ length: 8 }, (_, i) => ({ ...CHECKS, user_choice: ['Lint', 'E2E'], timestamp: at(10 - i) }))
    expect((await app.call('POST', '/v1/observations', sets)).status).toBe(201)
    const rec = (await app.call('POST', '/v1/recommendations', CHECKS)).body
    expect(rec).toMatchObject({ state: 'enforced', recommended: ['Lint', 'Test', 'E2E'], learned: { recommended: ['Lint', 'E2E'] } })
    const described = Object.fromEntries(rec.options.map((o: { option: string; description: string }) => [o.option, o.description]))
    expect(described.Test).toBe(`Recommended when required decision D-001 is in force — required by decision D-001: ${REQUIRED_TIER_L.rationale}`)
    for (const learned of ['Lint', 'E2E']) {
      expect(described[learned]).not.toContain('D-001')
      expect(described[learned]).toMatch(/^Recommended when .+ — each selected in 100% of recent choices$/)
    }
  })

  it('at a multi-select point, fixes not the one option required must_nots leave: a set may leave it out too, and is learned among those left', async () => {
    const app = await checksApp()
    for (const option of ['Lint', 'E2E']) {
      expect((await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: undefined, scope: { points: ['checks'] }, constraints: [{ kind: 'must_not', option }] })).status).toBe(201)
    }
    const at = (h: number) => new Date(app.clock.now().getTime() - h * HOUR).toISOString()
    // Sets that never held Test: the user leaves it out, and nothing makes them take it.
    const sets = Array.from({ length: 8 }, (_, i) => ({ ...CHECKS, user_choice: ['Lint'], timestamp: at(10 - i) }))
    expect((await app.call('POST', '/v1/observations', sets)).status).toBe(201)
    const rec = (await app.call('POST', '/v1/recommendations', CHECKS)).body
    expect(rec.state).not.toBe('enforced')
    expect(rec.recommended).toEqual([])
    expect(rec.decisions.map((d: { effect: string }) => d.effect)).toEqual(['ruled-out', 'ruled-out'])
  })

  it('at a multi-select point, holds an option a required decision adds certain, and the set as sure as the options left to the user (R-CON-2, R-REC-8)', async () => {
    const app = await checksApp()
    const at = (h: number) => new Date(app.clock.now().getTime() - h * HOUR).toISOString()
    // Lint every time, Test in 4 of 10: the learned set is {Lint}, leaving Test out with some doubt.
    const sets = Array.from({ length: 10 }, (_, i) => ({ ...CHECKS, user_choice: i % 5 < 2 ? ['Lint', 'Test'] : ['Lint'], timestamp: at(12 - i) }))
    expect((await app.call('POST', '/v1/observations', sets)).status).toBe(201)
    const learned = (await app.call('POST', '/v1/recommendations', CHECKS)).body
    const factor = (rec: { options: Array<{ option: string; confidence: number }> }, option: string) => rec.options.find((o) => o.option === option)?.confidence
    expect(learned).toMatchObject({ recommended: ['Lint'], confidence: { level: 'medium', significant: false } })
    expect(factor(learned, 'Test')).toBeLessThan(0.9)

    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, scope: { points: ['checks'] }, constraints: [{ kind: 'must', option: 'Test' }] })
    const rec = (await app.call('POST', '/v1/recommendations', CHECKS)).body
    expect(rec).toMatchObject({ state: 'enforced', recommended: ['Lint', 'Test'], ask: true, learned: { recommended: ['Lint'], confidence: learned.confidence.value } })
    expect(rec.options.find((o: { option: string }) => o.option === 'Test')).toMatchObject({ recommended: true, confidence: 1 })
    expect(factor(rec, 'Lint')).toBe(factor(learned, 'Lint'))
    expect(factor(rec, 'E2E')).toBe(factor(learned, 'E2E'))
    expect(rec.confidence.value).toBeCloseTo(factor(learned, 'Lint')! * factor(learned, 'E2E')!, 3)
    expect(rec.confidence).toMatchObject({ level: 'high', significant: true })
    // Test given, the user's answer is the set when Lint is selected and E2E left out: more likely than {Lint} was.
    expect(rec.p).toBeGreaterThan(learned.p)
    expect(rec.entropy).toBeLessThan(learned.entropy)
    expect(rec.information).toBeCloseTo(rec.p * (1 - rec.p), 4)

    // The plan and why read the same figures.
    const question = { question: CHECKS.question, header: CHECKS.header, multiSelect: true, options: CHECKS.all_options.map((label) => ({ label, description: label })) }
    const plan = (await app.call('POST', '/v1/plan', { user: 'dan', questions: [question] })).body
    expect(plan.questions[0].recommendation).toMatchObject({ confidence: rec.confidence, p: rec.p, information: rec.information, entropy: rec.entropy })
    const why = (await app.call('GET', '/v1/why?user=dan&point=checks')).body
    expect(why.recommendation).toMatchObject({ confidence: rec.confidence })

    // Fixing every option offered leaves no doubt of any.
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-002', scope: { points: ['checks'] }, constraints: ['Lint', 'E2E'].map((option) => ({ kind: 'must', option })) })
    const whole = (await app.call('POST', '/v1/recommendations', CHECKS)).body
    expect(whole).toMatchObject({ recommended: ['Lint', 'Test', 'E2E'], confidence: { value: 1, level: 'high' }, p: 1, information: 0, entropy: 0 })
    expect(whole.options.map((o: { confidence: number }) => o.confidence)).toEqual([1, 1, 1])
  })

  it('names every required decision that fixes the same option, not only the newest, by key, each with its rationale (R-CON-2)', async () => {
    const app = await createTestApp()
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, date: '2026-06-02' })
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-002', date: '2026-06-01', rationale: 'Audits want Tier L.' })
    const rec = (await app.call('POST', '/v1/recommendations', TIER)).body
    // By key, as GET /v1/decisions and the check list them, D-001 the newer here: they agree, none
    // holds over another, and the newest's rationale alone read as the reason of both.
    const disclosure = `required by decisions D-001: ${REQUIRED_TIER_L.rationale}; D-002: Audits want Tier L.`
    expect(rec).toMatchObject({
      state: 'enforced',
      recommended: 'Tier L',
      ask: false,
      ask_reason: 'required decisions D-001, D-002 fix the answer: auto-resolve',
      confidence: { method: 'enforced by required decisions D-001, D-002' },
      precondition: 'required decisions D-001, D-002 are in force',
      disclosure,
    })
    expect(rec.options[0]).toMatchObject({ label: 'Tier L (Recommended)', description: `Recommended when required decisions D-001, D-002 are in force — ${disclosure}` })
    // Scoped differently, each is said with its own scope, not both with one's.
    const scoped = { ...REQUIRED_TIER_L, key: 'D-003', rationale: 'Billing is audited.', scope: { points: ['complexity-tier'], path: 'src/billing' } }
    expect((await app.call('POST', '/v1/decisions', scoped)).status).toBe(201)
    expect((await app.call('POST', '/v1/recommendations', { ...TIER, context: { path: 'src/billing/invoice.ts' } })).body).toMatchObject({
      precondition: 'required decisions D-001, D-002, D-003 (under src/billing) are in force',
      disclosure: `required by decisions D-001: ${REQUIRED_TIER_L.rationale}; D-002: Audits want Tier L.; D-003: Billing is audited.`,
    })
    await app.call('POST', '/v1/decisions/D-003/revoke', {})
    expect(rec.decisions).toEqual([
      expect.objectContaining({ key: 'D-001', effect: 'enforced', options: ['Tier L'] }),
      expect.objectContaining({ key: 'D-002', effect: 'enforced', options: ['Tier L'] }),
    ])
    // Revoking the newest leaves the point fixed by the other, which was named all along.
    await app.call('POST', '/v1/decisions/D-001/revoke', {})
    expect((await app.call('POST', '/v1/recommendations', TIER)).body).toMatchObject({
      state: 'enforced',
      precondition: 'required decision D-002 is in force',
      disclosure: 'required by decision D-002: Audits want Tier L.',
    })
  })

  it('lists every advisory decision at the point, not only the newest: one another advisory default contradicts, one whose option a required decision ruled out, a third a required decision overrules (R-CON-2)', async () => {
    const advisory = (key: string, kind: 'must' | 'prefer', option: string) => ({
      ...REQUIRED_TIER_L,
      key,
      enforce: 'advisory',
      title: `${kind} ${option}`,
      date: `2026-06-0${key.slice(-1)}`,
      constraints: [{ kind, option }],
    })
    const app = await createTestApp()
    await app.call('POST', '/v1/decisions', advisory('D-001', 'must', 'Tier S'))
    await app.call('POST', '/v1/decisions', advisory('D-002', 'prefer', 'Tier M'))
    const two = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(two).toMatchObject({ state: 'static-default', recommended: 'Tier M', precondition: expect.stringMatching(/^D-002 \(advisory\)/) })
    expect(two.decisions).toEqual([
      expect.objectContaining({ key: 'D-002', effect: 'static-default', options: ['Tier M'] }),
      expect.objectContaining({ key: 'D-001', enforce: 'advisory', effect: 'conflict', options: ['Tier S'] }),
    ])
    // Asked multi-select with no history, the static default is still the newer default's option alone.
    const set = (await app.call('POST', '/v1/recommendations', { ...TIER, multi_select: true })).body
    expect(set.recommended).toEqual(['Tier M'])
    expect(set.decisions.map((d: { key: string; effect: string }) => [d.key, d.effect])).toEqual([
      ['D-002', 'static-default'],
      ['D-001', 'conflict'],
    ])

    // A required must_not rules out Tier M: the older advisory default, Tier S, is the default now.
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-003', date: '2026-06-03', constraints: [{ kind: 'must_not', option: 'Tier M' }] })
    const ruled = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(ruled).toMatchObject({ state: 'static-default', recommended: 'Tier S' })
    expect(ruled.decisions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'D-003', effect: 'ruled-out', options: ['Tier M'] }),
        expect.objectContaining({ key: 'D-001', effect: 'static-default', options: ['Tier S'] }),
        expect.objectContaining({ key: 'D-002', enforce: 'advisory', effect: 'overruled', options: ['Tier M'] }),
      ]),
    )
    expect(ruled.decisions).toHaveLength(3)

    // A required must fixes Tier L: every advisory decision is overruled, not only the newest.
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-004', date: '2026-06-04' })
    const fixed = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(fixed).toMatchObject({ state: 'enforced', recommended: 'Tier L' })
    expect(fixed.decisions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'D-004', effect: 'enforced' }),
        expect.objectContaining({ key: 'D-001', effect: 'overruled', options: ['Tier S'] }),
        expect.objectContaining({ key: 'D-002', effect: 'overruled', options: ['Tier M'] }),
      ]),
    )
    expect(fixed.decisions.map((d: { key: string }) => d.key).sort()).toEqual(['D-001', 'D-002', 'D-003', 'D-004'])
  })

  it('a static default an advisory must_not names gives way to another option, which learned choices still outweigh (R-CON-2)', async () => {
    const app = await createTestApp()
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-010', enforce: 'advisory', title: 'Avoid Tier M', rationale: 'Tier M skips the review.', constraints: [{ kind: 'must_not', option: 'Tier M' }] })
    // Tier M is the policy's default: with no history, the first option not advised against stands instead.
    const rec = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(rec).toMatchObject({
      state: 'static-default',
      recommended: 'Tier S',
      precondition: 'D-010 (advisory) advises against "Tier M": Tier M skips the review.',
      disclosure: 'based on advisory decision D-010, 5 observations needed for personalization',
      ask: true,
      decisions: [{ key: 'D-010', effect: 'static-default', options: ['Tier S'] }],
    })
    expect(rec.options[0]).toMatchObject({ option: 'Tier S', label: 'Tier S (Recommended)', recommended: true })
    // So too for the request's own static default.
    const own = (await app.call('POST', '/v1/recommendations', { ...TIER, user: 'u2', static_default: 'Tier M', all_options: ['Tier M', 'Tier L'] })).body
    expect(own).toMatchObject({ recommended: 'Tier L', decisions: [{ key: 'D-010', effect: 'static-default' }] })
    // Offered alone, it stays, advised against.
    const alone = (await app.call('POST', '/v1/recommendations', { ...TIER, user: 'u3', all_options: ['Tier M'] })).body
    expect(alone).toMatchObject({ recommended: 'Tier M', decisions: [{ key: 'D-010', effect: 'advised-against' }] })
    // Asked with options none of the choices at the point named, the static default stands so too.
    await choose(app, 'Tier XL', 6, { user: 'u4', all_options: ['Tier M', 'Tier XL'] })
    expect((await app.call('POST', '/v1/recommendations', { ...TIER, user: 'u4' })).body).toMatchObject({
      state: 'partial',
      recommended: 'Tier S',
      precondition: 'D-010 (advisory) advises against "Tier M": Tier M skips the review.',
      decisions: [{ key: 'D-010', effect: 'static-default', options: ['Tier S'] }],
    })
    // The user's own choices of Tier M still outweigh it, advised against and asked.
    await choose(app, 'Tier M', 30)
    expect((await app.call('POST', '/v1/recommendations', TIER)).body).toMatchObject({
      recommended: 'Tier M',
      ask: true,
      decisions: [{ key: 'D-010', effect: 'advised-against', options: ['Tier M'] }],
    })
  })

  it('a required limit takes off the offer a number too large for a double (1e309 reads as Infinity), as the check blocks it', async () => {
    const app = await createTestApp()
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-200', scope: { points: ['retries'] }, constraints: [{ kind: 'limit', value: 3 }] })
    const rec = (await app.call('POST', '/v1/recommendations', { user: 'rt', point: 'retries', question: 'How many retries?', all_options: ['1e309', '2', '3'] })).body
    expect(rec.options.map((o: any) => o.option)).toEqual(['2', '3'])
    expect(rec.decisions).toEqual([expect.objectContaining({ key: 'D-200', effect: 'ruled-out', options: ['1e309'] })])
    expect((await app.call('POST', '/v1/decisions/check', { choice: '1e309', point: 'retries' })).body).toMatchObject({
      allowed: false,
      blocked_by: [{ key: 'D-200', message: '1e309 is over the limit 3' }],
    })
  })

  it('a required limit that leaves one offered number enforces it', async () => {
    const app = await createTestApp()
    await app.call('POST', '/v1/decisions', {
      ...REQUIRED_TIER_L,
      scope: { points: ['retries'] },
      constraints: [{ kind: 'limit', value: 3 }, { kind: 'must_not', option: '5' }],
    })
    const rec = (await app.call('POST', '/v1/recommendations', { point: 'retries', question: 'How many retries?', all_options: ['5', '3', '4'] })).body
    expect(rec).toMatchObject({ state: 'enforced', recommended: '3', ask: false })
    expect(rec.decisions).toEqual([expect.objectContaining({ key: 'D-001', effect: 'ruled-out', options: ['5', '4'] })])
  })

  it('recommends none of the options when required decisions rule out every one offered, and asks', async () => {
    const app = await createTestApp()
    const never5 = { ...REQUIRED_TIER_L, key: 'D-201', scope: { points: ['retries2'] }, constraints: [{ kind: 'must_not', option: '5' }] }
    await app.call('POST', '/v1/decisions', never5)
    const only5 = (await app.call('POST', '/v1/recommendations', { point: 'retries2', question: 'How many retries?', all_options: ['5'] })).body
    expect(only5).toMatchObject({
      strength: 'neutral',
      confidence: { value: 0, level: 'low', significant: false, method: 'every option offered is ruled out by required decision D-201' },
      precondition: 'required decision D-201 is in force',
      disclosure: `every option offered is ruled out by required decision D-201: ${REQUIRED_TIER_L.rationale}`,
      ask: true,
      ask_reason: 'every option offered is ruled out by required decision D-201: none is recommended; the user chooses',
      decisions: [{ key: 'D-201', effect: 'ruled-out', options: ['5'] }],
    })
    expect(only5.options).toEqual([{ option: '5', label: '5', share: 0, count: 0, recommended: false }])

    // However often it was chosen, and with a must that names it (which the must_not contradicts).
    const fives = Array.from({ length: 25 }, (_, i) => ({
      point: 'retries2',
      question: 'How many retries?',
      all_options: ['5', '6'],
      user_choice: '5',
      decision_id: `five-${i}`,
      timestamp: new Date(Date.parse(START) - (25 - i) * HOUR).toISOString(),
    }))
    await app.call('POST', '/v1/observations', fives)
    await app.call('POST', '/v1/decisions', { ...never5, key: 'D-202', constraints: [{ kind: 'limit', value: 5 }] })
    // The must is older than the must_not (dated and changed alike, its key listed first): the newer rules 5 out.
    await app.call('POST', '/v1/decisions', { ...never5, key: 'D-200', constraints: [{ kind: 'must', option: '5' }] })
    const offered = [
      { label: '5', description: 'five' },
      { label: '6', description: 'six' },
    ]
    const rec = (await app.call('POST', '/v1/recommendations', { point: 'retries2', question: 'How many retries?', all_options: offered })).body
    expect(rec).toMatchObject({ ask: true, strength: 'neutral', confidence: { value: 0, level: 'low' }, learned: { state: 'sufficient', recommended: '5' } })
    expect(rec.options.map((o: any) => [o.label, o.description, o.recommended])).toEqual([
      ['5', 'five', false],
      ['6', 'six', false],
    ])
    expect(rec.decisions.map((d: any) => [d.key, d.effect, d.options])).toEqual([
      ['D-202', 'ruled-out', ['6']],
      ['D-201', 'ruled-out', ['5']],
      ['D-200', 'conflict', ['5']],
    ])
    // By key, as the check lists them, not newest first.
    expect(rec.confidence.method).toBe('every option offered is ruled out by required decisions D-201, D-202')
    expect(rec.conflicts).toEqual([
      { keys: ['D-201', 'D-200'], options: ['5'], message: 'required decisions D-201 and D-200 contradict each other over "5" (the newer, D-201, holds)' },
    ])
  })

  it('names the required decisions that rule out every option offered by key, as the check lists them, each with its rationale and scope', async () => {
    const app = await createTestApp()
    const retries = { ...REQUIRED_TIER_L, scope: { points: ['retries3'] } }
    // D-302 is the newer (dated alike, its key listed later); D-301 has a scope of its own.
    const d301 = { ...retries, key: 'D-301', rationale: 'Five retries flood the queue.', constraints: [{ kind: 'must_not', option: '5' }] }
    const d302 = { ...retries, key: 'D-302', rationale: 'Six is past the timeout.', constraints: [{ kind: 'limit', value: 5 }] }
    for (const d of [d302, d301]) expect((await app.call('POST', '/v1/decisions', d)).status).toBe(201)
    const question = { point: 'retries3', question: 'How many retries?', all_options: ['5', '6'] }
    const rec = (await app.call('POST', '/v1/recommendations', question)).body
    const ruledOut = 'every option offered is ruled out by required decisions D-301, D-302'
    expect(rec).toMatchObject({
      ask: true,
      strength: 'neutral',
      confidence: { value: 0, level: 'low', method: ruledOut },
      precondition: 'required decisions D-301, D-302 are in force',
      // Each rationale, after its decision's key: the newest's alone read as the reason of both.
      disclosure: 'every option offered is ruled out by required decisions D-301: Five retries flood the queue.; D-302: Six is past the timeout.',
      ask_reason: `${ruledOut}: none is recommended; the user chooses`,
    })
    // As the check names them when a choice breaks both.
    const check = (await app.call('POST', '/v1/decisions/check', { choice: ['5', '6'], point: 'retries3', multi_select: true })).body
    expect(check.blocked_by.map((v: { key: string }) => v.key)).toEqual(['D-301', 'D-302'])

    // Scoped differently, each is said with its own scope, not both with one's.
    await app.call('POST', '/v1/decisions/D-301/revoke', {})
    expect((await app.call('POST', '/v1/decisions', { ...d301, key: 'D-303', scope: { points: ['retries3'], path: 'src/billing' } })).status).toBe(201)
    const scoped = (await app.call('POST', '/v1/recommendations', { ...question, context: { path: 'src/billing/retry.ts' } })).body
    expect(scoped).toMatchObject({
      precondition: 'required decisions D-302, D-303 (under src/billing) are in force',
      disclosure: 'every option offered is ruled out by required decisions D-302: Six is past the timeout.; D-303: Five retries flood the queue.',
    })
  })

  it('answers nothing for the user when a required must names an option not offered: every option offered breaks it, and the check blocks each', async () => {
    const app = await createTestApp()
    // 30 choices of Tier S before Tier L was required: enough to auto-resolve, were no decision in force.
    await choose(app, 'Tier S', 30)
    await app.call('POST', '/v1/decisions', REQUIRED_TIER_L)
    const offered = { ...TIER, all_options: ['Tier S', 'Tier M'] }
    const rec = (await app.call('POST', '/v1/recommendations', offered)).body
    expect(rec).toMatchObject({
      ask: true,
      strength: 'neutral',
      confidence: { value: 0, level: 'low', method: 'every option offered is ruled out by required decision D-001' },
      precondition: 'required decision D-001 is in force',
      learned: { state: 'sufficient', recommended: 'Tier S' },
      decisions: [{ key: 'D-001', effect: 'ruled-out', options: ['Tier S', 'Tier M'] }],
    })
    expect(rec.options.map((o: any) => [o.option, o.recommended])).toEqual([
      ['Tier S', false],
      ['Tier M', false],
    ])
    const check = (await app.call('POST', '/v1/decisions/check', { choice: 'Tier S', point: 'complexity-tier' })).body
    expect(check).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-001' }] })
  })


  describe('a decision whose option an offered one names with a word that negates or grades it (R-CON-2, R-CON-3)', () => {
    const METHODS = { question: 'Which development methodology?', header: 'Methodology' }
    const required = (constraints: unknown[]) => ({ ...REQUIRED_TIER_L, title: 'TDD here', rationale: 'Behaviour is pinned by tests first.', scope: { points: ['development-methodology'] }, constraints })
    const check = async (app: App, choice: string, all_options?: string[]) =>
      (await app.call('POST', '/v1/decisions/check', { choice, point: 'development-methodology', ...(all_options === undefined ? {} : { all_options }) })).body

    it('keeps TDD under a required must TDD beside Skip TDD and DDD: recommended, and the only choice the check allows', async () => {
      const app = await createTestApp()
      await app.call('POST', '/v1/decisions', required([{ kind: 'must', option: 'TDD' }]))
      const all_options = ['Skip TDD', 'TDD', 'DDD']
      const rec = (await app.call('POST', '/v1/recommendations', { ...METHODS, all_options })).body
      expect(rec).toMatchObject({ point: 'development-methodology', state: 'enforced', recommended: 'TDD', decisions: [{ key: 'D-001', effect: 'enforced', options: ['TDD'] }] })
      for (const options of [all_options, undefined]) {
        expect((await check(app, 'TDD', options)).allowed).toBe(true)
        expect(await check(app, 'Skip TDD', options)).toMatchObject({
          allowed: false,
          blocked_by: [{ key: 'D-001', message: 'at development-methodology the choice must be "TDD", not "Skip TDD"' }],
        })
        expect((await check(app, 'DDD', options)).allowed).toBe(false)
      }
    })

    it('answers nothing for the user under a required must TDD where only Skip TDD and DDD are offered, as for an option not offered: the check blocks each', async () => {
      const app = await createTestApp()
      await app.call('POST', '/v1/decisions', required([{ kind: 'must', option: 'TDD' }]))
      const all_options = ['Skip TDD', 'DDD']
      const rec = (await app.call('POST', '/v1/recommendations', { ...METHODS, all_options })).body
      expect(rec).toMatchObject({
        ask: true,
        strength: 'neutral',
        confidence: { value: 0, level: 'low', method: 'every option offered is ruled out by required decision D-001' },
        decisions: [{ key: 'D-001', effect: 'ruled-out', options: ['Skip TDD', 'DDD'] }],
      })
      expect(rec.options.map((o: any) => [o.option, o.recommended])).toEqual([
        ['Skip TDD', false],
        ['DDD', false],
      ])
      const plan = (await app.call('POST', '/v1/plan', { questions: [{ ...METHODS, multiSelect: false, options: all_options.map((label) => ({ label, description: label })) }] })).body
      expect(plan.answers).toEqual({})
      for (const options of [all_options, undefined]) {
        expect(await check(app, 'Skip TDD', options)).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-001', message: 'at development-methodology the choice must be "TDD", not "Skip TDD"' }] })
        expect((await check(app, 'DDD', options)).allowed).toBe(false)
      }
    })

    it('does not take an offered TDD for the Skip TDD or No TDD a required must_not names: TDD stays, recommended and allowed', async () => {
      const app = await createTestApp()
      await app.call('POST', '/v1/decisions', required([{ kind: 'must_not', option: 'Skip TDD' }]))
      await app.call('POST', '/v1/decisions', required([{ kind: 'must_not', option: 'No TDD' }]))
      const all_options = ['TDD', 'DDD']
      const rec = (await app.call('POST', '/v1/recommendations', { ...METHODS, all_options })).body
      expect(rec).toMatchObject({ state: 'static-default', recommended: 'TDD', precondition: 'the change has behaviour that tests can pin down' })
      expect(rec.decisions.map((d: any) => [d.key, d.effect])).toEqual([
        ['D-002', 'not-offered'],
        ['D-001', 'not-offered'],
      ])
      for (const options of [all_options, undefined]) {
        expect(await check(app, 'TDD', options)).toMatchObject({ allowed: true, blocked_by: [] })
        expect((await check(app, 'skip tdd', options)).allowed).toBe(false)
      }
    })
  })

  it('never answers for the user where two required decisions contradict each other: the check blocks whatever it would answer', async () => {
    const app = await createTestApp()
    await choose(app, 'Tier S', 30)
    // Two required musts naming different tiers: the newer is shown enforced, the older in conflict.
    await app.call('POST', '/v1/decisions', REQUIRED_TIER_L)
    app.clock.advance(HOUR)
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, title: 'Small first', constraints: [{ kind: 'must', option: 'Tier S' }] })
    const musts = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(musts).toMatchObject({ state: 'enforced', recommended: 'Tier S', ask: true })
    expect(musts.ask_reason).toBe('required decisions D-002 and D-001 contradict each other over "Tier S" and "Tier L" (the newer, D-002, holds): the user chooses')
    expect(musts.conflicts).toEqual([{ keys: ['D-002', 'D-001'], options: ['Tier S', 'Tier L'], message: expect.stringContaining('D-002 and D-001') }])
    expect((await app.call('POST', '/v1/decisions/check', { choice: 'Tier S', point: 'complexity-tier' })).body).toMatchObject({
      allowed: false,
      blocked_by: [{ key: 'D-001' }],
    })
    const plan = (await app.call('POST', '/v1/plan', { questions: [{ question: TIER.question, header: TIER.header, multiSelect: false, options: TIER.all_options.map((label) => ({ label, description: label })) }] })).body
    expect(plan.answers).toEqual({})
    expect(plan.questions[0]).toMatchObject({ ask: true, answer: null })
    // The hook asks, and says why: the option put first is one the other decision blocks.
    const hook = (await app.call('POST', '/v1/hooks/claude-code', claudeCodeFixture('pre-tool-use'))).body.hookSpecificOutput
    expect(hook.permissionDecision).toBe('ask')
    expect(hook.permissionDecisionReason).toContain(
      'For "Which complexity tier should this SPEC use?", required decisions D-002 and D-001 contradict each other over "Tier S" and "Tier L" (the newer, D-002, holds)',
    )

    // A required must_not of the option a required must names: the learned Tier S would be
    // auto-resolved, and D-001's must blocks it.
    await app.call('POST', '/v1/decisions/D-002/revoke')
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, title: 'Never L', constraints: [{ kind: 'must_not', option: 'Tier L' }] })
    const mustNot = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(mustNot).toMatchObject({ recommended: 'Tier S', ask: true })
    expect(mustNot.decisions.map((d: any) => [d.key, d.effect])).toEqual([
      ['D-003', 'ruled-out'],
      ['D-001', 'conflict'],
    ])
    expect(mustNot.conflicts.map((c: any) => [c.keys, c.options])).toEqual([[['D-003', 'D-001'], ['Tier L']]])
    expect((await app.call('POST', '/v1/decisions/check', { choice: 'Tier S', point: 'complexity-tier' })).body.allowed).toBe(false)
  })
  it('holds the newer of a required must and a required must_not of one option, in either order, and names both', async () => {
    const app = await createTestApp()
    const mustL = { ...REQUIRED_TIER_L, title: 'Always L' }
    const neverL = { ...REQUIRED_TIER_L, title: 'Never L', constraints: [{ kind: 'must_not', option: 'Tier L' }] }
    // The must_not first, the must an hour later: the later contract fixes Tier L.
    await app.call('POST', '/v1/decisions', neverL)
    app.clock.advance(HOUR)
    await app.call('POST', '/v1/decisions', mustL)
    const rec = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(rec).toMatchObject({ state: 'enforced', recommended: 'Tier L', ask: true })
    // The check blocks Tier L (the older must_not) as it blocks the rest: no confidence in it.
    expect(rec.confidence).toMatchObject({ value: 0, level: 'low' })
    expect(rec.options.map((o: any) => o.option).sort()).toEqual(['Tier L', 'Tier M', 'Tier S'])
    expect(rec.options[0]).toMatchObject({ option: 'Tier L', recommended: true })
    const conflict = { keys: ['D-002', 'D-001'], options: ['Tier L'], message: 'required decisions D-002 and D-001 contradict each other over "Tier L" (the newer, D-002, holds)' }
    expect(rec.conflicts).toEqual([conflict])
    expect(rec.ask_reason).toBe(`${conflict.message}: the user chooses`)
    expect(rec.decisions.map((d: any) => [d.key, d.effect, d.options])).toEqual([
      ['D-001', 'conflict', ['Tier L']],
      ['D-002', 'enforced', ['Tier L']],
    ])
    // The plan and why say the same; nothing is answered for the user.
    const question = { question: TIER.question, header: TIER.header, multiSelect: false, options: TIER.all_options.map((label) => ({ label, description: label })) }
    const plan = (await app.call('POST', '/v1/plan', { questions: [question] })).body
    expect(plan.answers).toEqual({})
    expect(plan.questions[0].recommendation).toMatchObject({ recommended: 'Tier L', conflicts: [conflict] })
    const why = (await app.call('GET', '/v1/why?point=complexity-tier')).body
    expect(why.recommendation).toMatchObject({ state: 'enforced', recommended: 'Tier L', ask: true, conflicts: [conflict] })
    // The check still blocks what either forbids, and says that they contradict each other.
    const checked = async (choice: string, all_options?: string[]) =>
      (await app.call('POST', '/v1/decisions/check', { choice, point: 'complexity-tier', ...(all_options === undefined ? {} : { all_options }) })).body
    for (const options of [undefined, TIER.all_options]) {
      expect(await checked('Tier L', options)).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-001' }], conflicts: [conflict] })
      expect(await checked('Tier M', options)).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-002' }], conflicts: [conflict] })
    }

    // The other way round: the must first, the must_not later, which takes Tier L out.
    await app.call('POST', '/v1/decisions/D-001/revoke')
    await app.call('POST', '/v1/decisions/D-002/revoke')
    await app.call('POST', '/v1/decisions', mustL)
    app.clock.advance(HOUR)
    await app.call('POST', '/v1/decisions', neverL)
    const out = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(out.state).not.toBe('enforced')
    expect(out.options.map((o: any) => o.option)).not.toContain('Tier L')
    expect(out.recommended).not.toBe('Tier L')
    expect(out.ask).toBe(true)
    expect(out.confidence).toMatchObject({ value: 0, level: 'low' })
    expect(out.conflicts).toEqual([{ ...conflict, keys: ['D-004', 'D-003'], message: 'required decisions D-004 and D-003 contradict each other over "Tier L" (the newer, D-004, holds)' }])
    expect(out.decisions.map((d: any) => [d.key, d.effect])).toEqual([
      ['D-004', 'ruled-out'],
      ['D-003', 'conflict'],
    ])
    expect((await checked('Tier S', TIER.all_options)).conflicts.map((c: any) => c.keys)).toEqual([['D-004', 'D-003']])
    // None where one of them is revoked.
    await app.call('POST', '/v1/decisions/D-003/revoke')
    expect((await checked('Tier S', TIER.all_options)).conflicts).toBeUndefined()
  })

  it('replays as of a moment with the decisions accepted then (R-REC-9)', async () => {
    const app = await createTestApp()
    const before = app.clock.now().toISOString()
    app.clock.advance(HOUR)
    await app.call('POST', '/v1/decisions', REQUIRED_TIER_L)
    app.clock.advance(HOUR)
    const during = app.clock.now().toISOString()
    app.clock.advance(HOUR)
    await app.call('POST', '/v1/decisions/D-001/revoke')
    expect((await app.call('POST', '/v1/recommendations', { ...TIER, as_of: before })).body.state).toBe('static-default')
    expect((await app.call('POST', '/v1/recommendations', { ...TIER, as_of: during })).body.state).toBe('enforced')
    expect((await app.call('POST', '/v1/recommendations', TIER)).body.state).toBe('static-default')
    // Replays are audits, not runs: only the live recommendation while accepted would pulse.
    expect((await app.call('GET', '/v1/decisions/pulses')).body.decisions[0].count).toBe(0)
  })

  it('replays with the decisions as they stood then: a change after as_of does not reorder which of two contradicting decisions held (R-REC-9)', async () => {
    const app = await createTestApp()
    await app.call('POST', '/v1/decisions', REQUIRED_TIER_L)
    app.clock.advance(HOUR)
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, title: 'Small first', constraints: [{ kind: 'must', option: 'Tier S' }] })
    app.clock.advance(HOUR)
    const then = app.clock.now().toISOString()
    const live = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(live).toMatchObject({ state: 'enforced', recommended: 'Tier S' })
    expect(live.decisions.map((d: any) => [d.key, d.effect])).toEqual([['D-001', 'conflict'], ['D-002', 'enforced']])

    // D-001 is deprecated later: it was in force then, and the newer D-002 held over it.
    app.clock.advance(HOUR)
    await app.call('POST', '/v1/decisions/D-001/deprecate')
    const replay = (await app.call('POST', '/v1/recommendations', { ...TIER, as_of: then })).body
    expect(replay).toMatchObject({ state: 'enforced', recommended: 'Tier S' })
    expect(replay.decisions).toEqual(live.decisions)
  })
})

describe('GET /v1/why for a point (R-CON-5)', () => {
  it('returns the chain, rationale, evidence and the observations behind the recommendation; every id it cites exists', async () => {
    const app = await createTestApp()
    await choose(app, 'Tier M', 8)
    await choose(app, 'Tier S', 2)
    const why = await app.call('GET', '/v1/why?point=complexity-tier')
    expect(why.status).toBe(200)
    expect(why.body.recommendation).toMatchObject({ state: 'partial', recommended: 'Tier M' })
    expect(why.body.observations).toHaveLength(8)
    expect(why.body.observations.every((o: any) => o.chosen[0] === 'Tier M')).toBe(true)

    await app.call('POST', '/v1/decisions', {
      ...REQUIRED_TIER_L,
      enforce: 'advisory',
      status: 'accepted',
      evidence: [{ kind: 'incident', summary: 'INC-42: billing bug shipped without review', uri: 'https://example.test/INC-42' }],
    })
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, supersedes: 'D-001', status: 'accepted', rationale: 'An audit asked for it.' })
    const enforced = (await app.call('GET', '/v1/why?point=complexity-tier')).body
    expect(enforced.recommendation).toMatchObject({ state: 'enforced', recommended: 'Tier L', learned: { recommended: 'Tier M' } })
    expect(enforced.decisions.map((d: any) => [d.key, d.status, d.effect, d.current])).toEqual([
      ['D-001', 'superseded', null, 'D-002'],
      ['D-002', 'accepted', 'enforced', 'D-002'],
    ])
    expect(enforced.decisions[0].evidence[0]).toMatchObject({ kind: 'incident', uri: 'https://example.test/INC-42' })
    expect(enforced.decisions[1].chain.map((l: any) => [l.key, l.rationale])).toEqual([
      ['D-001', 'Billing changes need the design review that only Tier L has.'],
      ['D-002', 'An audit asked for it.'],
    ])

    const stored = new Set((await app.store.observationsAt('default', 'complexity-tier')).map((o) => o.id))
    for (const body of [why.body, enforced]) {
      for (const o of body.observations) expect(stored.has(o.id)).toBe(true)
      for (const d of body.decisions) {
        for (const key of [d.key, d.current, ...d.chain.flatMap((l: any) => [l.key, l.supersedes, l.superseded_by])]) {
          if (key !== null) expect((await app.call('GET', `/v1/decisions/${key}`)).status).toBe(200)
        }
      }
    }
  })

  it('cites the choices of Tier M behind tier m, when the question is now written so', async () => {
    const app = await createTestApp()
    await choose(app, 'Tier M', 6)
    await choose(app, 'Tier S', 2)
    app.clock.advance(60_000)
    await choose(app, 'tier m', 1, { all_options: ['tier s', 'tier m', 'tier l'] })
    const why = (await app.call('GET', '/v1/why?point=complexity-tier')).body
    expect(why.recommendation).toMatchObject({ recommended: 'tier m', observations: 9 })
    expect(why.observations).toHaveLength(7)
  })

  it('explains a point nobody was asked at yet from the options its decisions name', async () => {
    const app = await createTestApp()
    await app.call('POST', '/v1/decisions', REQUIRED_TIER_L)
    const why = (await app.call('GET', '/v1/why?point=complexity-tier')).body
    expect(why.recommendation).toMatchObject({ state: 'enforced', recommended: 'Tier L' })
    expect(why.decisions.map((d: any) => [d.key, d.effect])).toEqual([['D-001', 'enforced']])
    expect(why.observations).toEqual([])
  })

  it('leaves the option a must_not forbids out of the options it makes up for a point nobody was asked at', async () => {
    const app = await createTestApp()
    const never5 = { ...REQUIRED_TIER_L, key: 'D-201', scope: { points: ['retries2'] }, constraints: [{ kind: 'must_not', option: '5' }] }
    expect((await app.call('POST', '/v1/decisions', never5)).status).toBe(201)
    // Nothing but the forbidden option is known there: no recommendation, the decision listed.
    const alone = (await app.call('GET', '/v1/why?user=nobody&point=retries2')).body
    expect(alone.recommendation).toBeNull()
    expect(alone.decisions.map((d: any) => [d.key, d.effect])).toEqual([['D-201', null]])
    // Beside an option another decision names (and a limit's name, which is no option), that option:
    // required, as an advisory one alone is no answer (see the test of the advisory `prefer` alone).
    await app.call('POST', '/v1/decisions', {
      ...REQUIRED_TIER_L,
      key: 'D-202',
      scope: { points: ['retries2'] },
      constraints: [{ kind: 'must', option: '3' }, { kind: 'limit', option: 'attempts', value: 4 }],
    })
    const why = (await app.call('GET', '/v1/why?user=nobody&point=retries2')).body
    expect(why.recommendation).toMatchObject({ state: 'enforced', recommended: '3' })
    expect(why.recommendation.layers.long_term.counts.map((c: any) => c.option)).toEqual(['3'])
    expect(why.decisions.map((d: any) => [d.key, d.effect])).toEqual([
      ['D-201', 'not-offered'],
      ['D-202', 'enforced'],
    ])
  })

  it('recommends nothing of an advisory prefer alone at a point nobody was asked at, as a question asked there is answered at chance, not confidence 1', async () => {
    const app = await createTestApp()
    // The policy's default, Tier M, preferred by an advisory decision: the only option known there.
    const advisory = { ...REQUIRED_TIER_L, enforce: 'advisory', constraints: [{ kind: 'prefer', option: 'Tier M' }] }
    expect((await app.call('POST', '/v1/decisions', advisory)).status).toBe(201)
    const asked = (await app.call('POST', '/v1/recommendations', TIER)).body
    expect(asked).toMatchObject({ state: 'static-default', recommended: 'Tier M', confidence: { value: 0.3333, level: 'low' } })
    // Not `Tier M [static-default, confidence 1 high]`: the one option of a question nobody asked.
    const why = (await app.call('GET', '/v1/why?point=complexity-tier')).body
    expect(why.recommendation).toBeNull()
    expect(why.decisions.map((d: any) => [d.key, d.status])).toEqual([['D-001', 'accepted']])
    // So of an advisory option that is not the policy's default (no default at `retries`).
    await app.call('POST', '/v1/decisions', { ...advisory, key: 'D-002', scope: { points: ['retries'] }, constraints: [{ kind: 'prefer', option: '3' }] })
    expect((await app.call('GET', '/v1/why?user=nobody&point=retries')).body.recommendation).toBeNull()
    // Once the question is asked, `why` explains the answer the service gives it, figure for figure.
    await choose(app, 'Tier S', 1)
    const given = (await app.call('POST', '/v1/recommendations', TIER)).body
    const explained = (await app.call('GET', '/v1/why?point=complexity-tier')).body.recommendation
    expect(explained).toMatchObject({ state: given.state, recommended: given.recommended, confidence: given.confidence })
    expect(explained.state).toBe('static-default')
    expect(explained.confidence.level).toBe('low')
  })

  it('makes up no option for a point nobody was asked at from a decision revoked, superseded or only proposed', async () => {
    const app = await createTestApp()
    const kafka = { ...REQUIRED_TIER_L, key: 'K-1', scope: { points: ['broker'] }, constraints: [{ kind: 'must', option: 'Kafka' }] }
    expect((await app.call('POST', '/v1/decisions', kafka)).status).toBe(201)
    expect((await app.call('POST', '/v1/decisions/K-1/revoke', { reason: 'teams choose their broker' })).status).toBe(200)
    // Only a revoked decision ever named Kafka: nothing is recommended, the decision is listed.
    const revoked = (await app.call('GET', '/v1/why?user=nobody&point=broker')).body
    expect(revoked.recommendation).toBeNull()
    expect(revoked.decisions.map((d: any) => [d.key, d.status, d.effect])).toEqual([['K-1', 'revoked', null]])
    // A chain: the option of the decision in force, not that of the one it replaced (nor of a proposal).
    const postgres = { ...REQUIRED_TIER_L, key: 'K-2', scope: { points: ['database'] }, constraints: [{ kind: 'must', option: 'Postgres' }] }
    const sqlite = { ...postgres, key: 'K-3', supersedes: 'K-2', constraints: [{ kind: 'must', option: 'SQLite' }] }
    const mysql = { ...postgres, key: 'K-4', status: 'proposed', constraints: [{ kind: 'must', option: 'MySQL' }] }
    for (const body of [postgres, sqlite, mysql]) expect((await app.call('POST', '/v1/decisions', body)).status).toBe(201)
    const why = (await app.call('GET', '/v1/why?user=nobody&point=database')).body
    expect(why.recommendation).toMatchObject({ state: 'enforced', recommended: 'SQLite', learned: { recommended: 'SQLite' } })
  })

  it('makes up no question of the policy\'s default alone at a point nobody was asked at, where no decision in force names an option', async () => {
    const app = await createTestApp()
    // Superseded, then its replacement deprecated: no decision in force, nobody asked there.
    expect((await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, constraints: [{ kind: 'must', option: 'Tier M' }] })).status).toBe(201)
    const advisory = { ...REQUIRED_TIER_L, key: 'D-002', enforce: 'advisory', supersedes: 'D-001', constraints: [{ kind: 'prefer', option: 'Tier L' }] }
    expect((await app.call('POST', '/v1/decisions', advisory)).status).toBe(201)
    expect((await app.call('POST', '/v1/decisions/D-002/deprecate', {})).status).toBe(200)
    const why = (await app.call('GET', '/v1/why?point=complexity-tier')).body
    // Not Tier M at confidence 1, `high`: the one option of a question nobody asked.
    expect(why.recommendation).toBeNull()
    expect(why.decisions.map((d: any) => [d.key, d.status, d.effect])).toEqual([
      ['D-001', 'superseded', null],
      ['D-002', 'deprecated', null],
    ])
    // A required must_not names no option to offer either: Tier M alone is no answer.
    const never = { ...REQUIRED_TIER_L, key: 'D-003', constraints: [{ kind: 'must_not', option: 'Tier S' }] }
    expect((await app.call('POST', '/v1/decisions', never)).status).toBe(201)
    expect((await app.call('GET', '/v1/why?point=complexity-tier')).body.recommendation).toBeNull()
  })

  it('recommends the policy\'s static default at a point nobody was asked at, beside the options of decisions that do not apply', async () => {
    const app = await createTestApp()
    // Scoped to a path: a why without one is not under it, and the decision does not apply.
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, scope: { points: ['complexity-tier'], path: 'services/billing' } })
    const why = (await app.call('GET', '/v1/why?point=complexity-tier')).body
    expect(why.recommendation).toMatchObject({ state: 'static-default', recommended: 'Tier M' })
    expect(why.recommendation.confidence.level).not.toBe('high')
    expect(why.decisions.map((d: any) => [d.key, d.effect])).toEqual([['D-001', null]])
  })

  it('lists the policy\'s static default once at a point nobody was asked at, where a decision names it in other words (Tier M, M)', async () => {
    const app = await createTestApp()
    // The policy's default is `Tier M`; the decision says `M`, as a team may write the option.
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, enforce: 'advisory', title: 'Prefer M', constraints: [{ kind: 'prefer', option: 'M' }] })
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-002', enforce: 'advisory', title: 'Prefer L', constraints: [{ kind: 'prefer', option: 'Tier L' }] })
    const why = (await app.call('GET', '/v1/why?point=complexity-tier')).body
    // The options known: the default as the decision names it, first, then Tier L; not `Tier M` beside `M`.
    expect(why.recommendation.layers.long_term.counts.map((c: any) => c.option)).toEqual(['M', 'Tier L'])
    expect(why.recommendation.confidence.value).toBe(0.5)
  })

  it('recommends nothing at a point nobody was asked at whose only option is named by a decision that does not apply (R-CON-4)', async () => {
    const app = await createTestApp()
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'Q-1', scope: { points: ['queue'], path: 'src/api' }, constraints: [{ kind: 'must', option: 'Kafka' }] })
    // No path: the decision is out of scope, and Kafka, which only it names, is no answer, least of all a certain one.
    const outside = (await app.call('GET', '/v1/why?point=queue')).body
    expect(outside.recommendation).toBeNull()
    expect(outside.decisions.map((d: any) => [d.key, d.effect, d.out_of_scope])).toEqual([['Q-1', null, [{ field: 'path', scope: 'src/api', run: null }]]])
    expect((await app.call('GET', '/v1/why?point=queue&path=src/apiary')).body.recommendation).toBeNull()
    // Under its path, it applies and fixes the answer.
    const inside = (await app.call('GET', '/v1/why?point=queue&path=src/api/routes.ts')).body
    expect(inside.recommendation).toMatchObject({ state: 'enforced', recommended: 'Kafka' })
    expect(inside.decisions.map((d: any) => [d.key, d.effect])).toEqual([['Q-1', 'enforced']])
  })

  it('explains the answer the recommendation gives at a point the policy marks multi-select, not the latest observation\'s reading', async () => {
    const app = await checksApp()
    const at = (h: number) => new Date(app.clock.now().getTime() - h * HOUR).toISOString()
    const sets = Array.from({ length: 6 }, (_, i) => ({ ...CHECKS, user_choice: ['Lint', 'Test'], timestamp: at(10 - i) }))
    // The latest was stored single-select (as asked then, or before the policy said multi-select).
    expect((await app.call('POST', '/v1/observations', [...sets, { ...CHECKS, user_choice: 'E2E', multi_select: false, timestamp: at(1) }])).status).toBe(201)
    const rec = (await app.call('POST', '/v1/recommendations', CHECKS)).body
    expect(rec).toMatchObject({ multi_select: true, recommended: ['Lint', 'Test'] })
    const why = (await app.call('GET', '/v1/why?user=dan&point=checks')).body
    expect(why.recommendation).toMatchObject({ recommended: ['Lint', 'Test'], state: rec.state, disclosure: rec.disclosure })
  })

  it('replays (as_of) with the decisions as they stood then: one accepted later is not there, one superseded later was in force (R-REC-9)', async () => {
    const app = await createTestApp()
    await choose(app, 'Tier S', 30)
    const before = app.clock.now().toISOString()
    app.clock.advance(HOUR)
    await app.call('POST', '/v1/decisions', REQUIRED_TIER_L)
    app.clock.advance(HOUR)
    const during = app.clock.now().toISOString()
    app.clock.advance(HOUR)
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, supersedes: 'D-001', constraints: [{ kind: 'must', option: 'Tier M' }] })
    app.clock.advance(HOUR)

    const early = (await app.call('GET', `/v1/why?point=complexity-tier&as_of=${before}`)).body
    expect(early.recommendation).toMatchObject({ state: 'sufficient', recommended: 'Tier S' })
    expect(early.decisions).toEqual([])

    const mid = (await app.call('GET', `/v1/why?point=complexity-tier&as_of=${during}`)).body
    expect(mid.recommendation).toMatchObject({ state: 'enforced', recommended: 'Tier L' })
    expect(mid.decisions).toHaveLength(1)
    expect(mid.decisions[0]).toMatchObject({ key: 'D-001', status: 'accepted', effect: 'enforced', current: 'D-001' })
    expect(mid.decisions[0].chain.map((l: any) => [l.key, l.status, l.superseded_by, l.superseded_at])).toEqual([['D-001', 'accepted', null, null]])
    expect(mid.decisions[0].events.map((e: any) => e.type)).toEqual(['proposed', 'accepted'])

    const now = (await app.call('GET', '/v1/why?point=complexity-tier')).body
    expect(now.recommendation).toMatchObject({ state: 'enforced', recommended: 'Tier M' })
    expect(now.decisions.map((d: any) => [d.key, d.status, d.effect, d.current])).toEqual([
      ['D-001', 'superseded', null, 'D-002'],
      ['D-002', 'accepted', 'enforced', 'D-002'],
    ])
  })

  it('replays a proposal that /supersede accepted as it stood before: it replaced nothing yet, and its chain reads alike from both ends (R-REC-9, R-CON-5)', async () => {
    const app = await createTestApp()
    await choose(app, 'Tier S', 30)
    await app.call('POST', '/v1/decisions', REQUIRED_TIER_L)
    // Proposed on its own, naming nothing it replaces: /supersede sets that link when it accepts it.
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, status: 'proposed', constraints: [{ kind: 'must', option: 'Tier M' }] })
    app.clock.advance(HOUR)
    const during = app.clock.now().toISOString()
    app.clock.advance(HOUR)
    expect((await app.call('POST', '/v1/decisions/D-001/supersede', { by: 'D-002' })).status).toBe(200)
    const accepted = (await app.call('GET', '/v1/decisions/D-002')).body.events.at(-1)
    expect(accepted).toMatchObject({ type: 'accepted', supersedes: 'D-001', before: { supersedes: null } })

    const mid = (await app.call('GET', `/v1/why?point=complexity-tier&as_of=${during}`)).body
    expect(mid.decisions.map((d: any) => [d.key, d.status, d.current, d.chain.map((l: any) => l.key)])).toEqual([
      ['D-001', 'accepted', 'D-001', ['D-001']],
      ['D-002', 'proposed', 'D-002', ['D-002']],
    ])
  })

  it('says whether the user was asked or answered for, in the session asked in, with its personalization then (R-ASK-2, R-SES-3)', async () => {
    const app = await createTestApp()
    await choose(app, 'Tier S', 30)
    await app.call('POST', '/v1/sessions', { session_id: 's-9' })
    await app.call('PUT', '/v1/sessions/s-9/personalization', { enabled: false })
    app.clock.advance(HOUR)
    const off = app.clock.now().toISOString()
    app.clock.advance(HOUR)
    await app.call('PUT', '/v1/sessions/s-9/personalization', { enabled: true })

    const answered = (await app.call('GET', `/v1/why?point=complexity-tier&as_of=${off}`)).body
    expect(answered).toMatchObject({ session_id: null })
    expect(answered.recommendation).toMatchObject({ state: 'sufficient', recommended: 'Tier S', ask: false })
    expect(answered.recommendation.ask_reason).toEqual(expect.any(String))

    const asked = (await app.call('GET', `/v1/why?point=complexity-tier&session_id=s-9&as_of=${off}`)).body
    expect(asked).toMatchObject({ session_id: 's-9' })
    expect(asked.recommendation).toMatchObject({ state: 'personalization-off', ask: true, ask_reason: 'personalization is off for this session' })
    // The same the recommendation in that session answered then.
    const rec = (await app.call('POST', '/v1/recommendations', { ...TIER, session_id: 's-9', as_of: off })).body
    expect(rec).toMatchObject({ state: asked.recommendation.state, ask: asked.recommendation.ask, ask_reason: asked.recommendation.ask_reason })
    // A session the why names is read, never started.
    await app.call('GET', '/v1/why?point=complexity-tier&session_id=s-new')
    const exported = (await app.call('GET', '/v1/users/default/export')).body
    expect(exported).toContain('"s-9"')
    expect(exported).not.toContain('s-new')
  })

  it('takes the run\'s task, path and stage as decisions/applicable does (R-CON-4): a path-scoped decision applies under its path', async () => {
    const app = await createTestApp()
    await choose(app, 'Tier S', 30, { context: { path: 'services/billing/invoice.ts' } })
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, scope: { points: ['complexity-tier'], path: 'services/billing', stage: 'plan' } })
    const outside = (await app.call('GET', '/v1/why?point=complexity-tier&path=services/billing/invoice.ts')).body
    expect(outside).toMatchObject({ path: 'services/billing/invoice.ts', task: null, stage: null })
    expect(outside.recommendation).toMatchObject({ state: 'sufficient', recommended: 'Tier S' })
    expect(outside.decisions.map((d: any) => [d.key, d.effect])).toEqual([['D-001', null]])
    // Why it did not apply: the run is under its path, but says no stage.
    expect(outside.decisions[0].out_of_scope).toEqual([{ field: 'stage', scope: 'plan', run: null }])
    const elsewhere = (await app.call('GET', '/v1/why?point=complexity-tier&path=services/web&stage=plan')).body
    expect(elsewhere.decisions[0]).toMatchObject({ effect: null, out_of_scope: [{ field: 'path', scope: 'services/billing', run: 'services/web' }] })

    const query = '/v1/why?point=complexity-tier&path=services/billing/invoice.ts&stage=plan&task=SPEC-1'
    const inside = (await app.call('GET', query)).body
    expect(inside).toMatchObject({ path: 'services/billing/invoice.ts', stage: 'plan', task: 'SPEC-1' })
    expect(inside.recommendation).toMatchObject({ state: 'enforced', recommended: 'Tier L', learned: { recommended: 'Tier S' } })
    expect(inside.decisions.map((d: any) => [d.key, d.effect])).toEqual([['D-001', 'enforced']])
    expect(inside.decisions[0].out_of_scope).toEqual([])
    // The same answer a recommendation in that run gives.
    const rec = (await app.call('POST', '/v1/recommendations', { ...TIER, context: { path: 'services/billing/invoice.ts', stage: 'plan', task: 'SPEC-1' } })).body
    expect(rec).toMatchObject({ state: inside.recommendation.state, recommended: inside.recommendation.recommended })
    // Below it by whole segments only.
    expect((await app.call('GET', '/v1/why?point=complexity-tier&path=services/billing-v2/x.ts&stage=plan')).body.recommendation.state).not.toBe('enforced')
  })

  it('compares the run\'s task, path and stage without the white space at their ends, as what is learned reads them', async () => {
    const app = await createTestApp()
    // Learned in `stage: " prod "`: the precondition says `stage is prod`, so the decision scoped to prod holds there.
    await choose(app, 'Tier S', 30, { context: { stage: ' prod ' } })
    await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, scope: { points: ['complexity-tier'], stage: 'prod', task: 'SPEC-1', path: 'services/billing' } })
    const run = { stage: ' prod ', task: 'SPEC-1\t', path: ' services/billing/invoice.ts ' }
    const rec = (await app.call('POST', '/v1/recommendations', { ...TIER, context: run })).body
    expect(rec).toMatchObject({ state: 'enforced', recommended: 'Tier L' })
    const why = (await app.call('GET', `/v1/why?${new URLSearchParams({ point: 'complexity-tier', ...run })}`)).body
    expect(why.recommendation).toMatchObject({ state: 'enforced', recommended: 'Tier L' })
    expect(why.decisions[0].out_of_scope).toEqual([])
    // A value of white space alone is no value, as in what is learned: the decision is out of scope.
    const blank = (await app.call('POST', '/v1/recommendations', { ...TIER, context: { ...run, stage: '  ' } })).body
    expect(blank.state).not.toBe('enforced')
  })

  it('takes any task, path or stage a recommendation\'s context takes: the MCP why tool passes its context\'s on', async () => {
    const app = await createTestApp()
    await choose(app, 'Tier S', 6)
    // Context values are texts of up to 500 characters; task and stage are no identifiers there.
    const context = { task: '!draft', stage: 'x'.repeat(300), path: '.' }
    const rec = await app.call('POST', '/v1/recommendations', { ...TIER, context })
    expect(rec.status).toBe(200)
    const query = new URLSearchParams({ point: 'complexity-tier', ...context })
    const why = await app.call('GET', `/v1/why?${query}`)
    expect(why.status).toBe(200)
    expect(why.body).toMatchObject({ task: '!draft', stage: 'x'.repeat(300), path: '.' })
    expect(why.body.recommendation).toMatchObject({ state: rec.body.state, recommended: rec.body.recommended })
    // Past what a context takes, refused naming the field.
    const long = await app.call('GET', `/v1/why?point=complexity-tier&task=${'x'.repeat(501)}`)
    expect(long.status).toBe(400)
    expect(long.body.error.issues[0].path).toBe('task')
  })

  it('refuses an empty path, task or stage, naming it', async () => {
    const app = await createTestApp()
    await choose(app, 'Tier S', 3)
    for (const field of ['path', 'task', 'stage']) {
      const answer = await app.call('GET', `/v1/why?point=complexity-tier&${field}=`)
      expect(answer.status).toBe(400)
      expect(answer.body.error.issues[0].path).toBe(field)
    }
  })

  it('documents task, path and stage in the OpenAPI document', async () => {
    const app = await createTestApp()
    const doc = (await app.call('GET', '/openapi.json')).body
    const names = doc.paths['/v1/why'].get.parameters.map((p: any) => p.name)
    expect(names).toEqual(expect.arrayContaining(['user', 'project', 'point', 'as_of', 'task', 'path', 'stage']))
  })

  it('is a 404 for a point nothing is known of, and a 400 without a point', async () => {
    const app = await createTestApp()
    expect((await app.call('GET', '/v1/why?point=nowhere')).status).toBe(404)
    // A point the policy names, with nothing observed and no decision: nothing known either.
    expect((await app.call('GET', '/v1/why?point=complexity-tier')).status).toBe(404)
    expect((await app.call('GET', '/v1/why')).body.error.issues[0].path).toBe('point')
  })

  // A new user asking why at a point the policy names was told "nothing is known" alone, where a
  // recommendation there gives the policy's static default with its precondition (R-REC-1, R-REC-5).
  it('says, at a point the policy names, what a recommendation there gives now: its static default, as its option says it', async () => {
    const app = await createTestApp()
    const asked = await app.call('POST', '/v1/recommendations', { user: 'alice', project: 'acme/api', question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] })
    expect([asked.body.point, asked.body.state, asked.body.recommended]).toEqual(['complexity-tier', 'static-default', 'Tier M'])
    const said = asked.body.options.find((o: any) => o.option === 'Tier M').description
    for (const query of ['point=complexity-tier&user=alice', 'point=complexity-tier&user=alice&project=acme/api']) {
      const why = await app.call('GET', `/v1/why?${query}`)
      expect([why.status, why.body.error.code]).toEqual([404, 'point_not_found'])
      expect(why.body.error.message).toBe(
        `nothing is known of point complexity-tier for user alice: no observation and no decision is held there, so a recommendation asked there gives the policy's static default, Tier M: "${said}"`,
      )
      expect(why.body.error.issues).toEqual([
        {
          path: 'point',
          message: 'no observation and no decision at this point; the question and its options, asked of POST /v1/recommendations (or the MCP tool recommend, or why), give the recommendation there',
        },
      ])
    }
    // A point the policy does not name: as before.
    const unknown = await app.call('GET', '/v1/why?point=tier&user=alice')
    expect([unknown.body.error.message, unknown.body.error.issues]).toEqual(['nothing is known of point tier for user alice', [{ path: 'point', message: 'no observation and no decision at this point' }]])
  })

  it('says, at a point the policy names without a static default or precondition, the first option and the general precondition', async () => {
    const base = await createTestApp()
    const points = base.policy.points.map((p) => (p.key === 'effort-level' ? { key: p.key, match: p.match, always_ask: p.always_ask, sensitive: p.sensitive } : p))
    const app = await createTestApp({ policy: compilePolicy({ ...base.policy, points, thresholds: { ...base.policy.thresholds, min_observations: 3 } }) })
    const asked = await app.call('POST', '/v1/recommendations', { user: 'bo', question: 'Which effort level?', all_options: ['High', 'Low'] })
    expect([asked.body.point, asked.body.recommended]).toEqual(['effort-level', 'High'])
    const said = asked.body.options.find((o: any) => o.option === 'High').description
    expect(said).toBe('Recommended when there is not yet enough personal history at this point — based on static default, 3 observations needed for personalization')
    const why = await app.call('GET', '/v1/why?point=effort-level&user=bo')
    expect(why.body.error.message).toBe(
      `nothing is known of point effort-level for user bo: no observation and no decision is held there, so a recommendation asked there gives the first option its question offers: "${said}"`,
    )
  })

  it('says, in a replay at a point the policy names, that nothing was held then', async () => {
    const app = await createTestApp()
    const then = new Date(Date.parse(START) - 86_400_000).toISOString()
    const why = await app.call('GET', `/v1/why?point=model-selection&user=alice&as_of=${then}`)
    expect(why.status).toBe(404)
    expect(why.body.error.message).toBe(
      `nothing is known of point model-selection for user alice as of ${then}: no observation and no decision was held there then, so a recommendation asked there as of then gives the policy's static default, Sonnet: "Recommended when the work is routine implementation, where a mid-size model is usually enough — based on static default, 5 observations needed for personalization"`,
    )
    expect(why.body.error.issues[0].message).toBe(`no observation and no decision at this point as of ${then}; the question and its options, asked of POST /v1/recommendations (or the MCP tool recommend, or why), give the recommendation there`)
  })

  it('says, for a replay before anything was known of the point, that it is as of then', async () => {
    const app = await createTestApp()
    expect((await app.call('POST', '/v1/observations', { question: 'Which tier?', point: 'tier', user_choice: 'S', all_options: ['S', 'M'] })).status).toBe(201)
    const now = await app.call('GET', '/v1/why?point=tier')
    expect(now.status).toBe(200)
    const before = await app.call('GET', `/v1/why?point=tier&as_of=${new Date(Date.parse(START) - 86_400_000).toISOString()}`)
    expect(before.status).toBe(404)
    expect(before.body.error.message).toContain(`as of ${new Date(Date.parse(START) - 86_400_000).toISOString()}`)
  })
})

describe('POST /v1/decisions/check of an answer joined with ", " at a multi-select question', () => {
  const NOT_M = { ...REQUIRED_TIER_L, title: 'Never Tier M', constraints: [{ kind: 'must_not', option: 'Tier M' }] }
  const TIER = { question: 'Which tier?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }

  /** An app whose policy says the complexity tier is multi-select, with Tier M ruled out there. */
  async function multiTierApp(): Promise<App> {
    const base = await createTestApp()
    const points = base.policy.points.map((p) => (p.key === 'complexity-tier' ? { ...p, multi_select: true } : p))
    const app = await createTestApp({ policy: compilePolicy({ ...base.policy, points }) })
    expect((await app.call('POST', '/v1/decisions', NOT_M)).status).toBe(201)
    return app
  }

  it('reads the labels it joins, as capture stores them (R-CAP-5), and blocks the one ruled out among them', async () => {
    const app = await multiTierApp()
    // Captured there, the joined answer is the two options it names, Tier M among them.
    expect((await app.call('POST', '/v1/observations', { ...TIER, user: 'alice', user_choice: 'Tier S, Tier M' })).status).toBe(201)
    const text = await (await app.app.request('/v1/users/alice/export')).text()
    expect(text).toContain('"chosen":["Tier S","Tier M"]')
    // Checked there, by the policy's multi_select, by the check's own, with or without the options offered.
    for (const body of [{}, { all_options: TIER.all_options }, { multi_select: true }, { multi_select: true, all_options: TIER.all_options }]) {
      const checked = await app.call('POST', '/v1/decisions/check', { choice: 'Tier S, Tier M', point: 'complexity-tier', ...body })
      expect([checked.status, checked.body.allowed, checked.body.blocked_by?.map((b: { message: string }) => b.message)], JSON.stringify(body)).toEqual([
        200,
        false,
        ['at complexity-tier "Tier M" must not be chosen'],
      ])
    }
    // Joined labels that name no option ruled out are allowed, text beside an option too.
    for (const choice of ['Tier S, Tier L', 'Tier S, something else']) {
      expect((await app.call('POST', '/v1/decisions/check', { choice, point: 'complexity-tier' })).body.allowed, choice).toBe(true)
    }
  })

  it('reads one label there as a multi-select choice of that option, by the point\'s policy as by multi_select: true', async () => {
    const app = await multiTierApp()
    expect((await app.call('POST', '/v1/decisions', REQUIRED_TIER_L)).status).toBe(201)
    expect((await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, title: 'Tier S too', constraints: [{ kind: 'must', option: 'Tier S' }] })).status).toBe(201)
    for (const body of [{}, { multi_select: true }]) {
      const one = (await app.call('POST', '/v1/decisions/check', { choice: 'Tier L', point: 'complexity-tier', ...body })).body
      // Musts of two options do not contradict at a multi-select question: the choice must hold both.
      expect(one, JSON.stringify(body)).toMatchObject({ allowed: false, blocked_by: [{ message: 'at complexity-tier the choice must include "Tier S", not only "Tier L"' }] })
      expect(one.conflicts, JSON.stringify(body)).toBeUndefined()
      expect((await app.call('POST', '/v1/decisions/check', { choice: 'Tier L, Tier S', point: 'complexity-tier', ...body })).body.allowed, JSON.stringify(body)).toBe(true)
    }
  })

  it('reads it as one label at a single-select question, as capture does', async () => {
    const app = await multiTierApp()
    const checked = await app.call('POST', '/v1/decisions/check', { choice: 'Tier S, Tier M', point: 'complexity-tier', multi_select: false })
    expect([checked.status, checked.body.allowed]).toEqual([200, true])
  })
})

describe('POST /v1/decisions/check of an array choice at a point the policy makes single-select', () => {
  /** An app whose policy says the complexity tier is single-select, with Tier L required there. */
  async function singleTierApp(): Promise<App> {
    const base = await createTestApp()
    const points = base.policy.points.map((p) => (p.key === 'complexity-tier' ? { ...p, multi_select: false } : p))
    const app = await createTestApp({ policy: compilePolicy({ ...base.policy, points }) })
    expect((await app.call('POST', '/v1/decisions', REQUIRED_TIER_L)).status).toBe(201)
    return app
  }

  it('is refused as no one choice, naming choice, rather than passing the must because Tier L is among them', async () => {
    const app = await singleTierApp()
    for (const choice of [['Tier L', 'Tier S'], ['Tier S', 'Tier L (Recommended)']]) {
      const res = await app.call('POST', '/v1/decisions/check', { choice, point: 'complexity-tier' })
      expect(res.status, JSON.stringify(choice)).toBe(400)
      expect(res.body.error).toMatchObject({ code: 'multiple_choices', issues: [{ path: 'choice', message: expect.stringContaining('single-select') }] })
    }
    // Nothing was checked, so no pulse was counted; a check of one option counts one.
    const checks = async () => JSON.stringify((await app.call('GET', '/v1/decisions/pulses')).body)
    expect(await checks()).not.toContain('"check":1')
    await app.call('POST', '/v1/decisions/check', { choice: 'Tier L', point: 'complexity-tier' })
    expect(await checks()).toContain('"check":1')
  })

  /** The observations a user's export holds, as stored. */
  async function exported(app: App, user: string): Promise<Array<Record<string, unknown>>> {
    const text = await (await app.app.request(`/v1/users/${user}/export`)).text()
    return text.trim().split('\n').map((line) => JSON.parse(line)).filter((line) => line.type === 'observation').map((line) => line.data)
  }

  it('refuses the same array captured without multi_select there, with the same words naming user_choice, and stores nothing', async () => {
    const app = await singleTierApp()
    const said = 'complexity-tier is single-select (its policy\'s multi_select is false): give one label, not 2 ("Tier L", "Tier S"), or multi_select true for a question asked multi-select'
    const checked = await app.call('POST', '/v1/decisions/check', { choice: ['Tier L', 'Tier S'], point: 'complexity-tier' })
    expect([checked.status, checked.body.error?.code, checked.body.error?.issues]).toEqual([400, 'multiple_choices', [{ path: 'choice', message: said }]])
    const question = { user: 'alice', question: 'Which tier?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }
    const captured = await app.call('POST', '/v1/observations', { ...question, user_choice: ['Tier L', 'Tier S'] })
    expect([captured.status, captured.body.error?.code, captured.body.error?.issues]).toEqual([400, 'multiple_choices', [{ path: 'user_choice', message: said }]])
    // In a batch, named by its place, and none of the batch stored.
    const batch = await app.call('POST', '/v1/observations', [{ ...question, user_choice: 'Tier M' }, { ...question, user_choice: ['Tier L', 'Tier S'] }])
    expect([batch.status, batch.body.error?.issues]).toEqual([400, [{ path: '1.user_choice', message: said }]])
    expect((await app.call('GET', '/v1/users/alice/preferences')).body.points).toEqual([])
    // Said multi-select, both take it; an array of one option is that option, single-select, in both.
    expect((await app.call('POST', '/v1/observations', { ...question, user_choice: ['Tier L', 'Tier S'], multi_select: true })).status).toBe(201)
    expect((await app.call('POST', '/v1/decisions/check', { choice: ['Tier L', 'Tier S'], point: 'complexity-tier', multi_select: true })).status).toBe(200)
    expect((await app.call('POST', '/v1/observations', { ...question, user: 'bob', user_choice: ['Tier L'] })).status).toBe(201)
    expect((await app.call('POST', '/v1/decisions/check', { choice: ['Tier L'], point: 'complexity-tier' })).body.allowed).toBe(true)
    const [stored] = await exported(app, 'bob')
    expect([stored?.chosen, stored?.multi_select]).toEqual([['Tier L'], false])
  })

  it('still reads a multi-select choice stored there before the policy made the point single-select', async () => {
    const db = new MemoryLevel<string, string>()
    const open = await createTestApp({ db })
    const question = { user: 'alice', question: 'Which tier?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }
    expect((await open.call('POST', '/v1/observations', { ...question, user_choice: ['Tier L', 'Tier S'] })).status).toBe(201)
    const points = open.policy.points.map((p) => (p.key === 'complexity-tier' ? { ...p, multi_select: false } : p))
    const app = await createTestApp({ db, policy: compilePolicy({ ...open.policy, points }) })
    const [point] = (await app.call('GET', '/v1/users/alice/preferences')).body.points
    expect([point.point, point.observations]).toEqual(['complexity-tier', 1])
    const [stored] = await exported(app, 'alice')
    expect([stored?.chosen, stored?.multi_select]).toEqual([['Tier L', 'Tier S'], true])
    const rec = await app.call('POST', '/v1/recommendations', question)
    expect([rec.status, rec.body.observations, rec.body.multi_select]).toEqual([200, 1, false])
  })

  it('takes an array of one option, or of one option named twice, as that option', async () => {
    const app = await singleTierApp()
    expect((await app.call('POST', '/v1/decisions/check', { choice: ['Tier L'], point: 'complexity-tier' })).body.allowed).toBe(true)
    expect((await app.call('POST', '/v1/decisions/check', { choice: ['Tier L', 'Tier L '], point: 'complexity-tier' })).body.allowed).toBe(true)
    expect((await app.call('POST', '/v1/decisions/check', { choice: ['Tier S'], point: 'complexity-tier' })).body.allowed).toBe(false)
  })

  it('checks a multi-select choice there when the check says its question was multi-select, as capture stores it', async () => {
    const app = await singleTierApp()
    // The policy's multi_select is the point's where a request does not say: a question asked
    // multi-select there is answered, and stored, with several options.
    const observed = await app.call('POST', '/v1/observations', { question: 'Which tier?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'], user_choice: ['Tier L', 'Tier S'], multi_select: true })
    expect(observed.status).toBe(201)
    const both = await app.call('POST', '/v1/decisions/check', { choice: ['Tier L', 'Tier S'], point: 'complexity-tier', multi_select: true })
    expect(both.status, JSON.stringify(both.body)).toBe(200)
    expect(both.body.allowed).toBe(true)
    const without = await app.call('POST', '/v1/decisions/check', { choice: ['Tier M', 'Tier S'], point: 'complexity-tier', multi_select: true })
    expect(without.body.allowed).toBe(false)
  })

  it('refuses several options where the check says its question was single-select, at any point, as capture does', async () => {
    const app = await createTestApp()
    await app.call('POST', '/v1/decisions', REQUIRED_TIER_L)
    for (const body of [{ point: 'complexity-tier' }, {}]) {
      const res = await app.call('POST', '/v1/decisions/check', { choice: ['Tier L', 'Tier S'], multi_select: false, ...body })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error).toMatchObject({ code: 'multiple_choices', issues: [{ path: 'choice', message: expect.stringContaining('multi_select') }] })
    }
  })

  it('reads the choice as the question it says, single- or multi-select, for what contradicts there too, whether one label or an array', async () => {
    const app = await singleTierApp()
    expect((await app.call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, title: 'Tier S too', constraints: [{ kind: 'must', option: 'Tier S' }] })).status).toBe(201)
    const check = async (body: object) => (await app.call('POST', '/v1/decisions/check', { point: 'complexity-tier', ...body })).body
    // Multi-select, musts of two options do not contradict: the choice must hold both, as a recommendation asked multi-select there says.
    const rec = await app.call('POST', '/v1/recommendations', { user: 'u', project: 'p', session_id: 's', question: 'Which tier?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'], multi_select: true })
    expect(rec.body.conflicts).toBeUndefined()
    const one = await check({ choice: 'Tier L', multi_select: true })
    expect(one).toMatchObject({ allowed: false, blocked_by: [{ message: 'at complexity-tier the choice must include "Tier S", not only "Tier L"' }] })
    expect(one.conflicts).toBeUndefined()
    // Single-select, they do, though the one label came as an array.
    for (const choice of [['Tier L'], 'Tier L']) {
      expect((await check({ choice, multi_select: false })).conflicts, JSON.stringify(choice)).toMatchObject([{ options: ['Tier S', 'Tier L'] }])
    }
  })

  it('refuses multi_select without a choice, naming it, rather than answer as though it was read', async () => {
    const app = await createTestApp()
    for (const multi_select of [true, false]) {
      const res = await app.call('POST', '/v1/decisions/check', { action: 'git push --force origin main', multi_select })
      expect(res.status).toBe(400)
      expect(res.body.error).toMatchObject({ code: 'invalid_request', issues: [{ path: 'multi_select' }] })
    }
  })

  it('takes multiSelect for multi_select, as a recommendation and an observation do, and refuses the two different, naming multiSelect', async () => {
    const app = await singleTierApp()
    const both = await app.call('POST', '/v1/decisions/check', { choice: ['Tier L', 'Tier S'], point: 'complexity-tier', multiSelect: true })
    expect(both.status, JSON.stringify(both.body)).toBe(200)
    expect(both.body.allowed).toBe(true)
    const single = await app.call('POST', '/v1/decisions/check', { choice: ['Tier L', 'Tier S'], multiSelect: false })
    expect(single.body.error).toMatchObject({ code: 'multiple_choices', issues: [{ path: 'choice' }] })
    expect((await app.call('POST', '/v1/decisions/check', { choice: ['Tier L', 'Tier S'], point: 'complexity-tier', multi_select: true, multiSelect: true })).status).toBe(200)
    const pulses = JSON.stringify((await app.call('GET', '/v1/decisions/pulses')).body)
    const differ = await app.call('POST', '/v1/decisions/check', { choice: ['Tier L', 'Tier S'], point: 'complexity-tier', multi_select: true, multiSelect: false })
    expect(differ.status).toBe(400)
    expect(differ.body.error).toMatchObject({ code: 'invalid_request', issues: [{ path: 'multiSelect', message: 'differs from multi_select: give one of the two' }] })
    // Refused before anything was checked: no pulse counted.
    expect(JSON.stringify((await app.call('GET', '/v1/decisions/pulses')).body)).toBe(pulses)
    const alone = await app.call('POST', '/v1/decisions/check', { action: 'git push --force origin main', multiSelect: true })
    expect(alone.status).toBe(400)
    expect(alone.body.error).toMatchObject({ code: 'invalid_request', issues: [{ path: 'multiSelect' }] })
  })

  it('at a point the policy leaves open, reads an array as a multi-select choice, as capture reads it', async () => {
    const app = await createTestApp()
    await app.call('POST', '/v1/decisions', REQUIRED_TIER_L)
    expect((await app.call('POST', '/v1/decisions/check', { choice: ['Tier L', 'Tier S'], point: 'complexity-tier' })).body.allowed).toBe(true)
  })
})
