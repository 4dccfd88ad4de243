import { fileURLToPath } from 'node:url'
import { MemoryLevel } from 'memory-level'
import { describe, expect, it } from 'vitest'
import { decisionRecord } from '../../test/support/decision-record'
import { InstrumentedLevel } from '../../test/support/instrumented-level'
import { createTestApp, START } from '../../test/support/test-app'
import { createLevelDecisionStore } from '../decisions/level-decision-store'
import { LIMITS } from '../domain/limits'
import { readRecordFolder } from '../decisions/adr/adr-folder'
import { readAdrFolder } from '../decisions/adr/read-adr-folder'

const DAY = 24 * 3600_000
const FIXTURES = fileURLToPath(new URL('../../test/fixtures/adr/', import.meta.url))

const decision = (extra: Record<string, unknown>) => ({
  title: 'A decision',
  decision: 'We do this.',
  rationale: 'Because of that.',
  ...extra,
})

describe('decision lifecycle over HTTP (R-CON-1, R-CON-1a)', () => {
  it('D-2 superseding D-1 marks D-1 superseded, links both ways, and why shows the chain with dates and rationales', async () => {
    const { call, clock } = await createTestApp()
    const d1 = await call('POST', '/v1/decisions', decision({ title: 'Use SQLite', rationale: 'One host, no server to run.', status: 'accepted' }))
    expect(d1.status).toBe(201)
    expect(d1.body.key).toBe('D-001')
    const t1 = clock.now().toISOString()

    clock.advance(DAY)
    const t2 = clock.now().toISOString()
    const d2 = await call('POST', '/v1/decisions', decision({ title: 'Use PostgreSQL', rationale: 'Billing needs joins.', supersedes: 'D-001' }))
    expect(d2.body).toMatchObject({ key: 'D-002', status: 'proposed', supersedes: 'D-001' })
    expect((await call('GET', '/v1/decisions/D-001')).body.status).toBe('accepted')
    // Proposed only: the newest link of its chain, not the one in force.
    const proposed = (await call('GET', '/v1/decisions/D-002/why')).body
    expect([proposed.current, proposed.in_force]).toEqual(['D-002', 'D-001'])

    clock.advance(DAY)
    const t3 = clock.now().toISOString()
    const accepted = await call('POST', '/v1/decisions/D-002/accept', { reason: 'agreed in the design review' })
    expect(accepted.status).toBe(200)
    expect(accepted.body).toMatchObject({ status: 'accepted', supersedes: 'D-001' })

    const old = (await call('GET', '/v1/decisions/D-001')).body
    expect(old).toMatchObject({ status: 'superseded', superseded_by: 'D-002' })
    expect(old.events.map((e: any) => [e.seq, e.type, e.from, e.to, e.at, e.by])).toEqual([
      [1, 'proposed', null, 'proposed', t1, undefined],
      [2, 'accepted', 'proposed', 'accepted', t1, undefined],
      [3, 'superseded', 'accepted', 'superseded', t3, 'D-002'],
    ])
    const replacement = (await call('GET', '/v1/decisions/D-002')).body
    expect(replacement.events.map((e: any) => [e.seq, e.type, e.at, e.supersedes, e.reason])).toEqual([
      [1, 'proposed', t2, undefined, undefined],
      [2, 'accepted', t3, 'D-001', 'agreed in the design review'],
    ])

    for (const key of ['D-001', 'D-002']) {
      const why = await call('GET', `/v1/decisions/${key}/why`)
      expect(why.status).toBe(200)
      expect(why.body.current).toBe('D-002')
      expect(why.body.in_force).toBe('D-002')
      expect(why.body.chain.map((l: any) => [l.key, l.status, l.date, l.rationale, l.accepted_at, l.superseded_at])).toEqual([
        ['D-001', 'superseded', t1.slice(0, 10), 'One host, no server to run.', t1, t3],
        ['D-002', 'accepted', t2.slice(0, 10), 'Billing needs joins.', t3, null],
      ])
    }
  })

  it('gives each link of a chain when it was revoked or deprecated, and the reason given (R-CON-5)', async () => {
    const { call, clock } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ key: 'N-1', status: 'accepted' }))
    await call('POST', '/v1/decisions', decision({ key: 'N-2', supersedes: 'N-1' }))
    await call('POST', '/v1/decisions/N-2/accept', {})
    clock.advance(DAY)
    const revokedAt = clock.now().toISOString()
    expect((await call('POST', '/v1/decisions/N-2/revoke', { reason: 'pnpm broke CI' })).status).toBe(200)
    const why = (await call('GET', '/v1/decisions/N-1/why')).body
    expect(why.chain.map((l: any) => [l.key, l.status, l.revoked_at, l.deprecated_at, l.reason])).toEqual([
      ['N-1', 'superseded', null, null, 'superseded by N-2'],
      ['N-2', 'revoked', revokedAt, null, 'pnpm broke CI'],
    ])
    // As of before the revoke: accepted, neither said.
    const before = (await call('GET', `/v1/decisions/N-1/why?as_of=${new Date(Date.parse(revokedAt) - 1000).toISOString()}`)).body
    expect(before.chain.at(-1)).toMatchObject({ key: 'N-2', status: 'accepted', revoked_at: null, reason: null })

    await call('POST', '/v1/decisions', decision({ key: 'Y-1', status: 'accepted' }))
    clock.advance(DAY)
    const deprecatedAt = clock.now().toISOString()
    await call('POST', '/v1/decisions/Y-1/deprecate', { reason: 'yarn 1 is unmaintained' })
    expect((await call('GET', '/v1/decisions/Y-1/why')).body.chain).toEqual([
      expect.objectContaining({ key: 'Y-1', status: 'deprecated', deprecated_at: deprecatedAt, revoked_at: null, reason: 'yarn 1 is unmaintained' }),
    ])
  })

  it('names the decision in force apart from the newest: none once the only accepted one is revoked', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ key: 'D-001', status: 'accepted' }))
    await call('POST', '/v1/decisions', decision({ key: 'D-002', supersedes: 'D-001' }))
    expect((await call('POST', '/v1/decisions/D-002/revoke', { reason: 'rejected in review' })).status).toBe(200)
    const rejected = (await call('GET', '/v1/decisions/D-002/why')).body
    expect(rejected.chain.map((l: any) => [l.key, l.status])).toEqual([['D-001', 'accepted'], ['D-002', 'revoked']])
    expect([rejected.current, rejected.in_force]).toEqual(['D-002', 'D-001'])
    await call('POST', '/v1/decisions/D-001/revoke', {})
    const none = (await call('GET', '/v1/decisions/D-001/why')).body
    expect([none.current, none.in_force]).toEqual([none.chain.at(-1).key, null])
  })

  it('supersedes through /supersede: a proposal is accepted, an accepted decision is linked', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ key: 'D-001', status: 'accepted' }))
    await call('POST', '/v1/decisions', decision({ key: 'D-002' }))
    const first = await call('POST', '/v1/decisions/D-001/supersede', { by: 'D-002' })
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ key: 'D-001', status: 'superseded', superseded_by: 'D-002' })
    expect((await call('GET', '/v1/decisions/D-002')).body).toMatchObject({ status: 'accepted', supersedes: 'D-001' })

    await call('POST', '/v1/decisions', decision({ key: 'D-003', status: 'accepted' }))
    const linked = await call('POST', '/v1/decisions/D-002/supersede', { by: 'D-003' })
    expect(linked.body.status).toBe('superseded')
    const d3 = (await call('GET', '/v1/decisions/D-003')).body
    expect(d3.supersedes).toBe('D-002')
    expect(d3.events.map((e: any) => e.type)).toEqual(['proposed', 'accepted', 'linked'])
    expect((await call('GET', '/v1/decisions/D-001/why')).body.chain.map((l: any) => l.key)).toEqual(['D-001', 'D-002', 'D-003'])

    const again = await call('POST', '/v1/decisions/D-002/supersede', { by: 'D-003' })
    expect(again.status).toBe(409)
  })

  it('keeps the reason of /supersede on the decision it supersedes, by a proposal as by an accepted one (R-CON-5)', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ key: 'D-001', status: 'accepted' }))
    await call('POST', '/v1/decisions', decision({ key: 'D-002' }))
    await call('POST', '/v1/decisions', decision({ key: 'D-003', status: 'accepted' }))
    await call('POST', '/v1/decisions', decision({ key: 'D-004', status: 'accepted' }))
    expect((await call('POST', '/v1/decisions/D-001/supersede', { by: 'D-002', reason: 'pnpm is faster' })).status).toBe(200)
    expect((await call('POST', '/v1/decisions/D-003/supersede', { by: 'D-004', reason: 'billing moved' })).status).toBe(200)
    const reasonOf = async (key: string) => (await call('GET', `/v1/decisions/${key}/why`)).body.chain.find((l: any) => l.key === key).reason
    expect(await reasonOf('D-001')).toBe('pnpm is faster')
    expect(await reasonOf('D-003')).toBe('billing moved')
    // The replacement's own step keeps it too.
    expect((await call('GET', '/v1/decisions/D-002')).body.events.at(-1)).toMatchObject({ type: 'accepted', supersedes: 'D-001', reason: 'pnpm is faster' })
  })

  it('refuses to accept a proposal that supersedes a decision another one already superseded, naming supersedes', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ key: 'D-001', status: 'accepted' }))
    await call('POST', '/v1/decisions', decision({ key: 'D-002', supersedes: 'D-001', status: 'accepted' }))
    await call('POST', '/v1/decisions', decision({ key: 'D-003', supersedes: 'D-001' }))
    const refused = await call('POST', '/v1/decisions/D-003/accept', {})
    expect(refused.status).toBe(409)
    expect(refused.body.error).toMatchObject({ code: 'already_superseded', issues: [{ path: 'supersedes', message: 'D-001 was replaced by D-002' }] })
    // Nothing changed: D-001 stays replaced by D-002, and D-003 stays a proposal.
    expect((await call('GET', '/v1/decisions/D-001')).body).toMatchObject({ status: 'superseded', superseded_by: 'D-002' })
    expect((await call('GET', '/v1/decisions/D-003')).body).toMatchObject({ status: 'proposed' })
  })

  it('names the field that named a predecessor the lifecycle cannot supersede: supersedes, or the key of /supersede, not status', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ key: 'D-001' }))
    // Accepted at creation over a proposal: the request's status is right; what it supersedes cannot be.
    const atOnce = await call('POST', '/v1/decisions', decision({ key: 'D-002', supersedes: 'D-001', status: 'accepted' }))
    expect(atOnce.status).toBe(409)
    expect(atOnce.body.error).toMatchObject({ code: 'invalid_transition', issues: [{ path: 'supersedes', message: 'proposed → superseded is not a step of the lifecycle' }] })
    await call('POST', '/v1/decisions', decision({ key: 'D-003', supersedes: 'D-001' }))
    const accept = await call('POST', '/v1/decisions/D-003/accept', {})
    expect(accept.status).toBe(409)
    expect(accept.body.error).toMatchObject({ code: 'invalid_transition', issues: [{ path: 'supersedes' }] })
    // /supersede names the decision superseded in its path: key.
    await call('POST', '/v1/decisions', decision({ key: 'D-004' }))
    const proposal = await call('POST', '/v1/decisions/D-001/supersede', { by: 'D-004' })
    expect(proposal.status).toBe(409)
    expect(proposal.body.error).toMatchObject({ code: 'invalid_transition', issues: [{ path: 'key' }] })
    await call('POST', '/v1/decisions', decision({ key: 'D-005', status: 'accepted' }))
    const linked = await call('POST', '/v1/decisions/D-001/supersede', { by: 'D-005' })
    expect(linked.status).toBe(409)
    expect(linked.body.error).toMatchObject({ code: 'invalid_transition', issues: [{ path: 'key' }] })
    // Nothing was written: D-002 was not made, the others are as they were.
    expect((await call('GET', '/v1/decisions/D-002')).status).toBe(404)
    expect((await call('GET', '/v1/decisions/D-001')).body).toMatchObject({ status: 'proposed', superseded_by: null })
    expect((await call('GET', '/v1/decisions/D-004')).body).toMatchObject({ status: 'proposed' })
  })

  it("why of a proposal whose predecessor another decision replaced names that one in force, as the predecessor's why does", async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ key: 'D-001', status: 'accepted' }))
    await call('POST', '/v1/decisions', decision({ key: 'D-002', supersedes: 'D-001' }))
    await call('POST', '/v1/decisions', decision({ key: 'D-003', supersedes: 'D-001' }))
    await call('POST', '/v1/decisions/D-002/accept', {})
    const predecessor = (await call('GET', '/v1/decisions/D-001/why')).body
    expect([predecessor.current, predecessor.in_force]).toEqual(['D-002', 'D-002'])
    for (const status of ['proposed', 'revoked']) {
      if (status === 'revoked') await call('POST', '/v1/decisions/D-003/revoke', {})
      const stray = (await call('GET', '/v1/decisions/D-003/why')).body
      expect(stray.chain.map((l: any) => [l.key, l.status, l.supersedes])).toEqual([
        ['D-001', 'superseded', null],
        ['D-002', 'accepted', 'D-001'],
        ['D-003', status, 'D-001'],
      ])
      expect([stray.current, stray.in_force]).toEqual(['D-003', 'D-002'])
    }
  })

  it('why of an accepted decision left naming a predecessor another replaced (an import of an earlier version) reads its own chain', async () => {
    // ADR-0010 renumbered ADR-0011 before imports released the old number: ADR-0010 still names ADR-0001.
    const db = new MemoryLevel<string, string>()
    const written = await createLevelDecisionStore(db as never)
    await written.transact(async (tx) => {
      tx.put(decisionRecord('ADR-0001', { status: 'superseded', superseded_by: 'ADR-0011' }))
      tx.put(decisionRecord('ADR-0010', { supersedes: 'ADR-0001' }))
      tx.put(decisionRecord('ADR-0011', { supersedes: 'ADR-0001' }))
    })
    const { call } = await createTestApp({ db, now: '2026-07-03T10:00:00.000Z' })
    const stray = (await call('GET', '/v1/decisions/ADR-0010/why')).body
    expect(stray.chain.map((l: any) => l.key)).toEqual(['ADR-0001', 'ADR-0010'])
    expect([stray.current, stray.in_force]).toEqual(['ADR-0010', 'ADR-0010'])
  })

  it("why gives each link of the chain its own evidence and source, so why D-038 says why D-007 was chosen and why it changed", async () => {
    const { call, clock } = await createTestApp()
    const incident = { kind: 'incident', summary: 'Lost writes under load', uri: 'https://example.com/inc/7', content: 'postmortem text' }
    await call('POST', '/v1/decisions', decision({ key: 'D-007', status: 'accepted', source: 'design review 2026-03', evidence: [incident] }))
    clock.advance(DAY)
    const before = clock.now().toISOString()
    clock.advance(DAY)
    await call('POST', '/v1/decisions', decision({ key: 'D-038', supersedes: 'D-007', evidence: [{ kind: 'benchmark', summary: 'Joins 40x faster' }] }))
    await call('POST', '/v1/decisions/D-038/accept', {})
    const why = (await call('GET', '/v1/decisions/D-038/why')).body
    expect(why.chain.map((l: any) => [l.key, l.source, l.evidence])).toEqual([
      ['D-007', 'design review 2026-03', [{ kind: 'incident', summary: 'Lost writes under load', uri: 'https://example.com/inc/7', hash: expect.stringMatching(/^sha256:/) }]],
      ['D-038', null, [{ kind: 'benchmark', summary: 'Joins 40x faster', uri: null, hash: null }]],
    ])
    // The fields the answer had stay as they were: the evidence of the decision asked about.
    expect(why.evidence).toEqual(why.chain[1].evidence)
    expect((await call('GET', '/v1/decisions/D-007/why')).body.chain.map((l: any) => l.evidence.length)).toEqual([1, 1])
    // As it stood then: D-007 alone, its own evidence.
    const then = (await call('GET', `/v1/decisions/D-007/why?as_of=${before}`)).body
    expect(then.chain.map((l: any) => [l.key, l.source, l.evidence.map((e: any) => e.kind)])).toEqual([['D-007', 'design review 2026-03', ['incident']]])
  })

  it('why names the proposals open to supersede a decision of the chain, as a change pending, until they are accepted or rejected', async () => {
    const { call, clock } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ key: 'D-001', title: 'Use SQLite', status: 'accepted' }))
    expect((await call('GET', '/v1/decisions/D-001/why')).body.proposals).toEqual([])
    clock.advance(DAY)
    const proposedAt = clock.now().toISOString()
    await call('POST', '/v1/decisions', decision({ key: 'D-002', title: 'Use PostgreSQL', rationale: 'Billing needs joins.', enforce: 'required', supersedes: 'D-001' }))
    await call('POST', '/v1/decisions', decision({ key: 'D-003', title: 'Something else' }))
    const pending = (await call('GET', '/v1/decisions/D-001/why')).body
    expect(pending.chain.map((l: any) => l.key)).toEqual(['D-001'])
    expect(pending.proposals).toEqual([
      { key: 'D-002', title: 'Use PostgreSQL', enforce: 'required', date: '2026-07-02', decision: 'We do this.', rationale: 'Billing needs joins.', supersedes: 'D-001', proposed_at: proposedAt },
    ])
    // The proposal's own why has it in its chain, not among the proposals.
    expect((await call('GET', '/v1/decisions/D-002/why')).body.proposals).toEqual([])
    clock.advance(DAY)
    await call('POST', '/v1/decisions/D-002/accept', {})
    expect((await call('GET', '/v1/decisions/D-001/why')).body.proposals).toEqual([])
    // As it stood then, it was pending.
    expect((await call('GET', `/v1/decisions/D-001/why?as_of=${proposedAt}`)).body.proposals.map((p: any) => p.key)).toEqual(['D-002'])
    // One proposed to replace the newest is pending on the whole chain; rejected, it is no longer.
    await call('POST', '/v1/decisions', decision({ key: 'D-004', supersedes: 'D-002' }))
    expect((await call('GET', '/v1/decisions/D-001/why')).body.proposals.map((p: any) => [p.key, p.supersedes])).toEqual([['D-004', 'D-002']])
    await call('POST', '/v1/decisions/D-004/revoke', { reason: 'not now' })
    expect((await call('GET', '/v1/decisions/D-002/why')).body.proposals).toEqual([])
  })

  it('says of a proposal pending on a link stored oddly by a version before that accepting it is refused, as it is', async () => {
    // An accepted decision linked to a replacement, and a superseded one linked to none: links a version before this stored.
    const db = new MemoryLevel<string, string>()
    const written = await createLevelDecisionStore(db as never)
    await written.transact(async (tx) => {
      tx.put(decisionRecord('D-A', { status: 'accepted', superseded_by: 'D-B' }))
      tx.put(decisionRecord('D-B', { status: 'accepted', supersedes: 'D-A' }))
      tx.put(decisionRecord('D-X', { status: 'superseded', superseded_by: null }))
    })
    const { call } = await createTestApp({ db })
    for (const [key, link, warning] of [
      ['D-C', 'D-A', 'accepting it is refused: D-A is superseded by D-B already'],
      ['D-Y', 'D-X', 'accepting it is refused: D-X is superseded already'],
    ]) {
      expect((await call('POST', '/v1/decisions', decision({ key, supersedes: link }))).status).toBe(201)
      expect((await call('GET', `/v1/decisions/${link}/why`)).body.proposals.map((p: any) => [p.key, p.warning])).toEqual([[key, warning]])
      expect((await call('POST', `/v1/decisions/${key}/accept`, {})).status).toBe(409)
    }
  })

  it('says of a proposal pending whose link was replaced, is proposed or revoked what accepting it would do, as of each moment', async () => {
    const { call, clock } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ key: 'D-001', status: 'accepted' }))
    clock.advance(DAY)
    await call('POST', '/v1/decisions', decision({ key: 'D-002', supersedes: 'D-001' }))
    await call('POST', '/v1/decisions', decision({ key: 'D-003', supersedes: 'D-001' }))
    await call('POST', '/v1/decisions', decision({ key: 'D-004', supersedes: 'D-002' }))
    const bothOpen = clock.now().toISOString()
    const warnings = async (key: string, asOf?: string) =>
      (await call('GET', `/v1/decisions/${key}/why${asOf === undefined ? '' : `?as_of=${asOf}`}`)).body.proposals.map((p: any) => [p.key, p.warning ?? null])
    // D-002 is itself only proposed: D-004 cannot be accepted before it (409 invalid_transition).
    expect(await warnings('D-002')).toEqual([
      ['D-003', null],
      ['D-004', 'accepting it is refused while D-002 is proposed: accept D-002 first'],
    ])
    expect((await call('POST', '/v1/decisions/D-004/accept', {})).status).toBe(409)
    clock.advance(DAY)
    await call('POST', '/v1/decisions/D-002/accept', {})
    // D-001 was replaced by D-002: D-003, still listed (someone would change it), cannot be accepted (409 already_superseded).
    expect(await warnings('D-002')).toEqual([
      ['D-003', 'accepting it is refused: D-001 is superseded by D-002 already'],
      ['D-004', null],
    ])
    expect((await call('POST', '/v1/decisions/D-003/accept', {})).status).toBe(409)
    // As it stood then, both were open to acceptance.
    expect(await warnings('D-001', bothOpen)).toEqual([
      ['D-002', null],
      ['D-003', null],
    ])
    clock.advance(DAY)
    await call('POST', '/v1/decisions/D-002/revoke', { reason: 'not after all' })
    // Revoked, D-002 is replaced by nothing: D-004 accepted holds on its own, and leaves this chain.
    expect(await warnings('D-002')).toEqual([
      ['D-003', 'accepting it is refused: D-001 is superseded by D-002 already'],
      ['D-004', 'accepted, it supersedes nothing: D-002 is revoked'],
    ])
    expect((await call('POST', '/v1/decisions/D-004/accept', {})).status).toBe(200)
    expect((await call('GET', '/v1/decisions/D-002/why')).body.chain.map((l: any) => l.key)).toEqual(['D-001', 'D-002'])
  })

  it('refuses a proposal that names itself as what it supersedes, as /supersede does, not as a key not found', async () => {
    const { call } = await createTestApp()
    for (const status of ['proposed', 'accepted']) {
      const refused = await call('POST', '/v1/decisions', decision({ key: 'S-1', supersedes: 'S-1', status }))
      expect(refused.status).toBe(400)
      expect(refused.body.error).toMatchObject({ code: 'invalid_decision', issues: [{ path: 'supersedes', message: 'name another decision' }] })
    }
    expect((await call('GET', '/v1/decisions/S-1')).status).toBe(404)
  })

  it('accepts a proposal whose predecessor was revoked meanwhile, leaving the revoked one as it is; /supersede of a revoked one stays a 409', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ key: 'D-001', status: 'accepted' }))
    expect((await call('POST', '/v1/decisions', decision({ key: 'D-002', supersedes: 'D-001' }))).status).toBe(201)
    await call('POST', '/v1/decisions/D-001/revoke', { reason: 'the vendor went away' })

    const accepted = await call('POST', '/v1/decisions/D-002/accept')
    expect(accepted.status).toBe(200)
    expect(accepted.body).toMatchObject({ status: 'accepted', supersedes: 'D-001' })
    expect(accepted.body.events.at(-1)).toMatchObject({ type: 'accepted', from: 'proposed', to: 'accepted' })
    expect(accepted.body.events.at(-1).supersedes).toBeUndefined()
    const old = (await call('GET', '/v1/decisions/D-001')).body
    expect(old).toMatchObject({ status: 'revoked', superseded_by: null })
    expect(old.events.map((e: any) => e.type)).toEqual(['proposed', 'accepted', 'revoked'])
    expect((await call('GET', '/v1/decisions/applicable')).body.decisions.map((d: any) => d.key)).toEqual(['D-002'])
    const why = (await call('GET', '/v1/decisions/D-002/why')).body
    expect(why.chain.map((l: any) => [l.key, l.status])).toEqual([['D-001', 'revoked'], ['D-002', 'accepted']])

    // Accepted at creation, the same.
    const atOnce = await call('POST', '/v1/decisions', decision({ key: 'D-003', supersedes: 'D-001', status: 'accepted' }))
    expect(atOnce.status).toBe(201)
    expect(atOnce.body.status).toBe('accepted')

    // Asked by name to supersede the revoked decision: that step does not exist.
    await call('POST', '/v1/decisions', decision({ key: 'D-004' }))
    const refused = await call('POST', '/v1/decisions/D-001/supersede', { by: 'D-004' })
    expect(refused.status).toBe(409)
    expect(refused.body.error.code).toBe('invalid_transition')
    expect((await call('GET', '/v1/decisions/D-004')).body.status).toBe('proposed')
  })

  it('deprecates and revokes, and refuses steps the lifecycle does not have with a 409', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ status: 'accepted' }))
    const deprecated = await call('POST', '/v1/decisions/D-001/deprecate', { reason: 'the partner left' })
    expect(deprecated.body.status).toBe('deprecated')
    const revoked = await call('POST', '/v1/decisions/D-001/revoke')
    expect(revoked.status).toBe(200)
    expect(revoked.body.events.map((e: any) => e.to)).toEqual(['proposed', 'accepted', 'deprecated', 'revoked'])
    const refused = await call('POST', '/v1/decisions/D-001/accept')
    expect(refused.status).toBe(409)
    expect(refused.body.error.code).toBe('invalid_transition')
    expect(refused.body.error.message).toContain('revoked is final')
  })

  it('tells a date, key, limit or path sent as another JSON type what it takes, as its other refusals do, and stores nothing', async () => {
    const { call } = await createTestApp()
    const form = 'a date YYYY-MM-DD (or an ISO time, such as 2026-01-01T10:00:00Z)'
    const key = 'letters, digits, ".", "_" and "-", starting with a letter or digit'
    const range = 'a number from -9007199254740991 to 9007199254740991 (2^53 - 1)'
    const cases: Array<[Record<string, unknown>, string, string]> = [
      // A null date, key or limit value is one left out (null-fields.test.ts).
      [{ date: 20260101 }, 'date', `${form}, not a number`],
      [{ date: true }, 'date', `${form}, not a boolean`],
      [{ date: ['2026-01-01'] }, 'date', `${form}, not an array`],
      [{ date: { day: '2026-01-01' } }, 'date', `${form}, not an object`],
      [{ key: 7 }, 'key', `${key}, not a number`],
      [{ supersedes: 1 }, 'supersedes', `${key}, not a number`],
      [{ constraints: [{ kind: 'limit', value: '5' }] }, 'constraints.0.value', `${range}, not a string`],
      [{ scope: { path: 7 } }, 'scope.path', 'a path prefix such as src/billing, not a number'],
    ]
    for (const [extra, path, message] of cases) {
      const refused = await call('POST', '/v1/decisions', decision(extra))
      expect([extra, refused.status, refused.body.error?.issues]).toEqual([extra, 400, [{ path, message }]])
    }
    await call('POST', '/v1/decisions', decision({ key: 'D-1', status: 'accepted' }))
    for (const [by, message] of [[null, `${key}, not null`], [1, `${key}, not a number`]] as const) {
      const refused = await call('POST', '/v1/decisions/D-1/supersede', { by })
      expect([by, refused.status, refused.body.error?.issues]).toEqual([by, 400, [{ path: 'by', message }]])
    }
    // The other refusals of these fields keep their words; one left out is said missing.
    expect((await call('POST', '/v1/decisions', decision({ date: 'yesterday' }))).body.error.issues).toEqual([{ path: 'date', message: form }])
    expect((await call('POST', '/v1/decisions', decision({ key: '-x' }))).body.error.issues).toEqual([{ path: 'key', message: key }])
    expect((await call('POST', '/v1/decisions', decision({ constraints: [{ kind: 'limit', value: 1e300 }] }))).body.error.issues).toEqual([
      { path: 'constraints.0.value', message: `${range}, within which the numbers of choices compare exactly` },
    ])
    expect((await call('POST', '/v1/decisions/D-1/supersede', {})).body.error.issues).toEqual([{ path: 'by', message: 'missing: expected string' }])
    expect((await call('GET', '/v1/decisions')).body.decisions.map((d: any) => d.key)).toEqual(['D-1'])
  })

  it('tells an empty key, supersedes or by once that it is empty, with what a key is made of', async () => {
    const { call } = await createTestApp()
    const empty = 'must not be empty: letters, digits, ".", "_" and "-", starting with a letter or digit'
    for (const field of ['key', 'supersedes']) {
      const refused = await call('POST', '/v1/decisions', decision({ [field]: '' }))
      expect([field, refused.status, refused.body.error?.issues]).toEqual([field, 400, [{ path: field, message: empty }]])
    }
    await call('POST', '/v1/decisions', decision({ key: 'D-1', status: 'accepted' }))
    const by = await call('POST', '/v1/decisions/D-1/supersede', { by: '' })
    expect([by.status, by.body.error?.issues]).toEqual([400, [{ path: 'by', message: empty }]])
    expect((await call('GET', '/v1/decisions')).body.decisions.map((d: any) => [d.key, d.status])).toEqual([['D-1', 'accepted']])
  })

  it('answers bad input with a 4xx naming the field', async () => {
    const { call } = await createTestApp()
    const missing = await call('POST', '/v1/decisions', { title: 'x', decision: 'y' })
    expect(missing.status).toBe(400)
    expect(missing.body.error.issues.map((i: any) => i.path)).toContain('rationale')
    const pattern = await call('POST', '/v1/decisions', decision({ constraints: [{ kind: 'must_not', pattern: '(' }] }))
    expect(pattern.status).toBe(400)
    expect(pattern.body.error).toMatchObject({ code: 'invalid_decision', issues: [{ path: 'constraints.0.pattern' }] })
    // The engine's reason once, not its "Invalid regular expression: /(/: " that repeats the pattern.
    expect(pattern.body.error.issues[0].message).toBe('not a valid regular expression (Unterminated group): (')
    const reserved = await call('POST', '/v1/decisions', decision({ key: 'applicable' }))
    expect(reserved.status).toBe(400)
    expect(reserved.body.error.issues[0].path).toBe('key')
    const badDate = await call('POST', '/v1/decisions', decision({ date: '2026-02-30' }))
    expect(badDate.body.error.issues).toEqual([{ path: 'date', message: 'not a calendar date' }])
    // A date not written as one is told the form it takes, once: not also "not a calendar date".
    const form = 'a date YYYY-MM-DD (or an ISO time, such as 2026-01-01T10:00:00Z)'
    for (const date of ['yesterday', '01/02/2026', '']) {
      const notADay = await call('POST', '/v1/decisions', decision({ date }))
      expect([date, notADay.body.error.issues]).toEqual([date, [{ path: 'date', message: form }]])
    }
    await call('POST', '/v1/decisions', decision({ key: 'D-007' }))
    const taken = await call('POST', '/v1/decisions', decision({ key: 'D-007' }))
    expect(taken.status).toBe(409)
    expect(taken.body.error.code).toBe('decision_exists')
    const next = await call('POST', '/v1/decisions', decision({}))
    expect(next.body.key).toBe('D-008')
    const unknown = await call('POST', '/v1/decisions', decision({ supersedes: 'D-404' }))
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.issues[0].path).toBe('supersedes')
    expect((await call('GET', '/v1/decisions/D-404')).status).toBe(404)
    expect((await call('POST', '/v1/decisions/D-404/revoke')).body.error.code).toBe('decision_not_found')
    expect((await call('GET', '/v1/decisions/bad%20key')).status).toBe(400)
    // What follows the day is an ISO time or refused, not cut off without a word.
    for (const date of ['2026-01-01Tgarbage', '2026-01-01T25:00:00Z', '2026-01-01T10:00:00Zjunk']) {
      const cut = await call('POST', '/v1/decisions', decision({ date }))
      expect([date, cut.status, cut.body.error?.issues[0]?.path]).toEqual([date, 400, 'date'])
    }
    for (const [date, key] of [['2026-01-01T10:00:00Z', 'D-101'], ['2026-01-01T10:00+02:00', 'D-102'], ['2026-01-01T10:00:00.123-0500', 'D-103']]) {
      const taken = await call('POST', '/v1/decisions', decision({ date, key }))
      expect([date, taken.status, taken.body.date]).toEqual([date, 201, '2026-01-01'])
    }
  })

  it('refuses a must_not pattern that as written meets no command, naming constraints.N.pattern; one that can meet a command is taken', async () => {
    const { call } = await createTestApp()
    const refused: Array<[string, string]> = [
      // JSON's "\b" is a backspace, not a word boundary: the pattern met no command.
      ['\bgit push --force', 'holds a backspace (U+0008)'],
      ['/git push --force/i', 'written as a JavaScript regular expression literal'],
      ['\\Agit push --force', '\\A is read as the letter A'],
      ['git push --force\\Z', '\\Z is read as the letter Z'],
      ['\\<rm\\> -rf', '\\< is read as the character <'],
    ]
    for (const [pattern, message] of refused) {
      const res = await call('POST', '/v1/decisions', decision({ enforce: 'required', status: 'accepted', constraints: [{ kind: 'must_not', pattern }] }))
      expect([pattern, res.status]).toEqual([pattern, 400])
      expect(res.body.error.issues, pattern).toEqual([{ path: 'constraints.0.pattern', message: expect.stringContaining(message) }])
    }
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual([])

    // Each of these meets a command: a path between slashes, escaped punctuation, a way round an escape.
    for (const [pattern, action] of [
      ['\\bgit push --force\\b', 'git push --force'],
      ['/etc/passwd', 'cat /etc/passwd'],
      ['^rm -rf /$', 'rm -rf /'],
      ['x =\\> y', 'x => y'],
      ['^git push --force|\\Agit push -f', 'git push --force'],
    ]) {
      const made = await call('POST', '/v1/decisions', decision({ enforce: 'required', status: 'accepted', constraints: [{ kind: 'must_not', pattern }] }))
      expect([pattern, made.status]).toEqual([pattern, 201])
      const check = await call('POST', '/v1/decisions/check', { action })
      expect([pattern, check.body.blocked_by.map((b: any) => b.key)]).toEqual([pattern, [made.body.key]])
      await call('POST', `/v1/decisions/${made.body.key}/revoke`)
    }
  })

  it("refuses a limit past 2^53 - 1 either side of 0, naming its value, and reads -0 as the limit 0 it is", async () => {
    const { call } = await createTestApp()
    const bound = 'a number from -9007199254740991 to 9007199254740991 (2^53 - 1), within which the numbers of choices compare exactly'
    for (const value of ['1e308', '-1e308', '9007199254740992']) {
      const far = await call('POST', '/v1/decisions', `{"title":"A","decision":"x","rationale":"y","constraints":[{"kind":"limit","value":${value}}]}`)
      expect([value, far.status, far.body.error.issues]).toEqual([value, 400, [{ path: 'constraints.0.value', message: bound }]])
    }
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual([])
    for (const [value, key] of [['9007199254740991', 'D-501'], ['-9007199254740991', 'D-502'], ['-0', 'D-503'], ['2.5', 'D-504']] as const) {
      const near = await call('POST', '/v1/decisions', `{"key":"${key}","title":"A","decision":"x","rationale":"y","constraints":[{"kind":"limit","value":${value}}]}`)
      expect([value, near.status, near.body.constraints]).toEqual([value, 201, [{ kind: 'limit', value: Number(value) === 0 ? 0 : Number(value) }]])
    }
  })

  it('tells a field of a few values what it takes and what was sent, of any type, and a key over 120 characters how long it was', async () => {
    const { call } = await createTestApp()
    // zod said `Invalid option: expected one of "required"|"advisory"` alike for "must" and for 5,
    // and `Too big: expected string to have <=120 characters` of a key, naming neither.
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ enforce: 'must' }, 'enforce', 'one of "required", "advisory", not "must"'],
      [{ enforce: 5 }, 'enforce', 'one of "required", "advisory", not a number'],
      [{ status: 'superseded' }, 'status', 'one of "proposed", "accepted", not "superseded"'],
      [{ constraints: [{ kind: 'should', option: 'pg' }] }, 'constraints.0.kind', 'one of "must", "must_not", "prefer", "limit", not "should"'],
      [{ constraints: [{ kind: ['must'], option: 'pg' }] }, 'constraints.0.kind', 'one of "must", "must_not", "prefer", "limit", not an array'],
      [{ key: `D-${'1'.repeat(129)}` }, 'key', 'at most 120 characters, not 131'],
      [{ enforce: 'x'.repeat(150) }, 'enforce', `one of "required", "advisory", not "${'x'.repeat(100)}…" (150 characters)`],
      // Quoted with a direction mark or a line separator escaped: the first looked like "required", the second broke the log line.
      [{ enforce: 'required\u200f' }, 'enforce', 'one of "required", "advisory", not "required\\u200f"'],
      [{ enforce: 'must\u2028advisory' }, 'enforce', 'one of "required", "advisory", not "must\\u2028advisory"'],
    ]
    for (const [extra, path, message] of cases) {
      const refused = await call('POST', '/v1/decisions', decision(extra))
      expect([extra, refused.status, refused.body.error?.issues]).toEqual([extra, 400, [{ path, message }]])
    }
    // A key of 120 characters is taken, as before.
    expect((await call('POST', '/v1/decisions', decision({ key: `D-${'1'.repeat(118)}` }))).status).toBe(201)
    const listed = await call('GET', '/v1/decisions?status=done')
    expect([listed.status, listed.body.error?.issues]).toEqual([400, [{ path: 'status', message: 'one of "proposed", "accepted", "superseded", "deprecated", "revoked", not "done"' }]])
    const record = { key: 'ADR-0001', title: 'Use X', decision: 'X.', rationale: 'Y.', status: 'accepted', date: null, origin: { path: 'doc/adr/0001-use-x.md', line: 1, format: 'adr-tools' } }
    const imports: Array<[Record<string, unknown>, string, string]> = [
      [{ enforce: 'strict' }, 'records.0.enforce', 'one of "required", "advisory", not "strict"'],
      [{ status: true }, 'records.0.status', 'one of "proposed", "accepted", "superseded", "deprecated", "revoked", not a boolean'],
      [{ origin: { ...record.origin, format: 'nygard' } }, 'records.0.origin.format', 'one of "adr-tools", "madr", "log4brains", "decisions-md", "axme-code", not "nygard"'],
    ]
    for (const [extra, path, message] of imports) {
      const refused = await call('POST', '/v1/decisions/import', { records: [{ ...record, ...extra }] })
      expect([extra, refused.status, refused.body.error?.issues]).toEqual([extra, 400, [{ path, message }]])
    }
    // One left out is still said missing.
    const { kind: _kind, ...kindless } = { kind: 'must', option: 'pg' }
    expect((await call('POST', '/v1/decisions', decision({ constraints: [kindless] }))).body.error.issues).toEqual([
      { path: 'constraints.0.kind', message: 'missing: one of "must", "must_not", "prefer", "limit"' },
    ])
    expect((await call('GET', '/v1/decisions')).body.decisions.map((d: any) => d.key)).toEqual([`D-${'1'.repeat(118)}`])
  })

  it('tells a text or a list over its limit the limit and how long it was, and stores nothing', async () => {
    const { call } = await createTestApp()
    // zod said `Too big: expected string to have <=300 characters` and `Too big: expected array to
    // have <=50 items`, naming neither what was sent.
    const constraint = { kind: 'must', option: 'pg' }
    const evidence = { kind: 'doc', summary: 'S.' }
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ title: 't'.repeat(412) }, 'title', 'at most 300 characters, not 412'],
      [{ decision: 'd'.repeat(8001) }, 'decision', 'at most 8000 characters, not 8001'],
      [{ rationale: '😀'.repeat(8002) }, 'rationale', 'at most 8000 characters, not 8002'],
      [{ source: 's'.repeat(501) }, 'source', 'at most 500 characters, not 501'],
      [{ source: '' }, 'source', 'must not be empty'],
      [{ constraints: Array.from({ length: 51 }, () => constraint) }, 'constraints', 'at most 50 constraints, not 51'],
      [{ evidence: Array.from({ length: 52 }, () => evidence) }, 'evidence', 'at most 50 pieces of evidence, not 52'],
      [{ evidence: [{ ...evidence, kind: 'k'.repeat(51) }] }, 'evidence.0.kind', 'at most 50 characters, not 51'],
      [{ scope: { points: Array.from({ length: 51 }, (_, i) => `p${i}`) } }, 'scope.points', 'at most 50 points, not 51'],
      [{ scope: { path: 'p'.repeat(1001) } }, 'scope.path', 'at most 1000 characters, not 1001'],
    ]
    for (const [extra, path, message] of cases) {
      const refused = await call('POST', '/v1/decisions', decision(extra))
      expect([path, refused.status, refused.body.error?.issues]).toEqual([path, 400, [{ path, message }]])
    }
    // At the limits they are taken, as before.
    const full = { title: 't'.repeat(300), source: 's'.repeat(500), constraints: Array.from({ length: 50 }, (_, i) => ({ kind: 'must_not', option: `o${i}` })), scope: { points: ['db'] } }
    const taken = await call('POST', '/v1/decisions', decision(full))
    expect([taken.status, taken.body.error]).toEqual([201, undefined])
    expect((await call('GET', '/v1/decisions')).body.decisions).toHaveLength(1)
  })

  it('refuses a date before 1970 or after the service\'s tomorrow, naming date and the days it may be', async () => {
    const { call } = await createTestApp()
    for (const date of ['0000-01-01', '0000-01-01T00:00:00Z', '1969-12-31T23:59:59Z']) {
      const early = await call('POST', '/v1/decisions', decision({ date }))
      expect([date, early.status, early.body.error?.issues]).toEqual([date, 400, [{ path: 'date', message: 'a day from 1970-01-01 on, the day it was decided' }]])
    }
    // START is 2026-07-01: a day written where it is already the 2nd is taken, the 3rd is not.
    const late = 'a day from 1970-01-01 to 2026-07-02, the day it was decided: it is after the service\'s today (2026-07-01)'
    for (const date of ['9999-12-31T23:59:59Z', '2026-07-03']) {
      const future = await call('POST', '/v1/decisions', decision({ date }))
      expect([date, future.status, future.body.error?.issues]).toEqual([date, 400, [{ path: 'date', message: late }]])
    }
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual([])
    for (const [date, key] of [['1970-01-01', 'D-601'], ['2026-07-02T09:00:00+14:00', 'D-602']] as const) {
      const taken = await call('POST', '/v1/decisions', decision({ date, key }))
      expect([date, taken.status, taken.body.date]).toEqual([date, 201, date.slice(0, 10)])
    }
    // An import names the record's date, as the CLI never sends one before 1970 (it reads it as unread).
    const record = { key: 'ADR-0001', title: 'Use X', decision: 'X.', rationale: 'Y.', status: 'accepted', date: '0202-05-05', origin: { path: 'doc/adr/0001-use-x.md', line: 1, format: 'adr-tools' } }
    const imported = await call('POST', '/v1/decisions/import', { records: [record] })
    expect([imported.status, imported.body.error?.issues]).toEqual([400, [{ path: 'records.0.date', message: 'a day from 1970-01-01 on, the day it was decided' }]])
  })

  it('says an import record left without a date takes a string or null, as null says the record has none', async () => {
    const { call } = await createTestApp()
    const { date: _date, ...undated } = { key: 'ADR-0001', title: 'Use X', decision: 'X.', rationale: 'Y.', status: 'accepted', date: null, origin: { path: 'doc/adr/0001-use-x.md', line: 1, format: 'adr-tools' } }
    const missing = await call('POST', '/v1/decisions/import', { records: [undated] })
    expect([missing.status, missing.body.error?.issues]).toEqual([400, [{ path: 'records.0.date', message: 'missing: expected string or null' }]])
    const wrong = await call('POST', '/v1/decisions/import', { records: [{ ...undated, date: 20260101 }] })
    expect(wrong.body.error?.issues).toEqual([
      { path: 'records.0.date', message: 'a date YYYY-MM-DD (or an ISO time, such as 2026-01-01T10:00:00Z), or null when the record says none, not a number' },
    ])
    // A day written wrong is still told its form, not its type.
    const unread = await call('POST', '/v1/decisions/import', { records: [{ ...undated, date: 'yesterday' }] })
    expect(unread.body.error?.issues).toEqual([{ path: 'records.0.date', message: expect.stringContaining('a date YYYY-MM-DD') }])
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual([])
    const taken = await call('POST', '/v1/decisions/import', { records: [{ ...undated, date: null }] })
    expect([taken.status, taken.body.created]).toEqual([200, ['ADR-0001']])
  })

  it("refuses an import of a record dated after the service's tomorrow, naming records.N.date, and stores none of it", async () => {
    const { call } = await createTestApp()
    const record = (key: string, date: string) => ({ key, title: 'Use X', decision: 'X.', rationale: 'Y.', status: 'accepted', date, origin: { path: `doc/adr/${key}.md`, line: 1, format: 'adr-tools' } })
    // START is 2026-07-01: the 2nd is taken, as the POST takes it; 2099 and 9999 would sort after every later decision.
    const imported = await call('POST', '/v1/decisions/import', { records: [record('ADR-0001', '2026-07-02'), record('ADR-0002', '9999-12-31'), record('ADR-0003', '2099-01-01')] })
    const range = (day: string) => `a day from 1970-01-01 to 2026-07-02, the day it was decided: ${day} is after the service's today (2026-07-01)`
    expect([imported.status, imported.body.error?.code, imported.body.error?.issues]).toEqual([
      400,
      'invalid_request',
      [
        { path: 'records.1.date', message: range('9999-12-31') },
        { path: 'records.2.date', message: range('2099-01-01') },
      ],
    ])
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual([])
    const taken = await call('POST', '/v1/decisions/import', { records: [record('ADR-0001', '2026-07-02')] })
    expect([taken.status, taken.body.created, (await call('GET', '/v1/decisions/ADR-0001')).body.date]).toEqual([200, ['ADR-0001'], '2026-07-02'])
  })

  it('refuses a field no decision has, at any level, naming each; a field a GET returns is taken back and ignored', async () => {
    const { call } = await createTestApp()
    const misspelt = await call(
      'POST',
      '/v1/decisions',
      decision({
        enforced: 'required',
        scope: { point: ['deploy-target'] },
        constraints: [{ kind: 'must_not', patern: 'git push --force' }],
        evidence: [{ kind: 'incident', summary: 'lost work', url: 'https://example.com' }],
      }),
    )
    expect(misspelt.status).toBe(400)
    expect(misspelt.body.error.issues).toEqual([
      { path: 'scope.point', message: 'unknown field' },
      { path: 'constraints.0.patern', message: 'unknown field' },
      { path: 'evidence.0.url', message: 'unknown field' },
      { path: 'enforced', message: 'unknown field' },
    ])
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual([])
    // A field named by the empty string is named too, quoted, never taken for the body itself.
    const blank = await call('POST', '/v1/decisions', decision({ '': 1, scope: { points: [], '': 'x' } }))
    expect(blank.status).toBe(400)
    expect(blank.body.error.issues).toEqual([
      { path: 'scope.""', message: 'unknown field' },
      { path: '""', message: 'unknown field' },
    ])
    expect(blank.body.error.message).toBe('invalid request: scope."", ""')

    const created = await call(
      'POST',
      '/v1/decisions',
      decision({ source: 'review', scope: { points: ['deploy-target'] }, evidence: [{ kind: 'incident', summary: 'lost work' }] }),
    )
    // Posted back as read, under a new key: what a GET adds (version, events, timestamps) is ignored,
    // and the nulls it gives for what is absent (supersedes, an evidence's uri and hash) stay absent.
    const read = (await call('GET', `/v1/decisions/${created.body.key}`)).body
    expect(read).toMatchObject({ version: 1, supersedes: null, superseded_by: null, imported: null, events: [{ type: 'proposed' }] })
    expect(read.evidence).toEqual([{ kind: 'incident', summary: 'lost work', uri: null, hash: null }])
    const copy = await call('POST', '/v1/decisions', { ...read, key: 'D-100', version: 7, created_at: 'then' })
    expect(copy.status).toBe(201)
    expect(copy.body).toMatchObject({
      key: 'D-100',
      version: 1,
      title: 'A decision',
      source: 'review',
      supersedes: null,
      scope: { points: ['deploy-target'] },
      evidence: [{ kind: 'incident', summary: 'lost work', uri: null, hash: null }],
    })
    expect(copy.body.events).toHaveLength(1)
    const sourceless = await call('POST', '/v1/decisions', { ...read, key: 'D-102', source: null })
    expect(sourceless.status).toBe(201)
    expect(sourceless.body).toMatchObject({ key: 'D-102', source: null, supersedes: null })
    const extra = await call('POST', '/v1/decisions', { ...read, key: 'D-101', histroy: [] })
    expect(extra.body.error.issues).toEqual([{ path: 'histroy', message: 'unknown field' }])
  })

  it('refuses a field a lifecycle step, a supersede or a check does not have, naming it', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ key: 'D-001' }))
    await call('POST', '/v1/decisions', decision({ key: 'D-002' }))
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/v1/decisions/D-001/accept', { reson: 'agreed' }, 'reson'],
      ['/v1/decisions/D-001/supersede', { by: 'D-002', because: 'better' }, 'because'],
      ['/v1/decisions/check', { action: 'git push --force', pth: '/srv/app' }, 'pth'],
    ]
    for (const [path, body, field] of cases) {
      const r = await call('POST', path, body)
      expect(r.status, path).toBe(400)
      expect(r.body.error.issues, path).toEqual([{ path: field, message: 'unknown field' }])
    }
    expect((await call('GET', '/v1/decisions/D-001')).body.status).toBe('proposed')
  })

  it('lists decisions by status and point', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ status: 'accepted', scope: { points: ['complexity-tier'] } }))
    await call('POST', '/v1/decisions', decision({ scope: { points: ['model-selection'] } }))
    expect((await call('GET', '/v1/decisions')).body.decisions.map((d: any) => d.key)).toEqual(['D-001', 'D-002'])
    expect((await call('GET', '/v1/decisions?status=accepted')).body.decisions.map((d: any) => d.key)).toEqual(['D-001'])
    expect((await call('GET', '/v1/decisions?point=model-selection')).body.decisions.map((d: any) => d.key)).toEqual(['D-002'])
    expect((await call('GET', '/v1/decisions?status=maybe')).status).toBe(400)
  })
})

