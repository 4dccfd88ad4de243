import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AbstractLevel } from 'abstract-level'
import { Level } from 'level'
import { MemoryLevel } from 'memory-level'
import { afterAll, describe, expect, it } from 'vitest'
import { InstrumentedLevel } from '../../test/support/instrumented-level'
import { cellKey } from '../domain/aggregate'
import type { Observation } from '../domain/observation'
import { createLevelStore } from './level-store'
import type { MemoryStore, SessionRecord } from './store'

type Db = AbstractLevel<string, string, string>

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

/** The one suite, run against every backend (STYLE 2). */
const backends: Array<[string, () => Promise<Db>]> = [
  ['memory-level', async () => new MemoryLevel<string, string>() as unknown as Db],
  [
    'classic-level',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'dm-store-'))
      dirs.push(dir)
      return new Level<string, string>(dir) as unknown as Db
    },
  ],
]

let counter = 0
function observation(user: string, point: string, fields: Partial<Observation> = {}): Observation {
  counter++
  return {
    id: `obs-${counter}`,
    user,
    project: 'acme/api',
    session_id: `s-${user}`,
    point,
    decision_id: `d-${counter}`,
    timestamp: new Date(Date.UTC(2026, 6, 1, 10, 0, counter)).toISOString(),
    recorded_at: '2026-07-01T10:00:00.000Z',
    question: 'Which tier?',
    header: 'Tier',
    options: ['Tier S', 'Tier M'],
    chosen: ['Tier M'],
    other: null,
    multi_select: false,
    context: { phase: 'run' },
    source: 'user',
    ...fields,
  }
}

function session(user: string, id: string): SessionRecord {
  return { session_id: id, user, project: null, started_at: '2026-07-01T10:00:00.000Z', personalization: true }
}

/** Every key and value of the whole database, as a raw scan sees them. */
async function rawScan(db: Db): Promise<Array<[string, string]>> {
  const entries: Array<[string, string]> = []
  for await (const [k, v] of db.iterator({ keyEncoding: 'utf8', valueEncoding: 'utf8' })) entries.push([k as string, v as string])
  return entries
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of items) out.push(item)
  return out
}

