import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'

const KEY_MESSAGE = 'letters, digits, ".", "_" and "-", starting with a letter or digit'
const AS_OF_MESSAGE = 'an ISO time with seconds and a zone, such as 2026-07-01T10:00:00Z or 2026-07-01T15:30:00+05:30'

/**
 * The `?user=` a route reading its user from the body or the path lets pass where it names that
 * user (router.ts): listed, but no part of the query the route validates, so not one here.
 */
const letPass = (p: { in: string; name: string; description?: string }) => p.in === 'query' && p.name === 'user' && /not in the query/.test(p.description ?? '')

/** The operations of the document with a parameter in the path and one in the query. */
async function pathAndQueryRoutes(call: Awaited<ReturnType<typeof createTestApp>>['call']): Promise<string[]> {
  const { paths } = (await call('GET', '/openapi.json')).body as { paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string; description?: string }> }>> }
  return Object.entries(paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, op]) => ['path', 'query'].every((place) => (op.parameters ?? []).some((p) => p.in === place && !letPass(p))))
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  )
}

describe('a request wrong in its path and its query (R-SVC-2)', () => {
  it('is refused naming both, on every route that has the two', async () => {
    const { call } = await createTestApp()
    const routes = await pathAndQueryRoutes(call)
    expect(routes.sort()).toEqual(['GET /v1/decisions/{key}', 'GET /v1/decisions/{key}/why', 'GET /v1/sessions/{id}/personalization', 'GET /v1/users/{user}/preferences'])
    // A bad value of each route's path parameter, with its query's `as_of` (or `user`) bad too.
    const broken: Record<string, [string, string, string]> = {
      'GET /v1/decisions/{key}': ['/v1/decisions/-x?as_of=bad', 'as_of', 'key'],
      'GET /v1/decisions/{key}/why': ['/v1/decisions/-x/why?as_of=bad', 'as_of', 'key'],
      'GET /v1/sessions/{id}/personalization': ['/v1/sessions/!x/personalization?user=!x', 'user', 'id'],
      'GET /v1/users/{user}/preferences': ['/v1/users/!x/preferences?as_of=bad', 'as_of', 'user'],
    }
    for (const route of routes) {
      const [url, query, param] = broken[route]!
      const { status, body } = await call('GET', url)
      expect(status, route).toBe(400)
      // The query's first, as the MCP `why {key, as_of}` names them.
      expect(body.error.message, route).toBe(`invalid request: ${query}, ${param}`)
      expect(body.error.issues.map((i: { path: string }) => i.path), route).toEqual([query, param])
      if (query === 'as_of') expect(body.error.issues[0].message, route).toBe(AS_OF_MESSAGE)
    }
  })

  it('names the path alone when the query is right, and the query alone when the path is', async () => {
    const { call } = await createTestApp()
    const pathOnly = await call('GET', '/v1/decisions/-x/why?as_of=2026-07-01T09:00:00Z')
    expect(pathOnly.status).toBe(400)
    expect(pathOnly.body.error.issues).toEqual([{ path: 'key', message: KEY_MESSAGE }])
    const queryOnly = await call('GET', '/v1/decisions/D-001/why?as_of=bad')
    expect(queryOnly.status).toBe(400)
    expect(queryOnly.body.error.issues).toEqual([{ path: 'as_of', message: AS_OF_MESSAGE }])
  })

  it('says a query parameter given twice as such beside a bad path', async () => {
    const { call } = await createTestApp()
    const { body } = await call('GET', '/v1/decisions/-x?as_of=2026-07-01T09:00:00Z&as_of=2026-07-01T09:30:00Z')
    expect(body.error.issues).toEqual([
      { path: 'as_of', message: 'given more than once in the query: give it once' },
      { path: 'key', message: KEY_MESSAGE },
    ])
  })

  it('answers a valid request as before', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', { title: 'A decision', decision: 'We do this.', rationale: 'Because.', status: 'accepted' })
    const why = await call('GET', '/v1/decisions/D-001/why?as_of=2026-07-01T10:00:00Z')
    expect(why.status).toBe(200)
    expect(why.body.current).toBe('D-001')
    expect((await call('GET', '/v1/decisions/D-001?as_of=2026-07-01T10:00:00Z')).body.key).toBe('D-001')
    expect((await call('GET', '/v1/users/alice/preferences?as_of=2026-07-01T10:00:00Z')).status).toBe(200)
  })
})

