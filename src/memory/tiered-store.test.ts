import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Level } from 'level'
import { MemoryLevel } from 'memory-level'
import { afterEach, describe, expect, it } from 'vitest'
import { aggregateObservations, cellKey, cellsOf, chosenLastOf, emptyCell, storedCell, type PointView } from '../domain/aggregate'
import type { Observation } from '../domain/observation'
import { createLevelStore, type TierPolicy } from './level-store'
import { InstrumentedLevel } from '../../test/support/instrumented-level'
import type { MemoryStore } from './store'

const T0 = Date.parse('2026-07-01T10:00:00Z')
const DAY = 86_400_000
const POLICY: TierPolicy = { decay: { alpha: 0.5 }, context: { precondition_share: 0.8 }, core: { max_entries: 10 } }

let serial = 0
function observation(fields: Partial<Observation> & { at: number; choice: string }): Observation {
  const { at, choice, ...rest } = fields
  return {
    id: `obs-${String(serial++).padStart(6, '0')}`,
    user: 'alice',
    project: null,
    session_id: null,
    point: 'tier',
    decision_id: null,
    timestamp: new Date(at).toISOString(),
    recorded_at: new Date(at).toISOString(),
    question: 'Which tier?',
    header: null,
    options: ['S', 'M', 'L'],
    chosen: [choice],
    other: null,
    multi_select: false,
    context: {},
    source: 'user',
    ...rest,
  }
}

/** The scope cell's count per choice, as the core tier serves it. */
function countsIn(memory: PointView): Record<string, number> {
  const [all] = memory.cells([cellKey.scope(null)])
  return Object.fromEntries([...(all?.tallies ?? [])].map(([category, tally]) => [category, tally.n]))
}

/** A store on `db` whose point alice/tier is in core, counting one choice of M at T0. */
async function aliceInCore(db: MemoryLevel<string, string>): Promise<MemoryStore> {
  const store = await createLevelStore(db as never, { policy: POLICY })
  await store.addObservations([observation({ at: T0, choice: 'M' })], [])
  await store.readPoint('alice', 'tier', new Date(T0), countsIn)
  return store
}

/** One suite, run against every backend (STYLE 2). */
const backends: Array<[string, (policy: TierPolicy) => Promise<{ store: MemoryStore; cleanup(): Promise<void> }>]> = [
  [
    'memory-level',
    async (policy) => {
      const store = await createLevelStore(new MemoryLevel<string, string>() as never, { policy })
      return { store, cleanup: () => store.close() }
    },
  ],
  [
    'classic-level',
    async (policy) => {
      const dir = await mkdtemp(join(tmpdir(), 'dm-store-'))
      const store = await createLevelStore(new Level<string, string>(dir) as never, { policy })
      return {
        store,
        async cleanup() {
          await store.close()
          await rm(dir, { recursive: true, force: true })
        },
      }
    },
  ],
]

