import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { DEFAULT_POLICY_FILE, parsePolicy } from '../config/load-policy'
import { z } from '../domain/zod'
import { createTestApp, START } from '../../test/support/test-app'

/** AskUserQuestion's input as Claude Code defines the tool, written out independently of ours. */
const ToolInput = z.strictObject({
  questions: z
    .array(
      z.strictObject({
        question: z.string().min(1),
        header: z.string(),
        options: z
          .array(z.strictObject({ label: z.string().min(1), description: z.string() }))
          .min(2)
          .max(4)
          .refine((os) => new Set(os.map((o) => o.label)).size === os.length, 'labels unique'),
        multiSelect: z.boolean(),
      }),
    )
    .min(1)
    .max(4),
})

const TIER = {
  question: 'Which complexity tier should this SPEC use?',
  header: 'Tier',
  options: [
    { label: 'Tier S', description: 'Small' },
    { label: 'Tier M', description: 'Medium' },
    { label: 'Tier L', description: 'Large' },
  ],
  multiSelect: false,
}
/** A question left without multiSelect: what the plan takes it for is what the tests look at. */
const CHECKS = {
  question: 'Which checks should run before the PR?',
  header: 'Checks',
  options: [
    { label: 'Lint', description: 'eslint' },
    { label: 'Unit tests', description: 'vitest' },
    { label: 'E2E tests', description: 'playwright' },
  ],
}
const METHOD = {
  question: 'Which development methodology for this change?',
  header: 'Method',
  options: [
    { label: 'DDD', description: 'Domain first' },
    { label: 'TDD', description: 'Tests first' },
    { label: 'Other', description: 'Something else' },
  ],
  multiSelect: false,
}
const DOCS = {
  question: 'Where should the design notes go?',
  header: 'Notes',
  options: [
    { label: 'README', description: 'In the README' },
    { label: 'docs/', description: 'A docs folder' },
    { label: 'Wiki', description: 'The wiki' },
  ],
  multiSelect: false,
}

function observationsOf(question: typeof TIER, spec: Record<string, number>, prefix: string) {
  const out: Array<Record<string, unknown>> = []
  for (const [choice, count] of Object.entries(spec)) {
    for (let k = 0; k < count; k++) {
      out.push({
        question: question.question,
        header: question.header,
        all_options: question.options,
        user_choice: choice,
        decision_id: `${prefix}-${out.length}`,
        timestamp: START,
      })
    }
  }
  return out
}

