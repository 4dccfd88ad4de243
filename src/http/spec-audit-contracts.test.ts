import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Level } from 'level'
import { MemoryLevel } from 'memory-level'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { captured } from '../../test/support/captured'
import { closedPort } from '../../test/support/processes'
import { createTestApp, START } from '../../test/support/test-app'
import { guard } from '../cli/guard'
import { importAdrCommand } from '../cli/import-adr'

// Black-box checks of SPEC.md §7, decisions as contracts (R-CON-1, R-CON-1a, R-CON-2 to R-CON-6),
// through the documented wire format only (README "Decisions as contracts"), as acceptance tests
// built from the spec and the seeds would be.

const TIER = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }
const DAY = 86_400_000

type Call = Awaited<ReturnType<typeof createTestApp>>['call']

const decision = (extra: Record<string, unknown> = {}) => ({
  title: 'A decision',
  decision: 'We do this.',
  rationale: 'Because of that.',
  ...extra,
})

async function propose(call: Call, extra: Record<string, unknown> = {}) {
  const res = await call('POST', '/v1/decisions', decision(extra))
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}

let made = 0
async function choose(call: Call, choice: string, count: number, extra: Record<string, unknown> = {}) {
  const observations = Array.from({ length: count }, () => ({ ...TIER, user_choice: choice, decision_id: `con-audit-${made++}`, timestamp: START, ...extra }))
  const res = await call('POST', '/v1/observations', observations)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
}

describe('R-CON-1: a decision record holds every field the spec names', () => {
  it('keeps key, title, decision, rationale, enforce, status, date, source, supersedes, scope, constraints and evidence as sent, with an event history', async () => {
    const { call } = await createTestApp()
    const sent = {
      title: 'Billing uses Tier L',
      decision: 'Billing specs are Tier L.',
      rationale: 'Billing incidents cost money.',
      enforce: 'required',
      status: 'accepted',
      date: '2026-06-30',
      source: 'session-42',
      scope: { points: ['complexity-tier'], task: 'SPEC-7', path: 'services/billing', stage: 'plan' },
      constraints: [
        { kind: 'must', option: 'Tier L' },
        { kind: 'must_not', pattern: '^rm -rf /' },
        { kind: 'prefer', option: 'Tier L' },
        { kind: 'limit', value: 3, option: 'replicas' },
      ],
      evidence: [{ kind: 'incident', summary: 'INC-12 lost a day', uri: 'https://example.com/inc/12', content: 'postmortem text' }],
    }
    const created = await call('POST', '/v1/decisions', sent)
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const read = (await call('GET', `/v1/decisions/${created.body.key}`)).body
    expect(read).toMatchObject({
      key: 'D-001',
      title: sent.title,
      decision: sent.decision,
      rationale: sent.rationale,
      enforce: 'required',
      status: 'accepted',
      date: '2026-06-30',
      source: 'session-42',
      scope: sent.scope,
      constraints: sent.constraints,
      superseded_by: null,
    })
    expect(read.evidence).toHaveLength(1)
    expect(read.evidence[0]).toMatchObject({ kind: 'incident', summary: 'INC-12 lost a day', uri: 'https://example.com/inc/12' })
    // The content is kept as its hash (sha256 of "postmortem text").
    expect(read.evidence[0].hash).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(read.events.map((e: any) => e.type)).toEqual(['proposed', 'accepted'])
  })

  it('is advisory and proposed by default, dated today (UTC) when no date is given', async () => {
    const { call } = await createTestApp()
    const body = await propose(call)
    expect(body).toMatchObject({ key: 'D-001', enforce: 'advisory', status: 'proposed', date: START.slice(0, 10) })
  })

  it('names each missing required field in a 400', async () => {
    const { call } = await createTestApp()
    const res = await call('POST', '/v1/decisions', {})
    expect(res.status).toBe(400)
    const paths = res.body.error.issues.map((i: any) => i.path)
    expect(paths).toEqual(expect.arrayContaining(['title', 'decision', 'rationale']))
  })

  it('refuses an unknown enforce level and an unknown constraint kind, naming the field', async () => {
    const { call } = await createTestApp()
    const level = await call('POST', '/v1/decisions', decision({ enforce: 'mandatory' }))
    expect(level.status).toBe(400)
    expect(level.body.error.issues.map((i: any) => i.path)).toEqual(['enforce'])
    const kind = await call('POST', '/v1/decisions', decision({ scope: { points: ['complexity-tier'] }, constraints: [{ kind: 'forbid', option: 'Tier S' }] }))
    expect(kind.status).toBe(400)
    expect(kind.body.error.issues.map((i: any) => i.path)).toEqual(['constraints.0.kind'])
    const status = await call('POST', '/v1/decisions', decision({ status: 'approved' }))
    expect(status.status).toBe(400)
    expect(status.body.error.issues.map((i: any) => i.path)).toEqual(['status'])
  })

  it('keeps the event history append-only: each step adds one event and earlier ones stay as they were', async () => {
    const { call, clock } = await createTestApp()
    await propose(call)
    const first = (await call('GET', '/v1/decisions/D-001')).body.events
    clock.advance(DAY)
    await call('POST', '/v1/decisions/D-001/accept', {})
    const second = (await call('GET', '/v1/decisions/D-001')).body.events
    clock.advance(DAY)
    await call('POST', '/v1/decisions/D-001/deprecate', { reason: 'we moved on' })
    const third = (await call('GET', '/v1/decisions/D-001')).body.events
    expect(second.slice(0, first.length)).toEqual(first)
    expect(third.slice(0, second.length)).toEqual(second)
    expect(third.map((e: any) => [e.seq, e.type, e.from, e.to])).toEqual([
      [1, 'proposed', null, 'proposed'],
      [2, 'accepted', 'proposed', 'accepted'],
      [3, 'deprecated', 'accepted', 'deprecated'],
    ])
    expect(third[2].reason).toBe('we moved on')
  })
})

