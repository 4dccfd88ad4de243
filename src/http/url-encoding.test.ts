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

  it('leaves a URL that decodes to the routes', async () => {
    const { call } = await createTestApp()
    const read = await call('GET', '/v1/users/j%C3%BCrgen/preferences')
    expect(read.status).toBe(200)
    expect(read.body.user).toBe('jürgen')
  })
})
