import { describe, expect, it } from 'vitest'
import { createTestApp, START } from '../../test/support/test-app'

const TIER = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }

async function withHistory() {
  const t = await createTestApp()
  const posts = Array.from({ length: 10 }, (_, i) => ({
    ...TIER,
    user: 'alice',
    user_choice: i < 6 ? 'Tier L' : i < 9 ? 'Tier S' : 'Tier M',
    decision_id: `d-${i}`,
    timestamp: START,
  }))
  await t.call('POST', '/v1/observations', posts)
  return t
}

async function startSessions(call: Awaited<ReturnType<typeof createTestApp>>['call'], count: number) {
  for (let i = 0; i < count; i++) {
    const r = await call('POST', '/v1/sessions', { user: 'alice', session_id: `s-${i}`, started_at: START })
    expect(r.status).toBe(201)
  }
}

describe('sessions and expertise (R-SES)', () => {
  it('starts a session, makes an id when none is given, and is idempotent', async () => {
    const { call } = await createTestApp()
    const made = await call('POST', '/v1/sessions', { user: 'alice' })
    expect(made.status).toBe(201)
    expect(made.body).toMatchObject({ user: 'alice', personalization: true, expertise: { sessions: 1, level: 'beginner' } })
    expect(made.body.session_id).toMatch(/^s-/)
    const again = await call('POST', '/v1/sessions', { user: 'alice', session_id: made.body.session_id })
    expect(again.status).toBe(200)
    expect(again.body.expertise.sessions).toBe(1)
  })

  it('answers a session started again with another project as stored: it stays in the project it was started in, which the answer says', async () => {
    const { call } = await createTestApp()
    expect((await call('POST', '/v1/sessions', { user: 'alice', session_id: 's-1', project: 'billing' })).status).toBe(201)
    const again = await call('POST', '/v1/sessions', { user: 'alice', session_id: 's-1', project: 'search' })
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ session_id: 's-1', project: 'billing' })
  })

  it.each([
    [9, 'beginner', 'strong', 'Tier L (Recommended)'],
    [10, 'intermediate', 'medium', 'Tier L (Recommended)'],
    [51, 'expert', 'weak', 'Tier L (60% of recent choices)'],
  ])('%i sessions make the user %s: %s, first label %j', async (count, level, strength, label) => {
    const { call } = await withHistory()
    await startSessions(call, count)
    const r = await call('POST', '/v1/recommendations', { ...TIER, user: 'alice' })
    expect(r.body.expertise).toEqual({ sessions: count, level })
    expect(r.body.strength).toBe(strength)
    expect(r.body.options[0].label).toBe(label)
    expect(r.body.options.map((o: { option: string }) => o.option)).toEqual(['Tier L', 'Tier S', 'Tier M'])
  })

  it('a sensitive question is neutral whatever the expertise', async () => {
    const { call } = await createTestApp()
    const q = { question: 'How should we contain this security breach?', all_options: ['Rotate keys', 'Wait'] }
    await call('POST', '/v1/observations', Array.from({ length: 6 }, (_, i) => ({ ...q, user_choice: 'Wait', decision_id: `b-${i}` })))
    const r = await call('POST', '/v1/recommendations', q)
    expect(r.body.strength).toBe('neutral')
    expect(r.body.options.map((o: { label: string }) => o.label)).toEqual(['Rotate keys', 'Wait'])
  })

  it('toggle off gives personalization-off for that session only; the next session starts on', async () => {
    const { call } = await withHistory()
    await call('POST', '/v1/sessions', { user: 'alice', session_id: 'today' })
    const off = await call('PUT', '/v1/sessions/today/personalization', { enabled: false })
    expect(off.status).toBe(200)
    expect(off.body.personalization).toBe(false)
    const r = await call('POST', '/v1/recommendations', { ...TIER, user: 'alice', session_id: 'today' })
    expect(r.body.state).toBe('personalization-off')
    expect(r.body.recommended).toBe('Tier M')
    expect(r.body.strength).toBe('neutral')
    expect(r.body.ask).toBe(true)
    const next = await call('POST', '/v1/recommendations', { ...TIER, user: 'alice', session_id: 'tomorrow' })
    expect(next.body.state).toBe('partial')
    expect(next.body.recommended).toBe('Tier L')
  })

  it('flips when enabled is omitted, and a session first seen in a recommendation exists', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/recommendations', { ...TIER, user: 'alice', session_id: 'implicit' })
    expect((await call('PUT', '/v1/sessions/implicit/personalization', {})).body.personalization).toBe(false)
    expect((await call('PUT', '/v1/sessions/implicit/personalization', {})).body.personalization).toBe(true)
  })

  it('refuses a misspelt enabled, naming it, rather than flip the setting as an absent enabled does', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/sessions', { user: 'yan', session_id: 's' })
    const misspelt = await call('PUT', '/v1/sessions/s/personalization', { enable: false, user: 'yan' })
    expect(misspelt.status).toBe(400)
    expect(misspelt.body.error.issues).toEqual([{ path: 'enable', message: 'unknown field' }])
    expect((await call('POST', '/v1/sessions', { user: 'yan', session_id: 's' })).body.personalization).toBe(true)
  })
})

