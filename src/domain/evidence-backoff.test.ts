import { describe, expect, it } from 'vitest'
import { observation as observed, pointView } from '../../test/support/observations'
import { selectEvidence } from './evidence'
import type { Observation } from './observation'
import { PolicySchema, type Policy } from './policy'
import defaults from '../../policies/default.json'

const POLICY: Policy = PolicySchema.parse(defaults)
const NOW = new Date('2026-07-01T10:00:00.000Z')
const DAY = 86_400_000

function observation(
  i: number,
  chosen: string,
  daysAgo: number,
  context: Observation['context'] = {},
): Observation {
  const timestamp = new Date(NOW.getTime() - daysAgo * DAY).toISOString()
  return observed({ id: `o-${i}`, user: 'u', timestamp, recorded_at: timestamp, options: ['Tier S', 'Tier L'], chosen: [chosen], context })
}

describe('selectEvidence: change of preference', () => {
  it('keeps only the recent choices when they differ from the older ones beyond chance', () => {
    const older = Array.from({ length: 30 }, (_, i) => observation(i, 'Tier S', 40 + i * 3))
    const recent = Array.from({ length: 6 }, (_, i) => observation(100 + i, 'Tier L', 1 + i))
    const selection = selectEvidence(pointView([...older, ...recent], POLICY), { asOf: NOW }, POLICY)
    expect(selection.cell.n).toBe(6)
    expect([...selection.cell.evidence.map(([, id]) => id)].sort()).toEqual(recent.map((o) => o.id).sort())
    expect(selection.changeTest).toMatchObject({ recent: 6, older: 30 })
    expect(selection.changeTest?.p_value).toBeLessThan(POLICY.change.significance)
    // The layers still see every observation.
    expect(selection.scoped.n).toBe(36)
  })

  it('keeps every choice when the recent ones are like the older ones', () => {
    const all = Array.from({ length: 40 }, (_, i) =>
      observation(i, i % 2 === 0 ? 'Tier S' : 'Tier L', i * 3),
    )
    const selection = selectEvidence(pointView(all, POLICY), { asOf: NOW }, POLICY)
    expect(selection.cell.n).toBe(40)
    expect(selection.changeTest).toBeNull()
  })

  it('counts the recent choices of a long history exactly, from the moments each tally keeps', () => {
    // 300 older choices of S (their moments folded into the decayed tail), then 8 recent of L.
    const older = Array.from({ length: 300 }, (_, i) => observation(i, 'Tier S', 40 + i))
    const recent = Array.from({ length: 8 }, (_, i) => observation(1000 + i, 'Tier L', 1 + i))
    const selection = selectEvidence(pointView([...older, ...recent], POLICY), { asOf: NOW }, POLICY)
    expect(selection.changeTest).toMatchObject({ recent: 8, older: 300 })
    expect(selection.cell.n).toBe(8)
  })

  it('keeps testing when the new choice fills the moments its tally keeps: the window shortens to where counts are exact', () => {
    // A long history of S, then L chosen 24 times in the last 24 days, and also before: more L in
    // the window than its tally keeps exactly (16). Left untested, decay lets the 200 older S
    // outvote the new preference again within weeks of the change.
    const older = Array.from({ length: 200 }, (_, i) => observation(i, 'Tier S', 40 + i))
    const olderL = Array.from({ length: 3 }, (_, i) => observation(500 + i, 'Tier L', 60 + i * 20))
    const recent = Array.from({ length: 24 }, (_, i) => observation(1000 + i, 'Tier L', 0.5 + i))
    const view = pointView([...older, ...olderL, ...recent], POLICY)
    const selection = selectEvidence(view, { asOf: NOW }, POLICY)
    expect(selection.changeTest).not.toBeNull()
    // The 15 newest L are all the window can count exactly (the 16th newest is the oldest kept).
    expect(selection.changeTest).toMatchObject({ recent: 15, older: 212 })
    expect(selection.cell.n).toBe(15)
    expect([...selection.cell.tallies.keys()]).toEqual([JSON.stringify(['Tier L'])])
  })

  it('counts every choice of an option switched to and kept to, once it is older than the window', () => {
    // A month of S every day, then L every day since: 60 and 100 days after the switch. The
    // window shortened to L's 16 kept moments counted 15 of them, `partial` and asked every day;
    // and from about day 79 on those 15 no longer differed from L's older choices, so the 30 old S
    // held the point under auto_resolve_p for months.
    for (const days of [60, 100]) {
      const older = Array.from({ length: 30 }, (_, i) => observation(i, 'Tier S', days + 30 - i))
      const since = Array.from({ length: days }, (_, i) => observation(1000 + i, 'Tier L', days - 1 - i + 0.5))
      const selection = selectEvidence(pointView([...older, ...since], POLICY), { asOf: NOW }, POLICY)
      expect(selection.changeTest).toMatchObject({ recent: days, older: 30, since: since[0]!.timestamp })
      expect(selection.cell.n).toBe(days)
      expect([...selection.cell.tallies.keys()]).toEqual([JSON.stringify(['Tier L'])])
    }
  })

  it('counts a new choice whole when it was first made within the window, however often', () => {
    // 1,000 choices of S two months ago, then L chosen 20 times in the last day and never before:
    // every L is recent (its first moment says so), so none is set aside for want of exact moments.
    const older = Array.from({ length: 1000 }, (_, i) => observation(i, 'Tier S', 60 + i / 1000))
    const spread = Array.from({ length: 20 }, (_, i) => observation(2000 + i, 'Tier L', 1 - i / 100))
    const selection = selectEvidence(pointView([...older, ...spread], POLICY), { asOf: NOW }, POLICY)
    // The window is the 28 days up to the newest L (0.81 days old).
    expect(selection.changeTest).toMatchObject({ recent: 20, older: 1000, since: new Date(NOW.getTime() - (28 + 0.81) * DAY).toISOString() })
    expect(selection.cell.n).toBe(20)
    // The same 20 stored at one moment (a batch sent without timestamps takes one): the window used
    // to start just after that moment, leaving none of them, and the 1,000 older S decided.
    const batch = Array.from({ length: 20 }, (_, i) => observation(3000 + i, 'Tier L', 1))
    const atOnce = selectEvidence(pointView([...older, ...batch], POLICY), { asOf: NOW }, POLICY)
    expect(atOnce.changeTest).toMatchObject({ recent: 20, older: 1000 })
    expect([...atOnce.cell.tallies.keys()]).toEqual([JSON.stringify(['Tier L'])])
  })

  it('does not take one choice of another option for a change of preference (an expected count below 1)', () => {
    // 95 choices of S over half a year, 5 more in the last month, then one of L: Pearson's p is
    // 0.00006 here, which set the 95 aside and recommended L from 6 choices; the exact p is 0.06.
    const older = Array.from({ length: 95 }, (_, i) => observation(i, 'Tier S', 30 + i * 1.8))
    const lately = Array.from({ length: 5 }, (_, i) => observation(200 + i, 'Tier S', 23 + i))
    const one = observation(300, 'Tier L', 0.01)
    const selection = selectEvidence(pointView([...older, ...lately, one], POLICY), { asOf: NOW }, POLICY)
    expect(selection.changeTest).toBeNull()
    expect(selection.cell.n).toBe(101)
  })

  it('does not take a run of one heavy sitting for a change of preference, but follows one kept to for 3 days', () => {
    // 20 choices a day, one sitting a day, for 60 days: Tier L, except every tenth day all Tier S.
    // At that rate the 16 moments S keeps exactly are one day's, and the window shortened to them
    // tested a day or two of S against 1,200 older choices: a change every such day.
    const at = (day: number, i: number) => 61 - day - (8 + i / 2) / 24
    const days = (first: number, last: number, pick: (day: number) => string) =>
      Array.from({ length: last - first + 1 }, (_, k) => first + k).flatMap((day) =>
        Array.from({ length: 20 }, (_, i) => observation(day * 100 + i, pick(day), at(day, i))),
      )
    const history = days(0, 59, (day) => (day % 10 === 4 ? 'Tier S' : 'Tier L'))
    for (const run of [1, 2]) {
      const heavy = days(60 - run + 1, 60, () => 'Tier S')
      const kept = history.filter((o) => Date.parse(o.timestamp) < Date.parse(heavy[0]!.timestamp))
      const selection = selectEvidence(pointView([...kept, ...heavy], POLICY), { asOf: NOW }, POLICY)
      expect(selection.changeTest).toBeNull()
      expect(selection.cell.n).toBe(1220)
    }
    // Kept to for 4 days (L last chosen 4 days before the newest S, 3 at the least): a change, the
    // recent S counted.
    const switched = [...history.filter((o) => Date.parse(o.timestamp) < NOW.getTime() - (61 - 57) * DAY), ...days(57, 60, () => 'Tier S')]
    const selection = selectEvidence(pointView(switched, POLICY), { asOf: NOW }, POLICY)
    expect(selection.changeTest).toMatchObject({ recent: 15 })
    expect([...selection.cell.tallies.keys()]).toEqual([JSON.stringify(['Tier S'])])
    // Kept to for 5 days but for one stray Tier L two days before the newest S: still a change.
    const stray = observation(9_999, 'Tier L', 2)
    const strayed = [...history.filter((o) => Date.parse(o.timestamp) < NOW.getTime() - (61 - 56) * DAY), ...days(56, 60, () => 'Tier S'), stray]
    const kept = selectEvidence(pointView(strayed, POLICY), { asOf: NOW }, POLICY)
    expect(kept.changeTest).not.toBeNull()
    expect([...kept.cell.tallies.keys()]).toEqual([JSON.stringify(['Tier S'])])
  })

  it('does not test with fewer than N recent observations', () => {
    const older = Array.from({ length: 30 }, (_, i) => observation(i, 'Tier S', 40 + i))
    const recent = Array.from({ length: 4 }, (_, i) => observation(100 + i, 'Tier L', 1 + i))
    expect(selectEvidence(pointView([...older, ...recent], POLICY), { asOf: NOW }, POLICY).changeTest).toBeNull()
  })
})