describe("the decision record of seed 000, sent as its author wrote it (id, reasoning, supersedes: null)", () => {
  // seeds/000, lines 57-72, converted from YAML to JSON as a client would: the folded texts keep their last line feed.
  const SEED_D021 = {
    id: 'D-021',
    title: 'Never force push to protected branches',
    enforce: 'required',
    decision:
      'Agent must never run git push --force, git push --force-with-lease, or any variant with explicit or implicit force semantics on main, develop, or release branches.\n',
    reasoning:
      'Force push has lost us work twice, both times under pressure from real or perceived urgency. A pre-tool-use hook blocks the command at enforcement time. The hook is the only layer that matters, prompts alone have been overridden.\n',
    date: '2025-10-03',
    source: 'session-0f8c4a',
    supersedes: null,
  }

  it('takes the record as the seed prints it: id as its key, reasoning as its rationale; the answer and every read give the canonical names', async () => {
    const { call } = await createTestApp()
    const made = await call('POST', '/v1/decisions', SEED_D021)
    expect(made.status).toBe(201)
    const canonical = {
      key: 'D-021',
      title: 'Never force push to protected branches',
      decision: SEED_D021.decision.trim(),
      rationale: SEED_D021.reasoning.trim(),
      enforce: 'required',
      status: 'proposed',
      date: '2025-10-03',
      source: 'session-0f8c4a',
      supersedes: null,
      superseded_by: null,
    }
    expect(made.body).toMatchObject(canonical)
    const read = (await call('GET', '/v1/decisions/D-021')).body
    const listed = (await call('GET', '/v1/decisions')).body.decisions
    expect(listed).toHaveLength(1)
    for (const answer of [made.body, read, listed[0]]) {
      expect(answer).toMatchObject(canonical)
      expect(answer).not.toHaveProperty('id')
      expect(answer).not.toHaveProperty('reasoning')
    }
    // Sent again, the key is taken, as it would be under `key`, and named as the client named it.
    const again = await call('POST', '/v1/decisions', SEED_D021)
    expect([again.status, again.body.error.code, again.body.error.issues]).toEqual([409, 'decision_exists', [{ path: 'id', message: 'D-021 is taken; leave id out to get a new one' }]])
  })

  it('takes id beside key and reasoning beside rationale when they say the same; refuses them differing, naming the seed name, and stores nothing', async () => {
    const { call } = await createTestApp()
    const both = await call('POST', '/v1/decisions', { ...SEED_D021, key: 'D-021', rationale: ` ${SEED_D021.reasoning.trim()} ` })
    expect(both.status).toBe(201)
    expect(both.body).toMatchObject({ key: 'D-021', rationale: SEED_D021.reasoning.trim() })

    const differing = await call('POST', '/v1/decisions', { ...SEED_D021, id: 'D-022', key: 'D-023', rationale: 'Another reason.' })
    expect(differing.status).toBe(400)
    expect(differing.body.error.issues).toEqual([
      { path: 'id', message: 'differs from key: give one of the two' },
      { path: 'reasoning', message: 'differs from rationale: give one of the two' },
    ])
    expect((await call('GET', '/v1/decisions')).body.decisions.map((d: any) => d.key)).toEqual(['D-021'])
  })

  it("records the seed's record proposed, as any sent without a status, and in force with status accepted; refuses an AXME Code file's other fields", async () => {
    const { call } = await createTestApp()
    expect((await call('POST', '/v1/decisions', SEED_D021)).body.status).toBe('proposed')
    const accepted = await call('POST', '/v1/decisions', { ...SEED_D021, id: 'D-022', status: 'accepted' })
    expect([accepted.status, accepted.body.status]).toEqual([201, 'accepted'])
    // AXME Code's decision file writes these too (see adr/axme-code.ts), which import-adr reads; the route does not take them.
    const file = await call('POST', '/v1/decisions', { ...SEED_D021, id: 'D-023', slug: 'never-force-push', sessionId: 's-1', status: 'active' })
    expect(file.status).toBe(400)
    expect(file.body.error.issues.map((i: any) => i.path).sort()).toEqual(['sessionId', 'slug', 'status'])
  })

  it('names the field a seed name was sent wrong under, and rationale when neither it nor reasoning is given', async () => {
    const { call } = await createTestApp()
    const { reasoning: _reasoning, ...unreasoned } = SEED_D021
    const missing = await call('POST', '/v1/decisions', unreasoned)
    expect([missing.status, missing.body.error.issues]).toEqual([400, [{ path: 'rationale', message: 'missing: expected string (or reasoning, as AXME Code names it)' }]])
    // A body that is no object is told so alone, not also that a field of it is missing.
    const array = await call('POST', '/v1/decisions', [SEED_D021])
    expect(array.body.error.issues).toEqual([{ path: '(body)', message: 'Invalid input: expected object, received array' }])
    const wrong = await call('POST', '/v1/decisions', { ...SEED_D021, id: 'bad key', reasoning: 5 })
    expect(wrong.status).toBe(400)
    expect(wrong.body.error.issues.map((i: any) => i.path).sort()).toEqual(['id', 'reasoning'])
    const blank = await call('POST', '/v1/decisions', { ...SEED_D021, reasoning: '   ' })
    expect(blank.body.error.issues.map((i: any) => i.path)).toEqual(['reasoning'])
    // A name refused is said so alone, not also to differ from the other.
    const blankBeside = await call('POST', '/v1/decisions', { ...SEED_D021, rationale: '' })
    expect(blankBeside.body.error.issues).toEqual([{ path: 'rationale', message: 'must not be empty or white space alone' }])
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual([])
  })

  it("D-007 (use SQLite) superseded by D-038 (migrate to Postgres), both sent under the seed's names: the chain, its rationales and dates", async () => {
    const { call, clock } = await createTestApp()
    const d007 = { ...SEED_D021, id: 'D-007', title: 'Use SQLite', enforce: 'advisory', decision: 'The service stores its data in SQLite.\n', reasoning: 'One host, no server to run.\n', date: '2025-03-01', source: 'session-3' }
    expect((await call('POST', '/v1/decisions', d007)).status).toBe(201)
    expect((await call('POST', '/v1/decisions/D-007/accept', {})).status).toBe(200)
    clock.advance(DAY)
    const d038 = { ...d007, id: 'D-038', title: 'Migrate to Postgres', decision: 'The service stores its data in PostgreSQL.\n', reasoning: 'Billing needs joins across tenants.\n', date: '2026-06-30', source: 'session-47', supersedes: 'D-007' }
    const proposed = await call('POST', '/v1/decisions', d038)
    expect(proposed.status).toBe(201)
    expect(proposed.body).toMatchObject({ key: 'D-038', supersedes: 'D-007', rationale: 'Billing needs joins across tenants.' })
    expect((await call('POST', '/v1/decisions/D-038/accept', {})).status).toBe(200)
    expect((await call('GET', '/v1/decisions/D-007')).body).toMatchObject({ status: 'superseded', superseded_by: 'D-038' })
    const why = (await call('GET', '/v1/decisions/D-038/why')).body
    expect(why.chain.map((l: any) => [l.key, l.status, l.date, l.rationale, l.source])).toEqual([
      ['D-007', 'superseded', '2025-03-01', 'One host, no server to run.', 'session-3'],
      ['D-038', 'accepted', '2026-06-30', 'Billing needs joins across tenants.', 'session-47'],
    ])
  })

  it("describes id and reasoning in the OpenAPI document as the seed's names of key and rationale, deprecated, and requires one of rationale or reasoning", async () => {
    const { call } = await createTestApp()
    const input = (await call('GET', '/openapi.json')).body.components.schemas.DecisionInput
    for (const [alias, name] of [['id', 'key'], ['reasoning', 'rationale']] as const) {
      // Null taken, as left out, as of every optional field of a body.
      expect(input.properties[alias], alias).toMatchObject({ deprecated: true, type: ['string', 'null'] })
      expect(input.properties[alias].description, alias).toContain(`\`${name}\``)
      expect(input.properties[alias].description, alias).toContain('AXME Code')
      expect(input.properties[alias], alias).not.toHaveProperty('readOnly')
    }
    expect(input.required).toEqual(['title', 'decision'])
    // Given and not null: a null rationale or reasoning is one left out, which the other then gives.
    expect(input.allOf).toEqual([{ anyOf: [{ required: ['rationale'], properties: { rationale: { type: 'string' } } }, { required: ['reasoning'], properties: { reasoning: { type: 'string' } } }] }])
    expect(input.properties.rationale.type).toEqual(['string', 'null'])
  })
})