describe.each(backends)('the tiers of the store on %s', (_name, open) => {
  const opened: Array<{ cleanup(): Promise<void> }> = []
  async function storeWith(policy = POLICY) {
    const handle = await open(policy)
    opened.push(handle)
    return handle.store
  }
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((h) => h.cleanup()))
  })

  it('puts a point in core on first use, then counts new observations there', async () => {
    const store = await storeWith()
    await store.addObservations([observation({ at: T0, choice: 'M' }), observation({ at: T0, choice: 'S' })], [])
    expect(await store.inCore('alice', 'tier')).toBe(false)
    expect(await store.readPoint('alice', 'tier', new Date(T0), countsIn)).toEqual({ '["M"]': 1, '["S"]': 1 })
    expect(await store.inCore('alice', 'tier')).toBe(true)
    await store.addObservations([observation({ at: T0 + 1000, choice: 'M' })], [])
    expect(await store.readPoint('alice', 'tier', new Date(T0 + 1000), countsIn)).toEqual({ '["M"]': 2, '["S"]': 1 })
  })

  it('does not count auto-resolved answers as evidence, but keeps them in archival and recall', async () => {
    const store = await storeWith()
    await store.readPoint('alice', 'tier', new Date(T0), countsIn)
    await store.addObservations([observation({ at: T0, choice: 'L', source: 'auto-resolved' })], [])
    expect(await store.readPoint('alice', 'tier', new Date(T0), countsIn)).toEqual({})
    expect(await store.observationsAt('alice', 'tier')).toHaveLength(1)
    expect(await store.recallAt('alice', 'tier')).toHaveLength(1)
  })

  it('answers an as_of before the newest observation from archival, up to that moment', async () => {
    const store = await storeWith()
    await store.addObservations([observation({ at: T0, choice: 'M' }), observation({ at: T0 + DAY, choice: 'S' })], [])
    await store.readPoint('alice', 'tier', new Date(T0 + DAY), countsIn)
    expect(await store.readPoint('alice', 'tier', new Date(T0 + 1), countsIn)).toEqual({ '["M"]': 1 })
    expect(await store.inCore('alice', 'tier')).toBe(true)
  })

  it('keeps recall newest first and lets the old leave it, in batches, while archival keeps all', async () => {
    const store = await storeWith()
    const old = Array.from({ length: 1_203 }, (_, i) => observation({ at: T0 - 40 * DAY + i, choice: 'S' }))
    const recent = [observation({ at: T0 - DAY, choice: 'M' }), observation({ at: T0, choice: 'L' })]
    await store.addObservations([...old, ...recent], [])
    expect((await store.recallAt('alice', 'tier')).map((o) => o.id).slice(0, 2)).toEqual([recent[1]?.id, recent[0]?.id])
    expect(await store.expireRecall(new Date(T0 - 28 * DAY))).toBe(1_203)
    expect(await store.expireRecall(new Date(T0 - 28 * DAY))).toBe(0)
    expect((await store.recallAt('alice', 'tier')).map((o) => o.id)).toEqual([recent[1]?.id, recent[0]?.id])
    expect(await store.observationsAt('alice', 'tier')).toHaveLength(1_205)
  })

  it('counts every observation at a point in core, waiting or counted into its cells, as a rebuild from archival does', async () => {
    const store = await storeWith()
    const written = [observation({ at: T0, choice: 'M', project: 'p', session_id: 's-0', context: { phase: 'build' } })]
    await store.addObservations(written, [])
    await store.readPoint('alice', 'tier', new Date(T0), countsIn)
    expect(await store.inCore('alice', 'tier')).toBe(true)
    let at = T0
    // Groups that wait (fewer than 8 in all: they wait at any point), then one (20) that makes
    // the point count all that waited (more than 24 in all: at any point), then more that wait.
    for (const size of [1, 1, 2, 3, 20, 3, 1, 2]) {
      const group = Array.from({ length: size }, (_, i) =>
        observation({
          at: (at += 60_000),
          choice: ['S', 'M', 'L'][(written.length + i) % 3] as string,
          project: i % 2 === 0 ? 'p' : 'q',
          session_id: `s-${(written.length + i) % 4}`,
          context: { phase: i % 2 === 0 ? 'build' : 'plan', spec: `x${i % 3}` },
          ...(i === 2 ? { source: 'auto-resolved' as const } : {}),
        }),
      )
      await store.addObservations(group, [])
      written.push(...group)
      const keys = [...new Set(written.flatMap((o) => cellsOf(o).map((c) => c.key)))]
      const rebuilt = aggregateObservations(await store.observationsAt('alice', 'tier'), store.aggregation)
      const expected = keys.map((k) => storedCell(rebuilt.cells.get(k) ?? emptyCell()))
      expect(await store.readPoint('alice', 'tier', new Date(at), (memory) => memory.cells(keys).map(storedCell))).toEqual(expected)
      // Twice: the second from the point held in memory.
      expect(await store.readPoint('alice', 'tier', new Date(at), (memory) => memory.cells(keys).map(storedCell))).toEqual(expected)
    }
    // An audit before the newest observations, which wait to be counted, leaves them out.
    const before = written.filter((o) => Date.parse(o.timestamp) <= at - 60_000 && o.source === 'user')
    const counts = await store.readPoint('alice', 'tier', new Date(at - 60_000), countsIn)
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(before.length)
    expect(await store.inCore('alice', 'tier')).toBe(true)
  })

  it('keeps at most core.max_entries aggregates, demoting the lowest weight first', async () => {
    const store = await storeWith({ ...POLICY, core: { max_entries: 2 } })
    // Points a, b, c with 3, 1 and 2 observations: b weighs least.
    for (const [point, n] of [['a', 3], ['b', 1], ['c', 2]] as const) {
      await store.addObservations(Array.from({ length: n }, () => observation({ at: T0, choice: 'M', point })), [])
    }
    for (const point of ['a', 'b', 'c']) await store.readPoint('alice', point, new Date(T0), countsIn)
    expect(await Promise.all(['a', 'b', 'c'].map((p) => store.inCore('alice', p)))).toEqual([true, false, true])
    // A demoted aggregate is rebuilt on use, with every observation.
    expect(await store.readPoint('alice', 'b', new Date(T0), countsIn)).toEqual({ '["M"]': 1 })
  })

  it('leaves out of an audit the auto-resolved answers given after it, waiting or counted', async () => {
    const store = await storeWith()
    await store.addObservations([observation({ at: T0, choice: 'M' })], [])
    await store.readPoint('alice', 'tier', new Date(T0), countsIn)
    const autos = (memory: PointView) => memory.cells([cellKey.auto(null)])[0]?.n ?? 0
    // 3 wait (at any point), then 30 make the point count all 33 into its cells.
    for (const [n, from] of [[3, 0], [30, 3]] as const) {
      await store.addObservations(Array.from({ length: n }, (_, i) => observation({ at: T0 + DAY + from + i, choice: 'M', source: 'auto-resolved' })), [])
      expect(await store.readPoint('alice', 'tier', new Date(T0 + 1), autos)).toBe(0)
      expect(await store.readPoint('alice', 'tier', new Date(T0 + 2 * DAY), autos)).toBe(n + from)
    }
  })

  it('ranks by current weight the observations waiting to be counted included', async () => {
    const store = await storeWith({ ...POLICY, core: { max_entries: 2 } })
    // a: 1 observation counted in core, then 7 that wait (fewer than 8 wait at any point): 8 in all.
    await store.addObservations([observation({ at: T0, choice: 'M', point: 'a' })], [])
    await store.readPoint('alice', 'a', new Date(T0), countsIn)
    await store.addObservations(Array.from({ length: 7 }, () => observation({ at: T0, choice: 'M', point: 'a' })), [])
    // b: 3, c: 5, both rebuilt from archival: b weighs least.
    for (const [point, n] of [['b', 3], ['c', 5]] as const) {
      await store.addObservations(Array.from({ length: n }, () => observation({ at: T0, choice: 'M', point })), [])
      await store.readPoint('alice', point, new Date(T0), countsIn)
    }
    expect(await Promise.all(['a', 'b', 'c'].map((p) => store.inCore('alice', p)))).toEqual([true, false, true])
  })

  it.each(['a', 'b'])('demotes the older use of two points of equal weight, one counted whole and one with observations waiting (%s used first)', async (older) => {
    const store = await storeWith({ ...POLICY, core: { max_entries: 2 } })
    const newer = older === 'a' ? 'b' : 'a'
    const useAt = (point: string) => (point === older ? T0 + 1_000 : T0 + 2_000)
    // a: 20 choices at T0, rebuilt from archival (4 of them in its decayed sums' approximated tail);
    // b: the same 20, 13 rebuilt and 7 waiting to be counted (fewer than 8 wait at any point). Their
    // weights are equal: the last use decides (R-MEM-4).
    await store.addObservations(Array.from({ length: 20 }, () => observation({ at: T0, choice: 'M', point: 'a' })), [])
    await store.addObservations(Array.from({ length: 13 }, () => observation({ at: T0, choice: 'M', point: 'b' })), [])
    for (const point of [older, newer]) await store.readPoint('alice', point, new Date(useAt(point)), countsIn)
    await store.addObservations(Array.from({ length: 7 }, () => observation({ at: T0, choice: 'M', point: 'b' })), [])
    expect(await store.readPoint('alice', 'b', new Date(useAt('b')), countsIn)).toEqual({ '["M"]': 20 })
    // c weighs most: putting it in core demotes one of a and b.
    await store.addObservations(Array.from({ length: 40 }, () => observation({ at: T0, choice: 'M', point: 'c' })), [])
    await store.readPoint('alice', 'c', new Date(T0 + 3_000), countsIn)
    expect(await Promise.all([older, newer, 'c'].map((p) => store.inCore('alice', p)))).toEqual([false, true, true])
  })

  it('demotes by key two points of equal weight and equal last use, whatever order they were used in', async () => {
    for (const order of [['a', 'b'], ['b', 'a']]) {
      const store = await storeWith({ ...POLICY, core: { max_entries: 2 } })
      for (const point of order) {
        await store.addObservations(Array.from({ length: 2 }, () => observation({ at: T0, choice: 'M', point })), [])
        await store.readPoint('alice', point, new Date(T0), countsIn)
      }
      // c weighs most: putting it in core demotes a, the first key of the two that tie (R-MEM-4).
      await store.addObservations(Array.from({ length: 5 }, () => observation({ at: T0, choice: 'M', point: 'c' })), [])
      await store.readPoint('alice', 'c', new Date(T0), countsIn)
      expect(await Promise.all(['a', 'b', 'c'].map((p) => store.inCore('alice', p))), order.join()).toEqual([false, true, true])
    }
  })

  it('ranks current weights as of the read, not as of an audit: an audit of an old point does not demote what weighs most now', async () => {
    const store = await storeWith({ ...POLICY, core: { max_entries: 1 } })
    const now = T0 + 100 * DAY
    // Now, a (one choice a day ago) weighs 0.71 and b (two 100 days ago) 0.20; 99 days ago, b
    // weighed 1.41 and a, not yet made, 1.
    await store.addObservations([observation({ at: now - DAY, choice: 'M', point: 'a' })], [])
    await store.addObservations([observation({ at: T0, choice: 'M', point: 'b' }), observation({ at: T0, choice: 'S', point: 'b' })], [])
    await store.readPoint('alice', 'a', new Date(now), countsIn, new Date(now))
    expect(await store.readPoint('alice', 'b', new Date(T0 + DAY), countsIn, new Date(now))).toEqual({ '["M"]': 1, '["S"]': 1 })
    expect(await Promise.all(['a', 'b'].map((p) => store.inCore('alice', p)))).toEqual([true, false])
  })

  it('demotes down to capacity in maintenance, and counts sessions in one read', async () => {
    const store = await storeWith()
    await store.addObservations(
      [observation({ at: T0, choice: 'M', session_id: 's-1' })],
      [{ session_id: 's-1', user: 'alice', project: null, started_at: new Date(T0).toISOString(), personalization: true }],
    )
    await store.startSession({ session_id: 's-2', user: 'alice', project: null, started_at: new Date(T0 + DAY).toISOString(), personalization: true })
    await store.startSession({ session_id: 's-2', user: 'alice', project: null, started_at: new Date(T0 + DAY).toISOString(), personalization: true })
    expect(await store.countSessions('alice')).toBe(2)
    expect(await store.countSessions('alice', new Date(T0))).toBe(1)
    expect(await store.maintainCore(new Date(T0))).toEqual({ demoted: 0, refreshed: 0 })
    expect(await store.lastDecayScan()).toBeUndefined()
    await store.recordDecayScan(new Date(T0).toISOString())
    expect(await store.lastDecayScan()).toBe(new Date(T0).toISOString())
  })
})

