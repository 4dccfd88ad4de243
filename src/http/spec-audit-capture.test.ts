import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { createTestApp, START } from '../../test/support/test-app'
import { ALICE, BOB, OPS, testTokens } from '../../test/support/tokens'
import { DEFAULT_POLICY_FILE, parsePolicy } from '../config/load-policy'

// Black-box checks of SPEC.md's R-CAP-1 to R-CAP-4 (and R-CAP-5 where it touches capture's wire
// format), R-POL and R-SVC-1 to R-SVC-5 through the documented wire format only (README "HTTP API",
// "Errors", "Limits", "Auth", "Your data"), as acceptance tests built from the spec, the seed and
// real clients would be. The sibling spec-audit.test.ts does the same for R-REC, R-ASK, R-MEM, R-SES.

/** SPEC.md R-CAP-1's example, as written there. */
const SPEC_EXAMPLE = {
  decision_id: 'moai-ask-001',
  timestamp: '2026-07-01T10:00:00Z',
  question: 'Choose the next step',
  user_choice: 'Option A (Recommended)',
  all_options: ['Option A', 'Option B', 'Option C'],
  context: { spec_id: 'SPEC-XXX-001', phase: 'run', workflow: '/moai run' },
  user: 'alice',
  project: 'acme/api',
  session_id: 's-1',
  point: 'next-step',
  header: 'Next step',
}
/** A question no policy point fits: keyed by its text and options, its static default its first option. */
const QUEUE = { question: 'Which queue backend should the worker use?', all_options: ['Redis', 'SQS', 'Kafka'] }
const DAY = 86_400_000

type App = Awaited<ReturnType<typeof createTestApp>>
type Call = App['call']

/** The user's export, one parsed record a line (R-SVC-5). */
async function exportOf(call: Call, user = 'default', headers: Record<string, string> = {}) {
  const { status, body } = await call('GET', `/v1/users/${encodeURIComponent(user)}/export`, undefined, headers)
  expect(status).toBe(200)
  return (body as string)
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
}

async function observationsOf(call: Call, user = 'default') {
  return (await exportOf(call, user)).filter((r) => r.type === 'observation').map((r) => r.data)
}

async function record(call: Call, body: unknown) {
  const answer = await call('POST', '/v1/observations', body)
  expect(answer.status, JSON.stringify(answer.body)).toBe(201)
  return answer.body as { stored: Array<{ id: string; point: string; decision_id: string | null }>; duplicates: string[] }
}

let made = 0
const times = (count: number, observation: Record<string, unknown>) =>
  Array.from({ length: count }, () => ({ ...observation, decision_id: `cap-${made++}` }))

describe('R-CAP-1: one observation or an array, in the seed\'s record', () => {
  it('takes the spec\'s example as written and keeps every field of it', async () => {
    const { call } = await createTestApp()
    const answer = await record(call, SPEC_EXAMPLE)
    expect(answer).toEqual({ stored: [{ id: expect.any(String), point: 'next-step', decision_id: 'moai-ask-001' }], duplicates: [] })
    const [stored] = await observationsOf(call, 'alice')
    expect(stored).toMatchObject({
      id: answer.stored[0]!.id,
      user: 'alice',
      project: 'acme/api',
      session_id: 's-1',
      point: 'next-step',
      header: 'Next step',
      decision_id: 'moai-ask-001',
      timestamp: '2026-07-01T10:00:00.000Z',
      question: 'Choose the next step',
      options: ['Option A', 'Option B', 'Option C'],
      chosen: ['Option A'],
      other: null,
      context: SPEC_EXAMPLE.context,
      source: 'user',
    })
  })

  it('answers an array with one stored entry per observation, in the order sent', async () => {
    const { call } = await createTestApp()
    const answer = await record(call, [
      { ...QUEUE, user_choice: 'SQS', decision_id: 'a-1' },
      { ...QUEUE, user_choice: 'Kafka' },
      { ...SPEC_EXAMPLE, user: 'default' },
    ])
    expect(answer.stored.map((s) => s.decision_id)).toEqual(['a-1', null, 'moai-ask-001'])
    expect(answer.stored[2]!.point).toBe('next-step')
    expect(new Set(answer.stored.map((s) => s.id)).size).toBe(3)
    expect(answer.duplicates).toEqual([])
    const stored = new Map((await observationsOf(call)).map((o) => [o.id, o.chosen[0]]))
    expect(answer.stored.map((s) => stored.get(s.id))).toEqual(['SQS', 'Kafka', 'Option A'])
  })

  it('takes {label, description} options beside plain ones, and an array choice as multi-select', async () => {
    const { call } = await createTestApp()
    const checks = {
      question: 'Which checks should run before the PR?',
      all_options: [{ label: 'Lint, format', description: 'eslint and prettier' }, { label: 'Unit tests', description: 'vitest' }, 'E2E tests'],
    }
    await record(call, { ...checks, user_choice: ['Unit tests', 'Lint, format (Recommended)'] })
    const [stored] = await observationsOf(call)
    expect(stored).toMatchObject({ options: ['Lint, format', 'Unit tests', 'E2E tests'], chosen: ['Unit tests', 'Lint, format'], other: null, multi_select: true })
  })

  it('defaults user to "default" and timestamp to the service\'s now; the optional fields may all be left out', async () => {
    const { call, clock } = await createTestApp()
    clock.advance(3 * DAY + 1234)
    const answer = await record(call, { ...QUEUE, user_choice: 'Kafka' })
    expect(answer.stored[0]).toMatchObject({ decision_id: null, point: expect.stringMatching(/^q-[0-9a-f]{20}$/) })
    const [stored] = await observationsOf(call, 'default')
    expect(stored).toMatchObject({ user: 'default', project: null, session_id: null, header: null, decision_id: null, context: {} })
    expect(stored.timestamp).toBe(new Date(Date.parse(START) + 3 * DAY + 1234).toISOString())
  })
})