describe('as_of replays the past (R-REC-9)', () => {
  it('counts only what was known then, aged from then', async () => {
    const { call } = await createTestApp({ now: '2026-07-10T00:00:00.000Z' })
    const day = (d: number, choice: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({ ...TIER, user_choice: choice, decision_id: `${d}-${i}`, timestamp: `2026-07-0${d}T12:00:00Z` }))
    await call('POST', '/v1/observations', [...day(1, 'Tier S', 3), ...day(2, 'Tier M', 3), ...day(3, 'Tier L', 6)])
    const then = await call('POST', '/v1/recommendations', { ...TIER, as_of: '2026-07-02T12:00:00Z' })
    expect(then.body.observations).toBe(6)
    expect(then.body.as_of).toBe('2026-07-02T12:00:00.000Z')
    expect(then.body.recommended).toBe('Tier M')
    const s = then.body.options.find((o: { option: string }) => o.option === 'Tier S').share
    // Day-1 choices are one day old at as_of: weight 2^-0.5 against 1 for day 2.
    expect(s).toBeCloseTo(Math.SQRT1_2 / (1 + Math.SQRT1_2), 4)
    const now = await call('POST', '/v1/recommendations', TIER)
    expect(now.body.observations).toBe(12)
    expect(now.body.recommended).toBe('Tier L')
  })

  it('answers with the personalization the session had then, not the one it has now', async () => {
    const { call, clock } = await createTestApp()
    const hour = 3_600_000
    const posts = Array.from({ length: 8 }, (_, i) => ({ ...TIER, user_choice: 'Tier L', decision_id: `d-${i}`, session_id: 's-1', timestamp: START }))
    expect((await call('POST', '/v1/observations', posts)).status).toBe(201)
    const at = (hours: number) => new Date(Date.parse(START) + hours * hour).toISOString()
    clock.advance(2 * hour)
    expect((await call('PUT', '/v1/sessions/s-1/personalization', { enabled: false })).status).toBe(200)
    clock.advance(2 * hour)
    expect((await call('PUT', '/v1/sessions/s-1/personalization', { enabled: true })).status).toBe(200)
    clock.advance(hour)
    const stateAt = async (hours: number) =>
      (await call('POST', '/v1/recommendations', { ...TIER, session_id: 's-1', as_of: at(hours) })).body.state
    // On before the first toggle, off between the two, on again after the second.
    expect(await stateAt(1)).toBe('partial')
    expect(await stateAt(3)).toBe('personalization-off')
    expect(await stateAt(4.5)).toBe('partial')
    expect((await call('POST', '/v1/recommendations', { ...TIER, session_id: 's-1' })).body.state).toBe('partial')
  })

  it('counts what is dated at the very moment of as_of, a choice, a session, a toggle or a decision, and nothing a millisecond after', async () => {
    const { call, clock } = await createTestApp()
    const t = Date.parse(START)
    const at = (ms: number) => new Date(t + ms).toISOString()
    const tier = (id: string, ms: number, choice = 'Tier L') => ({ ...TIER, user_choice: choice, decision_id: id, session_id: `s-${id}`, timestamp: at(ms) })
    // Five choices before START, each starting its session; at START one more, a session, a toggle and a decision.
    await call('POST', '/v1/observations', [1, 2, 3, 4, 5].map((i) => tier(`d-${i}`, -i * 60_000)))
    await call('POST', '/v1/observations', tier('d-0', 0, 'Tier S'))
    await call('POST', '/v1/sessions', { session_id: 's-started' })
    await call('PUT', '/v1/sessions/s-off/personalization', { enabled: false })
    const DB = { point: 'db', question: 'Which database?', all_options: ['pg', 'mysql'] }
    const decision = { title: 'Postgres', decision: 'Use pg.', rationale: 'Ops.', enforce: 'required', status: 'accepted', scope: { points: ['db'] }, constraints: [{ kind: 'must', option: 'pg' }] }
    expect((await call('POST', '/v1/decisions', decision)).status).toBe(201)
    // Written a millisecond later, then asked later still: as of START, it is not yet there.
    clock.set(at(1))
    await call('POST', '/v1/observations', tier('d-later', 1))
    clock.set(at(60_000))
    const asOf = async (as_of: string, session_id = 's-d-1') => (await call('POST', '/v1/recommendations', { ...TIER, session_id, as_of })).body
    const then = await asOf(START)
    expect(then).toMatchObject({ observations: 6, expertise: { sessions: 8 }, state: 'partial', as_of: START })
    expect(await asOf(at(-1))).toMatchObject({ observations: 5, expertise: { sessions: 5 } })
    expect((await asOf(START, 's-off')).state).toBe('personalization-off')
    expect((await asOf(at(-1), 's-off')).state).toBe('partial')
    const db = async (as_of: string) => (await call('POST', '/v1/recommendations', { ...DB, as_of })).body.state
    expect(await db(START)).toBe('enforced')
    expect(await db(at(-1))).toBe('static-default')
    // The same moment written in another zone, to a tenth of a millisecond short of the next, is the same moment.
    expect(await asOf('2026-07-01T12:00:00.0009+02:00')).toEqual(then)
  })

  it('answers an as_of ahead of the clock with what is known now, and counts what came meanwhile once it has passed', async () => {
    const { call, clock } = await createTestApp()
    const ahead = new Date(Date.parse(START) + 4 * 60_000).toISOString()
    const tier = (id: string) => ({ ...TIER, user_choice: 'Tier L', decision_id: id })
    await call('POST', '/v1/observations', [1, 2, 3, 4].map((i) => tier(`d-${i}`)))
    const early = await call('POST', '/v1/recommendations', { ...TIER, as_of: ahead })
    expect(early.body).toMatchObject({ observations: 4, as_of: ahead })
    clock.advance(60_000)
    await call('POST', '/v1/observations', tier('d-5'))
    clock.advance(10 * 60_000)
    expect((await call('POST', '/v1/recommendations', { ...TIER, as_of: ahead })).body).toMatchObject({ observations: 5, as_of: ahead })
  })
})

