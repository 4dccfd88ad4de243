import { describe, expect, it } from 'vitest'
import { REQUIRED_TIER_L } from '../../test/support/decision-record'
import { claudeCodeFixture } from '../../test/support/fixtures'
import { createTestApp, START } from '../../test/support/test-app'
import { testTokens } from '../../test/support/tokens'

type Schema = {
  $ref?: string
  type?: string | string[]
  enum?: unknown[]
  anyOf?: Schema[]
  properties?: Record<string, Schema>
  required?: string[]
  additionalProperties?: boolean | Schema
  items?: Schema
  minItems?: number
  maxItems?: number
  minLength?: number
  maxLength?: number
  pattern?: string
}
type Header = { $ref?: string; required?: boolean }
type Answer = { content?: Record<string, { schema: Schema }>; headers?: Record<string, Header> }
type Document = {
  paths: Record<string, Record<string, { responses: Record<string, Answer> }>>
  components: { schemas: Record<string, Schema>; headers?: Record<string, Header> }
}

/** The headers the service sets on answers (its middleware, the hook route): each one sent is documented on its answer. */
const SENT_HEADERS = ['x-request-id', 'x-decision-memory-store', 'x-decision-memory-late', 'www-authenticate', 'allow', 'retry-after']

function typeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

/**
 * Where a value departs from a schema of the OpenAPI document, the subset of JSON Schema its
 * answers use; a field the schema does not list is one too (an answer says no more than its
 * document), but under `additionalProperties` (a record, or an object kept as sent).
 */