describe('R-CAP-2: decision_id is an idempotency key per user', () => {
  it('stores one observation for the same id posted again, within an array and across requests; the first is kept', async () => {
    const { call } = await createTestApp()
    const first = await record(call, [
      { ...QUEUE, user_choice: 'Kafka', decision_id: 'retry-1' },
      { ...QUEUE, user_choice: 'SQS', decision_id: 'retry-1' },
      { ...QUEUE, user_choice: 'Redis', decision_id: 'other-1' },
    ])
    expect(first.stored.map((s) => s.decision_id)).toEqual(['retry-1', 'other-1'])
    expect(first.duplicates).toEqual(['retry-1'])
    // A hook's retry, with whatever it holds by then.
    const again = await record(call, [
      { ...QUEUE, user_choice: 'SQS', decision_id: 'retry-1' },
      { ...QUEUE, user_choice: 'SQS', decision_id: 'other-1' },
    ])
    expect(again).toEqual({ stored: [], duplicates: ['retry-1', 'other-1'] })
    const recommendation = (await call('POST', '/v1/recommendations', QUEUE)).body
    expect(recommendation.observations).toBe(2)
    expect(recommendation.options.find((o: { option: string }) => o.option === 'Kafka').count).toBe(1)
    expect(recommendation.options.find((o: { option: string }) => o.option === 'SQS').count).toBe(0)
  })

  it('is per user: the same id for two users is two observations, and a user named in another Unicode form is the same user', async () => {
    const { call } = await createTestApp()
    const answer = await record(call, [
      { ...QUEUE, user_choice: 'Kafka', decision_id: 'd-1', user: 'alice' },
      { ...QUEUE, user_choice: 'Kafka', decision_id: 'd-1', user: 'bob' },
      { ...QUEUE, user_choice: 'Kafka', decision_id: 'd-1', user: 'Jose\u0301' },
      { ...QUEUE, user_choice: 'Kafka', decision_id: 'd-1', user: 'Jos\u00e9' },
    ])
    expect(answer.stored).toHaveLength(3)
    expect(answer.duplicates).toEqual(['d-1'])
    for (const user of ['alice', 'bob', 'Jos\u00e9']) expect(await observationsOf(call, user)).toHaveLength(1)
  })
})

describe('R-CAP-3: labels are normalised before matching', () => {
  it.each([
    'Kafka (Recommended)',
    'Kafka (recommended)',
    'Kafka (RECOMMENDED)',
    '  Kafka  ',
    'Kafka   (Recommended)  ',
    'Kafka\u00a0(Recommended)',
    'Kafka\t(Recommended)\n',
    'Kafka (Recommended) (Recommended)',
    'Kafka (60% of recent choices)',
    'Kafka (static default)',
    'Kafka\uff08Recommended\uff09',
    // Invisible marks at the ends, which trim() leaves: an RLM a right-to-left text puts after the
    // mark, a zero width space or word joiner pasted with the label.
    'Kafka (Recommended)\u200f',
    '\u200bKafka',
    'Kafka\u2060',
    'Kafka ( Recommended )',
  ])('%j is the option Kafka', async (choice) => {
    const { call } = await createTestApp()
    const answer = await record(call, { ...QUEUE, user_choice: choice })
    const [stored] = await observationsOf(call)
    expect(stored).toMatchObject({ chosen: ['Kafka'], other: null })
    expect(answer.stored[0]!.point).toBe((await record(call, { ...QUEUE, user_choice: 'Kafka' })).stored[0]!.point)
  })

  it('drops invisible marks at a label\'s ends, in options too: a right-to-left question marked (Recommended) is one point', async () => {
    const { call } = await createTestApp()
    const question = 'أي طابور يستخدم العامل؟'
    const answer = await record(call, [
      { question, all_options: ['ريديس', 'كافكا'], user_choice: 'كافكا' },
      { question, all_options: ['ريديس', 'كافكا (Recommended)\u200f'], user_choice: 'كافكا (Recommended)\u200f' },
      { question, all_options: ['\u200fريديس\u200f (Recommended)', 'كافكا'], user_choice: 'كافكا\u200f' },
    ])
    expect(new Set(answer.stored.map((s) => s.point)).size).toBe(1)
    expect((await observationsOf(call)).map((o) => [o.options, o.chosen, o.other])).toEqual(Array(3).fill([['ريديس', 'كافكا'], ['كافكا'], null]))
    expect((await call('POST', '/v1/observations', { question, all_options: ['كافكا', 'كافكا\u200f'], user_choice: 'كافكا' })).status).toBe(400)
  })

  it('collapses repeated spaces inside a label, in options and choices alike', async () => {
    const { call } = await createTestApp()
    await record(call, { question: 'Which tier of service?', all_options: ['Tier   S', 'Tier M'], user_choice: 'Tier S' })
    await record(call, { question: 'Which tier of service?', all_options: ['Tier S', 'Tier M'], user_choice: ' Tier  M ' })
    const stored = await observationsOf(call)
    expect(stored.map((o) => o.chosen)).toEqual([['Tier S'], ['Tier M']])
    expect(stored[0].point).toBe(stored[1].point)
  })

  it('stores a choice that matches no option as other, its text kept; "Other" too', async () => {
    const { call } = await createTestApp()
    await record(call, [
      { ...QUEUE, user_choice: 'RabbitMQ, with quorum queues' },
      { ...QUEUE, user_choice: 'Other' },
    ])
    const stored = await observationsOf(call)
    expect(stored.map((o) => [o.chosen, o.other])).toEqual([
      [[], 'RabbitMQ, with quorum queues'],
      [[], 'Other'],
    ])
    const recommendation = (await call('POST', '/v1/recommendations', QUEUE)).body
    expect(recommendation.observations).toBe(2)
    expect(recommendation.options.every((o: { count: number }) => o.count === 0)).toBe(true)
  })

  it('reads back as the option every label this service shows, whatever the strength, and keys it to the same point', async () => {
    const { call } = await createTestApp()
    await record(call, times(6, { ...QUEUE, user_choice: 'Kafka', session_id: 'beginner' }))
    const shown = new Set<string>()
    // A beginner's labels, then an expert's (51 sessions), as a recommendation and as a plan show them.
    for (const sessions of [0, 51]) {
      for (let i = 0; i < sessions; i++) await call('POST', '/v1/sessions', { session_id: `x-${i}`, started_at: '2026-06-01T00:00:00Z' })
      const recommendation = (await call('POST', '/v1/recommendations', { ...QUEUE, session_id: 'beginner' })).body
      for (const o of recommendation.options) shown.add(o.label)
      const plan = (await call('POST', '/v1/plan', { session_id: 'beginner', questions: [{ question: QUEUE.question, header: 'Queue', options: QUEUE.all_options.map((label) => ({ label, description: label })), multiSelect: false }] })).body
      for (const o of plan.ask_user_question_input.questions[0].options) shown.add(o.label)
    }
    expect([...shown]).toEqual(expect.arrayContaining(['Kafka (Recommended)', 'Kafka (100% of recent choices)']))
    const point = (await call('POST', '/v1/recommendations', QUEUE)).body.point
    const ids = new Map<string, string>()
    for (const label of shown) {
      // The question sent back as it was shown: the option so labelled among the others, and chosen.
      const option = QUEUE.all_options.find((o) => label.startsWith(o)) as string
      const answer = await record(call, { question: QUEUE.question, all_options: QUEUE.all_options.map((o) => (o === option ? label : o)), user_choice: label })
      expect(answer.stored[0]!.point, label).toBe(point)
      ids.set(answer.stored[0]!.id, option)
    }
    const stored = (await observationsOf(call)).filter((o) => ids.has(o.id))
    expect(stored).toHaveLength(shown.size)
    for (const o of stored) expect(o).toMatchObject({ chosen: [ids.get(o.id)], other: null })
  })
})

