import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'

const A = '2026-07-01T09:00:00Z'
const OBS = { user: 'alice', question: 'Which tier?', user_choice: 'Tier S', all_options: ['Tier S', 'Tier M'] }
const json = (method: string, body: unknown): RequestInit => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

type Issue = { path: string; message: string }

describe('a query parameter the route does not have', () => {
  it.each([
    ['GET /v1/decisions/pulses, which reads no as_of', '/v1/decisions/pulses?as_of=' + A, undefined, 'as_of', 'this route takes none'],
    ['GET /v1/decisions, as_of misspelt', `/v1/decisions?asof=${A}`, undefined, 'asof', 'this route takes status, point, as_of'],
    ['GET /v1/decisions/applicable', '/v1/decisions/applicable?tsak=billing', undefined, 'tsak', 'this route takes task, path, stage, point, as_of'],
    ['GET /v1/decisions/{key}', `/v1/decisions/D-001?asof=${A}`, undefined, 'asof', 'this route takes as_of'],
    ['GET /v1/decisions/{key}/why', `/v1/decisions/D-001/why?asof=${A}`, undefined, 'asof', 'this route takes as_of'],
    ['GET /v1/why', '/v1/why?point=x&session=s1', undefined, 'session', 'this route takes user, project, session_id, point, as_of, task, path, stage'],
    ['GET /v1/users/{user}/preferences', `/v1/users/alice/preferences?asof=${A}`, undefined, 'asof', 'this route takes as_of'],
    ['GET /v1/users/{user}/export', '/v1/users/alice/export?since=x', undefined, 'since', 'this route takes none'],
    ['DELETE /v1/users/{user}', '/v1/users/alice?dry_run=1', { method: 'DELETE' }, 'dry_run', 'this route takes none'],
    ['POST /v1/observations', '/v1/observations?project=p', json('POST', OBS), 'project', 'this route takes none'],
    ['POST /v1/recommendations', '/v1/recommendations?as_of=' + A, json('POST', OBS), 'as_of', 'this route takes none'],
    ['POST /v1/sessions', '/v1/sessions?session_id=s1', json('POST', {}), 'session_id', 'this route takes none'],
    ['PUT /v1/sessions/{id}/personalization', '/v1/sessions/s1/personalization?enabled=false', json('PUT', {}), 'enabled', 'this route takes none'],
    ['POST /v1/decisions/check', '/v1/decisions/check?as_of=' + A, json('POST', { action: 'ls' }), 'as_of', 'this route takes none'],
    ['POST /v1/maintenance/decay-scan', '/v1/maintenance/decay-scan?force=true', json('POST', {}), 'force', 'this route takes none'],
    ['POST /v1/hooks/claude-code', '/v1/hooks/claude-code?users=alice', json('POST', { hook_event_name: 'Notification' }), 'users', 'this route takes user, at, project, path, service_url, wait_ms'],
  ])('%s is refused 400, naming it, nothing done', async (_, url, init, name, takes) => {
    const { app } = await createTestApp()
    const response = await app.request(url, init)
    expect(response.status).toBe(400)
    const { error } = (await response.json()) as { error: { code: string; message: string; issues: Issue[] } }
    expect(error.code).toBe('invalid_request')
    expect(error.message).toContain(`invalid request: ${name}`)
    expect(error.issues).toEqual([{ path: name, message: `unknown query parameter: ${takes}` }])
  })

  it('names each, once however often it is given, and stores nothing', async () => {
    const { app, call } = await createTestApp()
    const response = await app.request('/v1/observations?project=p&project=q&source=x', json('POST', OBS))
    expect(response.status).toBe(400)
    const { error } = (await response.json()) as { error: { issues: Issue[] } }
    expect(error.issues.map((i) => i.path)).toEqual(['project', 'source'])
    expect((await call('GET', '/v1/users/alice/preferences')).body.points).toEqual([])
  })

  it('lets a cache-busting ?_= pass on every route, and the ?user= a route reading its user elsewhere checks', async () => {
    const { app } = await createTestApp()
    expect((await app.request('/v1/decisions/pulses?_=1')).status).toBe(200)
    expect((await app.request('/v1/users/alice/preferences?_=1&_=2')).status).toBe(200)
    expect((await app.request('/v1/observations?user=alice', json('POST', OBS))).status).toBe(201)
    expect((await app.request('/v1/users/alice/export?user=alice')).status).toBe(200)
    // A route that reads no user anywhere has no ?user= to take.
    const decisions = await app.request('/v1/decisions?user=alice')
    expect(decisions.status).toBe(400)
    expect(((await decisions.json()) as { error: { issues: Issue[] } }).error.issues.map((i) => i.path)).toEqual(['user'])
  })

  it('takes every parameter decision-memory hook sends', async () => {
    const { app } = await createTestApp()
    const query = new URLSearchParams({ user: 'alice', at: A, project: '/repo', path: '.', service_url: 'http://127.0.0.1:7421', wait_ms: '1200' })
    const response = await app.request(`/v1/hooks/claude-code?${query}`, json('POST', { hook_event_name: 'Notification' }))
    expect(response.status).toBe(200)
  })

  it('refuses a parameter with a value but no name, as one misspelt: the time it meant was not read', async () => {
    const { app } = await createTestApp()
    for (const url of [`/v1/users/alice/preferences?=${A}`, '/v1/decisions?=', '/v1/decisions/pulses?_=1&=x']) {
      const response = await app.request(url)
      expect(response.status, url).toBe(400)
      const { error } = (await response.json()) as { error: { message: string; issues: Issue[] } }
      expect(error.issues.map((i) => i.path)).toEqual(['""'])
      expect(error.message).toContain('invalid request: ""')
    }
    // An empty pair sends nothing.
    for (const url of ['/v1/decisions?', '/v1/decisions?&&', '/v1/decisions?_&&status=accepted']) expect((await app.request(url)).status, url).toBe(200)
    // A `?` after a `#` is the fragment's, no query; a `#` ends the query (the `=1` after it is not sent).
    for (const url of ['/v1/decisions#?=1', '/v1/decisions#x?=1', '/v1/decisions?status=accepted#&=1']) expect((await app.request(url)).status, url).toBe(200)
  })

  it('quotes a name not seen as sent: white space at its ends or alone, or a control character', async () => {
    const { app } = await createTestApp()
    for (const [url, shown] of [['/v1/decisions?%20=1', '" "'], ['/v1/decisions?as_of%20=x', '"as_of "'], ['/v1/decisions?%00=1', '"\\u0000"'], ['/v1/decisions?as+of=1', 'as of']]) {
      const response = await app.request(url as string)
      expect(response.status, url).toBe(400)
      const { error } = (await response.json()) as { error: { message: string; issues: Issue[] } }
      expect(error.issues.map((i) => i.path)).toEqual([shown])
      expect(error.message).toContain(`invalid request: ${shown} (`)
    }
  })

  it('lets /healthz take any query: a probe’s query changes nothing it says', async () => {
    const { app } = await createTestApp()
    expect((await app.request('/healthz?probe=lb')).status).toBe(200)
  })

  it('is said in the document, in the 400 every operation lists', async () => {
    const { call } = await createTestApp()
    const { paths } = (await call('GET', '/openapi.json')).body
    expect(paths['/v1/decisions/pulses'].get.responses['400'].description).toContain('a query parameter the operation does not list')
  })
})
