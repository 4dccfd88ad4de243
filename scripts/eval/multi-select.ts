// The simulated users of `scripts/eval/calibration-multi-select.ts`: each has a multi-select point
// of 4 or 5 options, selected at rates that hold still and ignore the context, so that evidence
// the change test or the context backoff splits is split by chance. Each is asked once, at that
// point, after its choices; the truth is the set of options selected at a rate of ½ or more.
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRandom } from './random'

const DAY = 86_400_000
const START = Date.parse('2026-01-05T09:00:00.000Z')

/** A confidence stated and whether what it was about is so. */
export interface Stated {
  confidence: number
  right: boolean
}

/** One user's answer: the set's confidence, each option's, and whether a test split the evidence. */
export interface MultiSelectRecord {
  set: Stated
  options: Stated[]
  split: boolean
}

/**
 * The service's modules the simulation asks, from `src`: this checkout's, or another commit's tree
 * (typed as this checkout's: the simulation asks only what both have).
 */
type Service = typeof import('../../src/decision-memory') &
  typeof import('../../src/memory/level-store') &
  typeof import('../../src/config/load-policy') &
  typeof import('../../src/clock') &
  typeof import('memory-level')

async function service(src: string): Promise<Service> {
  const load = (path: string) => import(pathToFileURL(join(src, path)).href)
  const [memory, store, policy, clock, level] = await Promise.all([
    load('decision-memory.ts'),
    load('memory/level-store.ts'),
    load('config/load-policy.ts'),
    load('clock.ts'),
    import('memory-level'),
  ])
  return { ...memory, ...store, ...policy, ...clock, ...level } as Service
}

/**
 * Simulates the users `indexes` of the population drawn from `seed`, each on a store of its own and
 * a random stream of its own (its index), so that a user is the same one whichever others are run
 * beside it, in whichever process; `src` is the service's source tree (its default policy with it).
 */
export async function simulateMultiSelect(seed: number, indexes: readonly number[], src: string): Promise<MultiSelectRecord[]> {
  const { createDecisionMemory, createLevelStore, loadPolicy, fixedClock, MemoryLevel } = await service(src)
  const policy = await loadPolicy()
  const out: MultiSelectRecord[] = []
  for (const index of indexes) {
    const random = createRandom(seed, index)
    const k = 4 + random.int(2)
    const options = Array.from({ length: k }, (_, i) => `Check ${'ABCDE'[i]}`)
    const rates = options.map(() => random.next())
    // One option nearly always selected, so that a set is seldom empty.
    rates[0] = 0.97
    const n = 1 + random.int(60)
    // From a day to 60 days of choices, log-uniform.
    const span = Math.exp(random.next() * Math.log(60)) * DAY
    const question = { user: `user-${index}`, point: 'checks', question: 'Which checks?', all_options: options }
    const phase = () => (random.next() < 0.5 ? 'run' : 'plan')
    const observations = Array.from({ length: n }, (_, i) => {
      const context = { phase: phase() }
      const picked = options.filter((_, j) => random.next() < (rates[j] as number))
      return {
        ...question,
        context,
        decision_id: `d${i}`,
        timestamp: new Date(START + Math.round(random.next() * span)).toISOString(),
        user_choice: picked.length > 0 ? picked : [options[0] as string],
        multi_select: true,
        source: 'user' as const,
      }
    })
    const store = await createLevelStore(new MemoryLevel<string, string>() as never, { sync: false, policy })
    try {
      const clock = fixedClock(new Date(START))
      const memory = createDecisionMemory({ store, policy, clock })
      clock.set(new Date(START + span + random.next() * 3 * DAY))
      await memory.observe(observations)
      const answer = await memory.recommend({ ...question, multi_select: true, context: { phase: phase() } })
      const truth = new Set(options.filter((_, j) => (rates[j] as number) >= 0.5))
      const recommended = new Set(answer.recommended as string[])
      out.push({
        set: { confidence: answer.confidence.value, right: recommended.size === truth.size && [...recommended].every((o) => truth.has(o)) },
        options: answer.options.map((o) => ({ confidence: o.confidence as number, right: o.recommended === truth.has(o.option) })),
        split: answer.context_test !== null || answer.change_test !== null,
      })
    } finally {
      await store.close()
    }
  }
  return out
}
