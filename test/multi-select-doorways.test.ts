import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { describe, expect, it } from 'vitest'
import { mcpBackend } from '../src/cli/mcp'
import { normalizeLabel } from '../src/domain/labels'
import { createMcpServer } from '../src/integrations/mcp'
import { createTestApp, START } from './support/test-app'
import { ALICE, OPS, testTokens } from './support/tokens'

/*
 * R-REC-8 and R-CAP-5 through the three doorways a multi-select answer comes in by: the route
 * (`POST /v1/observations`), the MCP tool `record_choice`, and the Claude Code PostToolUse hook.
 * An agent recording a choice gives the question and the answer as it has them, often without
 * `multi_select`: one label, or the labels joined as Claude Code joins them (a plan's `answers`).
 */

const CHECKS = {
  question: 'Which checks should run before the PR?',
  header: 'Checks',
  options: [
    { label: 'Lint, format', description: 'eslint and prettier' },
    { label: 'Unit tests', description: 'vitest' },
    { label: 'E2E tests', description: 'playwright' },
  ],
}
const PROJECT = '/home/dev/acme-api'

type App = Awaited<ReturnType<typeof createTestApp>>

/** A store with 10 choices of {Lint, format; Unit tests} at the question, in the project. */
async function withSets(): Promise<App> {
  const app = await createTestApp()
  const sets = Array.from({ length: 10 }, (_, i) => ({
    question: CHECKS.question,
    header: CHECKS.header,
    all_options: CHECKS.options,
    project: PROJECT,
    user_choice: ['Lint, format', 'Unit tests'],
    decision_id: `set-${i}`,
    timestamp: START,
  }))
  expect((await app.call('POST', '/v1/observations', sets)).status).toBe(201)
  return app
}

/** An MCP client whose server's calls go to the app's routes, as while a service runs (with `headers`, as one run with a token). */
async function mcpClient(app: App, headers?: Record<string, string>) {
  const backend = mcpBackend(async (path, body, _local, method = 'POST') => {
    const answer = await app.call(method, path, body, headers)
    return answer.status < 400 ? { ok: true, body: answer.body } : { ok: false, error: answer.body.error }
  })
  const server = createMcpServer(backend, { version: '0.0.0', clock: app.clock })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'doorways', version: '1.0.0' })
  await client.connect(clientSide)
  return client
}

/** What the user's answer `answer` was stored as, and what the point recommends after it, by each doorway. */
async function throughEach(answer: string) {
  const stored: Record<string, unknown> = {}
  const after: Record<string, unknown> = {}
  const request = { question: CHECKS.question, header: CHECKS.header, all_options: CHECKS.options, project: PROJECT }
  const ways: Array<[string, (app: App) => Promise<void>]> = [
    ['route', async (app) => void expect((await app.call('POST', '/v1/observations', { ...request, user_choice: answer, decision_id: 'answer' })).status).toBe(201)],
    [
      'record_choice',
      async (app) => {
        const client = await mcpClient(app)
        const called = await client.callTool({ name: 'record_choice', arguments: { ...request, user: 'default', user_choice: answer, decision_id: 'answer' } })
        expect(called.isError, JSON.stringify(called.content)).toBeFalsy()
        await client.close()
      },
    ],
    [
      'hook',
      async (app) => {
        const question = { ...CHECKS, multiSelect: true }
        const post = {
          session_id: 's-hook', transcript_path: '/tmp/t.jsonl', cwd: PROJECT, hook_event_name: 'PostToolUse', tool_name: 'AskUserQuestion', tool_use_id: 'answer',
          tool_input: { questions: [question], answers: { [CHECKS.question]: answer } },
          tool_response: { questions: [question], answers: { [CHECKS.question]: answer } },
        }
        expect((await app.call('POST', '/v1/hooks/claude-code', post)).body).toEqual({})
      },
    ],
  ]
  for (const [way, send] of ways) {
    const app = await withSets()
    await send(app)
    const recommendation = (await app.call('POST', '/v1/recommendations', request)).body
    const [last] = (await app.store.observationsAt('default', recommendation.point)).filter((o) => !o.decision_id?.startsWith('set-'))
    stored[way] = { chosen: last?.chosen, other: last?.other, multi_select: last?.multi_select }
    after[way] = { multi_select: recommendation.multi_select, recommended: recommendation.recommended }
  }
  return { stored, after }
}

describe('a multi-select answer given as one string, through the route, record_choice and the hook (R-REC-8, R-CAP-5)', () => {
  it.each([
    ['one label', 'Unit tests', ['Unit tests']],
    ['labels joined as Claude Code joined them before it quoted', 'Lint, format, E2E tests', ['Lint, format', 'E2E tests']],
    ['labels joined as Claude Code joins them, a label holding ", " quoted', '"Lint, format (Recommended)", E2E tests', ['Lint, format', 'E2E tests']],
  ])('%s is stored alike by all three, and the point stays multi-select', async (_, answer, chosen) => {
    const { stored, after } = await throughEach(answer)
    const same = { chosen, other: null, multi_select: true }
    expect(stored).toEqual({ route: same, record_choice: same, hook: same })
    const still = { multi_select: true, recommended: ['Lint, format', 'Unit tests'] }
    expect(after).toEqual({ route: still, record_choice: still, hook: still })
  })
})

