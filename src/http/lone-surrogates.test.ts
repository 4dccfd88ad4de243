import { describe, expect, it } from 'vitest'
import { claudeCodeFixture } from '../../test/support/fixtures'
import { createTestApp } from '../../test/support/test-app'
import { loneSurrogateIn, textLeaves } from '../../test/support/text-leaves'
import type { MemoryStore } from '../memory/store'

// A JSON string may hold a lone UTF-16 surrogate (`"\ud800"`: Python's json.dumps writes one so),
// which no UTF-8 text carries: a reader of the store, a log line or a client decoding UTF-8 has
// U+FFFD in its place. Names refused it; every text field of a body refuses it now, in their words.

const LONE = 'must not contain lone surrogates'
const HOOK = '/v1/hooks/claude-code'
const Q = 'Which tier?'
const OPTIONS = ['Tier S', 'Tier M']

async function observationsOf(store: MemoryStore) {
  const out = []
  for await (const o of store.observationsOf('default')) out.push(o)
  return out
}

const DECISION = { key: 'D-1', title: 'Tier', decision: 'Use tier M', rationale: 'Cheaper' }

const RECORD = { ...DECISION, status: 'accepted', date: '2026-01-01', origin: { path: 'doc/adr/0001-tier.md', line: 1, format: 'madr' } }

/** Each body with one text holding a lone surrogate, and the field it is at. */
const CASES: Array<[string, string, unknown, string]> = [
  ['POST', '/v1/observations', { question: 'Which\ud800 tier?', user_choice: 'Tier S', all_options: OPTIONS }, 'question'],
  ['POST', '/v1/observations', { question: Q, user_choice: 'Tier \udc00', all_options: OPTIONS }, 'user_choice'],
  ['POST', '/v1/observations', { question: Q, user_choice: ['Tier S', 'Tier \udc00'], all_options: OPTIONS, multi_select: true }, 'user_choice.1'],
  ['POST', '/v1/observations', { question: Q, user_choice: 'Tier S', all_options: ['Tier S', 'Tier \ud800M'] }, 'all_options.1'],
  ['POST', '/v1/observations', { question: Q, user_choice: 'Tier S', all_options: ['Tier S', { label: 'Tier M', description: 'mid\udfff' }] }, 'all_options.1.description'],
  ['POST', '/v1/observations', { question: Q, user_choice: 'Tier S', all_options: OPTIONS, header: 'Tier\ud800' }, 'header'],
  ['POST', '/v1/observations', { question: Q, user_choice: 'Tier S', all_options: OPTIONS, context: { phase: 'run\ud800' } }, 'context.phase'],
  ['POST', '/v1/observations', [{ question: Q, user_choice: 'Tier S', all_options: OPTIONS }, { question: Q, user_choice: 'Tier S', all_options: OPTIONS, context: { ['ph\ud800']: 'run' } }], '1.context.ph\ud800'],
  ['POST', '/v1/recommendations', { question: 'Which\ud800 tier?', all_options: OPTIONS }, 'question'],
  ['POST', '/v1/recommendations', { question: Q, all_options: ['Tier S', '\udbffTier M'] }, 'all_options.1'],
  ['POST', '/v1/recommendations', { question: Q, all_options: OPTIONS, static_default: 'Tier S\ud800' }, 'static_default'],
  ['POST', '/v1/recommendations', { question: Q, all_options: OPTIONS, header: '\ud800' }, 'header'],
  ['POST', '/v1/recommendations', { question: Q, all_options: OPTIONS, context: { phase: '\udc00' } }, 'context.phase'],
  ['POST', '/v1/plan', { questions: [{ question: 'Which\ud800 tier?', options: [{ label: 'Tier S' }, { label: 'Tier M' }] }] }, 'questions.0.question'],
  ['POST', '/v1/plan', { questions: [{ question: Q, header: 'T\ud800', options: [{ label: 'Tier S' }, { label: 'Tier M' }] }] }, 'questions.0.header'],
  ['POST', '/v1/plan', { questions: [{ question: Q, options: [{ label: 'Tier S' }, { label: 'Tier M\ud800' }] }] }, 'questions.0.options.1.label'],
  ['POST', '/v1/plan', { questions: [{ question: Q, options: [{ label: 'Tier S', description: '\udc00' }, { label: 'Tier M' }] }] }, 'questions.0.options.0.description'],
  ['POST', '/v1/plan', { questions: [{ question: Q, kind: 'text\ud800' }] }, 'questions.0.kind'],
  ['POST', '/v1/plan', { questions: [{ question: Q, options: [{ label: 'Tier S' }, { label: 'Tier M' }] }], context: { phase: 'r\ud800' } }, 'context.phase'],
  ['POST', '/v1/decisions', { ...DECISION, title: 'Tier\ud800' }, 'title'],
  ['POST', '/v1/decisions', { ...DECISION, decision: 'Use\ud800' }, 'decision'],
  ['POST', '/v1/decisions', { ...DECISION, rationale: '\udc00' }, 'rationale'],
  ['POST', '/v1/decisions', { ...DECISION, source: 'session\ud800' }, 'source'],
  ['POST', '/v1/decisions', { ...DECISION, scope: { points: ['tier'] }, constraints: [{ kind: 'must', option: 'Tier M\ud800' }] }, 'constraints.0.option'],
  ['POST', '/v1/decisions', { ...DECISION, constraints: [{ kind: 'must_not', pattern: '^rm\ud800' }] }, 'constraints.0.pattern'],
  ['POST', '/v1/decisions', { ...DECISION, evidence: [{ kind: 'doc', summary: 'said\ud800' }] }, 'evidence.0.summary'],
  ['POST', '/v1/decisions', { ...DECISION, evidence: [{ kind: 'doc', summary: 'said', content: 'text\udc00' }] }, 'evidence.0.content'],
  ['POST', '/v1/decisions/import', { records: [{ ...RECORD, title: 'Tier\ud800' }] }, 'records.0.title'],
  ['POST', '/v1/decisions/import', { records: [{ ...RECORD, origin: { ...RECORD.origin, path: 'doc/adr/0001\ud800.md' } }] }, 'records.0.origin.path'],
  ['POST', '/v1/decisions/check', { action: 'git push\ud800' }, 'action'],
  ['POST', '/v1/decisions/check', { choice: 'Tier\ud800' }, 'choice'],
  ['POST', '/v1/decisions/check', { action: 'ls', path: 'src\ud800' }, 'path'],
  ['POST', '/v1/decisions/check', { action: 'ls', task: 'build\ud800' }, 'task'],
]