describe('selectEvidence: context backoff with several keys (R-REC-7)', () => {
  // phase=run: 5 × Tier S; phase=plan: 2 × Tier S, 3 × Tier L. Pearson's p = 0.038 for phase;
  // workflow is unrelated to the choice.
  const spec: Array<[string, string, string]> = [
    ['Tier S', 'run', 'feature'],
    ['Tier S', 'run', 'feature'],
    ['Tier S', 'run', 'feature'],
    ['Tier S', 'run', 'bugfix'],
    ['Tier S', 'run', 'bugfix'],
    ['Tier S', 'plan', 'feature'],
    ['Tier S', 'plan', 'bugfix'],
    ['Tier L', 'plan', 'feature'],
    ['Tier L', 'plan', 'feature'],
    ['Tier L', 'plan', 'bugfix'],
  ]
  const all = spec.map(([chosen, phase, workflow], i) =>
    observation(i, chosen, 0, { phase, workflow }),
  )

  it('narrows to the context value when its one test is significant at 0.05', () => {
    const selection = selectEvidence(pointView(all, POLICY), { asOf: NOW, context: { phase: 'run' } }, POLICY)
    expect(selection.contextKey).toBe('phase')
    expect(selection.cell.n).toBe(5)
    expect(selection.contextTest?.p_value).toBeGreaterThan(0.025)
  })

  it('divides the level by the number of keys tested, so a second key makes p = 0.038 not enough', () => {
    const selection = selectEvidence(
      pointView(all, POLICY),
      { asOf: NOW, context: { phase: 'run', workflow: 'feature' } },
      POLICY,
    )
    expect(selection.contextKey).toBeNull()
    expect(selection.cell.n).toBe(10)
  })
})