describe('POST /v1/plan (R-ASK-3)', () => {
  it('orders three questions by information and gives valid AskUserQuestion input', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/observations', observationsOf(TIER, { 'Tier M': 40 }, 'tier'))
    await call('POST', '/v1/observations', observationsOf(METHOD, { DDD: 4, TDD: 5, Other: 1 }, 'method'))
    const { status, body } = await call('POST', '/v1/plan', { questions: [TIER, DOCS, METHOD] })
    expect(status).toBe(200)

    const informations = body.questions.map((q: { recommendation: { information: number } }) => q.recommendation.information)
    expect(informations).toEqual([...informations].sort((a: number, b: number) => b - a))
    expect(body.questions.map((q: { ask_user_question: { header: string } }) => q.ask_user_question.header)).toEqual([
      'Method',
      'Notes',
      'Tier',
    ])

    // Tier auto-resolves (40 consistent choices); the other two are asked, options as given but ordered.
    expect(body.answers).toEqual({ [TIER.question]: 'Tier M (Recommended)' })
    expect(body.questions[2]).toMatchObject({ ask: false, answer: 'Tier M (Recommended)' })
    const input = body.ask_user_question_input
    expect(ToolInput.safeParse(input).success).toBe(true)
    expect(input.questions.map((q: { question: string }) => q.question)).toEqual([METHOD.question, DOCS.question])
    const [method, docs] = input.questions
    expect(method.options.map((o: { label: string }) => o.label)).toEqual(['TDD (Recommended)', 'DDD', 'Other'])
    expect(docs.options.map((o: { label: string }) => o.label)).toEqual(['README (Recommended)', 'docs/', 'Wiki'])
    expect(method.options.length).toBe(METHOD.options.length)
    expect(Object.keys(method).sort()).toEqual(Object.keys(METHOD).sort())
    expect(body.deferred).toEqual([])
  })

  it('names the question that repeats an earlier one\'s text, and the earlier one, not the whole list', async () => {
    const { call } = await createTestApp()
    const other = { ...TIER, question: 'Which method?' }
    const text = { question: 'Which method?', header: 'Why', kind: 'text' }
    const { status, body } = await call('POST', '/v1/plan', { questions: [TIER, other, text, TIER] })
    expect(status).toBe(400)
    expect(body.error.message).toBe('invalid request: questions.2.question, questions.3.question')
    expect(body.error.issues).toEqual([
      { path: 'questions.2.question', message: 'the same text as question 1: question texts must be unique (answers are keyed by them)' },
      { path: 'questions.3.question', message: 'the same text as question 0: question texts must be unique (answers are keyed by them)' },
    ])
  })

  it('gives a question the agent left multiSelect out of the multiSelect its recommendation took it for', async () => {
    const { call } = await createTestApp()
    const checks = CHECKS
    const chosen = Array.from({ length: 8 }, (_, i) => ({
      question: checks.question,
      all_options: checks.options,
      user_choice: ['Lint', 'Unit tests'],
      decision_id: `checks-${i}`,
      timestamp: START,
    }))
    await call('POST', '/v1/observations', chosen)
    const { body } = await call('POST', '/v1/plan', { questions: [checks, { ...DOCS, multiSelect: undefined }] })
    const multi = (text: string) =>
      body.questions.find((q: { ask_user_question: { question: string } }) => q.ask_user_question.question === text).recommendation.multi_select
    expect([multi(checks.question), multi(DOCS.question)]).toEqual([true, false])
    const input = body.ask_user_question_input
    expect(ToolInput.safeParse(input).success).toBe(true)
    const shown = input.questions.find((q: { question: string }) => q.question === checks.question)
    expect(shown.options.filter((o: { label: string }) => o.label.endsWith('(Recommended)'))).toHaveLength(2)
    expect(shown.multiSelect).toBe(true)
    expect(input.questions.find((q: { question: string }) => q.question === DOCS.question).multiSelect).toBe(false)
  })

  it('gives a neutral question left without multiSelect one too: the tool needs it, and it leans on no option', async () => {
    const { call } = await createTestApp()
    const incident = { question: 'How should we handle the security incident?', header: 'Incident', options: [{ label: 'Page on-call', description: 'Now' }, { label: 'Open a ticket', description: 'Later' }] }
    const sensitive = (await call('POST', '/v1/plan', { questions: [incident] })).body
    expect(sensitive.questions[0].recommendation.strength).toBe('neutral')
    expect(sensitive.ask_user_question_input.questions[0]).toEqual({ ...incident, multiSelect: false })
    expect(ToolInput.safeParse(sensitive.ask_user_question_input).success).toBe(true)
    expect((await call('PUT', '/v1/sessions/s-off/personalization', { enabled: false })).status).toBe(200)
    const off = (await call('POST', '/v1/plan', { session_id: 's-off', questions: [{ ...CHECKS, multi_select: true }] })).body
    expect(off.questions[0].recommendation.strength).toBe('neutral')
    expect(off.ask_user_question_input.questions[0].multiSelect).toBe(true)
    expect(ToolInput.safeParse(off.ask_user_question_input).success).toBe(true)
  })

  it('takes a question\'s multi_select, as recommend and an observation spell it, for AskUserQuestion\'s multiSelect', async () => {
    const { call } = await createTestApp()
    const checks = { ...CHECKS, options: CHECKS.options.slice(0, 2) }
    const { body } = await call('POST', '/v1/plan', { questions: [{ ...checks, multi_select: true }, { ...DOCS, multiSelect: undefined, multi_select: false }] })
    const planned = (text: string) => body.questions.find((q: { ask_user_question: { question: string } }) => q.ask_user_question.question === text)
    expect([planned(checks.question).recommendation.multi_select, planned(DOCS.question).recommendation.multi_select]).toEqual([true, false])
    // Passed on as AskUserQuestion spells it, never beside a multiSelect that says otherwise.
    expect(ToolInput.safeParse(body.ask_user_question_input).success).toBe(true)
    const shown = (text: string) => body.ask_user_question_input.questions.find((q: { question: string }) => q.question === text)
    expect([shown(checks.question).multiSelect, shown(DOCS.question).multiSelect]).toEqual([true, false])
    const both = await call('POST', '/v1/plan', { questions: [TIER, { ...checks, multi_select: true, multiSelect: false }] })
    expect(both.status).toBe(400)
    expect(both.body.error.issues).toEqual([{ path: 'questions.1.multiSelect', message: 'differs from multi_select: give one of the two' }])
    // Anything but a boolean is a field of the agent's own, kept as it came.
    const own = await call('POST', '/v1/plan', { questions: [{ ...TIER, multi_select: 'ask' }] })
    expect(own.body.questions[0].ask_user_question).toMatchObject({ multi_select: 'ask', multiSelect: false })
  })

  it('records no observation, and a session id seen for the first time starts that session, unless as_of (R-SES-1)', async () => {
    const { call, store } = await createTestApp()
    expect((await call('POST', '/v1/plan', { session_id: 's-plan', project: 'acme', questions: [TIER] })).status).toBe(200)
    expect(await store.getSession('default', 's-plan')).toMatchObject({ session_id: 's-plan', project: 'acme', personalization: true })
    expect((await call('POST', '/v1/plan', { session_id: 's-replay', questions: [TIER], as_of: START })).status).toBe(200)
    expect(await store.getSession('default', 's-replay')).toBeUndefined()
    const observations = []
    for await (const o of store.observationsOf('default')) observations.push(o)
    expect(observations).toEqual([])
  })

  it('asks everything, unlabelled and unordered, for a session with personalization off', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/observations', observationsOf(TIER, { 'Tier L': 40 }, 'tier'))
    await call('PUT', '/v1/sessions/s-off/personalization', { enabled: false })
    const { body } = await call('POST', '/v1/plan', { session_id: 's-off', questions: [TIER] })
    expect(body.answers).toEqual({})
    expect(body.ask_user_question_input).toEqual({ questions: [TIER] })
  })

  it('keeps the option the agent marked (Recommended) as the static default while history is too short', async () => {
    const { call } = await createTestApp()
    const database = {
      question: 'Which database should the service use?',
      header: 'Database',
      options: [
        { label: 'SQLite', description: 'a file' },
        { label: 'PostgreSQL (Recommended)', description: 'matches the rest of the stack' },
        { label: 'MongoDB', description: 'documents' },
      ],
      multiSelect: false,
    }
    const tier = { ...TIER, options: TIER.options.map((o) => (o.label === 'Tier L' ? { ...o, label: 'Tier L (Recommended)' } : o)) }
    const { body } = await call('POST', '/v1/plan', { questions: [database, tier] })
    const byQuestion = new Map(body.questions.map((q: any) => [q.ask_user_question.question, q]))
    const db = byQuestion.get(database.question) as any
    expect(db.recommendation).toMatchObject({ state: 'static-default', recommended: 'PostgreSQL' })
    expect(db.ask_user_question.options.map((o: any) => o.label)).toEqual(['PostgreSQL (Recommended)', 'SQLite', 'MongoDB'])
    // At a policy point too (the policy's Tier M gives way), with the policy's general precondition, not Tier M's.
    const t = byQuestion.get(TIER.question) as any
    expect(t.recommendation).toMatchObject({ state: 'static-default', recommended: 'Tier L', precondition: 'there is not yet enough personal history at this point' })
    // Unmarked, or marked twice, the policy's default (or the first option) as before.
    const plain = await call('POST', '/v1/plan', { questions: [TIER] })
    expect(plain.body.questions[0].recommendation).toMatchObject({ recommended: 'Tier M', precondition: expect.stringMatching(/moderate scope/) })
    const twice = { ...database, options: database.options.map((o) => ({ ...o, label: o.label.replace(/ \(Recommended\)$/, '') + ' (Recommended)' })) }
    expect((await call('POST', '/v1/plan', { questions: [twice] })).body.questions[0].recommendation.recommended).toBe('SQLite')
    // Marked in full-width parentheses, as an agent writing Japanese or Chinese marks it.
    const ja = {
      ...database,
      question: 'サービスはどのデータベースを使いますか？',
      options: database.options.map((o) => ({ ...o, label: o.label.replace(/ \(Recommended\)$/, '（Recommended）') })),
    }
    const marked = (await call('POST', '/v1/plan', { questions: [ja] })).body.questions[0]
    expect(marked.recommendation).toMatchObject({ state: 'static-default', recommended: 'PostgreSQL' })
    expect(marked.ask_user_question.options.map((o: any) => o.label)).toEqual(['PostgreSQL (Recommended)', 'SQLite', 'MongoDB'])
  })

  it("keeps the agent's static default for an expert when its planned input is planned again (plan_questions, then the hook)", async () => {
    const { call } = await createTestApp()
    for (let i = 0; i < 51; i++) await call('POST', '/v1/sessions', { session_id: `s-${i}` })
    const tier = { ...TIER, options: TIER.options.map((o) => (o.label === 'Tier L' ? { ...o, label: 'Tier L (Recommended)' } : o)) }
    const first = (await call('POST', '/v1/plan', { questions: [tier] })).body
    expect(first.questions[0].recommendation).toMatchObject({ state: 'static-default', recommended: 'Tier L', strength: 'weak' })
    expect(first.ask_user_question_input.questions[0].options.map((o: any) => o.label)).toEqual(['Tier L (static default)', 'Tier S', 'Tier M'])
    // Passed to AskUserQuestion as it is, and planned again: still the agent's Tier L, not the policy's Tier M.
    const again = (await call('POST', '/v1/plan', first.ask_user_question_input)).body
    expect(again.questions[0].recommendation).toMatchObject({ state: 'static-default', recommended: 'Tier L' })
    expect(again.ask_user_question_input).toEqual(first.ask_user_question_input)
  })

  it('refuses what AskUserQuestion would refuse, naming the field', async () => {
    const { call } = await createTestApp()
    const five = { ...TIER, options: ['A', 'B', 'C', 'D', 'E'].map((label) => ({ label, description: label })) }
    const tooMany = await call('POST', '/v1/plan', { questions: [five] })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.error.issues[0].path).toBe('questions.0.options')

    const twice = await call('POST', '/v1/plan', { questions: [TIER, TIER] })
    expect(twice.status).toBe(400)
    expect(twice.body.error.issues[0].path).toBe('questions.1.question')

    const same = { ...DOCS, options: [{ label: 'README' }, { label: 'README (Recommended)' }] }
    const duplicate = await call('POST', '/v1/plan', { questions: [TIER, same] })
    expect(duplicate.status).toBe(400)
    expect(duplicate.body.error.code).toBe('duplicate_option')
    expect(duplicate.body.error.issues[0].path).toBe('questions.1.options.1')
    // The message names the field as the caller wrote it too, not the recommendation's all_options.
    expect(duplicate.body.error.issues[0].message).toBe('duplicate of questions.1.options.0 after normalisation')
  })

  it('a plan refused for a later question starts no session: a refused request stores nothing', async () => {
    const { call, store } = await createTestApp()
    const same = { ...DOCS, options: [{ label: 'README' }, { label: 'README (Recommended)' }] }
    const refused = await call('POST', '/v1/plan', { user: 'alice', session_id: 's-refused', questions: [TIER, same] })
    expect(refused.status).toBe(400)
    expect(refused.body.error.issues[0].path).toBe('questions.1.options.1')
    expect(await store.getSession('alice', 's-refused')).toBeUndefined()
    expect(await store.countSessions('alice')).toBe(0)
  })

  it('refuses a field of its own it does not have, and keeps those of the questions and options as they came', async () => {
    const { call } = await createTestApp()
    const misspelt = await call('POST', '/v1/plan', { questions: [TIER], sesion_id: 's-1', asOf: '2026-01-01T00:00:00Z' })
    expect(misspelt.status).toBe(400)
    expect(misspelt.body.error.issues).toEqual([
      { path: 'sesion_id', message: 'unknown field' },
      { path: 'asOf', message: 'unknown field' },
    ])
    const carrying = { ...TIER, preview: 'kept', options: TIER.options.map((o) => ({ ...o, shortcut: o.label[5] })) }
    const plan = await call('POST', '/v1/plan', { questions: [carrying] })
    expect(plan.status).toBe(200)
    expect(plan.body.questions[0].ask_user_question).toMatchObject({ preview: 'kept' })
    expect(plan.body.questions[0].ask_user_question.options).toContainEqual({ label: 'Tier L', description: 'Large', shortcut: 'L' })
    // An agent's whole AskUserQuestion input, with its own fields beside the questions: taken, ignored.
    const whole = await call('POST', '/v1/plan', { questions: [TIER], answers: {}, annotations: {}, metadata: { source: 'agent' } })
    expect(whole.status).toBe(200)
    expect(whole.body.questions).toHaveLength(1)
  })

  it('is in the OpenAPI document with the hook route', async () => {
    const { call } = await createTestApp()
    const { body } = await call('GET', '/openapi.json')
    expect(body.paths['/v1/plan'].post.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/PlanRequest',
    )
    expect(body.paths['/v1/hooks/claude-code'].post).toBeDefined()
    expect(body.components.schemas.QuestionPlan).toBeDefined()
  })
})

