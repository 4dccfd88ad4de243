import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
import { REQUIRED_TIER_L } from '../../test/support/decision-record'
import { ALICE, OPS, testTokens as auth } from '../../test/support/tokens'

// Claims of README.md's Errors, Limits, Auth and "Your data" sections, checked as a new user would
// meet them: each through app.request(), as the README states the answer.

const as = (token: string) => ({ authorization: `Bearer ${token}` })

describe('README: Auth', () => {
  it("quotes a user the token may not act for with an invisible character at its ends escaped, as every message shows such a name", async () => {
    const { call } = await createTestApp({ auth })
    // A name stored before writes refused it is still reached by what reads (README, Limits): a
    // token for alice told it may not act for "alice" (the U+200B unseen) would contradict itself.
    const answer = await call('GET', '/v1/users/alice%E2%80%8B/preferences', undefined, as(ALICE))
    expect(answer.status).toBe(403)
    expect(answer.body.error.message).toBe('token "alice-laptop" may not act for user "alice\\u200b"')
    // A name that shows as sent is quoted as before.
    expect((await call('GET', '/v1/users/bob/preferences', undefined, as(ALICE))).body.error.message).toBe('token "alice-laptop" may not act for user "bob"')
  })
})

describe('README: Errors, invalid_transition', () => {
  it('names supersedes for a proposal it would replace, /supersede\'s key for a proposal or one revoked, and accepts a decision superseding a revoked one on its own', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-1', status: 'proposed' })
    await call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-2' })
    await call('POST', '/v1/decisions/D-2/revoke', { reason: 'wrong' })
    await call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-3', status: 'proposed' })
    const issue = (answer: { status: number; body: any }) => [answer.status, answer.body.error?.code, answer.body.error?.issues?.[0]?.path]
    expect(issue(await call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-4', supersedes: 'D-1' }))).toEqual([409, 'invalid_transition', 'supersedes'])
    expect(issue(await call('POST', '/v1/decisions/D-1/supersede', { by: 'D-3' }))).toEqual([409, 'invalid_transition', 'key'])
    expect(issue(await call('POST', '/v1/decisions/D-2/supersede', { by: 'D-3' }))).toEqual([409, 'invalid_transition', 'key'])
    // revoked is final: a decision naming it is accepted on its own, the revoked one left as it was.
    const alone = await call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-5', supersedes: 'D-2' })
    expect([alone.status, alone.body.status]).toEqual([201, 'accepted'])
    const revoked = await call('GET', '/v1/decisions/D-2')
    expect([revoked.body.status, revoked.body.superseded_by]).toEqual(['revoked', null])
  })
})

describe('README: Errors, multiple_choices', () => {
  it('refuses two answers sent with multi_select: false, and stores an array sent without it as a multi-select answer', async () => {
    const { call } = await createTestApp()
    const question = { question: 'Which tier?', header: 'Tier', all_options: ['Tier S', 'Tier M'], user: 'alice' }
    const refused = await call('POST', '/v1/observations', { ...question, multi_select: false, user_choice: ['Tier S', 'something else'] })
    expect([refused.status, refused.body.error?.code, refused.body.error?.issues]).toEqual([400, 'multiple_choices', [{ path: 'user_choice', message: 'give one label, or set multi_select' }]])
    expect((await call('GET', '/v1/users/alice/preferences')).body.points).toEqual([])
    const stored = await call('POST', '/v1/observations', { ...question, user_choice: ['Tier S', 'something else'] })
    expect(stored.status).toBe(201)
    const [point] = (await call('GET', '/v1/users/alice/preferences')).body.points
    expect([point.multi_select, point.selection, point.other]).toEqual([true, ['Tier S'], 1])
  })
})

describe('README: Limits, what the service shows', () => {
  it('shows a recommended option with its mark even where the label so marked passes 500 characters, and takes that label back as the choice', async () => {
    const { call } = await createTestApp()
    const long = 'x'.repeat(490)
    const [shown] = (await call('POST', '/v1/recommendations', { question: 'Pick one?', all_options: [long, 'B'] })).body.options
    // The mark is no part of the label: 490 + " (Recommended)" is 504 as shown, 490 once normalised.
    expect([shown.option, shown.label]).toEqual([long, `${long} (Recommended)`])
    const stored = await call('POST', '/v1/observations', { question: 'Pick one?', all_options: [long, 'B'], user_choice: shown.label })
    expect(stored.status).toBe(201)
    const [point] = (await call('GET', '/v1/users/default/preferences')).body.points
    expect(point.options.find((o: any) => o.option === long).count).toBe(1)
  })
})

describe('README: Your data (R-SVC-5)', () => {
  it('counts a set chosen before at a point now single-select as one choice shared by its options, adding up to observations with other', async () => {
    const { call } = await createTestApp()
    const checks = { question: 'Which checks?', header: 'Checks', all_options: ['Lint', 'Test', 'Build'], user: 'bob' }
    for (let day = 20; day < 28; day++) {
      await call('POST', '/v1/observations', { ...checks, user_choice: ['Lint', 'Test'], multi_select: true, timestamp: `2026-06-${day}T10:00:00Z` })
    }
    await call('POST', '/v1/observations', { ...checks, user_choice: 'Build', multi_select: false })
    await call('POST', '/v1/observations', { ...checks, user_choice: 'a script of my own', multi_select: false })
    const [point] = (await call('GET', '/v1/users/bob/preferences')).body.points
    expect(point.multi_select).toBe(false)
    expect(point.options.map((o: any) => [o.option, o.count])).toEqual([['Lint', 4], ['Test', 4], ['Build', 1]])
    expect([point.other, point.observations, point.needed, point.selection, point.confidence === null]).toEqual([1, 10, 0, null, false])
    // As of a moment: only the choices dated up to it (one dated exactly then too), the point as it was, as_of in UTC.
    const then = (await call('GET', '/v1/users/bob/preferences?as_of=2026-06-21T12:00:00%2B02:00')).body
    expect(then.as_of).toBe('2026-06-21T10:00:00.000Z')
    const [before] = then.points
    expect([before.multi_select, before.observations, before.needed, before.selection, before.confidence]).toEqual([true, 2, 3, ['Lint', 'Test'], null])
    expect(before.last_observed).toBe('2026-06-21T10:00:00.000Z')
  })
})

describe('README: Auth, what every user shares', () => {
  it('lets any valid token read decisions, refuses a token for some users a shared write before its fields are read, and asks GET /v1/why for a token of its user', async () => {
    const { call } = await createTestApp({ auth })
    const decision = { title: 'Tier L', decision: 'Plan as Tier L.', rationale: 'Review.', enforce: 'required', status: 'accepted', scope: { points: ['complexity-tier'] }, constraints: [{ kind: 'must', option: 'Tier L' }] }
    expect((await call('POST', '/v1/decisions', { ...decision, key: 'D-1' }, as(OPS))).status).toBe(201)
    for (const [method, path, body] of [
      ['GET', '/v1/decisions', undefined],
      ['GET', '/v1/decisions/D-1', undefined],
      ['GET', '/v1/decisions/D-1/why', undefined],
      ['GET', '/v1/decisions/applicable', undefined],
      ['GET', '/v1/decisions/pulses', undefined],
      ['POST', '/v1/decisions/check', { action: 'git push --force' }],
    ] as const) {
      expect((await call(method, path, body, as(ALICE))).status, `${method} ${path}`).toBe(200)
    }
    const refused = await call('POST', '/v1/decisions', { title: 1 }, as(ALICE))
    expect([refused.status, refused.body.error.message]).toEqual([
      403,
      'token "alice-laptop" may not create a decision, which every user shares: that needs a token that may act for every user ("users": ["*"] in the tokens file)',
    ])
    expect((await call('POST', '/v1/decisions/D-1/revoke', {}, as(ALICE))).status).toBe(403)
    expect((await call('POST', '/v1/maintenance/decay-scan', {}, as(ALICE))).status).toBe(403)
    expect((await call('GET', '/v1/decisions/D-1', undefined, as(ALICE))).body.status).toBe('accepted')
    // GET /v1/why reads one user's observations: its user (default, when none is named) must be the token's.
    expect((await call('GET', '/v1/why?point=complexity-tier', undefined, as(ALICE))).status).toBe(403)
    expect((await call('GET', '/v1/why?point=complexity-tier&user=alice', undefined, as(ALICE))).status).toBe(200)
  })
})

describe('README: Errors and Limits, as a new user meets them', () => {
  it('stores a timestamp or started_at less than 5 minutes ahead as the service now, keeps an as_of so, and refuses one further ahead', async () => {
    const { call } = await createTestApp()
    const session = await call('POST', '/v1/sessions', { user: 'alice', session_id: 's-1', started_at: '2026-07-01T10:04:00Z' })
    expect([session.status, session.body.started_at]).toEqual([201, '2026-07-01T10:00:00.000Z'])
    const question = { question: 'Which ORM?', all_options: ['Drizzle', 'Prisma'] }
    expect((await call('POST', '/v1/recommendations', { ...question, as_of: '2026-07-01T10:04:00Z' })).body.as_of).toBe('2026-07-01T10:04:00.000Z')
    expect((await call('POST', '/v1/observations', { ...question, user_choice: 'Drizzle', user: 'alice', timestamp: '2026-07-01T10:04:59Z' })).status).toBe(201)
    const [point] = (await call('GET', '/v1/users/alice/preferences')).body.points
    expect(point.last_observed).toBe('2026-07-01T10:00:00.000Z')
    const ahead = await call('POST', '/v1/observations', { ...question, user_choice: 'Drizzle', user: 'alice', timestamp: '2026-07-01T10:05:01Z' })
    expect([ahead.status, ahead.body.error.code, ahead.body.error.issues[0].path]).toEqual([400, 'timestamp_in_future', 'timestamp'])
  })

  it('says nothing is known of a point with no observation and no decision, quoting a user spaced at its ends', async () => {
    const { call } = await createTestApp()
    const unknown = await call('GET', '/v1/why?point=tier&user=alice')
    expect([unknown.status, unknown.body.error.code, unknown.body.error.message]).toEqual([404, 'point_not_found', 'nothing is known of point tier for user alice'])
    expect((await call('GET', '/v1/why?point=tier&user=%20alice%20')).body.error.message).toBe('nothing is known of point tier for user " alice "')
  })

  it('names the query, then the path, then the body, each at fault, in one answer', async () => {
    const { call } = await createTestApp()
    const why = await call('GET', '/v1/decisions/-x/why?as_of=bad')
    expect([why.status, why.body.error.message, why.body.error.issues.map((i: any) => i.path)]).toEqual([400, 'invalid request: as_of, key', ['as_of', 'key']])
    const accept = await call('POST', '/v1/decisions/-x/accept', { reason: 1 })
    expect([accept.status, accept.body.error.message]).toEqual([400, 'invalid request: key, reason'])
    const notJson = await call('POST', '/v1/decisions/-x/accept', '{"reason": x}')
    expect(notJson.body.error.issues.map((i: any) => [i.path, i.message])).toEqual([
      ['key', expect.any(String)],
      ['(body)', 'not valid JSON at line 1, column 12'],
    ])
  })
})