type Parameter = { in: string; name: string; description?: string; example?: unknown; schema?: { example?: unknown } }
type Operation = { parameters?: Parameter[]; requestBody?: { required?: boolean } }
type Part = 'query' | 'path' | 'body'

/** Each operation of the document, with the parts of its request: its query, its path parameters, its body. */
async function operations(call: Awaited<ReturnType<typeof createTestApp>>['call']) {
  const { paths } = (await call('GET', '/openapi.json')).body as { paths: Record<string, Record<string, Operation>> }
  return Object.entries(paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, op]) => {
      const parameters = (op.parameters ?? []).filter((p) => !letPass(p))
      const parts: Part[] = [
        ...(parameters.some((p) => p.in === 'query') ? (['query'] as const) : []),
        ...(parameters.some((p) => p.in === 'path') ? (['path'] as const) : []),
        ...(op.requestBody === undefined ? [] : (['body'] as const)),
      ]
      return { route: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, parameters, bodyRequired: op.requestBody?.required === true, parts }
    }),
  )
}

type Op = Awaited<ReturnType<typeof operations>>[number]

/** A body each route whose body is required takes, so that a request is wrong elsewhere alone. */
const VALID_BODY: Record<string, unknown> = {
  'POST /v1/decisions/{key}/supersede': { by: 'D-002' },
  'POST /v1/hooks/claude-code': { hook_event_name: 'Notification' },
}

/**
 * A request to the route with the parts given broken, the others as the route takes them: each
 * path parameter `!x`, which no name or key starts with; the query's first parameter given twice,
 * which no route takes; the body a JSON array, where every body is an object. With what each
 * broken part is named by in the refusal, in the order it names them.
 */
function request(op: Op, broken: Part[]) {
  const names: string[] = []
  const query = op.parameters.find((p) => p.in === 'query')?.name
  let search = ''
  if (broken.includes('query') && query !== undefined) {
    search = `?${query}=a&${query}=a`
    names.push(query)
  }
  const url =
    op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      if (broken.includes('path')) {
        names.push(name)
        return '!x'
      }
      const parameter = op.parameters.find((p) => p.in === 'path' && p.name === name)
      return encodeURIComponent(String(parameter?.example ?? parameter?.schema?.example ?? 'a'))
    }) + search
  let body: unknown
  if (broken.includes('body')) {
    body = []
    names.push('(body)')
  } else if (op.bodyRequired) body = VALID_BODY[op.route]
  return { url, body, names }
}

