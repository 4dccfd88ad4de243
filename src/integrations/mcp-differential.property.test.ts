import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
import { mcpBackend } from '../cli/mcp'
import { commandLine } from '../config/bin-path'
import { runOfContext } from '../decisions/applicability'
import type { ContractedRecommendation } from '../decisions/enforcement'
import { briefPointWhy } from '../decisions/point-why-brief'
import { InputError } from '../domain/errors'
import { createMcpServer, whyOf } from './mcp'

/*
 * R-SVC-6, differentially: the same writes and reads sent to the routes of one store and, as tool
 * calls, to two more stores, one reached through its routes (the server while a service runs) and
 * one by the use cases themselves (`--data`, or no service running); each tool must answer what
 * its route answers, body for body and error for error (the code, and each field named with what
 * it takes). What README says differs is left out: `null` for an argument,
 * the defaults of `user` and `project`, `invalid arguments` for `invalid request`.
 */

const NOW = '2026-07-01T10:00:00.000Z'
type App = Awaited<ReturnType<typeof createTestApp>>

/**
 * The server's backend while a service runs, its calls sent to the app's routes. Each 2xx answer
 * is one the server takes for its route's (`expect`, which refuses another program's): a route's
 * genuine answer refused would be a tool error where the route answered.
 */
function throughService(app: App) {
  return mcpBackend(async (path, body, _local, method = 'POST', expect) => {
    const answer = await app.call(method, path, body)
    if (answer.status < 400 && expect !== undefined && !expect(answer.body)) throw new Error(`${method} ${path}: the route's own answer is not taken for it: ${JSON.stringify(answer.body).slice(0, 300)}`)
    return answer.status < 400 ? { ok: true, body: answer.body } : { ok: false, error: answer.body.error }
  })
}

/** The server's backend on a store it opened itself, its calls made by the use cases, as src/cli/service-client.ts makes them. */
function onStore(app: App) {
  return mcpBackend(async (_path, _body, local) => {
    try {
      return { ok: true, body: JSON.parse(JSON.stringify(await local(app.memory, app.decisions))) }
    } catch (error) {
      if (!(error instanceof InputError)) throw error
      return { ok: false, error: { code: error.code, message: error.message, issues: error.issues } }
    }
  })
}

async function clientOf(backend: ReturnType<typeof mcpBackend>, clock: App['clock']) {
  const server = createMcpServer(backend, { version: '0.0.0', clock })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'differential', version: '1.0.0' })
  await client.connect(clientSide)
  return client
}

/** A point's why as the `why` tool gives it, from the route's answer. */
const inBrief = (body: unknown) => briefPointWhy(body, { commandLine })

/** What a client is told: the body, or the error's code, message and each field at fault. */
type Told = { ok: true; body: unknown } | { ok: false; code: string; message: string; issues: string[] }

function toldByRoute(answer: { status: number; body: any }): Told {
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500)
  if (answer.status < 400) return { ok: true, body: answer.body }
  const { code, message, issues = [] } = answer.body.error
  return { ok: false, code, message, issues: issues.map((i: { path: string; message: string }) => `${i.path}: ${i.message}`) }
}

function toldByTool(answer: Awaited<ReturnType<Client['callTool']>>): Told {
  const text = (answer.content as Array<{ text: string }>)[0]?.text ?? ''
  if (answer.isError !== true) return { ok: true, body: JSON.parse(text) }
  const [first = '', ...lines] = text.split('\n')
  const code = first.slice(0, first.indexOf(':'))
  return { ok: false, code, message: first.slice(code.length + 2), issues: lines.map((line) => line.replace(/^- /, '')) }
}

/** As compared: observation ids (random in each store) by where they first stand; the words README says the tools use; issues in the order given, as a route names its parts (query, path, body). */
function comparable(told: Told): unknown {
  if (!told.ok) {
    const message = told.message.replace(/^invalid arguments: /, 'invalid request: ').replace(/^the arguments are over (\d+ KB), .*$/, 'the body is over $1')
    return { code: told.code, message, issues: told.issues }
  }
  const ids = new Map<string, string>()
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(/obs-[A-Za-z0-9]+-[0-9a-f]+/g, (id) => ids.get(id) ?? (ids.set(id, `ID${ids.size}`), `ID${ids.size - 1}`))
    if (Array.isArray(value)) return value.map(walk)
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]))
    return value
  }
  return walk(told.body)
}

