import fc from 'fast-check'
import { MemoryLevel } from 'memory-level'
import { describe, expect, it } from 'vitest'
import { claudeCodeFixture } from '../../test/support/fixtures'
import { createTestApp } from '../../test/support/test-app'

/*
 * Every route, sent a request with one part broken (a body field of another type, missing or
 * extra, a duplicate key, text that is not JSON, an odd query parameter or path segment, another
 * content type), against a store that holds observations, sessions and decisions: no 5xx, a
 * refusal is the JSON error envelope naming what it refuses, and the store, byte for byte, is as it
 * was (nothing stored is lost nor half-written). openapi-conformance.property.test.ts checks the
 * answers against the document; this checks what a refusal leaves behind.
 */

const TIER = ['Tier S', { label: 'Tier M (Recommended)', description: 'Most specs' }, 'Tier L']
const QUESTION = 'Which complexity tier should this SPEC use?'
const OBSERVATION = { question: QUESTION, header: 'Tier', user_choice: 'Tier S', all_options: TIER, context: { phase: 'run' }, user: 'alice', project: 'acme/api', session_id: 's-1' }
const DECISION = {
  key: 'D-010', title: 'Tier M', decision: 'Tier M for every spec', rationale: 'One tier', enforce: 'required', status: 'proposed', supersedes: 'D-001',
  scope: { points: ['complexity-tier'], path: 'services/api' }, constraints: [{ kind: 'must', option: 'Tier M' }, { kind: 'must_not', pattern: 'git push --force' }],
  evidence: [{ kind: 'doc', summary: 'ADR 1', uri: 'https://example.com/adr/1' }],
}
const RECORD = { key: 'ADR-1', title: 'Use Postgres', decision: 'Postgres', rationale: 'One database', status: 'accepted', date: null, origin: { path: 'doc/adr/1.md', line: 1, format: 'madr', folder: 'acme/doc/adr' } }

type Route = { method: string; path: string; query?: Record<string, string>; body?: unknown }
/** A request each route takes, or refuses only for the state it finds (a 404 or 409 changes nothing either). */
const ROUTES: Route[] = [
  { method: 'POST', path: '/v1/observations', body: [{ ...OBSERVATION, decision_id: 'd-9' }, { ...OBSERVATION, user: 'bob', user_choice: 'Tier L' }] },
  { method: 'POST', path: '/v1/recommendations', body: { question: QUESTION, header: 'Tier', all_options: TIER, user: 'alice', session_id: 's-2', static_default: 'Tier S' } },
  { method: 'POST', path: '/v1/sessions', body: { user: 'alice', project: 'acme/api', session_id: 's-3', started_at: '2026-06-30T10:00:00Z' } },
  { method: 'PUT', path: '/v1/sessions/s-1/personalization', body: { enabled: false, user: 'alice' } },
  { method: 'GET', path: '/v1/sessions/s-1/personalization', query: { user: 'alice' } },
  { method: 'POST', path: '/v1/plan', body: { user: 'alice', session_id: 's-1', questions: [{ question: QUESTION, header: 'Tier', multiSelect: false, options: [{ label: 'Tier S' }, { label: 'Tier M' }] }] } },
  { method: 'POST', path: '/v1/hooks/claude-code', query: { user: 'alice', project: 'acme/api' }, body: { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: 'toolu_new' } },
  { method: 'POST', path: '/v1/decisions', body: DECISION },
  { method: 'GET', path: '/v1/decisions', query: { status: 'accepted', as_of: '2026-07-01T10:00:00Z' } },
  { method: 'GET', path: '/v1/decisions/applicable', query: { path: 'services/api/x.ts', point: 'complexity-tier' } },
  { method: 'POST', path: '/v1/decisions/check', body: { choice: 'Tier L', point: 'complexity-tier', all_options: ['Tier S', 'Tier M', 'Tier L'] } },
  { method: 'POST', path: '/v1/decisions/import', body: { records: [RECORD, { ...RECORD, key: 'ADR-2', supersedes: 'ADR-1', origin: { ...RECORD.origin, path: 'doc/adr/2.md' } }] } },
  { method: 'GET', path: '/v1/decisions/D-001', query: { as_of: '2026-07-01T10:00:00Z' } },
  { method: 'POST', path: '/v1/decisions/D-002/accept', body: { reason: 'agreed' } },
  { method: 'POST', path: '/v1/decisions/D-001/deprecate', body: {} },
  { method: 'POST', path: '/v1/decisions/D-002/supersede', body: { by: 'D-003', reason: 'replaced' } },
  { method: 'GET', path: '/v1/decisions/D-001/why' },
  { method: 'GET', path: '/v1/why', query: { user: 'alice', point: 'complexity-tier' } },
  { method: 'GET', path: '/v1/users/alice/preferences', query: { as_of: '2026-07-01T10:00:00Z' } },
  { method: 'GET', path: '/v1/users/alice/export' },
  { method: 'DELETE', path: '/v1/users/bob' },
  { method: 'POST', path: '/v1/maintenance/decay-scan', body: { force: true, now: '2026-07-01T10:00:00Z' } },
]

