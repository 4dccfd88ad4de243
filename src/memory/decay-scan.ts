import type { Clock } from '../clock'
import { DAY_MS } from '../domain/decay'
import type { Policy } from '../domain/policy'
import { FUTURE_TOLERANCE_MS } from '../domain/timestamp'
import type { MemoryStore } from './store'

const HOUR_MS = 3_600_000

/** A decay scan that ran (R-MEM-7). */
export interface DecayScanRan {
  status: 'ran'
  scanned_at: string
  /** Observations older than the TTL taken out of recall (they stay in archival and count on). */
  expired_from_recall: number
  /** Aggregates demoted from core to keep it within `core.max_entries`. */
  core_demoted: number
  /** Aggregates in core rebuilt from archival because they were built with other parameters. */
  aggregates_refreshed: number
  duration_ms: number
}

/** A decay scan asked for within the cadence window of the last one, without force. */
export interface DecayScanSkipped {
  status: 'skipped'
  reason: 'within_cadence_window'
  last_run: string
  /** From when an unforced scan runs again. */
  next_run_after: string
}

export type DecayScanResult = DecayScanRan | DecayScanSkipped

/**
 * The decay scan (R-MEM-7): at most once per `scan.cadence_hours` unless forced, it takes the
 * observations older than `recall.ttl_days` out of recall (R-MEM-3), drops the points questions
 * were planned at that long ago whose answers never came, and those a plan showed with options
 * taken out that long ago (planned-points.ts), rebuilds the aggregates in
 * core that were built with other parameters, and demotes core down to `core.max_entries`
 * (R-MEM-4). Decay itself needs no pass: weights are computed at read time from the incremental
 * sums (decayed-sum.ts), so a scan changes no answer.
 *
 * Idempotent and crash-safe: every step is an atomic write that is right to repeat, and the run
 * is recorded only once it is complete, so a scan killed anywhere is finished by the next one;
 * archival and the counts in core are never touched, so every observation stays counted exactly
 * once. Scans of one store run one at a time; the HTTP route, the CLI and the cron job of `serve`
 * all call the function this returns.
 */
export function createDecayScan(deps: { store: MemoryStore; policy: Policy; clock: Clock }) {
  const { store, policy, clock } = deps
  let previous: Promise<unknown> = Promise.resolve()

  async function scan(input: { at: Date; force: boolean; signal?: AbortSignal | undefined }): Promise<DecayScanResult> {
    const { at, signal } = input
    const recorded = await store.lastDecayScan()
    // A last run further ahead of the clock than any scan may be asked for was recorded under a
    // clock set wrong ahead (a machine that booted in 2027, since mended): kept, it skipped every
    // unforced scan until the clock reached it, a year on, recall growing meanwhile.
    // (A scan may be asked for as of a moment up to FUTURE_TOLERANCE_MS ahead: such a last run holds.)
    const last = recorded !== undefined && Date.parse(recorded) - clock.now().getTime() > FUTURE_TOLERANCE_MS ? undefined : recorded
    const cadence = policy.scan.cadence_hours * HOUR_MS
    if (!input.force && last !== undefined && at.getTime() - Date.parse(last) < cadence) {
      return {
        status: 'skipped',
        reason: 'within_cadence_window',
        last_run: last,
        next_run_after: new Date(Date.parse(last) + cadence).toISOString(),
      }
    }
    const started = clock.now().getTime()
    const cutoff = new Date(at.getTime() - policy.recall.ttl_days * DAY_MS)
    const expired = await store.expireRecall(cutoff, signal)
    // The points of questions planned that long ago whose answers never came (a picker dismissed).
    await store.expirePlannedPoints(cutoff, signal)
    // And of questions a plan (`POST /v1/plan`, `plan_questions`) showed with options taken out as long ago.
    await store.expireShownPoints(cutoff, signal)
    const core = await store.maintainCore(at, signal)
    const scannedAt = at.toISOString()
    // A forced scan "as of" an earlier moment does not move the cadence window back.
    if (last === undefined || scannedAt > last) await store.recordDecayScan(scannedAt)
    return {
      status: 'ran',
      scanned_at: scannedAt,
      expired_from_recall: expired,
      core_demoted: core.demoted,
      aggregates_refreshed: core.refreshed,
      duration_ms: Math.max(0, clock.now().getTime() - started),
    }
  }

  /** Runs one scan as of `at`, after any scan still running. */
  return function decayScan(input: { at: Date; force: boolean; signal?: AbortSignal | undefined }): Promise<DecayScanResult> {
    const result = previous.then(() => scan(input))
    previous = result.catch(() => undefined)
    return result
  }
}
