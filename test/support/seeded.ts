import { MemoryLevel } from 'memory-level'
import { fixedClock } from '../../src/clock'
import { loadPolicy } from '../../src/config/load-policy'
import { createDecisionMemory } from '../../src/decision-memory'
import { createLevelStore } from '../../src/memory/level-store'

/** Seeded randomness for the simulated users of the calibration tests. */

/** mulberry32 (Tommy Ettinger): a seeded stream of numbers in [0, 1). */
export function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** The index drawn from the choice probabilities `theta`. */
export function categorical(next: () => number, theta: readonly number[]): number {
  let u = next()
  for (let i = 0; i < theta.length; i++) if ((u -= theta[i] as number) < 0) return i
  return theta.length - 1
}

/**
 * The service's memory on an in-memory LevelDB under the default policy, its clock fixed at
 * `start` for the simulation to move: what each simulated user's questions are asked of.
 */
export async function simulatedMemory(start: number) {
  const policy = await loadPolicy()
  const store = await createLevelStore(new MemoryLevel<string, string>() as never, { sync: false, policy })
  const clock = fixedClock(new Date(start))
  const memory = createDecisionMemory({ store, policy, clock })
  return { policy, store, clock, memory }
}