const LABELS = ['pg', 'mysql', 'a', 'b', 'Tier L', 'Tier M (Recommended)', '__proto__', 'constructor', 'Café', 'Cafe\u0301', 'Ελένη 😀', '  spaced  ', 'a, b', 'x'.repeat(500)]
const label = fc.constantFrom(...LABELS)
const options = fc.uniqueArray(label, { minLength: 2, maxLength: 4, selector: (l) => l.normalize('NFC').trim().replace(/ \(Recommended\)$/, '') })
const QUESTIONS = ['Which database?', 'Which tier?', 'Ünïcode question ✓', 'q'.repeat(2000)]
const contextArb = fc.option(
  fc.dictionary(fc.constantFrom('task', 'path', 'stage', 'phase', '__proto__', 'lang'), fc.oneof(fc.constantFrom('build', 'src/billing', 'src/cafe\u0301', ' run ', 'x'.repeat(500), ''), fc.integer(), fc.boolean(), fc.constant(null)), { maxKeys: 4 }),
  { nil: undefined },
)
/** The run a point's why is asked in: a task, a path (one decomposed, as macOS gives it), a stage, as a context gives them. */
const runArb = fc.record(
  { task: fc.constantFrom('billing', ' run ', 7), path: fc.constantFrom('src/billing/x.ts', 'src/cafe\u0301', 'build'), stage: fc.constantFrom('build', true) },
  { requiredKeys: [] },
)
const common = fc.record(
  {
    user: fc.constantFrom('alice', 'bob', 'José'),
    project: fc.constantFrom('api', '/home/alice/web'),
    session_id: fc.constantFrom('s1', 's2'),
    context: contextArb,
    point: fc.constantFrom('db', 'tier', '__proto__'),
    header: fc.constantFrom('DB', ''),
    as_of: fc.constantFrom('2026-06-01T00:00:00Z', '2026-07-01T09:59:00.000Z', '2026-06-30T12:00:00+02:00', '2026-07-01T11:00:00Z'),
  },
  { requiredKeys: [] },
)
const recordArb = fc
  .tuple(fc.constantFrom(...QUESTIONS.slice(0, 3)), options, common, fc.nat(), fc.boolean(), fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }))
  .map(([question, all_options, c, pick, multi, id]) => {
    const { as_of: _, ...rest } = c
    const chosen = all_options[pick % all_options.length]!
    // Several chosen as an array, or as the one string AskUserQuestion joins them into; free text; one option.
    const user_choice = multi ? (pick % 2 === 0 ? all_options.slice(0, 2) : all_options.slice(0, 2).join(', ')) : pick % 7 === 6 ? 'something else' : chosen
    const timestamp = ['2026-06-01T08:00:00Z', '2026-06-30T12:00:00+02:00', undefined][pick % 3]
    return {
      question, all_options, ...rest, user_choice,
      ...(multi ? { multi_select: true } : {}),
      ...(id === undefined ? {} : { decision_id: `d-${id}` }),
      ...(timestamp === undefined ? {} : { timestamp }),
      ...(pick % 5 === 4 ? { source: 'auto-resolved' } : {}),
    }
  })
const recommendArb = fc
  .tuple(fc.constantFrom(...QUESTIONS), options, common, fc.option(label, { nil: undefined }), fc.option(fc.boolean(), { nil: undefined }))
  .map(([question, all_options, c, static_default, multi_select]) => ({ question, all_options, ...c, ...(static_default === undefined ? {} : { static_default: all_options.includes(static_default) ? static_default : all_options[0] }), ...(multi_select === undefined ? {} : { multi_select }) }))
