import { MemoryLevel } from 'memory-level'
import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../test/support/crash-cycles'
import { aggregateObservations, cellsOf, emptyCell, type Cell, type CellKey } from '../domain/aggregate'
import type { Observation } from '../domain/observation'
import { createLevelStore, type TierPolicy } from './level-store'
import type { MemoryStore } from './store'

const T0 = Date.parse('2026-07-01T10:00:00Z')
const MINUTE = 60_000
const DAY = 86_400_000
const USERS = ['u1', 'u2']
const POINTS = ['p1', 'p2', 'p3', 'p4']
const HOT_USERS = ['u1', 'u1', 'u1', 'u2']
const HOT_POINTS = ['p1', 'p1', 'p1', 'p1', 'p2', 'p2', 'p3', 'p4']
// Three aggregates in core at most, of eight points: reads and the decay scan demote all the time.
const POLICY: TierPolicy = { decay: { alpha: 0.5 }, context: { precondition_share: 0.8 }, core: { max_entries: 3 } }
const OTHER: TierPolicy = { ...POLICY, decay: { alpha: 0.6 } }

/** What a cell counts, as a rebuild from archival would: its weights and precondition counters aside (approximate, order-dependent). */
function counted(cell: Cell): unknown {
  return {
    n: cell.n,
    tallies: [...cell.tallies].map(([category, { n, first, last }]) => [category, n, first, last]).sort(),
    evidence: cell.evidence,
  }
}

/** A database whose writes fail when `failing` says so, as a disk that is full or gone would. */
function faultyDb(failing: () => boolean): MemoryLevel<string, string> {
  const db = new MemoryLevel<string, string>()
  const inner = db as unknown as Record<'_batch' | '_put' | '_del' | '_clear', (...args: unknown[]) => Promise<void>>
  for (const name of ['_batch', '_put', '_del', '_clear'] as const) {
    const write = inner[name].bind(db)
    inner[name] = async (...args) => {
      if (failing()) throw new Error('injected write fault')
      return write(...args)
    }
  }
  return db
}

/**
 * Runs `steps` random steps (groups of observations, reads, forgets, decay scans, the store opened
 * again, under another policy and back) against a small core, some writes failing when `faults`,
 * and checks after each that every point reads as a rebuild of what archival holds.
 */
async function run(seed: number, steps: number, faults: boolean): Promise<void> {
  const random = seededRandom(seed)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T
  let armed = false
  const db = faultyDb(() => armed && random() < 0.08)
  let store: MemoryStore = await createLevelStore(db as never, { policy: POLICY })
  let now = T0
  let serial = 0
  const observation = (user: string, point: string): Observation => {
    const at = now - (random() < 0.2 ? Math.floor(random() * 3 * DAY) : 0)
    const i = serial++
    return {
      id: `obs-${String(i).padStart(6, '0')}`,
      user,
      project: pick(['p', 'q', null]),
      session_id: pick(['s-0', 's-1', 's-2', null]),
      point,
      decision_id: random() < 0.1 ? `d-${Math.floor(random() * 20)}` : null,
      timestamp: new Date(at).toISOString(),
      recorded_at: new Date(now).toISOString(),
      question: 'Which tier?',
      header: null,
      options: ['S', 'M', 'L'],
      chosen: [pick(['S', 'M', 'L'])],
      other: null,
      multi_select: false,
      context: random() < 0.5 ? { phase: pick(['plan', 'run']) } : {},
      source: random() < 0.15 ? 'auto-resolved' : 'user',
    }
  }
  /** Every point reads as a rebuild of archival does, and nothing waits in core at a point with no head. */
  const check = async (step: number, points: Array<[string, string]>) => {
    for (const [user, point] of points) {
      {
        const stored = await store.observationsAt(user, point)
        const keys: CellKey[] = [...new Set(stored.flatMap((o) => cellsOf(o).map((c) => c.key)))]
        const rebuilt = aggregateObservations(stored, store.aggregation)
        const expected = keys.map((k) => counted(rebuilt.cells.get(k) ?? emptyCell()))
        const read = await store.readPoint(user, point, new Date(now), (memory) => memory.cells(keys).map(counted))
        expect(read, `seed ${seed}, step ${step}: ${user}/${point}`).toEqual(expected)
      }
    }
    if (faults) return
    // Without faults: nothing of a point out of core is left in core-pending or core-cells.
    const headed = new Set<string>()
    const held: string[] = []
    for await (const k of db.keys({ gte: '!core!', lt: '!core"' })) headed.add(k.slice('!core!'.length))
    for await (const k of db.keys({ gte: '!core-', lt: '!core.' })) {
      const [user, point] = k.slice(k.indexOf('!', 1) + 1).split('\u0000')
      if (!headed.has(`${user}\u0000${point}`)) held.push(k)
    }
    expect(held, `seed ${seed}, step ${step}`).toEqual([])
  }
  let policy = POLICY
  for (let step = 0; step < steps; step++) {
    const roll = random()
    armed = faults
    try {
      if (roll < 0.5) {
        // Most at a few points, which then count what waits into their cells now and then.
        const group = Array.from({ length: 1 + Math.floor(random() * 16) }, () => observation(pick(HOT_USERS), pick(HOT_POINTS)))
        await store.addObservations(group, [])
      } else if (roll < 0.75) {
        await store.readPoint(pick(HOT_USERS), pick(HOT_POINTS), new Date(now), (memory) => memory.cells([]))
      } else if (roll < 0.82) {
        await store.maintainCore(new Date(now))
      } else if (roll < 0.86) {
        await store.forgetUser(pick(USERS))
      } else if (roll < 0.92) {
        armed = false
        await store.close()
        // Now and then under another policy, and back under this one at the next.
        policy = policy === POLICY && random() < 0.4 ? OTHER : POLICY
        store = await createLevelStore(db as never, { policy })
      } else {
        now += random() < 0.5 ? Math.floor(random() * 60) * MINUTE : Math.floor(random() * 20) * DAY
      }
    } catch (error) {
      if (!(error instanceof Error) || !error.message.includes('injected write fault')) throw error
    }
    armed = false
    // A read checks a point and puts it in core: one a step, or every point would be read in turn.
    await check(step, [[pick(HOT_USERS), pick(HOT_POINTS)]])
  }
  await check(steps, USERS.flatMap((user) => POINTS.map((point): [string, string] => [user, point])))
  await store.close()
}

describe('core against a rebuild from archival, over random writes, reads, forgets, scans and reopenings', () => {
  it.each([1, 2, 3, 4])('reads every point as archival rebuilds it (seed %i)', async (seed) => {
    await run(seed, 150, false)
  })

  it.each([11, 12, 13, 14])('reads every point as archival rebuilds it, some writes failing (seed %i)', async (seed) => {
    await run(seed, 150, true)
  })
})