describe('the labels a plan shows at each strength, picked and sent back by the hook as Claude Code sends them (R-REC-6, R-CAP-3)', () => {
  /** Claude Code's join of the labels picked: a label holding ", " or a double quote as a JSON string. */
  const joined = (labels: readonly string[]) => labels.map((l) => (l.includes(', ') || l.includes('"') ? JSON.stringify(l) : l)).join(', ')
  const TESTS = { label: 'Unit "fast" tests', description: 'vitest' }
  const [LINT, , E2E] = CHECKS.options as [typeof TESTS, typeof TESTS, typeof TESTS]
  const question = (text: string, multiSelect: boolean) => ({ question: text, header: 'Checks', options: [LINT, TESTS, E2E], multiSelect })

  it.each([
    ['a beginner', 1, 'Which checks should run before the PR?', / \(Recommended\)$/],
    ['an intermediate', 12, 'Which checks should run before the PR?', / \(Recommended\)$/],
    ['an expert', 55, 'Which checks should run before the PR?', /\((static default|\d+% of recent choices)\)$/],
    ['anyone at a sensitive point', 55, 'Which security checks should run before the PR?', null],
  ])('%s: each option picked is stored as that option, never as other', async (_, sessions, text, mark) => {
    for (const [multiSelect, history] of [[true, 2], [true, 8], [false, 2], [false, 8]] as const) {
      const app = await createTestApp()
      for (let i = 0; i < sessions; i++) await app.call('POST', '/v1/sessions', { session_id: `s-${i}`, started_at: START })
      const asked = question(text, multiSelect)
      const past = Array.from({ length: history }, (_, i) => ({
        question: text, all_options: asked.options, project: PROJECT, multi_select: multiSelect, decision_id: `past-${i}`, timestamp: START,
        user_choice: multiSelect ? ['Lint, format', TESTS.label] : TESTS.label,
      }))
      expect((await app.call('POST', '/v1/observations', past)).status).toBe(201)
      const shown = (await app.call('POST', '/v1/plan', { project: PROJECT, session_id: 's-0', questions: [asked] })).body.ask_user_question_input.questions[0]
      const labels: string[] = shown.options.map((o: { label: string }) => o.label)
      if (mark === null) expect(labels).toEqual(asked.options.map((o) => o.label))
      else expect(labels.some((l) => mark.test(l)), `${labels}`).toBe(true)
      const picks = multiSelect ? [[labels[0], labels[1]], [labels[2]], labels] : labels.map((l) => [l])
      for (const [k, picked] of picks.entries()) {
        const answers = multiSelect ? [joined(picked as string[]), picked, (picked as string[]).join(', ')] : [(picked as string[])[0]]
        for (const [j, answer] of answers.entries()) {
          const id = `tu-${k}-${j}`
          const post = {
            session_id: 's-0', transcript_path: '/tmp/t.jsonl', cwd: PROJECT, hook_event_name: 'PostToolUse', tool_name: 'AskUserQuestion', tool_use_id: id,
            tool_input: { questions: [shown], answers: { [text]: answer } },
            tool_response: { questions: [shown], answers: { [text]: answer } },
          }
          expect((await app.call('POST', '/v1/hooks/claude-code', post)).body).toEqual({})
          const point = (await app.call('POST', '/v1/plan', { project: PROJECT, questions: [asked] })).body.questions[0].recommendation.point
          const [stored] = (await app.store.observationsAt('default', point)).filter((o) => o.decision_id?.startsWith(`${id}#`))
          // The option as the agent wrote it: the label shown without the service's mark.
          const plain = (picked as string[]).map(normalizeLabel)
          expect(plain.every((l) => asked.options.some((o) => o.label === l))).toBe(true)
          expect({ chosen: [...(stored?.chosen ?? [])].sort(), other: stored?.other }, `${JSON.stringify(answer)}`).toEqual({ chosen: [...plain].sort(), other: null })
        }
      }
    }
  })
})

