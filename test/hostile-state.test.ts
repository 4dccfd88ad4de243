import { describe, expect, it } from 'vitest'
import { seededRandom } from './support/crash-cycles'
import { claudeCodeFixture } from './support/fixtures'
import { createTestApp } from './support/test-app'

/**
 * Hostile values, each as the JSON text that replaces one field of a valid body: wrong types,
 * values at and over the limits (src/domain/limits.ts), Unicode edge cases, numbers JSON.parse
 * makes odd (1e309 is Infinity), times far off or not times, words of Object.prototype, deep nesting.
 */
const long = (n: number) => JSON.stringify('x'.repeat(n))
const HOSTILE = [
  'null', 'true', '0', '-0', '1e308', '1e309', '-1e309', '123456789012345678901234567890', '1.5', '-1', '""', '"  \\t "',
  '{}', '[]', '["x"]', '[null]', '[[["x"]]]', `${'{"a":'.repeat(70)}1${'}'.repeat(70)}`, `${'['.repeat(2000)}${']'.repeat(2000)}`,
  '"__proto__"', '"constructor"', '"toString"', '{"__proto__": {"polluted": 1}}', '"a\\ud800b"', '"\\udc00"', '"a\\u0000b"',
  '"\\u202eabc"', '"e\\u0301\\u0301"', '"👨‍👩‍👧‍👦"', '"Cafe\\u0301"', '"\\ufeff"', '"\\u2028"', '"!x"', '"%2F"', '".."',
  long(199), long(200), long(201), long(500), long(501), long(2001), long(8001),
  JSON.stringify(Array.from({ length: 51 }, (_, i) => `o${i}`)),
  '"0000-01-01T00:00:00Z"', '"+275760-09-13T00:00:00Z"', '"9999-12-31T23:59:59Z"', '"2026-02-30T00:00:00Z"', '"2026-07-01T24:00:00Z"',
  '"2026-07-01"', '"2026-07-01T10:04:59Z"', '"1970-01-01T00:00:00Z"', '"("', '"(a+)+$"', '"D-001"', '"applicable"',
]

const OBS = {
  question: 'Which complexity tier?', header: 'Tier', user_choice: 'Tier M', all_options: ['Tier S', { label: 'Tier M', description: 'm' }, 'Tier L'],
  context: { phase: 'run' }, user: 'alice', project: 'acme/api', session_id: 's-1', point: 'tier', decision_id: 'o-1',
  timestamp: '2026-07-01T09:00:00Z', multi_select: false, source: 'user',
}
const DECISION = {
  key: 'H-1', title: 't', decision: 'd', rationale: 'r', enforce: 'required', status: 'accepted', date: '2026-06-30', source: 's',
  scope: { points: ['tier'], task: 'task', path: '/home/dev', stage: 'run' },
  constraints: [{ kind: 'must_not', pattern: 'git push --force' }, { kind: 'must', option: 'Tier M' }, { kind: 'limit', value: 3 }],
  evidence: [{ kind: 'doc', summary: 's', uri: 'http://x' }],
}
const RECORD = { key: 'ADR-1', title: 't', decision: 'd', rationale: 'r', status: 'accepted', date: '2026-01-01', origin: { path: 'adr/1.md', line: 1, format: 'madr' } }

/** A valid body of every operation that takes one; each field of it is what gets replaced. */
const OPERATIONS: Array<{ method: string; path: string; body: unknown }> = [
  { method: 'POST', path: '/v1/observations', body: OBS },
  { method: 'POST', path: '/v1/observations', body: [OBS, { ...OBS, decision_id: 'o-2' }] },
  { method: 'POST', path: '/v1/recommendations', body: { ...OBS, user_choice: undefined, decision_id: undefined, static_default: 'Tier S', as_of: '2026-07-01T09:30:00Z' } },
  { method: 'POST', path: '/v1/sessions', body: { user: 'alice', project: 'acme/api', session_id: 's-9', started_at: '2026-07-01T08:00:00Z' } },
  { method: 'PUT', path: '/v1/sessions/s-1/personalization', body: { enabled: false, user: 'alice' } },
  { method: 'POST', path: '/v1/plan', body: { user: 'alice', questions: [{ question: 'Which tier?', header: 'Tier', options: [{ label: 'S', description: '' }, { label: 'M', description: '' }], multiSelect: false }], context: { phase: 'run' } } },
  { method: 'POST', path: '/v1/hooks/claude-code', body: claudeCodeFixture('pre-tool-use') },
  { method: 'POST', path: '/v1/hooks/claude-code', body: claudeCodeFixture('post-tool-use-multi') },
  { method: 'POST', path: '/v1/hooks/claude-code', body: claudeCodeFixture('session-start') },
  { method: 'POST', path: '/v1/decisions', body: DECISION },
  { method: 'POST', path: '/v1/decisions/check', body: { action: 'git push --force', choice: 'Tier M', point: 'tier', task: 'task', path: '/home/dev/x', stage: 'run' } },
  { method: 'POST', path: '/v1/decisions/import', body: { records: [RECORD] } },
  { method: 'POST', path: '/v1/decisions/P-1/accept', body: { reason: 'why' } },
  { method: 'POST', path: '/v1/decisions/P-2/supersede', body: { by: 'P-3', reason: 'why' } },
  { method: 'POST', path: '/v1/maintenance/decay-scan', body: { force: true, now: '2026-07-01T10:00:00Z' } },
]
/** Path parameters and query strings, on the routes that take them. */
const PARAMS = ['%2F', '%00', '..', '%2E%2E', 'a%2Fb', '__proto__', 'constructor', 'x'.repeat(201), '%F0%9F%98%80', '%ED%A0%80', '%E2%80%AE', '%', '%zz', 'CHECK', '!x', 'e%CC%81']
const PARAM_ROUTES = ['GET /v1/decisions/{}', 'GET /v1/decisions/{}/why', 'POST /v1/decisions/{}/revoke', 'GET /v1/users/{}/preferences', 'GET /v1/users/{}/export', 'DELETE /v1/users/{}', 'PUT /v1/sessions/{}/personalization']
const QUERIES = ['/v1/decisions?status=accepted&status=proposed', '/v1/decisions?point=', '/v1/decisions/applicable?path=%00&task=__proto__', '/v1/why?point=tier&user=', '/v1/why?point=tier&as_of=1969-01-01T00:00:00Z', '/v1/why?user=a&user=b&point=tier', '/v1/hooks/claude-code?at=&user=__proto__']