const EXTRA_QUESTIONS = [
  { question: '  What name?  ', header: 'Name', kind: 'text' },
  { question: 'How many?', kind: 'number', placeholder: 'a count' },
  { question: 'Pick a colour', kind: 'Choice', options: [{ label: 'red' }, { label: ' blue ', description: 'sky' }] },
  { question: 'Pick a size', kind: '', options: [{ label: 'S' }, { label: 'M' }, { label: 'L' }], multiSelect: false, extra: { nested: [1, 2] } },
  JSON.parse('{"question":"Proto?","options":[{"label":"a"},{"label":"b"}],"__proto__":{"x":1}}'),
  { question: 'Cafe\u0301 or tea?', header: 'Drink', options: [{ label: 'Cafe\u0301' }, { label: 'tea (Recommended)' }] },
]
const planArb = fc
  .tuple(
    fc.uniqueArray(fc.oneof(fc.tuple(fc.constantFrom(...QUESTIONS.slice(0, 3)), options, fc.option(fc.boolean(), { nil: undefined })), fc.constantFrom(...EXTRA_QUESTIONS)), { minLength: 1, maxLength: 4, selector: (q) => (Array.isArray(q) ? q[0] : (q as { question: string }).question) }),
    common,
    fc.option(fc.constantFrom({ answers: { a: 1 } }, { metadata: { source: 'x' }, annotations: {} }), { nil: undefined }),
  )
  .map(([questions, c, extra]) => {
    const { point: _p, header: _h, ...rest } = c
    return {
      questions: questions.map((q) => (Array.isArray(q) ? { question: q[0], header: 'H', options: q[1].map((o: string) => ({ label: o, description: `about ${o}` })), ...(q[2] === undefined ? {} : { multiSelect: q[2] }) } : q)),
      ...rest,
      ...extra,
    }
  })
const checkArb = fc.oneof(
  fc.record({ action: fc.constantFrom('git push --force', 'rm -rf /', 'npm test') }, { requiredKeys: ['action'] }),
  // With no point (R-CON-3: `point?`), a choice is read at every point of the decisions in force; all_options then is refused.
  fc.tuple(fc.oneof(label, fc.array(label, { minLength: 1, maxLength: 2 })), fc.option(fc.constantFrom('db', 'tier'), { nil: undefined, freq: 3 }), fc.option(options, { nil: undefined }), fc.option(fc.constantFrom('src/billing/x.ts', 'build'), { nil: undefined }), fc.option(fc.constantFrom('2026-06-01T00:00:00Z'), { nil: undefined }))
    .map(([choice, point, all_options, path, as_of]) => ({ choice, ...(point === undefined ? {} : { point }), ...(all_options === undefined ? {} : { all_options }), ...(path === undefined ? {} : { path }), ...(as_of === undefined ? {} : { as_of }) })),
)

/** Decisions every store holds alike: proposed, accepted, superseded, scoped to a path; written over HTTP to each. */
const made = { decision: 'we do this', rationale: 'because', status: 'accepted' }
const DECISIONS = [
  ['POST', '/v1/decisions', { ...made, key: 'D-001', title: 'Use pg', enforce: 'required', scope: { points: ['db'] }, constraints: [{ kind: 'must', option: 'pg' }] }],
  ['POST', '/v1/decisions', { ...made, key: 'D-002', title: 'Not Tier M in billing', scope: { points: ['tier'], path: 'src/billing' }, constraints: [{ kind: 'must_not', option: 'Tier M' }] }],
  ['POST', '/v1/decisions', { ...made, key: 'D-003', title: 'No force push', enforce: 'required', constraints: [{ kind: 'must_not', pattern: 'git push --force' }] }],
  ['POST', '/v1/decisions', { ...made, key: 'D-004', title: 'Prefer mysql', status: 'proposed', scope: { points: ['db'] }, constraints: [{ kind: 'prefer', option: 'mysql' }] }],
  ['POST', '/v1/decisions', { ...made, key: 'D-005', title: 'No force push, ever', enforce: 'required', status: 'proposed', constraints: [{ kind: 'must_not', pattern: 'push.*(--force|-f)' }] }],
  ['POST', '/v1/decisions/D-003/supersede', { by: 'D-005', reason: 'stronger' }],
] as const

