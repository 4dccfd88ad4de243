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
})