describe('as_of in a store written before toggles were kept (R-REC-9)', () => {
  it('a session turned off then answers off before its next toggle, as it did before that toggle', async () => {
    const { call, clock, store } = await createTestApp()
    const hour = 3_600_000
    // As a store written before toggles were kept holds a session turned off: off, no toggles.
    await store.startSession({ session_id: 's-1', user: 'default', project: null, started_at: START, personalization: false })
    const posts = Array.from({ length: 8 }, (_, i) => ({ ...TIER, user_choice: 'Tier L', decision_id: `d-${i}`, session_id: 's-1', timestamp: START }))
    expect((await call('POST', '/v1/observations', posts)).status).toBe(201)
    const stateAt = async (as_of?: string) =>
      (await call('POST', '/v1/recommendations', { ...TIER, session_id: 's-1', as_of })).body.state
    const before = new Date(Date.parse(START) + hour).toISOString()
    clock.advance(2 * hour)
    expect(await stateAt(before)).toBe('personalization-off')
    expect((await call('PUT', '/v1/sessions/s-1/personalization', { enabled: true })).status).toBe(200)
    clock.advance(hour)
    // The toggle changes what follows it, not what came before.
    expect(await stateAt(before)).toBe('personalization-off')
    expect(await stateAt()).toBe('partial')
  })
})