describe('R-CON-1: stable keys', () => {
  it('are made D-001, D-002, … and keep counting after a restart on the same store', async () => {
    const db = new MemoryLevel<string, string>()
    const first = await createTestApp({ db })
    expect((await propose(first.call)).key).toBe('D-001')
    expect((await propose(first.call)).key).toBe('D-002')
    // The same store opened again by a new service.
    const second = await createTestApp({ db })
    expect((await second.call('GET', '/v1/decisions/D-001')).body.title).toBe('A decision')
    expect((await propose(second.call)).key).toBe('D-003')
  })

  it('continue after the highest D- number in use, a given key included', async () => {
    const { call } = await createTestApp()
    await propose(call, { key: 'D-041' })
    expect((await propose(call)).key).toBe('D-042')
  })

  it.each([
    ['D-9007199254740991', 'D-9007199254740992', 'D-9007199254740993'],
    ['D-20240315120000123456', 'D-20240315120000123457', 'D-20240315120000123458'],
  ])('continue after %s, a D- number past 2^53 (a timestamp), one by one, never a key in use', async (given, next, after) => {
    const { call } = await createTestApp()
    await propose(call, { key: given })
    expect((await propose(call)).key).toBe(next)
    expect((await propose(call)).key).toBe(after)
  })

  it.each([
    [['D-0001'], 'D-0002'],
    [['D-001', 'D-0007'], 'D-0008'],
    [['D-00041', 'D-2'], 'D-00042'],
    [['D-1234'], 'D-1235'],
    [['D-7'], 'D-008'],
  ])('keep the widest zero-padded width in use, at least three digits: after %j, %s', async (given, next) => {
    const { call } = await createTestApp()
    for (const key of given) await propose(call, { key })
    expect((await propose(call)).key).toBe(next)
  })

  it('take the lowest free D- number when the next after the highest would be longer than a key may be', async () => {
    const { call } = await createTestApp()
    const longest = `D-${'9'.repeat(118)}`
    await propose(call, { key: longest })
    await propose(call, { key: 'D-001' })
    expect((await propose(call)).key).toBe('D-002')
    const listed = (await call('GET', '/v1/decisions')).body.decisions.map((d: any) => d.key)
    expect(listed).toHaveLength(3)
  })

  it('take the lowest free D- number at the width in use when the next after the highest would be too long', async () => {
    const { call } = await createTestApp()
    await propose(call, { key: `D-${'9'.repeat(118)}` })
    await propose(call, { key: 'D-0001' })
    await propose(call, { key: 'D-002' })
    // D-002 holds the number 2: the next is 3, never a second key for one number.
    expect((await propose(call)).key).toBe('D-0003')
  })

  it('a key in use is refused, and the decision stored under it is unchanged', async () => {
    const { call } = await createTestApp()
    await propose(call, { key: 'D-007', title: 'First' })
    const again = await call('POST', '/v1/decisions', decision({ key: 'D-007', title: 'Second' }))
    expect(again.status).toBeGreaterThanOrEqual(400)
    expect(again.status).toBeLessThan(500)
    expect(JSON.stringify(again.body.error)).toContain('key')
    expect((await call('GET', '/v1/decisions/D-007')).body.title).toBe('First')
  })

  it('a key never used is a 404 naming it', async () => {
    const { call } = await createTestApp()
    const res = await call('GET', '/v1/decisions/D-404')
    expect(res.status).toBe(404)
    expect(JSON.stringify(res.body)).toContain('D-404')
  })
})

describe('R-CON-1a: the lifecycle and its illegal steps', () => {
  it('a decision may be created accepted', async () => {
    const { call } = await createTestApp()
    expect((await propose(call, { status: 'accepted' })).status).toBe('accepted')
  })

  it.each([
    ['superseded'],
    ['deprecated'],
    ['revoked'],
  ])('a decision may not be created %s: 400 naming status', async (status) => {
    const { call } = await createTestApp()
    const res = await call('POST', '/v1/decisions', decision({ status }))
    expect(res.status).toBe(400)
    expect(res.body.error.issues.map((i: any) => i.path)).toEqual(['status'])
  })

  it.each([
    // [status reached by these steps, step that is not allowed then]
    [['accept'], 'accept'],
    [['accept', 'revoke'], 'accept'],
    [['accept', 'revoke'], 'deprecate'],
    [['accept', 'revoke'], 'revoke'],
    [['accept', 'deprecate'], 'accept'],
    [['accept', 'deprecate'], 'deprecate'],
    [['revoke'], 'accept'],
    [[], 'deprecate'],
  ])('after %j, %s is refused with a 4xx naming the state, and the decision is unchanged', async (steps, step) => {
    const { call } = await createTestApp()
    await propose(call)
    for (const s of steps) expect((await call('POST', `/v1/decisions/D-001/${s}`, {})).status).toBe(200)
    const before = (await call('GET', '/v1/decisions/D-001')).body
    const res = await call('POST', `/v1/decisions/D-001/${step}`, {})
    expect(res.status).toBe(409)
    expect(res.body.error.code).toBe('invalid_transition')
    expect(res.body.error.issues[0].message).toContain(before.status)
    expect((await call('GET', '/v1/decisions/D-001')).body).toEqual(before)
  })

  it('a step on a key never used is a 404', async () => {
    const { call } = await createTestApp()
    for (const step of ['accept', 'deprecate', 'revoke']) expect((await call('POST', `/v1/decisions/D-404/${step}`, {})).status).toBe(404)
  })

  it('a superseded decision cannot be accepted, deprecated or revoked', async () => {
    const { call } = await createTestApp()
    await propose(call, { status: 'accepted' })
    await propose(call, { supersedes: 'D-001', status: 'accepted' })
    expect((await call('GET', '/v1/decisions/D-001')).body.status).toBe('superseded')
    for (const step of ['accept', 'deprecate', 'revoke']) {
      const res = await call('POST', `/v1/decisions/D-001/${step}`, {})
      expect([step, res.status]).toEqual([step, 409])
    }
  })

  it('supersedes naming a key never used is a 4xx naming supersedes, and nothing is stored', async () => {
    const { call } = await createTestApp()
    const res = await call('POST', '/v1/decisions', decision({ supersedes: 'D-009' }))
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    expect(res.body.error.issues.map((i: any) => i.path)).toEqual(['supersedes'])
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual([])
  })
})

/** The decisions of a list answer, `{"decisions": [...]}`. */
const listed = (body: any): any[] => body.decisions

describe('R-CON-1a: listing with filters status and point', () => {
  it('filters by status and by point', async () => {
    const { call } = await createTestApp()
    await propose(call, { status: 'accepted', scope: { points: ['complexity-tier'] } })
    await propose(call, { scope: { points: ['complexity-tier'] } })
    await propose(call, { status: 'accepted', scope: { points: ['queue'] } })
    await propose(call, { status: 'accepted' })
    const all = listed((await call('GET', '/v1/decisions')).body)
    expect(all.map((d) => d.key)).toEqual(['D-001', 'D-002', 'D-003', 'D-004'])
    expect(listed((await call('GET', '/v1/decisions?status=accepted')).body).map((d) => d.key)).toEqual(['D-001', 'D-003', 'D-004'])
    expect(listed((await call('GET', '/v1/decisions?status=proposed')).body).map((d) => d.key)).toEqual(['D-002'])
    expect(listed((await call('GET', '/v1/decisions?point=complexity-tier')).body).map((d) => d.key)).toEqual(['D-001', 'D-002'])
    expect(listed((await call('GET', '/v1/decisions?point=complexity-tier&status=accepted')).body).map((d) => d.key)).toEqual(['D-001'])
  })

  it('an unknown status filter is a 400 naming status', async () => {
    const { call } = await createTestApp()
    const res = await call('GET', '/v1/decisions?status=approved')
    expect(res.status).toBe(400)
    expect(res.body.error.issues.map((i: any) => i.path)).toEqual(['status'])
  })
})