describe('a text holding a lone surrogate', () => {
  for (const [method, path, body, field] of CASES) {
    it(`is refused at ${path} ${JSON.stringify(field)}, named, as names refuse one, and nothing is stored`, async () => {
      const { call, store, decisions } = await createTestApp()
      const res = await call(method, path, body)
      expect(res.status, JSON.stringify(res.body)).toBe(400)
      expect(res.body.error.issues).toEqual([{ path: field, message: LONE }])
      expect(await observationsOf(store)).toEqual([])
      expect(await decisions.list({})).toEqual([])
    })
  }

  it('is refused in a reason of a decision moved along its lifecycle, the decision left as it was', async () => {
    const { call } = await createTestApp()
    expect((await call('POST', '/v1/decisions', DECISION)).status).toBe(201)
    const res = await call('POST', '/v1/decisions/D-1/accept', { reason: 'agreed\ud800' })
    expect(res.status).toBe(400)
    expect(res.body.error.issues).toEqual([{ path: 'reason', message: LONE }])
    expect((await call('GET', '/v1/decisions/D-1')).body.status).toBe('proposed')
  })

  it('a surrogate pair (an emoji) is no lone surrogate: taken and read back as sent', async () => {
    const { call } = await createTestApp()
    const question = 'Which tier? \u{1F680}'
    const res = await call('POST', '/v1/observations', { question, header: '\u{1F680}', user_choice: 'Tier \u{1F680}', all_options: ['Tier S', 'Tier \u{1F680}'], context: { phase: '\u{1F680}' } })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const points = (await call('GET', '/v1/users/default/preferences')).body.points
    expect(points[0]).toMatchObject({ question, header: '\u{1F680}', majority: 'Tier \u{1F680}' })
  })

  it("skips, at the hook's PostToolUse, the question holding one and the answer holding one, the call's other answers recorded", async () => {
    const { call, store } = await createTestApp()
    const post = claudeCodeFixture('post-tool-use-multi')
    for (const where of [post.tool_input, post.tool_response]) where.questions[0].header = 'Method\ud800'
    const skipped = await call('POST', HOOK, post)
    expect(skipped.status).toBe(200)
    expect(skipped.body.systemMessage).toContain(`tool_response.questions.0.header: ${LONE}`)
    expect((await observationsOf(store)).map((o) => o.question)).toEqual(['Which checks should run before the PR?'])

    const { call: call2, store: store2 } = await createTestApp()
    const answered = claudeCodeFixture('post-tool-use-multi')
    for (const where of [answered.tool_input, answered.tool_response]) where.answers['Which development methodology for this change?'] = 'Pair\ud800'
    const said = await call2('POST', HOOK, answered)
    expect(said.status).toBe(200)
    expect(said.body.systemMessage).toContain(LONE)
    expect((await observationsOf(store2)).map((o) => o.question)).toEqual(['Which checks should run before the PR?'])
  })

  it("costs no answer at the hook's PostToolUse where it is in what the service neither stores nor sends back", async () => {
    // An option's description is not captured (README), nor are the payload's other fields: a lone
    // surrogate there must not cost Claude Code's call its answers.
    const { call, store } = await createTestApp()
    const post = claudeCodeFixture('post-tool-use-multi')
    post.transcript_path = '/home/dev/.claude/x\ud800.jsonl'
    post.permission_mode = 'accept\udc00'
    post.hook_event_name = 'PostToolUse'
    for (const where of [post.tool_input, post.tool_response]) {
      where.questions[0].options[1].description = 'Domain model first\ud800'
      where.questions[0].options[0].preview = '\udc00'
      where.annotations = { [where.questions[0].question]: { notes: 'why\ud800' } }
    }
    const res = await call('POST', HOOK, post)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toEqual({})
    expect((await observationsOf(store)).map((o) => o.question)).toEqual(['Which development methodology for this change?', 'Which checks should run before the PR?'])
  })

  it("is no 5xx at the hook's PreToolUse: the question is left to the user as sent", async () => {
    const { call } = await createTestApp()
    const pre = claudeCodeFixture('pre-tool-use')
    pre.tool_input.questions[0].question = `${pre.tool_input.questions[0].question}\ud800`
    const res = await call('POST', HOOK, pre)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.systemMessage).toContain('left as written a question it could not take')
    expect(res.body.systemMessage).toContain(`(tool_input.questions.0.question: ${LONE})`)
  })
})