describe('POST /v1/plan with as_of (R-REC-9)', () => {
  it('plans as the service would have then: an audit of an earlier plan reads nothing written since', async () => {
    const { call, clock } = await createTestApp()
    const before = clock.now().toISOString()
    clock.advance(3600_000)
    await call('POST', '/v1/observations', observationsOf(TIER, { 'Tier M': 40 }, 'tier').map((o) => ({ ...o, timestamp: clock.now().toISOString() })))
    const now = (await call('POST', '/v1/plan', { questions: [TIER] })).body
    expect(now.answers).toEqual({ [TIER.question]: 'Tier M (Recommended)' })

    const then = await call('POST', '/v1/plan', { questions: [TIER], as_of: before })
    expect(then.status).toBe(200)
    expect(then.body.questions[0].recommendation).toMatchObject({ state: 'static-default', as_of: before, observations: 0 })
    expect(then.body.answers).toEqual({})
  })

  it('refuses an as_of in the future or not a time, naming as_of', async () => {
    const { call, clock } = await createTestApp()
    const future = await call('POST', '/v1/plan', { questions: [TIER], as_of: new Date(clock.now().getTime() + 3600_000).toISOString() })
    expect(future.status).toBe(400)
    expect(future.body.error).toMatchObject({ code: 'timestamp_in_future', issues: [{ path: 'as_of' }] })
    const garbled = await call('POST', '/v1/plan', { questions: [TIER], as_of: 'last tuesday' })
    expect(garbled.status).toBe(400)
    expect(garbled.body.error.issues[0].path).toBe('as_of')
  })

  it('refuses them as well where every question asks for text or a number, and nothing is recommended', async () => {
    const { call, clock } = await createTestApp()
    const NAME = { question: 'What should the service be called?', kind: 'text' }
    const future = await call('POST', '/v1/plan', { questions: [NAME], as_of: new Date(clock.now().getTime() + 3600_000).toISOString() })
    expect(future.status).toBe(400)
    expect(future.body.error).toMatchObject({ code: 'timestamp_in_future', issues: [{ path: 'as_of' }] })
    const early = await call('POST', '/v1/plan', { questions: [NAME], as_of: '1900-01-01T00:00:00Z' })
    expect(early.status).toBe(400)
    expect(early.body.error).toMatchObject({ code: 'timestamp_out_of_range', issues: [{ path: 'as_of' }] })
  })
})