describe('R-CAP-4: the decision point key', () => {
  it('is point when given, over a policy rule that matches', async () => {
    const { call } = await createTestApp()
    const answer = await record(call, { question: 'Which complexity tier?', header: 'Tier', all_options: ['Tier S', 'Tier M'], user_choice: 'Tier S', point: 'my-tiers' })
    expect(answer.stored[0]!.point).toBe('my-tiers')
  })

  it('is the policy point whose rule matches the header, or the question', async () => {
    const { call } = await createTestApp()
    const answer = await record(call, [
      { question: 'How big is this change?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'], user_choice: 'Tier S' },
      { question: 'Which complexity tier should this SPEC use?', all_options: ['S', 'M', 'L'], user_choice: 'M' },
      { question: 'TDD or DDD for this change?', all_options: ['TDD', 'DDD'], user_choice: 'TDD' },
      { question: 'Which model should review this?', header: 'Model', all_options: ['Opus', 'Sonnet'], user_choice: 'Opus' },
      { question: 'How much effort should go into this?', all_options: ['Low', 'Medium', 'High'], user_choice: 'Low' },
    ])
    expect(answer.stored.map((s) => s.point)).toEqual(['complexity-tier', 'complexity-tier', 'development-methodology', 'model-selection', 'effort-level'])
  })

  it('is otherwise a stable hash of the normalised question and the sorted normalised labels', async () => {
    const { call } = await createTestApp()
    const variants = [
      QUEUE,
      { ...QUEUE, question: 'WHICH QUEUE BACKEND SHOULD THE WORKER USE' },
      { ...QUEUE, question: '  Which  queue backend\nshould the worker use ?!  ' },
      { ...QUEUE, question: 'Which queue backend should the worker use\uff1f' },
      { ...QUEUE, all_options: ['Kafka', 'Redis', 'SQS'] },
      { ...QUEUE, all_options: ['SQS (Recommended)', ' Kafka ', { label: 'Redis', description: 'in memory' }] },
      { ...QUEUE, all_options: ['Kafka (60% of recent choices)', 'SQS', 'Redis'] },
    ]
    const answer = await record(call, variants.map((v) => ({ ...v, user_choice: 'SQS' })))
    // Pinned: a key that changed between versions would leave every choice made before at a point no question reaches.
    expect(answer.stored.map((s) => s.point)).toEqual(variants.map(() => 'q-54fd06b76315c08a4000'))
    const other = await record(call, [
      { ...QUEUE, question: 'Which queue backend should the scheduler use?', user_choice: 'SQS' },
      { ...QUEUE, all_options: ['Redis', 'SQS', 'Kafka', 'NATS'], user_choice: 'SQS' },
      { ...QUEUE, all_options: ['Redis', 'SQS'], user_choice: 'SQS' },
    ])
    for (const s of other.stored) expect(s.point).not.toBe('q-54fd06b76315c08a4000')
    expect(new Set(other.stored.map((s) => s.point)).size).toBe(3)
  })

  it('counts the choices of every variant of a question at the one point a recommendation reads', async () => {
    const { call } = await createTestApp()
    await record(call, [
      ...times(3, { ...QUEUE, question: 'which queue backend should the worker use', user_choice: 'SQS' }),
      ...times(3, { ...QUEUE, all_options: ['Kafka (Recommended)', 'SQS', 'Redis'], user_choice: 'SQS (Recommended)' }),
    ])
    const recommendation = (await call('POST', '/v1/recommendations', { ...QUEUE, all_options: ['SQS', 'Redis', 'Kafka'] })).body
    expect(recommendation).toMatchObject({ point: 'q-54fd06b76315c08a4000', observations: 6, recommended: 'SQS', state: 'partial' })
  })
})

