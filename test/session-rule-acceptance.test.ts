import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { describe, expect, it } from 'vitest'
import { createMcpServer, type BackendAnswer, type McpBackend } from '../src/integrations/mcp'
import { claudeCodeFixture } from './support/fixtures'
import { createTestApp, START } from './support/test-app'

/**
 * The session rule (README: "This session's own choice") as an acceptance tester who reads only
 * SPEC.md, the seeds and Claude Code's payloads would drive it: observations posted with a
 * `session_id`, then asked in that session, in another, or in none, over HTTP, the hook and MCP.
 */

const TIER = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }
const CHECKS = { question: 'Which checks should run?', header: 'Checks', all_options: ['Lint', 'Test', 'Build'], multi_select: true }
const HOUR = 3_600_000
const DAY = 24 * HOUR
const SESSION_REASON = 'in this session you last chose Tier S here, not Tier M: asked until your choice in this session agrees'
const PLAN_TIER = { question: TIER.question, header: TIER.header, options: TIER.all_options.map((label) => ({ label, description: label })), multiSelect: false }

/** An ISO time `ms` before the test clock's START. */
const before = (ms: number) => new Date(Date.parse(START) - ms).toISOString()
const many = <T>(n: number, make: (i: number) => T) => Array.from({ length: n }, (_, i) => make(i))

type App = Awaited<ReturnType<typeof createTestApp>>

async function observe(call: App['call'], body: unknown) {
  const posted = await call('POST', '/v1/observations', body)
  expect(posted.status).toBe(201)
  return posted.body
}

async function recommend(call: App['call'], body: Record<string, unknown>) {
  const answer = await call('POST', '/v1/recommendations', { ...TIER, ...body })
  expect(answer.status).toBe(200)
  return answer.body
}

describe('session rule, acceptance: everything posted at one instant (R-REC-4, R-ASK-2)', () => {
  it('auto-resolves 25 identical choices posted in one session, asked in that session', async () => {
    const { call } = await createTestApp()
    await observe(call, many(25, () => ({ ...TIER, user_choice: 'Tier M', session_id: 's-1' })))
    expect(await recommend(call, { session_id: 's-1' })).toMatchObject({ state: 'sufficient', recommended: 'Tier M', ask: false })
  })

  it('auto-resolves a batch of one session whose odd choice the array holds last, in that session as in any other', async () => {
    for (const odd of ['last', 'first'] as const) {
      const { call } = await createTestApp()
      const ms = many(30, () => ({ ...TIER, user_choice: 'Tier M', session_id: 's-1' }))
      const s = { ...TIER, user_choice: 'Tier S', session_id: 's-1' }
      await observe(call, odd === 'last' ? [...ms, s] : [s, ...ms])
      for (const session of [{ session_id: 's-1' }, { session_id: 's-2' }, {}]) {
        const answer = await recommend(call, session)
        expect(answer, `${odd}, ${JSON.stringify(session)}`).toMatchObject({ state: 'sufficient', recommended: 'Tier M', ask: false })
        expect(answer.p).toBeGreaterThanOrEqual(0.9)
      }
    }
  })

  it('auto-resolves in the session that made the odd choice with the others at one instant', async () => {
    const { call } = await createTestApp()
    await observe(call, [...many(30, (i) => ({ ...TIER, user_choice: 'Tier M', session_id: `s-${i}` })), { ...TIER, user_choice: 'Tier S', session_id: 's-30' }])
    expect(await recommend(call, { session_id: 's-30' })).toMatchObject({ state: 'sufficient', recommended: 'Tier M', ask: false })
    expect((await recommend(call, { session_id: 's-30' })).layers.session).toMatchObject({ observations: 1, majority: 'Tier S' })
  })

  it("asks the seed's worked example for being partial, not for the session's last choice", async () => {
    const { call } = await createTestApp()
    const of = (choice: string, n: number) => many(n, () => ({ ...TIER, user_choice: choice, session_id: 's-1' }))
    await observe(call, [...of('Tier S', 3), ...of('Tier M', 6), ...of('Tier L', 1)])
    const answer = await recommend(call, { session_id: 's-1' })
    expect(answer).toMatchObject({ state: 'partial', recommended: 'Tier M', ask: true, disclosure: 'based on 60% of recent choices' })
    expect(answer.ask_reason).toMatch(/^state is partial/)
  })

  it('reads observations posted without a session as no session’s choice', async () => {
    const { call } = await createTestApp()
    await observe(call, [...many(30, () => ({ ...TIER, user_choice: 'Tier M', timestamp: before(2 * DAY) })), { ...TIER, user_choice: 'Tier S', timestamp: before(HOUR) }])
    const answer = await recommend(call, { session_id: 's-1' })
    expect(answer.layers.session.observations).toBe(0)
    expect(answer.ask_reason).not.toBe(SESSION_REASON)
  })
})