/** `brief`: the tool gives the route's answer in brief (a point's why, briefPointWhy), as README says. */
type Op = { tool: string; args: Record<string, unknown>; http: [string, string, unknown?]; brief?: true }
const whyPointOp = (p: { point: string; user?: string; project?: string; session_id?: string; context?: Record<string, unknown>; as_of?: string }): Op => {
  const q = new URLSearchParams()
  for (const k of ['user', 'project', 'session_id', 'point', 'as_of'] as const) if (p[k] !== undefined) q.set(k, p[k]!)
  for (const k of ['task', 'path', 'stage']) {
    const v = p.context?.[k]
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v))
  }
  return { tool: 'why', args: p, http: ['GET', `/v1/why?${q}`], brief: true }
}
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 2, arbitrary: recommendArb.map((a) => ({ tool: 'why', args: a, http: ['WHY', '', a] as Op['http'] })) },
  { weight: 4, arbitrary: recordArb.map((a) => ({ tool: 'record_choice', args: a, http: ['POST', '/v1/observations', a] as Op['http'] })) },
  { weight: 3, arbitrary: recommendArb.map((a) => ({ tool: 'recommend', args: a, http: ['POST', '/v1/recommendations', a] as Op['http'] })) },
  { weight: 2, arbitrary: planArb.map((a) => ({ tool: 'plan_questions', args: a, http: ['POST', '/v1/plan', a] as Op['http'] })) },
  { weight: 2, arbitrary: checkArb.map((a) => ({ tool: 'check_decision', args: a, http: ['POST', '/v1/decisions/check', a] as Op['http'] })) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom('db', 'tier', 'nowhere'), common, runArb)
      .map(([point, c, context]) => whyPointOp({ point, ...(c.user === undefined ? {} : { user: c.user }), ...(c.project === undefined ? {} : { project: c.project }), ...(c.session_id === undefined ? {} : { session_id: c.session_id }), ...(c.as_of === undefined ? {} : { as_of: c.as_of }), context })),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom('D-001', 'D-003', 'D-005', 'D-999'), fc.option(fc.constantFrom('2026-06-01T00:00:00Z', '2026-07-01T10:00:00Z'), { nil: undefined })).map(([key, as_of]) => ({
      tool: 'why',
      args: { key, ...(as_of === undefined ? {} : { as_of }) },
      http: ['GET', `/v1/decisions/${key}/why${as_of === undefined ? '' : `?as_of=${encodeURIComponent(as_of)}`}`] as Op['http'],
    })),
  },
)

/** Values that break a field, one at a time (null left out: README says a tool reads it as not given); the first is over the body limit. */
const BREAKERS: unknown[] = ['😀'.repeat(70_000), 42, true, 'a\ud800b', -0, 1e21, {}, [], '', ' ', '!x', '.', 'a\u0000b', 'x'.repeat(1001), 'x'.repeat(20001), [{}], ['a', 'a'], { label: '' }, '2026-13-01T00:00:00Z', '2026-07-01T11:00:00Z', '2026-07-01', 'not a time', -1]
const FIELDS: Record<string, string[]> = {
  record_choice: ['question', 'all_options', 'user_choice', 'user', 'project', 'session_id', 'point', 'header', 'context', 'decision_id', 'timestamp', 'multi_select', 'multiSelect', 'source', 'unknown_field'],
  recommend: ['question', 'all_options', 'user', 'project', 'session_id', 'point', 'header', 'context', 'static_default', 'multi_select', 'multiSelect', 'as_of', 'unknown_field'],
  plan_questions: ['questions', 'user', 'project', 'session_id', 'context', 'unknown_field'],
  check_decision: ['action', 'choice', 'point', 'all_options', 'task', 'path', 'stage', 'as_of', 'unknown_field'],
}
const brokenArb: fc.Arbitrary<Op> = fc
  .tuple(fc.oneof(recordArb.map((a) => ['record_choice', a, '/v1/observations'] as const), recommendArb.map((a) => ['recommend', a, '/v1/recommendations'] as const), planArb.map((a) => ['plan_questions', a, '/v1/plan'] as const), checkArb.map((a) => ['check_decision', a, '/v1/decisions/check'] as const)), fc.nat(), fc.constantFrom(...BREAKERS), fc.nat())
  .map(([[tool, valid, path], f, value, inner]) => {
    const fields = FIELDS[tool]!
    const field = fields[f % fields.length]!
    let args: Record<string, unknown> = { ...(valid as Record<string, unknown>), [field]: value }
    // Inside a list: one item or one option broken, the rest as they were.
    if (Array.isArray((valid as Record<string, unknown>)[field]) && inner % 2 === 0) {
      const list = [...((valid as Record<string, unknown>)[field] as unknown[])]
      list[inner % list.length] = field === 'questions' ? { ...(list[inner % list.length] as object), [['question', 'options', 'header', 'multiSelect', 'kind'][inner % 5]!]: value } : value
      args = { ...(valid as Record<string, unknown>), [field]: list }
    }
    return { tool, args, http: ['POST', path, args] as Op['http'] }
  })

