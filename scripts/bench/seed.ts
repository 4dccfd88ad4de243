// Seeds a store directly, through its own write path (DecisionMemory.observe, then the store's
// atomic batch), not through HTTP: a million observations fit in a few minutes this way.
import { Level } from 'level'
import { fixedClock } from '../../src/clock'
import { loadPolicy } from '../../src/config/load-policy'
import { createDecisionMemory } from '../../src/decision-memory'
import type { ObservationInput } from '../../src/domain/observation'
import { createLevelStore } from '../../src/memory/level-store'
import { LEVEL_OPTIONS } from '../../src/open-store'

/** Observations per call of observe: one atomic batch each. */
const BATCH = 2_000

/**
 * Stores every observation `histories` yields into a LevelDB store under `dir`, opened with the
 * default policy as the service opens it, in batches of BATCH; writes are not synced (a benchmark's
 * data need not survive a power cut), the store is recorded as scanned at `now` and closed (flushed)
 * at the end. Returns the count.
 * Its table files are the size the service writes (LEVEL_OPTIONS), so that the store is laid out as
 * one the service wrote; its write buffer and caches are LevelDB's defaults, larger than the
 * service's, for a faster load (the write buffer sizes only the files of level 0, which compaction
 * rewrites).
 */
export async function seedStore(options: {
  dir: string
  now: Date
  histories: Iterable<ObservationInput[]>
  onProgress?: (stored: number) => void
}): Promise<number> {
  const policy = await loadPolicy()
  const store = await createLevelStore(new Level<string, string>(options.dir, { maxFileSize: LEVEL_OPTIONS.maxFileSize }) as never, { sync: false, policy })
  const memory = createDecisionMemory({ store, policy, clock: fixedClock(options.now) })
  let pending: ObservationInput[] = []
  let stored = 0
  const flush = async () => {
    const result = await memory.observe(pending)
    stored += result.stored.length
    pending = []
    options.onProgress?.(stored)
  }
  for (const history of options.histories) {
    for (const observation of history) {
      pending.push(observation)
      if (pending.length >= BATCH) await flush()
    }
  }
  if (pending.length > 0) await flush()
  // Recorded as scanned now, as a store its service scans each day is: `serve` scans at start a
  // store not scanned within the cadence, and on this one that scan (920,000 observations past the
  // TTL) would run under the HTTP load; the decay scan's own figure is a forced scan, after it.
  await store.recordDecayScan(options.now.toISOString())
  await store.close()
  return stored
}