describe('applicability and recall pulses over HTTP (R-CON-4)', () => {
  it('returns the decisions that apply, counts a pulse for each, and shows which never reach a run', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ key: 'G', status: 'accepted' }))
    await call('POST', '/v1/decisions', decision({ key: 'T', status: 'accepted', scope: { task: 'SPEC-1' } }))
    await call('POST', '/v1/decisions', decision({ key: 'P', status: 'accepted', scope: { path: 'src/billing' } }))
    await call('POST', '/v1/decisions', decision({ key: 'S', status: 'accepted', scope: { stage: 'review' } }))
    await call('POST', '/v1/decisions', decision({ key: 'NEVER', status: 'accepted', scope: { task: 'SPEC-9' } }))
    await call('POST', '/v1/decisions', decision({ key: 'PROPOSED' }))

    const keys = async (query: string) => (await call('GET', `/v1/decisions/applicable${query}`)).body.decisions.map((d: any) => d.key)
    expect(await keys('')).toEqual(['G'])
    expect(await keys('?task=SPEC-1')).toEqual(['G', 'T'])
    expect(await keys('?path=src/billing/invoice.ts')).toEqual(['G', 'P'])
    expect(await keys('?path=src/billing-v2')).toEqual(['G'])
    expect(await keys('?stage=review&task=SPEC-1&path=src/billing')).toEqual(['G', 'P', 'S', 'T'])

    const pulses = (await call('GET', '/v1/decisions/pulses')).body
    const count = Object.fromEntries(pulses.decisions.map((d: any) => [d.key, d.count]))
    expect(count).toEqual({ G: 5, NEVER: 0, P: 2, PROPOSED: 0, S: 1, T: 2 })
    expect(pulses.decisions.find((d: any) => d.key === 'G').by).toEqual({ applicable: 5, recommendation: 0, check: 0 })
    expect(pulses.never_reached).toEqual(['NEVER'])
  })

  it('refuses a path scope with spaces at its ends, naming scope.path: it would apply to no path', async () => {
    const { call } = await createTestApp()
    for (const path of [' src/billing', 'src/billing ', '\tsrc/billing']) {
      const res = await call('POST', '/v1/decisions', decision({ status: 'accepted', scope: { path } }))
      expect(res.status, JSON.stringify(path)).toBe(400)
      expect(res.body.error.issues, JSON.stringify(path)).toEqual([{ path: 'scope.path', message: expect.stringContaining('no spaces at its ends') }])
    }
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual([])
    // A space inside a folder's name is a path like any other.
    expect((await call('POST', '/v1/decisions', decision({ status: 'accepted', scope: { path: 'docs/my notes' } }))).status).toBe(201)
  })

  it('refuses a path scope holding a control character or a lone surrogate, naming scope.path, as a task or stage is', async () => {
    const { call } = await createTestApp()
    for (const path of ['src/a\u0000b', '\u0085', 'src/billing\u0085', 'src/\u001b[2Jx', 'src/\ud800x']) {
      const res = await call('POST', '/v1/decisions', decision({ status: 'accepted', scope: { path } }))
      expect(res.status, JSON.stringify(path)).toBe(400)
      expect(res.body.error.issues, JSON.stringify(path)).toEqual([{ path: 'scope.path', message: 'must not contain control characters or lone surrogates' }])
    }
    // White space at an end is told once, as a space; a tab inside is a control character.
    const tabbed = await call('POST', '/v1/decisions', decision({ status: 'accepted', scope: { path: 'src/billing\t' } }))
    expect(tabbed.body.error.issues).toEqual([{ path: 'scope.path', message: expect.stringContaining('no spaces at its ends') }])
    expect((await call('POST', '/v1/decisions', decision({ status: 'accepted', scope: { path: 'src/a\tb' } }))).status).toBe(400)
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual([])
    // Letters of any script, and an emoji (a surrogate pair), are a path like any other.
    expect((await call('POST', '/v1/decisions', decision({ status: 'accepted', scope: { path: 'docs/ノート/😀' } }))).status).toBe(201)
  })

  it('still reads, lists, applies and checks a decision stored with a path scope spaced at its ends, as a version before took it', async () => {
    // Refused when proposed now; one stored before is kept, applied to a path sent as written, and to the folder it names
    // (paths are compared without the white space at their ends), and said as it was.
    const db = new MemoryLevel<string, string>()
    const written = await createLevelDecisionStore(db as never)
    const stored = decisionRecord('D-SPACED', { scope: { points: [], task: null, path: ' src/billing', stage: null }, constraints: [{ kind: 'must_not', pattern: 'git push --force' }] })
    await written.transact(async (tx) => tx.put(stored))
    const { call } = await createTestApp({ db, now: '2026-07-03T10:00:00.000Z' })
    expect((await call('GET', '/v1/decisions')).body.decisions.map((d: any) => [d.key, d.scope.path])).toEqual([['D-SPACED', ' src/billing']])
    expect((await call('GET', '/v1/decisions/D-SPACED')).status).toBe(200)
    expect((await call('GET', `/v1/decisions/applicable?path=${encodeURIComponent(' src/billing/x.ts')}`)).body.decisions.map((d: any) => d.key)).toEqual(['D-SPACED'])
    const checked = await call('POST', '/v1/decisions/check', { action: 'git push --force', path: ' src/billing' })
    expect(checked.status).toBe(200)
    expect(checked.body.blocked_by.map((b: any) => b.key)).toEqual(['D-SPACED'])
    expect((await call('GET', '/v1/decisions/applicable?path=src/billing/x.ts')).body.decisions.map((d: any) => d.key)).toEqual(['D-SPACED'])
    expect((await call('GET', '/v1/decisions/D-SPACED/why')).status).toBe(200)
    // Deprecated or revoked as any other, with nothing to re-send.
    expect((await call('POST', '/v1/decisions/D-SPACED/revoke', { reason: 'spaced path' })).status).toBe(200)
  })

  it('refuses a task or stage scope with spaces at its ends, naming the field: no run names it so', async () => {
    const { call } = await createTestApp()
    for (const field of ['task', 'stage'] as const) {
      for (const name of [' billing', 'billing ', '\u00a0billing']) {
        const res = await call('POST', '/v1/decisions', decision({ status: 'accepted', scope: { [field]: name } }))
        expect(res.status, `${field} ${JSON.stringify(name)}`).toBe(400)
        expect(res.body.error.issues, `${field} ${JSON.stringify(name)}`).toEqual([{ path: `scope.${field}`, message: expect.stringContaining('no spaces at its ends') }])
      }
      // An invisible character at an end, which trim() leaves, no run names either.
      const invisible = await call('POST', '/v1/decisions', decision({ status: 'accepted', scope: { [field]: 'billing\u200b' } }))
      expect(invisible.body.error.issues).toEqual([{ path: `scope.${field}`, message: 'no invisible characters at its ends: write the task or stage as runs name it' }])
      // A tab is a control character, and told so once, not also that it is a space.
      const tab = await call('POST', '/v1/decisions', decision({ status: 'accepted', scope: { [field]: 'billing\t' } }))
      expect(tab.body.error.issues).toEqual([{ path: `scope.${field}`, message: expect.stringContaining('control characters') }])
    }
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual([])
    // A space inside a name is a name like any other, and applies to the run that names it.
    expect((await call('POST', '/v1/decisions', decision({ key: 'D-SPACE', status: 'accepted', scope: { task: 'billing report', stage: 'code review' } }))).status).toBe(201)
    const applicable = await call('GET', `/v1/decisions/applicable?task=${encodeURIComponent('billing report')}&stage=${encodeURIComponent('code review')}`)
    expect(applicable.body.decisions.map((d: any) => d.key)).toEqual(['D-SPACE'])
  })

  it('still reads, lists, applies and checks a decision stored with a task or stage scope spaced at its ends, as a version before took it', async () => {
    const db = new MemoryLevel<string, string>()
    const written = await createLevelDecisionStore(db as never)
    const forbid = [{ kind: 'must_not' as const, pattern: 'git push --force' }]
    await written.transact(async (tx) => {
      await tx.put(decisionRecord('D-TASK', { scope: { points: [], task: ' billing', path: null, stage: null }, constraints: forbid }))
      await tx.put(decisionRecord('D-STAGE', { scope: { points: [], task: null, path: null, stage: 'review ' }, constraints: forbid }))
    })
    const { call } = await createTestApp({ db, now: '2026-07-03T10:00:00.000Z' })
    const listed = (await call('GET', '/v1/decisions')).body.decisions.map((d: any) => [d.key, d.scope.task, d.scope.stage])
    expect(listed).toEqual(expect.arrayContaining([['D-TASK', ' billing', null], ['D-STAGE', null, 'review ']]))
    const run = `task=${encodeURIComponent(' billing')}&stage=${encodeURIComponent('review ')}`
    expect((await call('GET', `/v1/decisions/applicable?${run}`)).body.decisions.map((d: any) => d.key).sort()).toEqual(['D-STAGE', 'D-TASK'])
    const checked = await call('POST', '/v1/decisions/check', { action: 'git push --force', task: ' billing', stage: 'review ' })
    expect(checked.status).toBe(200)
    expect(checked.body.blocked_by.map((b: any) => b.key).sort()).toEqual(['D-STAGE', 'D-TASK'])
    // A run's task and stage are compared without the white space at their ends, and so is the scope stored
    // so: the run it was written for, `billing`, is held too, as what is learned reads ` billing` as `billing`.
    const bare = await call('POST', '/v1/decisions/check', { action: 'git push --force', task: 'billing', stage: 'review' })
    expect(bare.body.blocked_by.map((b: any) => b.key).sort()).toEqual(['D-STAGE', 'D-TASK'])
    for (const key of ['D-TASK', 'D-STAGE']) {
      expect((await call('GET', `/v1/decisions/${key}/why`)).status).toBe(200)
      expect((await call('POST', `/v1/decisions/${key}/revoke`, { reason: 'spaced scope' })).status).toBe(200)
    }
  })

  it('checks a run whose task, path or stage has white space at its ends as the run without it, in /check and /applicable', async () => {
    const { call } = await createTestApp()
    const forbid = [{ kind: 'must_not', pattern: 'terraform destroy' }]
    await call('POST', '/v1/decisions', decision({ key: 'PROD-1', status: 'accepted', enforce: 'required', scope: { stage: 'prod', task: 'ops', path: 'infra' }, constraints: forbid }))
    const checked = await call('POST', '/v1/decisions/check', { action: 'terraform destroy', stage: ' prod ', task: 'ops\n', path: ' infra/main.tf' })
    expect(checked.status).toBe(200)
    expect(checked.body).toMatchObject({ allowed: false, blocked_by: [{ key: 'PROD-1' }] })
    const run = new URLSearchParams({ stage: ' prod ', task: ' ops', path: 'infra ' })
    expect((await call('GET', `/v1/decisions/applicable?${run}`)).body.decisions.map((d: any) => d.key)).toEqual(['PROD-1'])
  })

  it("says in the document what a scope's path, task and stage refuse", async () => {
    const { call } = await createTestApp()
    const { properties } = (await call('GET', '/openapi.json')).body.components.schemas.DecisionInput.properties.scope
    expect(properties.path.description).toMatch(/Refused: spaces at its ends, a glob .*, a brace group .*, control characters and lone surrogates/)
    expect(properties.task.description).toContain('No spaces at its ends, no control characters')
    expect(properties.stage.description).toContain('No spaces at its ends, no control characters')
    // A client checking against the document refuses what the route refuses, and takes what it takes.
    for (const field of ['task', 'stage']) {
      const pattern = new RegExp(properties[field].pattern, 'u')
      for (const name of [' billing', 'billing ', '\u00a0billing', 'a\u2028b ', '!x', '..', 'billing\u200b', '\u2060billing']) expect(pattern.test(name), `${field} ${JSON.stringify(name)}`).toBe(false)
      for (const name of ['billing', 'billing report', '.env', 'a\u2028b']) expect(pattern.test(name), `${field} ${JSON.stringify(name)}`).toBe(true)
    }
  })

  it('refuses a path scope written as a glob, naming scope.path: it is a prefix, and src/billing/** would apply to none of the paths it matches', async () => {
    const { call } = await createTestApp()
    for (const path of ['src/billing/**', 'src/*', 'services/**/billing', '**/*.ts', 'services/{api,web}', 'src/v?', 'src/?/x']) {
      const res = await call('POST', '/v1/decisions', decision({ status: 'accepted', scope: { path } }))
      expect(res.status, path).toBe(400)
      expect(res.body.error.issues, path).toEqual([{ path: 'scope.path', message: expect.stringContaining('not a glob') }])
      // What to write instead, for a ? too (taken until it was refused), as for a * and braces.
      for (const instead of ['src/billing for src/billing/**', 'src for src/v?', 'one decision a folder for {api,web}']) expect(res.body.error.issues[0].message, path).toContain(instead)
    }
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual([])
    // A prefix is the way to say it, and [slug] folders (Next.js) are ordinary paths.
    for (const path of ['src/billing', 'app/[slug]', 'app/{locale}']) {
      expect((await call('POST', '/v1/decisions', decision({ status: 'accepted', scope: { path } }))).status, path).toBe(201)
    }
    const keys = async (path: string) => (await call('GET', `/v1/decisions/applicable?path=${encodeURIComponent(path)}`)).body.decisions.map((d: any) => d.key)
    expect(await keys('src/billing/invoice.ts')).toEqual(['D-001'])
    expect(await keys('app/[slug]/page.tsx')).toEqual(['D-002'])
    expect(await keys('app/{locale}/page.tsx')).toEqual(['D-003'])
    // None of them is said to be a glob.
    expect((await call('GET', '/v1/decisions')).body.decisions.map((d: any) => d.scope_warning)).toEqual([undefined, undefined, undefined])
    // The document's pattern refuses a `?` as the route does, and takes brackets.
    const { properties } = (await call('GET', '/openapi.json')).body.components.schemas.DecisionInput.properties.scope
    const pattern = new RegExp(properties.path.pattern, 'u')
    for (const path of ['src/v?', 'src/*', 'services/{api,web}']) expect(pattern.test(path), path).toBe(false)
    for (const path of ['src/billing', 'app/[slug]', 'app/{locale}']) expect(pattern.test(path), path).toBe(true)
  })

  it('says of a decision stored with a glob path scope, as versions before took it, that it applies to none of the paths the glob matches; lists, checks and revokes it', async () => {
    const db = new MemoryLevel<string, string>()
    const written = await createLevelDecisionStore(db as never)
    const forbid = [{ kind: 'must_not' as const, pattern: 'git push --force' }]
    const scoped = (path: string) => ({ points: [], task: null, path, stage: null })
    await written.transact(async (tx) => {
      await tx.put(decisionRecord('D-STAR', { enforce: 'required', scope: scoped('src/billing/**'), constraints: forbid }))
      await tx.put(decisionRecord('D-MARK', { enforce: 'required', scope: scoped('src/v?'), constraints: forbid }))
      await tx.put(decisionRecord('D-PLAIN', { enforce: 'required', scope: scoped('src/plain'), constraints: forbid }))
    })
    const { call } = await createTestApp({ db, now: '2026-07-03T10:00:00.000Z' })
    const listed = (await call('GET', '/v1/decisions')).body.decisions
    const warningOf = (key: string) => listed.find((d: any) => d.key === key).scope_warning
    expect(warningOf('D-STAR')).toBe(
      'scope.path "src/billing/**" is a glob, which a version before this took: a path scope is a prefix compared as written, so this decision applies to none of the paths the glob would match, only to one holding it as written; supersede it with one scoped to src/billing',
    )
    expect(warningOf('D-MARK')).toContain('scope.path "src/v?" is a glob')
    expect(warningOf('D-MARK')).toContain('supersede it with one scoped to src')
    expect(warningOf('D-PLAIN')).toBeUndefined()
    expect((await call('GET', '/v1/decisions/D-STAR')).body.scope_warning).toBe(warningOf('D-STAR'))
    expect((await call('GET', '/v1/decisions/D-STAR/why')).body.chain[0].scope_warning).toBe(warningOf('D-STAR'))
    // A check of a run below it is allowed (the decision applies to none of the paths its glob matches) and says why.
    const checked = await call('POST', '/v1/decisions/check', { action: 'git push --force', path: 'src/billing/invoice.ts' })
    expect(checked.status).toBe(200)
    expect(checked.body).toMatchObject({ allowed: true, blocked_by: [], scope_warnings: [{ key: 'D-MARK', message: warningOf('D-MARK') }, { key: 'D-STAR', message: warningOf('D-STAR') }] })
    // One with no path names none of them: no path scope holds it anyway.
    expect((await call('POST', '/v1/decisions/check', { action: 'git push --force' })).body.scope_warnings).toBeUndefined()
    // Nor one outside the folder the glob was written in: src/v? meant a folder of src, src/billing/** one of src/billing.
    const warned = async (path: string) =>
      ((await call('POST', '/v1/decisions/check', { action: 'git push --force', path })).body.scope_warnings ?? []).map((w: { key: string }) => w.key)
    expect(await warned('docs/readme.md')).toEqual([])
    expect(await warned('/home/me/scratch')).toEqual([])
    expect(await warned('src/api/server.ts')).toEqual(['D-MARK'])
    // A folder named `v?` (Linux, macOS) is one D-MARK holds as written: its warning must not say it holds no path.
    const literal = (await call('GET', `/v1/decisions/applicable?path=${encodeURIComponent('src/v?/x.ts')}`)).body.decisions
    expect(literal.map((d: any) => [d.key, d.scope_warning])).toEqual([['D-MARK', warningOf('D-MARK')]])
    expect(warningOf('D-MARK')).not.toContain('applies to no path')
    expect(warningOf('D-MARK')).toContain('only to one holding it as written')
    // Posted back as read, the warning is ignored as the other read-only fields are.
    const { key: _key, ...read } = (await call('GET', '/v1/decisions/D-PLAIN')).body
    expect((await call('POST', '/v1/decisions', { ...read, scope_warning: 'x' })).status).toBe(201)
    // Revoked as any other, with nothing to re-send; it still says what it holds, but no longer to
    // supersede it: a revoked decision is in force nowhere, and none supersedes it.
    const revoked = await call('POST', '/v1/decisions/D-STAR/revoke', { reason: 'a glob' })
    expect(revoked.status).toBe(200)
    const held = warningOf('D-STAR').replace('; supersede it with one scoped to src/billing', '')
    expect(revoked.body.scope_warning).toBe(held)
    expect(held).toMatch(/only to one holding it as written$/)
    // Superseded as advised, the old link of the chain says the same, its advice followed.
    const successor = await call('POST', '/v1/decisions', decision({ key: 'D-MARK2', status: 'accepted', supersedes: 'D-MARK', scope: { path: 'src' } }))
    expect(successor.status).toBe(201)
    const chain = (await call('GET', '/v1/decisions/D-MARK2/why')).body.chain
    expect(chain.map((l: any) => [l.key, l.status, l.scope_warning])).toEqual([
      ['D-MARK', 'superseded', warningOf('D-MARK').replace('; supersede it with one scoped to src', '')],
      ['D-MARK2', 'accepted', undefined],
    ])
    // The warnings of a check are of accepted decisions alone: D-STAR, revoked, and D-MARK, superseded, are no longer among them.
    expect((await call('POST', '/v1/decisions/check', { action: 'git push --force', path: 'src/billing/invoice.ts' })).body.scope_warnings).toBeUndefined()
  })

  it('reads a folder named in braces alone above a glob as a folder: warns only below it, and says to scope it', async () => {
    const db = new MemoryLevel<string, string>()
    const written = await createLevelDecisionStore(db as never)
    const forbid = [{ kind: 'must_not' as const, pattern: 'git push --force' }]
    await written.transact(async (tx) => {
      // `app/{locale}` is a path (Next.js), as the route takes it; the `*` below it is the glob.
      await tx.put(decisionRecord('D-LOCALE', { enforce: 'required', scope: { points: [], task: null, path: 'app/{locale}/admin/*', stage: null }, constraints: forbid }))
      await tx.put(decisionRecord('D-GROUP', { enforce: 'required', scope: { points: [], task: null, path: 'services/{api,web}/*', stage: null }, constraints: forbid }))
    })
    const { call } = await createTestApp({ db, now: '2026-07-03T10:00:00.000Z' })
    const listed = (await call('GET', '/v1/decisions')).body.decisions
    expect(listed.find((d: any) => d.key === 'D-LOCALE').scope_warning).toContain('supersede it with one scoped to app/{locale}/admin')
    // A brace group is a glob, as isGlobPath reads it: the folder above it.
    expect(listed.find((d: any) => d.key === 'D-GROUP').scope_warning).toContain('supersede it with one scoped to services')
    const warned = async (path: string) =>
      ((await call('POST', '/v1/decisions/check', { action: 'git push --force', path })).body.scope_warnings ?? []).map((w: { key: string }) => w.key)
    expect(await warned('app/{locale}/admin/users.tsx')).toEqual(['D-LOCALE'])
    // Elsewhere in app, or in another folder of app/{locale}, the decision was never meant to hold.
    expect(await warned('app/shop/page.tsx')).toEqual([])
    expect(await warned('app/{locale}/page.tsx')).toEqual([])
    expect(await warned('services/api/server.ts')).toEqual(['D-GROUP'])
  })

  it('warns of a glob-scoped decision only where the check would have reached it, its path apart', async () => {
    const db = new MemoryLevel<string, string>()
    const written = await createLevelDecisionStore(db as never)
    const glob = 'src/billing/**'
    await written.transact(async (tx) => {
      // A `must` at a point: a command, checked at no point, never reaches it; a choice at its point does.
      await tx.put(decisionRecord('D-TIER', { scope: { points: ['tier'], task: null, path: glob, stage: null }, constraints: [{ kind: 'must', option: 'L' }] }))
      await tx.put(decisionRecord('D-TASK', { scope: { points: [], task: 'release', path: glob, stage: null }, constraints: [{ kind: 'must_not', pattern: 'rm -rf' }] }))
      await tx.put(decisionRecord('D-STAGE', { scope: { points: [], task: null, path: glob, stage: 'deploy' }, constraints: [{ kind: 'must_not', pattern: 'rm -rf' }] }))
      await tx.put(decisionRecord('D-POINT', { scope: { points: ['region'], task: null, path: glob, stage: null }, constraints: [{ kind: 'must_not', pattern: 'rm -rf' }] }))
    })
    const { call } = await createTestApp({ db, now: '2026-07-03T10:00:00.000Z' })
    const warned = async (body: Record<string, unknown>) => {
      const res = await call('POST', '/v1/decisions/check', { path: 'src/billing/invoice.ts', ...body })
      expect(res.status).toBe(200)
      return (res.body.scope_warnings ?? []).map((w: { key: string }) => w.key)
    }
    // A command reaches the pattern bound to a point (tested at no point), not the `must`, nor a task or stage the run does not name.
    expect(await warned({ action: 'rm -rf build' })).toEqual(['D-POINT'])
    expect(await warned({ action: 'rm -rf build', task: 'release', stage: 'deploy' })).toEqual(['D-POINT', 'D-STAGE', 'D-TASK'])
    // At another point, the decisions bound to theirs are not reached.
    expect(await warned({ action: 'rm -rf build', point: 'other' })).toEqual([])
    // A choice at the point reaches its `must`; one at no point does not read a `must`.
    expect(await warned({ choice: 'M', point: 'tier' })).toEqual(['D-TIER'])
    expect(await warned({ choice: 'M' })).toEqual([])
  })

  it('warns of a glob-scoped decision only where, read as its folder, it would have blocked or warned', async () => {
    const db = new MemoryLevel<string, string>()
    const written = await createLevelDecisionStore(db as never)
    const scoped = (path: string, points: string[] = []) => ({ points, task: null, path, stage: null })
    await written.transact(async (tx) => {
      await tx.put(decisionRecord('D-RM', { scope: scoped('src/billing/**'), constraints: [{ kind: 'must_not', pattern: 'rm -rf' }] }))
      await tx.put(decisionRecord('D-PUB', { enforce: 'advisory', scope: scoped('src/billing/**'), constraints: [{ kind: 'must_not', pattern: 'npm publish' }] }))
      await tx.put(decisionRecord('D-TIER', { scope: scoped('src/billing/**', ['tier']), constraints: [{ kind: 'must', option: 'L' }] }))
    })
    const { call } = await createTestApp({ db, now: '2026-07-03T10:00:00.000Z' })
    const warned = async (body: Record<string, unknown>) => {
      const res = await call('POST', '/v1/decisions/check', { path: 'src/billing/invoice.ts', ...body })
      expect(res.status).toBe(200)
      return (res.body.scope_warnings ?? []).map((w: { key: string }) => w.key)
    }
    // A command its pattern could not have matched: nothing to say, at `ls` or `cat` as anywhere.
    expect(await warned({ action: 'ls' })).toEqual([])
    expect(await warned({ action: 'cat invoice.ts' })).toEqual([])
    // One it would have blocked, or warned of (advisory), read as its folder: said.
    expect(await warned({ action: 'rm -rf build' })).toEqual(['D-RM'])
    expect(await warned({ action: 'npm publish && rm -rf build' })).toEqual(['D-PUB', 'D-RM'])
    // A choice at its point: said where it goes against the `must`, not where it is what it asks.
    expect(await warned({ choice: 'M', point: 'tier' })).toEqual(['D-TIER'])
    expect(await warned({ choice: 'L', point: 'tier' })).toEqual([])
  })

  it('reads a backslash before a glob as the separator a scope path is compared with: \\* is /*, not the repository root', async () => {
    const db = new MemoryLevel<string, string>()
    const written = await createLevelDecisionStore(db as never)
    const forbid = [{ kind: 'must_not' as const, pattern: 'git push --force' }]
    const scoped = (path: string) => ({ points: [], task: null, path, stage: null })
    await written.transact(async (tx) => {
      await tx.put(decisionRecord('D-ROOT', { enforce: 'required', scope: scoped('\\*'), constraints: forbid }))
      await tx.put(decisionRecord('D-SRC', { enforce: 'required', scope: scoped('src\\*'), constraints: forbid }))
      await tx.put(decisionRecord('D-DRIVE', { enforce: 'required', scope: scoped('C:\\*'), constraints: forbid }))
    })
    const { call } = await createTestApp({ db, now: '2026-07-03T10:00:00.000Z' })
    const warned = async (path: string) =>
      ((await call('POST', '/v1/decisions/check', { action: 'git push --force', path })).body.scope_warnings ?? []).map((w: { key: string }) => w.key)
    // `\*` is `/*`, as `\src` is `/src` wherever a scope path is compared: the root of absolute paths.
    expect(await warned('docs/readme.md')).toEqual([])
    expect(await warned('src/api/server.ts')).toEqual(['D-SRC'])
    expect(await warned('/home/me/scratch')).toEqual(['D-ROOT'])
    expect(await warned('C:\\Users\\me')).toEqual(['D-DRIVE'])
    const listed = (await call('GET', '/v1/decisions')).body.decisions
    const warningOf = (key: string) => listed.find((d: any) => d.key === key).scope_warning
    expect(warningOf('D-ROOT')).toContain('supersede it with one scoped to /')
    expect(warningOf('D-SRC')).toContain('supersede it with one scoped to src')
    expect(warningOf('D-DRIVE')).toContain('supersede it with one scoped to C:')
  })

  it('counts no pulse for a HEAD, which reaches no run (a link checker, a probe), and answers it as the GET without a body', async () => {
    const { app, call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ key: 'G', status: 'accepted' }))
    for (let i = 0; i < 3; i++) {
      const head = await app.request('/v1/decisions/applicable', { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(await head.text()).toBe('')
    }
    const pulses = async () => (await call('GET', '/v1/decisions/pulses')).body
    expect((await pulses()).never_reached).toEqual(['G'])
    expect((await call('GET', '/v1/decisions/applicable')).body.decisions.map((d: any) => d.key)).toEqual(['G'])
    expect((await pulses()).decisions[0].by).toEqual({ applicable: 1, recommendation: 0, check: 0 })
  })
})

/** A required decision that the complexity tier must be Tier L. */
const TIER_L_REQUIRED = decision({
  enforce: 'required',
  status: 'accepted',
  scope: { points: ['complexity-tier'] },
  constraints: [{ kind: 'must', option: 'Tier L' }],
})