describe('without as_of, the setting of now', () => {
  it('a toggle holds at once even when the clock steps back behind it', async () => {
    const { call, clock } = await createTestApp()
    const posts = Array.from({ length: 8 }, (_, i) => ({ ...TIER, user_choice: 'Tier L', decision_id: `d-${i}`, session_id: 's-1', timestamp: START }))
    expect((await call('POST', '/v1/observations', posts)).status).toBe(201)
    clock.advance(60_000)
    expect((await call('PUT', '/v1/sessions/s-1/personalization', { enabled: false })).status).toBe(200)
    // The system clock is stepped back (NTP): the session is off all the same.
    clock.advance(-1_000)
    expect((await call('POST', '/v1/recommendations', { ...TIER, session_id: 's-1' })).body.state).toBe('personalization-off')
  })
})

describe('a session started again after the clock stepped back', () => {
  it('keeps its start when no started_at is given, by the route or a SessionStart hook, and counts from then', async () => {
    const { call, clock } = await createTestApp()
    expect((await call('POST', '/v1/sessions', { user: 'alice', session_id: 's-1' })).body.started_at).toBe(START)
    const resume = { session_id: 's-2', transcript_path: '/tmp/t.jsonl', cwd: '/tmp', hook_event_name: 'SessionStart', source: 'startup' }
    expect((await call('POST', '/v1/hooks/claude-code?user=alice', resume)).status).toBe(200)
    // The system clock is stepped back an hour (NTP), and both sessions are started again (a resume).
    clock.advance(-3_600_000)
    const again = await call('POST', '/v1/sessions', { user: 'alice', session_id: 's-1' })
    expect(again.status).toBe(200)
    expect(again.body.started_at).toBe(START)
    expect((await call('POST', '/v1/hooks/claude-code?user=alice', { ...resume, source: 'resume' })).status).toBe(200)
    expect((await call('POST', '/v1/sessions', { user: 'alice', session_id: 's-2' })).body.started_at).toBe(START)
    // Neither existed before START: once the clock is right again, as of a moment before it, alice had no session.
    clock.advance(3_600_000)
    const before = new Date(Date.parse(START) - 1_000).toISOString()
    const asked = await call('POST', '/v1/recommendations', { ...TIER, user: 'alice', as_of: before })
    expect(asked.body.expertise.sessions).toBe(0)
    // A start given, earlier than the stored one (a late delivery), still moves it back.
    expect((await call('POST', '/v1/sessions', { user: 'alice', session_id: 's-1', started_at: before })).body.started_at).toBe(before)
  })
})

describe('a session route called without a body', () => {
  it('starts a session for "default", and flips a setting, as the OpenAPI document says a body is optional', async () => {
    const { app, call } = await createTestApp()
    const started = await app.request('/v1/sessions', { method: 'POST' })
    expect(started.status).toBe(201)
    const session = (await started.json()) as { session_id: string; user: string; personalization: boolean }
    expect(session).toMatchObject({ user: 'default', personalization: true })
    const flipped = await app.request(`/v1/sessions/${session.session_id}/personalization`, { method: 'PUT' })
    expect(flipped.status).toBe(200)
    expect(await flipped.json()).toMatchObject({ session_id: session.session_id, user: 'default', personalization: false })
    const paths = (await call('GET', '/openapi.json')).body.paths
    expect(paths['/v1/sessions'].post.requestBody.required).toBe(false)
    expect(paths['/v1/sessions/{id}/personalization'].put.requestBody.required).toBe(false)
  })
})

