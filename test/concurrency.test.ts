import { describe, expect, it, vi } from 'vitest'
import { createTestApp } from './support/test-app'

const TIER = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }
const CHOICES = ['Tier S', 'Tier M', 'Tier L']

describe('concurrent observations at one point are all counted (R-SVC-3)', () => {
  it('1,000 at once give 1,000 in the recommendation and in the export', async () => {
    const { app, call } = await createTestApp()
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        call('POST', '/v1/observations', { ...TIER, user: 'alice', user_choice: CHOICES[i % 3], decision_id: `d-${i}`, session_id: `s-${i % 7}` }),
      ),
    )
    expect(answers.every((a) => a.status === 201 && a.body.stored.length === 1)).toBe(true)

    const { body } = await call('POST', '/v1/recommendations', { ...TIER, user: 'alice' })
    expect(body.observations).toBe(1000)
    expect(body.options.reduce((sum: number, o: { count: number }) => sum + o.count, 0)).toBe(1000)
    expect(body.layers.long_term.observations).toBe(1000)

    const lines = (await (await app.request('/v1/users/alice/export')).text()).split('\n').filter((l) => l !== '')
    const observations = lines.map((l) => JSON.parse(l)).filter((l) => l.type === 'observation')
    expect(observations).toHaveLength(1000)
    expect(new Set(observations.map((o) => o.data.decision_id)).size).toBe(1000)
    expect(JSON.parse(lines[lines.length - 1] as string).counts).toEqual({ observation: 1000, session: 7, aggregate: expect.any(Number), entry: 0 })
  })

  it('the same decision_id sent by many clients at once is stored once', async () => {
    const { call } = await createTestApp()
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => call('POST', '/v1/observations', { ...TIER, user_choice: 'Tier S', decision_id: 'retried' })),
    )
    expect(answers.filter((a) => a.body.stored.length === 1)).toHaveLength(1)
    expect(answers.filter((a) => a.body.duplicates.includes('retried'))).toHaveLength(49)
    expect((await call('POST', '/v1/recommendations', TIER)).body.observations).toBe(1)
  })
})

describe('toggles at once are each applied (R-SES-3)', () => {
  it('two flips that read the session at once leave it as it was, each kept', async () => {
    const { call, store } = await createTestApp()
    await call('POST', '/v1/sessions', { user: 'alice', session_id: 's-1' })
    // Each flip reads the session before either writes.
    const read = store.getSession
    let reads = 0
    let bothRead = () => {}
    const both = new Promise<void>((resolve) => (bothRead = resolve))
    const spy = vi.spyOn(store, 'getSession').mockImplementation(async (user, id) => {
      const session = await read(user, id)
      if (++reads === 2) bothRead()
      await both
      return session
    })
    const flips = await Promise.all([
      call('PUT', '/v1/sessions/s-1/personalization', { user: 'alice' }),
      call('PUT', '/v1/sessions/s-1/personalization', { user: 'alice' }),
    ])
    spy.mockRestore()
    expect(flips.map((f) => f.body.personalization).sort()).toEqual([false, true])
    const session = await store.getSession('alice', 's-1')
    expect(session?.personalization).toBe(true)
    expect(session?.toggles?.map((t) => t.enabled)).toEqual([false, true])
  })

  it('a toggle of a new session is kept when a recommendation starts the session meanwhile', async () => {
    const { call, store } = await createTestApp()
    const read = store.getSession
    vi.spyOn(store, 'getSession').mockImplementationOnce(async (user, id) => {
      const none = await read(user, id)
      // Between the toggle's read and its start, a recommendation starts the session.
      expect((await call('POST', '/v1/recommendations', { ...TIER, user, session_id: id })).body.state).toBe('static-default')
      return none
    })
    const off = await call('PUT', '/v1/sessions/n-1/personalization', { user: 'alice', enabled: false })
    expect(off.body.personalization).toBe(false)
    expect(await store.getSession('alice', 'n-1')).toMatchObject({ personalization: false })
    expect((await call('POST', '/v1/recommendations', { ...TIER, user: 'alice', session_id: 'n-1' })).body.state).toBe('personalization-off')
  })
})
