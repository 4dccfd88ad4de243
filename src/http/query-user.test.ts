import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
import { BOB, OPS, testTokens as auth } from '../../test/support/tokens'

const as = (token: string) => ({ authorization: `Bearer ${token}` })
const TIER = { question: 'Which tier?', header: 'Tier', all_options: ['Tier S', 'Tier M'], user_choice: 'Tier S' }
const { user_choice: _, ...ASK } = TIER

describe('a ?user= on a route that reads its user from the body or the path', () => {
  it('is refused (400, naming user) when it names another user than the one the route acts for, and nothing is stored for either', async () => {
    const { call } = await createTestApp()
    const posted = await call('POST', '/v1/observations?user=alice', TIER)
    expect(posted.status).toBe(400)
    expect(posted.body.error.code).toBe('invalid_request')
    expect(posted.body.error.issues).toEqual([{ path: 'user', message: 'give the user in the body, not in the query' }])
    expect((await call('GET', '/v1/users/default/export')).body).not.toContain('"type":"observation"')
    expect((await call('GET', '/v1/users/alice/export')).body).not.toContain('"type":"observation"')
    expect((await call('POST', '/v1/recommendations?user=alice', ASK)).status).toBe(400)
    expect((await call('POST', '/v1/plan?user=alice', { questions: [{ question: 'Which tier?', header: 'Tier', options: [{ label: 'Tier S' }, { label: 'Tier M' }] }] })).status).toBe(400)
    expect((await call('POST', '/v1/sessions?user=alice', { session_id: 's-1' })).status).toBe(400)
    const toggled = await call('PUT', '/v1/sessions/s-1/personalization?user=alice', { enabled: false })
    expect(toggled.status).toBe(400)
    // Without auth, a body without user acts for the session's owner, not for `default`: said so.
    expect(toggled.body.error.message).toContain("it acts for the user of its body (the session's owner when it names none)")
    const path = await call('GET', '/v1/users/bob/preferences?user=alice')
    expect(path.status).toBe(400)
    expect(path.body.error.issues[0].message).toBe('give the user in the path, not in the query')
  })

  it('with auth, is not taken for the user after the token was checked for it: a token for both users is refused, not acting for default', async () => {
    const { call } = await createTestApp({ auth })
    // ops may act for alice, whom the query names, and for default, whom the body leaves it at.
    expect((await call('POST', '/v1/observations?user=alice', TIER, as(OPS))).status).toBe(400)
    expect((await call('PUT', '/v1/sessions/s-1/personalization?user=alice', { enabled: false }, as(OPS))).status).toBe(400)
    expect((await call('GET', '/v1/users/default/export', undefined, as(OPS))).body).not.toContain('"type":"session"')
    // A user the body names that the token may not act for is still refused as such, whatever the query says.
    expect((await call('POST', '/v1/observations?user=bob', { ...TIER, user: 'alice' }, as(BOB))).status).toBe(403)
    // One only the query names is not read by the route, which says so as without auth, 400 naming user.
    expect((await call('POST', '/v1/observations?user=alice', { ...TIER, user: 'bob' }, as(BOB))).status).toBe(400)
  })

  it('is taken when it names the user the route acts for', async () => {
    const { call } = await createTestApp({ auth })
    expect((await call('POST', '/v1/observations?user=bob', { ...TIER, user: 'bob' }, as(BOB))).status).toBe(201)
    expect((await call('POST', '/v1/recommendations?user=bob', { ...ASK, user: 'bob' }, as(BOB))).status).toBe(200)
    expect((await call('GET', '/v1/users/bob/preferences?user=bob', undefined, as(BOB))).status).toBe(200)
  })
})

describe('a ?user= at fault beside other faults of the request', () => {
  const AS_OF = { path: 'as_of', message: 'an ISO time with seconds and a zone, such as 2026-07-01T10:00:00Z or 2026-07-01T15:30:00+05:30' }
  const TWICE = { path: 'user', message: 'given more than once in the query: give it once' }
  const OTHER = { path: 'user', message: 'give the user in the path, not in the query' }

  it('is named with them in one answer, the query first, as GET /v1/why names its user given twice beside its as_of', async () => {
    const { call } = await createTestApp()
    // The handler's check came after validation: `as_of` alone was named, then `user` on the next try.
    const twice = await call('GET', '/v1/users/alice/preferences?as_of=bad&user=alice&user=alice')
    expect(twice.status).toBe(400)
    expect(twice.body.error).toMatchObject({ code: 'invalid_request', message: 'invalid request: user, as_of', issues: [TWICE, AS_OF] })
    expect((await call('GET', '/v1/why?point=x&as_of=bad&user=alice&user=alice')).body.error.issues).toEqual([TWICE, AS_OF])
    const other = await call('GET', '/v1/users/alice/preferences?as_of=bad&user=bob')
    expect(other.body.error).toMatchObject({ message: 'invalid request: user, as_of', issues: [OTHER, AS_OF] })
    // Beside a path at fault: the query's first, then the path's.
    const path = await call('DELETE', '/v1/users/!x?user=alice&user=alice')
    expect(path.body.error.issues).toEqual([TWICE, { path: 'user', message: 'must not start with "!"' }])
    expect((await call('GET', '/v1/users/!x/export?user=bob')).body.error.issues).toEqual([OTHER, { path: 'user', message: 'must not start with "!"' }])
    // Beside a body at fault, given twice (whether one names another user is told by the body's user, not read).
    const body = await call('POST', '/v1/observations?user=alice&user=alice', { ...TIER, user_choice: 5 })
    expect(body.body.error.issues).toEqual([TWICE, { path: 'user_choice', message: "an option's label, or an array of labels, not a number" }])
    const toggled = await call('PUT', '/v1/sessions/s-1/personalization?user=a&user=a', { enabled: 'no' })
    expect(toggled.body.error.issues).toEqual([TWICE, { path: 'enabled', message: 'true or false, not a string' }])
  })

  it('leaves each fault alone answered as before', async () => {
    const { call } = await createTestApp()
    expect((await call('GET', '/v1/users/alice/preferences?as_of=bad&user=alice')).body.error).toMatchObject({ message: 'invalid request: as_of', issues: [AS_OF] })
    expect((await call('GET', '/v1/users/alice/preferences?user=alice&user=alice')).body.error).toMatchObject({ message: 'invalid request: user', issues: [TWICE] })
    expect((await call('GET', '/v1/users/alice/preferences?user=bob')).body.error).toMatchObject({
      message: 'invalid request: user (the query names user "bob", which this route does not read: it acts for the user of its path)',
      issues: [OTHER],
    })
    // A path at fault whose text the query names is one fault, the path's.
    expect((await call('GET', '/v1/users/!x/preferences?user=!x')).body.error).toMatchObject({ message: 'invalid request: user', issues: [{ path: 'user', message: 'must not start with "!"' }] })
    expect((await call('POST', '/v1/observations?user=alice', { ...TIER, user_choice: 5 })).body.error.issues).toEqual([
      { path: 'user_choice', message: "an option's label, or an array of labels, not a number" },
    ])
  })
})