describe('R-CON-5: supersede chains several deep', () => {
  async function chainOf(call: Call, clock: { advance(ms: number): void }, length: number) {
    await propose(call, { title: 'v1', rationale: 'r1', status: 'accepted', evidence: [{ kind: 'doc', summary: 'e1' }] })
    for (let i = 2; i <= length; i++) {
      clock.advance(DAY)
      await propose(call, { title: `v${i}`, rationale: `r${i}`, supersedes: `D-00${i - 1}`, evidence: [{ kind: 'doc', summary: `e${i}` }] })
      expect((await call('POST', `/v1/decisions/D-00${i}/accept`, {})).status).toBe(200)
    }
  }

  it('why of any link gives the whole chain, oldest first, with each rationale and the one in force', async () => {
    const { call, clock } = await createTestApp()
    await chainOf(call, clock, 4)
    for (const key of ['D-001', 'D-002', 'D-003', 'D-004']) {
      const why = await call('GET', `/v1/decisions/${key}/why`)
      expect(why.status).toBe(200)
      expect(why.body.chain.map((l: any) => [l.key, l.status, l.rationale])).toEqual([
        ['D-001', 'superseded', 'r1'],
        ['D-002', 'superseded', 'r2'],
        ['D-003', 'superseded', 'r3'],
        ['D-004', 'accepted', 'r4'],
      ])
      expect([why.body.current, why.body.in_force]).toEqual(['D-004', 'D-004'])
      // The rationale and evidence are those of the decision asked about (README "Why"); each
      // link's rationale is in the chain.
      const n = key.slice(-1)
      expect(why.body.rationale).toBe(`r${n}`)
      expect(why.body.evidence.map((e: any) => e.summary)).toEqual([`e${n}`])
      expect(why.body.events.every((e: any) => e.key === key)).toBe(true)
    }
    // The links both ways.
    const d2 = (await call('GET', '/v1/decisions/D-002')).body
    expect([d2.supersedes, d2.superseded_by]).toEqual(['D-001', 'D-003'])
  })

  it('only the newest of a chain applies and joins a recommendation', async () => {
    const { call, clock } = await createTestApp()
    await propose(call, { status: 'accepted', enforce: 'required', scope: { points: ['complexity-tier'] }, constraints: [{ kind: 'must', option: 'Tier S' }] })
    clock.advance(DAY)
    await propose(call, { status: 'accepted', enforce: 'required', supersedes: 'D-001', scope: { points: ['complexity-tier'] }, constraints: [{ kind: 'must', option: 'Tier M' }] })
    clock.advance(DAY)
    await propose(call, { status: 'accepted', enforce: 'required', supersedes: 'D-002', scope: { points: ['complexity-tier'] }, constraints: [{ kind: 'must', option: 'Tier L' }] })
    const applicable = listed((await call('GET', '/v1/decisions/applicable?point=complexity-tier')).body)
    expect(applicable.map((d) => d.key)).toEqual(['D-003'])
    const rec = (await call('POST', '/v1/recommendations', TIER)).body
    expect(rec).toMatchObject({ state: 'enforced', recommended: 'Tier L' })
    expect(rec.conflicts ?? []).toEqual([])
  })

  it('a proposal naming a decision already superseded is refused when accepted, the chain untouched', async () => {
    const { call } = await createTestApp()
    await propose(call, { status: 'accepted' })
    await propose(call, { supersedes: 'D-001' })
    await propose(call, { supersedes: 'D-001' })
    expect((await call('POST', '/v1/decisions/D-002/accept', {})).status).toBe(200)
    const late = await call('POST', '/v1/decisions/D-003/accept', {})
    expect(late.status).toBe(409)
    expect(late.body.error.issues.map((i: any) => i.path)).toEqual(['supersedes'])
    expect((await call('GET', '/v1/decisions/D-001')).body).toMatchObject({ status: 'superseded', superseded_by: 'D-002' })
    expect((await call('GET', '/v1/decisions/D-003')).body.status).toBe('proposed')
  })
})

describe('R-CON-2: required and advisory decisions in recommendations', () => {
  it('an accepted required must is enforced however often observed choices went elsewhere, and stays so past M', async () => {
    const { call } = await createTestApp()
    await choose(call, 'Tier S', 40)
    await propose(call, { status: 'accepted', enforce: 'required', rationale: 'Billing is risky.', scope: { points: ['complexity-tier'] }, constraints: [{ kind: 'must', option: 'Tier L' }] })
    const rec = (await call('POST', '/v1/recommendations', TIER)).body
    expect(rec).toMatchObject({ state: 'enforced', recommended: 'Tier L' })
    expect(rec.options[0]).toMatchObject({ option: 'Tier L', label: 'Tier L (Recommended)' })
    expect(rec.confidence.value).toBe(1)
    expect(rec.precondition).toContain('D-001')
  })

  it('a proposed required must fixes nothing', async () => {
    const { call } = await createTestApp()
    await propose(call, { enforce: 'required', scope: { points: ['complexity-tier'] }, constraints: [{ kind: 'must', option: 'Tier L' }] })
    const rec = (await call('POST', '/v1/recommendations', TIER)).body
    expect(rec.state).toBe('static-default')
    expect(rec.recommended).toBe('Tier M')
  })

  it.each(['deprecate', 'revoke'])('a required must no longer fixes the answer once %sd', async (step) => {
    const { call } = await createTestApp()
    await propose(call, { status: 'accepted', enforce: 'required', scope: { points: ['complexity-tier'] }, constraints: [{ kind: 'must', option: 'Tier L' }] })
    expect((await call('POST', '/v1/recommendations', TIER)).body.state).toBe('enforced')
    await call('POST', `/v1/decisions/D-001/${step}`, {})
    const rec = (await call('POST', '/v1/recommendations', TIER)).body
    expect([rec.state, rec.recommended]).toEqual(['static-default', 'Tier M'])
  })

  it('an advisory must is the static default with its rationale as the precondition, and observed choices outweigh it', async () => {
    const { call } = await createTestApp()
    await propose(call, { status: 'accepted', enforce: 'advisory', rationale: 'Small specs suffice here.', scope: { points: ['complexity-tier'] }, constraints: [{ kind: 'must', option: 'Tier S' }] })
    const before = (await call('POST', '/v1/recommendations', TIER)).body
    expect(before).toMatchObject({ state: 'static-default', recommended: 'Tier S' })
    expect(before.precondition).toContain('Small specs suffice here.')
    expect(before.options[0].label).toBe('Tier S (Recommended)')
    await choose(call, 'Tier L', 25)
    const after = (await call('POST', '/v1/recommendations', TIER)).body
    expect(after.recommended).toBe('Tier L')
    expect(after.state).not.toBe('enforced')
  })

  it('an advisory prefer is the static default too', async () => {
    const { call } = await createTestApp()
    await propose(call, { status: 'accepted', rationale: 'Prefer big.', scope: { points: ['complexity-tier'] }, constraints: [{ kind: 'prefer', option: 'Tier L' }] })
    const rec = (await call('POST', '/v1/recommendations', TIER)).body
    expect(rec).toMatchObject({ state: 'static-default', recommended: 'Tier L' })
    expect(rec.precondition).toContain('Prefer big.')
  })

  it('the plan and the recommendation agree on the enforced answer', async () => {
    const { call } = await createTestApp()
    await propose(call, { status: 'accepted', enforce: 'required', scope: { points: ['complexity-tier'] }, constraints: [{ kind: 'must', option: 'Tier L' }] })
    const plan = (
      await call('POST', '/v1/plan', {
        user: 'default',
        questions: [{ question: TIER.question, header: TIER.header, multiSelect: false, options: TIER.all_options.map((label) => ({ label, description: `${label} work` })) }],
      })
    ).body
    const text = JSON.stringify(plan.ask_user_question_input ?? plan)
    expect(text).toContain('Tier L (Recommended)')
    expect(text).not.toContain('Tier M (Recommended)')
  })
})