/** `why` of a point alone or of a key, one field broken, against `GET /v1/why` and `GET /v1/decisions/{key}/why`. */
const brokenWhyArb: fc.Arbitrary<Op> = fc.oneof(
  fc.tuple(fc.constantFrom('point', 'user', 'project', 'session_id', 'as_of'), fc.constantFrom('', '!x', '.', 'a\u0000b', 'x'.repeat(201), 'not a time', '2026-07-01T11:00:00Z', '2026-02-30T00:00:00Z')).map(([field, value]) =>
    whyPointOp({ point: 'db', user: 'alice', [field]: value }),
  ),
  fc.tuple(fc.constantFrom('task', 'path', 'stage'), fc.constantFrom('x'.repeat(500), 'a\u0000b', ' ', 'Cafe\u0301')).map(([field, value]) => whyPointOp({ point: 'db', user: 'alice', context: { [field]: value } })),
  // The key broken, `as_of`, or both: the route names both at once, as the tool does.
  fc.oneof(
    fc.tuple(fc.constantFrom('D 1', '-x', 'x'.repeat(65), 'new'), fc.constantFrom(undefined, '2026-06-30T12:00:00+02:00')),
    fc.tuple(fc.constantFrom('D-001', 'd-001'), fc.constantFrom('not a time', '2026-07-01T11:00:00Z', '2026-02-30T00:00:00Z')),
    fc.tuple(fc.constantFrom('D 1', '-x', 'x'.repeat(65)), fc.constantFrom('not a time', '2026-02-30T00:00:00Z')),
  ).map(([key, as_of]) => ({
    tool: 'why',
    args: { key, ...(as_of === undefined ? {} : { as_of }) },
    http: ['GET', `/v1/decisions/${encodeURIComponent(key)}/why${as_of === undefined ? '' : `?as_of=${encodeURIComponent(as_of)}`}`] as Op['http'],
  })),
)

/**
 * A question's `why` as README says it, from the routes: the recommendation read as of `as_of` (or
 * of now), its evidence, and in `point_why` what `GET /v1/why` says of its point then, in the run
 * its context describes; null at a point nothing is known of.
 */
async function questionWhyByRoutes(app: App, args: Record<string, unknown>): Promise<Told> {
  const at = (args.as_of as string | undefined) ?? app.clock.now().toISOString()
  const told = toldByRoute(await app.call('POST', '/v1/recommendations', { ...args, as_of: at }))
  if (!told.ok) return told
  const recommendation = told.body as ContractedRecommendation
  const query = new URLSearchParams({ user: (args.user as string | undefined) ?? 'default', point: recommendation.point, as_of: at })
  for (const name of ['project', 'session_id'] as const) if (args[name] !== undefined) query.set(name, args[name] as string)
  for (const [name, value] of Object.entries(runOfContext(args.context as Record<string, unknown> | undefined))) if (value !== undefined) query.set(name, value)
  const behind = toldByRoute(await app.call('GET', `/v1/why?${query}`))
  if (!behind.ok && behind.code !== 'point_not_found') return behind
  return { ok: true, body: JSON.parse(JSON.stringify({ ...whyOf(recommendation), point_why: behind.ok ? inBrief(behind.body) : null })) }
}

