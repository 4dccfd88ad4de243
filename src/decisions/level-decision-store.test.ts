import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Level } from 'level'
import { MemoryLevel } from 'memory-level'
import { afterEach, describe, expect, it } from 'vitest'
import { decisionRecord } from '../../test/support/decision-record'
import type { DecisionEvent, DecisionRecord } from './decision'
import { createLevelDecisionStore } from './level-decision-store'
import type { DecisionStore } from './store'

const AT = '2026-07-01T10:00:00.000Z'

function record(key: string, changes: Partial<DecisionRecord> = {}): DecisionRecord {
  return decisionRecord(key, { status: 'proposed', version: 1, ...changes })
}

function event(key: string, seq: number, to: DecisionEvent['to'], at = AT): DecisionEvent {
  return { key, seq, at, type: to, from: null, to }
}

interface Backend {
  name: string
  /** Opens a store; `reopen` opens the same data again after `close`. */
  open(): Promise<{ store: DecisionStore; close(): Promise<void>; reopen(): Promise<DecisionStore> }>
}

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

const backends: Backend[] = [
  {
    name: 'memory-level',
    async open() {
      const db = new MemoryLevel<string, string>()
      const store = await createLevelDecisionStore(db as never)
      return { store, close: () => db.close(), reopen: async () => createLevelDecisionStore(db as never) }
    },
  },
  {
    name: 'classic-level (level)',
    async open() {
      const dir = await mkdtemp(join(tmpdir(), 'dm-decisions-'))
      let db = new Level<string, string>(dir)
      cleanups.push(async () => {
        await db.close()
        await rm(dir, { recursive: true, force: true })
      })
      const store = await createLevelDecisionStore(db as never)
      return {
        store,
        close: () => db.close(),
        reopen: async () => {
          db = new Level<string, string>(dir)
          return createLevelDecisionStore(db as never)
        },
      }
    },
  },
]