describe('R-CON-3: POST /v1/decisions/check', () => {
  async function withRules(call: Call) {
    await propose(call, { status: 'accepted', enforce: 'required', title: 'No force push', constraints: [{ kind: 'must_not', pattern: 'git push --force' }] })
    await propose(call, { status: 'accepted', enforce: 'advisory', title: 'No npm publish', constraints: [{ kind: 'must_not', pattern: 'npm publish' }] })
    await propose(call, { status: 'accepted', enforce: 'required', scope: { points: ['complexity-tier'] }, constraints: [{ kind: 'must_not', option: 'Tier S' }] })
  }

  it('an action matching a required must_not is blocked, naming the decision', async () => {
    const { call } = await createTestApp()
    await withRules(call)
    const res = await call('POST', '/v1/decisions/check', { action: 'git push --force origin main' })
    expect(res.status).toBe(200)
    expect(res.body.allowed).toBe(false)
    expect(res.body.blocked_by.map((b: any) => b.key)).toEqual(['D-001'])
  })

  it('an action matching only an advisory must_not is allowed with a warning', async () => {
    const { call } = await createTestApp()
    await withRules(call)
    const res = await call('POST', '/v1/decisions/check', { action: 'npm publish' })
    expect(res.body.allowed).toBe(true)
    expect(res.body.blocked_by).toEqual([])
    expect(JSON.stringify(res.body.warnings)).toContain('D-002')
  })

  it('an action matching nothing is allowed', async () => {
    const { call } = await createTestApp()
    await withRules(call)
    const res = await call('POST', '/v1/decisions/check', { action: 'git push origin main' })
    expect(res.body).toMatchObject({ allowed: true, blocked_by: [] })
  })

  it('a choice a required must_not forbids at its point is blocked; another is allowed', async () => {
    const { call } = await createTestApp()
    await withRules(call)
    const blocked = await call('POST', '/v1/decisions/check', { choice: 'Tier S', point: 'complexity-tier' })
    expect(blocked.body.allowed).toBe(false)
    expect(blocked.body.blocked_by.map((b: any) => b.key)).toEqual(['D-003'])
    const allowed = await call('POST', '/v1/decisions/check', { choice: 'Tier M', point: 'complexity-tier' })
    expect(allowed.body.allowed).toBe(true)
  })

  it('a choice against a required must at its point is blocked; the must option is allowed', async () => {
    const { call } = await createTestApp()
    await propose(call, { status: 'accepted', enforce: 'required', scope: { points: ['complexity-tier'] }, constraints: [{ kind: 'must', option: 'Tier L' }] })
    expect((await call('POST', '/v1/decisions/check', { choice: 'Tier M', point: 'complexity-tier' })).body.allowed).toBe(false)
    expect((await call('POST', '/v1/decisions/check', { choice: 'Tier L', point: 'complexity-tier' })).body.allowed).toBe(true)
  })

  it('a number over a required limit is blocked, one at the limit allowed', async () => {
    const { call } = await createTestApp()
    await propose(call, { status: 'accepted', enforce: 'required', scope: { points: ['replicas'] }, constraints: [{ kind: 'limit', value: 3 }] })
    expect((await call('POST', '/v1/decisions/check', { choice: '5', point: 'replicas' })).body.allowed).toBe(false)
    expect((await call('POST', '/v1/decisions/check', { choice: '3', point: 'replicas' })).body.allowed).toBe(true)
  })

  it('a proposed, deprecated or revoked required decision blocks nothing', async () => {
    const { call } = await createTestApp()
    await propose(call, { enforce: 'required', constraints: [{ kind: 'must_not', pattern: 'rm -rf' }] })
    expect((await call('POST', '/v1/decisions/check', { action: 'rm -rf build' })).body.allowed).toBe(true)
    await call('POST', '/v1/decisions/D-001/accept', {})
    expect((await call('POST', '/v1/decisions/check', { action: 'rm -rf build' })).body.allowed).toBe(false)
    await call('POST', '/v1/decisions/D-001/deprecate', {})
    expect((await call('POST', '/v1/decisions/check', { action: 'rm -rf build' })).body.allowed).toBe(true)
  })

  it('names every decision that blocks, and a task- or stage-scoped one only in its task and stage', async () => {
    const { call } = await createTestApp()
    await propose(call, { key: 'K1', status: 'accepted', enforce: 'required', scope: { task: 'SPEC-9' }, constraints: [{ kind: 'must_not', pattern: 'rm -rf' }] })
    await propose(call, { key: 'K2', status: 'accepted', enforce: 'required', scope: { stage: 'run' }, constraints: [{ kind: 'must_not', pattern: 'rm -rf /' }] })
    await propose(call, { key: 'K3', status: 'accepted', enforce: 'required', constraints: [{ kind: 'must_not', pattern: '^rm ' }] })
    const blockers = async (body: Record<string, unknown>) => (await call('POST', '/v1/decisions/check', body)).body.blocked_by.map((b: any) => b.key).sort()
    expect(await blockers({ action: 'rm -rf /' })).toEqual(['K3'])
    expect(await blockers({ action: 'rm -rf /', task: 'SPEC-9' })).toEqual(['K1', 'K3'])
    expect(await blockers({ action: 'rm -rf /', task: 'SPEC-9', stage: 'run' })).toEqual(['K1', 'K2', 'K3'])
    expect(await blockers({ action: 'rm -rf /', task: 'SPEC-8', stage: 'plan' })).toEqual(['K3'])
  })

  it('neither action nor choice is a 400 naming them; both at once are judged or refused, never a 5xx', async () => {
    const { call } = await createTestApp()
    const none = await call('POST', '/v1/decisions/check', { point: 'complexity-tier' })
    expect(none.status).toBe(400)
    expect(JSON.stringify(none.body.error.issues)).toMatch(/action|choice/)
    const both = await call('POST', '/v1/decisions/check', { action: 'ls', choice: 'Tier S', point: 'complexity-tier' })
    expect(both.status).toBeLessThan(500)
  })
})

