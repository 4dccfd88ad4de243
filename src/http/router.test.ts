import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'

const KEY_MESSAGE = 'letters, digits, ".", "_" and "-", starting with a letter or digit'
const AS_OF_MESSAGE = 'an ISO time with seconds and a zone, such as 2026-07-01T10:00:00Z or 2026-07-01T15:30:00+05:30'

/** The operations of the document with a parameter in the path and one in the query. */
async function pathAndQueryRoutes(call: Awaited<ReturnType<typeof createTestApp>>['call']): Promise<string[]> {
  const { paths } = (await call('GET', '/openapi.json')).body as { paths: Record<string, Record<string, { parameters?: Array<{ in: string }> }>> }
  return Object.entries(paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, op]) => ['path', 'query'].every((place) => (op.parameters ?? []).some((p) => p.in === place)))
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  )
}

describe('a request wrong in its path and its query (R-SVC-2)', () => {
  it('is refused naming both, on every route that has the two', async () => {
    const { call } = await createTestApp()
    const routes = await pathAndQueryRoutes(call)
    expect(routes.sort()).toEqual(['GET /v1/decisions/{key}', 'GET /v1/decisions/{key}/why', 'GET /v1/users/{user}/preferences'])
    // A bad value of each route's path parameter, with its query's `as_of` bad too.
    const broken: Record<string, [string, string]> = {
      'GET /v1/decisions/{key}': ['/v1/decisions/-x?as_of=bad', 'key'],
      'GET /v1/decisions/{key}/why': ['/v1/decisions/-x/why?as_of=bad', 'key'],
      'GET /v1/users/{user}/preferences': ['/v1/users/!x/preferences?as_of=bad', 'user'],
    }
    for (const route of routes) {
      const [url, param] = broken[route]!
      const { status, body } = await call('GET', url)
      expect(status, route).toBe(400)
      // The query's first, as the MCP `why {key, as_of}` names them.
      expect(body.error.message, route).toBe(`invalid request: as_of, ${param}`)
      expect(body.error.issues.map((i: { path: string }) => i.path), route).toEqual(['as_of', param])
      expect(body.error.issues[0].message, route).toBe(AS_OF_MESSAGE)
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