describe('session rule, acceptance: explicit timestamps (R-MEM-2, R-MEM-5, R-REC-9)', () => {
  /** 120 daily choices of Tier M in `months`' sessions, then Tier S an hour ago in `now`. */
  const history = (months: (i: number) => string, now: string) => [
    ...many(120, (i) => ({ ...TIER, user_choice: 'Tier M', session_id: months(i), timestamp: before((121 - i) * DAY) })),
    { ...TIER, user_choice: 'Tier S', session_id: now, timestamp: before(HOUR) },
  ]

  it('asks the session whose choice after all the others went another way, and no other, the recommendation unchanged', async () => {
    const { call } = await createTestApp()
    await observe(call, history(() => 's-1', 's-1'))
    const asked = await recommend(call, { session_id: 's-1' })
    expect(asked).toMatchObject({ state: 'sufficient', recommended: 'Tier M', ask: true, ask_reason: SESSION_REASON })
    expect(asked.p).toBeGreaterThanOrEqual(0.9)
    const fresh = await recommend(call, { session_id: 's-2' })
    expect(fresh).toMatchObject({ state: 'sufficient', recommended: 'Tier M', ask: false, p: asked.p, confidence: asked.confidence })
  })

  it('answers as_of a moment before the session chose otherwise as it would have then', async () => {
    const { call } = await createTestApp()
    await observe(call, history((i) => `s-${i}`, 'now'))
    expect(await recommend(call, { session_id: 'now', as_of: before(2 * HOUR) })).toMatchObject({ state: 'sufficient', ask: false })
    expect(await recommend(call, { session_id: 'now', as_of: START })).toMatchObject({ ask: true, ask_reason: SESSION_REASON })
  })

  it('auto-resolves again once the user chooses the recommended option since, in this session or another', async () => {
    for (const where of ['now', 'other']) {
      const { call } = await createTestApp()
      await observe(call, [...history((i) => `s-${i}`, 'now'), { ...TIER, user_choice: 'Tier M', session_id: where, timestamp: before(HOUR / 2) }])
      expect(await recommend(call, { session_id: 'now' }), where).toMatchObject({ recommended: 'Tier M', ask: false })
    }
  })

  it('does not count an answer auto-resolved in the session as the user choosing the recommended option', async () => {
    const { call } = await createTestApp()
    const auto = { ...TIER, user_choice: 'Tier M', session_id: 'now', timestamp: before(HOUR / 2), source: 'auto-resolved' }
    await observe(call, [...history((i) => `s-${i}`, 'now'), auto])
    expect(await recommend(call, { session_id: 'now' })).toMatchObject({ ask: true, ask_reason: SESSION_REASON })
  })

  it('leaves a session with personalization off at its static default, and one turned back on to the rule (R-SES-3)', async () => {
    const { call } = await createTestApp()
    await observe(call, history((i) => `s-${i}`, 'now'))
    expect((await call('PUT', '/v1/sessions/now/personalization', { enabled: false })).status).toBe(200)
    expect(await recommend(call, { session_id: 'now' })).toMatchObject({ state: 'personalization-off', ask: true, ask_reason: 'personalization is off for this session' })
    expect(await recommend(call, { session_id: 'new' })).toMatchObject({ state: 'sufficient', ask: false })
    expect((await call('PUT', '/v1/sessions/now/personalization', { enabled: true })).status).toBe(200)
    expect(await recommend(call, { session_id: 'now' })).toMatchObject({ state: 'sufficient', ask: true, ask_reason: SESSION_REASON })
  })

  it('asks a multi-select point where the set the session chose since is not the recommended set (R-REC-8)', async () => {
    const { call } = await createTestApp()
    await observe(call, [
      ...many(120, (i) => ({ ...CHECKS, user_choice: ['Lint', 'Test'], session_id: `s-${i}`, timestamp: before((121 - i) * DAY) })),
      { ...CHECKS, user_choice: ['Lint'], session_id: 'now', timestamp: before(HOUR) },
    ])
    const asked = await recommend(call, { ...CHECKS, session_id: 'now' })
    expect(asked).toMatchObject({ recommended: ['Lint', 'Test'], ask: true })
    expect(asked.ask_reason).toContain('you last chose Lint here, not Lint and Test')
    expect(await recommend(call, { ...CHECKS, session_id: 'new' })).toMatchObject({ recommended: ['Lint', 'Test'], ask: false })
  })

  it('plans the question the session chose otherwise as asked, and answers the others (R-ASK-3)', async () => {
    const { call } = await createTestApp()
    const EFFORT = { question: 'How much effort?', header: 'Effort', all_options: ['low', 'high'] }
    await observe(call, [
      ...history((i) => `s-${i}`, 'now'),
      ...many(40, (i) => ({ ...EFFORT, user_choice: 'high', session_id: `e-${i}`, timestamp: before((41 - i) * DAY) })),
    ])
    const PLAN_EFFORT = { question: EFFORT.question, header: EFFORT.header, options: EFFORT.all_options.map((label) => ({ label, description: label })), multiSelect: false }
    const plan = (await call('POST', '/v1/plan', { session_id: 'now', questions: [PLAN_TIER, PLAN_EFFORT] })).body
    expect(Object.keys(plan.answers)).toEqual([EFFORT.question])
    expect(plan.ask_user_question_input.questions.map((q: { question: string }) => q.question)).toEqual([TIER.question])
    const fresh = (await call('POST', '/v1/plan', { session_id: 'new', questions: [PLAN_TIER, PLAN_EFFORT] })).body
    expect(Object.keys(fresh.answers).sort()).toEqual([EFFORT.question, TIER.question].sort())
    expect(fresh.ask_user_question_input).toBeNull()
  })
})