describe('POST /v1/plan with questions asking for text or a number', () => {
  const NAME = { question: 'What should the service be called?', header: 'Name', kind: 'text', preview: 'kept' }
  const PORT = { question: 'Which port should it listen on?', header: 'Port', kind: 'number' }

  it('plans the choice questions beside them and returns each as written, in its place as sent, always asked', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/observations', observationsOf(TIER, { 'Tier M': 40 }, 'tier'))
    await call('POST', '/v1/observations', observationsOf(METHOD, { DDD: 4, TDD: 5, Other: 1 }, 'method'))
    const { status, body } = await call('POST', '/v1/plan', { questions: [NAME, TIER, METHOD, PORT, DOCS] })
    expect(status).toBe(200)
    // The choice questions fill their places in the plan's order (Method, Notes, Tier, as without them).
    const asked = (q: { ask_user_question: { question: string } }) => q.ask_user_question.question
    expect(body.questions.map(asked)).toEqual([NAME.question, METHOD.question, DOCS.question, PORT.question, TIER.question])
    expect(body.questions[0]).toEqual({
      ask_user_question: NAME,
      kind: 'text',
      recommendation: null,
      ask: true,
      answer: null,
      ask_reason: 'the question asks for text, not a choice: there is no option to recommend',
    })
    expect(body.questions[3]).toMatchObject({ ask_user_question: PORT, kind: 'number', recommendation: null, ask: true, answer: null })
    expect(body.questions[3].ask_reason).toContain('a number')
    // The choice entries keep their shape.
    expect(Object.keys(body.questions[1]).sort()).toEqual(['answer', 'ask', 'ask_user_question', 'recommendation'])
    expect(body.answers).toEqual({ [TIER.question]: 'Tier M (Recommended)' })
    // Tier, answered, leaves its place; the text and number questions are asked where they were.
    const input = body.ask_user_question_input.questions
    expect(input.map((q: { question: string }) => q.question)).toEqual([NAME.question, METHOD.question, PORT.question, DOCS.question])
    expect(input[0]).toEqual(NAME)
    expect(input[1].options.map((o: { label: string }) => o.label)).toEqual(['TDD (Recommended)', 'DDD', 'Other'])
    expect(body.deferred).toEqual([])
  })

  it('counts them among the four of one AskUserQuestion call, the rest deferred in order', async () => {
    const { call } = await createTestApp()
    const more = ['a', 'b', 'c'].map((n) => ({ question: `Why ${n}?`, kind: 'text' }))
    const { status, body } = await call('POST', '/v1/plan', { questions: [...more, TIER, PORT] })
    expect(status).toBe(200)
    expect(body.ask_user_question_input.questions.map((q: { question: string }) => q.question)).toEqual(['Why a?', 'Why b?', 'Why c?', TIER.question])
    expect(body.deferred).toEqual([PORT.question])
  })

  it('returns a plan of them alone as written', async () => {
    const { call, store } = await createTestApp()
    const { status, body } = await call('POST', '/v1/plan', { user: 'alice', session_id: 's-text', questions: [NAME, PORT] })
    expect(status).toBe(200)
    // Nothing recommended, but the session it names is started, as a choice's recommendation starts it (R-SES-1).
    expect(await store.getSession('alice', 's-text')).toMatchObject({ session_id: 's-text', personalization: true })
    expect(body.questions.map((q: { kind: string }) => q.kind)).toEqual(['text', 'number'])
    expect(body).toMatchObject({ answers: {}, ask_user_question_input: { questions: [NAME, PORT] }, deferred: [] })
  })

  it('returns a question of a kind it does not know as written, asked, as the PreToolUse hook leaves it: AskUserQuestion may gain kinds', async () => {
    const { call } = await createTestApp()
    const WHEN = { question: 'When should it ship?', header: 'Date', kind: 'date', earliest: '2026-01-01' }
    const { status, body } = await call('POST', '/v1/plan', { questions: [WHEN, TIER] })
    expect(status).toBe(200)
    expect(body.questions[0]).toEqual({
      ask_user_question: WHEN,
      kind: 'date',
      recommendation: null,
      ask: true,
      answer: null,
      ask_reason: 'the question is of kind "date", not a choice: there is no option to recommend',
    })
    expect(body.questions[1].recommendation).not.toBeNull()
    expect(body.ask_user_question_input.questions[0]).toEqual(WHEN)
  })

  it('says a question of kind TEXT or " Number " asks for text or a number, as it reads the kind of a choice in any case', async () => {
    const { call } = await createTestApp()
    const { status, body } = await call('POST', '/v1/plan', { questions: [{ ...NAME, kind: 'TEXT' }, { ...PORT, kind: ' Number ' }, TIER] })
    expect(status).toBe(200)
    expect(body.questions.slice(0, 2).map((q: { kind: string; ask_reason: string }) => [q.kind, q.ask_reason])).toEqual([
      ['TEXT', 'the question asks for text, not a choice: there is no option to recommend'],
      [' Number ', 'the question asks for a number, not a choice: there is no option to recommend'],
    ])
  })

  it('reads a choice question whose kind is null as one without kind, as it was read before text questions were planned', async () => {
    const { call } = await createTestApp()
    const { status, body } = await call('POST', '/v1/plan', { questions: [{ ...TIER, kind: null }, NAME] })
    expect(status).toBe(200)
    expect(body.questions.map((q: { recommendation: unknown }) => q.recommendation === null)).toEqual([false, true])
  })

  it('reads a kind of "Choice" in any case, or an empty one (a client\'s default), as a choice, recommended', async () => {
    const { call } = await createTestApp()
    const { status, body } = await call('POST', '/v1/plan', { questions: [{ ...TIER, kind: 'Choice' }, { ...METHOD, kind: '' }, NAME] })
    expect(status).toBe(200)
    expect(body.questions.map((q: { recommendation: unknown }) => q.recommendation === null)).toEqual([false, false, true])
    // Still a choice: without its options it is refused, named, as one without kind is.
    const bare = await call('POST', '/v1/plan', { questions: [NAME, { question: 'Which one?', kind: 'CHOICE' }] })
    expect(bare.status).toBe(400)
    expect(bare.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['questions.1.options'])
  })

  it('names a refused question by its place as sent, and a kind that is no text', async () => {
    const { call } = await createTestApp()
    const blank = { ...METHOD, options: [{ label: 'DDD' }, { label: '  ' }] }
    const refused = await call('POST', '/v1/plan', { questions: [NAME, blank] })
    expect(refused.status).toBe(400)
    expect(refused.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['questions.1.options.1.label'])
    const same = { ...DOCS, options: [{ label: 'README' }, { label: 'README (Recommended)' }] }
    const duplicate = await call('POST', '/v1/plan', { questions: [NAME, PORT, same] })
    expect(duplicate.status).toBe(400)
    expect(duplicate.body.error.issues[0]).toEqual({ path: 'questions.2.options.1', message: 'duplicate of questions.2.options.0 after normalisation' })
    const notText = await call('POST', '/v1/plan', { questions: [TIER, { question: 'When?', kind: 5 }] })
    expect(notText.status).toBe(400)
    expect(notText.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['questions.1.kind'])
    // A choice question (no kind, or null, or "choice") still needs its options.
    for (const kind of [undefined, null, 'choice']) {
      const bare = await call('POST', '/v1/plan', { questions: [NAME, { question: 'Which one?', kind, options: kind === null ? null : undefined }] })
      expect(bare.status, String(kind)).toBe(400)
      expect(bare.body.error.issues.map((i: { path: string }) => i.path), String(kind)).toEqual(['questions.1.options'])
      const one = await call('POST', '/v1/plan', { questions: [NAME, { question: 'Which one?', kind, options: [{ label: 'a' }] }] })
      expect(one.body.error.issues.map((i: { path: string }) => i.path), String(kind)).toEqual(['questions.1.options'])
    }
    const twice = await call('POST', '/v1/plan', { questions: [NAME, { ...PORT, question: NAME.question }] })
    expect(twice.status).toBe(400)
    expect(twice.body.error.issues[0].path).toBe('questions.1.question')
  })

  it('documents them in the OpenAPI document', async () => {
    const { call } = await createTestApp()
    const { body } = await call('GET', '/openapi.json')
    expect(body.components.schemas.OtherKindQuestion.properties.kind.type).toBe('string')
    // One object schema for a question of any kind, its options required of a choice by the route.
    const question = body.components.schemas.PlanRequest.properties.questions.items
    expect(question).toMatchObject({ type: 'object', required: ['question'] })
    expect(question.properties.kind.description).toContain('any other kind')
    expect(JSON.stringify(body.components.schemas.QuestionPlan.properties.questions.items)).toContain('#/components/schemas/OtherKindQuestion')
  })

  it('documents the AskUserQuestion fields it ignores as objects of any fields, which a generated client may send', async () => {
    const { call } = await createTestApp()
    const { body } = await call('GET', '/openapi.json')
    // `{ type: "object" }` alone is an object with no fields to openapi-typescript (Record<string, never>):
    // the whole tool input, its answers given, would not type-check.
    for (const name of ['answers', 'annotations', 'metadata']) {
      expect(body.components.schemas.PlanRequest.properties[name], name).toMatchObject({ type: 'object', additionalProperties: {} })
    }
    const input = { questions: [NAME], answers: { [NAME.question]: 'x' }, annotations: { [NAME.question]: { notes: 'n' } }, metadata: { source: 'agent' } }
    expect((await call('POST', '/v1/plan', input)).status).toBe(200)
  })
})