describe('R-POL: the default policy and a user\'s own', () => {
  it.each([
    ['complexity-tier', { question: 'Which complexity tier should this SPEC use?', all_options: ['Tier S', 'Tier M', 'Tier L'] }, 'Tier M'],
    ['development-methodology', { question: 'TDD or DDD for this change?', all_options: ['DDD', 'TDD'] }, 'TDD'],
    ['model-selection', { question: 'Which model should review this?', all_options: ['Opus', 'Sonnet', 'Haiku'] }, 'Sonnet'],
    ['effort-level', { question: 'What effort level?', all_options: ['Low', 'Medium', 'High'] }, 'Medium'],
  ])('names the seed\'s %s point, with its static default and precondition', async (point, question, staticDefault) => {
    const { call, policy } = await createTestApp()
    const named = policy.points.find((p) => p.key === point)
    expect(named?.static_default).toBe(staticDefault)
    const { body } = await call('POST', '/v1/recommendations', question)
    expect(body).toMatchObject({ point, state: 'static-default', recommended: staticDefault })
    expect(body.precondition).toBe(named?.precondition)
    expect(body.options[0].description).toBe(`Recommended when ${named?.precondition} — based on static default, 5 observations needed for personalization`)
  })

  it('runs on a user\'s own file: its thresholds, auto-resolve p, expertise bands, sensitive terms and points', async () => {
    const base = JSON.parse(readFileSync(DEFAULT_POLICY_FILE, 'utf8'))
    const mine = {
      thresholds: { min_observations: 3, sufficient_observations: 6 },
      ask: { auto_resolve_p: 0.8 },
      expertise: { beginner_below: 2, expert_above: 3 },
      sensitive_terms: ['deploy'],
      points: [
        { key: 'database', match: { question: 'which database' }, static_default: 'postgres (Recommended)', precondition: 'a relational store fits', always_ask: true },
        { key: 'cache', match: { header: '^cache$' }, static_default: 'Memcached', precondition: 'the cache is simple' },
        { key: 'checks', match: { header: '^checks$' }, multi_select: true },
      ],
    }
    const { call } = await createTestApp({ policy: parsePolicy(JSON.stringify(mine), 'mine.json', base) })
    const DB = { question: 'Which database for orders?', all_options: ['MySQL', 'Postgres', 'SQLite'] }
    await record(call, times(2, { ...DB, user_choice: 'SQLite' }))
    const early = (await call('POST', '/v1/recommendations', DB)).body
    // The policy's static default names the option in another case, and with its mark: Postgres.
    expect(early).toMatchObject({ point: 'database', state: 'static-default', recommended: 'Postgres', precondition: 'a relational store fits', needed: 1 })
    await record(call, times(1, { ...DB, user_choice: 'SQLite' }))
    expect((await call('POST', '/v1/recommendations', DB)).body).toMatchObject({ state: 'partial', recommended: 'SQLite', needed: 0 })
    await record(call, times(30, { ...DB, user_choice: 'SQLite' }))
    const always = (await call('POST', '/v1/recommendations', DB)).body
    expect(always).toMatchObject({ state: 'sufficient', ask: true })
    expect(always.p).toBeGreaterThanOrEqual(0.8)

    const CACHE = { question: 'What should sessions be kept in?', header: 'Cache', all_options: ['Redis', 'Memcached'] }
    await record(call, times(7, { ...CACHE, user_choice: 'Redis' }))
    const cache = (await call('POST', '/v1/recommendations', CACHE)).body
    // Sufficient from 7 (> M = 6); p of 7 of 7 with the Krichevsky-Trofimov prior is 0.9375: over 0.8, under the default's 0.9.
    expect(cache).toMatchObject({ point: 'cache', state: 'sufficient', ask: false, strength: 'strong' })

    const CHECKS = { question: 'What runs before the PR?', header: 'checks', all_options: ['Lint, format', 'Unit tests', 'E2E'] }
    await record(call, { ...CHECKS, user_choice: 'Lint, format, Unit tests' })
    expect((await observationsOf(call)).find((o) => o.point === 'checks')).toMatchObject({ chosen: ['Lint, format', 'Unit tests'], multi_select: true })

    const DEPLOY = { question: 'Deploy to which region?', all_options: ['eu-west-1', 'us-east-1'] }
    await record(call, times(10, { ...DEPLOY, user_choice: 'us-east-1' }))
    const sensitive = (await call('POST', '/v1/recommendations', DEPLOY)).body
    expect(sensitive).toMatchObject({ sensitive: true, strength: 'neutral', ask: true })
    expect(sensitive.options.map((o: { label: string }) => o.label)).toEqual(['eu-west-1', 'us-east-1'])

    for (let i = 0; i < 4; i++) await call('POST', '/v1/sessions', { session_id: `s-${i}` })
    const expert = (await call('POST', '/v1/recommendations', { ...CACHE, session_id: 's-0' })).body
    expect(expert).toMatchObject({ expertise: { sessions: 4, level: 'expert' }, strength: 'weak' })
    expect(expert.options[0].label).toBe('Redis (100% of recent choices)')
  })
})