describe('session rule, acceptance: Claude Code hooks (R-CAP-5, R-ASK-4)', () => {
  const post = claudeCodeFixture('post-tool-use-single')
  const pre = claudeCodeFixture('pre-tool-use')
  const SESSION = pre.session_id as string

  /** 25 questions answered Tier M in past sessions, a minute apart, the clock left a minute on. */
  async function pastSessions() {
    const app = await createTestApp({ now: before(DAY) })
    for (let i = 0; i < 25; i++) {
      app.clock.set(new Date(Date.parse(before(DAY)) + i * 60_000).toISOString())
      expect((await app.call('POST', '/v1/hooks/claude-code', { ...post, session_id: `past-${i}`, tool_use_id: `toolu_past_${i}` })).status).toBe(200)
    }
    app.clock.set(START)
    return app
  }
  const preToolUse = async (call: App['call'], id: string, session = SESSION) =>
    (await call('POST', '/v1/hooks/claude-code', { ...pre, session_id: session, tool_use_id: id })).body.hookSpecificOutput
  const answered = (call: App['call'], id: string, answer: string, session = SESSION) =>
    call('POST', '/v1/hooks/claude-code', { ...post, session_id: session, tool_use_id: id, tool_response: { ...post.tool_response, answers: { [TIER.question]: answer } } })

  it('auto-resolves in the session, and again after the PostToolUse of its own answer', async () => {
    const { call } = await pastSessions()
    const first = await preToolUse(call, 'toolu_a')
    expect(first.permissionDecision).toBe('allow')
    expect(first.updatedInput.answers).toEqual({ [TIER.question]: 'Tier M (Recommended)' })
    expect((await call('POST', '/v1/hooks/claude-code', { ...post, tool_use_id: 'toolu_a', tool_input: first.updatedInput, tool_response: { ...post.tool_response, answers: first.updatedInput.answers } })).status).toBe(200)
    expect((await preToolUse(call, 'toolu_b')).updatedInput.answers).toEqual({ [TIER.question]: 'Tier M (Recommended)' })
  })

  it('asks the session whose user answered Tier S since, and auto-resolves a new session', async () => {
    const { call } = await pastSessions()
    expect((await answered(call, 'toolu_s', 'Tier S')).status).toBe(200)
    // Asked: Claude Code shows its picker (`ask`, README "What the PreToolUse answer does"), no answer given.
    const asked = await preToolUse(call, 'toolu_c')
    expect(asked.permissionDecision).toBe('ask')
    expect(asked.updatedInput.answers).toBeUndefined()
    expect(asked.updatedInput.questions[0].options[0].label).toBe('Tier M (Recommended)')
    expect((await preToolUse(call, 'toolu_d', 'another-session')).updatedInput.answers).toEqual({ [TIER.question]: 'Tier M (Recommended)' })
  })

  it('auto-resolves, under a clock that stands still, a session whose Tier S was answered at the instant of the Tier M answers', async () => {
    const { call } = await createTestApp()
    for (let i = 0; i < 25; i++) await call('POST', '/v1/hooks/claude-code', { ...post, session_id: `past-${i}`, tool_use_id: `toolu_past_${i}` })
    expect((await answered(call, 'toolu_s', 'Tier S')).status).toBe(200)
    expect((await preToolUse(call, 'toolu_c')).updatedInput.answers).toEqual({ [TIER.question]: 'Tier M (Recommended)' })
  })

  it('checks in after check_in_after answers given in a row, and auto-resolves again when the check-in is answered Tier M', async () => {
    const { call, policy } = await pastSessions()
    for (let i = 0; i < policy.ask.check_in_after; i++) {
      const given = await preToolUse(call, `toolu_auto_${i}`)
      expect(given.updatedInput.answers, `answer ${i}`).toBeDefined()
      await call('POST', '/v1/hooks/claude-code', { ...post, tool_use_id: `toolu_auto_${i}`, tool_input: given.updatedInput, tool_response: { ...post.tool_response, answers: given.updatedInput.answers } })
    }
    expect((await preToolUse(call, 'toolu_check_in')).updatedInput.answers).toBeUndefined()
    expect((await answered(call, 'toolu_check_in', 'Tier M')).status).toBe(200)
    expect((await preToolUse(call, 'toolu_after')).updatedInput.answers).toEqual({ [TIER.question]: 'Tier M (Recommended)' })
  })
})

