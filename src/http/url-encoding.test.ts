import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'

const TIER = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }

describe('a URL whose percent-encoding is not UTF-8', () => {
  it('is refused with a 400 naming the path parameter, and deletes nothing', async () => {
    const { call } = await createTestApp()
    // A user whose name is the text "%FF" (sent as %25FF) is someone else, and stays.
    expect((await call('POST', '/v1/observations', { ...TIER, user: '%FF', user_choice: 'Tier S', decision_id: 'x-1' })).status).toBe(201)
    const refused = await call('DELETE', '/v1/users/%FF')
    expect(refused.status).toBe(400)
    expect(refused.body.error.issues).toEqual([{ path: 'user', message: '"%FF" is not percent-encoded UTF-8' }])
    expect((await call('GET', '/v1/users/%E2%82/preferences')).body.error.issues[0].path).toBe('user')
    expect((await call('PUT', '/v1/sessions/s%C3/personalization', { enabled: false })).body.error.issues[0].path).toBe('id')
    expect((await call('GET', '/v1/decisions/D-%FF/why')).body.error.issues[0].path).toBe('key')
    const kept = await call('GET', '/v1/users/%25FF/preferences')
    expect(kept.status).toBe(200)
    expect(kept.body.points[0].observations).toBe(1)
  })

  it('is refused in the query, naming the parameter', async () => {
    const { call } = await createTestApp()
    const refused = await call('GET', '/v1/why?user=%E2%82&point=complexity-tier')
    expect(refused.status).toBe(400)
    expect(refused.body.error.issues).toEqual([{ path: 'user', message: '"%E2%82" is not percent-encoded UTF-8' }])
    expect((await call('GET', '/v1/decisions/applicable?%FF=1')).body.error.issues[0].path).toBe('query')
  })

  it('names a parameter without a name, or one spaced or of control characters, as the unknown-parameter refusal does: not by an empty path', async () => {
    const { call } = await createTestApp()
    for (const [query, path] of [['=%zz', '""'], ['+=%ED%A0%80', '" "'], ['%00=%', '"\\u0000"']] as const) {
      const refused = await call('GET', `/v1/decisions/pulses?${query}`)
      expect({ query, status: refused.status, issues: refused.body.error.issues }).toEqual({
        query,
        status: 400,
        issues: [{ path, message: `${JSON.stringify(query.slice(query.indexOf('=') + 1))} is not percent-encoded UTF-8` }],
      })
      expect(refused.body.error.message).toBe(`invalid request: ${path}`)
    }
  })

  it('leaves a URL that decodes to the routes', async () => {
    const { call } = await createTestApp()
    const read = await call('GET', '/v1/users/j%C3%BCrgen/preferences')
    expect(read.status).toBe(200)
    expect(read.body.user).toBe('jürgen')
  })
})

describe('a time in the query whose offset was typed with a + (read as a space)', () => {
  const DECISION = { title: 'Use pnpm', decision: 'pnpm everywhere', rationale: 'one lockfile' }

  it('is the time it was typed as, at each route that takes as_of or at in its query', async () => {
    // 10:00 UTC, the test clock; the decision is proposed then, so 15:29+05:30 (09:59 UTC) is before it.
    const { call } = await createTestApp()
    expect((await call('POST', '/v1/decisions', DECISION)).status).toBe(201)
    const after = await call('GET', '/v1/decisions/D-001?as_of=2026-07-01T15:31:00+05:30')
    expect(after.status).toBe(200)
    const before = await call('GET', '/v1/decisions/D-001?as_of=2026-07-01T15:29:00+05:30')
    expect(before.status).toBe(404)
    const why = await call('GET', '/v1/decisions/D-001/why?as_of=2026-07-01T15:31:00+05:30')
    expect(why.body.as_of).toBe('2026-07-01T10:01:00.000Z')
    expect((await call('GET', '/v1/decisions/applicable?as_of=2026-07-01T15:31:00+05:30')).status).toBe(200)
    await call('POST', '/v1/observations', { ...TIER, user_choice: 'Tier S', decision_id: 'x-1', timestamp: '2026-07-01T09:00:00Z' })
    const point = await call('GET', '/v1/why?point=complexity-tier&as_of=2026-07-01T15:31:00+05:30')
    expect(point.status).toBe(200)
    expect(point.body.as_of).toBe('2026-07-01T10:01:00.000Z')
  })

  it('dates a late hook delivery (?at=) when it happened', async () => {
    const { call, store } = await createTestApp()
    const start = await call('POST', '/v1/hooks/claude-code?at=2026-07-01T14:00:00+05:30', { hook_event_name: 'SessionStart', session_id: 's-late' })
    expect(start.status).toBe(200)
    expect((await store.getSession('default', 's-late'))?.started_at).toBe('2026-07-01T08:30:00.000Z')
  })

  it('is still refused when it is no time, naming the field', async () => {
    const { call } = await createTestApp()
    const refused = await call('GET', '/v1/decisions/applicable?as_of=2026-07-01 05:30')
    expect(refused.status).toBe(400)
    expect(refused.body.error.issues[0].path).toBe('as_of')
  })
})