/** A database whose alice/tier was put in core under POLICY, and a store opened on it again with `policy`. */
async function reopenedWith(policy: TierPolicy): Promise<{ db: MemoryLevel<string, string>; store: MemoryStore }> {
  const db = new MemoryLevel<string, string>()
  await (await aliceInCore(db)).close()
  return { db, store: await createLevelStore(db as never, { policy }) }
}

/** The keys of the whole database that `wanted` picks. */
async function keysWhere(db: MemoryLevel<string, string>, wanted: (key: string) => boolean): Promise<string[]> {
  const found: string[] = []
  for await (const k of db.keys()) if (wanted(k)) found.push(k)
  return found
}

/** alice/tier is not in core until the decay scan rebuilds it; then it counts its one choice of M. */
async function expectRefreshedByTheScan(store: MemoryStore): Promise<void> {
  expect(await store.inCore('alice', 'tier')).toBe(false)
  expect(await store.maintainCore(new Date(T0))).toEqual({ demoted: 0, refreshed: 1 })
  expect(await store.inCore('alice', 'tier')).toBe(true)
  expect(await store.readPoint('alice', 'tier', new Date(T0), countsIn)).toEqual({ '["M"]': 1 })
}

/**
 * An iterator whose reads end two turns of the event loop late, `done` called then: after the
 * failure of another read begun beside it has reached the caller.
 */
function slowed(it: { _all(...args: unknown[]): Promise<unknown> }, done: () => void): void {
  const all = it._all.bind(it)
  it._all = async (...args) => {
    const found = await all(...args)
    for (let turn = 0; turn < 2; turn++) await new Promise((next) => setImmediate(next))
    done()
    return found
  }
}

describe('the store opened with another policy', () => {
  it('rebuilds the aggregates that were built with other parameters', async () => {
    const { store } = await reopenedWith({ ...POLICY, decay: { alpha: 0.7 } })
    await expectRefreshedByTheScan(store)
    await store.close()
  })
})

describe('a policy switched away and back', () => {
  it('counts what was written while the other was in force', async () => {
    const { db, store: other } = await reopenedWith({ ...POLICY, decay: { alpha: 0.6 } })
    await other.addObservations([observation({ at: T0 + 1, choice: 'S' }), observation({ at: T0 + 2, choice: 'S' })], [])
    expect(await other.inCore('alice', 'tier')).toBe(false)
    await other.close()
    // Nothing is left of the aggregate those two were not counted in.
    await db.open()
    expect(await keysWhere(db, (k) => k.startsWith('!core'))).toEqual([])
    const back = await createLevelStore(db as never, { policy: POLICY })
    expect(await back.readPoint('alice', 'tier', new Date(T0 + 2), countsIn)).toEqual({ '["M"]': 1, '["S"]': 2 })
    await back.close()
  })
})

describe('a store written by an earlier format', () => {
  it('rebuilds its aggregates, whatever waits beside them in a form this one cannot read', async () => {
    const db = new MemoryLevel<string, string>()
    await (await aliceInCore(db)).close()
    await db.open()
    // As format 3 left them: a head of that format, and an empty mark where an observation waits.
    const heads = db.sublevel<string, Record<string, unknown>>('core', { valueEncoding: 'json' })
    await heads.put('alice\u0000tier', { ...(await heads.get('alice\u0000tier')), format: 3 })
    await db.sublevel<string, string>('core-pending', { valueEncoding: 'utf8' }).put('alice\u0000tier\u00002026-07-01T10:00:01.000Z\u0000obs-x', '')
    const second = await createLevelStore(db as never, { policy: POLICY })
    expect(await second.readPoint('alice', 'other', new Date(T0), countsIn)).toEqual({})
    await expectRefreshedByTheScan(second)
    await second.close()
  })
})

describe('a store written at a small α before its grid was floored', () => {
  it('rebuilds the aggregates whose decayed sums have the old grid\'s nodes, rather than misread them', async () => {
    const policy = { ...POLICY, decay: { alpha: 0.1 } }
    const db = new MemoryLevel<string, string>()
    const first = await createLevelStore(db as never, { policy })
    // More choices than a sum keeps exactly: the head's sum has a tail, one value per node.
    await first.addObservations(Array.from({ length: 20 }, (_, i) => observation({ at: T0 - i * DAY, choice: 'M' })), [])
    await first.readPoint('alice', 'tier', new Date(T0), countsIn)
    await first.close()
    await db.open()
    // As the grid of α = 0.1 left it: 307 nodes (this one has 68).
    const heads = db.sublevel<string, { weight: { tail: number[] } }>('core', { valueEncoding: 'json' })
    const head = await heads.get('alice\u0000tier')
    expect(head?.weight.tail.length).toBeGreaterThan(0)
    await heads.put('alice\u0000tier', { ...head!, weight: { ...head!.weight, tail: Array.from({ length: 307 }, () => 0.5) } })
    const second = await createLevelStore(db as never, { policy })
    expect(await second.inCore('alice', 'tier')).toBe(false)
    expect(await second.maintainCore(new Date(T0))).toEqual({ demoted: 0, refreshed: 1 })
    expect((await heads.get('alice\u0000tier'))?.weight.tail.length).toBe(68)
    expect(await second.readPoint('alice', 'tier', new Date(T0), countsIn)).toEqual({ '["M"]': 20 })
    await second.close()
  })
})

describe('a user forgotten while the decay scan refreshes their aggregates', () => {
  it('leaves no key naming the user', async () => {
    const { db, store } = await reopenedWith({ ...POLICY, decay: { alpha: 0.6 } })
    await Promise.all([store.maintainCore(new Date(T0)), store.forgetUser('alice')])
    expect(await keysWhere(db, (k) => k.includes('alice'))).toEqual([])
    await store.close()
  })
})

