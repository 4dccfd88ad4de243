import { describe, expect, it } from 'vitest'
import { bigWhyCase, BIG_WHY_CASES } from '../../test/support/big-why'
import { createTestApp } from '../../test/support/test-app'
import type { ChainLink, DecisionWhy } from './decisions'
import { briefDecisionWhy, briefFileWhy, WHOLE_WHY_CHARACTERS, type BriefLink } from './decision-why-brief'

const commandLine = (args: string[]) => `decision-memory ${args.join(' ')}`
const THIRTY = BIG_WHY_CASES[3] as (typeof BIG_WHY_CASES)[number]

/** A store holding one decision superseded through `shape.chain` versions (Q-001 … Q-0NN), and each version's why by the route. */
async function chainOf(shape: (typeof BIG_WHY_CASES)[number]) {
  const app = await createTestApp({ now: '2026-12-01T10:00:00.000Z' })
  await bigWhyCase(app, shape)
  const why = async (key: string) => {
    const answer = await app.call('GET', `/v1/decisions/${key}/why`)
    expect(answer.status).toBe(200)
    return answer.body as DecisionWhy
  }
  return { app, why }
}

/** Whether a link is given in brief: without what it said and why. */
const inBrief = (link: BriefLink) => !('rationale' in link) && typeof link.evidence_count === 'number'

describe('briefDecisionWhy: a decision\'s why as the MCP `why` gives it (R-CON-5)', () => {
  it('gives a chain of 30 versions in under 20,000 characters where the route gives some 67,000: the links no longer in force but the one asked about in brief', async () => {
    const { app, why } = await chainOf(THIRTY)
    const route = await why('Q-015')
    expect(JSON.stringify(route).length).toBeGreaterThan(60_000)
    const brief = briefDecisionWhy(route, { commandLine }) as DecisionWhy & { chain: BriefLink[]; left_out: string }
    expect(JSON.stringify(brief).length).toBeLessThan(20_000)
    // What the chain is, which is in force, and the one asked about: as the route says them.
    const { chain: _chain, ...rest } = route
    expect(brief).toMatchObject(rest)
    expect(brief.chain.map((l) => l.key)).toEqual(route.chain.map((l) => l.key))
    const links = new Map(route.chain.map((l) => [l.key, l]))
    for (const link of brief.chain) {
      const whole = links.get(link.key) as ChainLink
      if (link.key === 'Q-015' || link.key === route.in_force) expect(link).toEqual(whole)
      else {
        const { decision: _d, rationale: _r, source: _s, evidence, ...fields } = whole
        expect(link).toEqual({ ...fields, evidence_count: evidence.length })
        expect(inBrief(link)).toBe(true)
      }
    }
    expect(brief.in_force).toBe('Q-030')
    expect(brief.chain.find((l) => l.key === 'Q-030')).toMatchObject({ status: 'accepted', enforce: 'advisory', decision: expect.stringContaining('Redis') })
    // Every key it cites can be asked of `why`, and the route it names gives the whole answer, as of the same moment.
    for (const link of brief.chain) expect((await app.call('GET', `/v1/decisions/${link.key}/why`)).status).toBe(200)
    expect(brief.left_out).toContain('of the 28 no longer in force')
    expect(brief.left_out).toContain(`decision-memory why Q-015 --as-of ${route.as_of} --json`)
    const path = /GET (\S+), or /.exec(brief.left_out)?.[1] as string
    const whole = await app.call('GET', path)
    expect(whole.status).toBe(200)
    expect(whole.body).toEqual(route)
  })

  it('gives a chain that fits whole, as the route does', async () => {
    const { why } = await chainOf({ ...THIRTY, chain: 3 })
    const route = await why('Q-002')
    expect(JSON.stringify(route).length).toBeLessThan(WHOLE_WHY_CHARACTERS)
    expect(briefDecisionWhy(route, { commandLine })).toEqual(route)
  })

  it('gives whole an answer of the threshold\'s length, and in brief one a character longer, each time alike', async () => {
    const { why } = await chainOf(THIRTY)
    const route = await why('Q-015')
    const size = JSON.stringify(route).length
    expect(briefDecisionWhy(route, { commandLine, limit: size })).toEqual(route)
    const brief = briefDecisionWhy(route, { commandLine, limit: size - 1 })
    expect(brief).toHaveProperty('left_out')
    expect(briefDecisionWhy(route, { commandLine, limit: size - 1 })).toEqual(brief)
  })

  it('gives whole a why over the threshold that the brief would not make shorter: one in force that says much, superseding one that said little', async () => {
    const app = await createTestApp({ now: '2026-12-01T10:00:00.000Z' })
    const posted = async (path: string, body?: unknown) => expect((await app.call('POST', path, body)).status).toBeLessThan(300)
    await posted('/v1/decisions', { key: 'S-1', title: 'Short', decision: 'Use SQS.', rationale: 'Cheap.', status: 'accepted', scope: { points: ['queue-backend'] } })
    // As long as a decision and its rationale may be: the chain is over the threshold by itself.
    const long = { key: 'S-2', title: 'Long', decision: 'D'.repeat(8000), rationale: 'R'.repeat(8000), supersedes: 'S-1', scope: { points: ['queue-backend'] } }
    await posted('/v1/decisions', long)
    await posted('/v1/decisions/S-2/accept')
    const route = (await app.call('GET', '/v1/decisions/S-2/why')).body as DecisionWhy
    expect(JSON.stringify(route).length).toBeGreaterThan(WHOLE_WHY_CHARACTERS)
    // In brief, S-1 would lose a few words and the answer gain a left_out of some 400 characters.
    expect(briefDecisionWhy(route, { commandLine })).toEqual(route)
  })
})