/** R-SVC-2's envelope, exactly: code and message, each issue a path and a message, and nothing else but the request id. */
function expectEnvelope(body: any, code: string) {
  expect(Object.keys(body)).toEqual(['error'])
  expect(Object.keys(body.error).sort()).toEqual(['code', 'issues', 'message', 'request_id'])
  expect(body.error.code).toBe(code)
  expect(typeof body.error.message).toBe('string')
  expect(body.error.message.length).toBeGreaterThan(0)
  expect(Array.isArray(body.error.issues)).toBe(true)
  for (const issue of body.error.issues) {
    expect(Object.keys(issue).sort()).toEqual(['message', 'path'])
    expect(typeof issue.path).toBe('string')
    expect(typeof issue.message).toBe('string')
  }
}

describe('R-SVC-2: bad input gets a 4xx JSON error naming the field, and nothing stored is lost', () => {
  const GOOD = { ...QUEUE, user_choice: 'Kafka' }
  const JSON_TYPE = { 'content-type': 'application/json' }
  const cases: Array<[string, RequestInit & { path?: string }, number, string, string | null]> = [
    ['a field of the wrong type', { method: 'POST', body: JSON.stringify({ ...GOOD, question: 5 }), headers: JSON_TYPE }, 400, 'invalid_request', 'question'],
    ['a required field left out', { method: 'POST', body: JSON.stringify({ question: GOOD.question, all_options: GOOD.all_options }), headers: JSON_TYPE }, 400, 'invalid_request', 'user_choice'],
    ['a field misspelt', { method: 'POST', body: JSON.stringify({ ...GOOD, decisionId: 'd-1' }), headers: JSON_TYPE }, 400, 'invalid_request', 'decisionId'],
    ['a bad item of an array, by its place', { method: 'POST', body: JSON.stringify([GOOD, { ...GOOD, all_options: 'Redis' }]), headers: JSON_TYPE }, 400, 'invalid_request', '1.all_options'],
    ['a body that is not an object or array', { method: 'POST', body: '"Kafka"', headers: JSON_TYPE }, 400, 'invalid_request', '(body)'],
    ['a nested context', { method: 'POST', body: JSON.stringify({ ...GOOD, context: { phase: { name: 'run' } } }), headers: JSON_TYPE }, 400, 'invalid_request', 'context.phase'],
    ['a blank user', { method: 'POST', body: JSON.stringify({ ...GOOD, user: ' ' }), headers: JSON_TYPE }, 400, 'invalid_request', 'user'],
    ['a timestamp that is no time', { method: 'POST', body: JSON.stringify({ ...GOOD, timestamp: 'yesterday' }), headers: JSON_TYPE }, 400, 'invalid_request', 'timestamp'],
    ['a timestamp in the future', { method: 'POST', body: JSON.stringify({ ...GOOD, timestamp: '2030-01-01T00:00:00Z' }), headers: JSON_TYPE }, 400, 'timestamp_in_future', 'timestamp'],
    ['two options one once normalised', { method: 'POST', body: JSON.stringify({ ...GOOD, all_options: ['Kafka', 'Kafka (Recommended)'] }), headers: JSON_TYPE }, 400, 'duplicate_option', 'all_options.1'],
    ['two answers to a single-select question', { method: 'POST', body: JSON.stringify({ ...GOOD, user_choice: ['Kafka', 'SQS'], multi_select: false }), headers: JSON_TYPE }, 400, 'multiple_choices', 'user_choice'],
    ['over 1,000 observations', { method: 'POST', body: JSON.stringify(Array.from({ length: 1001 }, () => GOOD)), headers: JSON_TYPE }, 400, 'invalid_request', '(body)'],
    ['JSON cut short', { method: 'POST', body: '{"question": "Which', headers: JSON_TYPE }, 400, 'invalid_json', '(body)'],
    ['a body that is not UTF-8', { method: 'POST', body: Buffer.from([0x7b, 0x22, 0x71, 0xe9, 0x22, 0x3a, 0x31, 0x7d]), headers: JSON_TYPE }, 400, 'invalid_json', '(body)'],
    ['a body in another content type', { method: 'POST', body: JSON.stringify(GOOD), headers: { 'content-type': 'text/plain' } }, 415, 'unsupported_media_type', 'content-type'],
    ['a body without a content type', { method: 'POST', body: JSON.stringify(GOOD) }, 415, 'unsupported_media_type', 'content-type'],
    ['a compressed body', { method: 'POST', body: JSON.stringify(GOOD), headers: { ...JSON_TYPE, 'content-encoding': 'gzip' } }, 415, 'unsupported_media_type', 'content-encoding'],
    ['a query parameter the route has not', { method: 'POST', body: JSON.stringify(GOOD), headers: JSON_TYPE, path: '/v1/observations?dry_run=1' }, 400, 'invalid_request', 'dry_run'],
    ['a user path that is not UTF-8', { method: 'DELETE', path: '/v1/users/%FF' }, 400, 'invalid_request', 'user'],
    ['an unknown route', { method: 'GET', path: '/v1/observation' }, 404, 'not_found', null],
    ['a method the route does not take', { method: 'GET', path: '/v1/observations' }, 405, 'method_not_allowed', null],
    ['forget with a method it does not take', { method: 'PUT', path: '/v1/users/default' }, 405, 'method_not_allowed', null],
  ]

  it.each(cases)('%s: %i %s', async (_name, { path = '/v1/observations', ...init }, status, code, field) => {
    const { app, call } = await createTestApp()
    await record(call, times(3, GOOD))
    const before = await exportOf(call)
    const response = await app.request(path, init)
    expect(response.status).toBe(status)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const body = (await response.json()) as any
    expectEnvelope(body, code)
    if (field === null) expect(body.error.issues).toEqual([])
    else expect(body.error.issues.map((i: { path: string }) => i.path)).toContain(field)
    if (status === 405) expect(response.headers.get('allow')).toBeTruthy()
    expect(await exportOf(call)).toEqual(before)
  })

  it('takes a body of exactly 256 KB, and answers one byte more 413, storing nothing of it', async () => {
    const { app, call } = await createTestApp()
    const json = JSON.stringify({ ...GOOD, decision_id: 'big' })
    // JSON's own white space pads it to the limit.
    const exactly = json + ' '.repeat(256 * 1024 - Buffer.byteLength(json))
    const over = await app.request('/v1/observations', { method: 'POST', body: exactly + ' ', headers: JSON_TYPE })
    expect(over.status).toBe(413)
    expectEnvelope(await over.json(), 'body_too_large')
    expect(await observationsOf(call)).toEqual([])
    for (const headers of [JSON_TYPE, { ...JSON_TYPE, 'content-length': String(256 * 1024 + 1) }]) {
      const declared = await app.request('/v1/observations', { method: 'POST', body: exactly + ' ', headers })
      expect(declared.status).toBe(413)
    }
    const taken = await app.request('/v1/observations', { method: 'POST', body: exactly, headers: JSON_TYPE })
    expect(taken.status).toBe(201)
    expect(await observationsOf(call)).toHaveLength(1)
  })

  it('refuses an array with one bad item whole: none of its good items is stored', async () => {
    const { call } = await createTestApp()
    for (const bad of [{ ...GOOD, user_choice: 5 }, { ...GOOD, all_options: ['A', 'A '] }, { ...GOOD, timestamp: '2031-01-01T00:00:00Z' }, { ...GOOD, user_choice: ['Kafka', 'Redis'], multi_select: false }]) {
      const { status } = await call('POST', '/v1/observations', [{ ...GOOD, decision_id: 'good-1' }, bad])
      expect(status).toBe(400)
    }
    expect(await observationsOf(call)).toEqual([])
    // And the key of the good item was not taken by the refused request.
    expect(await record(call, { ...GOOD, decision_id: 'good-1' })).toMatchObject({ duplicates: [] })
  })
})