describe('R-CON-4: applicability', () => {
  async function scoped(call: Call) {
    await propose(call, { key: 'G', status: 'accepted' })
    await propose(call, { key: 'T', status: 'accepted', scope: { task: 'SPEC-1' } })
    await propose(call, { key: 'P', status: 'accepted', scope: { path: 'src/billing' } })
    await propose(call, { key: 'S', status: 'accepted', scope: { stage: 'plan' } })
    await propose(call, { key: 'X', scope: {} })
  }
  const keys = async (call: Call, query: string) => listed((await call('GET', `/v1/decisions/applicable${query}`)).body).map((d) => d.key).sort()

  it('global decisions apply everywhere; scoped ones to their task, path and below, stage; proposals nowhere', async () => {
    const { call } = await createTestApp()
    await scoped(call)
    expect(await keys(call, '')).toEqual(['G'])
    expect(await keys(call, '?task=SPEC-1')).toEqual(['G', 'T'])
    expect(await keys(call, '?task=SPEC-2')).toEqual(['G'])
    expect(await keys(call, '?path=src/billing')).toEqual(['G', 'P'])
    expect(await keys(call, '?path=src/billing/invoices/pdf.ts')).toEqual(['G', 'P'])
    expect(await keys(call, '?path=src/billing-v2/x.ts')).toEqual(['G'])
    expect(await keys(call, '?path=src')).toEqual(['G'])
    expect(await keys(call, '?stage=plan')).toEqual(['G', 'S'])
    expect(await keys(call, '?stage=run')).toEqual(['G'])
    expect(await keys(call, '?task=SPEC-1&path=src/billing/a.ts&stage=plan')).toEqual(['G', 'P', 'S', 'T'])
  })

  it('a path with a trailing slash or ./ is the same folder', async () => {
    const { call } = await createTestApp()
    await scoped(call)
    expect(await keys(call, '?path=src/billing/')).toEqual(['G', 'P'])
  })

  it('a decision scoped to several of task, path and stage applies only where all hold', async () => {
    const { call } = await createTestApp()
    await propose(call, { key: 'TP', status: 'accepted', scope: { task: 'SPEC-1', path: 'src/billing' } })
    expect(await keys(call, '?task=SPEC-1')).toEqual([])
    expect(await keys(call, '?path=src/billing')).toEqual([])
    expect(await keys(call, '?task=SPEC-1&path=src/billing/x')).toEqual(['TP'])
  })

  it('point excludes decisions bound to other points, keeping those bound to none', async () => {
    const { call } = await createTestApp()
    await propose(call, { key: 'A', status: 'accepted', scope: { points: ['complexity-tier'] } })
    await propose(call, { key: 'B', status: 'accepted', scope: { points: ['queue'] } })
    await propose(call, { key: 'C', status: 'accepted' })
    expect(await keys(call, '?point=complexity-tier')).toEqual(['A', 'C'])
  })

  it('each applicability query counts a recall pulse per decision returned, and never-reached ones show', async () => {
    const { call } = await createTestApp()
    await scoped(call)
    await call('GET', '/v1/decisions/applicable?task=SPEC-1')
    await call('GET', '/v1/decisions/applicable?task=SPEC-1')
    const pulses = (await call('GET', '/v1/decisions/pulses')).body
    const text = JSON.stringify(pulses)
    expect(pulses.never_reached.map((d: any) => d.key ?? d).sort()).toEqual(['P', 'S'])
    expect(text).toContain('"G"')
  })

  it('a scoped decision applies in a check only within its scope, a path-scoped one not without a path', async () => {
    const { call } = await createTestApp()
    await propose(call, { status: 'accepted', enforce: 'required', scope: { path: 'services/payments' }, constraints: [{ kind: 'must_not', pattern: 'rm -rf' }] })
    expect((await call('POST', '/v1/decisions/check', { action: 'rm -rf build' })).body.allowed).toBe(true)
    expect((await call('POST', '/v1/decisions/check', { action: 'rm -rf build', path: 'services' })).body.allowed).toBe(true)
    expect((await call('POST', '/v1/decisions/check', { action: 'rm -rf build', path: 'services/payments/api' })).body.allowed).toBe(false)
  })

  it('a scoped required must binds recommendations only within its scope (context task, path, stage)', async () => {
    const { call } = await createTestApp()
    await propose(call, { status: 'accepted', enforce: 'required', scope: { points: ['complexity-tier'], path: 'services/billing', stage: 'plan' }, constraints: [{ kind: 'must', option: 'Tier L' }] })
    expect((await call('POST', '/v1/recommendations', TIER)).body.state).not.toBe('enforced')
    expect((await call('POST', '/v1/recommendations', { ...TIER, context: { path: 'services/billing/a.ts' } })).body.state).not.toBe('enforced')
    const inside = (await call('POST', '/v1/recommendations', { ...TIER, context: { path: 'services/billing/a.ts', stage: 'plan' } })).body
    expect([inside.state, inside.recommended]).toEqual(['enforced', 'Tier L'])
  })
})

describe('R-CON-5: why of a point', () => {
  it('gives the recommendation, each bound decision with its chain, rationale and evidence, and observations that exist', async () => {
    const { call, clock } = await createTestApp()
    await choose(call, 'Tier S', 6)
    await propose(call, { status: 'accepted', enforce: 'advisory', rationale: 'old reason', scope: { points: ['complexity-tier'] }, constraints: [{ kind: 'prefer', option: 'Tier M' }], evidence: [{ kind: 'doc', summary: 'the old memo' }] })
    clock.advance(DAY)
    await propose(call, { status: 'accepted', enforce: 'required', rationale: 'new reason', supersedes: 'D-001', scope: { points: ['complexity-tier'] }, constraints: [{ kind: 'must', option: 'Tier L' }], evidence: [{ kind: 'doc', summary: 'the new memo' }] })
    const why = await call('GET', '/v1/why?user=default&point=complexity-tier')
    expect(why.status, JSON.stringify(why.body)).toBe(200)
    expect(why.body.recommendation).toMatchObject({ state: 'enforced', recommended: 'Tier L' })
    const text = JSON.stringify(why.body)
    for (const s of ['old reason', 'new reason', 'the old memo', 'the new memo', 'D-001', 'D-002']) expect(text).toContain(s)
    // Every decision key cited exists.
    for (const key of new Set(text.match(/D-\d{3}/g))) expect((await call('GET', `/v1/decisions/${key}`)).status).toBe(200)
  })

  it('a point with neither observations nor decisions is a 404', async () => {
    const { call } = await createTestApp()
    expect((await call('GET', '/v1/why?user=default&point=nothing-here')).status).toBe(404)
  })

  it('without point is a 400 naming point', async () => {
    const { call } = await createTestApp()
    const res = await call('GET', '/v1/why?user=default')
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body.error.issues)).toContain('point')
  })
})

describe("issue 6's acceptance: enforced after 30 observed choices, the learned answer back after revoke", () => {
  it('a required must Tier L is enforced over 30 observed Tier S, and once revoked Tier S is recommended again', async () => {
    const { call, clock } = await createTestApp()
    await choose(call, 'Tier S', 30)
    const learned = (await call('POST', '/v1/recommendations', TIER)).body
    expect([learned.state, learned.recommended]).toEqual(['sufficient', 'Tier S'])
    await propose(call, { status: 'accepted', enforce: 'required', scope: { points: ['complexity-tier'] }, constraints: [{ kind: 'must', option: 'Tier L' }] })
    const enforced = (await call('POST', '/v1/recommendations', TIER)).body
    expect(enforced).toMatchObject({ state: 'enforced', recommended: 'Tier L', p: 1 })
    expect(enforced.learned).toMatchObject({ recommended: 'Tier S' })
    expect(enforced.decisions).toEqual([expect.objectContaining({ key: 'D-001', effect: 'enforced' })])
    clock.advance(DAY)
    expect((await call('POST', '/v1/decisions/D-001/revoke', { reason: 'billing is calm now' })).status).toBe(200)
    const back = (await call('POST', '/v1/recommendations', TIER)).body
    expect([back.state, back.recommended]).toEqual(['sufficient', 'Tier S'])
  })
})

describe('R-CON-1a: POST /v1/decisions/{key}/supersede', () => {
  it('accepts a proposal over an accepted decision at once, linking both, and a second /accept is a 409', async () => {
    const { call } = await createTestApp()
    await propose(call, { status: 'accepted' })
    await propose(call, { supersedes: 'D-001' })
    const res = await call('POST', '/v1/decisions/D-001/supersede', { by: 'D-002' })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect((await call('GET', '/v1/decisions/D-001')).body).toMatchObject({ status: 'superseded', superseded_by: 'D-002' })
    expect((await call('GET', '/v1/decisions/D-002')).body).toMatchObject({ status: 'accepted', supersedes: 'D-001' })
    expect((await call('POST', '/v1/decisions/D-002/accept', {})).status).toBe(409)
  })

  it('by a decision that replaces another is a 409 naming by, and nothing changes', async () => {
    const { call } = await createTestApp()
    await propose(call, { key: 'A', status: 'accepted' })
    await propose(call, { key: 'C', status: 'accepted' })
    await propose(call, { key: 'B', supersedes: 'C' })
    const res = await call('POST', '/v1/decisions/A/supersede', { by: 'B' })
    expect(res.status).toBe(409)
    expect(res.body.error.issues.map((i: any) => i.path)).toEqual(['by'])
    expect((await call('GET', '/v1/decisions/A')).body.status).toBe('accepted')
    expect((await call('GET', '/v1/decisions/B')).body.status).toBe('proposed')
  })
})