/**
 * The strings of a request a route reads but neither stores nor sends back, where a lone
 * surrogate is let be: the hook's `hook_event_name` only tells the event (one it does not know is
 * answered `{}`), and Claude Code's call must not be refused for it.
 */
const NEITHER_STORED_NOR_SENT = ['POST /v1/hooks/claude-code .hook_event_name']

describe('every text of a body', () => {
  it('refuses a lone surrogate, at every route, so that a text field added without the rule is seen here', async () => {
    const { app } = await createTestApp()
    // The routes are read from the document's registry, as route-users.ts reads them.
    const routes = (app.openAPIRegistry.definitions as Array<{ type: string; route?: any }>).filter((d) => d.type === 'route').map((d) => d.route)
    const said: Record<string, string> = {}
    let tried = 0
    for (const route of routes) {
      const body = route.request?.body?.content?.['application/json']?.schema
      for (const leaf of textLeaves(body, `${route.method.toUpperCase()} ${route.path} `)) {
        tried += 1
        const answer = loneSurrogateIn(leaf.schema)
        if (answer !== 'refused') said[leaf.where] = answer
      }
    }
    expect(said).toEqual(Object.fromEntries(NEITHER_STORED_NOR_SENT.map((where) => [where, 'taken'])))
    // The walk reached the bodies: a question, labels, a decision's texts, a check's and an import's.
    expect(tried).toBeGreaterThan(60)
  })

  it('of a URL cannot hold one: its percent-encoding is no UTF-8, refused naming the field', async () => {
    const { call } = await createTestApp()
    const res = await call('POST', `${HOOK}?project=%ED%A0%80`, claudeCodeFixture('post-tool-use-multi'))
    expect(res.status).toBe(400)
    expect(res.body.error.issues).toEqual([{ path: 'project', message: '"%ED%A0%80" is not percent-encoded UTF-8' }])
  })
})