/** Each op sent to the routes of one store and to the tools over two others; the ones told otherwise. */
async function divergences(ops: Op[]): Promise<string[]> {
  const [routes, service, store] = await Promise.all([createTestApp({ now: NOW }), createTestApp({ now: NOW }), createTestApp({ now: NOW })])
  for (const app of [routes, service, store]) for (const [method, path, body] of DECISIONS) expect((await app.call(method, path, body)).status, path).toBeLessThan(300)
  const clients = [
    ['through the service', await clientOf(throughService(service), service.clock)],
    ['on the store', await clientOf(onStore(store), store.clock)],
  ] as const
  const found: string[] = []
  for (const op of ops) {
    // A second between steps: observations made in one millisecond are ordered by their random ids.
    for (const app of [routes, service, store]) app.clock.advance(1000)
    const told = op.http[0] === 'WHY' ? await questionWhyByRoutes(routes, op.args) : toldByRoute(await routes.call(...op.http))
    const want = comparable(op.brief === true && told.ok ? { ok: true, body: inBrief(told.body) } : told)
    for (const [how, client] of clients) {
      const got = comparable(toldByTool(await client.callTool({ name: op.tool, arguments: op.args })))
      if (JSON.stringify(got) !== JSON.stringify(want)) found.push(`${op.tool} ${how}: ${JSON.stringify(op.args).slice(0, 300)}\n want ${JSON.stringify(want).slice(0, 600)}\n got  ${JSON.stringify(got).slice(0, 600)}`)
    }
  }
  await Promise.all(clients.map(([, client]) => client.close()))
  return found
}

// Fixed, so that a run is the same run everywhere; DM_FUZZ_SEED and DM_FUZZ_SCALE widen a search by hand.
const SEED = Number(process.env.DM_FUZZ_SEED ?? 20261205)
const SCALE = Number(process.env.DM_FUZZ_SCALE ?? 1)

describe('the MCP tools against their routes (R-SVC-6)', () => {
  it('answer the same writes and reads alike, through the service and on a store, valid or broken (one field, or a why’s key and as_of together)', { timeout: 60_000 * SCALE }, async () => {
    const found: string[] = []
    const steps = fc.oneof({ weight: 3, arbitrary: opArb }, { weight: 1, arbitrary: brokenArb }, { weight: 1, arbitrary: brokenWhyArb })
    await fc.assert(
      fc.asyncProperty(fc.array(steps, { minLength: 4, maxLength: 14 }), async (ops) => {
        found.push(...(await divergences(ops)))
      }),
      { seed: SEED, numRuns: 30 * SCALE },
    )
    expect(found.slice(0, 3)).toEqual([])
  })
})

describe("the MCP tools and the session's own latest choice (R-MEM-5, R-ASK-2)", () => {
  it('recommend and plan_questions ask in the session that chose otherwise, through the service and on a store, as the routes do', async () => {
    const app = await createTestApp({ now: NOW })
    const tier = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }
    const day = (d: number) => new Date(Date.parse(NOW) - d * 86_400_000).toISOString()
    const months = Array.from({ length: 120 }, (_, i) => ({ ...tier, user_choice: 'Tier M', session_id: `s-${i}`, timestamp: day(121 - i) }))
    const chosen = { ...tier, user_choice: 'Tier S', session_id: 'now', timestamp: new Date(Date.parse(NOW) - 300_000).toISOString() }
    expect((await app.call('POST', '/v1/observations', [...months, chosen])).status).toBe(201)
    const reason = 'in this session you last chose Tier S here, not Tier M: asked until your choice in this session agrees'
    const question = { question: tier.question, header: tier.header, options: tier.all_options.map((label) => ({ label, description: label })), multiSelect: false }
    for (const backend of [throughService(app), onStore(app)]) {
      const client = await clientOf(backend, app.clock)
      const asked = toldByTool(await client.callTool({ name: 'recommend', arguments: { ...tier, session_id: 'now' } }))
      expect(asked).toMatchObject({ ok: true, body: { recommended: 'Tier M', state: 'sufficient', ask: true, ask_reason: reason } })
      const plan = toldByTool(await client.callTool({ name: 'plan_questions', arguments: { session_id: 'now', questions: [question] } }))
      expect(plan).toMatchObject({ ok: true, body: { answers: {}, questions: [{ ask: true, recommendation: { ask_reason: reason } }] } })
      const fresh = toldByTool(await client.callTool({ name: 'plan_questions', arguments: { session_id: 'new', questions: [question] } }))
      expect(fresh).toMatchObject({ ok: true, body: { answers: { [tier.question]: expect.stringMatching(/^Tier M/) } } })
      await client.close()
    }
  })
})
