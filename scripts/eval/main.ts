// `npm run eval`: simulates the users, scores decision-memory and the baselines, and writes
// eval/REPORT.md with its images. Flags: --seed N, --users N (per type), --out DIR, --workers N,
// --policy FILE, --sensitivity-users N (per type, for the runs of the policy's alternatives).
// A mistake in the flags exits 2, any other failure 1.
import { mkdir, writeFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_POLICY_FILE, loadPolicy } from '../../src/config/load-policy'
import { parseFlags, positiveInteger, UsageError } from '../flags'
import { REPORT_POPULATION, REPORT_SEED, runEvaluation, simulateInProcess } from './evaluation'
import { simulateInParallel } from './parallel'
import { policyRationale } from './rationale'
import { runSensitivity } from './sensitivity'
import { renderImages, renderReport, targets } from './report'
import { summarize } from './summary'

/** Users of each type in the sensitivity runs: enough to show a direction, small enough to stay fast. */
const SENSITIVITY_USERS_PER_TYPE = 6

/** The flags, checked before anything runs; parseArgs's own refusals (an unknown flag, a value missing) are usage errors too. */
function flags() {
  const { values } = parseFlags({
    options: {
      seed: { type: 'string', default: String(REPORT_SEED) },
      users: { type: 'string', default: String(REPORT_POPULATION.usersPerType) },
      out: { type: 'string', default: 'eval' },
      workers: { type: 'string', default: String(Math.min(2, availableParallelism())) },
      policy: { type: 'string', default: DEFAULT_POLICY_FILE },
      'sensitivity-users': { type: 'string', default: String(SENSITIVITY_USERS_PER_TYPE) },
    },
  })
  return {
    seed: positiveInteger(values.seed, 'seed'),
    usersPerType: positiveInteger(values.users, 'users'),
    workers: positiveInteger(values.workers, 'workers'),
    sensitivityUsers: positiveInteger(values['sensitivity-users'], 'sensitivity-users'),
    out: values.out,
    policy: values.policy,
  }
}

async function main(): Promise<void> {
  const values = flags()
  const started = performance.now()
  const policy = await loadPolicy(values.policy)
  const population = { ...REPORT_POPULATION, seed: values.seed, usersPerType: values.usersPerType }
  const { workers, sensitivityUsers } = values
  const simulate = workers === 1 ? simulateInProcess : simulateInParallel(workers)
  // Both share the workers' pool, so no core waits for the slowest task of one run.
  const [evaluation, rows] = await Promise.all([
    runEvaluation({ ...population, policy }, simulate),
    runSensitivity({ ...population, usersPerType: sensitivityUsers }, policy, simulate),
  ])
  const summary = summarize(evaluation)
  await mkdir(values.out, { recursive: true })
  await writeFile(
    join(values.out, 'REPORT.md'),
    renderReport({
      summary,
      population,
      policy,
      sensitivity: { usersPerType: sensitivityUsers, rows },
      rationale: policyRationale(policy, summary, rows),
    }),
  )
  for (const [name, svg] of Object.entries(renderImages(summary)))
    await writeFile(join(values.out, name), svg)
  // Timing goes to the terminal only: the report must not change from one run to the next.
  for (const t of targets(summary))
    process.stderr.write(`${t.met ? 'met    ' : 'NOT MET'}  ${t.target}: ${t.figure}\n`)
  process.stderr.write(
    `${evaluation.open.length} questions, ${evaluation.users.length} users, ${workers} worker(s), ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s; wrote ${join(values.out, 'REPORT.md')}\n`,
  )
}

main().catch((error: unknown) => {
  process.stderr.write(`eval: ${(error as Error).message}\n`)
  process.exitCode = error instanceof UsageError ? 2 : 1
})