describe('a request wrong in two or more of its query, its path and its body (R-SVC-2)', () => {
  it('is refused naming each, the query first, then the path, then the body, on every route that has two', async () => {
    const { call } = await createTestApp()
    const several = (await operations(call)).filter((op) => op.parts.length >= 2)
    expect(several.map((op) => op.route).sort()).toEqual([
      'GET /v1/decisions/{key}',
      'GET /v1/decisions/{key}/why',
      'GET /v1/sessions/{id}/personalization',
      'GET /v1/users/{user}/preferences',
      'POST /v1/decisions/{key}/accept',
      'POST /v1/decisions/{key}/deprecate',
      'POST /v1/decisions/{key}/revoke',
      'POST /v1/decisions/{key}/supersede',
      'POST /v1/hooks/claude-code',
      'PUT /v1/sessions/{id}/personalization',
    ])
    for (const op of several) {
      // Every two of its parts, and all of them.
      const sets = op.parts.flatMap((a, i) => op.parts.slice(i + 1).map((b) => [a, b])).concat(op.parts.length > 2 ? [op.parts] : [])
      for (const broken of sets) {
        const { url, body, names } = request(op, broken)
        const answer = await call(op.method, url, body)
        const what = `${op.route} broken in ${broken.join(' and ')}`
        expect(answer.status, what).toBe(400)
        expect(answer.body.error.code, what).toBe('invalid_request')
        expect(answer.body.error.message, what).toBe(`invalid request: ${names.join(', ')}`)
        expect(answer.body.error.issues.map((i: { path: string }) => i.path), what).toEqual(names)
      }
    }
  })

  it('names the one part at fault alone, on every route that has two', async () => {
    const { call } = await createTestApp()
    for (const op of (await operations(call)).filter((op) => op.parts.length >= 2)) {
      for (const part of op.parts) {
        if (op.bodyRequired && part !== 'body') expect(VALID_BODY[op.route], `a body ${op.route} takes, in VALID_BODY`).toBeDefined()
        const { url, body, names } = request(op, [part])
        const answer = await call(op.method, url, body)
        const what = `${op.route} broken in its ${part}`
        expect(answer.status, what).toBe(400)
        expect(answer.body.error.message, what).toBe(`invalid request: ${names.join(', ')}`)
        expect(answer.body.error.issues.map((i: { path: string }) => i.path), what).toEqual(names)
      }
    }
  })

  it('names a body that is not JSON, or not sent as JSON, beside a bad path, as its own refusal names it', async () => {
    const { app, call } = await createTestApp()
    const send = async (path: string, type: string | undefined, body: string | undefined) => {
      const response = await app.request(path, { method: 'POST', headers: type === undefined ? {} : { 'content-type': type }, body })
      return { status: response.status, body: (await response.json()) as { error: { code: string; message: string; issues: Array<{ path: string; message: string }> } } }
    }
    const notJson = await send('/v1/decisions/-x/accept', 'application/json', '{"reason":')
    expect(notJson.status).toBe(400)
    expect(notJson.body.error.issues).toEqual([
      { path: 'key', message: KEY_MESSAGE },
      { path: '(body)', message: 'not valid JSON at line 1, column 11' },
    ])
    // Alone, each is refused as it was: not JSON, and a type the route does not take.
    expect((await send('/v1/decisions/D-001/accept', 'application/json', '{"reason":')).body.error.issues).toEqual([{ path: '(body)', message: 'not valid JSON at line 1, column 11' }])
    const plain = await send('/v1/decisions/-x/accept', 'text/plain', 'accepted')
    expect(plain.status).toBe(400)
    expect(plain.body.error.issues).toEqual([
      { path: 'key', message: KEY_MESSAGE },
      { path: 'content-type', message: 'must be application/json, not "text/plain"' },
    ])
    const plainAlone = await send('/v1/decisions/D-001/accept', 'text/plain', 'accepted')
    expect(plainAlone.status).toBe(415)
    expect(plainAlone.body.error.issues).toEqual([{ path: 'content-type', message: 'must be application/json, not "text/plain"' }])
    // A body left out: taken where it is optional, its fields named where it is required.
    expect((await send('/v1/decisions/-x/accept', undefined, undefined)).body.error.issues.map((i) => i.path)).toEqual(['key'])
    expect((await send('/v1/decisions/-x/supersede', undefined, undefined)).body.error.issues.map((i) => i.path)).toEqual(['key', 'by'])
    // Each field of a body at fault, after the path.
    const fields = await call('PUT', '/v1/sessions/!x/personalization', { enabled: 'yes', users: 'bob' })
    expect(fields.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['id', 'enabled', 'users'])
  })

  it("names the hook's query and its payload at once, and answers a hook as before", async () => {
    const { call } = await createTestApp()
    const both = await call('POST', '/v1/hooks/claude-code?wait_ms=soon', { hook_event_name: '' })
    expect(both.status).toBe(400)
    expect(both.body.error.message).toBe('invalid request: wait_ms, hook_event_name')
    const answered = await call('POST', '/v1/hooks/claude-code?wait_ms=1200', { hook_event_name: 'Notification', session_id: 's-1' })
    expect(answered).toEqual({ status: 200, body: {} })
  })
})
