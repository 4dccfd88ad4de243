import { describe, expect, it } from 'vitest'
import { createTestApp, START } from './support/test-app'

// The seeds' stories walked through the wire format only (README "Decisions as contracts"), where
// no other test tells them whole.

const DAY = 86_400_000
const T0 = Date.parse(START)
const iso = (ms: number) => new Date(ms).toISOString()
const DATABASE = {
  user: 'dana',
  question: 'Which database should the billing service use?',
  point: 'database',
  all_options: ['SQLite', 'PostgreSQL', 'MySQL'],
}
const SQLITE = {
  key: 'D-007',
  title: 'Use SQLite',
  decision: 'The billing service keeps its data in SQLite.',
  rationale: 'One file, no server to run, while billing has one user.',
  enforce: 'required',
  status: 'accepted',
  scope: { points: ['database'] },
  constraints: [{ kind: 'must', option: 'SQLite' }],
}
const POSTGRES = {
  key: 'D-038',
  title: 'Migrate to PostgreSQL',
  decision: 'The billing service moves to PostgreSQL.',
  rationale: 'Billing needs relational joins, and we already run PostgreSQL for auth.',
  enforce: 'required',
  supersedes: 'D-007',
  scope: { points: ['database'] },
  constraints: [{ kind: 'must', option: 'PostgreSQL' }],
}

describe('seed 002: a user who picked Tier M 9 times of 10 (R-REC-1, R-REC-3, R-ASK-1, R-ASK-2)', () => {
  const TIER = {
    user: 'nina',
    project: 'acme/api',
    question: 'Which complexity tier should this SPEC use?',
    header: 'Tier',
    all_options: ['Tier S', 'Tier M', 'Tier L'],
    context: { phase: 'run' },
  }

  it('is told Tier M, but asked: ten choices are partial learning, and p stays below the share seen', async () => {
    const { call } = await createTestApp()
    const tenDays = Array.from({ length: 10 }, (_, i) => ({
      ...TIER,
      user_choice: i === 4 ? 'Tier L' : 'Tier M (Recommended)',
      session_id: `s-${i}`,
      timestamp: iso(T0 - (10 - i) * DAY),
    }))
    expect((await call('POST', '/v1/observations', tenDays)).status).toBe(201)
    const body = (await call('POST', '/v1/recommendations', TIER)).body
    expect(body).toMatchObject({ recommended: 'Tier M', state: 'partial', observations: 10, needed: 0, precondition: 'phase is run', ask: true })
    expect(body.ask_reason).toBe('state is partial, not sufficient: 10 observations, sufficient takes more than 20')
    expect(body.options[0]).toMatchObject({ option: 'Tier M', label: 'Tier M (Recommended)' })
    expect(body.options[0].description).toMatch(/^Recommended when phase is run — based on \d+% of recent choices$/)
    // The confidence is the probability that Tier M is the favourite (calibrated, R-REC-3), high
    // already; what ten choices lack is the count sufficient takes, so the state holds it back.
    expect(body.confidence).toMatchObject({ level: 'high', significant: true })
    // The predicted chance of Tier M is smoothed toward the other options: below the 90% chosen,
    // and below what auto-resolving takes, whatever the state.
    expect(body.p).toBeLessThan(0.9)
    expect(body.information).toBeCloseTo(body.p * (1 - body.p), 4)

    // Thirty choices in the same proportion are surer and, past M, sufficient; still asked while
    // one choice in ten goes elsewhere (p below auto_resolve_p).
    const { call: later } = await createTestApp()
    const thirtyDays = Array.from({ length: 30 }, (_, i) => ({
      ...TIER,
      user_choice: i % 10 === 4 ? 'Tier L' : 'Tier M',
      session_id: `s-${i}`,
      timestamp: iso(T0 - (30 - i) * DAY / 3),
    }))
    expect((await later('POST', '/v1/observations', thirtyDays)).status).toBe(201)
    const surer = (await later('POST', '/v1/recommendations', TIER)).body
    expect(surer).toMatchObject({ recommended: 'Tier M', state: 'sufficient', observations: 30 })
    expect(surer.confidence.value).toBeGreaterThan(body.confidence.value)
    expect(surer.p).toBeGreaterThan(body.p)
    expect(surer.ask_reason).toBe(`p ${surer.p} is below auto_resolve_p 0.9`)
  })
})

