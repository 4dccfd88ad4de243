import { describe, expect, it, vi } from 'vitest'
import { REQUIRED_TIER_L } from '../../test/support/decision-record'
import { createTestApp, START } from '../../test/support/test-app'
import { createTokenTable, TokensFileSchema } from '../config/load-tokens'
import { compilePolicy } from '../domain/policy'

const TIER = {
  question: 'Which complexity tier should this SPEC use?',
  header: 'Tier',
  all_options: ['Tier S', 'Tier M', 'Tier L'],
}

type App = Awaited<ReturnType<typeof createTestApp>>

let next = 0
async function choose(app: App, choice: string, count: number, extra: Record<string, unknown> = {}) {
  const batch = Array.from({ length: count }, () => ({ ...TIER, ...extra, user: 'alice', user_choice: choice, decision_id: `d-${next++}` }))
  expect((await app.call('POST', '/v1/observations', batch)).status).toBe(201)
}

const ask = (app: App, extra: Record<string, unknown> = {}) => app.call('POST', '/v1/recommendations', { ...TIER, user: 'alice', ...extra })

describe('recommendations asked again (policy cache)', () => {
  it('answers the same question again with the same answer, as of when it was computed, for at most cache.seconds', async () => {
    const app = await createTestApp()
    await choose(app, 'Tier M', 6)
    const request = { ...TIER, user: 'alice' }
    const computed = vi.spyOn(app.store, 'readPoint')
    const first = await app.memory.recommend(request)
    expect(await app.memory.recommend({ ...request })).toEqual(first)
    app.clock.advance(59_000)
    const later = await app.memory.recommend(request)
    // Exactly the answer as of the moment it was computed, and it says so: nothing was written since.
    expect(later).toEqual(first)
    expect(later.as_of).toBe(START)
    expect(computed).toHaveBeenCalledTimes(1)
    expect(await app.memory.recommend({ ...request, as_of: START })).toEqual(first)
    app.clock.advance(1_000)
    const fresh = await app.memory.recommend(request)
    expect(computed).toHaveBeenCalledTimes(3)
    expect(fresh.as_of).toBe(new Date(Date.parse(START) + 60_000).toISOString())
    // A clock set back (a test, a replay of a log) never gets an answer computed after it.
    app.clock.set(START)
    const back = await app.memory.recommend(request)
    expect(computed).toHaveBeenCalledTimes(4)
    expect(back.as_of).toBe(START)
  })

  it('keeps no answer computed across a write: the one computed after it stays', async () => {
    const app = await createTestApp()
    await choose(app, 'Tier M', 6)
    const request = { ...TIER, user: 'alice' }
    const read = app.store.readPoint.bind(app.store)
    let fresh: unknown
    const reads = vi.spyOn(app.store, 'readPoint').mockImplementationOnce(async (...args) => {
      const result = await read(...args)
      // While this answer is computed: an observation, and the answer computed after it.
      await choose(app, 'Tier L', 1)
      fresh = await app.memory.recommend(request)
      return result
    })
    const slow = await app.memory.recommend(request)
    expect(slow.observations).toBe(6)
    expect((fresh as { observations: number }).observations).toBe(7)
    expect(await app.memory.recommend(request)).toEqual(fresh)
    expect(reads).toHaveBeenCalledTimes(2)
    reads.mockRestore()
  })

  it('answers from what is stored now after each write that changes it: observations, sessions, a toggle, a decision, forget', async () => {
    const app = await createTestApp()
    await choose(app, 'Tier M', 6)
    expect((await ask(app)).body).toMatchObject({ recommended: 'Tier M', observations: 6 })
    await choose(app, 'Tier L', 1)
    expect((await ask(app)).body.observations).toBe(7)

    // Written to the store directly, not through the use case: still seen.
    const [stored] = (await app.store.observationsAt('alice', 'complexity-tier')) as [never]
    await app.store.addObservations([{ ...(stored as object), id: 'obs-direct', decision_id: 'direct' } as never], [])
    expect((await ask(app)).body.observations).toBe(8)

    const sessions = (await ask(app)).body.expertise.sessions
    expect((await app.call('POST', '/v1/sessions', { user: 'alice', session_id: 'later' })).status).toBe(201)
    expect((await ask(app)).body.expertise.sessions).toBe(sessions + 1)

    expect((await ask(app, { session_id: 'later' })).body.state).not.toBe('personalization-off')
    expect((await app.call('PUT', '/v1/sessions/later/personalization', { user: 'alice', enabled: false })).status).toBe(200)
    expect((await ask(app, { session_id: 'later' })).body.state).toBe('personalization-off')

    expect((await ask(app)).body.state).toBe('partial')
    const decision = await app.call('POST', '/v1/decisions', REQUIRED_TIER_L)
    expect(decision.status).toBe(201)
    expect((await ask(app)).body).toMatchObject({ state: 'enforced', recommended: 'Tier L' })
    expect((await app.call('POST', `/v1/decisions/${decision.body.key}/revoke`, {})).status).toBe(200)
    expect((await ask(app)).body).toMatchObject({ recommended: 'Tier M', observations: 8 })

    expect((await app.call('DELETE', '/v1/users/alice')).status).toBe(200)
    expect((await ask(app)).body).toMatchObject({ state: 'static-default', observations: 0 })
  })

  it("serves no answer kept from before the session's own choice: the choice asks it in that session, not in another", async () => {
    const app = await createTestApp()
    await choose(app, 'Tier M', 25)
    // Started before: a recommendation that starts its session writes, and keeps no answer.
    expect((await app.call('POST', '/v1/sessions', { user: 'alice', session_id: 'now' })).status).toBe(201)
    const reads = vi.spyOn(app.store, 'readPoint')
    const inSession = (session_id: string) => ask(app, { session_id })
    const kept = (await inSession('now')).body
    expect(kept).toMatchObject({ recommended: 'Tier M', state: 'sufficient', ask: false })
    // Asked again with nothing written: the answer kept is served.
    expect((await inSession('now')).body).toEqual(kept)
    expect(reads).toHaveBeenCalledTimes(1)

    // A moment later, the user chooses Tier S in session `now` (the cache's seconds not yet past).
    app.clock.advance(5_000)
    await choose(app, 'Tier S', 1, { session_id: 'now' })
    const reason = 'in this session you last chose Tier S here, not Tier M: asked until your choice in this session agrees'
    expect((await inSession('now')).body).toMatchObject({ recommended: 'Tier M', state: 'sufficient', ask: true, ask_reason: reason })
    const plan = (await app.call('POST', '/v1/plan', { user: 'alice', session_id: 'now', questions: [{ question: TIER.question, header: TIER.header, options: TIER.all_options.map((label) => ({ label })) }] })).body
    expect(plan.answers).toEqual({})
    expect(plan.questions[0]).toMatchObject({ ask: true, recommendation: { ask_reason: reason } })
    expect((await inSession('new')).body).toMatchObject({ recommended: 'Tier M', ask: false })

    // Tier M chosen in the session again: answered for it again, not asked from the answer kept.
    app.clock.advance(5_000)
    await choose(app, 'Tier M', 1, { session_id: 'now' })
    expect((await inSession('now')).body).toMatchObject({ ask: false, as_of: app.clock.now().toISOString() })
    reads.mockRestore()
  })

  it('computes a replay (as_of) every time, and every answer when cache.seconds is 0', async () => {
    const app = await createTestApp()
    await choose(app, 'Tier M', 6)
    const replay = { ...TIER, user: 'alice', as_of: START }
    const computed = vi.spyOn(app.store, 'readPoint')
    const a = await app.memory.recommend(replay)
    const b = await app.memory.recommend(replay)
    expect(computed).toHaveBeenCalledTimes(2)
    expect(b).toEqual(a)

    const off = await createTestApp({ policy: compilePolicy({ ...app.policy, cache: { seconds: 0, megabytes: 8 } }) })
    await choose(off, 'Tier M', 6)
    const request = { ...TIER, user: 'alice' }
    const offComputed = vi.spyOn(off.store, 'readPoint')
    expect(await off.memory.recommend(request)).toEqual(await off.memory.recommend(request))
    expect(offComputed).toHaveBeenCalledTimes(2)
  })

  it('hands out answers no caller can change for the next one', async () => {
    const app = await createTestApp()
    await choose(app, 'Tier M', 6)
    const request = { ...TIER, user: 'alice' }
    const first = await app.memory.recommend(request)
    const sent = JSON.parse(JSON.stringify(first))
    for (const answer of [first, await app.memory.recommend(request)]) {
      ;(answer as { recommended: unknown }).recommended = 'Tier S'
      ;(answer.options as unknown[]).push('x')
    }
    expect(await app.memory.recommend(request)).toEqual(sent)
    const again = await ask(app)
    expect(again.body.recommended).toBe('Tier M')
    expect(again.body).toEqual(sent)
  })

  it('sends the same JSON, as application/json, for an answer served again', async () => {
    const app = await createTestApp()
    await choose(app, 'Tier M', 6)
    const body = { ...TIER, user: 'alice', all_options: ['Tier S', { label: 'Tier M', description: 'Größer, „quoted“ and \\"escaped\\"' }, 'Tier L'] }
    const post = () => app.app.request('/v1/recommendations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const [r1, r2] = [await post(), await post()]
    expect(r1.headers.get('content-type')).toMatch(/^application\/json/)
    expect(r2.headers.get('content-type')).toMatch(/^application\/json/)
    const [t1, t2] = [await r1.text(), await r2.text()]
    expect(t2).toBe(t1)
    expect(JSON.parse(t1).recommended).toBe('Tier M')
    expect(t1).toBe(JSON.stringify(await app.memory.recommend(body as never)))
  })

  it('keeps answers within cache.megabytes, however big the requests', async () => {
    const app = await createTestApp({ policy: compilePolicy({ ...(await createTestApp()).policy, cache: { seconds: 60, megabytes: 1 } }) })
    await choose(app, 'Tier M', 6)
    const big = (i: number) => ({ ...TIER, user: 'alice', context: { run: i }, all_options: ['Tier S', 'Tier M', { label: 'Tier L', description: 'x'.repeat(1_900) }] })
    const computed = vi.spyOn(app.store, 'readPoint')
    const computations = async (request: ReturnType<typeof big>) => {
      const before = computed.mock.calls.length
      await app.memory.recommend(request)
      return computed.mock.calls.length - before
    }
    expect(await computations(big(0))).toBe(1)
    expect(await computations(big(0))).toBe(0)
    // Each answer is charged about 5 KB: 400 of them cannot all be kept in 1 MB, so the oldest went.
    for (let i = 1; i <= 400; i++) await app.memory.recommend(big(i))
    expect(await computations(big(0))).toBe(1)
    expect(await computations(big(400))).toBe(0)
  })

  it('answers a body seen before as the first time: checked against the token, refused when not JSON, never remembered when invalid', async () => {
    const auth = createTokenTable(TokensFileSchema.parse({ tokens: [
      { name: 'alice-laptop', token: 'alice-token-0123456789abcdef', users: ['alice'] },
      { name: 'bob-laptop', token: 'bob-token-0123456789abcdef', users: ['bob'] },
    ] }))
    const app = await createTestApp({ auth })
    const send = (body: string, token: string, type = 'application/json') =>
      app.app.request('/v1/recommendations', { method: 'POST', headers: { 'content-type': type, authorization: `Bearer ${token}` }, body })
    const body = JSON.stringify({ ...TIER, user: 'alice' })
    expect((await send(body, 'alice-token-0123456789abcdef')).status).toBe(200)
    expect((await send(body, 'alice-token-0123456789abcdef')).status).toBe(200)
    expect((await send(body, 'bob-token-0123456789abcdef')).status).toBe(403)
    expect((await send(body, 'alice-token-0123456789abcdef', 'text/plain')).status).toBe(415)
    const invalid = JSON.stringify({ ...TIER, user: 'alice', all_options: [] })
    for (let i = 0; i < 2; i++) {
      const r = await send(invalid, 'alice-token-0123456789abcdef')
      expect(r.status).toBe(400)
      expect(((await r.json()) as { error: { issues: Array<{ path: string }> } }).error.issues[0]?.path).toBe('all_options')
    }
  })

  it('answers a body seen before with another content type as it would have the first time', async () => {
    const types = ['application/json ; charset=utf-8', 'application/json;', 'application/json; foo', 'Application/Json ;', 'APPLICATION/JSON', 'application/json; charset=utf-8', 'application/merge-patch+json', 'text/plain']
    const body = JSON.stringify({ ...TIER, user: 'alice' })
    const send = (app: App, type: string) => app.app.request('/v1/recommendations', { method: 'POST', headers: { 'content-type': type }, body })
    for (const type of types) {
      const fresh = await createTestApp()
      const expected = (await send(fresh, type)).status
      const seen = await createTestApp()
      expect((await send(seen, 'application/json')).status).toBe(200)
      expect({ type, status: (await send(seen, type)).status }).toEqual({ type, status: expected })
    }
  })

  it('reads a policy written for the earlier cache bound by count', async () => {
    const { PolicySchema } = await import('../domain/policy')
    const base = (await createTestApp()).policy
    const { compiledPoints: _c, sensitivePattern: _s, ...plain } = base
    const policy = PolicySchema.parse({ ...plain, cache: { seconds: 30, entries: 4096 } })
    expect(policy.cache).toMatchObject({ seconds: 30, megabytes: 8 })
  })
})
