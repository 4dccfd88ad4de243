import { loadPolicy } from '../config/load-policy'
import { InputError } from '../domain/errors'
import type { DecayScanResult } from '../memory/decay-scan'
import { UsageError, parseFlags, configFilePath, timestampFlag, momentAheadLocally } from './options'
import { failure, hasFields, ServiceUnavailableError, throughServiceOrLocal } from './service-client'
import { jsonLine } from '../terminal'

export const DECAY_SCAN_HELP = `decision-memory decay-scan [--force] [--json] [--now ISO] [--data DIR] [--policy FILE]

  Runs the decay scan: observations older than the recall TTL (28 days) leave recall, staying in
  archival with their decayed weight; core is kept within core.max_entries. At most once per
  scan.cadence_hours (24) unless --force. On the store in --data when given, else through the
  running service at $DECISION_MEMORY_URL, else $DECISION_MEMORY_DATA or ./data
  (\`decision-memory help\` says which store).

  --force        run even within the cadence window of the last scan
  --json         print the result as one JSON line
  --now ISO      scan as of this moment, e.g. 2026-07-01T10:00:00Z (default: now)
  --data DIR     the store to scan (default: the running service's, else $DECISION_MEMORY_DATA or ./data)
  --policy FILE  policy file when the store is opened here (default policies/default.json); a
                 broken one stops the command, a service running or not
`

/** How long a scan through the service may take before the command gives up waiting. */
const SCAN_TIMEOUT_MS = 10 * 60_000

/** `decision-memory decay-scan` (R-MEM-7). */
export async function decayScanCommand(argv: string[]): Promise<number> {
  const { values } = parseFlags({
    args: argv,
    options: {
      force: { type: 'boolean' },
      json: { type: 'boolean' },
      now: { type: 'string' },
      data: { type: 'string' },
      policy: { type: 'string' },
    },
    strict: true,
  })
  if (values.now !== undefined) timestampFlag(values.now, 'now')
  // Checked before anything runs, with a service or without: a broken file is said, naming the
  // file and the field, rather than ignored because the service scans with its own.
  if (values.policy !== undefined) {
    values.policy = configFilePath(values.policy)
    await loadPolicy(values.policy)
  }
  const input = { force: values.force, now: values.now }
  let answer
  try {
    answer = await throughServiceOrLocal({
      method: 'POST',
      path: '/v1/maintenance/decay-scan',
      body: input,
      dataDir: values.data,
      policyFile: values.policy,
      timeoutMs: SCAN_TIMEOUT_MS,
      expect: (body) => hasFields({ status: 'string' })(body) && ['ran', 'skipped'].includes((body as { status: string }).status),
      local: (memory) => memory.decayScan(input),
      // Where there is no store there is nothing to scan: said so, as of a folder not there.
      makesNoStore: true,
    })
  } catch (error) {
    // A --now the scan refuses (in the future) is the flag's mistake: a usage error naming it.
    if (error instanceof InputError && error.issues.some((i) => i.path === 'now')) throw momentAheadLocally('now', error.message)
    if (error instanceof InputError || error instanceof ServiceUnavailableError) {
      process.stderr.write(`decision-memory decay-scan: ${(error as Error).message}\n`)
      return 1
    }
    throw error
  }
  const refused = answer.body as { error?: { message?: string; issues?: Array<{ path?: string }> } } | null
  if (answer.status === 400 && refused?.error?.issues?.some((i) => i.path === 'now') === true) {
    throw new UsageError(`--now: ${refused.error.message ?? 'refused by the service'}`)
  }
  if (answer.status >= 400) return failure('decay-scan', answer)
  const result = answer.body as DecayScanResult
  if (values.json === true) process.stdout.write(jsonLine(result))
  else process.stdout.write(scanSentence(result))
  return 0
}

/** `n` things, in the singular for one: `1 observation left recall`, not `1 observations`. */
const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** What `decay-scan` prints without --json. */
export function scanSentence(result: DecayScanResult): string {
  if (result.status === 'skipped') {
    return `decay scan skipped: the last ran at ${result.last_run}, within the cadence window (next from ${result.next_run_after}; --force runs it now)\n`
  }
  return (
    `decay scan ran at ${result.scanned_at}: ${counted(result.expired_from_recall, 'observation', 'observations')} left recall, ` +
    `${counted(result.core_demoted, 'aggregate', 'aggregates')} demoted from core, ${result.aggregates_refreshed} rebuilt ` +
    `(${result.duration_ms} ms)\n`
  )
}
