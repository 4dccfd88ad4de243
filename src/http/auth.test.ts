import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
import { REQUIRED_TIER_L } from '../../test/support/decision-record'
import { ALICE, BOB, OPS, testTokens as auth } from '../../test/support/tokens'
import { createTokenTable, TokensFileSchema } from '../config/load-tokens'

const as = (token: string) => ({ authorization: `Bearer ${token}` })
const TIER = { question: 'Which tier?', header: 'Tier', all_options: ['Tier S', 'Tier M'], user_choice: 'Tier S' }
/** A Claude Code PostToolUse of one AskUserQuestion answer, as the hook sends it. */
const HOOK = {
  session_id: 's-9',
  cwd: '/tmp/p',
  hook_event_name: 'PostToolUse',
  tool_name: 'AskUserQuestion',
  tool_use_id: 'toolu_1',
  tool_input: { questions: [{ question: 'Which tier?', header: 'Tier', options: [{ label: 'Tier S' }, { label: 'Tier M' }], multiSelect: false }] },
  tool_response: { answers: { 'Which tier?': 'Tier S' } },
}

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

  it('answers GET / without a token with where the routes are listed, which need one; every other request there and elsewhere still needs it', async () => {
    const { app } = await createTestApp({ auth })
    const root = await app.request('/')
    expect(root.status).toBe(404)
    expect(((await root.json()) as any).error.message).toBe(
      'no route GET / (the routes are listed at /docs and in /openapi.json, which need a bearer token, as every route but /healthz does)',
    )
    expect((await app.request('/', { method: 'HEAD' })).status).toBe(404)
    expect((await app.request('/', { method: 'POST' })).status).toBe(401)
    for (const path of ['/docs', '/openapi.json', '/x', '/v1/users/alice/preferences', '/?user=alice']) {
      expect((await app.request(path)).status, path).toBe(path === '/?user=alice' ? 404 : 401)
    }
  })

  it('answers OPTIONS as /openapi.json, which says the same of every route: with a token of any user, and none at /healthz', async () => {
    const { app } = await createTestApp({ auth })
    const options = (path: string, headers: Record<string, string> = {}) => app.request(path, { method: 'OPTIONS', headers })
    expect((await options('/v1/observations')).status).toBe(401)
    expect((await options('/openapi.json')).status).toBe(401)
    const told = await options('/v1/users/bob/export', as(ALICE))
    expect(told.status).toBe(204)
    expect(told.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    const healthz = await options('/healthz')
    expect(healthz.status).toBe(204)
    expect(healthz.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
  })

  it('says a token sent is not valid, not missing, also when it is more than one word', async () => {
    const { call } = await createTestApp({ auth })
    const messageOf = async (authorization: string) =>
      ((await call('GET', '/v1/users/alice/preferences', undefined, { authorization })).body as any).error.message
    expect(await messageOf('Bearer correct horse battery staple')).toBe('the bearer token is not valid')
    expect(await messageOf(`Bearer ${ALICE} x`)).toBe('the bearer token is not valid')
    expect(await messageOf('Bearer wrong-token-0123456789')).toBe('the bearer token is not valid')
    expect(await messageOf('Bearer ')).toBe('a bearer token is required')
    expect(await messageOf(ALICE)).toBe('a bearer token is required')
  })

  it('says what is wrong with a header that separates Bearer from its token by a tab, not that no token was sent (RFC 6750: one space)', async () => {
    const { call } = await createTestApp({ auth })
    const refused = await call('GET', '/v1/users/alice/preferences', undefined, { authorization: `Bearer\t${ALICE}` })
    expect(refused.status).toBe(401)
    expect(refused.body.error.message).toBe('the Authorization header separates Bearer from its token by a tab: write one space between them (Bearer <token>, RFC 6750)')
    expect(refused.body.error.issues).toEqual([{ path: 'authorization', message: 'a tab after Bearer: write one space' }])
    expect((await call('GET', '/v1/users/alice/preferences', undefined, { authorization: `Bearer \t${ALICE}` })).body.error.issues).toEqual([
      { path: 'authorization', message: 'a tab after Bearer: write one space' },
    ])
    expect((await call('GET', '/v1/users/alice/preferences', undefined, { authorization: `bearer  ${ALICE}` })).status).toBe(200)
  })

  it('says invalid_token in WWW-Authenticate for a token sent that is not valid, and no error code for a request without one (RFC 6750 §3.1)', async () => {
    const { app } = await createTestApp({ auth })
    const challenge = async (headers: Record<string, string>) =>
      (await app.request('/v1/users/alice/preferences', { headers })).headers.get('www-authenticate')
    expect(await challenge({})).toBe('Bearer realm="decision-memory"')
    expect(await challenge({ authorization: ALICE })).toBe('Bearer realm="decision-memory"')
    expect(await challenge({ authorization: 'Basic YWxpY2U6eA==' })).toBe('Bearer realm="decision-memory"')
    expect(await challenge({ authorization: 'Bearer ' })).toBe('Bearer realm="decision-memory"')
    expect(await challenge(as('wrong-token-0123456789'))).toBe('Bearer realm="decision-memory", error="invalid_token"')
    expect(await challenge({ authorization: 'Bearer correct horse battery staple' })).toBe('Bearer realm="decision-memory", error="invalid_token"')
  })

  it('says insufficient_scope in WWW-Authenticate when the token may not do what was asked, and no challenge on a 403 without auth', async () => {
    const { app } = await createTestApp({ auth })
    const challenge = async (path: string, init: RequestInit) => {
      const response = await app.request(path, init)
      return [response.status, response.headers.get('www-authenticate')]
    }
    const scope = 'Bearer realm="decision-memory", error="insufficient_scope"'
    expect(await challenge('/v1/users/bob/preferences', { headers: as(ALICE) })).toEqual([403, scope])
    const post = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json', ...as(ALICE) }, body: JSON.stringify(body) })
    expect(await challenge('/v1/recommendations', post({ question: 'Which tier?', all_options: ['Tier S', 'Tier M'] }))).toEqual([403, scope])
    expect(await challenge('/v1/maintenance/decay-scan', post({}))).toEqual([403, scope])
    expect(await challenge('/v1/users/alice/preferences', { headers: as(ALICE) })).toEqual([200, null])
    const open = await createTestApp()
    const foreign = await open.app.request('/v1/users/alice/preferences', { headers: { host: 'evil.example' } })
    expect([foreign.status, foreign.headers.get('www-authenticate')]).toEqual([403, null])
  })

  it('answers 401 to a body that is not UTF-8 sent without a token, as to any other body: the token is asked for before the body is judged', async () => {
    const { app } = await createTestApp({ auth })
    const latin1 = Buffer.from(JSON.stringify({ ...TIER, user: 'jos\u00e9' }), 'latin1')
    const none = await app.request('/v1/observations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: latin1 })
    expect([none.status, ((await none.json()) as any).error.code]).toEqual([401, 'unauthorized'])
    // With a token, it is refused as not UTF-8 (not as a user the token may not act for, which it names as sent).
    const scoped = await app.request('/v1/observations', { method: 'POST', headers: { 'content-type': 'application/json', ...as(ALICE) }, body: latin1 })
    expect([scoped.status, ((await scoped.json()) as any).error.code]).toEqual([400, 'invalid_json'])
    const chunked = new ReadableStream({ start: (c) => (c.enqueue(latin1), c.close()) })
    const streamed = await app.request('/v1/observations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: chunked, duplex: 'half' } as RequestInit)
    expect(streamed.status).toBe(401)
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

  it('forgets the user of the path of a DELETE, whatever user its body names, which the route never reads', async () => {
    const { call } = await createTestApp({ auth })
    expect((await call('POST', '/v1/observations', { ...TIER, user: 'alice', decision_id: 'a1' }, as(ALICE))).status).toBe(201)
    expect((await call('POST', '/v1/observations', { ...TIER, user: 'bob', decision_id: 'b1' }, as(BOB))).status).toBe(201)
    // The path decides, both ways: a body naming alice gets her token no further into bob's data.
    expect((await call('DELETE', '/v1/users/bob', { user: 'alice' }, as(ALICE))).status).toBe(403)
    const forgotten = await call('DELETE', '/v1/users/alice', { user: 'bob' }, as(ALICE))
    expect(forgotten.status).toBe(200)
    expect(forgotten.body.user).toBe('alice')
    expect(forgotten.body.deleted).toBeGreaterThan(0)
    expect((await call('GET', '/v1/users/alice/export', undefined, as(ALICE))).body).not.toContain('a1')
    expect((await call('GET', '/v1/users/bob/export', undefined, as(BOB))).body).toContain('b1')
  })

  it('answers a ?user= naming another user than the path of /v1/users/{user} as without auth, 400 naming user: the path decides whose data it is', async () => {
    const open = await createTestApp()
    const withAuth = await createTestApp({ auth })
    for (const { call, headers } of [{ call: open.call, headers: undefined }, { call: withAuth.call, headers: as(ALICE) }]) {
      expect((await call('POST', '/v1/observations', { ...TIER, user: 'alice', decision_id: 'a1' }, headers)).status).toBe(201)
      for (const [method, path] of [['DELETE', '/v1/users/alice?user=bob'], ['GET', '/v1/users/alice/preferences?user=bob'], ['GET', '/v1/users/alice/export?user=bob']] as const) {
        const refused = await call(method, path, undefined, headers)
        expect([refused.status, refused.body.error.code], `${path} ${headers === undefined ? 'without' : 'with'} auth`).toEqual([400, 'invalid_request'])
        expect(refused.body.error.issues).toEqual([{ path: 'user', message: 'give the user in the path, not in the query' }])
      }
      // Nothing forgotten by the refused DELETE.
      expect((await call('GET', '/v1/users/alice/export', undefined, headers)).body).toContain('a1')
    }
    // The path's user is still the token's to act for: bob's path is refused alice's token, whatever the query says.
    expect((await withAuth.call('DELETE', '/v1/users/bob?user=alice', undefined, as(ALICE))).status).toBe(403)
  })

  it('refuses writes and reads for another user in the body, in any item of an array, or in the query', async () => {
    const { call } = await createTestApp({ auth })
    expect((await call('POST', '/v1/observations', { ...TIER, user: 'bob' }, as(ALICE))).status).toBe(403)
    const mixed = [{ ...TIER, user: 'alice', decision_id: 'x1' }, { ...TIER, user: 'bob', decision_id: 'x2' }]
    const refused = await call('POST', '/v1/observations', mixed, as(ALICE))
    // The item refused is named by its place, as an array's every other refusal is (`1.user`).
    expect([refused.status, (refused.body as any).error.issues]).toEqual([403, [{ path: '1.user', message: 'not a user this token may act for' }]])
    const single = await call('POST', '/v1/observations', [{ ...TIER, user: 'bob' }], as(ALICE))
    expect((single.body as any).error.issues.map((i: { path: string }) => i.path)).toEqual(['0.user'])
    expect((await call('GET', '/v1/users/alice/export', undefined, as(ALICE))).body).not.toContain('x1')
    expect((await call('POST', '/v1/recommendations', { ...TIER, user: 'bob' }, as(ALICE))).status).toBe(403)
    expect((await call('POST', '/v1/sessions', { user: 'bob' }, as(ALICE))).status).toBe(403)
    expect((await call('PUT', '/v1/sessions/s-1/personalization', { user: 'bob' }, as(ALICE))).status).toBe(403)
    expect((await call('GET', `/v1/why?user=bob&point=tier`, undefined, as(ALICE))).status).toBe(403)
  })

  it('answers a user no route takes with the 400 that names the field, not 403, in the body, query and path', async () => {
    const { call } = await createTestApp({ auth })
    const refusal = async (method: string, path: string, body?: unknown) => {
      const { status, body: answer } = await call(method, path, body, as(ALICE))
      return [status, (answer as any).error?.code, (answer as any).error?.issues?.map((i: { path: string }) => i.path)]
    }
    const invalid = [400, 'invalid_request', ['user']]
    const { user_choice: _, ...ask } = TIER
    expect(await refusal('POST', '/v1/recommendations', { ...ask, user: '' })).toEqual(invalid)
    expect(await refusal('POST', '/v1/observations', [{ ...TIER, user: 'alice' }, { ...TIER, user: 'x'.repeat(1000) }])).toEqual([400, 'invalid_request', ['1.user']])
    expect(await refusal('POST', '/v1/sessions', { user: '!bob' })).toEqual(invalid)
    expect(await refusal('POST', '/v1/hooks/claude-code?user=', { hook_event_name: 'SessionStart', session_id: 's-1' })).toEqual(invalid)
    expect((await refusal('GET', '/v1/users/!bob/preferences'))[0]).toBe(400)
    // A valid name of another user is still refused as such.
    expect((await refusal('POST', '/v1/sessions', { user: 'bob' }))[0]).toBe(403)
  })

  it('answers a ?user= no route reads, or one its route refuses, as without auth: 400 naming user, not 403', async () => {
    const open = await createTestApp()
    const withAuth = await createTestApp({ auth })
    const answers = async (method: string, path: string, body?: unknown) => {
      const answerOf = ({ status, body: answer }: { status: number; body: any }) => [status, answer.error?.code, answer.error?.issues]
      const without = answerOf(await open.call(method, path, body))
      const withToken = answerOf(await withAuth.call(method, path, body, as(ALICE)))
      expect(withToken, `${method} ${path} with auth`).toEqual(without)
      return withToken
    }
    // A route that takes no ?user=: its 400 names the parameter, whoever it names.
    expect(await answers('GET', '/v1/decisions/pulses?user=bob')).toEqual([400, 'invalid_request', [{ path: 'user', message: 'unknown query parameter: this route takes none' }]])
    // A check reads its user in its body: one the query names otherwise (or with none in the body) is told to be given there.
    expect(await answers('POST', '/v1/decisions/check?user=bob', { choice: 'Tier L', point: 'tier' })).toEqual([
      400,
      'invalid_request',
      [{ path: 'user', message: 'give the user in the body, not in the query' }],
    ])
    // A route that acts for its body's user: one the query names otherwise is told to be given in the body.
    expect(await answers('POST', '/v1/observations?user=bob', { ...TIER, user: 'alice' })).toEqual([
      400,
      'invalid_request',
      [{ path: 'user', message: 'give the user in the body, not in the query' }],
    ])
    // The hook's user, which it writes under: spaces at its ends are refused as the field's, not as another user.
    const spaced = await answers('POST', '/v1/hooks/claude-code?user=%20alice%20', HOOK)
    expect(spaced).toEqual([400, 'invalid_request', [{ path: 'user', message: 'no spaces at its ends: " alice " would be another name than "alice"' }]])
    // A ?user= a route reads is still the token's to act for, and another user's is refused.
    expect((await withAuth.call('POST', '/v1/hooks/claude-code?user=bob', HOOK, as(ALICE))).status).toBe(403)
    expect((await withAuth.call('GET', '/v1/why?user=bob&point=tier', undefined, as(ALICE))).status).toBe(403)
    expect((await withAuth.call('GET', '/v1/why?user=%20alice%20&point=tier', undefined, as(ALICE))).status).toBe(403)
    expect((await withAuth.call('GET', '/v1/sessions/s-1/personalization?user=bob', undefined, as(ALICE))).status).toBe(403)
    expect((await withAuth.call('POST', '/v1/observations?user=bob', { ...TIER, user: 'bob' }, as(ALICE))).status).toBe(403)
    // Nothing was stored by the refused writes.
    expect((await withAuth.call('GET', '/v1/users/alice/preferences', undefined, as(ALICE))).body.points).toEqual([])
  })

  it("answers a body's user the route does not take, or one it refuses, as without auth: 400 naming the field, not 403", async () => {
    const open = await createTestApp()
    const withAuth = await createTestApp({ auth })
    const answers = async (method: string, path: string, body: unknown) => {
      const answerOf = ({ status, body: answer }: { status: number; body: any }) => [status, answer.error?.code, answer.error?.issues]
      const without = answerOf(await open.call(method, path, body))
      const withToken = answerOf(await withAuth.call(method, path, body, as(ALICE)))
      expect(withToken, `${method} ${path} ${JSON.stringify(body)} with auth`).toEqual(without)
      return withToken
    }
    // A body that takes no user (a decision's, as README's Auth says): the field is unknown there, with a token
    // that may write what every user shares as without auth; any other token is refused that first.
    const named = { ...REQUIRED_TIER_L, user: 'bob' }
    const unknownUser = [400, 'invalid_request', [{ path: 'user', message: 'unknown field' }]]
    const opsAnswer = await withAuth.call('POST', '/v1/decisions', named, as(OPS))
    expect([opsAnswer.status, opsAnswer.body.error?.code, opsAnswer.body.error?.issues]).toEqual(unknownUser)
    const openAnswer = await open.call('POST', '/v1/decisions', named)
    expect([openAnswer.status, openAnswer.body.error?.code, openAnswer.body.error?.issues]).toEqual(unknownUser)
    expect((await withAuth.call('POST', '/v1/decisions', named, as(ALICE))).status).toBe(403)
    // A write's user spaced at its ends, in a body or an item of an array: refused as the field's, not as another user.
    const spaced = [{ path: 'user', message: 'no spaces at its ends: " alice " would be another name than "alice"' }]
    expect(await answers('POST', '/v1/observations', { ...TIER, user: ' alice ' })).toEqual([400, 'invalid_request', spaced])
    expect(await answers('POST', '/v1/sessions', { user: ' alice ' })).toEqual([400, 'invalid_request', spaced])
    expect((await answers('POST', '/v1/observations', [{ ...TIER, user: 'alice' }, { ...TIER, user: ' alice ' }]))[2]).toEqual([{ ...spaced[0], path: '1.user' }])
    // A user the route takes is still the token's to act for: another's, or one spaced where a read takes it (a session stored so), is refused.
    expect((await withAuth.call('POST', '/v1/observations', { ...TIER, user: 'bob' }, as(ALICE))).status).toBe(403)
    // A check's user too, whose history it reads; its own, or none, is checked.
    const check = { choice: 'Tier L', point: 'tier' }
    expect((await withAuth.call('POST', '/v1/decisions/check', { ...check, user: 'bob' }, as(ALICE))).status).toBe(403)
    expect((await withAuth.call('POST', '/v1/decisions/check', { ...check, user: 'alice' }, as(ALICE))).status).toBe(200)
    expect((await withAuth.call('POST', '/v1/decisions/check', check, as(ALICE))).status).toBe(200)
    expect((await withAuth.call('PUT', '/v1/sessions/s-1/personalization', { user: ' alice ' }, as(ALICE))).status).toBe(403)
    expect((await withAuth.call('GET', '/v1/users/alice/preferences', undefined, as(ALICE))).body.points).toEqual([])
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
    const hook = HOOK
    expect((await call('POST', '/v1/hooks/claude-code', hook, as(ALICE))).status).toBe(403)
    expect((await call('POST', '/v1/hooks/claude-code?user=bob', hook, as(ALICE))).status).toBe(403)
    expect((await call('POST', '/v1/hooks/claude-code?user=alice', hook, as(ALICE))).status).toBe(200)
    const plan = { questions: [hook.tool_input.questions[0]] }
    expect((await call('POST', '/v1/plan', plan, as(ALICE))).status).toBe(403)
    expect((await call('POST', '/v1/plan', { ...plan, user: 'alice' }, as(ALICE))).status).toBe(200)
    expect((await call('GET', `/v1/why?point=${posted.body.stored[0].point}`, undefined, as(ALICE))).status).toBe(403)
    expect((await call('GET', `/v1/why?user=bob&point=${posted.body.stored[0].point}`, undefined, as(BOB))).status).toBe(200)
  })

  it("judges a hook by its ?user= alone: a payload's own `user` is Claude Code's field, which names no user of this service", async () => {
    const { call } = await createTestApp({ auth })
    const hook = {
      ...HOOK,
      // A field a later Claude Code may add (its payloads gain fields with each release), which the route never reads.
      user: 'dev@example.com',
    }
    const captured = await call('POST', '/v1/hooks/claude-code?user=alice', hook, as(ALICE))
    expect([captured.status, captured.body]).toEqual([200, {}])
    expect((await call('GET', '/v1/users/alice/preferences', undefined, as(ALICE))).body.points).toMatchObject([{ observations: 1, majority: 'Tier S' }])
    // The user the hook acts for is still checked, whatever the payload says.
    expect((await call('POST', '/v1/hooks/claude-code?user=bob', { ...hook, user: 'alice' }, as(ALICE))).status).toBe(403)
    expect((await call('POST', '/v1/hooks/claude-code', { ...hook, user: 'alice' }, as(ALICE))).status).toBe(403)
  })

  it('reads a session\'s setting only for a user the token may act for: without user, default\'s, as the toggle', async () => {
    const { call } = await createTestApp({ auth })
    await call('POST', '/v1/sessions', { user: 'alice', session_id: 's-1' }, as(ALICE))
    expect((await call('GET', '/v1/sessions/s-1/personalization?user=alice', undefined, as(ALICE))).body.user).toBe('alice')
    expect((await call('GET', '/v1/sessions/s-1/personalization?user=alice', undefined, as(BOB))).status).toBe(403)
    // Without user, default's, never a guess among the users who have the id: alice's token may not read it.
    expect((await call('GET', '/v1/sessions/s-1/personalization', undefined, as(ALICE))).status).toBe(403)
    const defaults = await call('GET', '/v1/sessions/s-1/personalization', undefined, as(BOB))
    expect([defaults.status, defaults.body.error.code]).toEqual([404, 'session_not_found'])
    expect((await call('GET', '/v1/sessions/s-1/personalization?user=alice')).status).toBe(401)
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

describe('shared state with auth (R-SVC-4): decisions and the decay scan are every user\'s', () => {
  const TIER_POINT = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }

  it("refuses one user's token a decision that would change another user's recommendations, naming why", async () => {
    const { call } = await createTestApp({ auth })
    const created = await call('POST', '/v1/decisions', REQUIRED_TIER_L, as(ALICE))
    expect(created.status).toBe(403)
    expect(created.body.error).toMatchObject({ code: 'forbidden', issues: [{ path: 'authorization', message: 'not a token for every user' }] })
    expect(created.body.error.message).toBe(
      'token "alice-laptop" may not create a decision, which every user shares: that needs a token that may act for every user ("users": ["*"] in the tokens file)',
    )
    expect(JSON.stringify(created.body)).not.toContain(ALICE)
    expect((await call('GET', '/v1/decisions', undefined, as(BOB))).body.decisions).toEqual([])
    const bobs = await call('POST', '/v1/recommendations', { ...TIER_POINT, user: 'bob' }, as(BOB))
    expect(bobs.status).toBe(200)
    expect(bobs.body.state).not.toBe('enforced')
  })

  it('lets a "*" token write decisions, which every user then follows', async () => {
    const { call } = await createTestApp({ auth })
    expect((await call('POST', '/v1/decisions', REQUIRED_TIER_L, as(OPS))).status).toBe(201)
    expect((await call('POST', '/v1/recommendations', { ...TIER_POINT, user: 'bob' }, as(BOB))).body.state).toBe('enforced')
    expect((await call('POST', '/v1/decisions/D-001/deprecate', { reason: 'moved' }, as(OPS))).status).toBe(200)
    expect((await call('POST', '/v1/maintenance/decay-scan', { force: true }, as(OPS))).status).toBe(200)
  })

  it('refuses every write of shared state to a token scoped to users, before reading its body', async () => {
    const { call } = await createTestApp({ auth })
    expect((await call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, status: 'proposed' }, as(OPS))).status).toBe(201)
    expect((await call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-002', status: 'proposed' }, as(OPS))).status).toBe(201)
    const writes: [string, unknown, string][] = [
      ['/v1/decisions', {}, 'create a decision'],
      ['/v1/decisions/D-001/accept', undefined, 'accept a decision'],
      ['/v1/decisions/D-001/deprecate', { reason: 'x' }, 'deprecate a decision'],
      ['/v1/decisions/D-001/revoke', {}, 'revoke a decision'],
      ['/v1/decisions/D-001/supersede', { by: 'D-002' }, 'supersede a decision'],
      ['/v1/decisions/NO-SUCH/accept', {}, 'accept a decision'],
      ['/v1/decisions/import', { records: [] }, 'import decisions'],
      ['/v1/maintenance/decay-scan', { force: true }, 'run the decay scan'],
      ['/v1/maintenance/decay-scan', 'not json', 'run the decay scan'],
    ]
    for (const token of [ALICE, BOB]) {
      for (const [path, body, what] of writes) {
        const answer = await call('POST', path, body, as(token))
        expect(answer.status, `${path} ${JSON.stringify(body)}`).toBe(403)
        expect(answer.body.error.message, path).toContain(`may not ${what}`)
      }
    }
    const d1 = (await call('GET', '/v1/decisions/D-001', undefined, as(ALICE))).body
    expect([d1.status, d1.events.length]).toEqual(['proposed', 1])
  })

  it('lets any valid token read decisions: list, get, why, applicable, check and pulses', async () => {
    const { call } = await createTestApp({ auth })
    expect((await call('POST', '/v1/decisions', REQUIRED_TIER_L, as(OPS))).status).toBe(201)
    for (const token of [ALICE, BOB]) {
      expect((await call('GET', '/v1/decisions', undefined, as(token))).body.decisions).toHaveLength(1)
      expect((await call('GET', '/v1/decisions/D-001', undefined, as(token))).status).toBe(200)
      expect((await call('GET', '/v1/decisions/D-001/why', undefined, as(token))).status).toBe(200)
      expect((await call('GET', '/v1/decisions/applicable?point=complexity-tier', undefined, as(token))).body.decisions).toHaveLength(1)
      const verdict = await call('POST', '/v1/decisions/check', { point: 'complexity-tier', choice: 'Tier S' }, as(token))
      expect(verdict.status).toBe(200)
      expect((await call('GET', '/v1/decisions/pulses', undefined, as(token))).status).toBe(200)
    }
    expect((await call('GET', '/v1/decisions')).status).toBe(401)
    expect((await call('POST', '/v1/decisions', REQUIRED_TIER_L)).status).toBe(401)
  })

  it("keeps the per-user check of why at a point: the observations behind it are one user's", async () => {
    const { call } = await createTestApp({ auth })
    const posted = await call('POST', '/v1/observations', { ...TIER_POINT, user_choice: 'Tier S', user: 'bob' }, as(BOB))
    const point = posted.body.stored[0].point
    expect((await call('GET', `/v1/why?user=bob&point=${point}`, undefined, as(ALICE))).status).toBe(403)
    expect((await call('GET', `/v1/why?user=bob&point=${point}`, undefined, as(BOB))).status).toBe(200)
    expect((await call('GET', `/v1/why?user=bob&point=${point}`, undefined, as(OPS))).status).toBe(200)
  })
})

describe('shared state without auth', () => {
  it('lets anyone write decisions and run the decay scan, as on loopback', async () => {
    const { call } = await createTestApp()
    expect((await call('POST', '/v1/decisions', REQUIRED_TIER_L)).status).toBe(201)
    expect((await call('POST', '/v1/decisions/D-001/deprecate', {})).status).toBe(200)
    expect((await call('POST', '/v1/decisions/import', { records: [], folder: 'github.com/acme/web/doc/adr' })).status).toBe(200)
    expect((await call('POST', '/v1/maintenance/decay-scan', { force: true })).status).toBe(200)
  })
})
