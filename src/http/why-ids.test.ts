import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'

type App = Awaited<ReturnType<typeof createTestApp>>

const DAY = 86_400_000
const TIER = { question: 'Which tier?', point: 'tier', all_options: ['S', 'M', 'L'] }
const CHECKS = { question: 'Which checks?', point: 'checks', all_options: ['Lint', 'Test', 'Build'], multi_select: true }

/** What a why cites: decision keys, observation ids, session ids. */
interface Cited {
  keys: Set<string>
  observations: Set<string>
  sessions: Set<string>
}

const KEY_FIELDS = new Set(['key', 'current', 'in_force', 'supersedes', 'superseded_by', 'by'])

/** Every id a why's answer names, wherever it names it. */
function cited(value: unknown, into: Cited = { keys: new Set(), observations: new Set(), sessions: new Set() }): Cited {
  if (Array.isArray(value)) for (const v of value) cited(v, into)
  else if (value !== null && typeof value === 'object') {
    for (const [field, v] of Object.entries(value)) {
      if (typeof v === 'string' && KEY_FIELDS.has(field)) into.keys.add(v)
      if (typeof v === 'string' && field === 'session_id') into.sessions.add(v)
      if (field === 'evidence' && Array.isArray(v)) for (const id of v) if (typeof id === 'string') into.observations.add(id)
      if (field === 'sessions' && Array.isArray(v)) for (const id of v) if (typeof id === 'string') into.sessions.add(id)
      if (field === 'observations' && Array.isArray(v)) for (const o of v) into.observations.add((o as { id: string }).id)
      cited(v, into)
    }
  }
  return into
}

/** The ids a why cites that do not resolve: a key GET /v1/decisions/{key} does not know, an id the user's export does not hold. */
async function unresolved(app: App, user: string, answer: unknown, sessionAsked?: string): Promise<string[]> {
  const { keys, observations, sessions } = cited(answer)
  const lines = ((await app.call('GET', `/v1/users/${user}/export`)).body as string)
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { type: string; data?: { id?: string; session_id?: string } })
  const held = new Set(lines.flatMap((l) => (l.type === 'observation' && l.data?.id !== undefined ? [l.data.id] : [])))
  const heldSessions = new Set(lines.flatMap((l) => (l.data?.session_id === undefined ? [] : [l.data.session_id])))
  const missing: string[] = []
  for (const key of keys) if ((await app.call('GET', `/v1/decisions/${encodeURIComponent(key)}`)).status !== 200) missing.push(`decision ${key}`)
  for (const id of observations) if (!held.has(id)) missing.push(`observation ${id}`)
  // The session the why was asked in is echoed, not cited: it is read, never started.
  for (const id of sessions) if (id !== sessionAsked && !heldSessions.has(id)) missing.push(`session ${id}`)
  return missing
}

async function observe(app: App, user: string, question: Record<string, unknown>, choices: unknown[], daysAgo: number) {
  const now = app.clock.now().getTime()
  const batch = choices.map((choice, i) => ({
    ...question,
    user,
    project: 'p1',
    session_id: `${user}-s${i % 4}`,
    decision_id: `${user}-${String(question.point)}-${now}-${i}`,
    user_choice: choice,
    timestamp: new Date(now - (daysAgo - i * (daysAgo / choices.length)) * DAY).toISOString(),
  }))
  expect((await app.call('POST', '/v1/observations', batch)).status).toBe(201)
}

/** GET /v1/why at the point, checked: 200, every id it cites resolves, and its counts are the recommendation's at the same as_of. */
async function whyResolves(app: App, user: string, question: Record<string, unknown>, query = '') {
  const why = await app.call('GET', `/v1/why?user=${user}&project=p1&point=${String(question.point)}${query}`)
  expect(why.status).toBe(200)
  const session = /session_id=([^&]+)/.exec(query)?.[1]
  expect(await unresolved(app, user, why.body, session)).toEqual([])
  const context = Object.fromEntries([...query.matchAll(/(task|path|stage)=([^&]+)/g)].map((m) => [m[1], m[2]]))
  const { multi_select: _m, ...asked } = question
  const rec = await app.call('POST', '/v1/recommendations', {
    ...asked,
    user,
    project: 'p1',
    session_id: session,
    context: Object.keys(context).length === 0 ? undefined : context,
    as_of: why.body.as_of,
  })
  expect(rec.status).toBe(200)
  expect(why.body.recommendation).toMatchObject({ recommended: rec.body.recommended, observations: rec.body.observations, state: rec.body.state })
  // What it lists is among what the recommendation used.
  const evidence = new Set(rec.body.evidence as string[])
  for (const o of why.body.observations as Array<{ id: string }>) expect(evidence.has(o.id)).toBe(true)
  return why.body
}

