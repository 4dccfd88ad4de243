import { describe, expect, it } from 'vitest'
import { bigWhyCase, BIG_WHY_CASES } from '../../test/support/big-why'
import { createTestApp } from '../../test/support/test-app'
import type { ChainLink } from './decisions'
import type { PointWhy } from './explain-point'
import { BRIEF_OBSERVATIONS, briefPointWhy, type BriefPointWhy } from './point-why-brief'

type App = Awaited<ReturnType<typeof createTestApp>>

const commandLine = (args: string[]) => `decision-memory ${args.join(' ')}`

/** The route's why of the case's point, and its brief form. */
async function whyOfCase(shape: (typeof BIG_WHY_CASES)[number]) {
  const app = await createTestApp({ now: '2026-12-01T10:00:00.000Z' })
  const { point } = await bigWhyCase(app, shape)
  const route = await app.call('GET', `/v1/why?user=alice&project=p1&point=${point}`)
  expect(route.status).toBe(200)
  return { app, route: route.body as PointWhy, brief: briefPointWhy(route.body, { commandLine }) as BriefPointWhy }
}

/** What the brief form cites that cannot be looked up: a key neither in its `decisions` nor stored, an observation alice's export does not hold. */
async function unresolved(app: App, brief: BriefPointWhy): Promise<string[]> {
  const given = new Set(brief.decisions.map((d) => d.key))
  const keys = new Set([...given, ...brief.chains.flatMap((c) => [...c.keys, c.current, ...(c.in_force === null ? [] : [c.in_force]), ...c.proposals.map((p) => p.key)])])
  for (const d of brief.decisions) for (const key of [d.supersedes, d.superseded_by]) if (key !== null) keys.add(key)
  const held = new Set(
    ((await app.call('GET', '/v1/users/alice/export')).body as string)
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { type: string; data?: { id?: string } })
      .flatMap((l) => (l.type === 'observation' && l.data?.id !== undefined ? [l.data.id] : [])),
  )
  const missing: string[] = []
  for (const key of keys) {
    // A pending proposal is given in its chain's `proposals`, not among the decisions.
    if (!given.has(key) && !brief.chains.some((c) => c.proposals.some((p) => p.key === key))) missing.push(`decision ${key} not in the answer`)
    if ((await app.call('GET', `/v1/decisions/${encodeURIComponent(key)}`)).status !== 200) missing.push(`decision ${key} not stored`)
  }
  for (const o of brief.observations) if (!held.has(o.id)) missing.push(`observation ${o.id}`)
  return missing
}