describe('POST /v1/decisions/check (R-CON-3)', () => {
  it('takes a must_not pattern that meets every command: in its scope it blocks each, as a "no shell here" (README: What a must_not pattern meets)', async () => {
    const { call } = await createTestApp()
    const forbid = (key: string, pattern: string, path: string | null) =>
      decision({ key, status: 'accepted', enforce: 'required', scope: { path }, constraints: [{ kind: 'must_not', pattern }] })
    expect((await call('POST', '/v1/decisions', forbid('NO-SHELL', '.*', 'prod'))).status).toBe(201)
    const blockedBy = async (body: Record<string, unknown>) => (await call('POST', '/v1/decisions/check', body)).body.blocked_by.map((b: any) => [b.key, b.message])
    expect(await blockedBy({ action: 'ls', path: 'prod/app' })).toEqual([['NO-SHELL', '"ls" matches the must_not pattern /.*/']])
    expect(await blockedBy({ action: 'ls', path: 'src' })).toEqual([])
    // A | left over at the top meets every command everywhere, once it has no scope; one inside a group does not.
    expect((await call('POST', '/v1/decisions', forbid('LEFT-OVER', 'git push|', null))).status).toBe(201)
    expect((await call('POST', '/v1/decisions', forbid('GROUPED', 'git push( --force|)$', null))).status).toBe(201)
    expect(await blockedBy({ action: 'ls', path: 'src' })).toEqual([['LEFT-OVER', '"ls" matches the must_not pattern /git push|/']])
  })

  it('takes a point with an action alone (R-CON-3: point?), leaving out the decisions bound to other points', async () => {
    const { call } = await createTestApp()
    const noForce = (key: string, points: string[]) =>
      decision({ key, status: 'accepted', enforce: 'required', scope: { points }, constraints: [{ kind: 'must_not', pattern: '--force' }] })
    await call('POST', '/v1/decisions', noForce('AT-DEPLOY', ['deploy']))
    await call('POST', '/v1/decisions', noForce('ANYWHERE', []))
    const blockedBy = async (body: Record<string, unknown>) => {
      const r = await call('POST', '/v1/decisions/check', body)
      expect(r.status).toBe(200)
      return r.body.blocked_by.map((b: { key: string }) => b.key).sort()
    }
    expect(await blockedBy({ action: 'git push --force', point: 'deploy' })).toEqual(['ANYWHERE', 'AT-DEPLOY'])
    expect(await blockedBy({ action: 'git push --force', point: 'other' })).toEqual(['ANYWHERE'])
    expect(await blockedBy({ action: 'git push --force' })).toEqual(['ANYWHERE', 'AT-DEPLOY'])
  })

  it('blocks a command a required must_not forbids, citing the decision, and allows others', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({
      key: 'D-021',
      title: 'Never force push',
      enforce: 'required',
      status: 'accepted',
      constraints: [{ kind: 'must_not', pattern: 'git push (.* )?(--force|-f\\b)' }],
    }))
    const blocked = await call('POST', '/v1/decisions/check', { action: 'git push --force origin main', path: '/home/dev/acme-api' })
    expect(blocked.status).toBe(200)
    expect(blocked.body.allowed).toBe(false)
    expect(blocked.body.blocked_by.map((b: any) => b.key)).toEqual(['D-021'])
    expect((await call('POST', '/v1/decisions/check', { action: 'git push -f' })).body.allowed).toBe(false)
    expect((await call('POST', '/v1/decisions/check', { action: 'git push origin main' })).body).toMatchObject({ allowed: true, checked: ['D-021'] })
    expect((await call('GET', '/v1/decisions/pulses')).body.decisions[0].by.check).toBe(3)
  })

  it('counts no pulse for a decision bound to a point that a command checked at no point cannot reach (R-CON-4: dead weight shows)', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ key: 'D-021', enforce: 'required', status: 'accepted', constraints: [{ kind: 'must_not', pattern: '^git push (.* )?--force' }] }))
    await call('POST', '/v1/decisions', decision({ key: 'DB', enforce: 'required', status: 'accepted', scope: { points: ['database'] }, constraints: [{ kind: 'must', option: 'Postgres' }] }))
    await call('POST', '/v1/decisions', decision({ key: 'CAP', enforce: 'required', status: 'accepted', scope: { points: ['replicas'] }, constraints: [{ kind: 'limit', value: 3 }] }))
    // Bound to a point, but with a pattern: a command is tested against it, so it is reached.
    await call('POST', '/v1/decisions', decision({ key: 'PAT', status: 'accepted', scope: { points: ['database'] }, constraints: [{ kind: 'must_not', pattern: 'mysql' }] }))
    // What the guard sends for every Bash command: the command and its path, no point.
    for (let i = 0; i < 3; i++) {
      const { body } = await call('POST', '/v1/decisions/check', { action: 'npm test', path: '.' })
      expect(body).toMatchObject({ allowed: true, checked: ['D-021', 'PAT'] })
    }
    const pulses = (await call('GET', '/v1/decisions/pulses')).body
    expect(pulses.never_reached).toEqual(['CAP', 'DB'])
    // At their point, a choice reaches them.
    expect((await call('POST', '/v1/decisions/check', { choice: 'MySQL', point: 'database' })).body.checked).toEqual(['D-021', 'DB', 'PAT'])
    expect((await call('GET', '/v1/decisions/pulses')).body.never_reached).toEqual(['CAP'])
  })

  it('takes any task or stage a recommendation\'s context takes, here and in /applicable, as GET /v1/why does: an agent passes its context\'s on to each', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ key: 'D-021', enforce: 'required', status: 'accepted', constraints: [{ kind: 'must_not', pattern: 'git push (.* )?--force' }] }))
    const task = `!draft: ${'a long task '.repeat(25)}`
    const checked = await call('POST', '/v1/decisions/check', { action: 'git push --force', task, stage: 'code review' })
    expect(checked.status).toBe(200)
    expect(checked.body).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-021' }] })
    const applicable = await call('GET', `/v1/decisions/applicable?task=${encodeURIComponent(task)}&stage=${encodeURIComponent('code review')}`)
    expect(applicable.status).toBe(200)
    expect(applicable.body.decisions.map((d: { key: string }) => d.key)).toEqual(['D-021'])
    expect((await call('POST', '/v1/decisions/check', { action: 'ls', task: '' })).body.error.issues).toEqual([expect.objectContaining({ path: 'task' })])
  })

  it('checks a command that writes a long file before it force-pushes, and names action past its limit', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ key: 'D-021', enforce: 'required', status: 'accepted', constraints: [{ kind: 'must_not', pattern: 'git push (.* )?(--force|-f\\b)' }] }))
    // Agents write files with heredocs: 12,000 characters of one, then the push (10,000 was the limit).
    const heredoc = `cat > notes.md <<'EOF'\n${'lorem ipsum '.repeat(1000)}\nEOF\ngit push --force origin main`
    const blocked = await call('POST', '/v1/decisions/check', { action: heredoc })
    expect(blocked.status).toBe(200)
    expect(blocked.body.blocked_by.map((b: any) => b.key)).toEqual(['D-021'])
    const over = await call('POST', '/v1/decisions/check', { action: 'x'.repeat(100_001) })
    expect(over.status).toBe(400)
    expect(over.body.error.issues[0].path).toBe('action')
  })

  it("the OpenAPI document's example of a check, sent as Swagger UI's Try it out sends it, meets a decision scoped to a path of the repository", async () => {
    const { call } = await createTestApp()
    const example = (await call('GET', '/openapi.json')).body.components.schemas.DecisionCheck.example
    // Scoped as decisions are, relative to the repository's root (as the guard sends its cwd).
    const scope = { path: 'services' }
    await call('POST', '/v1/decisions', decision({ key: 'D-021', enforce: 'required', status: 'accepted', scope, constraints: [{ kind: 'must_not', pattern: 'git push (.* )?--force' }] }))
    const verdict = await call('POST', '/v1/decisions/check', example)
    expect(verdict.status).toBe(200)
    expect(verdict.body.blocked_by.map((b: { key: string }) => b.key)).toEqual(['D-021'])
  })

  it('refuses an action of only white space as it refuses an empty one, rather than answer it allowed', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ key: 'D-021', enforce: 'required', status: 'accepted', constraints: [{ kind: 'must_not', pattern: 'git push (.* )?(--force|-f\\b)' }] }))
    for (const action of ['', '   ', '\n\t ']) {
      const blank = await call('POST', '/v1/decisions/check', { action })
      expect(blank.status, JSON.stringify(action)).toBe(400)
      expect(blank.body.error.issues[0].path).toBe('action')
    }
    // White space around a command is still the command.
    expect((await call('POST', '/v1/decisions/check', { action: '  git push --force\n' })).body.blocked_by.map((b: any) => b.key)).toEqual(['D-021'])
  })

  it('tells a title, text or reason of white space alone that it is blank, and the OpenAPI document says so as a pattern', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ key: 'D-1' }))
    const record = { key: 'ADR-1', title: 'A', decision: 'a', rationale: 'r', status: 'accepted', date: null, origin: { path: 'doc/adr/1.md', line: 1, format: 'madr' } }
    const blanks = [
      ['/v1/decisions', decision({ title: ' ' }), 'title'],
      ['/v1/decisions', decision({ decision: '\t' }), 'decision'],
      ['/v1/decisions', decision({ rationale: '\u00a0' }), 'rationale'],
      ['/v1/decisions/D-1/accept', { reason: ' ' }, 'reason'],
      ['/v1/decisions/D-1/supersede', { by: 'D-2', reason: '  ' }, 'reason'],
      ['/v1/decisions/import', { records: [{ ...record, title: ' ' }] }, 'records.0.title'],
    ] as const
    for (const [path, body, field] of blanks) {
      const answer = await call('POST', path, body)
      expect(answer.status, path).toBe(400)
      // Not "expected string to have >=1 characters" of a string that has one.
      expect(answer.body.error.issues, path).toEqual([{ path: field, message: 'must not be empty or white space alone' }])
    }
    // A client checking against the document refuses them too, as it does a blank question.
    const { schemas } = (await call('GET', '/openapi.json')).body.components
    const pattern = schemas.RecommendationRequest.properties.question.pattern
    const fields = [
      schemas.DecisionInput.properties.title,
      schemas.DecisionInput.properties.decision,
      schemas.DecisionInput.properties.rationale,
      schemas.DecisionTransition.properties.reason,
      schemas.DecisionSupersede.properties.reason,
      schemas.DecisionImport.properties.records.items.properties.title,
      schemas.DecisionImport.properties.records.items.properties.rationale,
    ]
    for (const field of fields) expect(field.pattern).toBe(pattern)
    expect(new RegExp(pattern).test(' \t\u00a0')).toBe(false)
    expect(schemas.DecisionInput.properties.decision.description).toBe('What was decided.')
  })

  it('answers in bounded time with a pattern that backtracks exponentially, and warns of it instead of hanging every route', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ key: 'D-SLOW', enforce: 'required', status: 'accepted', constraints: [{ kind: 'must_not', pattern: '(a+)+$' }] }))
    // 2^40 ways to split the a's: without a limit this check held the event loop for days.
    const checked = await call('POST', '/v1/decisions/check', { action: `echo ${'a'.repeat(40)}!` })
    expect(checked.status).toBe(200)
    expect(checked.body).toMatchObject({ allowed: true, blocked_by: [], checked: ['D-SLOW'] })
    expect(checked.body.warnings[0].message).toContain('could not be checked against the must_not pattern /(a+)+$/')
    // A short action it decides: matched, so the required decision blocks.
    expect((await call('POST', '/v1/decisions/check', { action: 'echo aaa' })).body.blocked_by.map((b: any) => b.key)).toEqual(['D-SLOW'])
  })

  it('does not block with a proposed, revoked or out-of-scope decision', async () => {
    const { call } = await createTestApp()
    const forbid = { enforce: 'required', constraints: [{ kind: 'must_not', pattern: 'rm -rf' }] }
    await call('POST', '/v1/decisions', decision({ ...forbid }))
    await call('POST', '/v1/decisions', decision({ ...forbid, status: 'accepted', scope: { path: '/srv/prod' } }))
    await call('POST', '/v1/decisions', decision({ ...forbid, status: 'accepted' }))
    await call('POST', '/v1/decisions/D-003/revoke')
    expect((await call('POST', '/v1/decisions/check', { action: 'rm -rf build', path: '/home/dev' })).body.allowed).toBe(true)
    expect((await call('POST', '/v1/decisions/check', { action: 'rm -rf build', path: '/srv/prod/app' })).body.blocked_by.map((b: any) => b.key)).toEqual(['D-002'])
  })

  it('checks a choice at a point, and says what is missing', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', TIER_L_REQUIRED)
    expect((await call('POST', '/v1/decisions/check', { choice: 'Tier S', point: 'complexity-tier' })).body.allowed).toBe(false)
    expect((await call('POST', '/v1/decisions/check', { choice: 'Tier L', point: 'complexity-tier' })).body.allowed).toBe(true)
    // A point alone is a choice's check without its choice: choice is named, not action.
    const pointAlone = await call('POST', '/v1/decisions/check', { point: 'complexity-tier' })
    expect(pointAlone.status).toBe(400)
    expect(pointAlone.body.error.issues).toEqual([{ path: 'choice', message: 'give the choice made at point (or an action)' }])
    const neither = await call('POST', '/v1/decisions/check', {})
    expect(neither.status).toBe(400)
    expect(neither.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['action'])
    // R-CON-3: `point?`. A must at a point says nothing of a choice made at no point.
    expect((await call('POST', '/v1/decisions/check', { choice: 'Tier S' })).body).toMatchObject({ allowed: true, blocked_by: [], warnings: [] })
  })

  it('refuses a point with white space or an invisible character at its ends, as a recommendation and an observation do, naming point', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', TIER_L_REQUIRED)
    for (const point of [' complexity-tier', 'complexity-tier ', 'complexity-tier\u200b', '  ']) {
      // Taken, it was a point no decision is bound to (a scope's points refuse it too): a choice the decision blocks was allowed.
      const refused = await call('POST', '/v1/decisions/check', { choice: 'Tier S', point })
      const recommendation = await call('POST', '/v1/recommendations', { question: 'Which tier?', all_options: ['Tier S', 'Tier L'], point })
      expect(recommendation.body.error.issues).toHaveLength(1)
      expect([point, refused.status, refused.body.error?.issues]).toEqual([point, 400, recommendation.body.error.issues])
      expect(refused.body.error.issues[0].path).toBe('point')
    }
    expect((await call('POST', '/v1/decisions/check', { choice: 'Tier S', point: 'complexity-tier' })).body.allowed).toBe(false)
  })

  it('checks the options of a multi-select choice together', async () => {
    const { call } = await createTestApp()
    const at = (constraints: unknown[], extra: Record<string, unknown> = {}) =>
      call('POST', '/v1/decisions', decision({ status: 'accepted', scope: { points: ['checks'] }, constraints, ...extra }))
    await at([{ kind: 'must', option: 'Lint' }], { enforce: 'required' })
    await at([{ kind: 'must_not', option: 'Skip tests' }], { enforce: 'required' })
    await at([{ kind: 'prefer', option: 'Type check' }])
    const check = async (choice: unknown) => (await call('POST', '/v1/decisions/check', { choice, point: 'checks' })).body
    expect(await check(['Lint', 'Type check'])).toMatchObject({ allowed: true, blocked_by: [], warnings: [] })
    const without = await check(['Unit tests (Recommended)', 'Type check'])
    expect(without.blocked_by.map((b: any) => b.message)).toEqual(['at checks the choice must include "Lint", not only "Unit tests (Recommended)", "Type check"'])
    const ruledOut = await check(['Lint', 'Skip tests'])
    expect(ruledOut.blocked_by.map((b: any) => b.message)).toEqual(['at checks "Skip tests" must not be chosen'])
    expect(ruledOut.warnings.map((w: any) => w.message)).toEqual(['at checks "Type check" is preferred over "Lint", "Skip tests"'])
    // One option alone reads as before.
    expect((await check('Unit tests')).blocked_by.map((b: any) => b.message)).toEqual(['at checks the choice must be "Lint", not "Unit tests"'])
    const empty = await call('POST', '/v1/decisions/check', { choice: [], point: 'checks' })
    expect(empty.status).toBe(400)
    expect(empty.body.error.issues[0].path).toBe('choice')
  })
})

describe('POST /v1/decisions/check of a choice at no point (R-CON-3: point?)', () => {
  /** A required decision in force, bound to `points`; `scope` adds its task, path or stage. */
  const accepted = (key: string, points: string[], constraints: unknown[], { scope = {}, ...extra }: Record<string, unknown> = {}) =>
    decision({ key, status: 'accepted', enforce: 'required', constraints, ...extra, scope: { points, ...(scope as object) } })
  const checkOf = (call: Awaited<ReturnType<typeof createTestApp>>['call']) => async (body: Record<string, unknown>) => {
    const r = await call('POST', '/v1/decisions/check', body)
    expect(r.status).toBe(200)
    return r.body
  }

  it('blocks a choice a required must_not names at a point, saying the point, as the spec\'s grammar sends it', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', accepted('NO-KAFKA', ['queue'], [{ kind: 'must_not', option: 'Kafka' }]))
    const check = checkOf(call)
    expect(await check({ choice: 'Kafka' })).toEqual({
      allowed: false,
      blocked_by: [expect.objectContaining({ key: 'NO-KAFKA', message: 'at queue "Kafka" must not be chosen' })],
      warnings: [],
      checked: ['NO-KAFKA'],
    })
    expect(await check({ choice: 'kafka (Recommended)' })).toMatchObject({ allowed: false })
    expect(await check({ choice: 'RabbitMQ' })).toMatchObject({ allowed: true, blocked_by: [], warnings: [] })
    // With a point, as before: at another point it is not this decision's option.
    expect(await check({ choice: 'Kafka', point: 'queue' })).toMatchObject({ allowed: false })
    expect(await check({ choice: 'Kafka', point: 'logs' })).toMatchObject({ allowed: true, checked: [] })
  })

  it('reads the choice at each point as a choice there is read, in other words too, and names the points it is blocked at', async () => {
    const { call } = await createTestApp()
    // At complexity-tier the policy's Tier M is named beside Tier S: S is Tier S in other words.
    await call('POST', '/v1/decisions', accepted('NOT-S', ['complexity-tier', 'review-tier'], [{ kind: 'must_not', option: 'Tier S' }]))
    const check = checkOf(call)
    expect((await check({ choice: 'S' })).blocked_by.map((b: any) => b.message)).toEqual(['at complexity-tier "Tier S" must not be chosen (the choice "S" is it in other words)'])
    expect((await check({ choice: 'S', point: 'review-tier' })).allowed).toBe(true)
    expect((await check({ choice: 'Tier S' })).blocked_by.map((b: any) => b.message)).toEqual(['at complexity-tier, review-tier "Tier S" must not be chosen'])
    // A multi-select choice: each of its options.
    expect((await check({ choice: ['Tier L', 'S'] })).allowed).toBe(false)
    expect((await check({ choice: ['Tier L', 'Med'] })).allowed).toBe(true)
  })

  it('blocks a number over a limit bound to a point, as the limit reads it there; a limit bound to no point only a bare number', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', accepted('CAP', ['replicas'], [{ kind: 'limit', option: 'replicas', value: 3 }]))
    await call('POST', '/v1/decisions', accepted('ANY', [], [{ kind: 'limit', value: 10 }]))
    const check = checkOf(call)
    expect((await check({ choice: '5' })).blocked_by.map((b: any) => [b.key, b.message])).toEqual([['CAP', 'at replicas 5 is over the limit 3 (replicas)']])
    expect((await check({ choice: '5 replicas' })).blocked_by.map((b: any) => b.key)).toEqual(['CAP'])
    expect((await check({ choice: '3' })).allowed).toBe(true)
    expect((await check({ choice: 'many' })).allowed).toBe(true)
    expect((await check({ choice: '12' })).blocked_by.map((b: any) => b.key)).toEqual(['ANY', 'CAP'])
    expect((await check({ choice: '12 GB' })).blocked_by.map((b: any) => b.key)).toEqual(['CAP'])
  })

  it('is not blocked by a must, nor warned of by a prefer, at a point: the choice may be made at another one; an advisory must_not warns', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', accepted('USE-PG', ['database'], [{ kind: 'must', option: 'Postgres' }]))
    await call('POST', '/v1/decisions', accepted('LIKE-PG', ['database'], [{ kind: 'prefer', option: 'Postgres' }], { enforce: 'advisory' }))
    await call('POST', '/v1/decisions', accepted('NO-MONGO', ['database'], [{ kind: 'must_not', option: 'MongoDB' }], { enforce: 'advisory' }))
    const check = checkOf(call)
    expect(await check({ choice: 'MySQL' })).toEqual({ allowed: true, blocked_by: [], warnings: [], checked: ['NO-MONGO'] })
    const warned = await check({ choice: 'MongoDB' })
    expect(warned).toMatchObject({ allowed: true, blocked_by: [] })
    expect(warned.warnings.map((w: any) => [w.key, w.message])).toEqual([['NO-MONGO', 'at database "MongoDB" must not be chosen']])
    // Pulses for what it reached: the must and the prefer were not read.
    const pulses = (await call('GET', '/v1/decisions/pulses')).body
    expect(Object.fromEntries(pulses.decisions.map((d: any) => [d.key, d.by.check]))).toEqual({ 'LIKE-PG': 0, 'NO-MONGO': 2, 'USE-PG': 0 })
  })

  it('reads only the decisions that apply to the run: by task, path and stage (R-CON-4)', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', accepted('BILLING', ['queue'], [{ kind: 'must_not', option: 'Kafka' }], { scope: { path: 'src/billing' } }))
    await call('POST', '/v1/decisions', accepted('REVIEW', ['queue'], [{ kind: 'must_not', option: 'Kafka' }], { scope: { stage: 'review' } }))
    const check = checkOf(call)
    expect(await check({ choice: 'Kafka' })).toMatchObject({ allowed: true, checked: [] })
    expect((await check({ choice: 'Kafka', path: 'src/billing/ledger.ts' })).blocked_by.map((b: any) => b.key)).toEqual(['BILLING'])
    expect((await check({ choice: 'Kafka', path: 'src/shop', stage: 'review' })).blocked_by.map((b: any) => b.key)).toEqual(['REVIEW'])
  })

  it('checks against the decisions in force then with as_of, counting no pulse', async () => {
    const { call, clock } = await createTestApp()
    const before = clock.now().toISOString()
    clock.advance(DAY)
    await call('POST', '/v1/decisions', accepted('NO-KAFKA', ['queue'], [{ kind: 'must_not', option: 'Kafka' }]))
    const then = clock.now().toISOString()
    clock.advance(DAY)
    await call('POST', '/v1/decisions/NO-KAFKA/revoke', {})
    const check = checkOf(call)
    expect(await check({ choice: 'Kafka' })).toMatchObject({ allowed: true, checked: [] })
    expect((await check({ choice: 'Kafka', as_of: then })).blocked_by.map((b: any) => b.key)).toEqual(['NO-KAFKA'])
    expect(await check({ choice: 'Kafka', as_of: before })).toMatchObject({ allowed: true, checked: [] })
    expect((await call('GET', '/v1/decisions/pulses')).body.decisions[0].count).toBe(0)
  })

  it('refuses all_options with no point, naming point: the options offered are read as one point\'s', async () => {
    const { call } = await createTestApp()
    const r = await call('POST', '/v1/decisions/check', { choice: 'S', all_options: ['S', 'M', 'L'] })
    expect(r.status).toBe(400)
    expect(r.body.error.issues).toEqual([{ path: 'point', message: 'the options offered are read at the point their question was asked: give that point' }])
  })
})

describe('POST /v1/decisions/check of a choice naming a decision\'s option in other words (R-CON-3)', () => {
  /** A decision at the complexity-tier point, whose policy default is Tier M. */
  const atTier = (enforce: string, constraints: unknown[]) =>
    decision({ status: 'accepted', enforce, scope: { points: ['complexity-tier'] }, constraints })
  const checkAt = (call: Awaited<ReturnType<typeof createTestApp>>['call'], point: string) => async (choice: unknown) =>
    (await call('POST', '/v1/decisions/check', { choice, point })).body

  it('blocks the S of "Tier S, M or L?" where a required must_not names Tier S, as the recommendation rules it out', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', atTier('required', [{ kind: 'must_not', option: 'Tier S' }]))
    const check = checkAt(call, 'complexity-tier')
    // Named exactly, as before.
    expect(await check('Tier S')).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-001', message: 'at complexity-tier "Tier S" must not be chosen' }] })
    expect((await check('tier s (Recommended)')).allowed).toBe(false)
    // In other words: the choice names Tier S alone among Tier S and the policy's Tier M.
    expect(await check('S')).toMatchObject({
      allowed: false,
      blocked_by: [{ key: 'D-001', message: 'at complexity-tier "Tier S" must not be chosen (the choice "S" is it in other words)' }],
    })
    expect((await check('s (Recommended)')).allowed).toBe(false)
    expect((await check(['M', 'S'])).blocked_by.map((b: any) => b.key)).toEqual(['D-001'])
    for (const other of ['M', 'L', 'Tier M', 'Small']) expect(await check(other), other).toMatchObject({ allowed: true, blocked_by: [], warnings: [] })
    // Tier would be Tier S or the policy's Tier M: it names neither, and nothing is blocked.
    expect(await check('Tier')).toMatchObject({ allowed: true, blocked_by: [] })
  })

  it('allows the L of "Tier S, M or L?" where a required must names Tier L, and blocks M, as the recommendation fixes L', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', atTier('required', [{ kind: 'must', option: 'Tier L' }]))
    const check = checkAt(call, 'complexity-tier')
    for (const named of ['Tier L', 'L', 'l (Recommended)']) expect(await check(named), named).toMatchObject({ allowed: true, blocked_by: [] })
    expect((await check(['S', 'L'])).allowed).toBe(true)
    expect(await check('M')).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-001', message: 'at complexity-tier the choice must be "Tier L", not "M"' }] })
    // A word only shortened names no option (`Med` is not Tier M, as for the policy default), nor `Large` Tier L.
    for (const other of ['Tier S', 'S', 'Large', 'Tier']) expect((await check(other)).allowed, other).toBe(false)
  })

  it('warns of advisory decisions as they name the choice in other words: prefer, must and must_not', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', atTier('advisory', [{ kind: 'prefer', option: 'Tier L' }]))
    await call('POST', '/v1/decisions', atTier('advisory', [{ kind: 'must_not', option: 'Tier S' }]))
    const check = checkAt(call, 'complexity-tier')
    expect(await check('L')).toMatchObject({ allowed: true, blocked_by: [], warnings: [] })
    expect(await check('S')).toMatchObject({
      allowed: true,
      blocked_by: [],
      warnings: [
        { key: 'D-001', message: 'at complexity-tier "Tier L" is preferred over "S"' },
        { key: 'D-002', message: 'at complexity-tier "Tier S" must not be chosen (the choice "S" is it in other words)' },
      ],
    })
    expect((await check('M')).warnings.map((w: any) => w.key)).toEqual(['D-001'])
    await call('POST', '/v1/decisions', atTier('advisory', [{ kind: 'must', option: 'Tier M' }]))
    expect((await check('M')).warnings.map((w: any) => w.key)).toEqual(['D-001'])
    expect((await check('L')).warnings.map((w: any) => [w.key, w.message])).toEqual([['D-003', 'at complexity-tier the choice must be "Tier M", not "L"']])
  })

  it('blocks nothing where the choice would name two of the options the decisions name, and names it exactly where one is it', async () => {
    const { call } = await createTestApp()
    const atModel = (enforce: string, constraints: unknown[]) => decision({ status: 'accepted', enforce, scope: { points: ['model'] }, constraints })
    await call('POST', '/v1/decisions', atModel('required', [{ kind: 'must_not', option: 'Sonnet 4.5' }]))
    await call('POST', '/v1/decisions', atModel('advisory', [{ kind: 'prefer', option: 'Sonnet 4' }]))
    const check = checkAt(call, 'model')
    // Sonnet would be Sonnet 4.5 or Sonnet 4: neither is taken for it.
    expect(await check('Sonnet')).toMatchObject({ allowed: true, blocked_by: [], warnings: [{ key: 'D-002', message: 'at model "Sonnet 4" is preferred over "Sonnet"' }] })
    // Claude Sonnet 4.5 holds Sonnet 4.5's words alone (4.5 is one word, not 4).
    expect(await check('Claude Sonnet 4.5')).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-001' }] })
    expect(await check('Claude Sonnet 4')).toMatchObject({ allowed: true, blocked_by: [], warnings: [] })
    // A choice that is one option exactly is that option, not another it shares words with.
    await call('POST', '/v1/decisions', atTier('required', [{ kind: 'must_not', option: 'Tier S' }]))
    await call('POST', '/v1/decisions', atTier('advisory', [{ kind: 'prefer', option: 'S' }]))
    const tier = checkAt(call, 'complexity-tier')
    expect(await tier('S')).toMatchObject({ allowed: true, blocked_by: [], warnings: [] })
    expect(await tier('Tier S')).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-003' }] })
  })

  it('takes the policy\'s Tier M for the M a decision names, as the recommendation does: must M allows Tier M, must_not M blocks it', async () => {
    const TIER_QUESTION = { question: 'Which complexity tier should this SPEC use?', all_options: ['Tier S', 'Tier M', 'Tier L'] }
    const must = await createTestApp()
    await must.call('POST', '/v1/decisions', atTier('required', [{ kind: 'must', option: 'M' }]))
    // The recommendation fixes Tier M, and shows it so: the check lets that choice through.
    expect((await must.call('POST', '/v1/recommendations', TIER_QUESTION)).body).toMatchObject({ state: 'enforced', recommended: 'Tier M' })
    const fixed = checkAt(must.call, 'complexity-tier')
    for (const named of ['M', 'Tier M', 'Tier M (Recommended)']) expect(await fixed(named), named).toMatchObject({ allowed: true, blocked_by: [], warnings: [] })
    for (const other of ['L', 'Tier L', 'S']) expect((await fixed(other)).allowed, other).toBe(false)
    const never = await createTestApp()
    await never.call('POST', '/v1/decisions', atTier('required', [{ kind: 'must_not', option: 'M' }]))
    // The recommendation takes Tier M out: the check blocks it, and says why.
    expect((await never.call('POST', '/v1/recommendations', TIER_QUESTION)).body.options.map((o: any) => o.option)).toEqual(['Tier S', 'Tier L'])
    const ruledOut = checkAt(never.call, 'complexity-tier')
    expect(await ruledOut('Tier M')).toMatchObject({
      allowed: false,
      blocked_by: [{ key: 'D-001', message: 'at complexity-tier "M" must not be chosen (the choice "Tier M" is it in other words)' }],
    })
    for (const other of ['Tier S', 'S', 'L', 'Tier']) expect(await ruledOut(other), other).toMatchObject({ allowed: true, blocked_by: [] })
  })
  it('reads Claude Sonnet 4.5 as the Sonnet 4.5 a decision names beside the policy\'s Sonnet, which is that option too', async () => {
    const { call } = await createTestApp()
    const atModel = (constraints: unknown[]) => decision({ status: 'accepted', enforce: 'required', scope: { points: ['model-selection'] }, constraints })
    await call('POST', '/v1/decisions', atModel([{ kind: 'must', option: 'Sonnet 4.5' }]))
    const MODELS = { point: 'model-selection', question: 'Which model should run this?', all_options: ['Claude Sonnet 4.5', 'Claude Opus 4.1', 'Claude Haiku 4.5'] }
    expect((await call('POST', '/v1/recommendations', MODELS)).body).toMatchObject({ state: 'enforced', recommended: 'Claude Sonnet 4.5' })
    const check = checkAt(call, 'model-selection')
    for (const named of ['Sonnet 4.5', 'Claude Sonnet 4.5', 'Claude Sonnet 4.5 (Recommended)', 'Sonnet']) expect(await check(named), named).toMatchObject({ allowed: true, blocked_by: [] })
    for (const other of ['Claude Opus 4.1', 'Claude Sonnet 4', 'Claude']) expect((await check(other)).allowed, other).toBe(false)
  })
})

describe('POST /v1/decisions/check where one option alone is named at the point (R-CON-3)', () => {
  it('reads nothing in other words: a lone decision\'s Redis Cluster is not Redis, nor its Kafka Kafka Streams', async () => {
    const { call } = await createTestApp()
    const at = (point: string, option: string) =>
      decision({ status: 'accepted', enforce: 'required', scope: { points: [point] }, constraints: [{ kind: 'must_not', option }] })
    await call('POST', '/v1/decisions', at('cache-backend', 'Redis Cluster'))
    await call('POST', '/v1/decisions', at('queue-backend', 'Kafka'))
    const check = async (choice: string, point: string) => (await call('POST', '/v1/decisions/check', { choice, point })).body
    expect(await check('Redis', 'cache-backend')).toMatchObject({ allowed: true, blocked_by: [] })
    expect(await check('Kafka Streams', 'queue-backend')).toMatchObject({ allowed: true, blocked_by: [] })
    // Named as labels are matched, still blocked.
    expect(await check('redis cluster', 'cache-backend')).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-001' }] })
    expect(await check('Kafka (Recommended)', 'queue-backend')).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-002' }] })
  })
})

describe('POST /v1/decisions/check of a choice among the options offered (R-CON-2, R-CON-3)', () => {
  type Call = Awaited<ReturnType<typeof createTestApp>>['call']
  const required = (point: string, constraints: unknown[]) => decision({ status: 'accepted', enforce: 'required', scope: { points: [point] }, constraints })
  const labelOf = (o: string | { label: string }) => (typeof o === 'string' ? o : o.label)

  /**
   * What the recommendation of `asked` leaves to choose (the one option it fixes, else those it
   * does not rule out) beside the options the check of each, with the same options, allows.
   */
  async function sideBySide(call: Call, asked: { point?: string; question: string; all_options: Array<string | { label: string; description?: string }> }) {
    const rec = (await call('POST', '/v1/recommendations', asked)).body
    const ruledOut = (rec.decisions ?? []).filter((d: any) => d.enforce === 'required' && d.effect === 'ruled-out').flatMap((d: any) => d.options)
    const offered = asked.all_options.map(labelOf)
    const left = rec.state === 'enforced' ? [rec.recommended].flat() : offered.filter((o) => !ruledOut.includes(o))
    const allowed: string[] = []
    for (const choice of offered) {
      const verdict = await call('POST', '/v1/decisions/check', { choice, point: rec.point, all_options: asked.all_options })
      expect(verdict.status, choice).toBe(200)
      if (verdict.body.allowed) allowed.push(choice)
    }
    return { point: rec.point, left, allowed }
  }

  const MODELS = { question: 'Which model should run this?', all_options: ['Claude Opus 4.1', 'Claude Sonnet 4.5', 'Claude Haiku 4.5'] }

  it('blocks Claude Sonnet 4.5 where a required must_not names Sonnet, as the recommendation offering it takes it out', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', required('model-selection', [{ kind: 'must_not', option: 'Sonnet' }]))
    expect(await sideBySide(call, MODELS)).toEqual({ point: 'model-selection', left: ['Claude Opus 4.1', 'Claude Haiku 4.5'], allowed: ['Claude Opus 4.1', 'Claude Haiku 4.5'] })
    const check = async (choice: unknown, extra: Record<string, unknown> = { all_options: MODELS.all_options }) =>
      (await call('POST', '/v1/decisions/check', { choice, point: 'model-selection', ...extra })).body
    expect(await check('claude sonnet 4.5 (Recommended)')).toMatchObject({
      allowed: false,
      blocked_by: [{ key: 'D-001', message: 'at model-selection "Sonnet" must not be chosen (the choice "claude sonnet 4.5 (Recommended)" is it in other words)' }],
    })
    expect((await check(['Claude Opus 4.1', 'Claude Sonnet 4.5'])).allowed).toBe(false)
    // Without the options offered, read as before: Sonnet, the policy's default too, is the one option named there.
    expect((await check('Claude Sonnet 4.5', {})).allowed).toBe(true)
  })

  it('keeps Redis Cluster offered beside Redis under a required must_not Redis, as the recommendation does, and warns of the prefer', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', required('cache-backend', [{ kind: 'must_not', option: 'Redis' }, { kind: 'prefer', option: 'Memcached' }]))
    const CACHES = { point: 'cache-backend', question: 'Which cache?', all_options: ['Redis', { label: 'Redis Cluster', description: 'Sharded' }, 'Memcached'] }
    expect(await sideBySide(call, CACHES)).toEqual({ point: 'cache-backend', left: ['Redis Cluster', 'Memcached'], allowed: ['Redis Cluster', 'Memcached'] })
    const check = async (choice: string, extra: Record<string, unknown> = { all_options: CACHES.all_options }) =>
      (await call('POST', '/v1/decisions/check', { choice, point: 'cache-backend', ...extra })).body
    expect(await check('Redis Cluster')).toMatchObject({
      allowed: true,
      blocked_by: [],
      warnings: [{ key: 'D-001', message: 'at cache-backend "Memcached" is preferred over "Redis Cluster"' }],
    })
    expect(await check('redis')).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-001', message: 'at cache-backend "Redis" must not be chosen' }] })
    // Without them, Redis Cluster is read among Redis and Memcached, the options named there, as Redis.
    expect((await check('Redis Cluster', {})).allowed).toBe(false)
  })

  it('blocks S and M of "Tier S, M or L?" and allows L under must_not Tier S and must Tier L, as the recommendation fixes L', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', required('complexity-tier', [{ kind: 'must_not', option: 'Tier S' }]))
    await call('POST', '/v1/decisions', required('complexity-tier', [{ kind: 'must', option: 'Tier L' }]))
    const TIERS = { question: 'Tier S, M or L?', all_options: ['S', 'M', 'L'] }
    expect(await sideBySide(call, TIERS)).toEqual({ point: 'complexity-tier', left: ['L'], allowed: ['L'] })
    const check = async (choice: string) => (await call('POST', '/v1/decisions/check', { choice, point: 'complexity-tier', all_options: TIERS.all_options })).body
    expect((await check('S')).blocked_by.map((b: any) => [b.key, b.message])).toEqual([
      ['D-001', 'at complexity-tier "Tier S" must not be chosen (the choice "S" is it in other words)'],
      ['D-002', 'at complexity-tier the choice must be "Tier L", not "S"'],
    ])
    // A choice none of the options is, typed in the user's words, is read as without them.
    expect((await check('Tier L')).allowed).toBe(true)
    expect((await check('Large')).allowed).toBe(false)
  })

  it('reads a choice against a limit as the option offered it names, in any case, as the recommendation rules that option out', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', required('audience', [{ kind: 'limit', option: 'users', value: 5000 }]))
    const AUDIENCES = { point: 'audience', question: 'How many users?', all_options: ['100 users', '2M users', '10k users'] }
    expect(await sideBySide(call, AUDIENCES)).toEqual({ point: 'audience', left: ['100 users'], allowed: ['100 users'] })
    const check = async (choice: unknown, extra: Record<string, unknown> = { all_options: AUDIENCES.all_options }) =>
      (await call('POST', '/v1/decisions/check', { choice, point: 'audience', ...extra })).body
    // `2m users` is the offered `2M users` as a choice is matched: two million, not 2 of a unit `m users`.
    expect(await check('2m users')).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-001', message: '2000000 is over the limit 5000 (users)' }] })
    expect((await check(['100 users', '2m users'])).allowed).toBe(false)
    // Without the options offered, it is read as written.
    expect((await check('2m users', {})).allowed).toBe(true)
  })

  it('refuses options a recommendation refuses, each named at all_options.N, and options sent with no choice; nothing is counted', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', required('complexity-tier', [{ kind: 'must', option: 'Tier L' }]))
    const pulses = async () => (await call('GET', '/v1/decisions/pulses')).body
    const before = await pulses()
    const refused = async (body: Record<string, unknown>) => {
      const answer = await call('POST', '/v1/decisions/check', body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      return [answer.body.error.code, answer.body.error.issues.map((i: any) => i.path)]
    }
    const at = { choice: 'L', point: 'complexity-tier' }
    expect(await refused({ ...at, all_options: ['S', '  ', 'L'] })).toEqual(['invalid_request', ['all_options.1']])
    expect(await refused({ ...at, all_options: ['S', { label: 'M', description: 5 }] })).toEqual(['invalid_request', ['all_options.1.description']])
    expect(await refused({ ...at, all_options: ['S', 'L', 'L (Recommended)'] })).toEqual(['duplicate_option', ['all_options.2']])
    expect(await refused({ ...at, all_options: [] })).toEqual(['invalid_request', ['all_options']])
    expect(await refused({ ...at, all_options: Array.from({ length: LIMITS.options + 1 }, (_, i) => `Option ${i}`) })).toEqual(['invalid_request', ['all_options']])
    expect(await refused({ action: 'ls', all_options: ['S', 'M', 'L'] })).toEqual(['invalid_request', ['all_options']])
    expect(await pulses()).toEqual(before)
  })
})

