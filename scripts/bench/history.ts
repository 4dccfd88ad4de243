// Section 2: what a recommendation costs against the length of the history (R-MEM-8): the same
// point, asked the same way, for users with 10, 1,000 and 100,000 observations there, in process
// on LevelDB (the service's backend), with each aggregate in core as it is after its first use,
// and computed on every call (an answer asked again is not served from memory here).
import { Level } from 'level'
import { systemClock } from '../../src/clock'
import { loadPolicy } from '../../src/config/load-policy'
import { createDecisionMemory } from '../../src/decision-memory'
import type { RecommendationRequest } from '../../src/domain/recommendation'
import { createLevelStore } from '../../src/memory/level-store'
import { median } from './http-load'
import { seedStore } from './seed'
import { historyOf, recommendationBody, SESSION_LENGTH } from './workload'

export interface HistoryCost {
  sizes: Array<{ observations: number; microseconds: number }>
  /** Median cost of a call at the largest history over that at the smallest. */
  ratio: number
  rounds: number
  callsPerRound: number
}

/** Seeds one user per size at the same point (the complexity tier), then times rounds × callsPerRound recommendations per size, interleaved. */
export async function historyCost(options: {
  dir: string
  sizes: readonly number[]
  rounds: number
  callsPerRound: number
  log: (line: string) => void
}): Promise<HistoryCost> {
  const now = new Date()
  const users = options.sizes.map((size) => ({ size, user: `history-${size}`, u: 900_000 + size }))
  const seeded = await seedStore({
    dir: options.dir,
    now,
    histories: users.map(({ size, user, u }) => historyOf(user, u, size, now, 365, 1)),
  })
  options.log(`seeded ${seeded} observations at one point`)

  // The computation is what grows with the history, if anything does: no answer is served again
  // from memory here (cache.seconds 0), so every call reads the aggregate and computes.
  const policy = { ...(await loadPolicy()), cache: { seconds: 0, megabytes: 0 } }
  const store = await createLevelStore(new Level<string, string>(options.dir) as never, { policy })
  const memory = createDecisionMemory({ store, policy, clock: systemClock })
  const requests = users.map(({ size, user, u }) => ({
    size,
    request: { ...recommendationBody(user, u, 0, Math.ceil(size / SESSION_LENGTH)) } as RecommendationRequest,
  }))
  // The first use puts each aggregate in core (a rebuild from archival); later ones read core.
  // A few more warm the process (JIT) before anything is timed.
  for (let i = 0; i < 20; i++) for (const { request } of requests) await memory.recommend(request)
  // Calls interleaved one by one across the sizes, each timed alone: the median of each size's
  // calls holds against bursts of load from other processes, which hit every size alike.
  const perCall = new Map<number, number[]>(options.sizes.map((size) => [size, []]))
  for (let r = 0; r < options.rounds; r++) {
    for (let i = 0; i < options.callsPerRound; i++) {
      const order = (r + i) % 2 === 0 ? requests : [...requests].reverse()
      for (const { size, request } of order) {
        const started = performance.now()
        await memory.recommend(request)
        perCall.get(size)?.push((performance.now() - started) * 1000)
      }
    }
  }
  await store.close()
  const sizes = options.sizes.map((size) => ({ observations: size, microseconds: median(perCall.get(size) as number[]) }))
  return {
    sizes,
    ratio: (sizes[sizes.length - 1]?.microseconds as number) / (sizes[0]?.microseconds as number),
    rounds: options.rounds,
    callsPerRound: options.callsPerRound,
  }
}