describe('session rule, acceptance: MCP recommend and plan_questions (R-SVC-6)', () => {
  it('asks through MCP where the route asks, and answers where it answers', async () => {
    const { call, clock } = await createTestApp()
    await observe(call, [
      ...many(120, (i) => ({ ...TIER, user_choice: 'Tier M', session_id: `s-${i}`, timestamp: before((121 - i) * DAY) })),
      { ...TIER, user_choice: 'Tier S', session_id: 'now', timestamp: before(HOUR) },
    ])
    const answer = async (method: string, path: string, body?: unknown): Promise<BackendAnswer> => {
      const response = await call(method, path, body)
      return response.status < 400 ? { ok: true, body: response.body } : { ok: false, error: response.body.error }
    }
    const backend: McpBackend = {
      recommend: (request) => answer('POST', '/v1/recommendations', request),
      plan: (request) => answer('POST', '/v1/plan', request),
      observe: (inputs) => answer('POST', '/v1/observations', inputs),
      whyPoint: async () => ({ ok: true, body: {} }),
      whyDecision: async () => ({ ok: true, body: {} }),
      check: async () => ({ ok: true, body: {} }),
      listDecisions: async () => ({ ok: true, body: { decisions: [] } }),
    }
    const server = createMcpServer(backend, { version: '0.0.0', clock })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.connect(serverSide)
    const client = new Client({ name: 'test', version: '1.0.0' })
    await client.connect(clientSide)
    const tool = async (name: string, args: Record<string, unknown>) => {
      const result = (await client.callTool({ name, arguments: args })) as { content: Array<{ text: string }> }
      return JSON.parse(result.content[0]?.text as string)
    }
    expect(await tool('recommend', { ...TIER, session_id: 'now' })).toMatchObject({ recommended: 'Tier M', ask: true, ask_reason: SESSION_REASON })
    expect(await tool('recommend', { ...TIER, session_id: 'new' })).toMatchObject({ recommended: 'Tier M', ask: false })
    expect((await tool('plan_questions', { session_id: 'now', questions: [PLAN_TIER] })).answers).toEqual({})
    expect(Object.keys((await tool('plan_questions', { session_id: 'new', questions: [PLAN_TIER] })).answers)).toEqual([TIER.question])
    await client.close()
  })
})