/** Every path into a JSON value: the fields that get replaced. */
function fieldsOf(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const own = prefix.length > 0 ? [prefix] : []
  if (Array.isArray(value)) return [...own, ...value.flatMap((v, i) => fieldsOf(v, [...prefix, i]))]
  if (value !== null && typeof value === 'object') return [...own, ...Object.entries(value).flatMap(([k, v]) => fieldsOf(v, [...prefix, k]))]
  return own
}

/** The body's JSON with the field at `path` replaced by `raw` (JSON text), or removed. */
function replaced(body: unknown, path: Array<string | number>, raw: string | undefined): string {
  const copy = JSON.parse(JSON.stringify(body))
  let parent = copy
  for (const key of path.slice(0, -1)) parent = parent[key]
  const last = path[path.length - 1] as string | number
  if (raw === undefined) {
    if (Array.isArray(parent)) parent.splice(last as number, 1)
    else delete parent[last]
    return JSON.stringify(copy)
  }
  parent[last] = '\u0001MARK\u0001'
  return JSON.stringify(copy).replace('"\\u0001MARK\\u0001"', () => raw)
}

/** Codes whose answer says what is wrong without a field to name. */
const WITHOUT_FIELD = new Set(['not_found', 'invalid_json', 'body_too_large', 'unsupported_media_type'])

describe('hostile requests at every operation lose nothing stored, and answer 4xx naming the field (R-SVC-2)', () => {
  it.each([1, 2, 3])('seed %i', { timeout: 120_000 }, async (seed) => {
    const random = seededRandom(seed)
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
    const { app, call } = await createTestApp()

    // What must survive: a user's observations, sessions and a toggle, and accepted decisions.
    const keep = { user: 'keeper', project: 'keep/proj', point: 'keep-point', question: 'Keep which?', all_options: ['K1', 'K2', 'K3'] }
    for (let i = 0; i < 7; i++) {
      expect((await call('POST', '/v1/observations', { ...keep, user_choice: i < 5 ? 'K2' : 'K1', decision_id: `k-${i}`, session_id: `k-s${i}`, context: { phase: 'run' } })).status).toBe(201)
    }
    expect((await call('PUT', '/v1/sessions/k-s0/personalization', { enabled: false, user: 'keeper' })).status).toBe(200)
    expect((await call('POST', '/v1/decisions', { key: 'KEEP-1', title: 'keep', decision: 'keep it', rationale: 'because', status: 'accepted', scope: { points: ['keep-point-2'] } })).status).toBe(201)
    for (const key of ['P-1', 'P-2', 'P-3']) await call('POST', '/v1/decisions', { key, title: key, decision: 'd', rationale: 'r' })
    const snapshot = async () => {
      const exported = String((await call('GET', '/v1/users/keeper/export')).body)
        .split('\n')
        // Aggregates are a cache (the core tier moves), and the export says when it was made.
        .filter((line) => !/"type":"(aggregate|end|export)"/.test(line))
      const recommendation = (await call('POST', '/v1/recommendations', { ...keep, session_id: 'k-s1' })).body
      const decision = (await call('GET', '/v1/decisions/KEEP-1')).body
      const preferences = (await call('GET', '/v1/users/keeper/preferences')).body
      return { exported, recommendation, decision, preferences }
    }
    const before = await snapshot()
    expect(before.recommendation.observations).toBe(7)

    for (let n = 0; n < 300; n++) {
      let method: string
      let path: string
      let body: string | undefined
      const kind = random()
      if (kind < 0.8) {
        const operation = pick(OPERATIONS)
        const field = pick(fieldsOf(operation.body))
        ;({ method, path } = operation)
        body = replaced(operation.body, field, random() < 0.1 ? undefined : pick(HOSTILE))
      } else if (kind < 0.93) {
        ;[method = 'GET', path = ''] = pick(PARAM_ROUTES).replace('{}', pick(PARAMS)).split(' ')
        body = method === 'GET' || method === 'DELETE' ? undefined : '{}'
      } else {
        path = pick(QUERIES)
        method = path.startsWith('/v1/hooks') ? 'POST' : 'GET'
        body = method === 'POST' ? JSON.stringify(claudeCodeFixture('session-start')) : undefined
      }
      const response = await app.request(path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body })
      const text = await response.text()
      const sent = `${method} ${path} ${body?.slice(0, 300)}`
      expect(response.status, sent).toBeLessThan(500)
      if (response.status >= 400) {
        const { error } = JSON.parse(text) as { error: { code: string; message: string; issues: Array<{ path: string; message: string }> } }
        expect(error.message, sent).not.toBe('')
        if (!WITHOUT_FIELD.has(error.code)) expect(error.issues.length, `${sent}: ${text}`).toBeGreaterThan(0)
      }
      if (n % 25 === 24) expect(await snapshot(), `in the 25 requests up to ${sent}`).toEqual(before)
    }
    expect(await snapshot()).toEqual(before)
  })
})