function departures(doc: Document, schema: Schema, value: unknown, at = '(body)'): string[] {
  if (schema.$ref !== undefined) return departures(doc, doc.components.schemas[schema.$ref.split('/').pop() as string] as Schema, value, at)
  if (schema.anyOf !== undefined) {
    const each = schema.anyOf.map((branch) => departures(doc, branch, value, at))
    return each.some((d) => d.length === 0) ? [] : [`${at}: fits no branch (${each.map((d) => d[0]).join(' | ')})`]
  }
  const type = typeOf(value)
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type]
    if (!types.includes(type) && !(type === 'integer' && types.includes('number'))) return [`${at}: ${type}, documented ${types.join(' or ')}`]
  }
  if (schema.enum !== undefined && !schema.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} is not among ${JSON.stringify(schema.enum)}`]
  const out: string[] = []
  if (typeof value === 'string') {
    const length = [...value].length
    if (schema.minLength !== undefined && length < schema.minLength) out.push(`${at}: shorter than ${schema.minLength}`)
    if (schema.maxLength !== undefined && length > schema.maxLength) out.push(`${at}: longer than ${schema.maxLength}`)
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) out.push(`${at}: does not match ${schema.pattern}`)
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) out.push(`${at}: fewer than ${schema.minItems} items`)
    if (schema.maxItems !== undefined && value.length > schema.maxItems) out.push(`${at}: more than ${schema.maxItems} items`)
    if (schema.items !== undefined) value.forEach((item, i) => out.push(...departures(doc, schema.items as Schema, item, `${at}.${i}`)))
  }
  if (type === 'object') {
    const object = value as Record<string, unknown>
    for (const key of schema.required ?? []) if (!Object.hasOwn(object, key)) out.push(`${at}.${key}: documented as required, missing`)
    for (const [key, field] of Object.entries(object)) {
      const documented = schema.properties?.[key]
      if (documented !== undefined) out.push(...departures(doc, documented, field, `${at}.${key}`))
      else if (typeof schema.additionalProperties === 'object') out.push(...departures(doc, schema.additionalProperties, field, `${at}.${key}`))
      else if (schema.additionalProperties !== true && !(schema.properties === undefined && schema.additionalProperties === undefined)) out.push(`${at}.${key}: not documented`)
    }
  }
  return out
}

const TIER = 'Which complexity tier should this SPEC use?'
const TIERS = ['Tier S', 'Tier M', 'Tier L']
const daysBefore = (days: number) => new Date(Date.parse(START) - days * 86_400_000).toISOString()

describe('every answer fits the OpenAPI document: its status, content type and schema', () => {
  it('a tour of every operation, in the states that fill their optional parts', async () => {
    const { app } = await createTestApp({ storeId: 'store-1' })
    const withAuth = await createTestApp({ auth: testTokens })
    const doc = (await (await app.request('/openapi.json')).json()) as Document
    const answered = new Set<string>()
    const problems: string[] = []

    async function send(method: string, path: string, body?: unknown, options: { headers?: Record<string, string>; via?: typeof app } = {}): Promise<any> {
      const response = await (options.via ?? app).request(path, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const where = `${method} ${path} → ${response.status}`
      const bare = path.split('?')[0] as string
      const template = Object.keys(doc.paths).find(
        (t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare) && doc.paths[t]?.[method.toLowerCase()] !== undefined,
      )
      if (template === undefined) throw new Error(`${where}: no operation`)
      answered.add(`${method} ${template}`)
      const documented = doc.paths[template]?.[method.toLowerCase()]?.responses[String(response.status)]
      if (documented === undefined) {
        problems.push(`${where}: status not documented (${await response.text()})`)
        return undefined
      }
      const headers = new Map(
        Object.entries(documented.headers ?? {}).map(([name, h]) => [name.toLowerCase(), h.$ref === undefined ? h : doc.components.headers?.[h.$ref.split('/').pop() as string]]),
      )
      for (const name of SENT_HEADERS) if (response.headers.has(name) && !headers.has(name)) problems.push(`${where}: header ${name} not documented`)
      for (const [name, h] of headers) if (h?.required === true && !response.headers.has(name)) problems.push(`${where}: header ${name} documented as required, missing`)
      const [type, media] = Object.entries(documented.content ?? {})[0] ?? []
      const contentType = response.headers.get('content-type') ?? ''
      if (type !== undefined && !contentType.startsWith(type)) problems.push(`${where}: content-type ${contentType}, documented ${type}`)
      if (type !== 'application/json') return response.text()
      const json = await response.json()
      for (const d of departures(doc, (media as { schema: Schema }).schema, json)) problems.push(`${where}: ${d}`)
      return json
    }

    // Observations over six weeks, in several sessions and contexts, for a single- and a multi-select point.
    const past = Array.from({ length: 24 }, (_, i) => ({
      decision_id: `tier-${i}`,
      question: TIER,
      header: 'Tier',
      user_choice: i < 12 ? 'Tier S' : 'Tier M',
      all_options: TIERS,
      user: 'alice',
      project: 'acme/api',
      session_id: `s-${i % 6}`,
      point: 'complexity-tier',
      context: { phase: i % 2 === 0 ? 'run' : 'plan', billing: i % 3 === 0 },
      timestamp: daysBefore(60 - i * 2),
    }))
    const tests = Array.from({ length: 12 }, (_, i) => ({
      decision_id: `tests-${i}`,
      question: 'Which tests should run?',
      user_choice: ['Unit', 'E2E'],
      all_options: [{ label: 'Unit', description: 'fast' }, 'E2E', 'None'],
      user: 'alice',
      session_id: `s-${i % 6}`,
      point: 'tests',
      timestamp: daysBefore(30 - i),
    }))
    await send('GET', '/healthz')
    await send('GET', '/healthz', undefined, { headers: { 'X-Decision-Memory-Store': 'store-1' } })
    await send('GET', '/v1/decisions', undefined, { via: withAuth.app })
    await send('POST', '/v1/observations', [...past, ...tests])
    await send('POST', '/v1/observations', { ...past[0], source: 'auto-resolved' })
    const ask = { user: 'alice', project: 'acme/api', question: TIER, header: 'Tier', point: 'complexity-tier', all_options: TIERS }
    await send('POST', '/v1/recommendations', ask)
    await send('POST', '/v1/recommendations', { ...ask, session_id: 's-1', context: { phase: 'run' } })
    await send('POST', '/v1/recommendations', { ...ask, as_of: daysBefore(20), static_default: 'Tier L' })
    await send('POST', '/v1/recommendations', { user: 'alice', question: 'Which tests should run?', point: 'tests', all_options: ['Unit', 'E2E', 'None'], multi_select: true })
    await send('POST', '/v1/recommendations', { question: 'Anything new?', all_options: ['Yes', 'No'] })
    await send('POST', '/v1/sessions', { user: 'alice', session_id: 's-new', project: 'acme/api' })
    await send('POST', '/v1/sessions', { user: 'alice', session_id: 's-new', started_at: daysBefore(1) })
    await send('PUT', '/v1/sessions/s-new/personalization', { user: 'alice', enabled: false })
    await send('GET', '/v1/sessions/s-new/personalization?user=alice')
    await send('GET', '/v1/sessions/s-none/personalization')
    await send('POST', '/v1/recommendations', { ...ask, session_id: 's-new' })
    const question = { question: TIER, header: 'Tier', options: TIERS.map((label) => ({ label, description: label })), multiSelect: false }
    const many = Array.from({ length: 6 }, (_, i) => ({ question: `Question ${i}?`, header: 'Q', options: [{ label: 'a', description: '' }, { label: 'b', description: '' }] }))
    await send('POST', '/v1/plan', { user: 'alice', project: 'acme/api', session_id: 's-1', questions: [question, ...many] })
    const testsOptions = ['Unit', 'E2E', 'None'].map((label) => ({ label, description: '' }))
    await send('POST', '/v1/plan', { user: 'alice', questions: [{ question: 'Which tests should run?', header: 'Tests', options: testsOptions, multiSelect: true }] })
    await send('POST', '/v1/plan', { user: 'alice', questions: [{ question: 'Name it?', header: 'Name', kind: 'text' }, question, { question: 'Port?', kind: 'number' }] })
    for (const name of ['session-start', 'pre-tool-use', 'post-tool-use-single', 'post-tool-use-multi', 'pre-tool-use-bash']) {
      await send('POST', '/v1/hooks/claude-code?user=alice', claudeCodeFixture(name))
    }

    // Decisions through their lifecycle, a required one bound to the point, and an import.
    await send('POST', '/v1/decisions', {
      ...REQUIRED_TIER_L,
      key: 'D-TIER',
      evidence: [{ kind: 'doc', summary: 'why', uri: 'https://example.com', content: 'text' }],
    })
    const push = { kind: 'must_not', pattern: 'git push (.* )?(--force|-f\\b)' }
    await send('POST', '/v1/decisions', { key: 'D-PUSH', title: 'No force push', decision: 'never', rationale: 'lost work', enforce: 'required', constraints: [push] })
    const run = { task: 'billing', path: 'services/billing', stage: 'run' }
    await send('POST', '/v1/decisions', { title: 'Keyed by the service', decision: 'd', rationale: 'r', supersedes: 'D-TIER', scope: run })
    await send('POST', '/v1/decisions/D-PUSH/accept', { reason: 'agreed' })
    await send('POST', '/v1/recommendations', ask)
    await send('POST', '/v1/plan', { user: 'alice', questions: [question] })
    await send('POST', '/v1/hooks/claude-code?user=alice', claudeCodeFixture('pre-tool-use'))
    await send('POST', '/v1/decisions/check', { action: 'git push --force origin main', path: 'services/billing' })
    await send('POST', '/v1/decisions/check', { choice: 'Tier S', point: 'complexity-tier', as_of: START })
    await send('GET', '/v1/decisions/applicable?point=complexity-tier&task=billing&path=services/billing&stage=run')
    await send('GET', `/v1/decisions/applicable?as_of=${START}`)
    await send('GET', '/v1/decisions/pulses')
    await send('GET', '/v1/decisions?status=accepted&point=complexity-tier')
    await send('POST', '/v1/decisions/D-001/supersede', { by: 'D-PUSH' })
    await send('POST', '/v1/decisions/D-TIER/supersede', { by: 'D-001', reason: 'billing moved' })
    await send('GET', '/v1/decisions/D-TIER')
    await send('GET', `/v1/decisions/D-TIER?as_of=${START}`)
    // A proposal naming a link another replaced since: pending, with a warning.
    await send('POST', '/v1/decisions', { key: 'D-LATE', title: 'Too late', decision: 'd', rationale: 'r', supersedes: 'D-TIER' })
    await send('GET', '/v1/decisions/D-TIER/why')
    await send('GET', '/v1/decisions/D-001/why')
    await send('POST', '/v1/decisions/D-001/deprecate', {})
    await send('POST', '/v1/decisions/D-001/revoke')
    await send('GET', '/v1/decisions/D-404')
    const origin = (key: string) => ({ path: `doc/adr/${key}.md`, line: 1, format: 'madr', folder: 'github.com/acme/api/doc/adr' })
    const record = (key: string, status: string, more: object = {}) => ({ key, title: key, decision: 'd', rationale: 'r', status, date: null, origin: origin(key), ...more })
    await send('POST', '/v1/decisions/import', {
      records: [record('ADR-1', 'accepted'), record('ADR-2', 'superseded', { superseded_by: 'ADR-9' }), record('D-PUSH', 'accepted')],
      files: ['doc/adr/ADR-1.md', 'doc/adr/ADR-2.md'],
    })
    await send('POST', '/v1/decisions/import', { records: [record('ADR-1', 'deprecated')] })
    await send('GET', '/v1/decisions/ADR-2')

    // What is known of a user, and the decay scan that ages it.
    await send('GET', '/v1/why?user=alice&point=complexity-tier&session_id=s-1&project=acme/api&task=billing&path=services/billing&stage=run')
    await send('GET', `/v1/why?user=alice&point=tests&as_of=${daysBefore(5)}`)
    // A run whose stage contradicts the precondition the choices made: the confidence says why it was lowered.
    const staged = Array.from({ length: 12 }, (_, i) => ({
      decision_id: `runner-${i}`,
      question: 'Which runner?',
      user_choice: 'Local',
      all_options: ['Local', 'Remote'],
      user: 'alice',
      session_id: `s-${i % 6}`,
      point: 'runner',
      context: { stage: 'run' },
      timestamp: daysBefore(12 - i),
    }))
    await send('POST', '/v1/observations', staged)
    const lowered = await send('GET', '/v1/why?user=alice&point=runner&stage=plan')
    expect(lowered.recommendation.confidence.lowered_because).toContain('stage is plan')
    await send('GET', '/v1/why?user=alice&point=nothing-here')
    await send('GET', '/v1/users/alice/preferences')
    await send('GET', '/v1/users/alice/export')
    await send('POST', '/v1/maintenance/decay-scan', { force: true })
    await send('POST', '/v1/maintenance/decay-scan')
    await send('DELETE', '/v1/users/alice')
    await send('POST', '/v1/observations', { question: 'Q?', user_choice: 'A', all_options: ['A', 'B'], decisionId: 'x' })

    expect(problems).toEqual([])
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
    expect(operations.filter((o) => !answered.has(o))).toEqual([])
  })
})
