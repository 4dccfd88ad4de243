import cron from 'node-cron'
import type { Logger } from 'pino'
import type { DecayScanResult } from '../memory/decay-scan'

/** Calls `task` on a cron schedule until stopped, with the moment each run was due: node-cron in the service, a fake in tests. */
export type Scheduler = (expression: string, task: (slot: Date) => Promise<void>) => { stop(): void | Promise<void> }

/**
 * node-cron 4, one run at a time (a run still going when the next is due skips that one), its
 * warnings sent to our logger so that stdout stays JSON lines.
 */
export function nodeCronScheduler(logger: Logger): Scheduler {
  const cronLogger = {
    info: (message: string) => logger.info({ event: 'cron' }, message),
    warn: (message: string) => logger.warn({ event: 'cron' }, message),
    error: (message: string | Error, err?: Error) => logger.error({ event: 'cron', err: err ?? message }, String(message)),
    debug: (message: string | Error) => logger.debug({ event: 'cron' }, String(message)),
  }
  return (expression, task) => cron.schedule(expression, (context) => task(context.date), { name: 'decay-scan', noOverlap: true, logger: cronLogger })
}

/**
 * The daily decay scan inside `serve` (R-MEM-7): on the policy's cron schedule it calls `scan`,
 * the same function as `POST /v1/maintenance/decay-scan` and `decision-memory decay-scan`, as of
 * the moment the run was due. As of the moment the timer fired instead, a run fired a few
 * milliseconds earlier after its due moment than the day before would fall inside the 24 h
 * cadence window of that one, and be skipped: about every other day.
 * `stop()` stops the schedule, aborts a run in progress between two of its atomic writes (the
 * next run finishes the work), and resolves once nothing runs: call it before closing the store.
 */
export function scheduleDecayScan(options: {
  expression: string
  scan: (signal: AbortSignal, slot: Date) => Promise<DecayScanResult>
  logger: Logger
  scheduler?: Scheduler
}): { stop(): Promise<void> } {
  const { expression, scan, logger, scheduler = nodeCronScheduler(logger) } = options
  const abort = new AbortController()
  let running: Promise<unknown> = Promise.resolve()

  const job = scheduler(expression, (slot) => {
    if (abort.signal.aborted) return Promise.resolve()
    const run = scan(abort.signal, slot).then(
      (result) => logger.info({ event: 'decay-scan', ...result }, `decay scan ${result.status}`),
      (error: unknown) => {
        if (abort.signal.aborted) logger.info({ event: 'decay-scan-aborted' }, 'decay scan stopped; the next run finishes it')
        else logger.error({ event: 'decay-scan-failed', err: error }, 'decay scan failed; the next run retries it')
      },
    )
    running = Promise.all([running, run])
    return run
  })
  logger.info({ event: 'decay-scan-scheduled', cron: expression }, `decay scan scheduled: ${expression}`)

  return {
    async stop() {
      await job.stop()
      abort.abort()
      await running
    },
  }
}