describe('briefFileWhy: a file\'s why as the MCP `why` gives it (R-CON-5)', () => {
  it('gives a record of 30 decisions superseding each other each once, in under 24,000 characters where whole it is some 2,000,000', async () => {
    const { app, why } = await chainOf(THIRTY)
    const keys = Array.from({ length: 30 }, (_, i) => `Q-${String(i + 1).padStart(3, '0')}`)
    // A DECISIONS.md of 30 sections, each a version: each entry carries the whole chain.
    const whole = { file: 'DECISIONS.md', path: 'DECISIONS.md', decisions: await Promise.all(keys.map(async (key, i) => ({ key, from: 'record', line: 1 + i * 20, why: await why(key) }))) }
    expect(JSON.stringify(whole).length).toBeGreaterThan(1_500_000)
    const brief = briefFileWhy(whole, { commandLine }) as {
      file: string
      path: string
      decisions: Array<{ key: string; from: string; line: number; chain: number }>
      chains: Array<{ keys: string[]; current: string; in_force: string | null }>
      links: BriefLink[]
      left_out: string
    }
    expect(JSON.stringify(brief).length).toBeLessThan(24_000)
    expect(brief.decisions).toEqual(whole.decisions.map(({ why: _why, ...entry }) => ({ ...entry, chain: 0 })))
    expect(brief.chains).toEqual([{ keys, current: 'Q-030', in_force: 'Q-030', proposals: [] }])
    expect(brief.links.map((l) => l.key)).toEqual(keys)
    const inForce = (whole.decisions[29]?.why.chain ?? []).find((l) => l.key === 'Q-030')
    expect(brief.links.find((l) => l.key === 'Q-030')).toEqual(inForce)
    expect(brief.links.filter(inBrief)).toHaveLength(29)
    for (const key of keys) expect((await app.call('GET', `/v1/decisions/${key}/why`)).status).toBe(200)
    expect(brief.left_out).toContain(`decision-memory why DECISIONS.md --as-of ${whole.decisions[0]?.why.as_of} --json`)
  })

  it('gives a file whose why fits whole as it is', async () => {
    const { why } = await chainOf({ ...THIRTY, chain: 2 })
    const whole = { file: 'DECISIONS.md', path: 'DECISIONS.md', decisions: [{ key: 'Q-002', from: 'record', line: 1, why: await why('Q-002') }] }
    expect(briefFileWhy(whole, { commandLine })).toEqual(whole)
  })
})