describe('seed 000, bug #3: SQLite superseded by PostgreSQL keeps its history (R-CON-2, R-CON-5, R-REC-9)', () => {
  it('the old contract holds until its replacement is accepted, and why says when and why it changed', async () => {
    const { call, clock } = await createTestApp()
    // The user's own habit points elsewhere: a contract is not outvoted by observed choices.
    const choices = Array.from({ length: 25 }, (_, i) => ({
      ...DATABASE,
      user_choice: 'PostgreSQL',
      session_id: `s-${i}`,
      timestamp: iso(T0 - (25 - i) * DAY),
    }))
    expect((await call('POST', '/v1/observations', choices)).status).toBe(201)
    expect((await call('POST', '/v1/decisions', SQLITE)).status).toBe(201)
    const recommend = async (extra: Record<string, unknown> = {}) => (await call('POST', '/v1/recommendations', { ...DATABASE, ...extra })).body

    const enforced = await recommend()
    expect(enforced).toMatchObject({ state: 'enforced', recommended: 'SQLite', ask: false, precondition: 'required decision D-007 is in force' })
    expect(enforced.learned).toMatchObject({ recommended: 'PostgreSQL' })

    // Proposed, the migration changes nothing yet.
    clock.advance(DAY)
    expect((await call('POST', '/v1/decisions', POSTGRES)).body.status).toBe('proposed')
    expect(await recommend()).toMatchObject({ state: 'enforced', recommended: 'SQLite' })
    expect((await call('GET', '/v1/decisions/D-007')).body.status).toBe('accepted')

    clock.advance(DAY)
    const migratedAt = clock.now().toISOString()
    expect((await call('POST', '/v1/decisions/D-038/accept', {})).status).toBe(200)
    expect(await recommend()).toMatchObject({ state: 'enforced', recommended: 'PostgreSQL', precondition: 'required decision D-038 is in force' })

    // "When did we migrate, and why?": the chain from either end, the old rationale kept.
    for (const key of ['D-007', 'D-038']) {
      const why = (await call('GET', `/v1/decisions/${key}/why`)).body
      expect([why.current, why.in_force]).toEqual(['D-038', 'D-038'])
      expect(why.chain.map((link: any) => [link.key, link.status, link.rationale, link.superseded_at, link.accepted_at === migratedAt])).toEqual([
        ['D-007', 'superseded', SQLITE.rationale, migratedAt, false],
        ['D-038', 'accepted', POSTGRES.rationale, null, true],
      ])
    }
    const old = (await call('GET', '/v1/decisions/D-007')).body
    expect(old).toMatchObject({ status: 'superseded', superseded_by: 'D-038' })
    // Created accepted: proposed and accepted at once, then superseded; events are only appended.
    expect(old.events.map((e: any) => [e.type, e.to])).toEqual([
      ['proposed', 'proposed'],
      ['accepted', 'accepted'],
      ['superseded', 'superseded'],
    ])

    // The point's why names the chain and only observations that exist.
    const point = (await call('GET', '/v1/why?user=dana&point=database')).body
    expect(point.recommendation).toMatchObject({ state: 'enforced', recommended: 'PostgreSQL' })
    expect(point.decisions.map((d: any) => [d.key, d.in_force])).toContainEqual(['D-038', 'D-038'])
    const exported = new Set(
      (await (await call('GET', '/v1/users/dana/export')).body as string)
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
        .filter((line) => line.type === 'observation')
        .map((line) => line.data.id),
    )
    expect(point.observations.length).toBeGreaterThan(0)
    for (const observation of point.observations) expect(exported.has(observation.id)).toBe(true)

    // An audit of the day before the migration answers as the service did then.
    expect(await recommend({ as_of: iso(Date.parse(migratedAt) - DAY) })).toMatchObject({ state: 'enforced', recommended: 'SQLite' })
  })
})