async function decisionWhyResolves(app: App, key: string, query = '') {
  const why = await app.call('GET', `/v1/decisions/${key}/why${query}`)
  expect(why.status).toBe(200)
  expect(await unresolved(app, 'nobody', why.body)).toEqual([])
  return why.body
}

describe('every id a why cites exists (R-CON-5)', () => {
  it('through history, a supersede chain of three, a revoke, a decay scan, a toggle off and another user forgotten', async () => {
    const app = await createTestApp()
    app.clock.set('2026-12-01T10:00:00.000Z')
    for (const user of ['alice', 'bob']) {
      await observe(app, user, TIER, Array.from({ length: 30 }, (_, i) => (i % 4 === 0 ? 'S' : 'L')), 60)
      await observe(app, user, CHECKS, Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? ['Lint'] : ['Lint', 'Test'])), 20)
    }
    const before = app.clock.now().toISOString()
    await whyResolves(app, 'alice', TIER)
    await whyResolves(app, 'alice', TIER, '&as_of=2026-11-15T10:00:00Z')
    await whyResolves(app, 'alice', TIER, '&stage=ci&task=build')
    expect((await whyResolves(app, 'alice', CHECKS)).recommendation.recommended).toEqual(['Lint', 'Test'])

    // D-001 → D-002 → D-003, each required and fixing the answer; then D-003 revoked.
    const must = (title: string, option: string, extra: Record<string, unknown> = {}) =>
      app.call('POST', '/v1/decisions', { title, decision: title, rationale: `because ${title}`, enforce: 'required', scope: { points: ['tier'] }, constraints: [{ kind: 'must', option }], ...extra })
    expect((await must('use S', 'S', { status: 'accepted' })).status).toBe(201)
    app.clock.advance(60_000)
    expect((await must('use M', 'M', { supersedes: 'D-001' })).status).toBe(201)
    expect((await app.call('POST', '/v1/decisions/D-002/accept')).status).toBe(200)
    app.clock.advance(60_000)
    const middle = app.clock.now().toISOString()
    expect((await must('use L', 'L')).status).toBe(201)
    expect((await app.call('POST', '/v1/decisions/D-002/supersede', { by: 'D-003' })).status).toBe(200)
    app.clock.advance(60_000)
    const enforced = await whyResolves(app, 'alice', TIER)
    expect(enforced.recommendation.state).toBe('enforced')
    expect(enforced.decisions.map((d: { key: string }) => d.key).sort()).toEqual(['D-001', 'D-002', 'D-003'])
    for (const key of ['D-001', 'D-002', 'D-003']) {
      await decisionWhyResolves(app, key)
      await decisionWhyResolves(app, key, `?as_of=${middle}`)
    }
    await whyResolves(app, 'alice', TIER, `&as_of=${middle}`)
    await whyResolves(app, 'alice', TIER, `&as_of=${before}`)
    expect((await app.call('POST', '/v1/decisions/D-003/revoke', { reason: 'no' })).status).toBe(200)
    await decisionWhyResolves(app, 'D-001')

    // The decay scan moves the older observations out of recall; they are still cited, and still held.
    expect((await app.call('POST', '/v1/maintenance/decay-scan', { force: true })).body.expired_from_recall).toBeGreaterThan(0)
    await whyResolves(app, 'alice', TIER)
    await whyResolves(app, 'alice', CHECKS, `&as_of=${before}`)

    // A session toggled off: nothing of the user's is cited for it.
    expect((await app.call('PUT', '/v1/sessions/s-off/personalization', { user: 'alice', enabled: false })).status).toBe(200)
    expect((await whyResolves(app, 'alice', TIER, '&session_id=s-off')).observations).toEqual([])

    // bob, whose why cited his own observations, forgotten: alice's why cites none of his, and his cites none.
    const bobs = cited(await whyResolves(app, 'bob', TIER)).observations
    expect((await app.call('DELETE', '/v1/users/bob')).status).toBe(200)
    const alices = cited(await whyResolves(app, 'alice', TIER)).observations
    expect([...alices].filter((id) => bobs.has(id))).toEqual([])
    const forgotten = await app.call('GET', '/v1/why?user=bob&project=p1&point=tier')
    // The decisions bound to the point are all that is left of it.
    expect(forgotten.status).toBe(200)
    expect(forgotten.body.observations).toEqual([])
    expect(await unresolved(app, 'bob', forgotten.body)).toEqual([])
    expect((await app.call('GET', '/v1/why?user=bob&project=p1&point=checks')).status).toBe(404)
  })
})