describe('audits as of a past moment (R-REC-9, R-CON-3, R-CON-4, R-CON-5)', () => {
  /** D-001 forbids force pushes from day 0 to day 2, when D-002 (forbidding any push) supersedes it; D-003 is proposed on day 3. */
  async function history() {
    const app = await createTestApp()
    const { call, clock } = app
    const at = (days: number) => new Date(clock.now().getTime() + days * DAY).toISOString()
    const forbid = (pattern: string) => ({ enforce: 'required', constraints: [{ kind: 'must_not', pattern }] })
    await call('POST', '/v1/decisions', decision({ title: 'Never force push', status: 'accepted', ...forbid('git push (.* )?--force') }))
    const day = { one: at(1), two: at(2), three: at(3) }
    clock.set(day.two)
    await call('POST', '/v1/decisions', decision({ title: 'No push from agents', status: 'accepted', supersedes: 'D-001', ...forbid('git push') }))
    clock.set(day.three)
    await call('POST', '/v1/decisions', decision({ title: 'Not yet accepted' }))
    clock.advance(DAY)
    return { ...app, day, before: new Date(Date.parse(day.one) - 2 * DAY).toISOString() }
  }
  const counts = async (call: Awaited<ReturnType<typeof createTestApp>>['call']) =>
    Object.fromEntries((await call('GET', '/v1/decisions/pulses')).body.decisions.map((d: any) => [d.key, d.count]))

  it('checks a command against the decisions in force then, as they stood then, and counts no pulse', async () => {
    const { call, day, before } = await history()
    const check = async (action: string, as_of?: string) => (await call('POST', '/v1/decisions/check', { action, as_of })).body
    expect(await check('git push origin main', day.one)).toMatchObject({ allowed: true, checked: ['D-001'] })
    const blocked = await check('git push --force origin main', day.one)
    expect(blocked.allowed).toBe(false)
    expect(blocked.blocked_by.map((b: any) => [b.key, b.title])).toEqual([['D-001', 'Never force push']])
    expect(await check('git push --force', before)).toMatchObject({ allowed: true, checked: [] })
    expect(await counts(call)).toEqual({ 'D-001': 0, 'D-002': 0, 'D-003': 0 })
    // Now D-002 holds, and a check counts.
    expect((await check('git push origin main')).blocked_by.map((b: any) => b.key)).toEqual(['D-002'])
    expect(await counts(call)).toEqual({ 'D-001': 0, 'D-002': 1, 'D-003': 0 })
  })

  it('lists the decisions that applied then, as they stood then, and counts no pulse', async () => {
    const { call, day, before } = await history()
    const applicable = async (as_of: string) => (await call('GET', `/v1/decisions/applicable?as_of=${as_of}`)).body.decisions
    expect((await applicable(day.one)).map((d: any) => [d.key, d.status, d.superseded_by])).toEqual([['D-001', 'accepted', null]])
    expect((await applicable(day.three)).map((d: any) => d.key)).toEqual(['D-002'])
    expect(await applicable(before)).toEqual([])
    expect(await counts(call)).toEqual({ 'D-001': 0, 'D-002': 0, 'D-003': 0 })
  })

  it('lists the decisions as they stood then: status, links and version of then, those proposed later left out', async () => {
    const { call, day, before } = await history()
    const list = async (query: string) => {
      const { status, body } = await call('GET', `/v1/decisions?${query}`)
      expect(status, query).toBe(200)
      return body.decisions.map((d: any) => [d.key, d.status, d.superseded_by, d.supersedes, d.version])
    }
    expect(await list(`as_of=${day.one}`)).toEqual([['D-001', 'accepted', null, null, 2]])
    expect(await list(`as_of=${day.two}`)).toEqual([
      ['D-001', 'superseded', 'D-002', null, 3],
      ['D-002', 'accepted', null, 'D-001', 2],
    ])
    expect(await list(`as_of=${day.three}`)).toEqual([
      ['D-001', 'superseded', 'D-002', null, 3],
      ['D-002', 'accepted', null, 'D-001', 2],
      ['D-003', 'proposed', null, null, 1],
    ])
    expect(await list(`as_of=${before}`)).toEqual([])
    // status is the status then: D-001 was the accepted one on day one, D-002 is now.
    expect(await list(`status=accepted&as_of=${day.one}`)).toEqual([['D-001', 'accepted', null, null, 2]])
    expect(await list(`status=superseded&as_of=${day.one}`)).toEqual([])
    expect((await list('status=accepted')).map((d: any[]) => d[0])).toEqual(['D-002'])
    // An audit reads: no pulse.
    expect(await counts(call)).toEqual({ 'D-001': 0, 'D-002': 0, 'D-003': 0 })
  })

  it('lists the decisions bound to a point as they stood then, by their status then', async () => {
    const { call, clock } = await createTestApp()
    const start = clock.now().toISOString()
    await call('POST', '/v1/decisions', decision({ scope: { points: ['database'] } }))
    await call('POST', '/v1/decisions', decision({ status: 'accepted', scope: { points: ['complexity-tier'] } }))
    clock.advance(DAY)
    await call('POST', '/v1/decisions/D-001/accept')
    const keys = async (query: string) => (await call('GET', `/v1/decisions?${query}`)).body.decisions.map((d: any) => [d.key, d.status])
    expect(await keys(`point=database&as_of=${start}`)).toEqual([['D-001', 'proposed']])
    expect(await keys(`point=database&status=accepted&as_of=${start}`)).toEqual([])
    expect(await keys('point=database&status=accepted')).toEqual([['D-001', 'accepted']])
    expect(await keys(`point=complexity-tier&as_of=${new Date(Date.parse(start) - 1).toISOString()}`)).toEqual([])
  })

  it('reads a decision and its chain as they stood then; one not yet proposed is a 404 that says as of when', async () => {
    const { call, clock, day, before } = await history()
    const then = (await call('GET', `/v1/decisions/D-001?as_of=${day.one}`)).body
    expect(then).toMatchObject({ status: 'accepted', superseded_by: null, version: 2 })
    expect(then.events.map((e: any) => e.type)).toEqual(['proposed', 'accepted'])
    const why = (await call('GET', `/v1/decisions/D-001/why?as_of=${day.one}`)).body
    expect(why.current).toBe('D-001')
    expect(why.chain.map((l: any) => [l.key, l.status, l.superseded_at])).toEqual([['D-001', 'accepted', null]])
    // The answer says the moment it describes, so that a client can tell an answer as of then from
    // one of now (a service of an older version ignores as_of): the moment asked, as one instant…
    expect(why.as_of).toBe(day.one)
    const offset = new Date(Date.parse(day.one)).toISOString().replace('Z', '+00:00')
    expect((await call('GET', `/v1/decisions/D-001/why?as_of=${encodeURIComponent(offset)}`)).body.as_of).toBe(day.one)
    // …or, without as_of, the moment it was read.
    expect((await call('GET', '/v1/decisions/D-001/why')).body).toMatchObject({ current: 'D-002', as_of: clock.now().toISOString() })
    for (const path of ['/v1/decisions/D-003', '/v1/decisions/D-003/why', '/v1/decisions/D-001']) {
      const asOf = path === '/v1/decisions/D-001' ? before : day.two
      const missing = await call('GET', `${path}?as_of=${asOf}`)
      expect(missing.status, path).toBe(404)
      expect(missing.body.error).toMatchObject({ code: 'decision_not_found', issues: [{ path: 'key' }] })
      expect(missing.body.error.message).toBe(`no decision ${path.split('/')[3]} as of ${asOf}`)
    }
    // A key never used is missing, at any moment: no "as of" sends the auditor looking for a later one.
    for (const path of ['/v1/decisions/D-404', '/v1/decisions/D-404/why']) {
      expect((await call('GET', `${path}?as_of=${day.two}`)).body.error, path).toMatchObject({ code: 'decision_not_found', message: 'no decision D-404' })
    }
  })

  it('names, in a store an earlier version wrote, the fields a replay reads as they are now (unrecorded)', async () => {
    // A re-import's event of before `before` was kept: it changed enforce and title, and does not say from what.
    const db = new MemoryLevel<string, string>()
    const written = await createLevelDecisionStore(db as never)
    await written.transact(async (tx) => {
      tx.put(decisionRecord('ADR-1', { title: 'Use GraphQL, required', version: 2, updated_at: '2026-07-02T10:00:00.000Z' }))
      tx.append({ key: 'ADR-1', seq: 1, at: '2026-07-01T10:00:00.000Z', type: 'imported', from: null, to: 'accepted' })
      tx.append({ key: 'ADR-1', seq: 2, at: '2026-07-02T10:00:00.000Z', type: 'reimported', from: 'accepted', to: 'accepted', changed: ['enforce', 'title'] })
    })
    const { call } = await createTestApp({ db, now: '2026-07-03T10:00:00.000Z' })
    const then = '2026-07-01T12:00:00.000Z'
    expect((await call('GET', `/v1/decisions/ADR-1?as_of=${then}`)).body).toMatchObject({ version: 1, unrecorded: ['enforce', 'title'] })
    expect((await call('GET', `/v1/decisions/ADR-1/why?as_of=${then}`)).body.unrecorded).toEqual(['enforce', 'title'])
    expect((await call('GET', `/v1/decisions/applicable?as_of=${then}`)).body.decisions).toMatchObject([{ key: 'ADR-1', unrecorded: ['enforce', 'title'] }])
    // After the re-import, and without as_of, everything reads as it was.
    for (const path of ['/v1/decisions/ADR-1?as_of=2026-07-02T12:00:00.000Z', '/v1/decisions/ADR-1', '/v1/decisions/ADR-1/why']) {
      expect((await call('GET', path)).body.unrecorded, path).toBeUndefined()
    }
  })

  it('refuses an as_of that is not a time, or more than 5 minutes ahead of the service clock, naming as_of', async () => {
    const { call, clock } = await history()
    const ahead = new Date(clock.now().getTime() + 3600_000).toISOString()
    const close = new Date(clock.now().getTime() + 60_000).toISOString()
    for (const [method, path, body] of [
      ['POST', '/v1/decisions/check', (as_of: string) => ({ action: 'ls', as_of })],
      ['GET', '/v1/decisions/applicable', undefined],
      ['GET', '/v1/decisions', undefined],
      ['GET', '/v1/decisions/D-001', undefined],
      ['GET', '/v1/decisions/D-001/why', undefined],
    ] as const) {
      const ask = (as_of: string) => (body === undefined ? call(method, `${path}?as_of=${encodeURIComponent(as_of)}`) : call(method, path, body(as_of)))
      const future = await ask(ahead)
      expect(future.status, path).toBe(400)
      expect(future.body.error, path).toMatchObject({ code: 'timestamp_in_future', issues: [{ path: 'as_of' }] })
      const garbled = await ask('last tuesday')
      expect(garbled.status, path).toBe(400)
      expect(garbled.body.error.issues.map((i: any) => i.path), path).toEqual(['as_of'])
      expect((await ask(close)).status, path).toBe(200)
    }
    expect(await counts(call)).toEqual({ 'D-001': 0, 'D-002': 0, 'D-003': 0 })
  })
})

describe('POST /v1/decisions/import (R-CON-6)', () => {
  it.each(['adr-tools', 'madr', 'log4brains', 'decisions-md', 'axme-code/.axme-code/decisions'])('imports %s records with their statuses and links; a second import changes nothing', async (format) => {
    const { call, clock } = await createTestApp()
    const { records } = await readAdrFolder(FIXTURES + format)
    const first = await call('POST', '/v1/decisions/import', { records })
    expect(first.status).toBe(200)
    expect(first.body.created).toHaveLength(records.length)
    expect(first.body.warnings).toEqual([])
    const before = (await call('GET', '/v1/decisions')).body.decisions

    clock.advance(DAY)
    const second = await call('POST', '/v1/decisions/import', { records })
    expect(second.body).toEqual({ created: [], updated: [], unchanged: records.map((r) => r.key), conflicts: [], warnings: [], missing: [], changes: [], rekeyed: [] })
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual(before)

    for (const r of records) {
      const stored = (await call('GET', `/v1/decisions/${r.key}`)).body
      // A record that writes no date (or one that cannot be read) is dated the day of its first import, which the second keeps.
      expect([stored.status, stored.date, stored.supersedes, stored.superseded_by]).toEqual([r.status, r.date ?? START.slice(0, 10), r.supersedes, r.superseded_by])
      expect(stored.events).toHaveLength(1)
      expect(stored.events[0]).toMatchObject({ type: 'imported', from: null, to: r.status })
    }
  })

  it('names an evidence hash that is not its content\'s in the record that has it, and stores none of the records', async () => {
    const { call } = await createTestApp()
    const record = (key: string, evidence: unknown[] = []) => ({
      key, title: 'T', decision: 'D', rationale: 'R', status: 'accepted', date: '2026-01-01', origin: { path: `doc/adr/${key}.md`, line: 1, format: 'madr' }, evidence,
    })
    const bad = { kind: 'benchmark', summary: 's', hash: 'sha256:00', content: 'c' }
    const refused = await call('POST', '/v1/decisions/import', { records: [record('ADR-1'), record('ADR-2', [{ kind: 'doc', summary: 's', content: 'x' }, bad])] })
    expect(refused.status).toBe(400)
    expect(refused.body.error.code).toBe('evidence_hash_mismatch')
    expect(refused.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['records.1.evidence.1.hash'])
    expect(refused.body.error.message).toBe('records.1.evidence.1: hash does not match its content')
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual([])
    // A decision proposed with one names its own evidence field, as before.
    const proposed = await call('POST', '/v1/decisions', { title: 't', decision: 'd', rationale: 'r', evidence: [bad] })
    expect(proposed.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['evidence.0.hash'])
  })

  it('updates a record changed in the repository, and leaves alone a decision that was not imported', async () => {
    const { call } = await createTestApp()
    const { records } = await readAdrFolder(FIXTURES + 'decisions-md')
    await call('POST', '/v1/decisions/import', { records })
    const changed = records.map((r) => (r.key === 'D-005' ? { ...r, status: 'accepted' as const } : r))
    const update = await call('POST', '/v1/decisions/import', { records: changed })
    expect(update.body.updated).toEqual(['D-005'])
    const d5 = (await call('GET', '/v1/decisions/D-005')).body
    expect(d5.status).toBe('accepted')
    expect(d5.events.at(-1)).toMatchObject({ type: 'reimported', from: 'proposed', to: 'accepted', changed: ['status'] })

    const fresh = await createTestApp()
    await fresh.call('POST', '/v1/decisions', decision({ key: 'D-001' }))
    const clash = await fresh.call('POST', '/v1/decisions/import', { records })
    expect(clash.body.conflicts.find((c: any) => c.key === 'D-001').message).toBe('D-001 exists and it was not created by an import; it is left as it is')
    expect((await fresh.call('GET', '/v1/decisions/D-001')).body.title).toBe('A decision')
  })

  it('stores nothing of a folder imported for the first time whose keys decisions made over the API hold, so that the --prefix it advises stores each record once', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ key: 'D-001' }))
    const { records } = await readAdrFolder(FIXTURES + 'decisions-md')
    expect(records.length).toBeGreaterThan(1)
    const clash = (await call('POST', '/v1/decisions/import', { records })).body
    expect([clash.created, clash.updated, clash.unchanged]).toEqual([[], [], []])
    expect(clash.conflicts.map((c: { key: string }) => c.key)).toEqual(records.map((r) => r.key))
    expect(clash.conflicts[1].message).toBe(`${records[1]?.key} is not imported either: D-001 of this folder belongs to decisions not made by an import; import this one with --prefix`)
    expect((await call('GET', '/v1/decisions')).body.decisions.map((d: { key: string }) => d.key)).toEqual(['D-001'])
    // As import-adr --prefix LOG sends them: each stored once, the API's D-001 left as it is.
    const prefixed = records.map((r) => ({ ...r, key: `LOG-${r.key}`, supersedes: r.supersedes && `LOG-${r.supersedes}`, superseded_by: r.superseded_by && `LOG-${r.superseded_by}` }))
    expect((await call('POST', '/v1/decisions/import', { records: prefixed })).body.created).toEqual(prefixed.map((r) => r.key))
    expect((await call('GET', '/v1/decisions/D-001')).body.title).toBe('A decision')
  })

  it('drops a link to a decision the import does not write that does not name the record back, rather than leave it one-sided', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({ key: 'D-001', status: 'accepted' }))
    const record = (key: string, extra: Record<string, unknown>) => ({
      key, title: `Record ${key}`, decision: 'd', rationale: 'r', status: 'accepted', date: '2024-01-01',
      origin: { path: `${key}.md`, line: 1, format: 'adr-tools', folder: 'docs/adr' }, ...extra,
    })
    const report = (await call('POST', '/v1/decisions/import', { records: [record('ADR-0001', { supersedes: 'D-001' }), record('ADR-0002', { superseded_by: 'D-001' })] })).body
    expect(report.created).toEqual(['ADR-0001', 'ADR-0002'])
    expect(report.warnings).toEqual([
      { key: 'ADR-0001', message: 'supersedes D-001 is not among the records imported, and D-001 does not name ADR-0001 back; the link is dropped' },
      { key: 'ADR-0002', message: 'superseded_by D-001 is not among the records imported, and D-001 does not name ADR-0002 back; the link is dropped' },
    ])
    // D-001 stays in force, and no chain names it as replaced.
    expect((await call('GET', '/v1/decisions/D-001')).body).toMatchObject({ status: 'accepted', superseded_by: null, supersedes: null })
    expect((await call('GET', '/v1/decisions/ADR-0001')).body).toMatchObject({ supersedes: null })
    expect((await call('GET', '/v1/decisions/ADR-0001/why')).body).toMatchObject({ chain: [{ key: 'ADR-0001' }], in_force: 'ADR-0001' })
    expect((await call('GET', '/v1/decisions/ADR-0002')).body).toMatchObject({ superseded_by: null })
  })

  it('never lets a record of another file overwrite one already imported (two folders numbered alike)', async () => {
    const { call } = await createTestApp()
    const adrTools = (await readAdrFolder(FIXTURES + 'adr-tools')).records
    const madr = (await readAdrFolder(FIXTURES + 'madr')).records
    const shared = madr.map((r) => r.key).filter((k) => adrTools.some((a) => a.key === k))
    expect(shared.length).toBeGreaterThan(0)
    await call('POST', '/v1/decisions/import', { records: adrTools })
    const before = (await call('GET', '/v1/decisions')).body.decisions
    const second = await call('POST', '/v1/decisions/import', { records: madr })
    expect([second.body.created, second.body.updated]).toEqual([[], []])
    const left = second.body.conflicts as Array<{ key: string; message: string }>
    expect(left.filter((c) => c.message.includes(' exists ')).map((c) => c.key).sort()).toEqual([...shared].sort())
    // Its other records are not taken either: a second folder numbered like the first goes in with --prefix.
    expect(left.map((c) => c.key).sort()).toEqual(madr.map((r) => r.key).sort())
    expect(left.every((c) => c.message.includes('--prefix'))).toBe(true)
    const again = await call('POST', '/v1/decisions/import', { records: adrTools })
    expect(again.body.unchanged).toHaveLength(adrTools.length)
    const kept = (await call('GET', '/v1/decisions')).body.decisions.filter((d: { key: string }) => shared.includes(d.key))
    expect(kept).toEqual(before.filter((d: { key: string }) => shared.includes(d.key)))
  })
})

describe('a log imported before whose next key the API gave a decision (R-CON-6, R-CON-1)', () => {
  const section = (key: string, line: number) => ({
    key, title: `Title of ${key}`, decision: 'We do this.', rationale: 'Because.', status: 'accepted', date: '2024-01-10',
    origin: { path: 'DECISIONS.md', line, format: 'decisions-md', folder: 'acme/docs' },
  })

  it('leaves the API\'s decision as it is, and says the record is not imported and which key to give it in its file', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions/import', { records: [section('D-0001', 3)], folder: 'acme/docs', files: ['DECISIONS.md'] })
    const made = await call('POST', '/v1/decisions', decision({}))
    expect(made.body.key).toBe('D-0002')
    // The log's own next section, written since, with the number it follows on with.
    const again = (await call('POST', '/v1/decisions/import', { records: [section('D-0001', 3), section('D-0002', 9), section('D-0003', 15)], folder: 'acme/docs', files: ['DECISIONS.md'] })).body
    expect([again.created, again.unchanged]).toEqual([['D-0003'], ['D-0001']])
    expect(again.conflicts).toEqual([
      {
        key: 'D-0002',
        message:
          'D-0002 exists and it was not created by an import (a decision proposed over the API without a key is given the D- number after the highest in use, imported ones too); ' +
          'it is left as it is, and the record of DECISIONS.md:9 is not imported: give it a key no decision holds in its file (D-0004 is free), and import again',
      },
    ])
    expect((await call('GET', '/v1/decisions/D-0002')).body).toMatchObject({ title: 'A decision', imported: null })
    // Given that key, it is imported, and the next import changes nothing.
    const renumbered = [section('D-0001', 3), section('D-0004', 9), section('D-0003', 15)]
    expect((await call('POST', '/v1/decisions/import', { records: renumbered, folder: 'acme/docs', files: ['DECISIONS.md'] })).body).toMatchObject({ created: ['D-0004'], conflicts: [] })
    expect((await call('POST', '/v1/decisions/import', { records: renumbered, folder: 'acme/docs', files: ['DECISIONS.md'] })).body).toMatchObject({ created: [], updated: [], conflicts: [] })
  })
})

describe('a record of a folder imported before, keyed by its file\'s name, whose key a decision made over the API holds (R-CON-6)', () => {
  it('is said not imported with its file to rename, which holds no key to change', async () => {
    const { call } = await createTestApp()
    const adr = (n: number) => ({
      key: `ADR-000${n}`, title: `Use ${n}`, decision: 'We do this.', rationale: 'Because.', status: 'accepted', date: '2024-01-10',
      origin: { path: `000${n}-use-${n}.md`, line: 1, format: 'adr-tools', folder: 'acme/docs/adr' },
    })
    await call('POST', '/v1/decisions/import', { records: [adr(1)], folder: 'acme/docs/adr', files: ['0001-use-1.md'] })
    await call('POST', '/v1/decisions', decision({ key: 'ADR-0002' }))
    const again = (await call('POST', '/v1/decisions/import', { records: [adr(1), adr(2)], folder: 'acme/docs/adr', files: ['0001-use-1.md', '0002-use-2.md'] })).body
    expect(again.conflicts).toEqual([
      {
        key: 'ADR-0002',
        message:
          'ADR-0002 exists and it was not created by an import; it is left as it is, and the record of 0002-use-2.md:1 is not imported: ' +
          "its key is read from its file's name: rename the file so that its key is one no decision holds, and import again",
      },
    ])
  })
})