describe('the store opened again', () => {
  it('keeps the observations that waited to be counted, and counts them with the next', async () => {
    const db = new MemoryLevel<string, string>()
    const first = await aliceInCore(db)
    await first.addObservations(Array.from({ length: 5 }, (_, i) => observation({ at: T0 + i + 1, choice: 'S' })), [])
    await first.close()
    const second = await createLevelStore(db as never, { policy: POLICY })
    expect(await second.inCore('alice', 'tier')).toBe(true)
    expect(await second.readPoint('alice', 'tier', new Date(T0 + 10), countsIn)).toEqual({ '["M"]': 1, '["S"]': 5 })
    for (let i = 0; i < 15; i++) await second.addObservations([observation({ at: T0 + 10 + i, choice: 'L' })], [])
    expect(await second.readPoint('alice', 'tier', new Date(T0 + 30), countsIn)).toEqual({ '["M"]': 1, '["S"]': 5, '["L"]': 15 })
    await second.close()
  })
})

describe('a point in core (R-MEM-1)', () => {
  it('is read from core alone, the observations waiting to be counted included', async () => {
    const db = new InstrumentedLevel()
    const store = await aliceInCore(db)
    await store.addObservations([observation({ at: T0 + 1, choice: 'S' }), observation({ at: T0 + 2, choice: 'S' })], [])
    db.readsIn.clear()
    expect(await store.readPoint('alice', 'tier', new Date(T0 + 2), countsIn)).toEqual({ '["M"]': 1, '["S"]': 2 })
    expect([...db.readsIn.keys()].sort()).toEqual(['core', 'core-cells', 'core-pending'])
    await store.close()
  })

  it('takes an observation to wait there without reading its head again, and counts it', async () => {
    const db = new InstrumentedLevel()
    const store = await aliceInCore(db)
    db.readsIn.clear()
    await store.addObservations([observation({ at: T0 + 1, choice: 'S' })], [])
    // A head is about 2 KB of JSON: read and parsed for every observation, it was a tenth of the write.
    expect(db.readsIn.get('core')).toBeUndefined()
    expect(await store.readPoint('alice', 'tier', new Date(T0 + 1), countsIn)).toEqual({ '["M"]': 1, '["S"]': 1 })
    // Counted into the cells once enough wait (24 at most), the head read then.
    for (let i = 0; i < 30; i++) await store.addObservations([observation({ at: T0 + 2 + i, choice: 'L' })], [])
    expect(db.readsIn.get('core')).toBeGreaterThan(0)
    expect(await store.readPoint('alice', 'tier', new Date(T0 + 40), countsIn)).toEqual({ '["M"]': 1, '["S"]': 1, '["L"]': 30 })
    await store.close()
  })

  it('holds nothing of an observation at a point demoted or forgotten since it was in core', async () => {
    const store = await createLevelStore(new MemoryLevel<string, string>() as never, { policy: { ...POLICY, core: { max_entries: 1 } } })
    const held = async (point: string) => {
      const keys: string[] = []
      for await (const entry of store.aggregatesOf('alice')) if (entry.key[1] === point) keys.push(`${entry.sublevel} ${entry.key.join(' ')}`)
      return keys
    }
    await store.addObservations([observation({ at: T0, choice: 'M' })], [])
    await store.readPoint('alice', 'tier', new Date(T0), countsIn)
    // `other` weighs more: reading it demotes `tier`.
    await store.addObservations(Array.from({ length: 3 }, (_, i) => observation({ at: T0 + i, choice: 'M', point: 'other' })), [])
    await store.readPoint('alice', 'other', new Date(T0 + 2), countsIn)
    expect(await store.inCore('alice', 'tier')).toBe(false)
    await store.addObservations([observation({ at: T0 + 10, choice: 'S' })], [])
    expect(await held('tier')).toEqual([])
    expect(await store.readPoint('alice', 'tier', new Date(T0 + 10), countsIn)).toEqual({ '["M"]': 1, '["S"]': 1 })

    expect(await store.inCore('alice', 'other')).toBe(true)
    await store.forgetUser('alice')
    await store.addObservations([observation({ at: T0 + 20, choice: 'L', point: 'other' })], [])
    expect(await held('other')).toEqual([])
    expect(await store.readPoint('alice', 'other', new Date(T0 + 20), countsIn)).toEqual({ '["L"]': 1 })
    await store.close()
  })

  it('leaves nothing waiting under a head gone behind its back once it counts there, and counts each observation once', async () => {
    const db = new MemoryLevel<string, string>()
    const store = await aliceInCore(db)
    // Deleted by no write of the tier (a path that forgets to say so): observations wait there
    // until one would count them into the cells, which reads the head.
    await db.del('!core!alice\u0000tier')
    for (let i = 0; i < 30; i++) await store.addObservations([observation({ at: T0 + 1 + i, choice: 'L' })], [])
    expect(await keysWhere(db, (k) => k.startsWith('!core-pending!alice\u0000tier\u0000'))).toEqual([])
    expect(await store.readPoint('alice', 'tier', new Date(T0 + 40), countsIn)).toEqual({ '["M"]': 1, '["L"]': 30 })
    await store.close()
  })
})

/**
 * memory-level whose next batch write can be held twice: before it is applied, and once applied
 * before it returns (as a LevelDB write is visible before its callback runs).
 */
class HeldLevel extends MemoryLevel<string, string> {
  private hold: Held | null = null

  constructor() {
    super()
    const parent = Object.getPrototypeOf(HeldLevel.prototype) as Record<string, (...args: unknown[]) => Promise<unknown>>
    ;(this as unknown as Record<string, unknown>)._batch = async (operations: unknown, options: unknown) => {
      const hold = this.hold
      this.hold = null
      if (hold === null) return parent._batch!.call(this, operations, options)
      hold.reached()
      await hold.apply
      await parent._batch!.call(this, operations, options)
      hold.applied()
      await hold.release
    }
  }

  /** Holds the next batch: `reached` once it is called, `applied` once in the store after `apply()`; it returns after `release()`. */
  holdNext() {
    const step = () => {
      let resolve!: () => void
      const promise = new Promise<void>((r) => (resolve = r))
      return { promise, resolve }
    }
    const [reached, apply, applied, release] = [step(), step(), step(), step()]
    this.hold = { reached: reached.resolve, apply: apply.promise, applied: applied.resolve, release: release.promise }
    return { reached: reached.promise, apply: apply.resolve, applied: applied.promise, release: release.resolve }
  }
}

interface Held {
  reached: () => void
  apply: Promise<void>
  applied: () => void
  release: Promise<void>
}

/** The context the racing reads look at, and how many observations the scope and its cell count. */
const phase = { phase: 'run' }
const scope = (memory: PointView) => memory.cells([cellKey.scope(null)])[0]?.n ?? 0
const context = (memory: PointView) => memory.cells([cellKey.context(null, 'phase', 'run')])[0]?.n ?? 0

describe('a read racing the write that counts the waiting observations into the cells', () => {
  it('counts each observation once, whatever it read while the write was in flight', async () => {
    const db = new HeldLevel()
    const store = await aliceInCore(db)
    // 7 wait (at any point); the next 20 make the point count all 27 into its cells.
    await store.addObservations(Array.from({ length: 7 }, (_, i) => observation({ at: T0 + 1 + i, choice: 'M', context: phase })), [])
    const at = new Date(T0 + 100)
    const held = db.holdNext()
    const folding = store.addObservations(Array.from({ length: 20 }, (_, i) => observation({ at: T0 + 10 + i, choice: 'M', context: phase })), [])
    await held.reached
    // Before the write is in the store: the scope as it was.
    expect(await store.readPoint('alice', 'tier', at, scope)).toBe(8)
    held.apply()
    await held.applied
    // In the store, not yet returned: a cell the read before did not read, then the scope.
    expect([7, 27]).toContain(await store.readPoint('alice', 'tier', at, context))
    expect([8, 28]).toContain(await store.readPoint('alice', 'tier', at, scope))
    held.release()
    await folding
    expect(await store.readPoint('alice', 'tier', at, scope)).toBe(28)
    expect(await store.readPoint('alice', 'tier', at, context)).toBe(27)
  })
})