describe('R-SVC-3: concurrent observations at one point are all counted', () => {
  it('with recommendations, preferences, toggles and a decay scan interleaved, after the point is in core', async () => {
    const { call, clock } = await createTestApp()
    await record(call, times(6, { ...QUEUE, user_choice: 'Kafka', project: 'p' }))
    expect((await call('POST', '/v1/recommendations', { ...QUEUE, project: 'p' })).body.observations).toBe(6)
    const requests: Array<Promise<{ status: number }>> = []
    for (let i = 0; i < 300; i++) {
      requests.push(call('POST', '/v1/observations', { ...QUEUE, user_choice: QUEUE.all_options[i % 3], project: i % 2 ? 'p' : 'q', session_id: `s-${i % 7}`, decision_id: `c-${i}` }))
      // The same key again, from a hook's retry racing its first delivery.
      if (i % 10 === 0) requests.push(call('POST', '/v1/observations', { ...QUEUE, user_choice: 'Redis', project: 'p', decision_id: `c-${i}` }))
      if (i % 10 === 5) requests.push(call('POST', '/v1/recommendations', { ...QUEUE, project: 'p', session_id: 's-1' }))
      if (i % 50 === 0) requests.push(call('GET', '/v1/users/default/preferences'))
      if (i % 40 === 0) requests.push(call('PUT', `/v1/sessions/s-${i % 7}/personalization`, { enabled: true }))
      if (i === 150) requests.push(call('POST', '/v1/maintenance/decay-scan', { force: true }))
    }
    expect(new Set((await Promise.all(requests)).map((r) => r.status))).toEqual(new Set([200, 201]))
    const inP = (await call('POST', '/v1/recommendations', { ...QUEUE, project: 'p' })).body
    const everywhere = (await call('POST', '/v1/recommendations', QUEUE)).body
    const counts = (body: { options: Array<{ option: string; count: number }> }) => Object.fromEntries(body.options.map((o) => [o.option, o.count]))
    expect(inP.observations).toBe(156)
    expect(counts(inP)).toEqual({ Kafka: 56, Redis: 50, SQS: 50 })
    expect(everywhere.observations).toBe(306)
    expect(counts(everywhere)).toEqual({ Kafka: 106, Redis: 100, SQS: 100 })
    expect((await observationsOf(call)).length).toBe(306)
    // Past the recall TTL and a scan, the counts stand (R-MEM-3: they leave recall, not the long-term layer).
    clock.advance(40 * DAY)
    expect((await call('POST', '/v1/maintenance/decay-scan', {})).body.status).toBe('ran')
    expect((await call('POST', '/v1/recommendations', { ...QUEUE, project: 'p' })).body.observations).toBe(156)
  })
})