describe('which requests naming a new session_id start it (R-SES-1)', () => {
  const NAME = { question: 'What should the service be called?', header: 'Name', kind: 'text' }
  /** The user's expertise as a recommendation asked without a session says it. */
  async function sessionsOf(call: Awaited<ReturnType<typeof createTestApp>>['call']): Promise<number> {
    const r = await call('POST', '/v1/recommendations', { ...TIER, user: 'alice' })
    expect(r.status).toBe(200)
    return r.body.expertise.sessions
  }

  it('a plan of text questions alone starts it, as the orchestrator about to ask is in it; as_of replays and why only read', async () => {
    const { call } = await withHistory()
    expect(await sessionsOf(call)).toBe(0)
    // Replays of the past: a recommendation, a plan, a plan of text alone.
    expect((await call('POST', '/v1/recommendations', { ...TIER, user: 'alice', session_id: 's-r', as_of: START })).status).toBe(200)
    expect((await call('POST', '/v1/plan', { user: 'alice', session_id: 's-p', as_of: START, questions: [NAME] })).status).toBe(200)
    // A read: why is what was recommended, whichever session asks.
    const point = (await call('POST', '/v1/recommendations', { ...TIER, user: 'alice' })).body.point
    expect((await call('GET', `/v1/why?user=alice&point=${point}&session_id=s-w`)).status).toBe(200)
    expect(await sessionsOf(call)).toBe(0)
    // A plan the agent sends before asking, with no choice to recommend, names the session it asks in.
    const plan = await call('POST', '/v1/plan', { user: 'alice', project: 'acme', session_id: 's-text', questions: [NAME] })
    expect(plan.status).toBe(200)
    expect(await sessionsOf(call)).toBe(1)
    const started = await call('POST', '/v1/sessions', { user: 'alice', session_id: 's-text' })
    expect(started.status).toBe(200)
    expect(started.body).toMatchObject({ project: 'acme', personalization: true })
    // Sent again, it is the same session.
    expect((await call('POST', '/v1/plan', { user: 'alice', session_id: 's-text', questions: [NAME] })).status).toBe(200)
    expect(await sessionsOf(call)).toBe(1)
  })
})

describe('GET /v1/sessions/{id}/personalization: a session\'s setting, read', () => {
  it('answers the session as the toggle does, and starts none nor changes any', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/sessions', { user: 'alice', session_id: 's-1', started_at: START })
    const on = await call('GET', '/v1/sessions/s-1/personalization')
    expect(on.status).toBe(200)
    expect(on.body).toMatchObject({ session_id: 's-1', user: 'alice', personalization: true, expertise: { sessions: 1 } })
    const off = await call('PUT', '/v1/sessions/s-1/personalization', { enabled: false })
    expect((await call('GET', '/v1/sessions/s-1/personalization?user=alice')).body).toEqual(off.body)
    // Read twice, it is the same: nothing flipped.
    expect((await call('GET', '/v1/sessions/s-1/personalization')).body).toEqual(off.body)
  })

  it('answers 404 session_not_found naming the id for a session nobody has, or that user has not, and starts none', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/sessions', { user: 'alice', session_id: 's-1', started_at: START })
    const none = await call('GET', '/v1/sessions/s-l/personalization')
    expect(none.status).toBe(404)
    expect(none.body.error).toMatchObject({ code: 'session_not_found', message: 'no session s-l has been seen', issues: [{ path: 'id' }] })
    // The hint names every way a session starts, POST /v1/sessions and a recommendation among them.
    const hint = none.body.error.issues[0].message as string
    for (const way of ['POST /v1/sessions', 'recommendation', 'plan', 'observation', 'hook event', 'toggle']) expect(hint, way).toContain(way)
    const bobs = await call('GET', '/v1/sessions/s-1/personalization?user=bob')
    expect(bobs.status).toBe(404)
    expect(bobs.body.error.message).toBe('no session s-1 of user bob has been seen')
    // Not started by the read: alice still has one session, and s-l none.
    expect((await call('GET', '/v1/sessions/s-1/personalization')).body.expertise.sessions).toBe(1)
    expect((await call('GET', '/v1/sessions/s-l/personalization')).status).toBe(404)
  })

  it('refuses a session id several users have without user, naming them, and a bad id or user naming the field', async () => {
    const { call } = await createTestApp()
    for (const user of ['alice', 'bob']) await call('POST', '/v1/sessions', { user, session_id: 'shared', started_at: START })
    const which = await call('GET', '/v1/sessions/shared/personalization')
    expect(which.status).toBe(400)
    expect(which.body.error).toMatchObject({ code: 'ambiguous_session', issues: [{ path: 'user', message: 'name one of: alice, bob' }] })
    expect((await call('GET', '/v1/sessions/shared/personalization?user=bob')).body.user).toBe('bob')
    const badUser = await call('GET', '/v1/sessions/shared/personalization?user=!x')
    expect([badUser.status, badUser.body.error.issues[0].path]).toEqual([400, 'user'])
    const badId = await call('GET', '/v1/sessions/!x/personalization')
    expect([badId.status, badId.body.error.issues[0].path]).toEqual([400, 'id'])
    const unknown = await call('GET', '/v1/sessions/shared/personalization?enabled=false')
    expect([unknown.status, unknown.body.error.issues[0].path]).toEqual([400, 'enabled'])
  })
})
