import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'

// Decisions made over the API and imported, superseded, accepted, deprecated and revoked in any order.
const KEYS = ['D-1', 'D-2', 'D-3', 'D-4', 'D-5', 'D-6']
const ADRS = ['ADR-1', 'ADR-2', 'ADR-3']
const ALL = [...KEYS, ...ADRS]
const POINTS = ['complexity-tier', 'testing']
const anyKey = fc.constantFrom(...ALL)
const step = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant('propose' as const),
      key: fc.constantFrom(...KEYS),
      status: fc.constantFrom('accepted', 'proposed'),
      supersedes: fc.option(anyKey, { nil: undefined }),
      points: fc.subarray(POINTS),
      evidence: fc.nat(2),
    }),
  },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('move' as const), to: fc.constantFrom('accept', 'deprecate', 'revoke'), key: anyKey }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('supersede' as const), key: anyKey, by: anyKey }) },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('import' as const),
      records: fc.uniqueArray(fc.record({ key: fc.constantFrom(...ADRS), status: fc.constantFrom('accepted', 'proposed', 'superseded', 'deprecated'), supersedes: fc.option(fc.constantFrom(...ADRS), { nil: undefined }) }), {
        selector: (r) => r.key,
        maxLength: 3,
      }),
    }),
  },
)

/** What a point's why says of each decision bound to it that the decision's own why says too. */
const shared = ({ key, current, in_force, chain, proposals, rationale, evidence, events }: any) => ({ key, current, in_force, chain, proposals, rationale, evidence, events })

describe("a point's why of each decision bound to it (R-CON-5)", () => {
  it("is that decision's own why, at that moment, however its chain and the others' were made", async () => {
    // The point's why reads the chains of all its decisions at once (Decisions.whyEach); each
    // decision's own why reads its chain alone: the two say the same, now and as of any moment.
    let compared = 0
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 30 }), async (steps) => {
        const { call, clock } = await createTestApp({ now: '2026-06-01T10:00:00Z' })
        const moments: string[] = []
        for (const s of steps) {
          clock.advance(60_000)
          if (s.t === 'propose') {
            const evidence = Array.from({ length: s.evidence }, (_, i) => ({ kind: 'doc', summary: `e${i}` }))
            await call('POST', '/v1/decisions', { key: s.key, title: s.key, decision: 'd', rationale: `r ${s.key}`, status: s.status, supersedes: s.supersedes, scope: { points: s.points }, evidence })
          } else if (s.t === 'move') await call('POST', `/v1/decisions/${s.key}/${s.to}`)
          else if (s.t === 'supersede') await call('POST', `/v1/decisions/${s.key}/supersede`, { by: s.by })
          else {
            const origin = (key: string) => ({ path: `doc/adr/${key}.md`, line: 1, format: 'madr', folder: 'acme/doc/adr' })
            const records = s.records.map((r) => ({ key: r.key, title: r.key, decision: 'd', rationale: 'r', status: r.status, date: null, supersedes: r.supersedes === r.key ? null : (r.supersedes ?? null), origin: origin(r.key) }))
            await call('POST', '/v1/decisions/import', { folder: 'acme/doc/adr', records })
          }
          moments.push(clock.now().toISOString())
        }
        for (const asOf of [undefined, moments[Math.floor(moments.length / 2)]]) {
          const at = asOf === undefined ? '' : `as_of=${asOf}`
          for (const point of POINTS) {
            const why = await call('GET', `/v1/why?user=alice&point=${point}${at === '' ? '' : `&${at}`}`)
            // A point no decision (nor question) was ever at is not found, then or now.
            if (why.status === 404) continue
            expect(why.status).toBe(200)
            compared += why.body.decisions.length
            for (const d of why.body.decisions) {
              const own = await call('GET', `/v1/decisions/${d.key}/why${at === '' ? '' : `?${at}`}`)
              expect(shared(d)).toEqual(shared(own.body))
            }
          }
        }
      }),
      { numRuns: 60 },
    )
    expect(compared).toBeGreaterThan(100)
  })
})