describe('a read racing a forget', () => {
  it('answers what was there before or nothing, never a mix', async () => {
    const db = new HeldLevel()
    const store = await aliceInCore(db)
    // 20 counted into the cells (more than 24 with the one before, at any point), then 2 that wait.
    await store.addObservations(Array.from({ length: 20 }, (_, i) => observation({ at: T0 + 1 + i, choice: 'M', context: phase })), [])
    await store.addObservations([30, 31].map((i) => observation({ at: T0 + i, choice: 'M', context: phase })), [])
    const at = new Date(T0 + 100)
    const held = db.holdNext()
    const forgetting = store.forgetUser('alice')
    await held.reached
    expect(await store.readPoint('alice', 'tier', at, scope)).toBe(23)
    held.apply()
    await held.applied
    // Deleted, the forget not yet returned: a cell the read before did not read. The read is
    // given the turns of the event loop it needs to answer from memory (memory-level answers
    // within a few), or to wait for the forget to end.
    let settled = false
    const during = store.readPoint('alice', 'tier', at, context).finally(() => (settled = true))
    for (let turn = 0; turn < 20 && !settled; turn++) await new Promise((resolve) => setImmediate(resolve))
    held.release()
    await forgetting
    expect([22, 0]).toContain(await during)
    expect(await store.readPoint('alice', 'tier', at, scope)).toBe(0)
  })
})

describe('a first read racing a forget', () => {
  it('writes no head for a point the forget emptied before it could be built', async () => {
    const db = new HeldLevel()
    const store = await createLevelStore(db as never, { policy: POLICY })
    // alice observed at a point not yet in core.
    await store.addObservations([observation({ at: T0, choice: 'M' })], [])
    // bob's write holds the write queue; the forget, then the read's rebuild, queue behind it.
    const held = db.holdNext()
    const writing = store.addObservations([observation({ at: T0 + 1, choice: 'S', user: 'bob' })], [])
    await held.reached
    const forgetting = store.forgetUser('alice')
    // The read finds alice's observation in archival, so it queues a rebuild after the forget.
    const reading = store.readPoint('alice', 'tier', new Date(T0 + 10), countsIn)
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve))
    held.apply()
    held.release()
    await Promise.all([writing, forgetting])
    expect(await reading).toEqual({})
    expect(await store.inCore('alice', 'tier')).toBe(false)
    expect(await keysWhere(db, (k) => k.includes('alice'))).toEqual([])
    await store.close()
  })
})

describe('a group of observations', () => {
  it('counts in core only those it stores when some were stored before, whether they wait or are counted into the cells', async () => {
    const store = await createLevelStore(new MemoryLevel<string, string>() as never, { policy: POLICY })
    await store.addObservations([observation({ at: T0, choice: 'M', decision_id: 'first' })], [])
    expect(await store.readPoint('alice', 'tier', new Date(T0), countsIn)).toEqual({ '["M"]': 1 })
    // A retry of the first among new ones: few enough to wait, then enough to be counted into the cells.
    for (const [n, at] of [[2, T0 + 1000], [30, T0 + 2000]] as const) {
      const result = await store.addObservations(
        [observation({ at, choice: 'S', decision_id: 'first' }), ...Array.from({ length: n }, (_, i) => observation({ at, choice: 'L', decision_id: `new-${at}-${i}` }))],
        [],
      )
      expect(result.duplicates).toEqual(['first'])
      expect(result.stored).toHaveLength(n)
    }
    expect(await store.readPoint('alice', 'tier', new Date(T0 + 2000), countsIn)).toEqual({ '["M"]': 1, '["L"]': 32 })
    expect(await store.inCore('alice', 'tier')).toBe(true)
    await store.close()
  })

  it('tells a decision_id sent twice apart by position, even when it is one object sent twice', async () => {
    const store = await aliceInCore(new MemoryLevel<string, string>())
    const twice = observation({ at: T0 + 1000, choice: 'S', decision_id: 'twice' })
    const result = await store.addObservations([twice, twice], [])
    expect(result).toEqual({ stored: [twice], duplicates: ['twice'] })
    const inTurn = observation({ at: T0 + 2000, choice: 'L', decision_id: 'in-turn' })
    const [first, second] = await Promise.all([store.addObservations([inTurn], []), store.addObservations([inTurn], [])])
    expect(first.stored).toEqual([inTurn])
    expect(second).toEqual({ stored: [], duplicates: ['in-turn'] })
    // With a decision_id stored before among them: what is counted in core is what is stored.
    const retried = await store.addObservations([inTurn, twice, observation({ at: T0 + 3000, choice: 'M', decision_id: 'new' })], [])
    expect(retried.duplicates).toEqual(['in-turn', 'twice'])
    expect(await store.observationsAt('alice', 'tier')).toHaveLength(4)
    expect(await store.readPoint('alice', 'tier', new Date(T0 + 3000), countsIn)).toEqual({ '["M"]': 2, '["S"]': 1, '["L"]': 1 })
    await store.close()
  })

  it('fails only once every read it began is done: none is left to write what it read into memory later', async () => {
    // The waiting observations of point p1 cannot be read; those of p2 are read a little later.
    let slowDone = false
    const db = new MemoryLevel<string, string>()
    const inner = db as unknown as { _iterator(options: Record<string, unknown>): { _all(...args: unknown[]): Promise<unknown> } }
    const iterate = inner._iterator.bind(db)
    inner._iterator = (options) => {
      const it = iterate(options)
      const gte = String(options.gte ?? '')
      if (gte.startsWith('!core-pending!alice\u0000p1\u0000')) it._all = async () => Promise.reject(new Error('injected read fault'))
      if (gte.startsWith('!core-pending!alice\u0000p2\u0000')) slowed(it, () => (slowDone = true))
      return it
    }
    const written = await createLevelStore(db as never, { policy: POLICY })
    for (const point of ['p1', 'p2']) {
      await written.addObservations([observation({ at: T0, choice: 'S', point })], [])
      await written.readPoint('alice', point, new Date(T0), countsIn)
    }
    await written.close()
    // Opened again: what waits at each point is read on the first write there.
    const store = await createLevelStore(db as never, { policy: POLICY })
    const group = store.addObservations([observation({ at: T0 + 1, choice: 'M', point: 'p1' }), observation({ at: T0 + 1, choice: 'M', point: 'p2' })], [])
    await expect(group).rejects.toThrow('injected read fault')
    expect(slowDone).toBe(true)
    await store.close()
  })

  it('fails only once every read it began is done when the head of a point it counts into cannot be read', async () => {
    // The heads cannot be read once armed; what waits at p2 is read a little later.
    let armed = false
    let slowDone = false
    const db = new MemoryLevel<string, string>()
    const inner = db as unknown as {
      _getMany(keys: unknown[], ...rest: unknown[]): Promise<unknown>
      _iterator(options: Record<string, unknown>): { _all(...args: unknown[]): Promise<unknown> }
    }
    const getMany = inner._getMany.bind(db)
    inner._getMany = async (keys, ...rest) => {
      if (armed && keys.some((k) => String(k).startsWith('!core!'))) throw new Error('injected read fault')
      return getMany(keys, ...rest)
    }
    const iterate = inner._iterator.bind(db)
    inner._iterator = (options) => {
      const it = iterate(options)
      if (armed && String(options.gte ?? '').startsWith('!core-pending!alice\u0000p2\u0000')) slowed(it, () => (slowDone = true))
      return it
    }
    const store = await createLevelStore(db as never, { policy: POLICY })
    for (const point of ['p1', 'p2']) {
      await store.addObservations([observation({ at: T0, choice: 'S', point })], [])
      await store.readPoint('alice', point, new Date(T0), countsIn)
      // One waits at each point, whose head this process wrote: its head is read only to count into the cells.
      await store.addObservations([observation({ at: T0 + 1, choice: 'S', point })], [])
    }
    armed = true
    // 24 more at each point: both count what waits into their cells (FOLD_MAX).
    const many = (point: string) => Array.from({ length: 24 }, (_, i) => observation({ at: T0 + 2 + i, choice: 'M', point }))
    await expect(store.addObservations([...many('p1'), ...many('p2')], [])).rejects.toThrow('injected read fault')
    expect(slowDone).toBe(true)
    armed = false
    await store.close()
  })
})