describe('R-CON-1a: decisions proposed at once get distinct keys; one decision is superseded once', () => {
  it('six proposals at once are D-001 … D-006', async () => {
    const { call } = await createTestApp()
    const answers = await Promise.all(Array.from({ length: 6 }, () => call('POST', '/v1/decisions', decision())))
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201, 201])
    expect(answers.map((a) => a.body.key).sort()).toEqual(['D-001', 'D-002', 'D-003', 'D-004', 'D-005', 'D-006'])
  })

  it('of two proposals to replace one decision accepted at once, one wins and the other is a 409', async () => {
    const { call } = await createTestApp()
    await propose(call, { status: 'accepted' })
    await propose(call, { key: 'P1', supersedes: 'D-001' })
    await propose(call, { key: 'P2', supersedes: 'D-001' })
    const answers = await Promise.all(['P1', 'P2'].map((k) => call('POST', `/v1/decisions/${k}/accept`, {})))
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
    const old = (await call('GET', '/v1/decisions/D-001')).body
    expect(old.status).toBe('superseded')
    const winner = answers[0]?.status === 200 ? 'P1' : 'P2'
    expect(old.superseded_by).toBe(winner)
  })
})

describe('R-CON-4: recall pulses survive a restart', () => {
  it('the counts of an applicability query are read back by a new service on the same store', async () => {
    const db = new MemoryLevel<string, string>()
    const first = await createTestApp({ db })
    await propose(first.call, { key: 'G', status: 'accepted' })
    await propose(first.call, { key: 'T', status: 'accepted', scope: { task: 'SPEC-1' } })
    await first.call('GET', '/v1/decisions/applicable')
    await first.call('GET', '/v1/decisions/applicable')
    const second = await createTestApp({ db })
    const pulses = (await second.call('GET', '/v1/decisions/pulses')).body
    expect(pulses.decisions.find((d: any) => d.key === 'G')).toMatchObject({ count: 2, by: { applicable: 2 } })
    expect(pulses.never_reached.map((d: any) => d.key ?? d)).toEqual(['T'])
  })
})

