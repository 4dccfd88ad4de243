// `npx tsx scripts/eval/calibration-split.ts`: the calibration of the confidence (R-REC-3), split by
// what decided the evidence: the context backoff narrowed it (R-REC-7), the change test found a
// change of preference, both, or neither; per user type, open loop, the report's population.
// Flags: --seed N, --users N (per type), --types a,b (user types), --workers N, --policy FILE.
// Each row: answers, mean stated confidence, share right (the recommendation is the favourite), ECE,
// and top-1 accuracy; then auto-resolution in the open and closed loops, for the rule of a trial.
import { availableParallelism } from 'node:os'
import { DEFAULT_POLICY_FILE, loadPolicy } from '../../src/config/load-policy'
import { parseFlags, positiveInteger, UsageError } from '../flags'
import { REPORT_POPULATION, REPORT_SEED, simulateInProcess, type EvaluationOptions } from './evaluation'
import { expectedCalibrationError } from './metrics'
import { simulateInChild } from './parallel'
import type { QuestionRecord } from './simulate'
import { generateUsers, USER_TYPES, type UserType } from './users'

function row(label: string, records: readonly QuestionRecord[]): string {
  if (records.length === 0) return `${label.padEnd(30)} ${'0'.padStart(6)}`
  const stated = records.reduce((s, r) => s + r.confidence, 0) / records.length
  const right = records.filter((r) => r.predictions['decision-memory'].option === r.favourite).length / records.length
  const picked = records.filter((r) => r.predictions['decision-memory'].option === r.choice).length / records.length
  const ece = expectedCalibrationError(records.map((r) => ({ probability: r.confidence, happened: r.predictions['decision-memory'].option === r.favourite })))
  return `${label.padEnd(30)} ${String(records.length).padStart(6)}  stated ${stated.toFixed(3)}  right ${right.toFixed(3)}  ECE ${ece.toFixed(4)}  accuracy ${picked.toFixed(4)}`
}

function autoResolved(records: readonly QuestionRecord[]): string {
  const auto = records.filter((r) => r.predictions['decision-memory'].autoResolve)
  const wrong = auto.filter((r) => r.predictions['decision-memory'].option !== r.choice).length
  return `${((auto.length / Math.max(1, records.length)) * 100).toFixed(2)}% (${((wrong / Math.max(1, auto.length)) * 100).toFixed(2)}% wrong)`
}

async function main(): Promise<void> {
  // Checked before anything runs: an unknown flag, a value missing, a count or a user type it does
  // not know is a usage error (`Number('abc')` was NaN, a seed the simulation took as it was).
  const { values } = parseFlags({
    options: {
      seed: { type: 'string', default: String(REPORT_SEED) },
      users: { type: 'string', default: String(REPORT_POPULATION.usersPerType) },
      types: { type: 'string', default: USER_TYPES.join(',') },
      workers: { type: 'string', default: String(Math.min(2, availableParallelism())) },
      policy: { type: 'string', default: DEFAULT_POLICY_FILE },
      closed: { type: 'boolean', default: false },
    },
  })
  const seed = positiveInteger(values.seed, 'seed')
  const usersPerType = positiveInteger(values.users, 'users')
  const workers = positiveInteger(values.workers, 'workers')
  const types = values.types.split(',') as UserType[]
  for (const t of types) if (!USER_TYPES.includes(t)) throw new UsageError(`--types: no user type ${JSON.stringify(t)} (${USER_TYPES.join(', ')})`)
  const options: EvaluationOptions = {
    ...REPORT_POPULATION,
    seed,
    usersPerType,
    policy: await loadPolicy(values.policy),
    loops: values.closed ? ['open', 'closed'] : ['open'],
  }
  // The whole population is drawn, so that a user is the same one whatever types are asked for;
  // the children are given the indexes of those wanted in it.
  const population = generateUsers(options)
  const wanted = population.flatMap((u, i) => (types.includes(u.type) ? [i] : []))
  const { policy: compiled, ...rest } = options
  const { compiledPoints: _points, sensitivePattern: _pattern, ...policy } = compiled
  const results =
    workers === 1
      ? await simulateInProcess(wanted.map((i) => population[i] as (typeof population)[number]), options)
      : (
          await Promise.all(
            Array.from({ length: workers }, (_, w) => wanted.filter((_, j) => j % workers === w)).map((indexes) =>
              indexes.length === 0 ? Promise.resolve([]) : simulateInChild({ population: rest, policy, indexes }),
            ),
          )
        ).flat()
  const open = results.flatMap((r) => r.open)
  const closed = results.flatMap((r) => r.closed)
  const lines: string[] = []
  for (const group of [...types, 'all'] as const) {
    const records = group === 'all' ? open : open.filter((r) => r.type === group)
    lines.push(`## ${group}`)
    lines.push(row('every answer', records))
    lines.push(row('context narrowed, no change', records.filter((r) => r.narrowed && !r.changed)))
    lines.push(row('change found, not narrowed', records.filter((r) => !r.narrowed && r.changed)))
    lines.push(row('both', records.filter((r) => r.narrowed && r.changed)))
    lines.push(row('narrowed (any)', records.filter((r) => r.narrowed)))
    lines.push(row('change (any)', records.filter((r) => r.changed)))
    lines.push(row('neither', records.filter((r) => !r.narrowed && !r.changed)))
    lines.push(`auto-resolved open ${autoResolved(records)}` + (values.closed ? `, closed ${autoResolved(group === 'all' ? closed : closed.filter((r) => r.type === group))}` : ''))
  }
  process.stdout.write(`${lines.join('\n')}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`calibration-split: ${(error as Error).message}\n`)
  process.exitCode = error instanceof UsageError ? 2 : 1
})
