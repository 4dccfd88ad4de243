import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
import { ALICE, BOB, OPS, testTokens as auth } from '../../test/support/tokens'
import { createTokenTable, TokensFileSchema } from '../config/load-tokens'

const as = (token: string) => ({ authorization: `Bearer ${token}` })
const TIER = { question: 'Which tier?', header: 'Tier', all_options: ['Tier S', 'Tier M'], user_choice: 'Tier S' }

describe('bearer auth (R-SVC-4)', () => {
  it('answers 401 without a token, or with an unknown one, and says how to authenticate', async () => {
    const { app, call } = await createTestApp({ auth })
    const none = await app.request('/v1/users/alice/preferences')
    expect(none.status).toBe(401)
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/)
    expect(((await none.json()) as any).error.code).toBe('unauthorized')
    expect((await call('GET', '/v1/users/alice/preferences', undefined, as('wrong-token-0123456789'))).status).toBe(401)
    expect((await call('GET', '/v1/users/alice/preferences', undefined, { authorization: ALICE })).status).toBe(401)
    expect((await call('GET', '/openapi.json')).status).toBe(401)
  })

  it('leaves /healthz open', async () => {
    const { call } = await createTestApp({ auth })
    expect((await call('GET', '/healthz')).status).toBe(200)
  })

  it("lets alice read her own data (200) and not bob's (403)", async () => {
    const { call } = await createTestApp({ auth })
    expect((await call('POST', '/v1/observations', { ...TIER, user: 'alice' }, as(ALICE))).status).toBe(201)
    expect((await call('GET', '/v1/users/alice/preferences', undefined, as(ALICE))).status).toBe(200)
    expect((await call('GET', '/v1/users/alice/export', undefined, as(ALICE))).status).toBe(200)
    const denied = await call('GET', '/v1/users/bob/preferences', undefined, as(ALICE))
    expect(denied.status).toBe(403)
    expect(denied.body.error.code).toBe('forbidden')
    expect(JSON.stringify(denied.body)).not.toContain(ALICE)
    expect((await call('GET', '/v1/users/bob/export', undefined, as(ALICE))).status).toBe(403)
    expect((await call('DELETE', '/v1/users/bob', undefined, as(ALICE))).status).toBe(403)
  })

  it('refuses writes and reads for another user in the body, in any item of an array, or in the query', async () => {
    const { call } = await createTestApp({ auth })
    expect((await call('POST', '/v1/observations', { ...TIER, user: 'bob' }, as(ALICE))).status).toBe(403)
    const mixed = [{ ...TIER, user: 'alice', decision_id: 'x1' }, { ...TIER, user: 'bob', decision_id: 'x2' }]
    expect((await call('POST', '/v1/observations', mixed, as(ALICE))).status).toBe(403)
    expect((await call('GET', '/v1/users/alice/export', undefined, as(ALICE))).body).not.toContain('x1')
    expect((await call('POST', '/v1/recommendations', { ...TIER, user: 'bob' }, as(ALICE))).status).toBe(403)
    expect((await call('POST', '/v1/sessions', { user: 'bob' }, as(ALICE))).status).toBe(403)
    expect((await call('PUT', '/v1/sessions/s-1/personalization', { user: 'bob' }, as(ALICE))).status).toBe(403)
    expect((await call('GET', '/v1/users/alice/preferences?user=bob', undefined, as(ALICE))).status).toBe(403)
  })

  it('takes a body without user as acting for default, which a token must name', async () => {
    const { call } = await createTestApp({ auth })
    expect((await call('POST', '/v1/observations', TIER, as(ALICE))).status).toBe(403)
    expect((await call('POST', '/v1/observations', TIER, as(BOB))).status).toBe(201)
    expect((await call('PUT', '/v1/sessions/s-1/personalization', {}, as(ALICE))).status).toBe(403)
    const toggled = await call('PUT', '/v1/sessions/s-1/personalization', {}, as(BOB))
    expect(toggled.status).toBe(200)
    expect(toggled.body.user).toBe('default')
  })

  it('holds on every route that acts for default when no user is named: hooks, plan and why', async () => {
    const { call } = await createTestApp({ auth })
    const posted = await call('POST', '/v1/observations', { ...TIER, user: 'bob' }, as(BOB))
    expect(posted.status).toBe(201)
    const hook = {
      session_id: 's-9',
      cwd: '/tmp/p',
      hook_event_name: 'PostToolUse',
      tool_name: 'AskUserQuestion',
      tool_use_id: 'toolu_1',
      tool_input: { questions: [{ question: 'Which tier?', header: 'Tier', options: [{ label: 'Tier S' }, { label: 'Tier M' }], multiSelect: false }] },
      tool_response: { answers: { 'Which tier?': 'Tier S' } },
    }
    expect((await call('POST', '/v1/hooks/claude-code', hook, as(ALICE))).status).toBe(403)
    expect((await call('POST', '/v1/hooks/claude-code?user=bob', hook, as(ALICE))).status).toBe(403)
    expect((await call('POST', '/v1/hooks/claude-code?user=alice', hook, as(ALICE))).status).toBe(200)
    const plan = { questions: [hook.tool_input.questions[0]] }
    expect((await call('POST', '/v1/plan', plan, as(ALICE))).status).toBe(403)
    expect((await call('POST', '/v1/plan', { ...plan, user: 'alice' }, as(ALICE))).status).toBe(200)
    expect((await call('GET', `/v1/why?point=${posted.body.stored[0].point}`, undefined, as(ALICE))).status).toBe(403)
    expect((await call('GET', `/v1/why?user=bob&point=${posted.body.stored[0].point}`, undefined, as(BOB))).status).toBe(200)
  })

  it('never names the other owners of a session id to a token that may not see them', async () => {
    const { call } = await createTestApp({ auth })
    await call('POST', '/v1/sessions', { user: 'alice', session_id: 'shared' }, as(ALICE))
    await call('POST', '/v1/sessions', { user: 'bob', session_id: 'shared' }, as(BOB))
    const answer = await call('PUT', '/v1/sessions/shared/personalization', {}, as(BOB))
    expect(JSON.stringify(answer.body)).not.toContain('alice')
  })

  it('lets a "*" token act for anyone', async () => {
    const { call } = await createTestApp({ auth })
    expect((await call('GET', '/v1/users/alice/preferences', undefined, as(OPS))).status).toBe(200)
    expect((await call('DELETE', '/v1/users/bob', undefined, as(OPS))).status).toBe(200)
  })

  it('checks a user named in NFD form as the NFC name it is', async () => {
    const { call } = await createTestApp({ auth: createTokenTable(TokensFileSchema.parse({ tokens: [{ name: 'z', token: ALICE, users: ['zoë'] }] })) })
    const nfd = 'zoe\u0308'
    expect((await call('POST', '/v1/observations', { ...TIER, user: nfd }, as(ALICE))).status).toBe(201)
    expect((await call('GET', `/v1/users/${encodeURIComponent(nfd)}/preferences`, undefined, as(ALICE))).body.points).toHaveLength(1)
  })
})
