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
  // A run is due while the machine sleeps (a laptop shut at night, at 03:17): its timer fires on
  // waking, late. node-cron skips a run more than a second late, as "missed", so a machine asleep
  // every night never scanned; any lateness is taken instead. node-cron still runs a late slot
  // only while the next is not due, so a machine off for days runs the last one, once.
  return (expression, task) =>
    cron.schedule(expression, (context) => task(context.date), {
      name: 'decay-scan',
      noOverlap: true,
      logger: cronLogger,
      missedExecutionTolerance: Number.POSITIVE_INFINITY,
    })
}

const DAY_S = 86_400

/**
 * The shortest time, in seconds, between two runs of a node-cron expression that is sure to come:
 * between two runs of one day, and from a day's last run to the next day's first when it runs
 * every day. Read from the expression's fields, not from a clock; a change of daylight saving
 * time, which may move one gap a year by an hour, is left aside. Undefined for an expression that
 * runs once on the days it runs, and not every day: the gap between its days is not worked out.
 */
export function shortestCronGapSeconds(expression: string): number | undefined {
  const fields = cron.parse(expression)
  const times = [...new Set(fields.hour.flatMap((h) => fields.minute.flatMap((m) => fields.second.map((s) => h * 3600 + m * 60 + s))))].sort((a, b) => a - b)
  let shortest = Infinity
  for (let i = 1; i < times.length; i++) shortest = Math.min(shortest, (times[i] as number) - (times[i - 1] as number))
  const everyDay =
    fields.dayOfMonth.length === 31 && fields.dayOfMonth.every((d) => typeof d === 'number') && fields.month.length === 12 && fields.dayOfWeek.length === 7
  if (everyDay && times.length > 0) shortest = Math.min(shortest, DAY_S - ((times.at(-1) as number) - (times[0] as number)))
  return shortest === Infinity ? undefined : shortest
}

/**
 * The zone of this process's local time, as TZ sets it (`Europe/Berlin`); a TZ that names no zone
 * Node knows is said with the offset it gives at `at`: `GMT-3: TZ="UTC+3" names no zone by name`
 * (a POSIX rule, three hours behind), `GMT+0: TZ="Foo/Bar" …` (unknown, so UTC).
 */
export function localTimeZone(at: Date = new Date(), tz: string | undefined = process.env.TZ): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone as string | undefined
  if (zone !== undefined && zone !== 'Etc/Unknown') return zone
  const offset = new Intl.DateTimeFormat('en-US', { timeZoneName: 'shortOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT'
  return `${offset}: TZ=${JSON.stringify(tz ?? '')} names no zone by name`
}

/** A span of seconds as a person reads it: `45 s`, `15 min`, `1.5 h`. */
function span(seconds: number): string {
  if (seconds < 60) return `${seconds} s`
  if (seconds < 3600) return `${Math.round((seconds / 60) * 100) / 100} min`
  return `${Math.round((seconds / 3600) * 100) / 100} h`
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
  /** `scan.cadence_hours`: a schedule that runs more often is said at start (a warning, not an error). */
  cadenceHours: number
  scan: (signal: AbortSignal, slot: Date) => Promise<DecayScanResult>
  logger: Logger
  scheduler?: Scheduler
  /** The zone node-cron reads the expression in: the process's (TZ), named in the log line. */
  timeZone?: string
  /**
   * When the service started: a scan as of then runs at once, which the scan skips within the
   * cadence of the last run. Without it, a service stopped whenever the schedule comes (one run by
   * day only, never up at 03:17) never scanned: recall never expired (R-MEM-3).
   */
  startedAt?: Date
}): { stop(): Promise<void>; /** The scan at start (startedAt), settled once it has ended and been logged. */ atStart: Promise<void> } {
  const { expression, cadenceHours, scan, logger, scheduler = nodeCronScheduler(logger), timeZone = localTimeZone(), startedAt } = options
  const abort = new AbortController()
  // The runs not finished yet, each taken out as it ends: a chain of every run (each waiting on the
  // one before) held about 60 bytes per run for as long as the service ran, 5 MB a day under a
  // schedule of every second.
  const running = new Set<Promise<void>>()

  const runAt = (slot: Date, atStart = false): Promise<void> => {
    if (abort.signal.aborted) return Promise.resolve()
    const run = scan(abort.signal, slot).then(
      (result) => logger.info({ event: 'decay-scan', ...(atStart ? { at_start: true } : {}), ...result }, `decay scan ${result.status}${atStart ? ' at start' : ''}`),
      (error: unknown) => {
        if (abort.signal.aborted) logger.info({ event: 'decay-scan-aborted' }, 'decay scan stopped; the next run finishes it')
        else logger.error({ event: 'decay-scan-failed', err: error }, 'decay scan failed; the next run retries it')
      },
    )
    running.add(run)
    const ended = () => void running.delete(run)
    void run.then(ended, ended)
    return run
  }
  const job = scheduler(expression, (slot) => runAt(slot))
  // The expression is read in local time: named, since 17 3 * * * runs at 03:17 UTC in a container
  // (TZ unset) and at 03:17 where the machine is otherwise, and a log read elsewhere cannot tell.
  logger.info({ event: 'decay-scan-scheduled', cron: expression, time_zone: timeZone }, `decay scan scheduled: ${expression} (local time, ${timeZone})`)
  // A run within the cadence of the last scan is skipped: harmless (an hourly schedule catches up
  // soon after a machine that slept through 03:17), but more often a schedule made more frequent
  // with the cadence left at 24 h, whose scans then still run once a day.
  const gap = shortestCronGapSeconds(expression)
  if (gap !== undefined && gap < cadenceHours * 3600) {
    logger.warn(
      { event: 'decay-scan-cadence', cron: expression, cadence_hours: cadenceHours, shortest_gap_seconds: gap },
      `scan.cron runs as often as every ${span(gap)}, more often than scan.cadence_hours (${cadenceHours}): a run within ${cadenceHours} h of the last scan is skipped`,
    )
  }

  const atStart = startedAt === undefined ? Promise.resolve() : runAt(startedAt, true)

  return {
    atStart,
    async stop() {
      await job.stop()
      abort.abort()
      await Promise.all(running)
    },
  }
}
