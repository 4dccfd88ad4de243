import { describe, expect, it } from 'vitest'
import { decisionRecord } from '../../test/support/decision-record'
import type { Constraint, DecisionRecord } from './decision'
import { contractFor } from './enforcement'

const OFFERED = [{ option: 'Tier S' }, { option: 'Tier M' }, { option: 'Tier L' }]

function bound(key: string, date: string, enforce: DecisionRecord['enforce'], constraint: Constraint): DecisionRecord {
  return decisionRecord(key, { date, enforce, scope: { points: ['complexity-tier'], task: null, path: null, stage: null }, constraints: [constraint] })
}

describe('contractFor: what the decisions bound to a point do to its offer (R-CON-2)', () => {
  it('the newest of two required musts that contradict each other holds, whatever order they come in', () => {
    const older = bound('D-001', '2026-06-01', 'required', { kind: 'must', option: 'Tier S' })
    const newer = bound('D-002', '2026-07-01', 'required', { kind: 'must', option: 'Tier L' })
    for (const decisions of [[older, newer], [newer, older]]) {
      const contract = contractFor(decisions, OFFERED, undefined)
      expect(contract.musts.map((m) => [m.decision.key, m.option])).toEqual([['D-002', 'Tier L'], ['D-001', 'Tier S']])
    }
  })

  it('the newest advisory decision is the static default, over an older one and over the request\'s own default', () => {
    const older = bound('D-003', '2026-06-01', 'advisory', { kind: 'must', option: 'Tier S' })
    const newer = bound('D-004', '2026-07-01', 'advisory', { kind: 'prefer', option: 'Tier M' })
    for (const decisions of [[older, newer], [newer, older]]) {
      const contract = contractFor(decisions, OFFERED, 'Tier L')
      expect(contract.advisory).toMatchObject({ option: 'Tier M', decision: { key: 'D-004' } })
      expect(contract.staticDefault).toBe('Tier M')
    }
    // Without an advisory decision the request's default stands.
    expect(contractFor([], OFFERED, 'Tier L').staticDefault).toBe('Tier L')
  })
})
