import { afterEach, describe, expect, it } from 'vitest'
import { observation } from '../../test/support/observations'
import type { MemoryStore, SessionRecord } from './store'

/** One suite for every MemoryStore backend (STYLE: abstract-level's way). */
export function storeSuite(name: string, open: () => Promise<MemoryStore>) {
  describe(`MemoryStore on ${name}`, () => {
    let store: MemoryStore | undefined
    afterEach(async () => {
      await store?.close()
      store = undefined
    })

    function session(partial: Partial<SessionRecord> = {}): SessionRecord {
      return { session_id: 's-1', user: 'alice', project: null, started_at: '2026-07-01T10:00:00.000Z', personalization: true, ...partial }
    }

    it('stores observations and reads them back by user and point, oldest first', async () => {
      store = await open()
      const a = observation({ chosen: ['Tier M'], timestamp: '2026-07-02T00:00:00.000Z' })
      const b = observation({ chosen: ['Tier S'], timestamp: '2026-07-01T00:00:00.000Z' })
      const elsewhere = observation({ chosen: ['Tier S'], point: 'tier-2' })
      const bob = observation({ chosen: ['Tier L'], user: 'bob' })
      const result = await store.addObservations([a, b, elsewhere, bob], [])
      expect(result.stored).toHaveLength(4)
      expect((await store.observationsAt('alice', 'tier')).map((o) => o.id)).toEqual([b.id, a.id])
      expect((await store.observationsAt('alice', 'tier', new Date('2026-07-01T12:00:00.000Z'))).map((o) => o.id)).toEqual([b.id])
      expect((await store.latestAt('alice', 'tier', 1)).map((o) => o.id)).toEqual([a.id])
      expect((await store.latestAt('alice', 'tier', 5)).map((o) => o.id)).toEqual([a.id, b.id])
      const all: string[] = []
      for await (const o of store.observationsOf('alice')) all.push(o.id)
      expect(all.sort()).toEqual([a.id, b.id, elsewhere.id].sort())
    })

    it("finds the user's latest own choice at a point, up to a moment, past the service's own answers", async () => {
      store = await open()
      const a = observation({ chosen: ['Lint'], multi_select: true, timestamp: '2026-07-01T00:00:00.000Z' })
      const b = observation({ chosen: ['Lint'], timestamp: '2026-07-02T00:00:00.000Z' })
      const auto = observation({ chosen: ['Lint'], source: 'auto-resolved', timestamp: '2026-07-03T00:00:00.000Z' })
      await store.addObservations([a, b, auto, observation({ chosen: ['Lint'], point: 'tier-x', timestamp: '2026-07-04T00:00:00.000Z' })], [])
      expect((await store.latestChoiceAt('alice', 'tier', undefined, 10))?.id).toBe(b.id)
      expect((await store.latestChoiceAt('alice', 'tier', new Date('2026-07-01T00:00:00.000Z'), 10))?.id).toBe(a.id)
      expect(await store.latestChoiceAt('alice', 'tier', new Date('2026-06-30T00:00:00.000Z'), 10)).toBeUndefined()
      // Looked for among the latest `within` only.
      expect(await store.latestChoiceAt('alice', 'tier', undefined, 1)).toBeUndefined()
      expect(await store.latestChoiceAt('bob', 'tier', undefined, 10)).toBeUndefined()
    })

    it("tells how the user's latest own choice at a point was asked, from core as from archival", async () => {
      store = await open()
      const a = observation({ chosen: ['Lint'], multi_select: true, timestamp: '2026-07-01T00:00:00.000Z' })
      const b = observation({ chosen: ['Lint'], multi_select: false, timestamp: '2026-07-02T00:00:00.000Z' })
      const auto = observation({ chosen: ['Lint'], multi_select: true, source: 'auto-resolved', timestamp: '2026-07-03T00:00:00.000Z' })
      await store.addObservations([a, b, auto], [])
      const asked = async (at: string) => store?.latestMultiSelectAt('alice', 'tier', new Date(at))
      const expected = [false, true, undefined]
      const moments = ['2026-07-04T00:00:00.000Z', '2026-07-01T12:00:00.000Z', '2026-06-30T00:00:00.000Z']
      // Not in core: from archival.
      expect(await Promise.all(moments.map(asked))).toEqual(expected)
      await store.readPoint('alice', 'tier', new Date(moments[0] as string), () => null)
      expect(await store.inCore('alice', 'tier')).toBe(true)
      // In core: the same, from core up to its newest moment, and from archival before it.
      expect(await Promise.all(moments.map(asked))).toEqual(expected)
      // A choice waiting in core to be counted is the latest.
      await store.addObservations([observation({ chosen: ['Lint', 'Test'], multi_select: true, timestamp: '2026-07-03T12:00:00.000Z' })], [])
      expect(await asked('2026-07-04T00:00:00.000Z')).toBe(true)
      expect(await store.latestMultiSelectAt('bob', 'tier', new Date(moments[0] as string))).toBeUndefined()
    })

    it("keeps telling the user's latest own choice at a point in core through the writes after it, as archival tells it", async () => {
      store = await open()
      const s = store
      await s.addObservations([observation({ chosen: ['Lint', 'Test'], multi_select: true, timestamp: '2026-07-01T00:00:00.000Z' })], [])
      await s.readPoint('alice', 'tier', new Date('2026-07-01T00:00:00.000Z'), () => null)
      const now = new Date('2026-07-09T00:00:00.000Z')
      const asked = () => s.latestMultiSelectAt('alice', 'tier', now)
      expect(await asked()).toBe(true)
      // Each write after it, a read between: an older choice, the service's own answer, then a newer choice; and at one instant, the later recorded.
      const writes: Array<[ReturnType<typeof observation>, boolean]> = [
        [observation({ chosen: ['Lint'], multi_select: false, timestamp: '2026-06-30T00:00:00.000Z' }), true],
        [observation({ chosen: ['Lint'], multi_select: false, source: 'auto-resolved', timestamp: '2026-07-02T00:00:00.000Z' }), true],
        [observation({ chosen: ['Lint'], multi_select: false, timestamp: '2026-07-03T00:00:00.000Z' }), false],
        [observation({ chosen: ['Lint', 'Test'], multi_select: true, timestamp: '2026-07-03T00:00:00.000Z' }), true],
      ]
      for (const [o, flag] of writes) {
        await s.addObservations([o], [])
        expect(await asked(), o.id).toBe(flag)
        // As of a moment before the newest: archival up to it.
        expect(await s.latestMultiSelectAt('alice', 'tier', new Date('2026-07-01T12:00:00.000Z'))).toBe(true)
      }
      // Enough to fold the waiting ones into the cells: the same.
      for (let i = 0; i < 40; i++) await s.addObservations([observation({ chosen: ['Lint'], multi_select: false, source: 'auto-resolved', timestamp: '2026-07-04T00:00:00.000Z' })], [])
      expect(await asked()).toBe(true)
      // After the decay scan (which demotes what is over capacity, rebuilds what was built otherwise): the same.
      await s.maintainCore(new Date('2027-07-01T00:00:00.000Z'))
      expect(await asked()).toBe(true)
      await s.addObservations([observation({ chosen: ['Lint'], multi_select: false, timestamp: '2026-07-05T00:00:00.000Z' })], [])
      expect(await asked()).toBe(false)
      await s.forgetUser('alice')
      expect(await asked()).toBeUndefined()
    })

    it('does not let a point name that prefixes another leak into it', async () => {
      store = await open()
      await store.addObservations([observation({ chosen: ['Tier M'], point: 'tier' }), observation({ chosen: ['Tier M'], point: 'tier-x' })], [])
      expect(await store.observationsAt('alice', 'tier')).toHaveLength(1)
    })

    it('closes once the writes already asked for are done: each is stored, none finds the store closed', async () => {
      store = await open()
      const s = store
      const writes = Array.from({ length: 5 }, (_, i) => s.addObservations([observation({ chosen: ['Tier M'], decision_id: `c-${i}` })], []))
      const closing = s.close()
      const results = await Promise.all(writes)
      await closing
      expect(results.flatMap((r) => r.stored)).toHaveLength(5)
    })

    it('stores a decision_id once per user, within a batch and across batches', async () => {
      store = await open()
      const first = await store.addObservations(
        [observation({ chosen: ['Tier M'], decision_id: 'd-1' }), observation({ chosen: ['Tier S'], decision_id: 'd-1' })],
        [],
      )
      expect(first.stored).toHaveLength(1)
      expect(first.duplicates).toEqual(['d-1'])
      const again = await store.addObservations([observation({ chosen: ['Tier L'], decision_id: 'd-1' })], [])
      expect(again.stored).toHaveLength(0)
      expect(again.duplicates).toEqual(['d-1'])
      const bob = await store.addObservations([observation({ chosen: ['Tier L'], decision_id: 'd-1', user: 'bob' })], [])
      expect(bob.stored).toHaveLength(1)
      expect(await store.observationsAt('alice', 'tier')).toHaveLength(1)
      // Which are held, per user, in the order asked; forgotten with the user.
      expect(await store.holdsDecisionIds('alice', ['d-2', 'd-1'])).toEqual([false, true])
      expect(await store.holdsDecisionIds('carol', ['d-1'])).toEqual([false])
      expect(await store.holdsDecisionIds('alice', [])).toEqual([])
      await store.forgetUser('alice')
      expect(await store.holdsDecisionIds('alice', ['d-1'])).toEqual([false])
      expect(await store.holdsDecisionIds('bob', ['d-1'])).toEqual([true])
    })

    it('starts no session, nor moves one back, for an observation that is a duplicate (a retry under another session)', async () => {
      store = await open()
      const first = observation({ chosen: ['Tier M'], decision_id: 'd-1', session_id: 's-1', timestamp: '2026-07-01T10:00:00.000Z' })
      await store.addObservations([first], [session({ session_id: 's-1', started_at: first.timestamp })])
      const retry = observation({ chosen: ['Tier M'], decision_id: 'd-1', session_id: 's-2', timestamp: '2026-07-01T10:00:00.000Z' })
      expect((await store.addObservations([retry], [session({ session_id: 's-2', started_at: retry.timestamp })])).duplicates).toEqual(['d-1'])
      expect(await store.countSessions('alice')).toBe(1)
      expect(await store.getSession('alice', 's-2')).toBeUndefined()
      // A duplicate sent earlier than its session's start does not move the start back.
      await store.addObservations([observation({ chosen: ['Tier S'], decision_id: 'd-2', session_id: 's-3', timestamp: '2026-07-05T00:00:00.000Z' })], [session({ session_id: 's-3', started_at: '2026-07-05T00:00:00.000Z' })])
      const early = observation({ chosen: ['Tier S'], decision_id: 'd-2', session_id: 's-3', timestamp: '2026-07-04T00:00:00.000Z' })
      await store.addObservations([early], [session({ session_id: 's-3', started_at: early.timestamp })])
      expect(await store.getSession('alice', 's-3')).toMatchObject({ started_at: '2026-07-05T00:00:00.000Z' })
      expect(await store.countSessions('alice')).toBe(2)
      // Written together (one group commit or two), a start of its own still starts the session
      // a duplicate names.
      const s = store
      await Promise.all([
        s.addObservations([observation({ chosen: ['Tier M'], decision_id: 'd-1', session_id: 's-4' })], [session({ session_id: 's-4' })]),
        s.addObservations([], [session({ session_id: 's-4' })]),
      ])
      expect(await store.countSessions('alice')).toBe(3)
    })

    it('counts every one of many concurrent writes with the same decision_id once', async () => {
      store = await open()
      const s = store
      const results = await Promise.all(
        Array.from({ length: 20 }, () => s.addObservations([observation({ chosen: ['Tier M'], decision_id: 'same' })], [])),
      )
      expect(results.reduce((n, r) => n + r.stored.length, 0)).toBe(1)
      expect(await s.observationsAt('alice', 'tier')).toHaveLength(1)
    })

    it('answers each of many concurrent calls with its own observations, and starts their shared session once', async () => {
      store = await open()
      const s = store
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          s.addObservations(
            [observation({ chosen: ['Tier M'], decision_id: `d-${i}` }), observation({ chosen: ['Tier S'], decision_id: `d-${i % 3}` })],
            [session({ session_id: 'shared', started_at: `2026-07-01T10:00:0${i}.000Z` })],
          ),
        ),
      )
      results.forEach((result, i) => {
        expect(result.stored[0]?.decision_id).toBe(`d-${i}`)
        expect(result.stored.length + result.duplicates.length).toBe(2)
      })
      expect(results.reduce((n, r) => n + r.stored.length, 0)).toBe(10)
      expect(await s.observationsAt('alice', 'tier')).toHaveLength(10)
      expect(await s.countSessions('alice')).toBe(1)
      // The session starts at the earliest moment the calls name (here the first call's).
      expect(await s.getSession('alice', 'shared')).toMatchObject({ started_at: '2026-07-01T10:00:00.000Z' })
    })

    it('starts sessions once, counts them up to a time, and finds their owners', async () => {
      store = await open()
      expect((await store.startSession(session())).created).toBe(true)
      expect((await store.startSession(session({ personalization: false }))).created).toBe(false)
      // A start sent late, earlier than the one stored, moves the session's start back, and counts nothing twice.
      const late = await store.startSession(session({ started_at: '2026-06-30T09:00:00.000Z' }))
      expect(late).toMatchObject({ created: false, session: { started_at: '2026-06-30T09:00:00.000Z', personalization: true } })
      expect(await store.countSessions('alice', new Date('2026-06-30T12:00:00.000Z'))).toBe(1)
      await store.startSession(session({ started_at: '2026-07-01T10:00:00.000Z' }))
      expect(await store.getSession('alice', 's-1')).toMatchObject({ started_at: '2026-06-30T09:00:00.000Z' })
      // One sent later still, naming its folder, gives the session that folder too; a later one does not.
      await store.startSession(session({ started_at: '2026-06-30T08:00:00.000Z', project: '/home/dev/projC' }))
      await store.startSession(session({ started_at: '2026-06-30T08:30:00.000Z', project: '/home/dev/other' }))
      expect(await store.getSession('alice', 's-1')).toMatchObject({ started_at: '2026-06-30T08:00:00.000Z', project: '/home/dev/projC' })
      await store.startSession(session({ started_at: '2026-06-30T07:00:00.000Z' }))
      expect(await store.getSession('alice', 's-1')).toMatchObject({ started_at: '2026-06-30T07:00:00.000Z', project: '/home/dev/projC' })
      await store.addObservations([], [session({ session_id: 's-2', started_at: '2026-07-03T00:00:00.000Z' }), session({ session_id: 's-1', user: 'bob' })])
      expect(await store.countSessions('alice')).toBe(2)
      expect(await store.countSessions('alice', new Date('2026-07-02T00:00:00.000Z'))).toBe(1)
      expect((await store.sessionOwners('s-1')).sort()).toEqual(['alice', 'bob'])
      expect(await store.getSession('alice', 's-1')).toMatchObject({ personalization: true })
    })

    it('sets personalization on one session only', async () => {
      store = await open()
      await store.startSession(session())
      await store.startSession(session({ session_id: 's-2' }))
      expect(await store.setPersonalization('alice', 's-1', false, '2026-07-02T00:00:00.000Z')).toMatchObject({ personalization: false, toggles: [{ at: '2026-07-02T00:00:00.000Z', enabled: false }] })
      expect(await store.getSession('alice', 's-2')).toMatchObject({ personalization: true })
      // No setting given flips the one the session has when the write is made.
      expect(await store.setPersonalization('alice', 's-1', undefined, '2026-07-03T00:00:00.000Z')).toMatchObject({ personalization: true, toggles: [{ enabled: false }, { at: '2026-07-03T00:00:00.000Z', enabled: true }] })
      expect(await store.setPersonalization('alice', 'nope', false, '2026-07-02T00:00:00.000Z')).toBeUndefined()
      // A setting the session already has is no change, and keeps no entry, however often it is sent.
      for (const day of ['04', '05', '06']) await store.setPersonalization('alice', 's-1', true, `2026-07-${day}T00:00:00.000Z`)
      expect((await store.getSession('alice', 's-1'))?.toggles).toEqual([
        { at: '2026-07-02T00:00:00.000Z', enabled: false },
        { at: '2026-07-03T00:00:00.000Z', enabled: true },
      ])
      await store.setPersonalization('alice', 's-2', true, '2026-07-04T00:00:00.000Z')
      expect(await store.getSession('alice', 's-2')).toMatchObject({ personalization: true, toggles: [] })
    })

    it('keeps a session turned off before toggles were kept off from its start, under its first kept toggle', async () => {
      store = await open()
      // As a store written before toggles were kept holds a session turned off: off, no toggles.
      await store.startSession(session({ personalization: false }))
      expect((await store.setPersonalization('alice', 's-1', true, '2026-07-02T00:00:00.000Z'))?.toggles).toEqual([
        { at: '2026-07-01T10:00:00.000Z', enabled: false },
        { at: '2026-07-02T00:00:00.000Z', enabled: true },
      ])
    })

    it("moves a user's changes with every write that may change their answers, and not with reads", async () => {
      store = await open()
      const s = store
      const moved = async (user: string, write: () => Promise<unknown>) => {
        const before = s.changesOf(user)
        await write()
        return s.changesOf(user) !== before
      }
      expect(await moved('alice', () => s.addObservations([observation({ chosen: ['Tier M'] })], []))).toBe(true)
      expect(await moved('alice', () => s.startSession(session()))).toBe(true)
      expect(await moved('alice', () => s.startSession(session()))).toBe(false)
      expect(await moved('alice', () => s.setPersonalization('alice', 's-1', false, '2026-07-02T00:00:00.000Z'))).toBe(true)
      expect(await moved('alice', () => s.expireRecall(new Date('2026-07-01T00:00:00.000Z')))).toBe(true)
      expect(await moved('alice', () => s.forgetUser('alice'))).toBe(true)
      expect(await moved('alice', () => s.readPoint('alice', 'tier', new Date('2026-07-03T00:00:00.000Z'), () => null))).toBe(false)
      expect(await moved('alice', () => s.countSessions('alice'))).toBe(false)
    })

    it("remembers where questions were planned per user, drops them when used or once stale, and forgets them with the user", async () => {
      store = await open()
      await store.rememberPlannedPoints('alice', [{ decision_id: 'toolu_1#a', point: 'q-1' }, { decision_id: 'toolu_1#b', point: 'q-2' }], '2026-07-01T00:00:00.000Z')
      await store.rememberPlannedPoints('bob', [{ decision_id: 'toolu_1#a', point: 'q-9' }], '2026-07-03T00:00:00.000Z')
      expect(await store.plannedPointsOf('alice', ['toolu_1#b', 'toolu_2#a', 'toolu_1#a'])).toEqual(['q-2', undefined, 'q-1'])
      expect(await store.plannedPointsOf('bob', ['toolu_1#a'])).toEqual(['q-9'])
      // Where a question was planned changes none of the user's answers: no change is counted.
      const before = store.changesOf('alice')
      await store.dropPlannedPoints('alice', ['toolu_1#a'])
      expect(store.changesOf('alice')).toBe(before)
      expect(await store.plannedPointsOf('alice', ['toolu_1#a', 'toolu_1#b'])).toEqual([undefined, 'q-2'])
      // The ones planned before the cutoff only.
      expect(await store.expirePlannedPoints(new Date('2026-07-02T00:00:00.000Z'))).toBe(1)
      expect(await store.plannedPointsOf('alice', ['toolu_1#b'])).toEqual([undefined])
      expect(await store.plannedPointsOf('bob', ['toolu_1#a'])).toEqual(['q-9'])
      expect((await store.forgetUser('bob')).deleted).toBe(1)
      expect(await store.plannedPointsOf('bob', ['toolu_1#a'])).toEqual([undefined])
    })

    it("remembers where questions shown with options taken out were planned per user, renews them when planned again, drops them once stale, and forgets them with the user", async () => {
      store = await open()
      await store.rememberShownPoints('alice', [{ shown: 'q-2', point: 'q-3' }, { shown: 'q-4', point: 'q-5' }], '2026-07-01T00:00:00.000Z')
      await store.rememberShownPoints('bob', [{ shown: 'q-2', point: 'q-9' }], '2026-07-03T00:00:00.000Z')
      expect(await store.shownPointsOf('alice', ['q-4', 'q-3', 'q-2'])).toEqual(['q-5', undefined, 'q-3'])
      expect(await store.shownPointsOf('bob', ['q-2'])).toEqual(['q-9'])
      // Where a question was planned changes none of the user's answers: no change is counted.
      const before = store.changesOf('alice')
      // Planned again later: its time is renewed, and the scan keeps it.
      await store.rememberShownPoints('alice', [{ shown: 'q-4', point: 'q-5' }], '2026-07-03T00:00:00.000Z')
      expect(store.changesOf('alice')).toBe(before)
      expect(await store.expireShownPoints(new Date('2026-07-02T00:00:00.000Z'))).toBe(1)
      expect(await store.shownPointsOf('alice', ['q-2', 'q-4'])).toEqual([undefined, 'q-5'])
      expect(await store.shownPointsOf('bob', ['q-2'])).toEqual(['q-9'])
      expect((await store.forgetUser('bob')).deleted).toBe(1)
      expect(await store.shownPointsOf('bob', ['q-2'])).toEqual([undefined])
      expect(await store.shownPointsOf('alice', ['q-4'])).toEqual(['q-5'])
    })
  })
}
