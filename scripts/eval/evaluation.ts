import type { CompiledPolicy } from '../../src/domain/policy'
import { simulateUser, type Loop, type QuestionRecord } from './simulate'
import { generateUsers, type PopulationOptions, type SimulatedUser } from './users'

/** What one evaluation run is: a population, the policy under test, and the loops to run. */
export interface EvaluationOptions extends PopulationOptions {
  policy: CompiledPolicy
  /** Both unless told; a loop not run has no records. */
  loops?: readonly Loop[]
}

/** Every question of every simulated user, in the open loop and in the closed loop. */
export interface Evaluation {
  options: EvaluationOptions
  users: SimulatedUser[]
  open: QuestionRecord[]
  closed: QuestionRecord[]
}

/** The questions of one user in each loop. */
export interface UserRecords {
  open: QuestionRecord[]
  closed: QuestionRecord[]
}

/** Simulates some users of a population; the result is in the order of `users`. */
export type SimulateUsers = (
  users: readonly SimulatedUser[],
  options: EvaluationOptions,
) => Promise<UserRecords[]>

/** The seed and population the report is made from (`npm run eval`). */
export const REPORT_SEED = 20260701
export const REPORT_POPULATION: Omit<PopulationOptions, 'seed'> = {
  usersPerType: 40,
  start: new Date('2026-01-05T09:00:00.000Z'),
  horizonDays: 180,
  sessionRate: [0.3, 1],
  askProbability: 0.75,
}

/** Simulates users one after another in this process. */
export const simulateInProcess: SimulateUsers = async (users, options) => {
  const common = { seed: options.seed, policy: options.policy, start: options.start }
  const loops = options.loops ?? ['open', 'closed']
  const out: UserRecords[] = []
  for (const user of users) {
    const records: UserRecords = { open: [], closed: [] }
    for (const loop of loops) records[loop] = await simulateUser(user, { ...common, loop })
    out.push(records)
  }
  return out
}

/**
 * Draws the population and simulates every user in each loop. Users are independent (each has
 * its own store and random stream), so `simulate` may spread them over processes; the records
 * come back in the population's order either way.
 */
export async function runEvaluation(
  options: EvaluationOptions,
  simulate: SimulateUsers = simulateInProcess,
): Promise<Evaluation> {
  const users = generateUsers(options)
  const results = await simulate(users, options)
  return {
    options,
    users,
    open: results.flatMap((r) => r.open),
    closed: results.flatMap((r) => r.closed),
  }
}
