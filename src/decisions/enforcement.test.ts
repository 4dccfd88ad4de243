import { beforeAll, describe, expect, it } from 'vitest'
import { decisionRecord } from '../../test/support/decision-record'
import { observation, pointView } from '../../test/support/observations'
import { loadPolicy } from '../config/load-policy'
import type { Observation } from '../domain/observation'
import type { CompiledPolicy } from '../domain/policy'
import { recommend } from '../domain/recommendation'
import type { Constraint, DecisionRecord } from './decision'
import { applyDecisions, contractFor } from './enforcement'

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

  it('of two decisions dated and changed alike, the one GET /v1/decisions lists later is the newer, whatever the locale orders', () => {
    // The store lists by code unit (compareKeys): D-1 before D_1, B-1 before adr-1; localeCompare has
    // both the other way round, and a locale of its own besides.
    for (const [first, last] of [['D-1', 'D_1'], ['B-1', 'adr-1']] as const) {
      const listedFirst = bound(first, '2026-07-01', 'required', { kind: 'must', option: 'Tier S' })
      const listedLast = bound(last, '2026-07-01', 'required', { kind: 'must', option: 'Tier L' })
      for (const decisions of [[listedFirst, listedLast], [listedLast, listedFirst]]) {
        const contract = contractFor(decisions, OFFERED, undefined)
        expect(contract.musts.map((m) => m.decision.key)).toEqual([last, first])
      }
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

describe('applyDecisions: required decisions that rule out every option offered (R-CON-2)', () => {
  let policy: CompiledPolicy
  beforeAll(async () => {
    policy = await loadPolicy()
  })

  it('names them by key, whichever is newer, each rationale after its key, as one line', () => {
    // D-001 is the newer by date: newest first would name it first, or alone with its rationale.
    const noS = bound('D-002', '2026-06-01', 'required', { kind: 'must_not', option: 'Tier S' })
    const noM = bound('D-001', '2026-07-01', 'required', { kind: 'must_not', option: 'Tier M' })
    const offered = [{ option: 'Tier S' }, { option: 'Tier M' }]
    for (const decisions of [[noS, noM], [noM, noS]]) {
      const contract = contractFor(decisions, offered, undefined)
      const rec = recommend({ point: 'complexity-tier', question: 'Which tier?', options: contract.offered, offered, context: {}, memory: pointView([], policy), sessions: 1, personalization: true, asOf: new Date('2026-07-02T00:00:00.000Z'), policy })
      expect(applyDecisions(rec, contract, false, policy)).toMatchObject({
        ask: true,
        precondition: 'required decisions D-001, D-002 are in force',
        disclosure: 'every option offered is ruled out by required decisions D-001: because D-001; D-002: because D-002',
        ask_reason: 'every option offered is ruled out by required decisions D-001, D-002: none is recommended; the user chooses',
        confidence: { method: 'every option offered is ruled out by required decisions D-001, D-002' },
      })
    }
  })
})

describe('applyDecisions: several required decisions that fix the answer together (R-CON-2)', () => {
  let policy: CompiledPolicy
  beforeAll(async () => {
    policy = await loadPolicy()
  })
  const answer = (decisions: DecisionRecord[], offered: Array<{ option: string }>, multi: boolean) => {
    const contract = contractFor(decisions, offered, undefined)
    const rec = recommend({ point: 'complexity-tier', question: 'Which tier?', options: contract.offered, offered, context: {}, multi_select: multi, memory: pointView([], policy), sessions: 1, personalization: true, asOf: new Date('2026-07-02T00:00:00.000Z'), policy })
    return applyDecisions(rec, contract, false, policy)
  }

  it('names them by key, whichever is newer, each rationale after its key: a must each of a set chosen together', () => {
    // D-001 is the newer by date: newest first would name it first, and quote its rationale alone.
    const lint = bound('D-002', '2026-06-01', 'required', { kind: 'must', option: 'Lint' })
    const test = bound('D-001', '2026-07-01', 'required', { kind: 'must', option: 'Test' })
    const offered = [{ option: 'Lint' }, { option: 'Test' }, { option: 'E2E' }]
    for (const decisions of [[lint, test], [test, lint]]) {
      const rec = answer(decisions, offered, true)
      expect(rec).toMatchObject({
        state: 'enforced',
        precondition: 'required decisions D-001, D-002 are in force',
        disclosure: 'required by decisions D-001: because D-001; D-002: because D-002',
        ask_reason: "decisions D-001, D-002 fix part of the answer; the rest is the user's",
      })
      expect(rec.confidence.method).toMatch(/; enforced in part by required decisions D-001, D-002, whose options count 1$/)
    }
  })

  it('says one decision that fixes part of a set in the singular, as it says one that fixes the whole answer', () => {
    const lint = bound('D-002', '2026-06-01', 'required', { kind: 'must', option: 'Lint' })
    const rec = answer([lint], [{ option: 'Lint' }, { option: 'Test' }, { option: 'E2E' }], true)
    expect(rec).toMatchObject({
      state: 'enforced',
      precondition: 'required decision D-002 is in force',
      disclosure: 'required by decision D-002: because D-002',
      ask_reason: "decision D-002 fixes part of the answer; the rest is the user's",
    })
    expect(rec.confidence.method).toMatch(/; enforced in part by required decision D-002, whose options count 1$/)
  })

  it('names by key, each with its rationale, those that leave one option between them', () => {
    const noS = bound('D-002', '2026-06-01', 'required', { kind: 'must_not', option: 'Tier S' })
    const noM = bound('D-001', '2026-07-01', 'required', { kind: 'must_not', option: 'Tier M' })
    for (const decisions of [[noS, noM], [noM, noS]]) {
      expect(answer(decisions, OFFERED, false)).toMatchObject({
        state: 'enforced',
        recommended: 'Tier L',
        precondition: 'required decisions D-001, D-002 are in force',
        disclosure: 'required by decisions D-001: because D-001; D-002: because D-002',
        ask_reason: 'required decisions D-001, D-002 fix the answer: auto-resolve',
        confidence: { method: 'enforced by required decisions D-001, D-002' },
      })
    }
  })
})

describe('applyDecisions: the confidence of a multi-select answer a required decision fixes part of (R-CON-2, R-REC-8)', () => {
  let policy: CompiledPolicy
  beforeAll(async () => {
    policy = await loadPolicy()
  })
  const NOW = new Date('2026-07-01T10:00:00.000Z')
  const CHECKS = ['Lint', 'Test', 'E2E']
  /** Ten sets at the same moment, Lint in each, Test in 4 of them: the learned set is {Lint}. */
  const TEN = Array.from({ length: 10 }, (_, i) => observation({ point: 'checks', chosen: i < 4 ? ['Lint', 'Test'] : ['Lint'], options: CHECKS, multi_select: true, context: { phase: 'run' } }))
  const musts = (...options: string[]) =>
    decisionRecord('D-001', { scope: { points: ['checks'], task: null, path: null, stage: null }, constraints: options.map((option) => ({ kind: 'must' as const, option })) })
  function joined(decision: DecisionRecord, observations: Observation[] = TEN, context: Record<string, string> = { phase: 'run' }) {
    const offered = CHECKS.map((option) => ({ option }))
    const contract = contractFor([decision], offered, undefined)
    const rec = recommend({ point: 'checks', question: 'Which checks?', options: contract.offered, offered, context, multi_select: true, memory: pointView(observations, policy), sessions: 1, personalization: true, asOf: NOW, policy })
    return { rec, enforced: applyDecisions(rec, contract, false, policy) }
  }
  const confidenceOf = (r: { options: Array<{ option: string; confidence?: number }> }, option: string) => r.options.find((o) => o.option === option)?.confidence

  it('holds an option a required must adds to the learned set certain, and the set as sure as the options it leaves to the user', () => {
    const { rec, enforced } = joined(musts('Test'))
    expect(rec).toMatchObject({ recommended: ['Lint'], confidence: { level: 'medium', significant: false } })
    expect(enforced).toMatchObject({ state: 'enforced', recommended: ['Lint', 'Test'], ask: true })
    // Test was left out by the user's choices, with P(rate < 0.5); the decision fixes it: no doubt.
    expect(confidenceOf(rec, 'Test')).toBeLessThan(0.9)
    expect(confidenceOf(enforced, 'Test')).toBe(1)
    // The others keep their factors, and the set's confidence is their product, banded anew.
    expect(confidenceOf(enforced, 'Lint')).toBe(confidenceOf(rec, 'Lint'))
    expect(confidenceOf(enforced, 'E2E')).toBe(confidenceOf(rec, 'E2E'))
    expect(enforced.confidence.value).toBeCloseTo(confidenceOf(rec, 'Lint')! * confidenceOf(rec, 'E2E')!, 3)
    expect(enforced.confidence).toMatchObject({ level: 'high', significant: true, method: expect.stringContaining('required decision D-001') })
    // p is the chance the user's answer is the set, Test given: Lint selected and E2E left out,
    // each (10 + ½) / 11 (Krichevsky–Trofimov); the entropy is theirs alone.
    const kt = 10.5 / 11
    expect(enforced.p).toBeCloseTo(kt * kt, 4)
    expect(enforced.information).toBeCloseTo(enforced.p * (1 - enforced.p), 4)
    const h = -(kt * Math.log2(kt) + (1 - kt) * Math.log2(1 - kt))
    expect(enforced.entropy).toBeCloseTo(2 * h, 4)
    // What the user's choices alone said stays in `learned`.
    expect(enforced.learned).toEqual({ state: rec.state, recommended: ['Lint'], confidence: rec.confidence.value })
  })

  it('holds an option the learned set already selects certain too, where a required must names it', () => {
    const { rec, enforced } = joined(musts('Lint'))
    expect(enforced.recommended).toEqual(['Lint'])
    expect(confidenceOf(enforced, 'Lint')).toBe(1)
    expect(enforced.confidence.value).toBeCloseTo(confidenceOf(rec, 'Test')! * confidenceOf(rec, 'E2E')!, 3)
  })

  it('pulls the set toward the chance of the options left to the user, where the context contradicts their precondition', () => {
    const { rec, enforced } = joined(musts('Test'), TEN, { phase: 'sync' })
    expect(rec.confidence.lowered_because).toContain('phase is sync, not run')
    const free = confidenceOf(rec, 'Lint')! * confidenceOf(rec, 'E2E')!
    const chance = 0.5 ** 2
    expect(enforced.confidence.value).toBeCloseTo(chance + (free - chance) * (1 - policy.confidence.contradiction_shrink), 3)
    expect(enforced.confidence.lowered_because).toBe(rec.confidence.lowered_because)
    // Significant, and banded, by the value lowered, not by the set before it nor the learned one.
    expect(enforced.confidence).toMatchObject({ level: 'medium', significant: false })
    // p too, of the options left to the user, Test given: (10 + ½) / 11 each, pulled as the set is.
    const kt = (10.5 / 11) ** 2
    expect(enforced.p).toBeCloseTo(chance + (kt - chance) * (1 - policy.confidence.contradiction_shrink), 4)
    expect(enforced.information).toBeCloseTo(enforced.p * (1 - enforced.p), 4)
    // The contradiction that lowered them is named, with the conditions of the user's choices it
    // contradicts: the options the decision leaves to the user are still chosen by them.
    expect(rec.contradictions).toEqual([{ key: 'phase', expected: 'run', got: 'sync' }])
    expect(enforced.contradictions).toEqual(rec.contradictions)
    expect(enforced.conditions).toEqual(rec.conditions)
  })

  it('keeps no learned conditions where required decisions fix the whole answer', () => {
    const { rec, enforced } = joined(musts('Lint', 'Test', 'E2E'), TEN, { phase: 'sync' })
    expect(rec.contradictions).not.toEqual([])
    expect(enforced).toMatchObject({ conditions: { context: [], window: null }, contradictions: [] })
  })

  it('holds every option certain, and the set at 1, where required decisions fix the whole answer', () => {
    const { enforced } = joined(musts('Lint', 'Test', 'E2E'))
    expect(enforced).toMatchObject({ recommended: ['Lint', 'Test', 'E2E'], confidence: { value: 1, level: 'high', significant: true }, p: 1, information: 0, entropy: 0 })
    expect(enforced.options.map((o) => o.confidence)).toEqual([1, 1, 1])
  })
})