describe('R-SVC-4: with auth, every route but /healthz needs a token, scoped to its users', () => {
  const as = (token: string) => ({ authorization: `Bearer ${token}` })
  const CHOICE = { ...QUEUE, user_choice: 'Kafka' }
  /** Every route that acts for a user, as alice's token would send it for `user`. */
  const userRoutes = (user: string): Array<[string, string, unknown?]> => [
    ['POST', '/v1/observations', { ...CHOICE, user }],
    ['POST', '/v1/observations', [{ ...CHOICE, user: 'alice' }, { ...CHOICE, user }]],
    ['POST', '/v1/recommendations', { ...QUEUE, user }],
    ['POST', '/v1/plan', { user, questions: [{ question: QUEUE.question, header: 'Queue', options: [{ label: 'Redis', description: 'r' }, { label: 'SQS', description: 's' }], multiSelect: false }] }],
    ['POST', '/v1/sessions', { user, session_id: 's-9' }],
    ['PUT', '/v1/sessions/s-9/personalization', { user, enabled: false }],
    ['GET', `/v1/sessions/s-9/personalization?user=${user}`],
    ['GET', `/v1/why?user=${user}&point=q-54fd06b76315c08a4000`],
    ['POST', `/v1/hooks/claude-code?user=${user}`, { hook_event_name: 'SessionStart', session_id: 's-9', source: 'startup' }],
    ['GET', `/v1/users/${user}/preferences`],
    ['GET', `/v1/users/${user}/export`],
    ['DELETE', `/v1/users/${user}`],
  ]

  it('answers 401 without a token, or with one it does not know, on every route but /healthz', async () => {
    const { call } = await createTestApp({ auth: testTokens })
    expect((await call('GET', '/healthz')).status).toBe(200)
    for (const [method, path, body] of [...userRoutes('alice'), ['GET', '/openapi.json'], ['GET', '/docs'], ['GET', '/v1/decisions'], ['POST', '/v1/decisions/check', { action: 'ls' }]] as Array<[string, string, unknown?]>) {
      for (const headers of [{}, as('not-a-token-of-this-service'), { authorization: `Basic ${Buffer.from(`alice:${ALICE}`).toString('base64')}` }]) {
        const { status, body: answer } = await call(method, path, body, headers)
        expect(status, `${method} ${path}`).toBe(401)
        expectEnvelope(answer, 'unauthorized')
      }
    }
  })

  it("lets alice's token act for alice, and answers 403 for bob on every route, writing and reading nothing of his", async () => {
    const { call } = await createTestApp({ auth: testTokens })
    expect((await call('POST', '/v1/observations', { ...CHOICE, user: 'bob', session_id: 's-9', decision_id: 'bob-1' }, as(BOB))).status).toBe(201)
    const bobBefore = await exportOf(call, 'bob', as(OPS))
    for (const [method, path, body] of userRoutes('bob')) {
      const { status, body: answer } = await call(method, path, body, as(ALICE))
      expect(status, `${method} ${path}`).toBe(403)
      expectEnvelope(answer, 'forbidden')
      expect(answer.error.issues.map((i: { path: string }) => i.path)).toContainEqual(expect.stringMatching(/^(\d+\.)?user$/))
    }
    expect(await exportOf(call, 'bob', as(OPS))).toEqual(bobBefore)
    expect(await exportOf(call, 'alice', as(OPS))).toHaveLength(2)
    for (const [method, path, body] of userRoutes('alice')) {
      const { status } = await call(method, path, body, as(ALICE))
      expect(status, `${method} ${path}`).toBeLessThan(500)
      expect([401, 403]).not.toContain(status)
    }
  })

  it('takes a body without user as acting for default, which alice\'s token may not, and bob\'s may', async () => {
    const { call } = await createTestApp({ auth: testTokens })
    expect((await call('POST', '/v1/observations', CHOICE, as(ALICE))).status).toBe(403)
    expect((await call('POST', '/v1/observations', CHOICE, as(BOB))).status).toBe(201)
    expect((await call('GET', '/v1/users/default/export')).status).toBe(401)
    expect((await exportOf(call, 'default', as(BOB))).filter((r) => r.type === 'observation')).toHaveLength(1)
  })
})

