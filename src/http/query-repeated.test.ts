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

  // A route that reads its user from the body or the path lets ?user= pass when it names that user
  // (query-user.ts): given twice, even twice that user, it is refused as on a route that reads it.
  it.each([
    ['POST /v1/observations', 'POST', '/v1/observations?user=alice&user=alice', { question: 'Which tier?', all_options: ['S', 'M'], user_choice: 'S', user: 'alice' }],
    ['POST /v1/recommendations', 'POST', '/v1/recommendations?user=alice&user=alice', { question: 'Which tier?', all_options: ['S', 'M'], user: 'alice' }],
    ['POST /v1/sessions', 'POST', '/v1/sessions?user=alice&user=alice', { session_id: 's-1', user: 'alice' }],
    ['GET /v1/users/{user}/preferences', 'GET', '/v1/users/alice/preferences?user=alice&user=alice', undefined],
    ['DELETE /v1/users/{user}', 'DELETE', '/v1/users/alice?user=alice&user=alice', undefined],
  ])('refuses %s’s ?user= given twice, the same user, as given more than once, and stores nothing', async (_, method, url, body) => {
    const { call } = await createTestApp()
    const answer = await call(method, url, body)
    expect(answer.status).toBe(400)
    expect(answer.body.error).toMatchObject({ code: 'invalid_request', message: 'invalid request: user' })
    expect(answer.body.error.issues).toEqual([{ path: 'user', message: 'given more than once in the query: give it once' }])
    expect((await call('GET', '/v1/users/alice/export')).body).not.toMatch(/"type":"(observation|session)"/)
  })

  it('refuses a body route’s ?user= given for each of its users as given more than once', async () => {
    const { call } = await createTestApp()
    const choice = { question: 'Which tier?', all_options: ['S', 'M'], user_choice: 'S' }
    const answer = await call('POST', '/v1/observations?user=alice&user=bob', [{ ...choice, user: 'alice' }, { ...choice, user: 'bob' }])
    expect(answer.status).toBe(400)
    expect(answer.body.error.issues).toEqual([{ path: 'user', message: 'given more than once in the query: give it once' }])
  })

  it('leaves a parameter the route does not have, given twice, ignored as one given once', async () => {
    const { app } = await createTestApp()
    expect((await app.request('/v1/users/alice/preferences?_=1&_=2')).status).toBe(200)
  })
})