describe('a store imported before its ADR-NNNN-slug.md files were keyed by their number (R-CON-5, R-CON-6)', () => {
  const folder = 'github.com/acme/shop/docs/adr'
  const files = ['ADR-0001-record-decisions.md', 'ADR-0002-use-mysql.md', 'ADR-0003-use-postgres.md']
  const record = (key: string, path: string, extra: Record<string, unknown> = {}) => ({
    key, title: `Title of ${path}`, decision: 'We do this.', rationale: 'Because.', status: 'accepted', date: null,
    origin: { path, line: 1, format: 'adr-tools', folder }, ...extra,
  })
  /** The folder as a version before this read it, each record keyed by its whole name, and as this one reads it. */
  const before = [
    record('ADR-0001-record-decisions', files[0] as string),
    record('ADR-0002-use-mysql', files[1] as string, { status: 'superseded', superseded_by: 'ADR-0003-use-postgres' }),
    record('ADR-0003-use-postgres', files[2] as string, { supersedes: 'ADR-0002-use-mysql', enforce: 'required' }),
  ]
  const now = [
    record('ADR-0001', files[0] as string),
    record('ADR-0002', files[1] as string, { status: 'superseded', superseded_by: 'ADR-0003' }),
    record('ADR-0003', files[2] as string, { supersedes: 'ADR-0002', enforce: 'required' }),
  ]

  it('carries each decision over to its new key, one copy in force, says so per old key, and a re-import changes nothing', async () => {
    const { call, clock } = await createTestApp()
    expect((await call('POST', '/v1/decisions/import', { records: before, folder, files })).body.created).toHaveLength(3)
    const firstDay = clock.now().toISOString().slice(0, 10)
    clock.advance(3 * DAY)
    const upgraded = (await call('POST', '/v1/decisions/import', { records: now, folder, files })).body
    expect(upgraded).toMatchObject({ created: ['ADR-0001', 'ADR-0002', 'ADR-0003'], updated: [], unchanged: [], conflicts: [], missing: [] })
    expect(upgraded.warnings).toEqual([
      {
        key: 'ADR-0001-record-decisions',
        message: 'its file ADR-0001-record-decisions.md is imported as ADR-0001 now; ADR-0001-record-decisions is superseded by ADR-0001, which supersedes it (why ADR-0001 gives both)',
      },
      { key: 'ADR-0002-use-mysql', message: 'its file ADR-0002-use-mysql.md is imported as ADR-0002 now; ADR-0002-use-mysql stays superseded, which is final, beside it' },
      {
        key: 'ADR-0003-use-postgres',
        message: 'its file ADR-0003-use-postgres.md is imported as ADR-0003 now; ADR-0003-use-postgres is superseded by ADR-0003 (why ADR-0003-use-postgres gives the chain to ADR-0003)',
      },
    ])
    // One copy of each in force, the required one among them.
    const accepted = (await call('GET', '/v1/decisions?status=accepted')).body.decisions
    expect(accepted.map((d: { key: string; enforce: string }) => [d.key, d.enforce])).toEqual([['ADR-0001', 'advisory'], ['ADR-0003', 'required']])
    // The old one keeps its history, and its last step says why it was replaced.
    const old = (await call('GET', '/v1/decisions/ADR-0003-use-postgres')).body
    expect(old).toMatchObject({ status: 'superseded', superseded_by: 'ADR-0003', supersedes: 'ADR-0002-use-mysql' })
    expect(old.events.at(-1)).toMatchObject({
      type: 'superseded', from: 'accepted', to: 'superseded', by: 'ADR-0003',
      reason: 're-keyed by the import: ADR-0003-use-postgres.md, imported as ADR-0003-use-postgres before, is imported as ADR-0003 now',
    })
    const chain = (key: string) => call('GET', `/v1/decisions/${key}/why`).then((r) => [r.body.chain.map((l: { key: string }) => l.key), r.body.in_force])
    expect(await chain('ADR-0003-use-postgres')).toEqual([['ADR-0002-use-mysql', 'ADR-0003-use-postgres', 'ADR-0003'], 'ADR-0003'])
    expect(await chain('ADR-0003')).toEqual([['ADR-0002', 'ADR-0003'], 'ADR-0003'])
    // Where the file names no predecessor of its own, the new key supersedes the old one: why reads alike from both ends.
    expect(await chain('ADR-0001')).toEqual([['ADR-0001-record-decisions', 'ADR-0001'], 'ADR-0001'])
    expect(await chain('ADR-0001-record-decisions')).toEqual([['ADR-0001-record-decisions', 'ADR-0001'], 'ADR-0001'])
    const carried = (await call('GET', '/v1/decisions/ADR-0001')).body
    // A record that says no date keeps the day of the decision it carries over.
    expect(carried).toMatchObject({ status: 'accepted', date: firstDay, supersedes: 'ADR-0001-record-decisions' })
    expect(carried.events).toMatchObject([{ type: 'imported', reason: 're-keyed by the import: ADR-0001-record-decisions.md was imported as ADR-0001-record-decisions before' }])

    clock.advance(DAY)
    const again = (await call('POST', '/v1/decisions/import', { records: now, folder, files })).body
    expect(again).toEqual({ created: [], updated: [], unchanged: ['ADR-0001', 'ADR-0002', 'ADR-0003'], conflicts: [], warnings: [], missing: [], changes: [], rekeyed: [] })
  })

  it('lists each record carried over in rekeyed, with its old key and the status that one has now', async () => {
    const { call, clock } = await createTestApp()
    await call('POST', '/v1/decisions/import', { records: before, folder, files })
    clock.advance(DAY)
    const upgraded = (await call('POST', '/v1/decisions/import', { records: now, folder, files })).body
    expect(upgraded.rekeyed).toEqual([
      { key: 'ADR-0001', from: 'ADR-0001-record-decisions', from_status: 'superseded' },
      { key: 'ADR-0002', from: 'ADR-0002-use-mysql', from_status: 'superseded' },
      { key: 'ADR-0003', from: 'ADR-0003-use-postgres', from_status: 'superseded' },
    ])
    expect(upgraded).not.toHaveProperty('dry_run')
    expect((await call('POST', '/v1/decisions/import', { records: now, folder, files })).body.rekeyed).toEqual([])
  })

  it('with dry_run, says the carry-over as it would happen and stores nothing; the import then does as it said', async () => {
    const { call, clock } = await createTestApp()
    const proposal = record('ADR-0004-use-grpc', 'ADR-0004-use-grpc.md', { status: 'proposed' })
    await call('POST', '/v1/decisions/import', { records: [...before, proposal], folder, files: [...files, 'ADR-0004-use-grpc.md'] })
    clock.advance(DAY)
    const listed = async () => (await call('GET', '/v1/decisions')).body.decisions.map((d: { key: string; status: string }) => [d.key, d.status])
    const stored = await listed()
    const events = (await call('GET', '/v1/decisions/ADR-0003-use-postgres')).body.events
    const body = { records: [...now, record('ADR-0004', 'ADR-0004-use-grpc.md', { status: 'proposed' })], folder, files: [...files, 'ADR-0004-use-grpc.md'] }
    const dry = await call('POST', '/v1/decisions/import', { ...body, dry_run: true })
    expect(dry.status).toBe(200)
    expect(dry.body).toMatchObject({ dry_run: true, created: ['ADR-0001', 'ADR-0002', 'ADR-0003', 'ADR-0004'], updated: [], unchanged: [], conflicts: [], missing: [] })
    expect(dry.body.rekeyed).toEqual([
      { key: 'ADR-0001', from: 'ADR-0001-record-decisions', from_status: 'superseded' },
      { key: 'ADR-0002', from: 'ADR-0002-use-mysql', from_status: 'superseded' },
      { key: 'ADR-0003', from: 'ADR-0003-use-postgres', from_status: 'superseded' },
      { key: 'ADR-0004', from: 'ADR-0004-use-grpc', from_status: 'revoked' },
    ])
    expect(dry.body.warnings).toContainEqual({ key: 'ADR-0004-use-grpc', message: 'its file ADR-0004-use-grpc.md is imported as ADR-0004 now; the proposal ADR-0004-use-grpc is revoked, replaced by ADR-0004' })
    // Nothing written: no new key, no step of an old one, and a dry run again says the same.
    expect(await listed()).toEqual(stored)
    expect((await call('GET', '/v1/decisions/ADR-0003')).status).toBe(404)
    expect((await call('GET', '/v1/decisions/ADR-0003-use-postgres')).body.events).toEqual(events)
    expect((await call('POST', '/v1/decisions/import', { ...body, dry_run: true })).body).toEqual(dry.body)
    // The import does what the dry run said.
    const { dry_run: _dry, ...said } = dry.body
    expect((await call('POST', '/v1/decisions/import', body)).body).toEqual(said)
  })

  it('refuses a dry_run that is not true or false, naming it', async () => {
    const { call } = await createTestApp()
    const refused = await call('POST', '/v1/decisions/import', { records: now, folder, dry_run: 'yes' })
    expect(refused.status).toBe(400)
    expect(JSON.stringify(refused.body)).toContain('dry_run')
  })

  it('carries a decision over as well for a client that sends the records without the folder\'s files', async () => {
    const { call, clock } = await createTestApp()
    await call('POST', '/v1/decisions/import', { records: before, folder })
    clock.advance(DAY)
    const upgraded = (await call('POST', '/v1/decisions/import', { records: now, folder })).body
    expect(upgraded.created).toEqual(['ADR-0001', 'ADR-0002', 'ADR-0003'])
    expect(upgraded.warnings.map((w: { key: string }) => w.key)).toEqual(['ADR-0001-record-decisions', 'ADR-0002-use-mysql', 'ADR-0003-use-postgres'])
    const accepted = (await call('GET', '/v1/decisions?status=accepted')).body.decisions
    expect(accepted.map((d: { key: string }) => d.key)).toEqual(['ADR-0001', 'ADR-0003'])
    const again = (await call('POST', '/v1/decisions/import', { records: now, folder })).body
    expect([again.created, again.updated, again.warnings]).toEqual([[], [], []])
  })

  it('revokes a proposal so carried over, and leaves one whose status was moved here as it is, saying what to run', async () => {
    const { call, clock } = await createTestApp()
    const proposals = [
      record('ADR-0004-use-grpc', 'ADR-0004-use-grpc.md', { status: 'proposed' }),
      record('ADR-0005-use-kafka', 'ADR-0005-use-kafka.md', { status: 'proposed' }),
    ]
    const paths = ['ADR-0004-use-grpc.md', 'ADR-0005-use-kafka.md']
    await call('POST', '/v1/decisions/import', { records: proposals, folder, files: paths })
    clock.advance(DAY)
    expect((await call('POST', '/v1/decisions/ADR-0005-use-kafka/accept', { reason: 'agreed in review' })).status).toBe(200)
    clock.advance(DAY)
    const renamed = [record('ADR-0004', 'ADR-0004-use-grpc.md', { status: 'proposed' }), record('ADR-0005', 'ADR-0005-use-kafka.md', { status: 'proposed' })]
    const upgraded = (await call('POST', '/v1/decisions/import', { records: renamed, folder, files: paths })).body
    expect(upgraded.warnings).toEqual([
      { key: 'ADR-0004-use-grpc', message: 'its file ADR-0004-use-grpc.md is imported as ADR-0004 now; the proposal ADR-0004-use-grpc is revoked, replaced by ADR-0004' },
      {
        key: 'ADR-0005-use-kafka',
        message:
          'its file ADR-0005-use-kafka.md is imported as ADR-0005 now, but ADR-0005-use-kafka was accepted here while its file said proposed, which the import does not take back: ' +
          'ADR-0005-use-kafka stays accepted beside ADR-0005 (POST /v1/decisions/ADR-0005-use-kafka/supersede {"by": "ADR-0005"} to carry it over, or revoke the one that no longer holds)',
      },
    ])
    expect((await call('GET', '/v1/decisions/ADR-0004-use-grpc')).body).toMatchObject({ status: 'revoked' })
    expect((await call('GET', '/v1/decisions/ADR-0005-use-kafka')).body).toMatchObject({ status: 'accepted' })
    // Said at each import while it is so, with what to run: no second file numbered 5 is the cause.
    clock.advance(DAY)
    const meanwhile = (await call('POST', '/v1/decisions/import', { records: renamed, folder, files: paths })).body
    expect(meanwhile.warnings).toEqual([
      {
        key: 'ADR-0005-use-kafka',
        message:
          'its file ADR-0005-use-kafka.md is imported as ADR-0005 now, a key held already (proposed): ADR-0005-use-kafka stays accepted, and its file no longer updates it ' +
          '(POST /v1/decisions/ADR-0005-use-kafka/supersede {"by": "ADR-0005"} to carry it over, or revoke the one that no longer holds)',
      },
    ])
    // What the warning says to run carries it over.
    expect((await call('POST', '/v1/decisions/ADR-0005-use-kafka/supersede', { by: 'ADR-0005' })).status).toBe(200)
    expect((await call('GET', '/v1/decisions/ADR-0005')).body).toMatchObject({ status: 'accepted', supersedes: 'ADR-0005-use-kafka' })
    const again = (await call('POST', '/v1/decisions/import', { records: renamed, folder, files: paths })).body
    expect([again.created, again.warnings, again.missing]).toEqual([[], [], []])
  })

  it('carries over as any other a decision whose status was moved here when its file now says that status too', async () => {
    // Proposed in its file, accepted here (or deprecated here while it said accepted), and the file
    // since edited to say so: nothing of the store's is taken back. Left beside the new key, two
    // copies of one required decision were in force, warned of at every import.
    const { call, clock } = await createTestApp()
    const paths = ['ADR-0004-use-grpc.md', 'ADR-0005-use-kafka.md']
    const first = [
      record('ADR-0004-use-grpc', paths[0] as string, { status: 'proposed', enforce: 'required' }),
      record('ADR-0005-use-kafka', paths[1] as string, { enforce: 'required' }),
    ]
    await call('POST', '/v1/decisions/import', { records: first, folder, files: paths })
    clock.advance(DAY)
    expect((await call('POST', '/v1/decisions/ADR-0004-use-grpc/accept', { reason: 'agreed in review' })).status).toBe(200)
    expect((await call('POST', '/v1/decisions/ADR-0005-use-kafka/deprecate', { reason: 'moving off Kafka' })).status).toBe(200)
    clock.advance(DAY)
    const edited = [
      record('ADR-0004', paths[0] as string, { enforce: 'required' }),
      record('ADR-0005', paths[1] as string, { status: 'deprecated', enforce: 'required' }),
    ]
    const upgraded = (await call('POST', '/v1/decisions/import', { records: edited, folder, files: paths })).body
    expect(upgraded.warnings).toEqual([
      { key: 'ADR-0004-use-grpc', message: 'its file ADR-0004-use-grpc.md is imported as ADR-0004 now; ADR-0004-use-grpc is superseded by ADR-0004, which supersedes it (why ADR-0004 gives both)' },
      { key: 'ADR-0005-use-kafka', message: 'its file ADR-0005-use-kafka.md is imported as ADR-0005 now; ADR-0005-use-kafka is superseded by ADR-0005, which supersedes it (why ADR-0005 gives both)' },
    ])
    const accepted = (await call('GET', '/v1/decisions?status=accepted')).body.decisions
    expect(accepted.map((d: { key: string }) => d.key)).toEqual(['ADR-0004'])
    expect((await call('GET', '/v1/decisions/ADR-0005')).body).toMatchObject({ status: 'deprecated', supersedes: 'ADR-0005-use-kafka' })
    const again = (await call('POST', '/v1/decisions/import', { records: edited, folder, files: paths })).body
    expect([again.created, again.updated, again.warnings, again.missing]).toEqual([[], [], [], []])
  })

  it('gives the new key the status a decision was deprecated, revoked or superseded to here, not back in force, and a re-import changes nothing', async () => {
    const { call, clock } = await createTestApp()
    const old = [
      record('ADR-0004-use-redis', 'ADR-0004-use-redis.md', { enforce: 'required' }),
      record('ADR-0005-use-kafka', 'ADR-0005-use-kafka.md', { enforce: 'required' }),
      record('ADR-0006-use-grpc', 'ADR-0006-use-grpc.md', { enforce: 'required' }),
    ]
    const paths = old.map((r) => r.origin.path)
    await call('POST', '/v1/decisions/import', { records: old, folder, files: paths })
    clock.advance(DAY)
    expect((await call('POST', '/v1/decisions/ADR-0004-use-redis/deprecate', { reason: 'moving off Redis' })).status).toBe(200)
    expect((await call('POST', '/v1/decisions/ADR-0005-use-kafka/revoke', { reason: 'never adopted' })).status).toBe(200)
    const connect = decision({ key: 'D-0100', title: 'Use Connect', status: 'accepted', enforce: 'required', supersedes: 'ADR-0006-use-grpc' })
    expect((await call('POST', '/v1/decisions', connect)).status).toBe(201)
    clock.advance(DAY)
    // The files still say Accepted, as they did when imported.
    const renamed = old.map((r) => ({ ...r, key: r.key.slice(0, 8) }))
    const upgraded = (await call('POST', '/v1/decisions/import', { records: renamed, folder, files: paths })).body
    expect(upgraded.created).toEqual(['ADR-0004', 'ADR-0005', 'ADR-0006'])
    expect(upgraded.warnings).toEqual([
      {
        key: 'ADR-0004-use-redis',
        message:
          'its file ADR-0004-use-redis.md is imported as ADR-0004 now, but ADR-0004-use-redis was deprecated here while its file said accepted, ' +
          'which the import does not take back: ADR-0004 is deprecated too',
      },
      {
        key: 'ADR-0005-use-kafka',
        message:
          'its file ADR-0005-use-kafka.md is imported as ADR-0005 now, but ADR-0005-use-kafka was revoked here while its file said accepted, ' +
          'which the import does not take back: ADR-0005 is revoked too',
      },
      {
        key: 'ADR-0006-use-grpc',
        message:
          'its file ADR-0006-use-grpc.md is imported as ADR-0006 now, but ADR-0006-use-grpc was superseded here while its file said accepted, ' +
          'which the import does not take back: ADR-0006 is superseded too, by D-0100',
      },
    ])
    // None of the three retired here is in force again under its new key: the guard enforces D-0100 alone.
    const accepted = (await call('GET', '/v1/decisions?status=accepted')).body.decisions
    expect(accepted.map((d: { key: string }) => d.key)).toEqual(['D-0100'])
    const got = async (key: string) => (await call('GET', `/v1/decisions/${key}`)).body
    expect(await got('ADR-0004')).toMatchObject({ status: 'deprecated', events: [{ type: 'imported', to: 'deprecated' }] })
    expect(await got('ADR-0005')).toMatchObject({ status: 'revoked', events: [{ type: 'imported', to: 'revoked' }] })
    expect(await got('ADR-0006')).toMatchObject({ status: 'superseded', superseded_by: 'D-0100' })
    // Every key the chain cites exists, and it ends in the decision in force (R-CON-5).
    const why = (await call('GET', '/v1/decisions/ADR-0006/why')).body
    expect([why.chain.map((l: { key: string }) => l.key), why.in_force]).toEqual([['ADR-0006', 'D-0100'], 'D-0100'])

    clock.advance(DAY)
    const again = (await call('POST', '/v1/decisions/import', { records: renamed, folder, files: paths })).body
    expect(again).toEqual({ created: [], updated: [], unchanged: ['ADR-0004', 'ADR-0005', 'ADR-0006'], conflicts: [], warnings: [], missing: [], changes: [], rekeyed: [] })
  })

  it('says a decision in force that its file no longer updates, once the file is keyed by its whole name again', async () => {
    const { call, clock } = await createTestApp()
    const path = 'ADR-0013-use-x.md'
    await call('POST', '/v1/decisions/import', { records: [record('ADR-0013-use-x', path)], folder, files: [path] })
    clock.advance(DAY)
    await call('POST', '/v1/decisions/import', { records: [record('ADR-0013', path)], folder, files: [path] })
    clock.advance(DAY)
    // A second file numbered 13 comes in (a branch's draft): each keys by its whole name again, and
    // ADR-0013-use-x, superseded by ADR-0013 when carried over, is final.
    const draft = { ...record('ADR-013-draft', 'ADR-013-draft.md'), status: 'proposed' }
    const files2 = [path, 'ADR-013-draft.md']
    const clash = (await call('POST', '/v1/decisions/import', { records: [record('ADR-0013-use-x', path), draft], folder, files: files2 })).body
    const said = {
      key: 'ADR-0013',
      message:
        'its file ADR-0013-use-x.md is imported as ADR-0013-use-x now, a key held already (superseded): ADR-0013 stays accepted, and its file no longer updates it ' +
        '(another file may have the number it was keyed by: give each its own, or revoke ADR-0013 if it no longer holds)',
    }
    expect(clash.warnings).toEqual([said])
    expect((await call('GET', '/v1/decisions/ADR-0013')).body.status).toBe('accepted')
    // Said again at each import while it is so, as a file gone is; nothing changes.
    const again = (await call('POST', '/v1/decisions/import', { records: [record('ADR-0013-use-x', path), draft], folder, files: files2 })).body
    expect([again.created, again.updated, again.warnings]).toEqual([[], [], [said]])
  })

  it('leaves a DECISIONS.md section keyed otherwise to be reported gone, as before, and a key that holds a decision already alone', async () => {
    const { call } = await createTestApp()
    const section = (key: string) => ({ ...record(key, 'DECISIONS.md'), origin: { path: 'DECISIONS.md', line: 3, format: 'decisions-md', folder } })
    await call('POST', '/v1/decisions/import', { records: [section('UTF-8')], folder, files: ['DECISIONS.md'] })
    // Sent without the log's keys too: a section is no file of its own.
    const unsaid = (await call('POST', '/v1/decisions/import', { records: [section('DEC-use-utf-8')], folder, files: ['DECISIONS.md'] })).body
    expect([unsaid.created, unsaid.warnings]).toEqual([['DEC-use-utf-8'], []])
    const logs = [{ path: 'DECISIONS.md', keys: ['DEC-use-utf-8'] }]
    const again = (await call('POST', '/v1/decisions/import', { records: [section('DEC-use-utf-8')], folder, files: ['DECISIONS.md'], logs })).body
    expect(again.warnings).toEqual([])
    expect(again.missing.map((m: { key: string }) => m.key)).toEqual(['UTF-8'])
    expect((await call('GET', '/v1/decisions/UTF-8')).body.status).toBe('accepted')

    // A key a decision made over the API holds: the record is a conflict, and the old key stays as it is.
    await call('POST', '/v1/decisions', decision({ key: 'ADR-0009', status: 'accepted' }))
    await call('POST', '/v1/decisions/import', { records: [record('ADR-0009-use-x', 'ADR-0009-use-x.md')], folder, files: ['ADR-0009-use-x.md'] })
    const taken = (await call('POST', '/v1/decisions/import', { records: [record('ADR-0009', 'ADR-0009-use-x.md')], folder, files: ['ADR-0009-use-x.md'] })).body
    expect([taken.conflicts.map((c: { key: string }) => c.key), taken.warnings]).toEqual([['ADR-0009'], []])
    expect((await call('GET', '/v1/decisions/ADR-0009-use-x')).body.status).toBe('accepted')
  })
})

describe('records that cannot be imported as sent (R-CON-6, R-SVC-2)', () => {
  const record = (key: string, extra: Record<string, unknown> = {}) => ({
    key, title: `Title of ${key}`, decision: 'We do this.', rationale: 'Because.', status: 'accepted', date: '2024-01-10',
    origin: { path: `${key}.md`, line: 1, format: 'adr-tools', folder: 'docs/adr' }, ...extra,
  })

  it('refuses a record that supersedes itself, or is superseded by what it supersedes, naming the field; nothing is stored', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions/import', { records: [record('ADR-0001')] })
    const before = (await call('GET', '/v1/decisions')).body.decisions
    const self = await call('POST', '/v1/decisions/import', {
      records: [record('ADR-0002'), record('ADR-0003', { status: 'superseded', supersedes: 'ADR-0003', superseded_by: 'ADR-0003' })],
    })
    expect(self.status).toBe(400)
    expect(self.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['records.1.supersedes', 'records.1.superseded_by'])
    const loop = await call('POST', '/v1/decisions/import', {
      records: [record('ADR-0002', { status: 'superseded', supersedes: 'ADR-0001', superseded_by: 'ADR-0001' })],
    })
    expect(loop.status).toBe(400)
    expect(loop.body.error.issues).toEqual([{ path: 'records.0.superseded_by', message: expect.stringContaining('ADR-0001') }])
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual(before)
  })

  it('refuses records whose supersede links go round in a loop across records, naming each link; nothing is stored', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions/import', { records: [record('ADR-0001')] })
    const before = (await call('GET', '/v1/decisions')).body.decisions
    // Two records that each say they supersede the other, each link written on one side only.
    const pair = await call('POST', '/v1/decisions/import', {
      records: [record('ADR-0010', { supersedes: 'ADR-0011' }), record('ADR-0011', { supersedes: 'ADR-0010' })],
    })
    expect(pair.status).toBe(400)
    expect(pair.body.error.issues.map((i: { path: string }) => i.path).sort()).toEqual(['records.0.supersedes', 'records.1.supersedes'])
    // Three, one link read from its other end (ADR-0021 is superseded by ADR-0020: ADR-0020 replaces it).
    const three = await call('POST', '/v1/decisions/import', {
      records: [
        record('ADR-0020'),
        record('ADR-0021', { superseded_by: 'ADR-0020', supersedes: 'ADR-0022' }),
        record('ADR-0022', { supersedes: 'ADR-0020' }),
      ],
    })
    expect(three.status).toBe(400)
    expect(three.body.error.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'records.1.superseded_by', 'records.1.supersedes', 'records.2.supersedes',
    ])
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual(before)
    // A chain read from both ends is no loop.
    const chain = await call('POST', '/v1/decisions/import', {
      records: [
        record('ADR-0030', { status: 'superseded', superseded_by: 'ADR-0031' }),
        record('ADR-0031', { supersedes: 'ADR-0030' }),
      ],
    })
    expect(chain.status).toBe(200)
    expect(chain.body.created).toEqual(['ADR-0030', 'ADR-0031'])
  })

  it('refuses a field a record, its origin, a log or the body does not have, naming each; nothing is stored', async () => {
    const { call } = await createTestApp()
    const r = await call('POST', '/v1/decisions/import', {
      records: [record('ADR-0001', { status_line: 'Accepted' }), record('ADR-0002', { origin: { ...record('ADR-0002').origin, folders: ['x'] } })],
      logs: [{ path: 'DECISIONS.md', keys: [], sections: 2 }],
      file: ['ADR-0001.md'],
    })
    expect(r.status).toBe(400)
    expect(r.body.error.issues).toEqual([
      { path: 'records.0.status_line', message: 'unknown field' },
      { path: 'records.1.origin.folders', message: 'unknown field' },
      { path: 'logs.0.sections', message: 'unknown field' },
      { path: 'file', message: 'unknown field' },
    ])
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual([])
  })

  it('refuses two records with one key, naming both sources, and stores neither', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions/import', { records: [record('ADR-0001')] })
    const before = (await call('GET', '/v1/decisions')).body.decisions
    const twice = await call('POST', '/v1/decisions/import', {
      records: [
        record('ADR-0002', { origin: { path: '0002-use-grpc.md', line: 1, format: 'adr-tools', folder: 'docs/adr' } }),
        record('ADR-0003'),
        record('ADR-0002', { title: 'Use SOAP', origin: { path: '0002-use-soap.md', line: 1, format: 'adr-tools', folder: 'docs/adr' } }),
      ],
    })
    expect(twice.status).toBe(400)
    expect(twice.body.error.code).toBe('duplicate_key')
    expect(twice.body.error.issues).toEqual([{ path: 'records.2.key', message: expect.stringMatching(/0002-use-soap\.md:1.*records\.0 \(0002-use-grpc\.md:1\)/) }])
    expect(twice.body.error.message).toMatch(/^one key, two records: /)
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual(before)
  })

  it('counts the records of one key sent more than twice, and the keys where several are each sent twice', async () => {
    const { call } = await createTestApp()
    const from = (key: string, file: string) => record(key, { origin: { path: file, line: 1, format: 'adr-tools', folder: 'docs/adr' } })
    const thrice = await call('POST', '/v1/decisions/import', { records: [from('ADR-0002', 'a.md'), from('ADR-0002', 'b.md'), from('ADR-0002', 'c.md')] })
    expect(thrice.status).toBe(400)
    expect(thrice.body.error.message).toMatch(/^one key, three records: /)
    expect(thrice.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['records.1.key', 'records.2.key'])
    const pairs = await call('POST', '/v1/decisions/import', { records: [from('ADR-0002', 'a.md'), from('ADR-0003', 'b.md'), from('ADR-0002', 'c.md'), from('ADR-0003', 'd.md')] })
    expect(pairs.status).toBe(400)
    expect(pairs.body.error.message).toMatch(/^two keys, each of more than one record: /)
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual([])
  })
})

describe('folders of one repository (R-CON-6)', () => {
  const adr = (n: number, title: string, day: string) =>
    `# ${n}. ${title}\n\nDate: ${day}\n\n## Status\n\nAccepted\n\n## Context\n\n${title} in ${day}.\n\n## Decision\n\n${title}.\n`
  const read = (folder: string, entries: Record<string, string>) =>
    readRecordFolder(Object.entries(entries).map(([name, text]) => ({ path: name, name, bytes: new TextEncoder().encode(text) }))).records.map(
      (r) => ({ ...r, origin: { ...r.origin, folder } }),
    )

  it('a second folder whose first record has the same file name (adr init writes one in each) does not overwrite the first', async () => {
    const { call } = await createTestApp()
    const api = read('services/api/docs/adr', { '0001-record-architecture-decisions.md': adr(1, 'Record architecture decisions', '2024-01-10') })
    const web = read('web/docs/adr', { '0001-record-architecture-decisions.md': adr(1, 'Record architecture decisions', '2024-03-15') })
    expect((await call('POST', '/v1/decisions/import', { records: api })).body.created).toEqual(['ADR-0001'])
    const second = (await call('POST', '/v1/decisions/import', { records: web })).body
    expect(second.updated).toEqual([])
    expect(second.conflicts.map((c: { key: string }) => c.key)).toEqual(['ADR-0001'])
    expect(second.conflicts[0].message).toContain('services/api/docs/adr')
    expect((await call('GET', '/v1/decisions/ADR-0001')).body.date).toBe('2024-01-10')
  })

  it("a record of a second folder does not link to the first folder's decision under the key it left out", async () => {
    const { call } = await createTestApp()
    const api = read('services/api/docs/adr', { '0002-use-postgres.md': adr(2, 'Use Postgres', '2024-01-10') })
    await call('POST', '/v1/decisions/import', { records: api })
    const before = (await call('GET', '/v1/decisions/ADR-0002')).body
    const valibot = adr(3, 'Use Valibot', '2024-09-01')
    // The web folder was imported while it held only its 0003; its 0002 came later.
    await call('POST', '/v1/decisions/import', { records: read('web/docs/adr', { '0003-use-valibot.md': valibot }) })
    const web = read('web/docs/adr', {
      '0002-use-zod.md': adr(2, 'Use Zod', '2024-03-15').replace('Accepted', 'Superseded by [3. Use Valibot](0003-use-valibot.md)'),
      '0003-use-valibot.md': valibot,
    })
    expect(web.find((r) => r.key === 'ADR-0003')?.supersedes).toBe('ADR-0002')
    const report = (await call('POST', '/v1/decisions/import', { records: web })).body
    // Its file is as imported; it reads a link now, left out: the decision is unchanged, with no event.
    expect(report).toMatchObject({ updated: [], unchanged: ['ADR-0003'] })
    expect((await call('GET', '/v1/decisions/ADR-0003')).body.events.map((e: { type: string }) => e.type)).toEqual(['imported'])
    expect(report.conflicts.map((c: { key: string }) => c.key)).toEqual(['ADR-0002'])
    expect(report.warnings).toEqual([{ key: 'ADR-0003', message: expect.stringContaining('supersedes ADR-0002 is left out') }])
    expect((await call('GET', '/v1/decisions/ADR-0003')).body).toMatchObject({ status: 'accepted', supersedes: null })
    expect((await call('GET', '/v1/decisions/ADR-0002')).body).toEqual(before)
  })

  it('two files numbered alike (two branches each added a 0005) are both left out, naming each other, and the stored record stays', async () => {
    const { call } = await createTestApp()
    const kafka = adr(5, 'Use Kafka', '2024-05-01')
    await call('POST', '/v1/decisions/import', { records: read('docs/adr', { '0005-use-kafka.md': kafka }) })
    const before = (await call('GET', '/v1/decisions/ADR-0005')).body

    const files = {
      '0005-add-audit-log.md': adr(5, 'Add an audit log', '2024-05-02'),
      '0005-use-kafka.md': kafka,
      '0006-use-nats.md': adr(6, 'Use NATS', '2024-06-01').replace('Accepted', 'Accepted\n\nSupersedes [5. Use Kafka](0005-use-kafka.md)'),
    }
    const reading = readRecordFolder(Object.entries(files).map(([name, text]) => ({ path: name, name, bytes: new TextEncoder().encode(text) })))
    expect(reading.records.map((r) => r.key)).toEqual(['ADR-0006'])
    expect(reading.records[0]?.supersedes).toBe(null)
    expect(reading.problems.map((p) => `${p.path}:${p.line}: ${p.message}`)).toEqual([
      '0005-add-audit-log.md:1: ADR-0005 is also the key of 0005-use-kafka.md:1; neither is imported until one has a key of its own',
      '0005-use-kafka.md:1: ADR-0005 is also the key of 0005-add-audit-log.md:1; neither is imported until one has a key of its own',
      '0006-use-nats.md:9: supersedes "0005-use-kafka.md" names ADR-0005, which two records claim; the link is left out',
    ])
    const records = reading.records.map((r) => ({ ...r, origin: { ...r.origin, folder: 'docs/adr' } }))
    expect((await call('POST', '/v1/decisions/import', { records })).body.created).toEqual(['ADR-0006'])
    expect((await call('GET', '/v1/decisions/ADR-0005')).body).toEqual(before)
  })

  it('three files numbered alike are all left out, each naming the other two, and a link to their number counts them', () => {
    const files = {
      '0005-add-audit-log.md': adr(5, 'Add an audit log', '2024-05-02'),
      '0005-use-kafka.md': adr(5, 'Use Kafka', '2024-05-01'),
      '0005-use-nats.md': adr(5, 'Use NATS', '2024-05-03'),
      '0006-use-grpc.md': adr(6, 'Use gRPC', '2024-06-01').replace('Accepted', 'Accepted\n\nSupersedes [5. Use Kafka](0005-use-kafka.md)'),
    }
    const reading = readRecordFolder(Object.entries(files).map(([name, text]) => ({ path: name, name, bytes: new TextEncoder().encode(text) })))
    expect(reading.records.map((r) => r.key)).toEqual(['ADR-0006'])
    // "neither" and "until one has a key of its own" said of two: of three, two must change.
    expect(reading.problems.map((p) => `${p.path}:${p.line}: ${p.message}`)).toEqual([
      '0005-add-audit-log.md:1: ADR-0005 is also the key of 0005-use-kafka.md:1, 0005-use-nats.md:1; none of the three is imported until all but one have a key of their own',
      '0005-use-kafka.md:1: ADR-0005 is also the key of 0005-add-audit-log.md:1, 0005-use-nats.md:1; none of the three is imported until all but one have a key of their own',
      '0005-use-nats.md:1: ADR-0005 is also the key of 0005-add-audit-log.md:1, 0005-use-kafka.md:1; none of the three is imported until all but one have a key of their own',
      '0006-use-grpc.md:9: supersedes "0005-use-kafka.md" names ADR-0005, which three records claim; the link is left out',
    ])
  })

  it('a record whose file was renamed in its folder is updated, not left out', async () => {
    const { call } = await createTestApp()
    const before = read('docs/adr', { '0003-use-zod.md': adr(3, 'Use Zod', '2024-02-01') })
    await call('POST', '/v1/decisions/import', { records: before })
    const after = read('docs/adr', { '0003-use-zod-for-validation.md': adr(3, 'Use Zod for validation', '2024-02-01') })
    const report = (await call('POST', '/v1/decisions/import', { records: after })).body
    expect(report.conflicts).toEqual([])
    expect(report.updated).toEqual(['ADR-0003'])
    const stored = (await call('GET', '/v1/decisions/ADR-0003')).body
    expect(stored).toMatchObject({ title: 'Use Zod for validation', source: '0003-use-zod-for-validation.md:1' })
    expect(stored.imported).toMatchObject({ path: '0003-use-zod-for-validation.md', folder: 'docs/adr' })
    expect((await call('POST', '/v1/decisions/import', { records: after })).body.unchanged).toEqual(['ADR-0003'])
  })
})