describe('R-SVC-5: preferences, export and forget', () => {
  it('preferences: per point, the decayed majority, its share and confidence, each option\'s count, other, and what is still needed', async () => {
    const { call } = await createTestApp()
    await record(call, [...times(4, { ...QUEUE, user_choice: 'SQS', project: 'a' }), ...times(2, { ...QUEUE, user_choice: 'Redis', project: 'b' }), ...times(1, { ...QUEUE, user_choice: 'ZeroMQ' })])
    await record(call, times(2, { question: 'TDD or DDD?', all_options: ['TDD', 'DDD'], user_choice: 'DDD' }))
    const { status, body } = await call('GET', '/v1/users/default/preferences')
    expect(status).toBe(200)
    expect(body.user).toBe('default')
    expect(body.points.map((p: { point: string }) => p.point).sort()).toEqual(['development-methodology', 'q-54fd06b76315c08a4000'])
    const queue = body.points.find((p: { point: string }) => p.point === 'q-54fd06b76315c08a4000')
    expect(queue).toMatchObject({ question: QUEUE.question, majority: 'SQS', observations: 7, other: 1, needed: 0, multi_select: false })
    expect(queue.share).toBeCloseTo(4 / 7, 3)
    expect(queue.projects.sort()).toEqual(['a', 'b'])
    expect(Object.fromEntries(queue.options.map((o: { option: string; count: number }) => [o.option, o.count]))).toEqual({ SQS: 4, Redis: 2, Kafka: 0 })
    // As a recommendation at the point with no project computes it.
    const recommendation = (await call('POST', '/v1/recommendations', QUEUE)).body
    expect(queue.confidence.value).toBe(recommendation.confidence.value)
    expect(body.points.find((p: { point: string }) => p.point === 'development-methodology')).toMatchObject({ majority: 'DDD', observations: 2, needed: 3 })
  })

  it('export: NDJSON of everything held, header first and end with its counts last', async () => {
    const { app, call } = await createTestApp()
    await record(call, times(6, { ...QUEUE, user_choice: 'SQS', session_id: 's-1' }))
    await call('PUT', '/v1/sessions/s-1/personalization', { enabled: false })
    await call('POST', '/v1/recommendations', QUEUE)
    const response = await app.request('/v1/users/default/export')
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/)
    const text = await response.text()
    expect(text.endsWith('\n')).toBe(true)
    const lines = text.trimEnd().split('\n').map((line) => JSON.parse(line))
    expect(lines[0]).toMatchObject({ type: 'export', format: 1, user: 'default' })
    const end = lines.at(-1)
    const of = (type: string) => lines.filter((l) => l.type === type)
    expect(end).toEqual({ type: 'end', counts: { observation: 6, session: 1, aggregate: of('aggregate').length, entry: of('entry').length } })
    expect(of('session')[0].data).toMatchObject({ session_id: 's-1', personalization: false })
    expect(of('aggregate').length).toBeGreaterThan(0)
  })

  it('forget: every tier and index, the toggles, the sessions that made the user expert, and a kept answer; others untouched', async () => {
    const { call } = await createTestApp()
    for (const user of ['alice', 'alice2', 'alic']) {
      await record(call, Array.from({ length: 25 }, (_, i) => ({ ...QUEUE, user, user_choice: 'SQS', project: 'p', decision_id: `${user}-${i}`, session_id: `s-${i % 12}` })))
    }
    await call('PUT', '/v1/sessions/s-1/personalization', { user: 'alice', enabled: false })
    const before = (await call('POST', '/v1/recommendations', { ...QUEUE, user: 'alice', project: 'p', session_id: 's-2' })).body
    expect(before).toMatchObject({ state: 'sufficient', observations: 25, expertise: { sessions: 12, level: 'intermediate' } })
    const others = await Promise.all(['alice2', 'alic'].map((user) => exportOf(call, user)))

    const forgot = await call('DELETE', '/v1/users/alice')
    expect(forgot.status).toBe(200)
    expect(forgot.body.user).toBe('alice')
    expect(forgot.body.deleted).toBeGreaterThan(25)

    expect(await exportOf(call, 'alice')).toEqual([expect.objectContaining({ type: 'export' }), { type: 'end', counts: { observation: 0, session: 0, aggregate: 0, entry: 0 } }])
    expect((await call('GET', '/v1/users/alice/preferences')).body.points).toEqual([])
    expect((await call('GET', '/v1/sessions/s-1/personalization?user=alice')).status).toBe(404)
    const after = (await call('POST', '/v1/recommendations', { ...QUEUE, user: 'alice', project: 'p', session_id: 's-1' })).body
    expect(after).toMatchObject({ state: 'static-default', observations: 0, expertise: { sessions: 1, level: 'beginner' }, evidence: [] })
    // The ids are free again: a choice sent again after forget is stored.
    expect(await record(call, { ...QUEUE, user: 'alice', user_choice: 'SQS', decision_id: 'alice-0' })).toMatchObject({ duplicates: [] })
    expect(await Promise.all(['alice2', 'alic'].map((user) => exportOf(call, user)))).toEqual(others)
    expect((await call('DELETE', '/v1/users/nobody')).body).toEqual({ user: 'nobody', deleted: 0 })
  })
})

describe('R-POL: the numbers of the recommendation live in the policy', () => {
  const base = JSON.parse(readFileSync(DEFAULT_POLICY_FILE, 'utf8'))
  const withPolicy = (fields: unknown) => createTestApp({ policy: parsePolicy(JSON.stringify(fields), 'mine.json', base) })
  const TIER = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }
  /** The seed's worked example (Tier S 3 / Tier M 6 / Tier L 1), at one instant. */
  const seedExample = () => [
    ...times(3, { ...TIER, user_choice: 'Tier S', timestamp: START }),
    ...times(6, { ...TIER, user_choice: 'Tier M', timestamp: START }),
    ...times(1, { ...TIER, user_choice: 'Tier L', timestamp: START }),
  ]

  it('confidence bands: the seed\'s 0.81 is medium-high by default, high under a policy whose high is 0.8', async () => {
    const byDefault = await createTestApp()
    await record(byDefault.call, seedExample())
    const confidence = (await byDefault.call('POST', '/v1/recommendations', TIER)).body.confidence
    expect(confidence.level).toBe('medium-high')
    const lowered = await withPolicy({ confidence: { high: 0.8, medium_high: 0.7, medium: 0.5 } })
    await record(lowered.call, seedExample())
    const same = (await lowered.call('POST', '/v1/recommendations', TIER)).body.confidence
    expect(same.value).toBe(confidence.value)
    expect(same.level).toBe('high')
  })

  it('decay alpha: 0 weighs a year-old choice as one made now, the default 0.5 far less', async () => {
    const old = [...times(3, { ...QUEUE, user_choice: 'Kafka', timestamp: START })]
    const recent = (clockNow: string) => times(2, { ...QUEUE, user_choice: 'SQS', timestamp: clockNow })
    const shares: Record<string, number> = {}
    for (const [name, fields] of [['default', {}], ['flat', { decay: { alpha: 0 } }]] as const) {
      const { call, clock } = await withPolicy(fields)
      await record(call, old)
      clock.advance(365 * DAY)
      await record(call, recent(clock.now().toISOString()))
      const body = (await call('POST', '/v1/recommendations', QUEUE)).body
      shares[name] = body.options.find((o: { option: string }) => o.option === 'Kafka').share
    }
    expect(shares.flat).toBe(0.6)
    // (365 + 1)^-0.5 = 0.052 a choice: 3 of them beside 2 made now.
    expect(shares.default).toBeCloseTo((3 * 366 ** -0.5) / (3 * 366 ** -0.5 + 2), 3)
  })
})

describe('R-CAP-1: an array of no observations', () => {
  it('is refused, naming the body, as README\'s limits say (1 to 1,000 a request)', async () => {
    const { call } = await createTestApp()
    const { status, body } = await call('POST', '/v1/observations', [])
    expect(status).toBe(400)
    expectEnvelope(body, 'invalid_request')
    expect(body.error.issues).toEqual([{ path: '(body)', message: 'must not be empty' }])
  })
})