describe('hot points in memory', () => {
  it('answers a point read before from memory, reading nothing, and still sees every write to it', async () => {
    const db = new InstrumentedLevel()
    // The first use rebuilds the point, the second reads it from core and keeps it in memory.
    const store = await aliceInCore(db)
    await store.readPoint('alice', 'tier', new Date(T0), countsIn)
    const before = db.reads
    expect(await store.readPoint('alice', 'tier', new Date(T0), countsIn)).toEqual({ '["M"]': 1 })
    expect(db.reads).toBe(before)

    await store.addObservations([observation({ at: T0 + 1000, choice: 'S' })], [])
    expect(await store.readPoint('alice', 'tier', new Date(T0 + 1000), countsIn)).toEqual({ '["M"]': 1, '["S"]': 1 })
    // Reads racing a write see it whole or not at all; a read after it sees it.
    const [during, , racing] = await Promise.all([
      store.readPoint('alice', 'tier', new Date(T0 + 2000), countsIn),
      store.addObservations([observation({ at: T0 + 2000, choice: 'L' }), observation({ at: T0 + 2000, choice: 'L' })], []),
      store.readPoint('alice', 'tier', new Date(T0 + 2000), countsIn),
    ])
    for (const seen of [during, racing]) expect([0, 2]).toContain(seen['["L"]'] ?? 0)
    expect(await store.readPoint('alice', 'tier', new Date(T0 + 2000), countsIn)).toEqual({ '["M"]': 1, '["S"]': 1, '["L"]': 2 })

    await store.forgetUser('alice')
    expect(await store.readPoint('alice', 'tier', new Date(T0 + 2000), countsIn)).toEqual({})
    await store.close()
  })
})

describe('reads from core', () => {
  it('reads a point rebuilt on its first use in one round the next time: the cells that use asked for come first', async () => {
    const store = await createLevelStore(new MemoryLevel<string, string>() as never, { policy: POLICY })
    await store.addObservations([observation({ at: T0, choice: 'M', context: { phase: 'run' } })], [])
    // Asks for the scope cell, then for a context cell: two rounds when neither was read before.
    let runs = 0
    const scopeThenContext = (memory: PointView) => {
      runs++
      const [scope] = memory.cells([cellKey.scope(null)])
      const [context] = memory.cells([cellKey.context(null, 'phase', 'run')])
      return [scope?.n, context?.n]
    }
    // The first use rebuilds the point from archival into core.
    expect(await store.readPoint('alice', 'tier', new Date(T0), scopeThenContext)).toEqual([1, 1])
    runs = 0
    // The next read is from core (nothing of the point is held in memory yet): one run, not three.
    expect(await store.readPoint('alice', 'tier', new Date(T0 + 1000), scopeThenContext)).toEqual([1, 1])
    expect(runs).toBe(1)
    await store.close()
  })

  it('keeps nothing of a read from core that a forget of its user overtook: the user observed again starts afresh', async () => {
    // A database that holds the next read of a head in core until told to go on.
    const db = new MemoryLevel<string, string>()
    const inner = db as unknown as Record<'_get', (...args: unknown[]) => Promise<unknown>>
    const get = inner._get.bind(db)
    let hold: { arrived(): void; until: Promise<void> } | undefined
    inner._get = async (...args) => {
      const text = typeof args[0] === 'string' ? args[0] : Buffer.from(args[0] as Uint8Array).toString('utf8')
      const held = hold
      if (held !== undefined && text.startsWith('!core!')) {
        hold = undefined
        held.arrived()
        await held.until
      }
      return get(...args)
    }
    const store = await createLevelStore(db as never, { policy: POLICY })
    await store.addObservations([observation({ at: T0, choice: 'M' })], [])
    await store.readPoint('alice', 'tier', new Date(T0), countsIn)
    // The next read, from core and used ten days on, is held at its head while alice is forgotten.
    let arrived = () => {}
    let goOn = () => {}
    const atHead = new Promise<void>((resolve) => (arrived = resolve))
    hold = { arrived, until: new Promise<void>((resolve) => (goOn = resolve)) }
    const reading = store.readPoint('alice', 'tier', new Date(T0 + 10 * DAY), countsIn)
    await atHead
    await store.forgetUser('alice')
    goOn()
    // It answers from the snapshot it took before the forget.
    expect(await reading).toEqual({ '["M"]': 1 })
    // alice comes back a day after T0: her point is rebuilt then, last used then, not ten days on.
    await store.addObservations([observation({ at: T0 + DAY, choice: 'S' })], [])
    expect(await store.readPoint('alice', 'tier', new Date(T0 + DAY), countsIn)).toEqual({ '["S"]': 1 })
    const head = JSON.parse((await db.get('!core!alice\u0000tier')) as string) as { last_use: number }
    expect(head.last_use).toBe(T0 + DAY)
    await store.close()
  })
})

