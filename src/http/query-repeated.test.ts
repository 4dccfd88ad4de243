import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'

const A = '2026-07-01T09:00:00Z'
const B = '2026-07-01T09:30:00Z'

async function refused(url: string, init?: RequestInit) {
  const { app } = await createTestApp()
  const response = await app.request(url, init)
  expect(response.status).toBe(400)
  return ((await response.json()) as { error: { code: string; message: string; issues: Array<{ path: string; message: string }> } }).error
}

describe('a query parameter given more than once', () => {
  it.each([
    ['GET /v1/why, its point', '/v1/why?point=x&point=y', 'point'],
    ['GET /v1/why, its as_of', `/v1/why?point=x&as_of=${A}&as_of=${B}`, 'as_of'],
    ['GET /v1/why, its user, the same twice', '/v1/why?point=x&user=alice&user=alice', 'user'],
    ['GET /v1/decisions, its status', '/v1/decisions?status=accepted&status=accepted', 'status'],
    ['GET /v1/decisions/applicable, its path', '/v1/decisions/applicable?path=a&path=b', 'path'],
    ['GET /v1/decisions/{key}, its as_of', `/v1/decisions/D-001?as_of=${A}&as_of=${B}`, 'as_of'],
    ['GET /v1/users/{user}/preferences, its as_of', `/v1/users/alice/preferences?as_of=${A}&as_of=${B}`, 'as_of'],
  ])('%s is refused, said given more than once rather than of the wrong format', async (_, url, name) => {
    const error = await refused(url)
    expect(error).toMatchObject({ code: 'invalid_request', message: `invalid request: ${name}` })
    expect(error.issues).toEqual([{ path: name, message: 'given more than once in the query: give it once' }])
  })

  it('is said once among the other faults of the query, which keep their own issues', async () => {
    const error = await refused(`/v1/why?as_of=${A}&as_of=${B}&as_of=x`)
    expect(error.issues).toContainEqual({ path: 'as_of', message: 'given more than once in the query: give it once' })
    expect(error.issues.filter((i) => i.path === 'as_of')).toHaveLength(1)
    expect(error.issues.map((i) => i.path)).toContain('point')
  })

  it('refuses a hook route’s ?user= given twice as such', async () => {
    const error = await refused('/v1/hooks/claude-code?user=alice&user=bob', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // A payload the route takes: one it refuses too is named beside `user` (router.test.ts).
      body: '{"hook_event_name":"Notification"}',
    })
    expect(error.issues).toEqual([{ path: 'user', message: 'given more than once in the query: give it once' }])
  })

  it('leaves a parameter the route does not have, given twice, ignored as one given once', async () => {
    const { app } = await createTestApp()
    expect((await app.request('/v1/users/alice/preferences?_=1&_=2')).status).toBe(200)
  })
})
