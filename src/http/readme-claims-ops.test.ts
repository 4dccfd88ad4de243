import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
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