/** JSON text written as is: numbers JSON.stringify cannot write, escapes of lone surrogates. */
class Raw {
  constructor(readonly text: string) {}
}
/** An object written with a key twice. */
class Twice {
  constructor(readonly entries: Array<[string, unknown]>) {}
}
function written(value: unknown): string {
  if (value instanceof Raw) return value.text
  if (value instanceof Twice) return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${written(v)}`).join(',')}}`
  if (Array.isArray(value)) return `[${value.map(written).join(',')}]`
  if (value !== null && typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${written(v)}`).join(',')}}`
  return JSON.stringify(value)
}
function deep(levels: number): unknown {
  let value: unknown = 'x'
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { a: value }
  return value
}

const ODD_VALUES: unknown[] = [
  null, true, 0, new Raw('-0'), -1, 1.5, new Raw('9007199254740993'), new Raw('1e309'), new Raw('1e-400'), '', ' ', '\u0000', new Raw('"\\ud800"'),
  '\u202e', 'e\u0301', '\ufeff', 'x'.repeat(1001), '🙂'.repeat(300), [], {}, [[]], deep(70), deep(400), '__proto__', 'constructor', 'Tier M',
  '2026-02-30T10:00:00Z', '+275760-09-13T00:00:00.000Z', '2026-07-01', 'D-001', 'd-001', 'alice', 'bob', 'A\u030a', ['a', 'a'],
  Array.from({ length: 60 }, (_, i) => `o${i}`), { label: 'x', description: null },
]
const ODD_KEYS = ['__proto__', 'constructor', 'extra', '', 'user', 'multiSelect', 'as_of', 'x'.repeat(300)]
const ODD_TEXTS = ['', ' ', 'null', '[]', '"x"', 'NaN', '{"a":1}garbage', '\ufeff', '{"a":"\\u12"}', '{"a":', '// c\n{}', "{'a':1}"]
const ODD_SEGMENTS = ['%2e%2e', '%2F', 'a%2Fb', '%', '%zz', '%00', '%ED%A0%80', '%C0%80', 'x'.repeat(3000), '__proto__', '%20D-001', 'check', 'import', '%E2%80%AE', 'a%3Bb', '%0A']
const ODD_QUERY = ['=%zz', '+=%FF', '%00=%', 'x=1', 'user=bob', 'user=alice&user=bob', 'as_of=', 'as_of=2026-02-30T10:00:00Z', '=', 'user=%E2%82', '_=1', '%FF=1', 'as_of=1e309', 'point=a&point=b']
const TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/vnd.api+json', 'multipart/form-data; boundary=x', '']

/** Every place in a value, by its path: [] the value itself. */
function places(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  const out = [at]
  if (Array.isArray(value)) value.forEach((item, i) => out.push(...places(item, [...at, i])))
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...places(v, [...at, k]))
  return out
}

type Sent = { method: string; url: string; headers: Record<string, string>; body?: string; broken: string }

