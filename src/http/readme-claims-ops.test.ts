import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
import { REQUIRED_TIER_L } from '../../test/support/decision-record'
import { ALICE, testTokens as auth } from '../../test/support/tokens'

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