describe('a repository named by its origin remote, imported from another clone (R-CON-6)', () => {
  const adr = (n: number, title: string, day: string) =>
    `# ${n}. ${title}\n\nDate: ${day}\n\n## Status\n\nAccepted\n\n## Context\n\n${title} in ${day}.\n\n## Decision\n\n${title}.\n`
  const read = (origin: Record<string, unknown>, entries: Record<string, string>) =>
    readRecordFolder(Object.entries(entries).map(([name, text]) => ({ path: name, name, bytes: new TextEncoder().encode(text) }))).records.map(
      (r) => ({ ...r, origin: { ...r.origin, ...origin } }),
    )
  const web = {
    '0001-record-architecture-decisions.md': adr(1, 'Record architecture decisions', '2024-01-10'),
    '0002-use-postgres.md': adr(2, 'Use Postgres', '2024-02-01'),
  }
  // As import-adr sends them from a clone in `web-2` whose origin is github.com/acme/web.
  const clone = { folder: 'github.com/acme/web/doc/adr', aliases: ['web-2/doc/adr', 'web/doc/adr', '*/doc/adr'] }

  it('records imported under the name of a clone\'s directory keep updating from a clone named otherwise', async () => {
    const { call } = await createTestApp()
    // Imported before repositories were named by their remote, from a clone in `acme-web`.
    await call('POST', '/v1/decisions/import', { records: read({ folder: 'acme-web/doc/adr' }, web) })
    const again = await call('POST', '/v1/decisions/import', { records: read(clone, web), files: Object.keys(web) })
    expect(again.body).toMatchObject({ created: [], updated: [], unchanged: ['ADR-0001', 'ADR-0002'], conflicts: [], missing: [] })
    const changed = { ...web, '0002-use-postgres.md': adr(2, 'Use PostgreSQL 16', '2024-02-01') }
    const update = await call('POST', '/v1/decisions/import', { records: read(clone, changed), files: Object.keys(changed) })
    expect(update.body).toMatchObject({ updated: ['ADR-0002'], unchanged: ['ADR-0001'], conflicts: [] })
    const stored = (await call('GET', '/v1/decisions/ADR-0002')).body
    expect(stored.title).toBe('Use PostgreSQL 16')
    // Updated, it is stored under the folder's name now, and the aliases are not kept.
    expect(stored.imported).toEqual(expect.objectContaining({ folder: 'github.com/acme/web/doc/adr', path: '0002-use-postgres.md' }))
    expect(stored.imported.aliases).toBeUndefined()
  })

  it('records found under a former name are stored under the name now, so a file deleted later does not lose the rest', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions/import', { records: read({ folder: 'acme-web/doc/adr' }, web) })
    expect((await call('POST', '/v1/decisions/import', { records: read(clone, web), files: Object.keys(web) })).body.unchanged).toEqual(['ADR-0001', 'ADR-0002'])
    const stored = (await call('GET', '/v1/decisions/ADR-0001')).body
    expect(stored.imported.folder).toBe('github.com/acme/web/doc/adr')
    expect(stored.events).toHaveLength(1)
    // 0002 deleted: acme-web/doc/adr no longer has all its files here, and it need not.
    const { '0002-use-postgres.md': _deleted, ...left } = web
    const report = (await call('POST', '/v1/decisions/import', { records: read(clone, left), files: Object.keys(left) })).body
    expect(report).toMatchObject({ unchanged: ['ADR-0001'], conflicts: [], missing: [{ key: 'ADR-0002', path: '0002-use-postgres.md' }] })
  })

  it('a repository made from the same template, whose first record reads the same, does not take over the stored one (f46b790)', async () => {
    const { call } = await createTestApp()
    // Both made from one template repository: the same files, 0001 word for word, date included.
    const template = adr(1, 'Record architecture decisions', '2024-01-10')
    const api = { '0001-record-architecture-decisions.md': template, '0002-choose-a-database.md': adr(2, 'Use Postgres', '2024-02-01') }
    await call('POST', '/v1/decisions/import', { records: read({ folder: 'acme-api/doc/adr' }, api) })
    const billing = { '0001-record-architecture-decisions.md': template, '0002-choose-a-database.md': adr(2, 'Use DynamoDB', '2024-03-15') }
    const origin = { folder: 'github.com/acme/billing/doc/adr', aliases: ['billing/doc/adr', '*/doc/adr'] }
    const report = (await call('POST', '/v1/decisions/import', { records: read(origin, billing), files: Object.keys(billing) })).body
    expect(report.updated).toEqual([])
    expect(report.conflicts.map((c: { key: string }) => c.key)).toEqual(['ADR-0001', 'ADR-0002'])
    expect((await call('GET', '/v1/decisions/ADR-0002')).body).toMatchObject({ title: 'Use Postgres', imported: { folder: 'acme-api/doc/adr' } })
  })

  it('another repository with a doc/adr of the same file names is still not the one stored (f46b790)', async () => {
    const { call } = await createTestApp()
    const api = { '0001-record-architecture-decisions.md': adr(1, 'Record architecture decisions', '2024-01-10') }
    await call('POST', '/v1/decisions/import', { records: read({ folder: 'acme-api/doc/adr' }, api) })
    const billing = { '0001-record-architecture-decisions.md': adr(1, 'Record architecture decisions', '2024-03-15') }
    const origin = { folder: 'github.com/acme/billing/doc/adr', aliases: ['billing/doc/adr', '*/doc/adr'] }
    const report = (await call('POST', '/v1/decisions/import', { records: read(origin, billing), files: Object.keys(billing) })).body
    expect(report.updated).toEqual([])
    expect(report.conflicts.map((c: { key: string }) => c.key)).toEqual(['ADR-0001'])
    expect((await call('GET', '/v1/decisions/ADR-0001')).body.date).toBe('2024-01-10')
    // Nor is a folder at another path of the same name, nor one that has files the stored folder lacks.
    const moved = { folder: 'github.com/acme/web/docs/adr', aliases: ['*/docs/adr'] }
    expect((await call('POST', '/v1/decisions/import', { records: read(moved, api), files: Object.keys(api) })).body.unchanged).toEqual([])
  })
})

describe('a record that says no date (R-CON-6)', () => {
  it('is dated the day it is first imported, which importing it again, changed or not, keeps', async () => {
    const { call, clock } = await createTestApp()
    const madr = (outcome: string) => `---\nstatus: accepted\n---\n\n# Use Zod\n\n## Decision Outcome\n\nChosen option: "${outcome}".\n`
    const read = (text: string) =>
      readRecordFolder([{ path: '0003-use-zod.md', name: '0003-use-zod.md', bytes: new TextEncoder().encode(text) }]).records.map((r) => ({
        ...r,
        origin: { ...r.origin, folder: 'acme/docs/adr' },
      }))
    expect(read(madr('Zod'))[0]?.date).toBe(null)
    const first = clock.now().toISOString().slice(0, 10)
    expect((await call('POST', '/v1/decisions/import', { records: read(madr('Zod')) })).body.created).toEqual(['ADR-0003'])
    expect((await call('GET', '/v1/decisions/ADR-0003')).body.date).toBe(first)
    clock.advance(3 * DAY)
    expect((await call('POST', '/v1/decisions/import', { records: read(madr('Zod')) })).body.unchanged).toEqual(['ADR-0003'])
    expect((await call('POST', '/v1/decisions/import', { records: read(madr('Zod 4')) })).body.updated).toEqual(['ADR-0003'])
    const stored = (await call('GET', '/v1/decisions/ADR-0003')).body
    expect(stored).toMatchObject({ date: first, decision: 'Chosen option: "Zod 4".' })
    expect(stored.events.at(-1).changed).not.toContain('date')
  })

  it('but the day written with its status ("Accepted on 2020-05-05") is its date, whenever it is imported, and importing again changes nothing', async () => {
    const text = '# ADR 0009: Owner-issued thread settings\n\n## Status\n\nAccepted on 2020-05-05.\n\n## Context\n\nA node edits them.\n\n## Decision\n\nThe owner issues them.\n'
    const records = readRecordFolder([{ path: '0009-owner-issued-thread-settings.md', name: '0009-owner-issued-thread-settings.md', bytes: new TextEncoder().encode(text) }])
      .records.map((r) => ({ ...r, origin: { ...r.origin, folder: 'acme/docs/adr' } }))
    const stores = []
    for (const days of [0, 40]) {
      const { call, clock } = await createTestApp()
      clock.advance(days * DAY)
      expect((await call('POST', '/v1/decisions/import', { records })).body.created).toEqual(['ADR-0009'])
      const stored = (await call('GET', '/v1/decisions/ADR-0009')).body
      expect(stored.date).toBe('2020-05-05')
      clock.advance(DAY)
      expect((await call('POST', '/v1/decisions/import', { records })).body.unchanged).toEqual(['ADR-0009'])
      expect((await call('GET', '/v1/decisions/ADR-0009')).body).toEqual(stored)
      stores.push(stored)
    }
    // Imported on two days, it is the same decision of the same day: only the import's own times differ.
    const [early, late] = stores.map(({ created_at: _c, updated_at: _u, events: _e, ...rest }) => rest)
    expect(late).toEqual(early)
  })
})

describe('a folder moved within its repository (R-CON-6)', () => {
  const adr = (n: number, title: string, text = `${title}.`) => `# ${n}. ${title}\n\nDate: 2024-01-0${n}\n\n## Status\n\nAccepted\n\n## Decision\n\n${text}\n`
  const read = (folder: string, entries: Record<string, string>) =>
    readRecordFolder(Object.entries(entries).map(([name, text]) => ({ path: name, name, bytes: new TextEncoder().encode(text) }))).records.map(
      (r) => ({ ...r, origin: { ...r.origin, folder } }),
    )
  const files = { '0001-record-architecture-decisions.md': adr(1, 'Record architecture decisions'), '0002-use-postgres.md': adr(2, 'Use Postgres') }
  const before = 'github.com/acme/shop/doc/adr'
  const after = 'github.com/acme/shop/docs/adr'

  it('is recognised when import-adr names the folder gone from the working tree and every record of it is here: updated, not conflicts', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions/import', { records: read(before, files), files: Object.keys(files) })
    // Moved, and one record edited on the way.
    const moved = { ...files, '0002-use-postgres.md': adr(2, 'Use Postgres', 'Postgres 16.') }
    const unnamed = (await call('POST', '/v1/decisions/import', { records: read(after, moved), files: Object.keys(moved) })).body
    expect(unnamed.conflicts.map((c: { key: string }) => c.key)).toEqual(['ADR-0001', 'ADR-0002'])
    const report = (await call('POST', '/v1/decisions/import', { records: read(after, moved), files: Object.keys(moved), moved: [before] })).body
    expect(report).toMatchObject({ created: [], updated: ['ADR-0002'], unchanged: ['ADR-0001'], conflicts: [], missing: [] })
    for (const key of ['ADR-0001', 'ADR-0002']) expect((await call('GET', `/v1/decisions/${key}`)).body.imported.folder).toBe(after)
    expect((await call('GET', '/v1/decisions/ADR-0002')).body.decision).toBe('Postgres 16.')
    expect((await call('POST', '/v1/decisions/import', { records: read(after, moved), files: Object.keys(moved) })).body.unchanged).toEqual(['ADR-0001', 'ADR-0002'])
  })

  it('says which keys of a second folder numbered alike another folder holds, in the singular for one', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions/import', { records: read(before, { '0001-record-architecture-decisions.md': files['0001-record-architecture-decisions.md'] }) })
    const web = { '0001-use-vite.md': adr(1, 'Use Vite'), '0002-use-zod.md': adr(2, 'Use Zod') }
    const report = (await call('POST', '/v1/decisions/import', { records: read('github.com/acme/shop/web/docs/adr', web), files: Object.keys(web) })).body
    expect(report.conflicts.map((c: { key: string; message: string }) => [c.key, c.message])).toContainEqual([
      'ADR-0002',
      "ADR-0002 is not imported either: ADR-0001 of this folder belongs to another folder's records; import this one with --prefix",
    ])
  })

  it('names five of the keys another folder holds, then how many more, in the line of each other record', async () => {
    const { call } = await createTestApp()
    const numbered = (from: number, to: number, what: string) =>
      Object.fromEntries(Array.from({ length: to - from + 1 }, (_, i) => [`${String(from + i).padStart(4, '0')}-use-${what}-${from + i}.md`, adr(from + i, `Use ${what} ${from + i}`)]))
    await call('POST', '/v1/decisions/import', { records: read(before, numbered(1, 40, 'pg')) })
    // 40 of the second folder's numbers are held, 40 free: each free one's line named all 40 held,
    // a folder of 2,000 each so some 20 KB, 40 MB in all, in the answer and on import-adr's stderr.
    const web = numbered(1, 80, 'vite')
    const report = (await call('POST', '/v1/decisions/import', { records: read('github.com/acme/shop/web/docs/adr', web), files: Object.keys(web) })).body
    expect(report.conflicts).toHaveLength(80)
    expect(report.conflicts.find((c: { key: string }) => c.key === 'ADR-0041').message).toBe(
      "ADR-0041 is not imported either: ADR-0001, ADR-0002, ADR-0003, ADR-0004, ADR-0005, and 35 more of this folder belong to another folder's records; import this one with --prefix",
    )
  })

  it('is not taken for another folder numbered alike, nor for one that held a record not here', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions/import', { records: read(before, files), files: Object.keys(files) })
    const stored = (await call('GET', '/v1/decisions/ADR-0002')).body
    // A second ADR folder of the monorepo, begun from the same template: its 0002 is another decision.
    const web = { ...files, '0002-use-postgres.md': adr(2, 'Use Redis'), '0003-use-zod.md': adr(3, 'Use Zod') }
    const other = (await call('POST', '/v1/decisions/import', { records: read(after, web), files: Object.keys(web), moved: [before] })).body
    expect(other.conflicts.map((c: { key: string }) => c.key)).toEqual(['ADR-0001', 'ADR-0002', 'ADR-0003'])
    // Gone from the repository, the old folder is no second folder to import beside it with --prefix.
    expect(other.conflicts[1].message).toBe(
      `ADR-0002 exists and it was imported from ${before}, a folder the repository no longer has, not taken for this one moved: ` +
        'not every record of it is here, in a file of the same name, reading or titled as it was (undo what changed, import, and redo it); it is left as it is',
    )
    expect(other.conflicts[2].message).toBe(
      'ADR-0003 is not imported either: ADR-0001, ADR-0002 of this folder belong to the records of a folder the repository no longer has (see their conflicts)',
    )
    const { '0002-use-postgres.md': _notHere, ...fewer } = files
    const part = (await call('POST', '/v1/decisions/import', { records: read(after, fewer), files: Object.keys(fewer), moved: [before] })).body
    expect(part.conflicts.map((c: { key: string }) => c.key)).toEqual(['ADR-0001'])
    expect((await call('GET', '/v1/decisions/ADR-0002')).body).toEqual(stored)
    expect((await call('GET', '/v1/decisions/ADR-0001')).body.imported.folder).toBe(before)
  })
})

describe('records whose file was deleted from their folder (R-CON-6)', () => {
  const adr = (n: number, title: string) => `# ${n}. ${title}\n\nDate: 2024-01-0${n}\n\n## Status\n\nAccepted\n\n## Decision\n\n${title}.\n`
  const read = (folder: string, entries: Record<string, string>) =>
    readRecordFolder(Object.entries(entries).map(([name, text]) => ({ path: name, name, bytes: new TextEncoder().encode(text) }))).records.map(
      (r) => ({ ...r, origin: { ...r.origin, folder } }),
    )

  it('are reported as missing, naming the key and the file, and keep their status; those of other folders are not', async () => {
    const { call } = await createTestApp()
    const files = { '0001-use-rest.md': adr(1, 'Use REST'), '0002-use-kafka.md': adr(2, 'Use Kafka'), '0003-use-zod.md': adr(3, 'Use Zod') }
    await call('POST', '/v1/decisions/import', { records: read('acme/docs/adr', files) })
    await call('POST', '/v1/decisions/import', { records: read('acme/web/adr', { '0009-use-vite.md': adr(9, 'Use Vite') }) })
    const { '0002-use-kafka.md': _deleted, ...left } = files
    // A file that is there but cannot be read is not missing.
    const report = (await call('POST', '/v1/decisions/import', { records: read('acme/docs/adr', { '0001-use-rest.md': files['0001-use-rest.md'] }), files: Object.keys(left) })).body
    expect(report.unchanged).toEqual(['ADR-0001'])
    expect(report.missing).toEqual([{ key: 'ADR-0002', path: '0002-use-kafka.md', message: expect.stringContaining('0002-use-kafka.md') }])
    expect(report.missing[0].message).toContain('stays accepted')
    expect((await call('GET', '/v1/decisions/ADR-0002')).body).toMatchObject({ status: 'accepted', version: 1 })
    // Without the folder's files, which are gone is not known.
    expect((await call('POST', '/v1/decisions/import', { records: read('acme/docs/adr', left) })).body.missing).toEqual([])
  })

  it('leave the links of a file that is there but cannot be read now as stored, on the decisions it names too, and say so', async () => {
    const { call } = await createTestApp()
    const record = (n: number, title: string, status: string) => `# ${n}. ${title}\n\nDate: 2024-01-0${n}\n\n## Status\n\n${status}\n\n## Decision\n\n${title}.\n`
    // "Supersedes" written on the new records alone, as many write it: ADR-0001 reads superseded, ADR-0003 stays deprecated.
    const files = {
      '0001-use-rest.md': record(1, 'Use REST', 'Accepted'),
      '0002-use-grpc.md': record(2, 'Use gRPC', 'Accepted\n\nSupersedes [1. Use REST](0001-use-rest.md)'),
      '0003-use-soap.md': record(3, 'Use SOAP', 'Deprecated'),
      '0004-use-graphql.md': record(4, 'Use GraphQL', 'Accepted\n\nSupersedes [3. Use SOAP](0003-use-soap.md)'),
    }
    await call('POST', '/v1/decisions/import', { records: read('acme/docs/adr', files), files: Object.keys(files) })
    const before = await Promise.all(['ADR-0001', 'ADR-0002', 'ADR-0003', 'ADR-0004'].map(async (k) => (await call('GET', `/v1/decisions/${k}`)).body))
    expect(before.map((d) => [d.status, d.supersedes, d.superseded_by])).toEqual([
      ['superseded', null, 'ADR-0002'],
      ['accepted', 'ADR-0001', null],
      ['deprecated', null, 'ADR-0004'],
      ['accepted', 'ADR-0003', null],
    ])
    // Their status mistyped, ADR-0002 and ADR-0004 cannot be read: their files are still there.
    const unread = {
      ...files,
      '0002-use-grpc.md': files['0002-use-grpc.md'].replace('Accepted', 'Pondering'),
      '0004-use-graphql.md': files['0004-use-graphql.md'].replace('Accepted', 'Pondering'),
    }
    const records = read('acme/docs/adr', unread)
    expect(records.map((r) => r.key)).toEqual(['ADR-0001', 'ADR-0003'])
    for (let i = 0; i < 2; i++) {
      const report = (await call('POST', '/v1/decisions/import', { records, files: Object.keys(unread) })).body
      expect(report).toMatchObject({ updated: [], unchanged: ['ADR-0001', 'ADR-0003'], missing: [] })
      expect(report.warnings).toEqual([
        { key: 'ADR-0001', message: 'superseded_by ADR-0002 is kept as stored: 0002-use-grpc.md, which ADR-0002 was imported from, is in the folder but could not be read' },
        { key: 'ADR-0003', message: 'superseded_by ADR-0004 is kept as stored: 0004-use-graphql.md, which ADR-0004 was imported from, is in the folder but could not be read' },
      ])
    }
    const after = await Promise.all(['ADR-0001', 'ADR-0002', 'ADR-0003', 'ADR-0004'].map(async (k) => (await call('GET', `/v1/decisions/${k}`)).body))
    expect(after).toEqual(before)
    // Put right, the files read as they did: nothing to restore.
    const again = (await call('POST', '/v1/decisions/import', { records: read('acme/docs/adr', files), files: Object.keys(files) })).body
    expect(again).toMatchObject({ updated: [], unchanged: ['ADR-0001', 'ADR-0002', 'ADR-0003', 'ADR-0004'], warnings: [] })
  })

  it('a section taken out of a DECISIONS.md still in the folder is reported as a deleted file is; one that cannot be read now is not', async () => {
    const { call } = await createTestApp()
    const section = (n: number, title: string) => `## D-00${n}: ${title}\n\n- Status: Accepted\n- Date: 2024-01-0${n}\n\n${title}.\n`
    const importLog = async (...sections: string[]) => {
      const reading = readRecordFolder([{ path: 'DECISIONS.md', name: 'DECISIONS.md', bytes: new TextEncoder().encode(`# Decisions\n\n${sections.join('\n')}`) }])
      const records = reading.records.map((r) => ({ ...r, origin: { ...r.origin, folder: 'acme/docs' } }))
      return (await call('POST', '/v1/decisions/import', { records, files: ['DECISIONS.md'], logs: reading.logs })).body
    }
    await importLog(section(1, 'Use REST'), section(2, 'Use Kafka'), section(3, 'Use Zod'))
    // D-002 taken out; D-003 still there, with its status line deleted by mistake.
    const report = await importLog(section(1, 'Use REST'), section(3, 'Use Zod').replace('- Status: Accepted\n', ''))
    expect(report.unchanged).toEqual(['D-001'])
    expect(report.missing).toEqual([
      {
        key: 'D-002',
        path: 'DECISIONS.md',
        message: 'the section of DECISIONS.md that D-002 was imported from is no longer in it; D-002 stays accepted (deprecate or revoke it if it no longer holds)',
      },
    ])
    expect((await call('GET', '/v1/decisions/D-002')).body).toMatchObject({ status: 'accepted', version: 1 })
  })

  it('of a folder whose every file was deleted, are all reported, with no record sent but the folder named; none is retired', async () => {
    const { call } = await createTestApp()
    const files = { '0001-use-rest.md': adr(1, 'Use REST'), '0002-use-kafka.md': adr(2, 'Use Kafka') }
    await call('POST', '/v1/decisions/import', { records: read('acme/docs/adr', files) })
    await call('POST', '/v1/decisions/import', { records: read('acme/web/adr', { '0009-use-vite.md': adr(9, 'Use Vite') }) })
    // The folder still holds its README.md, which is no record.
    const emptied = await call('POST', '/v1/decisions/import', { records: [], folder: 'acme/docs/adr', files: ['README.md'] })
    expect(emptied.status).toBe(200)
    expect(emptied.body).toMatchObject({ created: [], updated: [], unchanged: [], conflicts: [] })
    expect(emptied.body.missing.map((m: { key: string; path: string }) => [m.key, m.path])).toEqual([
      ['ADR-0001', '0001-use-rest.md'],
      ['ADR-0002', '0002-use-kafka.md'],
    ])
    for (const key of ['ADR-0001', 'ADR-0002', 'ADR-0009']) expect((await call('GET', `/v1/decisions/${key}`)).body).toMatchObject({ status: 'accepted', version: 1 })
    // Its former name finds them as well.
    const renamed = await call('POST', '/v1/decisions/import', { records: [], folder: 'github.com/acme/docs/adr', aliases: ['acme/docs/adr'], files: [] })
    expect(renamed.body.missing.map((m: { key: string }) => m.key)).toEqual(['ADR-0001', 'ADR-0002'])
    // With neither records nor a folder, there is nothing to import.
    const nothing = await call('POST', '/v1/decisions/import', { records: [], files: [] })
    expect(nothing.status).toBe(400)
    expect(nothing.body.error.issues.map((i: { path: string }) => i.path)).toContain('records')
  })

  it('advise only a move the lifecycle allows: a superseded decision whose file is gone is final', async () => {
    const { call } = await createTestApp()
    const chain = {
      '0004-use-grpc.md': adr(4, 'Use gRPC').replace('Accepted', 'Superseded by [5. Use Connect](0005-use-connect.md)'),
      '0005-use-connect.md': adr(5, 'Use Connect').replace('Accepted', 'Accepted\n\nSupersedes [4. Use gRPC](0004-use-grpc.md)'),
    }
    await call('POST', '/v1/decisions/import', { records: read('acme/api/adr', chain) })
    expect((await call('GET', '/v1/decisions/ADR-0004')).body.status).toBe('superseded')
    const { '0004-use-grpc.md': _gone, ...kept } = chain
    const { missing } = (await call('POST', '/v1/decisions/import', { records: read('acme/api/adr', kept), files: Object.keys(kept) })).body
    expect(missing).toEqual([{ key: 'ADR-0004', path: '0004-use-grpc.md', message: '0004-use-grpc.md, which ADR-0004 was imported from, is no longer in the folder; ADR-0004 stays superseded' }])
  })
})

describe('a successor renumbered in its folder (R-CON-5, R-CON-6)', () => {
  const adr = (n: number, title: string, status: string) => `# ${n}. ${title}\n\nDate: 2024-01-${String(n).padStart(2, '0')}\n\n## Status\n\n${status}\n\n## Decision\n\n${title}.\n`
  const read = (entries: Record<string, string>) =>
    readRecordFolder(Object.entries(entries).map(([name, text]) => ({ path: name, name, bytes: new TextEncoder().encode(text) }))).records.map(
      (r) => ({ ...r, origin: { ...r.origin, folder: 'acme/docs/adr' } }),
    )

  it('leaves no second claim on its predecessor: the old number no longer supersedes it, and every chain reads alike from either end', async () => {
    const { call, clock } = await createTestApp()
    const rest = adr(1, 'Use REST', 'Superseded by [10. Use gRPC](0010-use-grpc.md)')
    await call('POST', '/v1/decisions/import', { records: read({ '0001-use-rest.md': rest, '0010-use-grpc.md': adr(10, 'Use gRPC', 'Accepted\n\nSupersedes [1. Use REST](0001-use-rest.md)') }) })
    const first = clock.now().toISOString()
    clock.advance(DAY)
    // Two branches both added a 0010: this one's is renumbered 0011, and the link to it with it.
    const files = {
      '0001-use-rest.md': rest.replace('[10. Use gRPC](0010-use-grpc.md)', '[11. Use gRPC](0011-use-grpc.md)'),
      '0011-use-grpc.md': adr(11, 'Use gRPC', 'Accepted\n\nSupersedes [1. Use REST](0001-use-rest.md)'),
    }
    const report = (await call('POST', '/v1/decisions/import', { records: read(files), files: Object.keys(files) })).body
    expect(report.missing.map((m: { key: string }) => m.key)).toEqual(['ADR-0010'])
    expect(report.warnings).toContainEqual({ key: 'ADR-0010', message: expect.stringContaining('no longer supersedes ADR-0001') })
    expect((await call('GET', '/v1/decisions/ADR-0001')).body).toMatchObject({ status: 'superseded', superseded_by: 'ADR-0011' })
    expect((await call('GET', '/v1/decisions/ADR-0010')).body).toMatchObject({ status: 'accepted', supersedes: null })
    const chain = async (key: string, asOf?: string) =>
      (await call('GET', `/v1/decisions/${key}/why${asOf === undefined ? '' : `?as_of=${asOf}`}`)).body.chain.map((l: { key: string }) => l.key)
    expect(await chain('ADR-0001')).toEqual(['ADR-0001', 'ADR-0011'])
    expect(await chain('ADR-0011')).toEqual(['ADR-0001', 'ADR-0011'])
    expect(await chain('ADR-0010')).toEqual(['ADR-0010'])
    // As of the first import, ADR-0010 was the successor, read from either end.
    expect(await chain('ADR-0010', first)).toEqual(['ADR-0001', 'ADR-0010'])
    expect(await chain('ADR-0001', first)).toEqual(['ADR-0001', 'ADR-0010'])
  })

  it('still in the folder, unchanged, it is updated so too: the predecessor\'s file says which successor holds', async () => {
    const { call } = await createTestApp()
    const grpc = adr(10, 'Use gRPC', 'Accepted\n\nSupersedes [1. Use REST](0001-use-rest.md)')
    const rest = adr(1, 'Use REST', 'Superseded by [10. Use gRPC](0010-use-grpc.md)')
    await call('POST', '/v1/decisions/import', { records: read({ '0001-use-rest.md': rest, '0010-use-grpc.md': grpc }) })
    const files = {
      '0001-use-rest.md': rest.replace('[10. Use gRPC](0010-use-grpc.md)', '[11. Use Connect](0011-use-connect.md)'),
      '0010-use-grpc.md': grpc,
      '0011-use-connect.md': adr(11, 'Use Connect', 'Accepted\n\nSupersedes [1. Use REST](0001-use-rest.md)'),
    }
    const report = (await call('POST', '/v1/decisions/import', { records: read(files), files: Object.keys(files) })).body
    expect([report.created, report.updated, report.unchanged]).toEqual([['ADR-0011'], ['ADR-0001', 'ADR-0010'], []])
    expect(report.warnings).toContainEqual({ key: 'ADR-0010', message: expect.stringContaining('no longer supersedes ADR-0001') })
    expect((await call('GET', '/v1/decisions/ADR-0010')).body).toMatchObject({ status: 'accepted', supersedes: null })
    expect((await call('GET', '/v1/decisions/ADR-0010/why')).body.chain.map((l: { key: string }) => l.key)).toEqual(['ADR-0010'])
    expect((await call('GET', '/v1/decisions/ADR-0011/why')).body.chain.map((l: { key: string }) => l.key)).toEqual(['ADR-0001', 'ADR-0011'])
  })
})