describe.each(backends)('forget and export on %s (R-SVC-5)', (_name, open) => {
  async function seeded(): Promise<{ db: Db; store: MemoryStore }> {
    const db = await open()
    const store = await createLevelStore(db as never)
    await store.addObservations(
      [observation('alice', 'tier'), observation('alice', 'methodology', { project: 'other' }), observation('bob', 'tier')],
      [session('alice', 's-alice'), session('bob', 's-bob'), session('alice', 'shared'), session('bob', 'shared')],
    )
    // Sublevels this store does not know, as other parts add them: aggregates keyed by user,
    // decisions whose value names the user.
    const aggregates = db.sublevel<string, unknown>('aggregates', { valueEncoding: 'json' })
    await aggregates.put('alice\u0000acme/api\u0000tier', { weights: { 'Tier M': 1 } })
    await aggregates.put('bob\u0000acme/api\u0000tier', { weights: { 'Tier M': 1 } })
    const decisions = db.sublevel<string, unknown>('decisions', { valueEncoding: 'json' })
    await decisions.put('D-001', { key: 'D-001', user: 'alice', title: 'Use TDD' })
    await decisions.put('D-002', { key: 'D-002', user: 'bob', title: 'Use DDD' })
    return { db, store }
  }

  it('leaves no key or value naming alice, and every entry of bob as it was', async () => {
    const { db, store } = await seeded()
    const before = await rawScan(db)
    const bobs = before.filter(([k, v]) => !k.includes('alice') && !v.includes('alice'))
    const { deleted } = await store.forgetUser('alice')
    const after = await rawScan(db)
    expect(after.filter(([k, v]) => k.includes('alice') || v.includes('alice'))).toEqual([])
    expect(after).toEqual(bobs)
    expect(deleted).toBe(before.length - bobs.length)
    expect(await collect(store.observationsOf('alice'))).toEqual([])
    expect(await store.sessionOwners('shared')).toEqual(['bob'])
    expect(await collect(store.observationsOf('bob'))).toHaveLength(1)
    await store.close()
  })

  it('stays clean when alice is asked about again: a point with no observation is neither built nor kept', async () => {
    const { db, store } = await seeded()
    // Her points in core first, as her recommendations put them there.
    for (const point of ['tier', 'methodology']) await store.readPoint('alice', point, new Date('2026-07-02T00:00:00.000Z'), () => null)
    expect((await rawScan(db)).some(([k]) => k.startsWith('!core!alice'))).toBe(true)
    await store.forgetUser('alice')
    const after = await rawScan(db)
    const counts = await store.readPoint('alice', 'tier', new Date('2026-07-02T00:00:00.000Z'), (view) => view.cells([cellKey.scope(null)])[0]?.n)
    expect(counts).toBe(0)
    await store.readPoint('carol', 'tier', new Date('2026-07-02T00:00:00.000Z'), () => null)
    expect(await rawScan(db)).toEqual(after)
    // Once she is observed again, her point is built as before.
    await store.addObservations([observation('alice', 'tier')], [])
    expect(await store.readPoint('alice', 'tier', new Date('2026-07-02T00:00:00.000Z'), (view) => view.cells([cellKey.scope(null)])[0]?.n)).toBe(1)
    expect((await rawScan(db)).some(([k]) => k.startsWith('!core!alice'))).toBe(true)
    await store.close()
  })

  it('keeps another user’s data that merely mentions the name', async () => {
    const db = await open()
    const store = await createLevelStore(db as never)
    await store.addObservations(
      [observation('bob', 'alice', { decision_id: 'alice', session_id: 'alice', context: { reviewer: 'alice' } })],
      [session('bob', 'alice')],
    )
    const before = await rawScan(db)
    expect(await store.forgetUser('alice')).toEqual({ deleted: 0 })
    expect(await rawScan(db)).toEqual(before)
    await store.close()
  })

  it('forgets the user and nothing written beside it', async () => {
    const { store } = await seeded()
    const writes = Array.from({ length: 40 }, (_, i) =>
      store.addObservations([observation('bob', 'tier', { decision_id: `concurrent-${i}` })], []),
    )
    await Promise.all([store.forgetUser('alice'), ...writes])
    const bobs = await collect(store.observationsOf('bob'))
    expect(bobs.filter((o) => o.decision_id?.startsWith('concurrent-'))).toHaveLength(40)
    expect(await collect(store.observationsOf('alice'))).toEqual([])
    await store.close()
  })

  it('lists sessions, and the entries of sublevels it has no typed reader for', async () => {
    const { store } = await seeded()
    expect((await collect(store.sessionsOf('alice'))).map((s) => s.session_id).sort()).toEqual(['s-alice', 'shared'])
    expect(await collect(store.untypedEntriesOf('alice'))).toEqual([
      { sublevel: 'aggregates', key: ['alice', 'acme/api', 'tier'], value: { weights: { 'Tier M': 1 } } },
      { sublevel: 'decisions', key: ['D-001'], value: { key: 'D-001', user: 'alice', title: 'Use TDD' } },
    ])
    await store.close()
  })
})

describe('export of a user\'s aggregates (R-SVC-5)', () => {
  it('gives the aggregates in core of the user alone, reading no observation of anyone to find them', async () => {
    const db = new InstrumentedLevel()
    const store = await createLevelStore(db as never)
    await store.addObservations(
      [observation('alice', 'tier'), observation('alice', 'methodology'), ...Array.from({ length: 20 }, () => observation('bob', 'tier'))],
      [session('alice', 's-alice'), session('bob', 's-bob')],
    )
    const at = new Date('2026-07-02T00:00:00.000Z')
    for (const [user, point] of [['alice', 'tier'], ['alice', 'methodology'], ['bob', 'tier']] as const) await store.readPoint(user, point, at, () => null)
    // What the aggregates are: every entry of core's sublevels that is alice's, in the store's order.
    const expected = (await rawScan(db as unknown as Db))
      .filter(([k]) => /^!core(-cells|-pending)?!/.test(k) && k.includes('alice'))
      .map(([k]) => k)
    expect(expected.length).toBeGreaterThan(0)
    db.readsIn.clear()
    const aggregates = await collect(store.aggregatesOf('alice'))
    expect(aggregates.map((e) => `!${e.sublevel}!${e.key.join('\u0000')}`)).toEqual(expected)
    expect(aggregates.every((e) => e.key[0] === 'alice')).toBe(true)
    // Read from core's sublevels alone: no scan of the whole store ('' counts one), no observation.
    expect([...db.readsIn].filter(([sublevel, n]) => n > 0 && !/^core(-cells|-pending)?$/.test(sublevel))).toEqual([])
    await store.close()
  })
})