describe('recall names the observations archival holds', () => {
  it('writes an observation once: recall and its expiry index hold its key, not a copy', async () => {
    const db = new MemoryLevel<string, string>()
    const store = await createLevelStore(db as never, { policy: POLICY })
    const stored = observation({ at: T0, choice: 'M', question: 'A question written once?' })
    await store.addObservations([stored], [])
    const holding: string[] = []
    for await (const [k, v] of db.iterator()) if (v.includes('A question written once?')) holding.push(k.slice(0, k.indexOf('!', 1) + 1))
    expect(holding).toEqual(['!archival!'])
    expect(await store.recallAt('alice', 'tier')).toEqual([stored])
    await store.close()
  })

  it('reads and expires the entries of a store written when recall held copies', async () => {
    const db = new MemoryLevel<string, string>()
    const store = await createLevelStore(db as never, { policy: POLICY })
    const older = observation({ at: T0 - 40 * DAY, choice: 'S' })
    const copied = observation({ at: T0 - DAY, choice: 'L' })
    const named = observation({ at: T0, choice: 'M' })
    // As the store wrote them before: the observation copied into recall, the expiry index naming recall's key.
    for (const o of [older, copied]) {
      const k = `${o.user}\0${o.point}\0${o.timestamp}\0${o.id}`
      await db.batch([
        { type: 'put', key: `!archival!${k}`, value: JSON.stringify(o) },
        { type: 'put', key: `!recall!${k}`, value: JSON.stringify(o) },
        { type: 'put', key: `!recall-expiry!${o.timestamp}\0${o.user}\0${o.point}\0${o.id}`, value: k },
      ])
    }
    await store.addObservations([named], [])
    expect(await store.recallAt('alice', 'tier')).toEqual([named, copied, older])
    expect(await store.expireRecall(new Date(T0 - 28 * DAY))).toBe(1)
    expect(await store.recallAt('alice', 'tier')).toEqual([named, copied])
    expect(await store.expireRecall(new Date(T0 + 1))).toBe(2)
    expect(await store.recallAt('alice', 'tier')).toEqual([])
    const left: string[] = []
    for await (const k of db.keys()) if (k.startsWith('!recall')) left.push(k)
    expect(left).toEqual([])
    expect(await store.observationsAt('alice', 'tier')).toHaveLength(3)
    await store.close()
  })
})

describe('a store written before context values were trimmed (format 5)', () => {
  it('rebuilds its aggregates: a padded value is counted as its text, a blank one not at all', async () => {
    const db = new MemoryLevel<string, string>()
    const first = await createLevelStore(db as never, { policy: POLICY })
    await first.addObservations([observation({ at: T0, choice: 'M', context: { phase: ' run ', stage: '' } })], [])
    await first.readPoint('alice', 'tier', new Date(T0), countsIn)
    await first.close()
    await db.open()
    // As format 5 left them: the value counted as sent, in a cell of its own.
    const heads = db.sublevel<string, Record<string, unknown>>('core', { valueEncoding: 'json' })
    await heads.put('alice\u0000tier', { ...(await heads.get('alice\u0000tier')), format: 5 })
    const cells = db.sublevel<string, string>('core-cells', { valueEncoding: 'utf8' })
    const trimmed = `alice\u0000tier\u0000${cellKey.context(null, 'phase', 'run')}`
    const cell = (await cells.get(trimmed)) as string
    await cells.batch([
      { type: 'del', key: trimmed },
      { type: 'put', key: `alice\u0000tier\u0000${cellKey.context(null, 'phase', ' run ')}`, value: cell },
      { type: 'put', key: `alice\u0000tier\u0000${cellKey.context(null, 'stage', '')}`, value: cell },
    ])
    const second = await createLevelStore(db as never, { policy: POLICY })
    const contextCounts = (memory: PointView) =>
      memory.cells([cellKey.context(null, 'phase', 'run'), cellKey.context(null, 'phase', ' run '), cellKey.context(null, 'stage', '')]).map((c) => c?.n ?? 0)
    expect(await second.readPoint('alice', 'tier', new Date(T0), contextCounts)).toEqual([1, 0, 0])
    await second.close()
  })
})

