import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Level } from 'level'
import { MemoryLevel } from 'memory-level'
import { afterAll, describe, expect, it } from 'vitest'
import { InstrumentedLevel } from '../../test/support/instrumented-level'
import { observation } from '../../test/support/observations'
import { createLevelStore } from './level-store'
import { storeSuite } from './store.suite'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

storeSuite('memory-level', () => createLevelStore(new MemoryLevel<string, string>() as never))

storeSuite('classic-level', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dm-store-'))
  dirs.push(dir)
  return createLevelStore(new Level<string, string>(dir) as never)
})

describe('latestMultiSelectAt at a point in core', () => {
  it('reads nothing from the store after an observation is written there: capture asks it before each string choice', async () => {
    const db = new InstrumentedLevel()
    const store = await createLevelStore(db as never)
    const now = new Date('2026-07-09T00:00:00.000Z')
    await store.addObservations([observation({ chosen: ['Lint', 'Test'], multi_select: true, timestamp: '2026-07-01T00:00:00.000Z' })], [])
    await store.readPoint('alice', 'tier', now, () => null)
    expect(await store.latestMultiSelectAt('alice', 'tier', now)).toBe(true)
    for (const [o, flag] of [
      [observation({ chosen: ['Lint'], multi_select: false, timestamp: '2026-07-02T00:00:00.000Z' }), false],
      [observation({ chosen: ['Lint', 'Test'], multi_select: true, timestamp: '2026-07-03T00:00:00.000Z' }), true],
    ] as const) {
      await store.addObservations([o], [])
      const before = db.reads
      expect(await store.latestMultiSelectAt('alice', 'tier', now)).toBe(flag)
      // Read again, the point's head and the observations waiting there were read after each write.
      expect(db.reads - before).toBe(0)
    }
    await store.close()
  })

  /** A store whose read of alice's head in core waits, once armed, until `release`d; `reached` once it waits. */
  async function heldAtAlicesHead() {
    const db = new InstrumentedLevel()
    const store = await createLevelStore(db as never)
    const internals = db as unknown as { _get: (key: unknown, options: unknown) => Promise<unknown> }
    const get = internals._get
    let armed = false
    let reached = () => {}
    let release = () => {}
    const waits = { reached: new Promise<void>((resolve) => (reached = resolve)), release: () => release() }
    const gate = new Promise<void>((resolve) => (release = resolve))
    internals._get = async (key, options) => {
      const text = typeof key === 'string' ? key : Buffer.from(key as Uint8Array).toString('utf8')
      if (armed && /^!core!alice\u0000/.test(text)) {
        armed = false
        reached()
        await gate
      }
      return get(key, options)
    }
    return { db, store, waits, arm: () => (armed = true) }
  }

  it('keeps the latest choice read while a write at another point ran: under a load of observations one always runs', async () => {
    const { db, store, waits, arm } = await heldAtAlicesHead()
    const now = new Date('2026-07-09T00:00:00.000Z')
    await store.addObservations([observation({ chosen: ['Lint', 'Test'], multi_select: true, timestamp: '2026-07-01T00:00:00.000Z' })], [])
    await store.readPoint('alice', 'tier', now, () => null)
    // Out of the hot entries: the next read of the flag reads the point's head.
    await store.addObservations([observation({ chosen: ['Lint'], multi_select: false, timestamp: '2026-07-02T00:00:00.000Z' })], [])
    arm()
    const asked = store.latestMultiSelectAt('alice', 'tier', now)
    await waits.reached
    await store.addObservations([observation({ user: 'bob', chosen: ['Lint'], timestamp: '2026-07-02T00:00:00.000Z' })], [])
    waits.release()
    expect(await asked).toBe(false)
    const before = db.reads
    expect(await store.latestMultiSelectAt('alice', 'tier', now)).toBe(false)
    // Kept, though a write ran meanwhile: bob's, at another point (keeping nothing, it was read again).
    expect(db.reads - before).toBe(0)
    await store.close()
  })

  it('keeps nothing of a read that a write at its own point raced, and tells that write after it', async () => {
    const { store, waits, arm } = await heldAtAlicesHead()
    const now = new Date('2026-07-09T00:00:00.000Z')
    await store.addObservations([observation({ chosen: ['Lint', 'Test'], multi_select: true, timestamp: '2026-07-01T00:00:00.000Z' })], [])
    await store.readPoint('alice', 'tier', now, () => null)
    await store.addObservations([observation({ chosen: ['Lint'], multi_select: false, timestamp: '2026-07-02T00:00:00.000Z' })], [])
    arm()
    const asked = store.latestMultiSelectAt('alice', 'tier', now)
    await waits.reached
    await store.addObservations([observation({ chosen: ['Lint', 'Test'], multi_select: true, timestamp: '2026-07-03T00:00:00.000Z' })], [])
    waits.release()
    // As of its snapshot, or after the write: either way not kept, so the next read tells the write.
    expect([true, false]).toContain(await asked)
    expect(await store.latestMultiSelectAt('alice', 'tier', now)).toBe(true)
    await store.close()
  })

  it('keeps nothing of a read that a forget of its user raced, and tells the choices made after it', async () => {
    const { store, waits, arm } = await heldAtAlicesHead()
    const now = new Date('2026-07-09T00:00:00.000Z')
    await store.addObservations([observation({ chosen: ['Lint', 'Test'], multi_select: true, timestamp: '2026-07-01T00:00:00.000Z' })], [])
    await store.readPoint('alice', 'tier', now, () => null)
    await store.addObservations([observation({ chosen: ['Lint', 'Test'], multi_select: true, timestamp: '2026-07-02T00:00:00.000Z' })], [])
    arm()
    const asked = store.latestMultiSelectAt('alice', 'tier', now)
    await waits.reached
    // Forgotten while the read waits on the head it read before; then back with a choice dated
    // before the ones forgotten, which a kept read would still count as later.
    await store.forgetUser('alice')
    waits.release()
    await asked
    await store.addObservations([observation({ chosen: ['Lint'], multi_select: false, timestamp: '2026-06-30T00:00:00.000Z' })], [])
    expect(await store.latestMultiSelectAt('alice', 'tier', now)).toBe(false)
    await store.readPoint('alice', 'tier', now, () => null)
    expect(await store.latestMultiSelectAt('alice', 'tier', now)).toBe(false)
    await store.close()
  })

  it('keeps the latest choice as it was through a write that failed and a re-send stored already', async () => {
    const db = new InstrumentedLevel()
    const store = await createLevelStore(db as never)
    const now = new Date('2026-07-09T00:00:00.000Z')
    const sent = observation({ chosen: ['Lint', 'Test'], multi_select: true, decision_id: 'd-1', timestamp: '2026-07-01T00:00:00.000Z' })
    await store.addObservations([sent], [])
    await store.readPoint('alice', 'tier', now, () => null)
    expect(await store.latestMultiSelectAt('alice', 'tier', now)).toBe(true)
    db.failBatch(1)
    await expect(store.addObservations([observation({ chosen: ['Lint'], multi_select: false, timestamp: '2026-07-02T00:00:00.000Z' })], [])).rejects.toThrow('injected fault')
    expect(await store.latestMultiSelectAt('alice', 'tier', now)).toBe(true)
    // Sent again under its decision_id, single-select and later, beside a new choice elsewhere: nothing of it stored.
    const again = observation({ ...sent, id: 'obs-again', chosen: ['Lint'], multi_select: false, timestamp: '2026-07-03T00:00:00.000Z' })
    const result = await store.addObservations([again, observation({ point: 'other', chosen: ['Lint'], timestamp: '2026-07-03T00:00:00.000Z' })], [])
    expect(result.duplicates).toEqual(['d-1'])
    expect(await store.latestMultiSelectAt('alice', 'tier', now)).toBe(true)
    await store.close()
  })
})