describe('R-CON-3: decision-memory guard on the captured Claude Code Bash payload', () => {
  const payload = readFileSync(new URL('../../test/fixtures/claude-code/pre-tool-use-bash.json', import.meta.url), 'utf8')
  async function over(rules: Array<Record<string, unknown>>) {
    const app = await createTestApp()
    for (const rule of rules) await propose(app.call, rule)
    const fetch = (async (input: string, init?: RequestInit) => app.app.request(input, init)) as unknown as typeof globalThis.fetch
    return (failClosed = false) => guard({ payload, url: 'http://decision-memory.test', failClosed, timeoutMs: 10_000, fetch })
  }
  const forcePush = { status: 'accepted', title: 'Never force push', rationale: 'It lost us work.', constraints: [{ kind: 'must_not', pattern: 'git push --force' }] }

  it('denies the command an accepted required must_not matches, naming the decision and its rationale', async () => {
    const out = await (await over([{ ...forcePush, enforce: 'required' }]))()
    const answer = JSON.parse(out.stdout)
    expect(answer.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny' })
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain('D-001')
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain('It lost us work.')
  })

  it('lets it through, with no permission decision, under an advisory one, a proposal, or no decision', async () => {
    const advisory = JSON.parse((await (await over([{ ...forcePush, enforce: 'advisory' }]))()).stdout)
    expect(advisory.hookSpecificOutput.permissionDecision).toBeUndefined()
    expect(advisory.systemMessage).toContain('D-001')
    expect((await (await over([{ ...forcePush, enforce: 'required', status: 'proposed' }]))()).stdout).toBe('')
    expect((await (await over([]))()).stdout).toBe('')
  })

  it('lets the command through when the service is down, saying so, and denies it with --fail-closed', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`
    const open = await guard({ payload, url, failClosed: false, timeoutMs: 2000 })
    expect(open.stdout).toBe('')
    expect(open.stderr).toMatch(/not reachable.*letting the command through/)
    const closed = await guard({ payload, url, failClosed: true, timeoutMs: 2000 })
    expect(JSON.parse(closed.stdout).hookSpecificOutput.permissionDecision).toBe('deny')
  })
})

describe('R-CON-2 and R-ASK-4: the PreToolUse hook answers what a required decision fixes, within its scope', () => {
  const payload = JSON.parse(readFileSync(new URL('../../test/fixtures/claude-code/pre-tool-use.json', import.meta.url), 'utf8'))

  it('answers the learned option outside the scope of a path-scoped required must, and its option inside', async () => {
    const { call } = await createTestApp()
    await choose(call, 'Tier S', 25, { project: payload.cwd })
    await propose(call, { status: 'accepted', enforce: 'required', scope: { points: ['complexity-tier'], path: 'services/billing' }, constraints: [{ kind: 'must', option: 'Tier L' }] })
    const outside = (await call('POST', '/v1/hooks/claude-code', payload)).body.hookSpecificOutput
    expect(outside.updatedInput.answers).toEqual({ [TIER.question]: 'Tier S (Recommended)' })
    const inside = (await call('POST', '/v1/hooks/claude-code?path=services/billing/api', { ...payload, tool_use_id: 'toolu_audit_inside' })).body.hookSpecificOutput
    expect(inside.permissionDecision).toBe('allow')
    expect(inside.updatedInput.answers).toEqual({ [TIER.question]: 'Tier L (Recommended)' })
    expect(inside.updatedInput.questions[0].options[0].label).toBe('Tier L (Recommended)')
  })
})

const FIXTURES = fileURLToPath(new URL('../../test/fixtures/adr/', import.meta.url))
const folders: string[] = []
afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})
function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'dm-audit-adr-'))
  folders.push(folder)
  return folder
}
/** A copy of a fixture folder outside this repository, or a folder of the files given. */
function recordsIn(fixture: string | Record<string, string>): string {
  const dir = join(tempFolder(), 'adr')
  if (typeof fixture === 'string') cpSync(join(FIXTURES, fixture), dir, { recursive: true })
  else {
    cpSync(tempFolder(), dir, { recursive: true })
    for (const [name, text] of Object.entries(fixture)) writeFileSync(join(dir, name), text)
  }
  return dir
}
const importAdr = (argv: string[]) => captured(() => importAdrCommand(argv))
/** The service over the store import-adr wrote, read and closed. */
async function readStore<T>(store: string, read: (call: Call) => Promise<T>): Promise<T> {
  const db = new Level<string, string>(store)
  try {
    const { call } = await createTestApp({ db: db as never })
    return await read(call)
  } finally {
    await db.close()
  }
}

describe('R-CON-6: import-adr of each format, twice', () => {
  it.each([
    // Each fixture holds one record (or date) that cannot be read, on purpose.
    ['adr-tools', 7],
    ['madr', 6],
    ['log4brains', 6],
    ['decisions-md', 7],
  ])('%s: the second import of the folder changes nothing', async (format, records) => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const dir = recordsIn(format)
    const store = join(tempFolder(), 'store')
    const first = await importAdr([dir, '--data', store, '--json'])
    expect(first.code, first.stderr).toBe(0)
    const report = JSON.parse(first.stdout).import
    expect(report.created).toHaveLength(records)
    const before = await readStore(store, async (call) => (await call('GET', '/v1/decisions')).body.decisions)
    const again = await importAdr([dir, '--data', store, '--json'])
    const second = JSON.parse(again.stdout).import
    expect([second.created, second.updated]).toEqual([[], []])
    expect(second.unchanged).toHaveLength(report.created.length)
    const after = await readStore(store, async (call) => (await call('GET', '/v1/decisions')).body.decisions)
    expect(after).toEqual(before)
  })

  it('adr-tools: statuses and "Superseded by" links are mapped, and why reads the chain from either end', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const adr = (n: number, title: string, status: string) =>
      `# ${n}. ${title}\n\nDate: 2024-01-0${n}\n\n## Status\n\n${status}\n\n## Context\n\nWhy ${n}.\n\n## Decision\n\nWe do ${n}.\n`
    const dir = recordsIn({
      '0001-record-architecture-decisions.md': adr(1, 'Record architecture decisions', 'Accepted'),
      '0002-use-sqlite.md': adr(2, 'Use SQLite', 'Accepted\n\nSuperseded by [3. Use PostgreSQL](0003-use-postgresql.md)'),
      '0003-use-postgresql.md': adr(3, 'Use PostgreSQL', 'Accepted\n\nSupersedes [2. Use SQLite](0002-use-sqlite.md)'),
      '0004-try-graphql.md': adr(4, 'Try GraphQL', 'Proposed'),
      '0005-use-soap.md': adr(5, 'Use SOAP', 'Rejected'),
      '0006-use-xml.md': adr(6, 'Use XML', 'Deprecated'),
    })
    const store = join(tempFolder(), 'store')
    expect((await importAdr([dir, '--data', store])).code).toBe(0)
    await readStore(store, async (call) => {
      const all = (await call('GET', '/v1/decisions')).body.decisions
      expect(all.map((d: any) => [d.key, d.status, d.supersedes, d.superseded_by, d.date])).toEqual([
        ['ADR-0001', 'accepted', null, null, '2024-01-01'],
        ['ADR-0002', 'superseded', null, 'ADR-0003', '2024-01-02'],
        ['ADR-0003', 'accepted', 'ADR-0002', null, '2024-01-03'],
        ['ADR-0004', 'proposed', null, null, '2024-01-04'],
        ['ADR-0005', 'revoked', null, null, '2024-01-05'],
        ['ADR-0006', 'deprecated', null, null, '2024-01-06'],
      ])
      expect(all[2]).toMatchObject({ title: 'Use PostgreSQL', decision: 'We do 3.', rationale: 'Why 3.', enforce: 'advisory' })
      for (const key of ['ADR-0002', 'ADR-0003']) {
        const why = (await call('GET', `/v1/decisions/${key}/why`)).body
        expect(why.chain.map((l: any) => l.key)).toEqual(['ADR-0002', 'ADR-0003'])
        expect(why.in_force).toBe('ADR-0003')
      }
      // Imported decisions are global: the accepted ones apply to any run.
      const applicable = (await call('GET', '/v1/decisions/applicable?path=src/x.ts')).body.decisions
      expect(applicable.map((d: any) => d.key)).toEqual(['ADR-0001', 'ADR-0003'])
    })
  })

  it('reads odd files: CRLF endings, a byte order mark, lower-case headers, a status with a date, MADR front matter quoted, with a comment or list', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const dir = recordsIn({
      '0001-crlf.md': '# 1. CRLF\r\n\r\nDate: 2024-01-01\r\n\r\n## Status\r\n\r\nAccepted\r\n\r\n## Decision\r\n\r\nWe use CRLF.\r\n',
      '0002-bom.md': '\uFEFF# 2. BOM\n\nDate: 2024-01-02\n\n## Status\n\nProposed\n\n## Decision\n\nWe use a BOM.\n',
      '0003-lower.md': '# 3. Lower\n\nDate: 2024-01-03\n\n## status\n\naccepted.\n\n## decision\n\nLower case.\n',
      '0004-dated.md': '# 4. Dated\n\nDate: 2024-01-04\n\n## Status\n\nAccepted on 2024-01-05\n\n## Decision\n\nDated status.\n',
      '0005-madr.md': '---\nstatus: "accepted"\ndate: 2024-01-06\ntags:\n  - infra\n---\n\n# Use MADR\n\n## Decision Outcome\n\nChosen option: "MADR", because it is lean.\n',
      '0006-madr.md': '---\r\nstatus: deprecated # replaced in practice\r\ndate: "2024-01-07"\r\nenforce: required\r\n---\r\n\r\n# Old MADR\r\n\r\n## Decision Outcome\r\n\r\nChosen option: "Old", because of history.\r\n',
    })
    const store = join(tempFolder(), 'store')
    const out = await importAdr([dir, '--data', store])
    expect(out.code).toBe(0)
    expect(out.stdout).toContain('imported: 6 new, 0 updated, 0 unchanged')
    await readStore(store, async (call) => {
      const all = (await call('GET', '/v1/decisions')).body.decisions
      expect(all.map((d: any) => [d.key, d.status, d.date, d.enforce, d.title])).toEqual([
        ['ADR-0001', 'accepted', '2024-01-01', 'advisory', 'CRLF'],
        ['ADR-0002', 'proposed', '2024-01-02', 'advisory', 'BOM'],
        ['ADR-0003', 'accepted', '2024-01-03', 'advisory', 'Lower'],
        ['ADR-0004', 'accepted', '2024-01-04', 'advisory', 'Dated'],
        ['ADR-0005', 'accepted', '2024-01-06', 'advisory', 'Use MADR'],
        ['ADR-0006', 'deprecated', '2024-01-07', 'required', 'Old MADR'],
      ])
      expect(all[0].decision).toBe('We use CRLF.')
      expect(all[1].title).toBe('BOM')
    })
    expect((await importAdr([dir, '--data', store])).stdout).toContain('imported: 0 new, 0 updated, 6 unchanged')
  })

  it('reports a file in another encoding at its path and imports the rest', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const dir = recordsIn({ '0001-good.md': '# 1. Good\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\nGood.\n' })
    writeFileSync(join(dir, '0002-latin1.md'), Buffer.from('# 2. Caf\xe9\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Decision\n\nX.\n', 'latin1'))
    const store = join(tempFolder(), 'store')
    const out = await importAdr([dir, '--data', store])
    expect(out.code).toBe(0)
    expect(out.stderr).toContain(`${join(dir, '0002-latin1.md')}:1: not UTF-8`)
    expect(out.stdout).toContain('imported: 1 new, 0 updated, 0 unchanged')
  })

  it('a record changed in the repository is updated with a reimported event, and stays at its key', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const text = '# 1. Use Redis\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nSpeed.\n\n## Decision\n\nWe use Redis.\n'
    const dir = recordsIn({ '0001-use-redis.md': text })
    const store = join(tempFolder(), 'store')
    await importAdr([dir, '--data', store])
    writeFileSync(join(dir, '0001-use-redis.md'), text.replace('Speed.', 'Speed, and we know it.'))
    expect((await importAdr([dir, '--data', store])).stdout).toContain('imported: 0 new, 1 updated, 0 unchanged')
    await readStore(store, async (call) => {
      const d = (await call('GET', '/v1/decisions/ADR-0001')).body
      expect(d.rationale).toBe('Speed, and we know it.')
      expect(d.events.map((e: any) => e.type)).toContain('reimported')
    })
    expect((await importAdr([dir, '--data', store])).stdout).toContain('imported: 0 new, 0 updated, 1 unchanged')
  })
})