describe('a store written before a tally kept the id of its latest choice (format 7)', () => {
  it('rebuilds its aggregates, so that a tie of one moment goes to the choice recorded last', async () => {
    const db = new MemoryLevel<string, string>()
    const first = await createLevelStore(db as never, { policy: POLICY })
    // 3 choices of S then 3 of L, sent at one moment: L was recorded last.
    const choices = ['S', 'S', 'S', 'L', 'L', 'L'].map((choice) => observation({ at: T0, choice }))
    await first.addObservations(choices, [])
    await first.readPoint('alice', 'tier', new Date(T0), countsIn)
    await first.close()
    await db.open()
    // As a version of format 7 before the ids were kept left them: the head of format 7, no lastId.
    const heads = db.sublevel<string, Record<string, unknown>>('core', { valueEncoding: 'json' })
    await heads.put('alice\u0000tier', { ...(await heads.get('alice\u0000tier')), format: 7 })
    const cells = db.sublevel<string, string>('core-cells', { valueEncoding: 'utf8' })
    const stripped: Array<{ type: 'put'; key: string; value: string }> = []
    for await (const [key, value] of cells.iterator()) stripped.push({ type: 'put', key, value: value.replace(/,"lastId":"[^"]*"/g, '') })
    expect(stripped.some(({ value }) => value.includes('lastId'))).toBe(false)
    await cells.batch(stripped)
    const second = await createLevelStore(db as never, { policy: POLICY })
    const chosenLast = (memory: PointView) => chosenLastOf(memory.cells([cellKey.scope(null)])[0]?.tallies ?? [])
    expect(await second.readPoint('alice', 'tier', new Date(T0), chosenLast)).toEqual(['["L"]'])
    await second.close()
  })
})

describe('a store of cells of format 7 and 8 together, as one used across the upgrade keeps', () => {
  /** alice/tier and bob/tier in core, written by this version, then alice's put back as format 7 left it. */
  async function mixed() {
    const db = new InstrumentedLevel()
    const first = await createLevelStore(db as never, { policy: POLICY })
    const choices = (user: string) => ['S', 'S', 'S', 'L', 'L', 'L'].map((choice) => observation({ at: T0, choice, user }))
    await first.addObservations([...choices('alice'), ...choices('bob')], [])
    for (const user of ['alice', 'bob']) await first.readPoint(user, 'tier', new Date(T0), countsIn)
    await first.close()
    await db.open()
    const heads = db.sublevel<string, Record<string, unknown>>('core', { valueEncoding: 'json' })
    await heads.put('alice\u0000tier', { ...(await heads.get('alice\u0000tier')), format: 7 })
    const cells = db.sublevel<string, string>('core-cells', { valueEncoding: 'utf8' })
    const stripped: Array<{ type: 'put'; key: string; value: string }> = []
    for await (const [key, value] of cells.iterator({ gte: 'alice\u0000', lt: 'alice\u0001' })) stripped.push({ type: 'put', key, value: value.replace(/,"lastId":"[^"]*"/g, '') })
    await cells.batch(stripped)
    db.readsIn.clear()
    return { db, heads, store: await createLevelStore(db as never, { policy: POLICY }) }
  }
  const chosenLast = (memory: PointView) => chosenLastOf(memory.cells([cellKey.scope(null)])[0]?.tallies ?? [])

  it('rebuilds in the decay scan the cells of format 7 only, once, and reads all of them from core after', async () => {
    const { db, heads, store } = await mixed()
    // Opened without a walk of the cells or a rebuild: the scan, or a point's first use, rebuilds it.
    expect([db.readsIn.get('core-cells'), db.readsIn.get('archival')]).toEqual([undefined, undefined])
    expect(await store.inCore('alice', 'tier')).toBe(false)
    expect(await store.inCore('bob', 'tier')).toBe(true)
    expect(await store.maintainCore(new Date(T0))).toEqual({ demoted: 0, refreshed: 1 })
    expect((await heads.get('alice\u0000tier'))?.format).toBe((await heads.get('bob\u0000tier'))?.format)
    expect(await store.maintainCore(new Date(T0))).toEqual({ demoted: 0, refreshed: 0 })
    db.readsIn.clear()
    for (const user of ['alice', 'bob']) expect(await store.readPoint(user, 'tier', new Date(T0), chosenLast)).toEqual(['["L"]'])
    // From core: no read of archival, which a rebuild reads.
    expect(db.readsIn.get('archival')).toBeUndefined()
    await store.close()
  })

  it('rebuilds a point of format 7 at its first read, once; forgets a user of either format whole', async () => {
    const { db, heads, store } = await mixed()
    expect(await store.readPoint('alice', 'tier', new Date(T0), chosenLast)).toEqual(['["L"]'])
    expect(await store.inCore('alice', 'tier')).toBe(true)
    db.readsIn.clear()
    expect(await store.readPoint('alice', 'tier', new Date(T0), chosenLast)).toEqual(['["L"]'])
    expect(db.readsIn.get('archival')).toBeUndefined()
    await store.forgetUser('bob')
    expect(await heads.get('bob\u0000tier')).toBeUndefined()
    const left: string[] = []
    for await (const k of db.keys()) if (k.includes('bob')) left.push(k)
    expect(left).toEqual([])
    expect(await store.maintainCore(new Date(T0))).toEqual({ demoted: 0, refreshed: 0 })
    await store.close()
  })
})

describe('a point read after the clock stepped back behind its newest observation', () => {
  it('is replayed from archival once, then answered from that replay until the point is written', async () => {
    const db = new InstrumentedLevel()
    const store = await createLevelStore(db as never, { policy: POLICY })
    const HOUR = 3_600_000
    const history = Array.from({ length: 40 }, (_, i) => observation({ at: T0 - 3 * HOUR + i * 1000, choice: i % 3 === 0 ? 'S' : 'M' }))
    await store.addObservations([...history, observation({ at: T0, choice: 'L' })], [])
    // In core, its newest observation at T0.
    expect(await store.readPoint('alice', 'tier', new Date(T0), countsIn)).toEqual({ '["M"]': 26, '["S"]': 14, '["L"]': 1 })
    // The clock steps back an hour, and moves on a second at a time.
    const archivalReads = async (at: number) => {
      const before = db.readsIn.get('archival') ?? 0
      const counts = await store.readPoint('alice', 'tier', new Date(at), countsIn)
      return { counts, reads: (db.readsIn.get('archival') ?? 0) - before }
    }
    const first = await archivalReads(T0 - HOUR)
    expect(first.counts).toEqual({ '["M"]': 26, '["S"]': 14 })
    expect(first.reads).toBeGreaterThanOrEqual(40)
    for (let s = 1; s <= 3; s++) expect(await archivalReads(T0 - HOUR + s * 1000)).toEqual({ counts: { '["M"]': 26, '["S"]': 14 }, reads: 0 })
    // Up to the newest observation, the point as core holds it.
    expect((await archivalReads(T0)).counts).toEqual({ '["M"]': 26, '["S"]': 14, '["L"]': 1 })
    // A choice made now, behind the newest: the next read counts it.
    await store.addObservations([observation({ at: T0 - HOUR + 5000, choice: 'S' })], [])
    expect((await archivalReads(T0 - HOUR + 6000)).counts).toEqual({ '["M"]': 26, '["S"]': 15 })
    // Before the replay's latest observation: replayed again, without the choices made after.
    expect((await archivalReads(T0 - 3 * HOUR + 500)).counts).toEqual({ '["S"]': 1 })
    // Forgotten, the user has nothing left to replay.
    await store.forgetUser('alice')
    expect((await archivalReads(T0 - 3 * HOUR + 600)).counts).toEqual({})
    await store.close()
  })
})

describe('replays kept while the clock stands behind a point\'s newest observation, against the observations themselves', () => {
  /** A small deterministic generator: the same run every time. */
  function random(seed: number): () => number {
    let s = seed >>> 0
    return () => {
      s = (s * 1_664_525 + 1_013_904_223) >>> 0
      return s / 2 ** 32
    }
  }

  it.each([1, 2, 3, 4, 5, 6])('answers every read as archival holds it then (run %i): writes behind it, reads racing them, forget, demotion, the scan', async (seed) => {
    const next = random(seed)
    const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T
    const HOUR = 3_600_000
    const USERS = ['alice', 'bob'] as const
    const POINTS = ['tier', 'tier-b', 'tier-c'] as const
    const CHOICES = ['S', 'M', 'L'] as const
    // A small core: points are demoted and rebuilt as the run goes.
    const store = await createLevelStore(new MemoryLevel<string, string>() as never, { policy: { ...POLICY, core: { max_entries: 2 } } })
    let stored: Observation[] = []
    /** What a fresh replay counts: the user's choices at the point up to `at`. */
    const expected = (user: string, point: string, at: number) => {
      const counts: Record<string, number> = {}
      for (const o of stored) {
        if (o.user !== user || o.point !== point || Date.parse(o.timestamp) > at) continue
        const c = JSON.stringify(o.chosen)
        counts[c] = (counts[c] ?? 0) + 1
      }
      return counts
    }
    const write = () => {
      const user = pick(USERS)
      const point = pick(POINTS)
      // Mostly behind the newest (the clock stepped back), on the moments reads ask about too.
      const o = observation({ user, point, at: T0 - Math.floor(next() * 8) * HOUR + (next() < 0.3 ? 1 : 0), choice: pick(CHOICES) })
      stored.push(o)
      return store.addObservations([o], [])
    }
    const moment = () => T0 - Math.floor(next() * 9) * HOUR + pick([0, 0, 1, -1, 1800_000])
    for (let step = 0; step < 160; step++) {
      const r = next()
      if (r < 0.3) await write()
      else if (r < 0.35) {
        const user = pick(USERS)
        await store.forgetUser(user)
        stored = stored.filter((o) => o.user !== user)
      } else if (r < 0.4) await store.maintainCore(new Date(T0 + pick([0, DAY, 30 * DAY])))
      else if (r < 0.5) {
        // Reads racing writes: whatever they answer, what they keep must not outlive the writes.
        const racing: Array<Promise<unknown>> = []
        for (let i = 0; i < 6; i++) {
          const r = next()
          if (r < 0.35) racing.push(write())
          else if (r < 0.45) {
            const user = pick(USERS)
            racing.push(store.forgetUser(user))
          } else racing.push(store.readPoint(pick(USERS), pick(POINTS), new Date(moment()), countsIn))
        }
        await Promise.all(racing)
        // Which of the writes a forget raced went before it is the write queue's: archival says.
        stored = []
        for (const user of USERS) for await (const o of store.observationsOf(user)) stored.push(o)
      } else {
        const user = pick(USERS)
        const point = pick(POINTS)
        const at = moment()
        expect(await store.readPoint(user, point, new Date(at), countsIn), `step ${step}: ${user}/${point} as of ${new Date(at).toISOString()}`).toEqual(expected(user, point, at))
      }
    }
    // Every point at every moment read at the end, as a fresh replay would count it.
    for (const user of USERS) {
      for (const point of POINTS) {
        for (let h = 0; h <= 8; h++) {
          for (const at of [T0 - h * HOUR, T0 - h * HOUR + 1, T0 - h * HOUR - 1]) {
            expect(await store.readPoint(user, point, new Date(at), countsIn)).toEqual(expected(user, point, at))
          }
        }
      }
    }
    await store.close()
  })
})
