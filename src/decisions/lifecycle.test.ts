import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { InputError } from '../domain/errors'
import { DECISION_STATUSES, DecisionInputSchema, type Constraint, type DecisionStatus } from './decision'
import { decisionRecord } from '../../test/support/decision-record'
import { canMove, decisionAt, evidenceOf, proposal, transition } from './lifecycle'

const AT = '2026-07-01T10:00:00.000Z'
const input = (extra: Record<string, unknown> = {}) =>
  DecisionInputSchema.parse({ title: 'Tier L for billing', decision: 'Billing specs use Tier L', rationale: 'audits', ...extra })

describe('the decision lifecycle (R-CON-1)', () => {
  it('allows exactly the documented steps', () => {
    const allowed = new Set([
      'proposed>accepted',
      'proposed>revoked',
      'accepted>superseded',
      'accepted>deprecated',
      'accepted>revoked',
      'deprecated>superseded',
      'deprecated>revoked',
    ])
    for (const from of DECISION_STATUSES) {
      for (const to of DECISION_STATUSES) expect(canMove(from, to), `${from} → ${to}`).toBe(allowed.has(`${from}>${to}`))
    }
  })

  it('a proposal starts with one proposed event', () => {
    const { record, event } = proposal(input({ scope: { points: ['tier', 'tier'] } }), 'D-001', AT)
    expect(record).toMatchObject({ key: 'D-001', status: 'proposed', version: 1, date: '2026-07-01', enforce: 'advisory' })
    expect(record.scope).toEqual({ points: ['tier'], task: null, path: null, stage: null })
    expect(event).toEqual({ key: 'D-001', seq: 1, at: AT, type: 'proposed', from: null, to: 'proposed' })
  })

  it('a transition bumps the version and records from, to, when and why', () => {
    const { record } = proposal(input(), 'D-001', AT)
    const later = '2026-07-02T09:00:00.000Z'
    const moved = transition(record, 'accepted', later, { reason: 'agreed in review' })
    expect(moved.record).toMatchObject({ status: 'accepted', version: 2, updated_at: later })
    expect(moved.event).toEqual({ key: 'D-001', seq: 2, at: later, type: 'accepted', from: 'proposed', to: 'accepted', reason: 'agreed in review' })
    const superseded = transition(moved.record, 'superseded', later, { by: 'D-002' })
    expect(superseded.record.superseded_by).toBe('D-002')
    expect(superseded.event.by).toBe('D-002')
  })

  it('a step the lifecycle does not allow is a 409 naming both statuses', () => {
    const { record } = proposal(input(), 'D-001', AT)
    const revoked = transition(record, 'revoked', AT).record
    for (const to of ['accepted', 'deprecated'] as DecisionStatus[]) {
      try {
        transition(revoked, to, AT)
        expect.unreachable()
      } catch (error) {
        expect(error).toBeInstanceOf(InputError)
        expect((error as InputError).status).toBe(409)
        expect((error as InputError).code).toBe('invalid_transition')
        expect((error as InputError).message).toContain(`revoked; it cannot become ${to}`)
      }
    }
  })

  it('lists the steps a refused one could take instead as a sentence lists them', () => {
    const accepted = transition(proposal(input(), 'D-001', AT).record, 'accepted', AT).record
    expect(() => transition(accepted, 'accepted', AT)).toThrow('D-001 is accepted; it cannot become accepted (it can become superseded, deprecated or revoked)')
    const deprecated = transition(accepted, 'deprecated', AT).record
    expect(() => transition(deprecated, 'accepted', AT)).toThrow('(it can become superseded or revoked)')
  })

  it('refuses constraints that cannot be enforced, naming each field', () => {
    try {
      proposal(
        input({
          constraints: [
            { kind: 'must' },
            { kind: 'must_not', pattern: 'git push (' },
            { kind: 'must', option: 'Tier L' },
            { kind: 'limit' },
            { kind: 'prefer', option: 'Tier M', value: 3 },
          ],
        }),
        'D-001',
        AT,
      )
      expect.unreachable()
    } catch (error) {
      expect((error as InputError).code).toBe('invalid_decision')
      expect((error as InputError).issues.map((i) => i.path)).toEqual([
        'constraints.0.option',
        'constraints.1.pattern',
        'constraints.2.option',
        'constraints.3.value',
        'constraints.4.value',
        'constraints.4.option',
      ])
    }
  })

  it('refuses a decision that both requires and forbids one option, as the check compares options', () => {
    const contradicting = (constraints: Constraint[]) =>
      proposal(input({ scope: { points: ['complexity-tier'] }, constraints }), 'D-001', AT)
    try {
      contradicting([
        { kind: 'must', option: 'Tier M' },
        { kind: 'must_not', option: 'Tier L' },
        { kind: 'must_not', option: 'tier m (Recommended)' },
      ])
      expect.unreachable()
    } catch (error) {
      expect((error as InputError).issues).toEqual([
        { path: 'constraints.2.option', message: expect.stringContaining('constraints.0 (must)') },
      ])
    }
    try {
      contradicting([{ kind: 'prefer', option: 'Tier S' }, { kind: 'must_not', option: 'Tier S' }])
      expect.unreachable()
    } catch (error) {
      expect((error as InputError).issues[0]?.message).toBe('"Tier S" is also named by constraints.0 (prefer): one decision cannot both prefer and forbid an option')
    }
    expect(contradicting([{ kind: 'must', option: 'Tier M' }, { kind: 'must_not', option: 'Tier L' }]).record.constraints).toHaveLength(2)
  })

  it('refuses a decision whose must or prefer option is over its own limit, as its recommendation and check read it', () => {
    const replicas = (constraints: Constraint[]) => proposal(input({ enforce: 'required', scope: { points: ['replicas'] }, constraints }), 'D-001', AT)
    const issues = (constraints: Constraint[]) => {
      try {
        replicas(constraints)
      } catch (error) {
        return (error as InputError).issues
      }
      return []
    }
    expect(issues([{ kind: 'must', option: '5' }, { kind: 'limit', value: 3 }])).toEqual([
      { path: 'constraints.1.value', message: '"5" of constraints.0 (must) is over this limit 3: one decision cannot both require and forbid an option' },
    ])
    // A number with its unit, as the limit reads the options of its own point.
    expect(issues([{ kind: 'limit', value: 3, option: 'replicas' }, { kind: 'prefer', option: '5 replicas (Recommended)' }])).toEqual([
      { path: 'constraints.0.value', message: '"5 replicas (Recommended)" of constraints.1 (prefer) is over this limit 3: one decision cannot both prefer and forbid an option' },
    ])
    // Within the limit, or no number: the decision can be followed.
    expect(replicas([{ kind: 'must', option: '3' }, { kind: 'limit', value: 3 }]).record.constraints).toHaveLength(2)
    expect(replicas([{ kind: 'must', option: 'Tier 5' }, { kind: 'limit', value: 3 }]).record.constraints).toHaveLength(2)
  })

  it('hashes evidence content and refuses a hash that does not match it', () => {
    const [evidence] = evidenceOf([{ kind: 'benchmark', summary: '0/20 vs 16/20', content: 'raw results' }])
    expect(evidence?.hash).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(() => evidenceOf([{ kind: 'k', summary: 's', content: 'raw results', hash: 'sha256:00' }])).toThrow(InputError)
  })

  it('takes a hash of the content in capitals or without its sha256: prefix, and keeps it as sha256: and lower case', () => {
    // sha256('raw results'), as Get-FileHash prints it (capitals) and sha256sum (bare hex)
    const hex = createHash('sha256').update('raw results', 'utf8').digest('hex')
    for (const hash of [`SHA256:${hex.toUpperCase()}`, `sha256:${hex.toUpperCase()}`, hex, hex.toUpperCase()]) {
      const [evidence] = evidenceOf([{ kind: 'k', summary: 's', content: 'raw results', hash }])
      expect(evidence?.hash).toBe(`sha256:${hex}`)
    }
    expect(() => evidenceOf([{ kind: 'k', summary: 's', content: 'raw results', hash: `md5:${hex}` }])).toThrow(InputError)
  })

  it("reads a decision's status at a moment from its history", () => {
    const events = [
      { key: 'D-1', seq: 1, at: '2026-07-01T10:00:00.000Z', type: 'proposed' as const, from: null, to: 'proposed' as const },
      { key: 'D-1', seq: 2, at: '2026-07-02T10:00:00.000Z', type: 'accepted' as const, from: 'proposed' as const, to: 'accepted' as const },
      { key: 'D-1', seq: 3, at: '2026-07-05T10:00:00.000Z', type: 'revoked' as const, from: 'accepted' as const, to: 'revoked' as const },
    ]
    const now = decisionRecord('D-1', { status: 'revoked', version: 3 })
    const statusAt = (at: Date) => decisionAt(now, events, at)?.record.status ?? null
    expect(statusAt(new Date('2026-06-30T00:00:00Z'))).toBeNull()
    expect(statusAt(new Date('2026-07-01T12:00:00Z'))).toBe('proposed')
    expect(statusAt(new Date('2026-07-02T10:00:00Z'))).toBe('accepted')
    expect(statusAt(new Date('2026-07-06T00:00:00Z'))).toBe('revoked')
  })

  it('rebuilds a decision as it stood at a moment, undoing later events with what they kept in before (R-REC-9)', () => {
    const proposed = proposal(input({ enforce: 'required', status: 'accepted' }), 'D-1', AT)
    const accepted = transition(proposed.record, 'accepted', '2026-07-02T10:00:00.000Z')
    const superseded = transition(accepted.record, 'superseded', '2026-07-05T10:00:00.000Z', { by: 'D-2' })
    expect(superseded.event.before).toEqual({ superseded_by: null })
    const events = [proposed.event, accepted.event, superseded.event]
    const now = superseded.record

    expect(decisionAt(now, events, new Date('2026-06-30T00:00:00Z'))).toBeUndefined()
    expect(decisionAt(now, events, new Date('2026-07-01T12:00:00Z'))?.record).toMatchObject({ status: 'proposed', version: 1, updated_at: AT })
    const then = decisionAt(now, events, new Date('2026-07-03T00:00:00Z'))
    expect(then?.record).toMatchObject({ status: 'accepted', superseded_by: null, version: 2, updated_at: '2026-07-02T10:00:00.000Z', enforce: 'required' })
    expect(then?.events).toEqual([proposed.event, accepted.event])
    expect(then?.unrecorded).toEqual([])
    expect(decisionAt(now, events, new Date('2026-07-06T00:00:00Z'))?.record).toEqual(now)
  })

  it('names what events written before `before` was kept cannot give back: fields a re-import changed', () => {
    const now = decisionRecord('ADR-1', { enforce: 'required', status: 'superseded', superseded_by: 'ADR-2', supersedes: 'ADR-0', version: 4 })
    const events = [
      { key: 'ADR-1', seq: 1, at: '2026-07-01T10:00:00.000Z', type: 'imported' as const, from: null, to: 'accepted' as const },
      { key: 'ADR-1', seq: 2, at: '2026-07-02T10:00:00.000Z', type: 'reimported' as const, from: 'accepted' as const, to: 'accepted' as const, changed: ['enforce', 'title'] },
      { key: 'ADR-1', seq: 3, at: '2026-07-03T10:00:00.000Z', type: 'linked' as const, from: 'accepted' as const, to: 'accepted' as const, supersedes: 'ADR-0' },
      { key: 'ADR-1', seq: 4, at: '2026-07-04T10:00:00.000Z', type: 'superseded' as const, from: 'accepted' as const, to: 'superseded' as const, by: 'ADR-2' },
    ]
    const then = decisionAt(now, events, new Date('2026-07-01T12:00:00Z'))
    expect(then?.record).toMatchObject({ status: 'accepted', superseded_by: null, supersedes: null, enforce: 'required' })
    expect(then?.unrecorded.sort()).toEqual(['enforce', 'title'])
    expect(decisionAt(now, events, new Date('2026-07-02T12:00:00Z'))?.unrecorded).toEqual([])
  })
})