describe('records whose new one alone says "Supersedes" (R-CON-6, R-CON-1a)', () => {
  it('an accepted replacement leaves the old record out of force; an imported proposal can then be accepted', async () => {
    const { call } = await createTestApp()
    const adr = (n: number, title: string, status: string) =>
      `# ${n}. ${title}\n\nDate: 2024-0${n}-01\n\n## Status\n\n${status}\n\n## Decision\n\n${title}.\n`
    const files = {
      '0001-use-rest.md': adr(1, 'Use REST', 'Accepted'),
      '0002-use-grpc.md': adr(2, 'Use gRPC', 'Accepted\n\nSupersedes [1. Use REST](0001-use-rest.md)'),
      '0003-use-soap.md': adr(3, 'Use SOAP', 'Accepted'),
      '0004-use-graphql.md': adr(4, 'Use GraphQL', 'Proposed\n\nSupersedes [3. Use SOAP](0003-use-soap.md)'),
    }
    const { records } = readRecordFolder(
      Object.entries(files).map(([name, text]) => ({ path: name, name, bytes: new TextEncoder().encode(text) })),
    )
    expect((await call('POST', '/v1/decisions/import', { records })).body.created).toHaveLength(4)
    const inForce = (await call('GET', '/v1/decisions/applicable')).body.decisions.map((d: { key: string }) => d.key)
    expect(inForce).toEqual(['ADR-0002', 'ADR-0003'])

    const accepted = await call('POST', '/v1/decisions/ADR-0004/accept')
    expect(accepted.status).toBe(200)
    expect((await call('GET', '/v1/decisions/ADR-0003')).body).toMatchObject({ status: 'superseded', superseded_by: 'ADR-0004' })
    expect((await call('POST', '/v1/decisions/import', { records })).body.unchanged).toHaveLength(4)
  })

  it('accepts a proposal that the record it replaces already names as its replacement', async () => {
    const { call } = await createTestApp()
    // The old record was written "Superseded by" the new one before the new one was accepted.
    const adr = (n: number, title: string, status: string) =>
      `# ${n}. ${title}\n\nDate: 2024-0${n}-01\n\n## Status\n\n${status}\n\n## Decision\n\n${title}.\n`
    const { records } = readRecordFolder(
      Object.entries({
        '0001-use-rest.md': adr(1, 'Use REST', 'Superseded by [2. Use gRPC](0002-use-grpc.md)'),
        '0002-use-grpc.md': adr(2, 'Use gRPC', 'Proposed'),
      }).map(([name, text]) => ({ path: name, name, bytes: new TextEncoder().encode(text) })),
    )
    expect((await call('POST', '/v1/decisions/import', { records })).body.created).toHaveLength(2)
    const accepted = await call('POST', '/v1/decisions/ADR-0002/accept')
    expect(accepted.status).toBe(200)
    expect(accepted.body).toMatchObject({ status: 'accepted', supersedes: 'ADR-0001' })
    expect((await call('GET', '/v1/decisions/ADR-0001')).body).toMatchObject({ status: 'superseded', superseded_by: 'ADR-0002' })
    // Any other decision that names the same predecessor is still refused.
    const other = await call('POST', '/v1/decisions', { key: 'D-900', title: 'Use SOAP', decision: 'SOAP', rationale: 'legacy', supersedes: 'ADR-0001' })
    expect(other.status).toBe(201)
    expect((await call('POST', '/v1/decisions/D-900/accept')).status).toBe(409)
  })
})

describe('a re-import after the lifecycle moved on (R-CON-6, R-CON-1)', () => {
  it('takes what the repository changed, and keeps a proposal accepted here accepted while the file still says Proposed', async () => {
    const { call, clock } = await createTestApp()
    const read = (context: string) =>
      readRecordFolder([
        {
          path: '0004-use-graphql.md',
          name: '0004-use-graphql.md',
          bytes: new TextEncoder().encode(`# 4. Use GraphQL\n\nDate: 2024-04-01\n\n## Status\n\nProposed\n\n## Context\n\n${context}\n`),
        },
      ]).records
    await call('POST', '/v1/decisions/import', { records: read('Clients over-fetch.') })
    clock.advance(DAY)
    expect((await call('POST', '/v1/decisions/ADR-0004/accept', { reason: 'agreed in review' })).status).toBe(200)

    clock.advance(DAY)
    const again = await call('POST', '/v1/decisions/import', { records: read('Clients over-fetch, on mobile most.') })
    expect(again.body.updated).toEqual(['ADR-0004'])
    const stored = (await call('GET', '/v1/decisions/ADR-0004')).body
    expect(stored).toMatchObject({ status: 'accepted', rationale: 'Clients over-fetch, on mobile most.' })
    expect(stored.events.at(-1)).toMatchObject({ type: 'reimported', from: 'accepted', to: 'accepted', changed: ['rationale', 'evidence'] })
    clock.advance(DAY)
    await call('POST', '/v1/decisions/import', { records: read('Clients over-fetch, on mobile most of all.') })
    expect((await call('GET', '/v1/decisions/ADR-0004')).body.status).toBe('accepted')

    // The repository's own change of status still comes through.
    const withdrawn = read('Clients over-fetch, on mobile most of all.').map((r) => ({ ...r, status: 'revoked' as const }))
    await call('POST', '/v1/decisions/import', { records: withdrawn })
    expect((await call('GET', '/v1/decisions/ADR-0004')).body.status).toBe('revoked')
  })
  it('keeps what a re-import changed as it was, so that a replay before it reads the decision as it stood (R-REC-9)', async () => {
    const { call, clock } = await createTestApp()
    const read = (context: string) =>
      readRecordFolder([
        {
          path: '0004-use-graphql.md',
          name: '0004-use-graphql.md',
          bytes: new TextEncoder().encode(`# 4. Use GraphQL\n\nDate: 2024-04-01\n\n## Status\n\nAccepted\n\n## Context\n\n${context}\n`),
        },
      ]).records
    await call('POST', '/v1/decisions/import', { records: read('Clients over-fetch.') })
    clock.advance(DAY)
    const then = clock.now()
    clock.advance(DAY)
    const required = read('Clients over-fetch, on mobile most.').map((r) => ({ ...r, enforce: 'required' as const }))
    expect((await call('POST', '/v1/decisions/import', { records: required })).body.updated).toEqual(['ADR-0004'])
    const last = (await call('GET', '/v1/decisions/ADR-0004')).body.events.at(-1)
    expect(last).toMatchObject({ type: 'reimported', changed: ['rationale', 'enforce', 'evidence'] })
    expect(last.before).toMatchObject({ rationale: 'Clients over-fetch.', enforce: 'advisory' })
    expect(Object.keys(last.before).sort()).toEqual(['enforce', 'evidence', 'rationale'])

    const replay = (await call('GET', `/v1/decisions/ADR-0004/why?as_of=${then.toISOString()}`)).body
    expect(replay.chain[0]).toMatchObject({ enforce: 'advisory', rationale: 'Clients over-fetch.' })
    expect(replay.rationale).toBe('Clients over-fetch.')
    expect(replay.events.map((e: any) => e.type)).toEqual(['imported'])
    expect((await call('GET', `/v1/decisions/ADR-0004?as_of=${then.toISOString()}`)).body).toMatchObject({ enforce: 'advisory', rationale: 'Clients over-fetch.', version: 1 })
    expect((await call('GET', '/v1/decisions/ADR-0004/why')).body.chain[0]).toMatchObject({ enforce: 'required' })
  })

  it('reports unchanged, with no event, a record whose file is as it was when the file of a proposal accepted here catches up', async () => {
    const { call, clock } = await createTestApp()
    const adr = (n: number, title: string, status: string) => `# ${n}. ${title}\n\nDate: 2024-0${n}-01\n\n## Status\n\n${status}\n\n## Decision\n\n${title}.\n`
    const read = (status: string) =>
      readRecordFolder(
        Object.entries({
          '0001-use-sqlite.md': adr(1, 'Use SQLite', 'Accepted'),
          '0004-use-postgres.md': adr(4, 'Use Postgres', `${status}\n\nSupersedes [1. Use SQLite](0001-use-sqlite.md)`),
        }).map(([name, text]) => ({ path: name, name, bytes: new TextEncoder().encode(text) })),
      ).records
    await call('POST', '/v1/decisions/import', { records: read('Proposed') })
    clock.advance(DAY)
    expect((await call('POST', '/v1/decisions/ADR-0004/accept')).status).toBe(200)
    const before = (await call('GET', '/v1/decisions/ADR-0001')).body
    expect(before).toMatchObject({ status: 'superseded', superseded_by: 'ADR-0004', version: 2 })
    clock.advance(DAY)
    // Only 0004's file changed: ADR-0001 now reads superseded by it, as it already is.
    const caughtUp = await call('POST', '/v1/decisions/import', { records: read('Accepted') })
    expect(caughtUp.body).toMatchObject({ updated: ['ADR-0004'], unchanged: ['ADR-0001'], warnings: [] })
    const after = (await call('GET', '/v1/decisions/ADR-0001')).body
    expect(after.events.map((e: any) => e.type)).toEqual(['imported', 'superseded'])
    expect(after).toMatchObject({ version: 2, updated_at: before.updated_at })
    // And importing again changes nothing.
    clock.advance(DAY)
    expect((await call('POST', '/v1/decisions/import', { records: read('Accepted') })).body).toMatchObject({ updated: [], unchanged: ['ADR-0001', 'ADR-0004'] })
  })

  it('takes a link the file adds once it says the status the lifecycle moved the decision to', async () => {
    const { call, clock } = await createTestApp()
    const read = (status: string, links = '') =>
      readRecordFolder([
        {
          path: 'DECISIONS.md',
          name: 'DECISIONS.md',
          bytes: new TextEncoder().encode(
            `# Decisions\n\n## D-001: Use Postgres (2024-01-10)\n- Status: Accepted\n\n## D-002: Use Redis (2024-02-10)\n- Status: ${status}\n${links}\nLatency.\n`,
          ),
        },
      ]).records
    await call('POST', '/v1/decisions/import', { records: read('Proposed') })
    clock.advance(DAY)
    expect((await call('POST', '/v1/decisions/D-002/accept')).status).toBe(200)
    clock.advance(DAY)
    // The file catches up with the lifecycle, then, later, says what D-002 replaced.
    await call('POST', '/v1/decisions/import', { records: read('Accepted') })
    clock.advance(DAY)
    await call('POST', '/v1/decisions/import', { records: read('Accepted', '- Supersedes: D-001\n') })
    expect((await call('GET', '/v1/decisions/D-001')).body).toMatchObject({ status: 'superseded', superseded_by: 'D-002' })
    expect((await call('GET', '/v1/decisions/D-002')).body).toMatchObject({ status: 'accepted', supersedes: 'D-001' })
  })
})

describe('a re-import never moves what is final, nor relinks what the lifecycle linked (R-CON-1, R-CON-5, R-CON-6)', () => {
  const adr = (n: number, title: string, status: string, context = `${title}, for reasons.`) =>
    `# ${n}. ${title}\n\nDate: 2024-0${n}-01\n\n## Status\n\n${status}\n\n## Context\n\n${context}\n\n## Decision\n\n${title}.\n`
  const read = (files: Record<string, string>) =>
    readRecordFolder(Object.entries(files).map(([name, text]) => ({ path: name, name, bytes: new TextEncoder().encode(text) }))).records.map(
      (r) => ({ ...r, origin: { ...r.origin, folder: 'docs/adr' } }),
    )
  const links = async (call: Awaited<ReturnType<typeof createTestApp>>['call'], key: string) => {
    const d = (await call('GET', `/v1/decisions/${key}`)).body
    return [d.status, d.supersedes, d.superseded_by]
  }

  it('a decision revoked here, or imported revoked, stays revoked whatever status its file says later; its text still comes through', async () => {
    const { call, clock } = await createTestApp()
    await call('POST', '/v1/decisions/import', {
      records: read({ '0001-use-mongodb.md': adr(1, 'Use MongoDB', 'Proposed'), '0002-use-couchdb.md': adr(2, 'Use CouchDB', 'Rejected') }),
    })
    clock.advance(DAY)
    expect((await call('POST', '/v1/decisions/ADR-0001/revoke', { reason: 'rejected in review' })).status).toBe(200)
    clock.advance(DAY)
    const later = read({
      '0001-use-mongodb.md': adr(1, 'Use MongoDB', 'Deprecated', 'Documents, then joins.'),
      '0002-use-couchdb.md': adr(2, 'Use CouchDB', 'Accepted', 'Replication, offline.'),
    })
    const again = (await call('POST', '/v1/decisions/import', { records: later })).body
    expect(again.updated).toEqual(['ADR-0001', 'ADR-0002'])
    expect(again.warnings).toEqual([
      { key: 'ADR-0001', message: expect.stringContaining('revoked, which is final') },
      { key: 'ADR-0002', message: expect.stringContaining('revoked, which is final') },
    ])
    for (const [key, rationale] of [['ADR-0001', 'Documents, then joins.'], ['ADR-0002', 'Replication, offline.']]) {
      const stored = (await call('GET', `/v1/decisions/${key}`)).body
      expect(stored).toMatchObject({ status: 'revoked', rationale })
      expect(stored.events.at(-1)).toMatchObject({ type: 'reimported', from: 'revoked', to: 'revoked' })
    }
    expect((await call('GET', '/v1/decisions/applicable')).body.decisions).toEqual([])
    expect((await call('POST', '/v1/decisions/import', { records: later })).body.unchanged).toHaveLength(2)
  })

  it('a record superseded stays superseded, linked both ways, when its file says Accepted again', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions/import', {
      records: read({
        '0001-use-rest.md': adr(1, 'Use REST', 'Superseded by [2. Use gRPC](0002-use-grpc.md)'),
        '0002-use-grpc.md': adr(2, 'Use gRPC', 'Accepted\n\nSupersedes [1. Use REST](0001-use-rest.md)'),
      }),
    })
    // The team takes gRPC back in the files: REST is written Accepted again, gRPC Rejected.
    const report = (await call('POST', '/v1/decisions/import', {
      records: read({ '0001-use-rest.md': adr(1, 'Use REST', 'Accepted'), '0002-use-grpc.md': adr(2, 'Use gRPC', 'Rejected') }),
    })).body
    expect(report.updated).toEqual(['ADR-0001', 'ADR-0002'])
    expect(report.warnings.map((w: { key: string }) => w.key)).toEqual(['ADR-0001', 'ADR-0002'])
    expect(await links(call, 'ADR-0001')).toEqual(['superseded', null, 'ADR-0002'])
    // Revoking a replacement does not bring the old one back (R-CON-1a).
    expect(await links(call, 'ADR-0002')).toEqual(['revoked', 'ADR-0001', null])
    const why = (await call('GET', '/v1/decisions/ADR-0001/why')).body
    expect(why.chain.map((l: { key: string }) => l.key)).toEqual(['ADR-0001', 'ADR-0002'])
  })

  it('after a supersede over the API, a re-import naming another successor keeps the chain the history tells, and says so', async () => {
    const { call, clock } = await createTestApp()
    const first = {
      '0001-use-rest.md': adr(1, 'Use REST', 'Accepted'),
      '0002-use-grpc.md': adr(2, 'Use gRPC', 'Proposed'),
      '0003-use-graphql.md': adr(3, 'Use GraphQL', 'Proposed'),
    }
    await call('POST', '/v1/decisions/import', { records: read(first) })
    clock.advance(DAY)
    expect((await call('POST', '/v1/decisions/ADR-0001/supersede', { by: 'ADR-0002' })).status).toBe(200)
    clock.advance(DAY)
    // Meanwhile the repository accepted GraphQL as REST's replacement.
    const report = (await call('POST', '/v1/decisions/import', {
      records: read({ ...first, '0003-use-graphql.md': adr(3, 'Use GraphQL', 'Accepted\n\nSupersedes [1. Use REST](0001-use-rest.md)') }),
    })).body
    expect(report.warnings).toEqual([
      { key: 'ADR-0001', message: expect.stringMatching(/ADR-0002.*superseded by ADR-0003.*not taken/) },
      { key: 'ADR-0003', message: expect.stringMatching(/supersedes ADR-0001 is left out.*ADR-0002/) },
    ])
    expect(await links(call, 'ADR-0001')).toEqual(['superseded', null, 'ADR-0002'])
    expect(await links(call, 'ADR-0002')).toEqual(['accepted', 'ADR-0001', null])
    expect(await links(call, 'ADR-0003')).toEqual(['accepted', null, null])
    const rest = (await call('GET', '/v1/decisions/ADR-0001')).body
    // Its file is as imported, and what it reads now (superseded by ADR-0003) is not taken: no `reimported` event naming nothing.
    expect(rest.events.map((e: { type: string; by?: string }) => [e.type, e.by])).toEqual([['imported', undefined], ['superseded', 'ADR-0002']])
    expect(report).toMatchObject({ updated: ['ADR-0003'], unchanged: ['ADR-0001', 'ADR-0002'] })
    // A replay undoes a re-import with what it kept in `before` (R-REC-9): the links left out
    // changed nothing, so they are kept as no change.
    const graphql = (await call('GET', '/v1/decisions/ADR-0003')).body
    const reimported = graphql.events.find((e: { type: string }) => e.type === 'reimported')
    expect(reimported.changed).not.toContain('supersedes')
    expect(Object.keys(reimported.before ?? {}).filter((f) => !reimported.changed.includes(f))).toEqual([])
    for (const key of ['ADR-0001', 'ADR-0002', 'ADR-0003']) {
      const why = (await call('GET', `/v1/decisions/${key}/why`)).body
      const chain = why.chain.map((l: { key: string }) => l.key)
      expect(chain, key).toEqual(key === 'ADR-0003' ? ['ADR-0003'] : ['ADR-0001', 'ADR-0002'])
      for (const link of why.chain) {
        for (const id of [link.supersedes, link.superseded_by].filter((k) => k !== null)) {
          expect(chain, `${key}: ${link.key} cites ${id}`).toContain(id)
        }
      }
    }
  })
})

describe('paths in one Unicode form (R-CON-3, R-CON-4)', () => {
  it('a path-scoped required decision applies to its path in NFD as in NFC: check blocks, applicable lists, the recommendation is enforced', async () => {
    const { call } = await createTestApp()
    const nfc = '/home/dev/caf\u00e9'
    const nfd = '/home/dev/cafe\u0301'
    // Typed by hand (NFC); the cwd macOS reports can be NFD.
    const created = await call('POST', '/v1/decisions', decision({
      key: 'D-CAFE', enforce: 'required', status: 'accepted', scope: { path: nfc, points: ['tier'] },
      constraints: [{ kind: 'must_not', pattern: 'rm -rf' }, { kind: 'must', option: 'Tier M' }],
    }))
    expect(created.status).toBe(201)
    for (const path of [`${nfc}/src`, `${nfd}/src`]) {
      const check = await call('POST', '/v1/decisions/check', { action: 'rm -rf build', path })
      expect(check.body, path.normalize('NFC') === path ? 'NFC' : 'NFD').toMatchObject({ allowed: false })
      expect(check.body.blocked_by.map((v: any) => v.key)).toEqual(['D-CAFE'])
      const applicable = await call('GET', `/v1/decisions/applicable?path=${encodeURIComponent(path)}`)
      expect(applicable.body.decisions.map((d: any) => d.key)).toEqual(['D-CAFE'])
    }
    // Scoped in NFD, asked in NFC (a recommendation's context is NFC).
    await call('POST', '/v1/decisions', decision({
      key: 'D-CAFE2', enforce: 'required', status: 'accepted', scope: { path: nfd, points: ['tier2'] },
      constraints: [{ kind: 'must', option: 'Tier L' }],
    }))
    const rec = await call('POST', '/v1/recommendations', {
      question: 'Which tier?', point: 'tier2', all_options: ['Tier S', 'Tier M', 'Tier L'], context: { path: `${nfc}/src` },
    })
    expect(rec.body).toMatchObject({ state: 'enforced', recommended: 'Tier L' })
  })

  it('GET /v1/why says the run\'s path in NFC, as its task and stage, and as the MCP why reads it from a context', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', decision({
      key: 'D-CAFE3', enforce: 'required', status: 'accepted', scope: { path: '/home/dev/other', points: ['tier3'] },
      constraints: [{ kind: 'must', option: 'Tier L' }],
    }))
    const nfd = '/home/dev/cafe\u0301/src'
    const why = await call('GET', `/v1/why?${new URLSearchParams({ point: 'tier3', path: nfd, task: 'cafe\u0301' })}`)
    expect(why.status).toBe(200)
    expect({ task: why.body.task, path: why.body.path }).toEqual({ task: 'caf\u00e9', path: nfd.normalize('NFC') })
    expect(why.body.decisions[0].out_of_scope).toEqual([{ field: 'path', scope: '/home/dev/other', run: nfd.normalize('NFC') }])
  })
})

describe('the OpenAPI document', () => {
  it('describes every decision route', async () => {
    const { call } = await createTestApp()
    const paths = Object.keys((await call('GET', '/openapi.json')).body.paths)
    for (const path of [
      '/v1/decisions',
      '/v1/decisions/applicable',
      '/v1/decisions/pulses',
      '/v1/decisions/check',
      '/v1/decisions/import',
      '/v1/decisions/{key}',
      '/v1/decisions/{key}/accept',
      '/v1/decisions/{key}/supersede',
      '/v1/decisions/{key}/deprecate',
      '/v1/decisions/{key}/revoke',
      '/v1/decisions/{key}/why',
      '/v1/why',
    ]) {
      expect(paths).toContain(path)
    }
  })

  it('describes the options offered a check of a choice takes, as a recommendation takes them', async () => {
    const { call } = await createTestApp()
    const { schemas } = (await call('GET', '/openapi.json')).body.components
    const options = schemas.DecisionCheck.properties.all_options
    expect(options).toMatchObject({ type: ['array', 'null'], minItems: 1, maxItems: LIMITS.options })
    expect(options.items).toEqual(schemas.RecommendationRequest.properties.all_options.items)
    expect(options.description).toContain('as the recommendation reads them')
    expect(schemas.DecisionCheck.required ?? []).not.toContain('all_options')
  })

  it('describes as_of on the routes an audit asks (R-REC-9)', async () => {
    const { call } = await createTestApp()
    const doc = (await call('GET', '/openapi.json')).body
    for (const path of ['/v1/decisions', '/v1/decisions/applicable', '/v1/decisions/{key}', '/v1/decisions/{key}/why']) {
      const asOf = doc.paths[path].get.parameters.find((p: any) => p.name === 'as_of')
      expect(asOf, path).toMatchObject({ in: 'query', required: false, schema: { type: 'string', format: 'date-time' } })
      expect(asOf.description, path).toContain('R-REC-9')
    }
    // The chain's answer says which moment it describes; a point's decisions leave that to the point's own as_of.
    const why = doc.components.schemas.DecisionWhy
    expect(why.required).toContain('as_of')
    expect(why.properties.as_of).toMatchObject({ type: 'string' })
    expect(why.properties.as_of.description).toContain('older version')
    expect(doc.components.schemas.PointWhy.properties.decisions.items.properties.as_of).toBeUndefined()
    const check = doc.components.schemas.DecisionCheck.properties.as_of
    expect(check).toMatchObject({ type: ['string', 'null'], format: 'date-time' })
    expect(check.description).toContain('counts no pulse')
  })
})

describe('POST /v1/decisions/check at every shell command', () => {
  it('reads the decisions again only once they changed, and then checks against them as they are', async () => {
    const db = new InstrumentedLevel()
    const { call } = await createTestApp({ db })
    const forbid = (key: string, pattern: string) =>
      decision({ key, status: 'accepted', enforce: 'required', constraints: [{ kind: 'must_not', pattern }] })
    expect((await call('POST', '/v1/decisions', forbid('D-001', 'git push --force'))).status).toBe(201)
    const check = async (action: string) => (await call('POST', '/v1/decisions/check', { action, path: '.' })).body
    expect((await check('git push --force')).blocked_by.map((b: any) => b.key)).toEqual(['D-001'])
    db.readsIn.clear()
    expect((await check('git push --force')).blocked_by.map((b: any) => b.key)).toEqual(['D-001'])
    // Nothing changed: no decision read again (the guard asks this at every shell command).
    expect(db.readsIn.get('decisions') ?? 0).toBe(0)
    expect((await call('POST', '/v1/decisions', forbid('D-002', '^rm -rf /'))).status).toBe(201)
    expect((await check('rm -rf /')).blocked_by.map((b: any) => b.key)).toEqual(['D-002'])
    expect((await call('POST', '/v1/decisions/D-001/revoke', {})).status).toBe(200)
    expect((await check('git push --force')).allowed).toBe(true)
    expect((await call('GET', '/v1/decisions/applicable')).body.decisions.map((d: any) => d.key)).toEqual(['D-002'])
  })
})

describe('the proposals pending in a why, at a point with many decisions bound to it', () => {
  it("reads the store once for them, not once per decision bound, and, as of a moment, no history of a decision outside the chains", async () => {
    const db = new InstrumentedLevel()
    const { call, clock } = await createTestApp({ db })
    // Decisions of other chains, half of them superseding one: what an imported folder holds.
    const others = 40
    for (let i = 0; i < others; i++) await call('POST', '/v1/decisions', decision({ key: `X-${i}`, status: 'accepted', supersedes: i % 2 === 1 ? `X-${i - 1}` : undefined }))
    // Six versions of one decision, each bound to the point: its why asks for each one's chain.
    for (let i = 0; i < 6; i++) {
      clock.advance(60_000)
      await call('POST', '/v1/decisions', decision({ key: `P-${i}`, status: 'accepted', supersedes: i === 0 ? undefined : `P-${i - 1}`, scope: { points: ['complexity-tier'] } }))
    }
    await call('POST', '/v1/decisions', decision({ key: 'P-NEXT', supersedes: 'P-5' }))
    const stored = others + 7
    const read = async (query: string) => {
      db.readsIn.clear()
      const why = (await call('GET', `/v1/why?user=alice&point=complexity-tier${query}`)).body
      expect(why.decisions.map((d: any) => d.proposals.map((p: any) => p.key))).toEqual(Array(6).fill(['P-NEXT']))
      return { decisions: db.readsIn.get('decisions') ?? 0, events: db.readsIn.get('decision-events') ?? 0 }
    }
    const now = await read('')
    // Once for the store, besides the chains' links: a read per decision bound made it 7 times the store.
    expect(now.decisions).toBeLessThan(2 * stored)
    const audit = await read(`&as_of=${clock.now().toISOString()}`)
    expect(audit.decisions).toBeLessThan(2 * stored)
    // The histories of the chains and of the proposals on them (those of the chain read again, to
    // know what was bound then), not of each decision that supersedes another (40 histories more).
    expect(audit.events).toBeLessThan(3 * now.events)
  })
})

describe("a point's why of a decision superseded through many versions (R-CON-5)", () => {
  it('reads each version and its history once for the whys of all of them, each still with the whole chain', async () => {
    const db = new InstrumentedLevel()
    const { call, clock } = await createTestApp({ db })
    // Every version is bound to the point, and each one's why is the whole chain: read again for
    // each, a chain of n versions was n² reads (of 100 versions on disk, 1.5 s; read once, 34 ms).
    const versions = 12
    for (let i = 0; i < versions; i++) {
      clock.advance(60_000)
      await call('POST', '/v1/decisions', decision({ key: `P-${i}`, status: 'accepted', supersedes: i === 0 ? undefined : `P-${i - 1}`, scope: { points: ['complexity-tier'] } }))
    }
    let events = 0
    for (let i = 0; i < versions; i++) events += (await call('GET', `/v1/decisions/P-${i}`)).body.events.length
    const read = async (query: string) => {
      db.readsIn.clear()
      const why = (await call('GET', `/v1/why?user=alice&point=complexity-tier${query}`)).body
      // As the route documents it: every decision bound to the point, each with its whole chain.
      expect(why.decisions.map((d: any) => d.chain.map((link: any) => link.key))).toEqual(Array(versions).fill(Array.from({ length: versions }, (_, i) => `P-${i}`)))
      return { decisions: db.readsIn.get('decisions') ?? 0, events: db.readsIn.get('decision-events') ?? 0 }
    }
    const now = await read('')
    expect(now.decisions).toBeLessThanOrEqual(3 * versions)
    expect(now.events).toBeLessThanOrEqual(events)
    // As of a moment, the histories are read once more, to know which decisions were bound then.
    const audit = await read(`&as_of=${clock.now().toISOString()}`)
    expect(audit.decisions).toBeLessThanOrEqual(3 * versions)
    expect(audit.events).toBeLessThanOrEqual(2 * events)
  })
})

describe('a key not found that another differs from only in case or in the zeros of its number', () => {
  it('names that key, wherever a key is looked up, and a key found as written is unchanged', async () => {
    const { call } = await createTestApp()
    expect((await call('POST', '/v1/decisions', decision({ key: 'D-021', status: 'accepted' }))).status).toBe(201)
    const hint = 'did you mean D-021? (keys are compared as written)'
    for (const [method, path, body] of [
      ['GET', '/v1/decisions/d-021', undefined],
      ['GET', '/v1/decisions/d-021/why', undefined],
      ['POST', '/v1/decisions/D-21/deprecate', {}],
      ['POST', '/v1/decisions/d-021/supersede', { by: 'D-021' }],
    ] as const) {
      const answer = await call(method, path, body)
      expect(answer.status, path).toBe(404)
      expect(answer.body.error.message, path).toMatch(/^no decision (d-021|D-21): did you mean D-021\? \(keys are compared as written\)$/)
    }
    const replacing = await call('POST', '/v1/decisions', decision({ key: 'D-022', supersedes: 'd-021' }))
    expect(replacing.status).toBe(404)
    expect(replacing.body.error).toMatchObject({ message: `no decision d-021: ${hint}`, issues: [{ path: 'supersedes', message: 'no decision has the key d-021' }] })
    // None like it: as before.
    expect((await call('GET', '/v1/decisions/D-404')).body.error.message).toBe('no decision D-404')
  })
})

describe('a key not found: the keys like it that are named', () => {
  it('names every key it differs from only in case or zeros, not one of them', async () => {
    const { call } = await createTestApp()
    for (const key of ['D-021', 'd-021']) expect((await call('POST', '/v1/decisions', decision({ key, status: 'accepted' }))).status).toBe(201)
    const answer = await call('GET', '/v1/decisions/D-21')
    expect(answer.status).toBe(404)
    expect(answer.body.error.message).toBe('no decision D-21: did you mean D-021 or d-021? (keys are compared as written)')
  })

  it('with as_of, names only a key there was then: one made since is no key the audit could have meant', async () => {
    const { call, clock } = await createTestApp()
    expect((await call('POST', '/v1/decisions', decision({ key: 'D-021', status: 'accepted' }))).status).toBe(201)
    const then = clock.now().toISOString()
    clock.advance(DAY)
    expect((await call('POST', '/v1/decisions', decision({ key: 'ADR-0005', status: 'accepted' }))).status).toBe(201)
    // ADR-0005, followed as the hint says, is a 404 as of then.
    expect((await call('GET', `/v1/decisions/ADR-0005?as_of=${then}`)).status).toBe(404)
    for (const path of [`/v1/decisions/adr-5?as_of=${then}`, `/v1/decisions/adr-5/why?as_of=${then}`]) {
      const answer = await call('GET', path)
      expect(answer.status, path).toBe(404)
      expect(answer.body.error.message, path).toBe('no decision adr-5')
    }
    // One there then is named, as of then too.
    expect((await call('GET', `/v1/decisions/d-21/why?as_of=${then}`)).body.error.message).toBe('no decision d-21: did you mean D-021? (keys are compared as written)')
  })
})