describe('a question whose context contradicts its learned precondition (R-REC-5, R-ASK-1)', () => {
  const DB = {
    question: 'Which database engine?',
    header: 'DB',
    options: [
      { label: 'SQLite', description: 'one file' },
      { label: 'PostgreSQL', description: 'a server' },
      { label: 'MySQL', description: 'a server' },
    ],
    multiSelect: false,
  }
  /** `spec` choices of the DB question, all made in phase run. */
  const chosenInRun = (spec: Record<string, number>) =>
    Object.entries(spec).flatMap(([choice, count]) =>
      Array.from({ length: count }, (_, i) => ({ question: DB.question, header: DB.header, all_options: ['SQLite', 'PostgreSQL', 'MySQL'], user_choice: choice, decision_id: `${choice}-${i}`, timestamp: START, context: { phase: 'run' } })),
    )

  it('is ordered as less sure: its p is pulled toward chance as its confidence is', async () => {
    const { call } = await createTestApp()
    expect((await call('POST', '/v1/observations', chosenInRun({ PostgreSQL: 30 }))).status).toBe(201)
    const run = (await call('POST', '/v1/plan', { questions: [TIER, DB], context: { phase: 'run' } })).body
    // In run, the memory is sure of it (answered for the user), and TIER, of no history, comes first.
    expect(run.questions.map((q: { ask_user_question: { question: string } }) => q.ask_user_question.question)).toEqual([TIER.question, DB.question])
    const sure = run.questions[1].recommendation
    expect(sure).toMatchObject({ state: 'sufficient', ask: false, contradictions: [] })
    const plan = (await call('POST', '/v1/plan', { questions: [TIER, DB], context: { phase: 'plan' } })).body
    const doubted = plan.questions[0].recommendation
    expect(plan.questions[0].ask_user_question.question).toBe(DB.question)
    expect(doubted.contradictions).toEqual([{ key: 'phase', expected: 'run', got: 'plan' }])
    // README's words: the confidence halfway from 1 to a third.
    expect(doubted.ask_reason).toBe("state is partial, not sufficient: confidence 0.6667 is below 0.95, lowered because the request's context contradicts the precondition: phase is plan, not run")
    // Halfway toward chance, 1/3 of 3 options, as the confidence.
    expect(doubted.p).toBeCloseTo(1 / 3 + (sure.p - 1 / 3) / 2, 4)
    expect(doubted.information).toBeCloseTo(doubted.p * (1 - doubted.p), 4)
    expect(doubted.information).toBeGreaterThan(plan.questions[1].recommendation.information)
    expect(plan.questions[0]).toMatchObject({ ask: true, answer: null })
  })

  it('is asked where only its p, pulled toward chance, falls below auto_resolve_p', async () => {
    // A slight pull: the confidence stays significant, the state sufficient.
    const base = JSON.parse(readFileSync(DEFAULT_POLICY_FILE, 'utf8'))
    const policy = parsePolicy(JSON.stringify({ ...base, confidence: { ...base.confidence, contradiction_shrink: 0.02 } }), 'mine.json')
    const { call } = await createTestApp({ policy })
    expect((await call('POST', '/v1/observations', chosenInRun({ PostgreSQL: 37, SQLite: 3 }))).status).toBe(201)
    const run = (await call('POST', '/v1/plan', { questions: [DB], context: { phase: 'run' } })).body.questions[0]
    expect(run).toMatchObject({ ask: false, answer: 'PostgreSQL (Recommended)' })
    expect(run.recommendation.p).toBeGreaterThanOrEqual(0.9)
    const plan = (await call('POST', '/v1/plan', { questions: [DB], context: { phase: 'plan' } })).body
    const doubted = plan.questions[0].recommendation
    expect(doubted.state).toBe('sufficient')
    // README's figure for this history.
    expect(doubted.p).toBe(0.8922)
    expect(plan.questions[0]).toMatchObject({ ask: true, answer: null })
    expect(doubted.ask_reason).toBe(`p ${doubted.p} is below auto_resolve_p 0.9 (lowered: the request's context contradicts the precondition: phase is plan, not run)`)
    expect(plan.answers).toEqual({})
  })
})
