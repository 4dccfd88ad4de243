import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { observation, pointView } from '../../test/support/observations'
import { loadPolicy } from '../config/load-policy'
import type { Observation } from './observation'
import type { CompiledPolicy } from './policy'
import { selectEvidence } from './evidence'
import { recommend } from './recommendation'

let policy: CompiledPolicy
beforeAll(async () => {
  policy = await loadPolicy()
})

const NOW = new Date('2026-07-01T00:00:00.000Z')
const DAY = 86_400_000

/** 2 to 5 distinct labels, including awkward ones. */
const labels = fc.uniqueArray(
  fc.oneof(fc.constantFrom('__proto__', 'constructor', 'toString', 'Tier S', 'Tier M', 'Lint, format'), fc.string({ minLength: 1, maxLength: 8 }).map((s) => `opt ${s.trim() || 'x'}`)),
  { minLength: 2, maxLength: 5 },
)

/** A history: each element picks an option index (or free text) at some age in days. */
const history = fc.array(
  fc.record({ pick: fc.nat(), other: fc.boolean(), ageDays: fc.double({ min: 0, max: 200, noNaN: true }), phase: fc.constantFrom('run', 'plan') }),
  { maxLength: 60 },
)

function build(options: string[], events: Array<{ pick: number; other: boolean; ageDays: number; phase: string }>): Observation[] {
  return events.map((e) =>
    observation({
      options,
      chosen: e.other && e.pick % 7 === 0 ? [] : [options[e.pick % options.length] as string],
      other: e.other && e.pick % 7 === 0 ? 'free text' : null,
      timestamp: new Date(NOW.getTime() - e.ageDays * DAY).toISOString(),
      context: { phase: e.phase },
    }),
  )
}

function run(options: string[], obs: Observation[], extra: { static_default?: string; context?: Record<string, string> } = {}) {
  return recommend({
    point: 'p',
    question: 'Which one?',
    options: options.map((option) => ({ option })),
    memory: pointView(obs, policy),
    sessions: 3,
    personalization: true,
    asOf: NOW,
    policy,
    ...extra,
  })
}

describe('recommendation properties', () => {
  it('recommends one of the options, with confidence, p and information in range', () => {
    fc.assert(
      fc.property(labels, history, fc.constantFrom(undefined, 'run', 'plan'), (options, events, phase) => {
        const r = run(options, build(options, events), phase === undefined ? {} : { context: { phase } })
        expect(options).toContain(r.recommended)
        expect(r.confidence.value).toBeGreaterThanOrEqual(0)
        expect(r.confidence.value).toBeLessThanOrEqual(1)
        expect(r.p).toBeGreaterThan(0)
        expect(r.p).toBeLessThanOrEqual(1)
        expect(r.information).toBeLessThanOrEqual(0.25)
        expect(r.precondition.length).toBeGreaterThan(0)
        expect(r.options.map((o) => o.option).sort()).toEqual([...options].sort())
      }),
      { numRuns: 200 },
    )
  })

  it("adding a choice of X never lowers X's share, where it does not change what is learned from", () => {
    // The change test may set older choices aside (a change of preference, R-REC-2's decayed
    // weights alone would let them outvote it): an added choice that starts or ends such a change,
    // or moves where it starts, changes the evidence itself, and X's share among the evidence then
    // learned from may be lower (one old free-text answer against six recent X was a change; with
    // a second old X beside it, it is not, and the free text counts again). Where the evidence is
    // chosen alike, the share never falls.
    const changeOf = (obs: Observation[]) => {
      const test = selectEvidence(pointView(obs, policy), { asOf: NOW }, policy).changeTest
      return test === null ? null : test.since
    }
    fc.assert(
      fc.property(labels, history, fc.nat(), fc.double({ min: 0, max: 200, noNaN: true }), (options, events, pick, ageDays) => {
        const obs = build(options, events)
        const x = options[pick % options.length] as string
        const added = observation({ options, chosen: [x], timestamp: new Date(NOW.getTime() - ageDays * DAY).toISOString() })
        fc.pre(changeOf(obs) === changeOf([...obs, added]))
        const before = run(options, obs).options.find((o) => o.option === x)!.share
        const after = run(options, [...obs, added]).options.find((o) => o.option === x)!.share
        expect(after).toBeGreaterThanOrEqual(before - 1e-9)
      }),
      { numRuns: 200 },
    )
  })

  it('option order never changes the answer', () => {
    fc.assert(
      fc.property(labels, history, fc.nat(), fc.nat(), (options, events, seed, pickDefault) => {
        const obs = build(options, events)
        const shuffled = [...options].sort((a, b) => ((a.length * 31 + seed) % 7) - ((b.length * 31 + seed) % 7) || (a < b ? 1 : -1))
        const staticDefault = options[pickDefault % options.length] as string
        const a = run(options, obs, { static_default: staticDefault })
        const b = run(shuffled, obs, { static_default: staticDefault })
        expect(b.recommended).toBe(a.recommended)
        expect(b.state).toBe(a.state)
        expect(b.confidence.value).toBeCloseTo(a.confidence.value, 3)
        expect(b.p).toBeCloseTo(a.p, 6)
      }),
      { numRuns: 200 },
    )
  })
})