describe('R-CON-2 and R-CON-3: one required decision whose musts name two options at a single-select question', () => {
  const twoMusts = {
    status: 'accepted',
    enforce: 'required',
    scope: { points: ['complexity-tier'] },
    constraints: [
      { kind: 'must', option: 'Tier S' },
      { kind: 'must', option: 'Tier L' },
    ],
  }
  const message = 'required decision D-001 contradicts itself over "Tier S" and "Tier L": its musts name two options where one is chosen (the first, "Tier S", holds)'

  it('is said to contradict itself, not to be a pair of decisions of which "the newer" holds', async () => {
    const { call } = await createTestApp()
    await propose(call, twoMusts)
    const rec = (await call('POST', '/v1/recommendations', TIER)).body
    expect(rec.conflicts).toEqual([{ keys: ['D-001', 'D-001'], options: ['Tier S', 'Tier L'], message }])
    // The check blocks either option, so the answer is not given for the user, nor vouched for.
    expect([rec.ask, rec.confidence.value]).toEqual([true, 0])
    expect(rec.ask_reason).toBe(`${message}: the user chooses`)
    const check = (await call('POST', '/v1/decisions/check', { choice: 'Tier S', point: 'complexity-tier' })).body
    expect(check.allowed).toBe(false)
    expect(check.conflicts.map((c: any) => c.message)).toEqual([message])
  })

  it('names every option of a decision with three musts, in the conflict and in its effect, not the second alone', async () => {
    const { call } = await createTestApp()
    await propose(call, { ...twoMusts, constraints: ['Tier S', 'Tier M', 'Tier L'].map((option) => ({ kind: 'must', option })) })
    const three = 'required decision D-001 contradicts itself over "Tier S", "Tier M" and "Tier L": its musts name three options where one is chosen (the first, "Tier S", holds)'
    const rec = (await call('POST', '/v1/recommendations', TIER)).body
    expect(rec.conflicts).toEqual([{ keys: ['D-001', 'D-001'], options: ['Tier S', 'Tier M', 'Tier L'], message: three }])
    expect(rec.decisions.filter((d: any) => d.effect === 'conflict').map((d: any) => d.options)).toEqual([['Tier M', 'Tier L']])
    const check = (await call('POST', '/v1/decisions/check', { choice: 'Tier L', point: 'complexity-tier' })).body
    expect(check.conflicts.map((c: any) => c.message)).toEqual([three])
  })

  it('names both options of an older decision whose two musts the newer one contradicts', async () => {
    const { call } = await createTestApp()
    await propose(call, { ...twoMusts, date: '2026-01-01' })
    await propose(call, { ...twoMusts, date: '2026-02-01', constraints: [{ kind: 'must', option: 'Tier M' }] })
    const rec = (await call('POST', '/v1/recommendations', TIER)).body
    expect(rec.conflicts).toEqual([
      {
        keys: ['D-002', 'D-001'],
        options: ['Tier M', 'Tier S', 'Tier L'],
        message: 'required decisions D-002 and D-001 contradict each other over "Tier M", "Tier S" and "Tier L" (the newer, D-002, holds)',
      },
    ])
    expect(rec.decisions.filter((d: any) => d.effect === 'conflict')).toMatchObject([{ key: 'D-001', options: ['Tier S', 'Tier L'] }])
  })

  it('a must over the same decision\'s own limit is refused 400 naming the limit, not answered for the user with an option its check blocks', async () => {
    const { call } = await createTestApp()
    const res = await call('POST', '/v1/decisions', decision({ ...twoMusts, scope: { points: ['replicas'] }, constraints: [{ kind: 'must', option: '5' }, { kind: 'limit', value: 3 }] }))
    expect(res.status).toBe(400)
    expect(res.body.error.issues).toEqual([
      { path: 'constraints.1.value', message: '"5" of constraints.0 (must) is over this limit 3: one decision cannot both require and forbid an option' },
    ])
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual([])
  })

  it('is not a contradiction at a multi-select question, where both options are chosen', async () => {
    const { call } = await createTestApp()
    await propose(call, { ...twoMusts, scope: { points: ['checks'] }, constraints: [{ kind: 'must', option: 'Lint' }, { kind: 'must', option: 'Test' }] })
    const rec = (await call('POST', '/v1/recommendations', { question: 'Which checks should run?', point: 'checks', all_options: ['Lint', 'Test', 'Types'], multi_select: true })).body
    expect(rec.state).toBe('enforced')
    expect(rec.recommended).toEqual(['Lint', 'Test'])
    expect(rec.conflicts).toBeUndefined()
  })
})

describe('R-CON-6: MADR front matter keys in any case, and a status YAML reads as a mapping', () => {
  it('reads Enforce: and Date: written with a capital, as Status: is, so a required record is imported required', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const dir = recordsIn({
      '0001-use-postgres.md': '---\nStatus: Accepted\nDate: 2024-02-02\nEnforce: required\nDeciders: [alice]\n---\n\n# Use Postgres\n\n## Decision Outcome\n\nChosen option: "Postgres", because of joins.\n',
    })
    const store = join(tempFolder(), 'store')
    const out = await importAdr([dir, '--data', store])
    expect(out.code).toBe(0)
    expect(out.stderr).not.toContain('0001-use-postgres.md')
    await readStore(store, async (call) => {
      const d = (await call('GET', '/v1/decisions/ADR-0001')).body
      expect([d.status, d.enforce, d.date]).toEqual(['accepted', 'required', '2024-02-02'])
      expect(JSON.stringify(d.evidence)).toContain('alice')
    })
  })

  it.each([
    ['{accepted}', 'unknown status "{accepted}"'],
    [
      '{proposed | rejected | accepted | deprecated | superseded by ADR-0123}',
      `unknown status "{proposed | rejected | accepted | deprecated | superseded by ADR-0123}": the template's list of statuses, left as it was; write the one that holds`,
    ],
  ])('says a status written %s as written, not as "[object Object]"', async (status, message) => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const dir = recordsIn({ '0001-use-x.md': `---\nstatus: ${status}\ndate: 2024-02-01\n---\n\n# Use X\n\n## Decision Outcome\n\nChosen option: "X", because x.\n` })
    const out = await importAdr([dir, '--dry-run'])
    expect(out.stderr).toBe(`${join(dir, '0001-use-x.md')}:2: ${message}\n`)
  })
})

describe('R-CON-1a: every route the spec names is in the OpenAPI document', () => {
  it('lists propose, list, read, accept, deprecate, revoke, supersede, applicable, check, why of a decision and of a point', async () => {
    const { call } = await createTestApp()
    const paths = (await call('GET', '/openapi.json')).body.paths
    const operations = Object.entries(paths).flatMap(([path, ops]) => Object.keys(ops as object).map((method) => `${method.toUpperCase()} ${path}`))
    expect(operations).toEqual(
      expect.arrayContaining([
        'POST /v1/decisions',
        'GET /v1/decisions',
        'GET /v1/decisions/{key}',
        'POST /v1/decisions/{key}/accept',
        'POST /v1/decisions/{key}/deprecate',
        'POST /v1/decisions/{key}/revoke',
        'POST /v1/decisions/{key}/supersede',
        'GET /v1/decisions/applicable',
        'POST /v1/decisions/check',
        'GET /v1/decisions/{key}/why',
        'GET /v1/why',
      ]),
    )
    const applicable = paths['/v1/decisions/applicable'].get.parameters.map((p: any) => p.name)
    expect(applicable).toEqual(expect.arrayContaining(['task', 'path', 'stage', 'point']))
    const why = paths['/v1/why'].get.parameters.map((p: any) => p.name)
    expect(why).toEqual(expect.arrayContaining(['user', 'project', 'point']))
  })
})