/** A route's request with one part broken. */
const broken: fc.Arbitrary<Sent> = fc
  .record({
    route: fc.constantFrom(...ROUTES),
    kind: fc.constantFrom('replace', 'replace', 'delete', 'extra', 'twice', 'text', 'segment', 'query', 'type'),
    place: fc.nat(),
    value: fc.constantFrom(...ODD_VALUES),
    key: fc.constantFrom(...ODD_KEYS),
    text: fc.constantFrom(...ODD_TEXTS),
    segment: fc.constantFrom(...ODD_SEGMENTS),
    query: fc.constantFrom(...ODD_QUERY),
    type: fc.constantFrom(...TYPES),
  })
  .map(({ route, kind, place, value, key, text, segment, query, type }) => {
    const body: any = route.body === undefined ? undefined : structuredClone(route.body)
    const all = places(body)
    const at = all[place % all.length] as Array<string | number>
    const parent = at.slice(0, -1).reduce<any>((v, k) => v?.[k], body)
    const last = at.at(-1)
    const target = at.reduce<any>((v, k) => v?.[k], body)
    let root: unknown = body
    const put = (v: unknown) => {
      if (at.length === 0) root = v
      else Object.defineProperty(parent, last as string, { value: v, enumerable: true, writable: true, configurable: true })
    }
    let bodyText = body === undefined ? undefined : written(body)
    let url = route.path
    let query_ = new URLSearchParams(route.query ?? {}).toString()
    const headers: Record<string, string> = bodyText === undefined ? {} : { 'content-type': 'application/json' }
    let said = `${kind} at ${at.join('.') || '(body)'}`
    if (body !== undefined && kind === 'replace') put(value)
    else if (body !== undefined && kind === 'delete' && at.length > 0) Array.isArray(parent) ? parent.splice(last as number, 1) : delete parent[last as string]
    else if (body !== undefined && kind === 'extra' && target !== null && typeof target === 'object' && !Array.isArray(target)) {
      Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
    } else if (body !== undefined && kind === 'twice' && target !== null && typeof target === 'object' && !Array.isArray(target) && Object.keys(target).length > 0) {
      const entries: Array<[string, unknown]> = Object.entries(target)
      put(new Twice([...entries, [entries[place % entries.length]?.[0] as string, value]]))
    } else if (body !== undefined && kind === 'text') bodyText = text
    else if (kind === 'segment' && url.split('/').length > 3) {
      const parts = url.split('/')
      parts[3] = segment
      url = parts.join('/')
      said = `segment ${segment.slice(0, 20)}`
    } else if (kind === 'type' && body !== undefined) {
      if (type === '') delete headers['content-type']
      else headers['content-type'] = type
      said = `content-type ${type}`
    } else {
      query_ = query_ === '' ? query : `${query_}&${query}`
      said = `query ${query}`
    }
    if (body !== undefined && kind !== 'text') bodyText = written(root)
    return { method: route.method, url: query_ === '' ? url : `${url}?${query_}`, headers, body: bodyText, broken: said }
  })

async function contents(db: MemoryLevel<string, string>): Promise<Map<string, string>> {
  const held = new Map<string, string>()
  for await (const [key, value] of db.iterator()) held.set(key, value)
  return held
}

describe('a refused request leaves the store as it was (R-SVC-2)', () => {
  it('every route, one part of a request broken, against a store holding choices, sessions and decisions: no 5xx, a refusal names what it refuses and changes nothing', { timeout: 60_000 }, async () => {
    const db = new MemoryLevel<string, string>()
    const { app, call } = await createTestApp({ db })
    expect((await call('POST', '/v1/observations', [{ ...OBSERVATION, decision_id: 'd-1' }, { ...OBSERVATION, user: 'bob', decision_id: 'd-2' }])).status).toBe(201)
    expect((await call('POST', '/v1/hooks/claude-code?user=alice', claudeCodeFixture('post-tool-use-multi'))).status).toBe(200)
    expect((await call('PUT', '/v1/sessions/s-1/personalization', { enabled: true, user: 'alice' })).status).toBe(200)
    expect((await call('POST', '/v1/decisions', { ...DECISION, key: 'D-001', status: 'accepted', supersedes: undefined })).status).toBe(201)
    expect((await call('POST', '/v1/decisions', { ...DECISION, key: 'D-002', supersedes: 'D-001' })).status).toBe(201)
    expect((await call('POST', '/v1/decisions', { ...DECISION, key: 'D-003', supersedes: undefined })).status).toBe(201)
    let refused = 0
    await fc.assert(
      fc.asyncProperty(broken, async (sent) => {
        const before = await contents(db)
        const response = await app.request(sent.url, { method: sent.method, headers: sent.headers, body: sent.method === 'GET' ? undefined : sent.body })
        const text = await response.text()
        const what = `${sent.method} ${sent.url.slice(0, 200)} (${sent.broken}) → ${response.status} ${text.slice(0, 300)}`
        expect(response.status, what).toBeLessThan(500)
        if (response.status < 400) return
        refused++
        expect(response.headers.get('content-type'), what).toMatch(/^application\/json/)
        const { error } = JSON.parse(text)
        expect(error, what).toMatchObject({ code: expect.any(String), message: expect.any(String), request_id: response.headers.get('x-request-id') })
        if (response.status === 400) expect(error.issues.length, what).toBeGreaterThan(0)
        // Each issue names a field (a path, or `(body)` for the body as a whole), never nothing.
        for (const issue of error.issues) expect(issue, what).toEqual({ path: expect.stringMatching(/./), message: expect.stringMatching(/./) })
        const after = await contents(db)
        expect([...after].filter(([key, value]) => before.get(key) !== value).map(([key]) => key), what).toEqual([])
        expect([...before.keys()].filter((key) => !after.has(key)), what).toEqual([])
      }),
      { numRuns: 500, seed: 20261206 },
    )
    // Not a run of requests taken alone: most are refused, each checked.
    expect(refused).toBeGreaterThan(250)
  })
})