describe('selectEvidence: the context decides first, the change test runs within it (R-REC-7, R-MEM-5)', () => {
  // 30 choices of Tier S in phase run 40 to 55 days ago; then recent choices of Tier L made in
  // other phases. A request in phase run asks about the choices made in phase run.
  const older = Array.from({ length: 30 }, (_, i) => observation(i, 'Tier S', 40 + i / 2, { phase: 'run' }))

  it('keeps the choices of the requested context when the recent ones were made in another (8 recent)', () => {
    const recent = Array.from({ length: 8 }, (_, i) => observation(100 + i, 'Tier L', 1 + i, { phase: 'plan' }))
    const selection = selectEvidence(pointView([...older, ...recent], POLICY), { asOf: NOW, context: { phase: 'run' } }, POLICY)
    expect(selection.contextKey).toBe('phase')
    expect(selection.contextValue).toBe('run')
    expect(selection.changeTest).toBeNull()
    expect(selection.cell.n).toBe(30)
    expect([...selection.cell.tallies.keys()]).toEqual([JSON.stringify(['Tier S'])])
  })

  it('keeps them too when the recent choices are many, in several other contexts (25 recent)', () => {
    const recent = Array.from({ length: 25 }, (_, i) =>
      observation(100 + i, 'Tier L', 1 + i, { phase: i % 2 === 0 ? 'plan' : 'review' }),
    )
    const selection = selectEvidence(pointView([...older, ...recent], POLICY), { asOf: NOW, context: { phase: 'run' } }, POLICY)
    expect(selection).toMatchObject({ contextKey: 'phase', contextValue: 'run', changeTest: null })
    expect(selection.cell.n).toBe(30)
  })

  it('still follows a change of preference within the requested context', () => {
    // In phase run, Tier S for months, then Tier L in the last weeks; phase plan always Tier L.
    const plan = Array.from({ length: 20 }, (_, i) => observation(200 + i, 'Tier L', 30 + i * 3, { phase: 'plan' }))
    const recent = Array.from({ length: 8 }, (_, i) => observation(100 + i, 'Tier L', 1 + i, { phase: 'run' }))
    const selection = selectEvidence(
      pointView([...older, ...plan, ...recent], POLICY),
      { asOf: NOW, context: { phase: 'run' } },
      POLICY,
    )
    expect(selection.contextKey).toBe('phase')
    expect(selection.changeTest).toMatchObject({ recent: 8, older: 30 })
    expect(selection.cell.n).toBe(8)
    expect(selection.basis.n).toBe(38)
    expect([...selection.cell.tallies.keys()]).toEqual([JSON.stringify(['Tier L'])])
  })

  it('follows a change of preference over the whole scope when the few recent choices in the requested context went with it', () => {
    // 20 × Tier S in phase run two months ago, 8 × Tier L in phase plan a week ago, 2 × Tier L in
    // phase run two days ago: over the whole history phase run differs from the rest (the older
    // choices were made there), but every choice of the last month was Tier L, the two in phase
    // run too. Two are too few to test a change within phase run.
    const run = Array.from({ length: 20 }, (_, i) => observation(i, 'Tier S', 60 + i / 4, { phase: 'run' }))
    const plan = Array.from({ length: 8 }, (_, i) => observation(100 + i, 'Tier L', 7 + i / 8, { phase: 'plan' }))
    const lately = Array.from({ length: 2 }, (_, i) => observation(200 + i, 'Tier L', 2 + i / 8, { phase: 'run' }))
    const selection = selectEvidence(pointView([...run, ...plan, ...lately], POLICY), { asOf: NOW, context: { phase: 'run' } }, POLICY)
    expect(selection.contextKey).toBeNull()
    expect(selection.changeTest).toMatchObject({ recent: 10, older: 20 })
    expect(selection.contextJoinedChange).toEqual({ key: 'phase', value: 'run', recent: 2 })
    expect(selection.cell.n).toBe(10)
    expect([...selection.cell.tallies.keys()]).toEqual([JSON.stringify(['Tier L'])])
  })

  it('keeps the requested context when its few recent choices went with its older ones', () => {
    const run = Array.from({ length: 20 }, (_, i) => observation(i, 'Tier S', 60 + i / 4, { phase: 'run' }))
    const plan = Array.from({ length: 8 }, (_, i) => observation(100 + i, 'Tier L', 7 + i / 8, { phase: 'plan' }))
    const lately = Array.from({ length: 2 }, (_, i) => observation(200 + i, 'Tier S', 2 + i / 8, { phase: 'run' }))
    const selection = selectEvidence(pointView([...run, ...plan, ...lately], POLICY), { asOf: NOW, context: { phase: 'run' } }, POLICY)
    expect(selection).toMatchObject({ contextKey: 'phase', contextValue: 'run', changeTest: null, contextJoinedChange: null })
    expect(selection.cell.n).toBe(22)
    expect([...selection.cell.tallies.keys()]).toEqual([JSON.stringify(['Tier S'])])
  })

  it('follows a change of preference made in every context alike, the context making no difference', () => {
    const spread = Array.from({ length: 30 }, (_, i) => observation(i, 'Tier S', 40 + i * 3, { phase: i % 2 === 0 ? 'run' : 'plan' }))
    const recent = Array.from({ length: 8 }, (_, i) => observation(100 + i, 'Tier L', 1 + i, { phase: i % 2 === 0 ? 'run' : 'plan' }))
    const selection = selectEvidence(pointView([...spread, ...recent], POLICY), { asOf: NOW, context: { phase: 'run' } }, POLICY)
    expect(selection.contextKey).toBeNull()
    expect(selection.changeTest).toMatchObject({ recent: 8, older: 30 })
    expect(selection.cell.n).toBe(8)
  })
})
