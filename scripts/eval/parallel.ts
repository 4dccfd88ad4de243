import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { SimulateUsers, UserRecords } from './evaluation'
import type { PopulationOptions } from './users'

/** What a worker is asked to do: which users of which population, under which policy file. */
export interface WorkerTask {
  population: PopulationOptions
  policyFile: string
  indexes: number[]
}

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url))

/**
 * Simulates users in `workers` child processes (one per core), user i in worker i mod workers.
 * Each child redraws the same population from the seed, so only indexes travel; the records come
 * back in the population's order, identical to a run in one process.
 */
export function simulateInParallel(workers: number, policyFile: string): SimulateUsers {
  return async (users, options) => {
    const { policy: _policy, ...population } = options
    const tasks = Array.from({ length: workers }, (_, w) =>
      users.map((_, i) => i).filter((i) => i % workers === w),
    ).filter((indexes) => indexes.length > 0)
    const parts = await Promise.all(
      tasks.map(
        (indexes) =>
          new Promise<UserRecords[]>((resolve, reject) => {
            const child = fork(WORKER, [], { execArgv: ['--import', 'tsx'], serialization: 'advanced' })
            let result: UserRecords[] | undefined
            child.once('message', (message) => {
              result = message as UserRecords[]
            })
            child.once('error', reject)
            child.once('exit', (code) => {
              if (result !== undefined) resolve(result)
              else reject(new Error(`evaluation worker exited with code ${code} before sending its records`))
            })
            child.send({ population, policyFile, indexes } satisfies WorkerTask)
          }),
      ),
    )
    const out: UserRecords[] = new Array(users.length)
    tasks.forEach((indexes, t) => indexes.forEach((i, j) => (out[i] = (parts[t] as UserRecords[])[j] as UserRecords)))
    return out
  }
}