describe('briefPointWhy: a point\'s why as an agent reads it (R-CON-5)', () => {
  it('gives a decision superseded through 10 versions once, not its chain ten times: under 16,000 characters where the route gives some 240,000', async () => {
    const { route, brief } = await whyOfCase(BIG_WHY_CASES[0] as (typeof BIG_WHY_CASES)[number])
    expect(JSON.stringify(route).length).toBeGreaterThan(200_000)
    expect(JSON.stringify(brief).length).toBeLessThan(16_000)
    expect(brief.chains).toEqual([{ keys: route.decisions[0]?.chain.map((l) => l.key), current: 'Q-010', in_force: 'Q-010', proposals: [] }])
    expect(brief.decisions.map((d) => d.key)).toEqual(['Q-001', 'Q-002', 'Q-003', 'Q-004', 'Q-005', 'Q-006', 'Q-007', 'Q-008', 'Q-009', 'Q-010'])
  })

  it.each(BIG_WHY_CASES.map((c) => [c.name, c] as const))('keeps under 32,000 characters (8,000 tokens), every id it cites there to look up: %s', async (_name, shape) => {
    const { app, brief } = await whyOfCase(shape)
    expect(JSON.stringify(brief).length).toBeLessThan(32_000)
    expect(await unresolved(app, brief)).toEqual([])
  })

  it('keeps what R-CON-5 asks: each chain, what each bound decision did, the rationale and evidence of those in force, the observations behind the recommendation', async () => {
    const { route, brief } = await whyOfCase(BIG_WHY_CASES[2] as (typeof BIG_WHY_CASES)[number])
    const { decisions: _d, observations: _o, ...rest } = route
    // Everything else as the route says it: the recommendation, the point, the run.
    expect(brief).toMatchObject(rest)
    const links = new Map<string, ChainLink>(route.decisions.flatMap((d) => d.chain.map((l) => [l.key, l] as const)))
    const given = new Map(brief.decisions.map((d) => [d.key, d]))
    expect([...given.keys()].sort()).toEqual([...links.keys()].sort())
    for (const d of route.decisions) {
      expect(given.get(d.key)).toMatchObject({ bound: true, effect: d.effect, out_of_scope: d.out_of_scope, status: d.status, title: d.title, enforce: d.enforce })
      expect(brief.chains).toContainEqual({ keys: d.chain.map((l) => l.key), current: d.current, in_force: d.in_force, proposals: d.proposals })
    }
    let history = 0
    for (const [key, link] of links) {
      const said = given.get(key)
      const { decision, rationale, source, evidence, ...dates } = link
      expect(said).toMatchObject(dates)
      if (link.status === 'accepted') expect(said).toMatchObject({ decision, rationale, source, evidence })
      else {
        history++
        expect(said).toMatchObject({ evidence_count: evidence.length })
        expect(said).not.toHaveProperty('rationale')
      }
    }
    expect(history).toBe(14)
    expect(brief.observations).toEqual(route.observations.slice(0, BRIEF_OBSERVATIONS))
    expect(brief.observations_count).toBe(route.observations.length)
    expect(route.observations.length).toBeGreaterThan(BRIEF_OBSERVATIONS)
  })

  it('says what it leaves out, and where the whole answer is: the route and the command, as of the same moment', async () => {
    const { app, route, brief } = await whyOfCase(BIG_WHY_CASES[2] as (typeof BIG_WHY_CASES)[number])
    expect(brief.left_out).toContain("each decision's events")
    expect(brief.left_out).toContain('of the 14 no longer in force')
    // Asked by key, a decision is given whole however long its chain (briefDecisionWhy), not its chain in full.
    expect(brief.left_out).toContain("`why` with a decision's `key` gives that decision whole, with its chain.")
    expect(brief.left_out).toContain(`${route.observations.length - BRIEF_OBSERVATIONS} older observations of the ${route.observations.length}`)
    expect(brief.left_out).toContain(`decision-memory why --point queue-backend --user alice --project p1 --as-of ${route.as_of} --json`)
    const path = /GET (\/v1\/why\?\S+),/.exec(brief.left_out ?? '')?.[1]
    const whole = await app.call('GET', path as string)
    expect(whole.status).toBe(200)
    expect(whole.body).toEqual(route)
  })

  it('gives a link of a bound decision\'s chain that is bound elsewhere, with its rationale, marked not bound', async () => {
    const app = await createTestApp()
    const made = { decision: 'Use Redis', rationale: 'ops run it', enforce: 'advisory', constraints: [{ kind: 'prefer', option: 'Redis' }] }
    expect((await app.call('POST', '/v1/decisions', { ...made, key: 'R-1', title: 'Queues', status: 'accepted', scope: { points: ['queue'] } })).status).toBe(201)
    expect((await app.call('POST', '/v1/decisions', { ...made, key: 'R-2', title: 'Queues, moved', rationale: 'rescoped', supersedes: 'R-1', scope: { points: ['broker'] } })).status).toBe(201)
    expect((await app.call('POST', '/v1/decisions/R-2/accept')).status).toBe(200)
    const route = await app.call('GET', '/v1/why?user=alice&point=queue')
    expect(route.body.decisions.map((d: { key: string }) => d.key)).toEqual(['R-1'])
    const brief = briefPointWhy(route.body, { commandLine }) as BriefPointWhy
    expect(brief.chains).toEqual([{ keys: ['R-1', 'R-2'], current: 'R-2', in_force: 'R-2', proposals: [] }])
    expect(brief.decisions).toMatchObject([
      { key: 'R-1', bound: true, status: 'superseded', effect: null, evidence_count: 0 },
      { key: 'R-2', bound: false, status: 'accepted', rationale: 'rescoped', evidence: [] },
    ])
    expect(brief.decisions[1]).not.toHaveProperty('effect')
    expect(brief.left_out).toContain('--all-projects')
  })

  it('leaves an answer that is not a point\'s why as it is, and says nothing left out of one with nothing left out', () => {
    const older = { point: 'db', user: 'alice', decisions: [{ key: 'D-1', effect: 'enforced' }], observations: [] }
    expect(briefPointWhy(older, { commandLine })).toBe(older)
    expect(briefPointWhy(null, { commandLine })).toBe(null)
    const none = { user: 'alice', project: null, session_id: null, point: 'db', as_of: '2026-07-01T10:00:00.000Z', task: null, path: null, stage: null, recommendation: null, decisions: [], observations: [] }
    expect(briefPointWhy(none, { commandLine })).toEqual({ ...none, chains: [], observations_count: 0 })
  })
})