describe("a string choice checked at a point multi-select by the user's history, as capture stores it (R-CON-3, R-CAP-5)", () => {
  /** The sets' store with a required `must_not E2E tests` at their point, and that point. */
  async function withRule() {
    const app = await withSets()
    const { point } = (await app.call('POST', '/v1/recommendations', { question: CHECKS.question, header: CHECKS.header, all_options: CHECKS.options, project: PROJECT })).body
    const rule = { title: 'No E2E before a PR', decision: 'Run no E2E tests.', rationale: 'They take an hour.', enforce: 'required', status: 'accepted', scope: { points: [point] }, constraints: [{ kind: 'must_not', option: 'E2E tests' }] }
    expect((await app.call('POST', '/v1/decisions', rule)).status).toBe(201)
    return { app, point: point as string }
  }
  const ANSWER = 'Lint, format, E2E tests'

  it('through the route: with the user, blocked as the {Lint, format; E2E tests} capture stores; without one, as before', async () => {
    const { app, point } = await withRule()
    const checked = await app.call('POST', '/v1/decisions/check', { choice: ANSWER, point, user: 'default' })
    expect(checked.status).toBe(200)
    expect(checked.body).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-001' }] })
    // A ?user= naming the body's user is let pass, as on the routes that read theirs in the body.
    expect((await app.call('POST', `/v1/decisions/check?user=default`, { choice: ANSWER, point, user: 'default' })).body.allowed).toBe(false)
    // Another user, who has no history at the point, and no user at all: one label, as before.
    expect((await app.call('POST', '/v1/decisions/check', { choice: ANSWER, point, user: 'bob' })).body.allowed).toBe(true)
    expect((await app.call('POST', '/v1/decisions/check', { choice: ANSWER, point })).body.allowed).toBe(true)
    // The request saying single-select wins over the history.
    expect((await app.call('POST', '/v1/decisions/check', { choice: ANSWER, point, user: 'default', multi_select: false })).body.allowed).toBe(true)
    // As capture stores the same answer.
    const stored = await app.call('POST', '/v1/observations', { question: CHECKS.question, header: CHECKS.header, all_options: CHECKS.options, project: PROJECT, user_choice: ANSWER })
    expect(stored.status).toBe(201)
    const [last] = (await app.store.observationsAt('default', point)).filter((o) => !o.decision_id?.startsWith('set-'))
    expect(last?.chosen).toEqual(['Lint, format', 'E2E tests'])
  })

  it('through the route with as_of: read as the history stood then (before the sets, one label)', async () => {
    const { app, point } = await withRule()
    const before = new Date(Date.parse(START) - 60_000).toISOString()
    // The decision did not exist then either: nothing blocks; as of now, the history and the decision do.
    expect((await app.call('POST', '/v1/decisions/check', { choice: ANSWER, point, user: 'default', as_of: before })).body.allowed).toBe(true)
    expect((await app.call('POST', '/v1/decisions/check', { choice: ANSWER, point, user: 'default', as_of: app.clock.now().toISOString() })).body.allowed).toBe(false)
  })

  it("through the MCP tool check_decision: the server's user by default, as record_choice takes it", async () => {
    const { app, point } = await withRule()
    const client = await mcpClient(app)
    const called = await client.callTool({ name: 'check_decision', arguments: { choice: ANSWER, point } })
    expect(called.isError, JSON.stringify(called.content)).toBeFalsy()
    const verdict = (answer: typeof called) => JSON.parse((answer.content as Array<{ text: string }>)[0]?.text ?? 'null')
    expect(verdict(called)).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-001' }] })
    const other = await client.callTool({ name: 'check_decision', arguments: { choice: ANSWER, point, user: 'bob' } })
    expect(verdict(other)).toMatchObject({ allowed: true })
    await client.close()
  })

  it('through the MCP tool against a service with --auth, a token of alice\'s and no $DECISION_MEMORY_USER: checked as before the check took a user, not refused', async () => {
    const app = await createTestApp({ auth: testTokens })
    const ops = { authorization: `Bearer ${OPS}` }
    const rule = { title: 'No force push', decision: 'Never force-push.', rationale: 'History is shared.', enforce: 'required', status: 'accepted', constraints: [{ kind: 'must_not', pattern: 'git push --force*' }] }
    expect((await app.call('POST', '/v1/decisions', rule, ops)).status).toBe(201)
    const client = await mcpClient(app, { authorization: `Bearer ${ALICE}` })
    const verdict = (answer: Awaited<ReturnType<typeof client.callTool>>) => JSON.parse((answer.content as Array<{ text: string }>)[0]?.text ?? 'null')
    // A command: blocked by the decision, as before, not refused for `default`, a user the check does not read.
    const pushed = await client.callTool({ name: 'check_decision', arguments: { action: 'git push --force origin main' } })
    expect(pushed.isError, JSON.stringify(pushed.content)).toBeFalsy()
    expect(verdict(pushed)).toMatchObject({ allowed: false })
    // One label at a point: `default`'s history is not the token's to read, so by the decisions alone.
    const chosen = await client.callTool({ name: 'check_decision', arguments: { choice: ANSWER, point: 'checks' } })
    expect(chosen.isError, JSON.stringify(chosen.content)).toBeFalsy()
    expect(verdict(chosen)).toMatchObject({ allowed: true })
    // Alice named, her own; bob named, refused as any tool's call for him is.
    expect((await client.callTool({ name: 'check_decision', arguments: { choice: ANSWER, point: 'checks', user: 'alice' } })).isError).toBeFalsy()
    const bob = await client.callTool({ name: 'check_decision', arguments: { choice: ANSWER, point: 'checks', user: 'bob' } })
    expect(bob.isError).toBe(true)
    expect((bob.content as Array<{ text: string }>)[0]?.text).toContain('forbidden')
    await client.close()
  })
})
