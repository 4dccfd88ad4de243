import { fork, type ChildProcess, type Serializable } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { Policy } from '../../src/domain/policy'
import type { EvaluationOptions, SimulateUsers, UserRecords } from './evaluation'

/** What a worker is asked to do: which users of which population, under which policy. */
export interface WorkerTask {
  population: Omit<EvaluationOptions, 'policy'>
  policy: Policy
  indexes: number[]
}

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url))

/** The children resultOfChild started that have not exited. */
const running = new Set<ChildProcess>()

/**
 * Ends every child resultOfChild started that still runs: one that failed leaves the others at
 * their work, which a script ending for it (or for a signal) would otherwise wait out, or leave
 * running after it, reading a folder it removes.
 */
export function stopChildren(): void {
  for (const child of running) child.kill('SIGKILL')
}

/**
 * What the worker script `worker` sends back for `task`, run in a child process under tsx: its one
 * message, sent before it exits (`what` names the worker in the error of one that exits without).
 */
export function resultOfChild<Result>(worker: string, task: Serializable, what: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = fork(worker, [], { execArgv: ['--import', 'tsx'], serialization: 'advanced' })
    running.add(child)
    let result: Result | undefined
    child.once('message', (message) => {
      result = message as Result
    })
    child.once('error', reject)
    child.once('exit', (code) => {
      running.delete(child)
      if (result !== undefined) resolve(result)
      else reject(new Error(`${what} exited with code ${code} before sending its records`))
    })
    child.send(task)
  })
}

/** Simulates the users of `task.indexes` (of the population the task draws) in a child process. */
export function simulateInChild(task: WorkerTask): Promise<UserRecords[]> {
  return resultOfChild<UserRecords[]>(WORKER, task, 'evaluation worker')
}

/** Runs at most `size` pieces of work at a time; the others wait their turn, first come first served. */
function createPool(size: number) {
  let running = 0
  const waiting: Array<() => void> = []
  return async function run<T>(work: () => Promise<T>): Promise<T> {
    if (running < size) running++
    else await new Promise<void>((resolve) => waiting.push(resolve))
    try {
      return await work()
    } finally {
      // The slot passes straight to the next in line, so the pool never runs more than `size`.
      const next = waiting.shift()
      if (next !== undefined) next()
      else running--
    }
  }
}

/**
 * Simulates users in child processes, at most `workers` at a time (one per core) however many
 * evaluations share this function, user i in task i mod workers. `users` must be the population
 * drawn from the options: each child redraws it from the seed, so only indexes travel. The records
 * come back in the population's order, identical to a run in one process.
 */
export function simulateInParallel(workers: number): SimulateUsers {
  const pool = createPool(workers)
  return async (users, options) => {
    const { policy: compiled, ...population } = options
    // The compiled regular expressions stay here; the child compiles the policy again.
    const { compiledPoints: _points, sensitivePattern: _pattern, ...policy } = compiled
    const tasks = Array.from({ length: workers }, (_, w) =>
      users.map((_, i) => i).filter((i) => i % workers === w),
    ).filter((indexes) => indexes.length > 0)
    const parts = await Promise.all(
      tasks.map((indexes) => pool(() => simulateInChild({ population, policy, indexes }))),
    )
    const out: UserRecords[] = new Array(users.length)
    tasks.forEach((indexes, t) =>
      indexes.forEach((i, j) => (out[i] = (parts[t] as UserRecords[])[j] as UserRecords)),
    )
    return out
  }
}
