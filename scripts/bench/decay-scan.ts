// Section 3: the decay scan (R-MEM-7) over a large store against a raw classic-level iteration
// over the same observations, in the same process on the same data.
import { Level } from 'level'
import { systemClock } from '../../src/clock'
import { loadPolicy } from '../../src/config/load-policy'
import { createDecisionMemory } from '../../src/decision-memory'
import { createLevelStore } from '../../src/memory/level-store'
import type { DecayScanRan } from '../../src/memory/decay-scan'

export interface DecayScanCost {
  observations: number
  rawIterationMs: number
  scanMs: number
  ratio: number
  scan: DecayScanRan
}

/**
 * Every observation of archival read raw (keys and values as stored, nothing decoded), as fast as
 * LevelDB gives them: the floor of any pass over the observations. Returns the count and the time.
 */
async function rawIteration(dir: string): Promise<{ count: number; ms: number }> {
  const db = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' })
  await db.open()
  const started = performance.now()
  let count = 0
  for await (const [key] of db.iterator({ gte: '!archival!', lt: '!archival"' })) if (key !== '') count++
  const ms = performance.now() - started
  await db.close()
  return { count, ms }
}

/** Times a raw iteration, a forced decay scan, and a raw iteration again; the ratio is to their mean. */
export async function decayScanCost(options: { dir: string; log: (line: string) => void }): Promise<DecayScanCost> {
  const before = await rawIteration(options.dir)
  options.log(`raw iteration: ${before.count} observations in ${before.ms.toFixed(0)} ms`)
  const policy = await loadPolicy()
  const store = await createLevelStore(new Level<string, string>(options.dir) as never, { policy })
  const memory = createDecisionMemory({ store, policy, clock: systemClock })
  const started = performance.now()
  const scan = (await memory.decayScan({ force: true })) as DecayScanRan
  const scanMs = performance.now() - started
  await store.close()
  options.log(`decay scan: ${JSON.stringify(scan)} in ${scanMs.toFixed(0)} ms`)
  const after = await rawIteration(options.dir)
  options.log(`raw iteration: ${after.count} observations in ${after.ms.toFixed(0)} ms`)
  const rawIterationMs = (before.ms + after.ms) / 2
  return { observations: before.count, rawIterationMs, scanMs, ratio: scanMs / rawIterationMs, scan }
}