describe.each(backends)('decision store on $name', (backend) => {
  it('commits a transaction whole: records, events and the point index', async () => {
    const { store } = await backend.open()
    await store.transact(async (tx) => {
      tx.put(record('D-001', { scope: { points: ['tier'], task: null, path: null, stage: null } }))
      tx.append(event('D-001', 1, 'proposed'))
      tx.put(record('D-002'))
      tx.append(event('D-002', 1, 'proposed'))
    })
    expect((await store.get('D-001'))?.title).toBe('title of D-001')
    expect((await store.list()).map((d) => d.key)).toEqual(['D-001', 'D-002'])
    expect((await store.list({ point: 'tier' })).map((d) => d.key)).toEqual(['D-001'])
    expect(await store.list({ point: 'other' })).toEqual([])
    expect(await store.events('D-001')).toEqual([event('D-001', 1, 'proposed')])
  })

  it('writes nothing of a transaction that throws', async () => {
    const { store } = await backend.open()
    await expect(
      store.transact(async (tx) => {
        tx.put(record('D-001'))
        tx.append(event('D-001', 1, 'proposed'))
        throw new Error('changed my mind')
      }),
    ).rejects.toThrow('changed my mind')
    expect(await store.get('D-001')).toBeUndefined()
    expect(await store.events('D-001')).toEqual([])
  })

  it('reads its own puts inside a transaction, and lists keys across both', async () => {
    const { store } = await backend.open()
    await store.transact(async (tx) => tx.put(record('D-001')))
    const seen = await store.transact(async (tx) => {
      tx.put(record('D-002', { title: 'new' }))
      return { own: (await tx.get('D-002'))?.title, keys: await tx.keys() }
    })
    expect(seen).toEqual({ own: 'new', keys: ['D-001', 'D-002'] })
  })

  it('keeps the history append-only: an event is never written twice', async () => {
    const { store } = await backend.open()
    await store.transact(async (tx) => tx.append(event('D-001', 1, 'proposed')))
    await expect(store.transact(async (tx) => tx.append(event('D-001', 1, 'accepted')))).rejects.toThrow(/append-only/)
    expect(await store.events('D-001')).toEqual([event('D-001', 1, 'proposed')])
  })

  it('returns events in order of their number, past 9 and 10', async () => {
    const { store } = await backend.open()
    await store.transact(async (tx) => {
      for (let seq = 12; seq >= 1; seq--) tx.append(event('D-001', seq, 'accepted'))
      tx.append(event('D-0010', 1, 'proposed'))
    })
    expect((await store.events('D-001')).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    expect((await store.events('D-0010')).map((e) => e.seq)).toEqual([1])
  })

  it('moves the point index when the points of a decision change', async () => {
    const { store } = await backend.open()
    const scope = (points: string[]) => ({ points, task: null, path: null, stage: null })
    await store.transact(async (tx) => tx.put(record('D-001', { scope: scope(['tier', 'method']) })))
    await store.transact(async (tx) => tx.put(record('D-001', { scope: scope(['method', 'model']) })))
    expect(await store.list({ point: 'tier' })).toEqual([])
    expect((await store.list({ point: 'model' })).map((d) => d.key)).toEqual(['D-001'])
    expect((await store.list({ point: 'method' })).map((d) => d.key)).toEqual(['D-001'])
  })

  it('answers a point read before a decision came to bind it, or stopped binding it, as it is now', async () => {
    const { store } = await backend.open()
    const scope = (points: string[]) => ({ points, task: null, path: null, stage: null })
    // Read first: the store keeps what binds a point in memory, and a write must not leave it stale.
    expect(await store.list({ point: 'tier' })).toEqual([])
    await store.transact(async (tx) => tx.put(record('D-001', { scope: scope(['tier']) })))
    expect((await store.list({ point: 'tier' })).map((d) => d.key)).toEqual(['D-001'])
    await store.transact(async (tx) => tx.put(record('D-001', { status: 'accepted', scope: scope(['tier']) })))
    expect((await store.list({ point: 'tier' })).map((d) => d.status)).toEqual(['accepted'])
    await store.transact(async (tx) => tx.put(record('D-001', { scope: scope(['model']) })))
    expect(await store.list({ point: 'tier' })).toEqual([])
  })

  it('filters by status', async () => {
    const { store } = await backend.open()
    await store.transact(async (tx) => {
      tx.put(record('D-001', { status: 'accepted' }))
      tx.put(record('D-002'))
    })
    expect((await store.list({ status: 'accepted' })).map((d) => d.key)).toEqual(['D-001'])
  })

  it('counts pulses per decision and per doorway, first and last time', async () => {
    const { store } = await backend.open()
    await store.pulse(['D-001', 'D-002', 'D-001'], 'applicable', '2026-07-01T10:00:00.000Z')
    await store.pulse(['D-001'], 'check', '2026-07-02T10:00:00.000Z')
    await store.pulse([], 'check', '2026-07-03T10:00:00.000Z')
    const pulses = await store.pulses()
    expect(pulses).toEqual([
      {
        key: 'D-001',
        count: 2,
        by: { applicable: 1, recommendation: 0, check: 1 },
        first_at: '2026-07-01T10:00:00.000Z',
        last_at: '2026-07-02T10:00:00.000Z',
      },
      {
        key: 'D-002',
        count: 1,
        by: { applicable: 1, recommendation: 0, check: 0 },
        first_at: '2026-07-01T10:00:00.000Z',
        last_at: '2026-07-01T10:00:00.000Z',
      },
    ])
  })

  it('counts every pulse of concurrent callers', async () => {
    const { store } = await backend.open()
    await Promise.all(Array.from({ length: 25 }, () => store.pulse(['D-001'], 'recommendation', AT)))
    expect((await store.pulses())[0]?.count).toBe(25)
  })

  it('runs concurrent transactions one after the other', async () => {
    const { store } = await backend.open()
    await store.transact(async (tx) => tx.put(record('D-001', { version: 0 })))
    // Each reads the version and writes it plus one: lost updates would leave fewer than 20.
    await Promise.all(
      Array.from({ length: 20 }, () =>
        store.transact(async (tx) => {
          const current = (await tx.get('D-001')) as DecisionRecord
          tx.put({ ...current, version: current.version + 1 })
        }),
      ),
    )
    expect((await store.get('D-001'))?.version).toBe(20)
  })

  it('keeps everything when the database is closed and opened again', async () => {
    const { store, close, reopen } = await backend.open()
    await store.transact(async (tx) => {
      tx.put(record('D-001', { scope: { points: ['tier'], task: null, path: null, stage: null } }))
      tx.append(event('D-001', 1, 'proposed'))
    })
    await store.pulse(['D-001'], 'applicable', AT)
    await close()
    const again = await reopen()
    expect((await again.list({ point: 'tier' })).map((d) => d.key)).toEqual(['D-001'])
    expect(await again.events('D-001')).toHaveLength(1)
    expect((await again.pulses())[0]?.count).toBe(1)
  })
})
