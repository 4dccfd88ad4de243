import { Writable } from 'node:stream'
import pino from 'pino'
import { describe, expect, it, vi } from 'vitest'
import { createTestApp, START } from '../../test/support/test-app'
import { localTimeZone, nodeCronScheduler, scheduleDecayScan, shortestCronGapSeconds, type Scheduler } from './decay-schedule'

/** A scheduler that runs the task when the test says so, and records what happened to it. */
function manualScheduler() {
  const events: string[] = []
  let task: ((slot: Date) => Promise<void>) | null = null
  let expression = ''
  const scheduler: Scheduler = (cron, run) => {
    expression = cron
    task = run
    return {
      stop() {
        events.push('job stopped')
      },
    }
  }
  return {
    scheduler,
    events,
    expression: () => expression,
    /** Runs the task for the moment it was due (`slot`), as node-cron does. */
    fire: (slot = new Date(START)) => (task as (slot: Date) => Promise<void>)(slot),
  }
}

/** A pino logger whose JSON lines land in `lines`. */
function capturingLogger() {
  const lines: Array<Record<string, unknown>> = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)))
      done()
    },
  })
  return { logger: pino({ level: 'info' }, stream), lines }
}

describe('the decay scan job of serve (R-MEM-7)', () => {
  it('runs the same scan as the route and the CLI on the policy schedule, once per cadence window', async () => {
    const { memory, clock, policy } = await createTestApp()
    const { scheduler, fire, expression } = manualScheduler()
    const { logger, lines } = capturingLogger()
    const job = scheduleDecayScan({ expression: policy.scan.cron, cadenceHours: policy.scan.cadence_hours, scan: (signal, slot) => memory.decayScan({ signal, now: slot.toISOString() }), logger, scheduler })
    expect(expression()).toBe('17 3 * * *')

    await fire(clock.now())
    clock.advance(3_600_000)
    await fire(clock.now())
    clock.advance(24 * 3_600_000)
    await fire(clock.now())
    await job.stop()
    const scans = lines.filter((l) => l.event === 'decay-scan')
    expect(scans.map((l) => l.status)).toEqual(['ran', 'skipped', 'ran'])
    expect(scans[0]).toMatchObject({ scanned_at: START, expired_from_recall: 0 })
    // The HTTP route now finds the last run of the job.
    expect(await memory.decayScan()).toMatchObject({ status: 'skipped', last_run: new Date(Date.parse(START) + 25 * 3_600_000).toISOString() })
  })

  it('runs every day although its timer fires a few milliseconds later one day than the next', async () => {
    const { memory, clock, policy } = await createTestApp()
    const { scheduler, fire } = manualScheduler()
    const { logger, lines } = capturingLogger()
    const job = scheduleDecayScan({ expression: policy.scan.cron, cadenceHours: policy.scan.cadence_hours, scan: (signal, slot) => memory.decayScan({ signal, now: slot.toISOString() }), logger, scheduler })
    const day = 24 * 3_600_000
    for (const late of [20, 5, 30, 1]) {
      const slot = new Date(clock.now().getTime())
      clock.advance(late)
      await fire(slot)
      clock.advance(day - late)
    }
    await job.stop()
    expect(lines.filter((l) => l.event === 'decay-scan').map((l) => l.status)).toEqual(['ran', 'ran', 'ran', 'ran'])
  })

  it('stops the schedule, then aborts a scan in progress and waits for it, before the store may close', async () => {
    const { scheduler, fire, events } = manualScheduler()
    const { logger, lines } = capturingLogger()
    let started = () => {}
    const running = new Promise<void>((resolve) => (started = resolve))
    const job = scheduleDecayScan({
      expression: '* * * * *',
      cadenceHours: 24,
      scan: (signal) =>
        new Promise((_resolve, reject) => {
          started()
          signal.addEventListener('abort', () => {
            events.push('scan aborted')
            reject(signal.reason)
          })
        }),
      logger,
      scheduler,
    })
    const run = fire()
    await running
    await job.stop()
    events.push('stop resolved')
    await run
    expect(events).toEqual(['job stopped', 'scan aborted', 'stop resolved'])
    expect(lines.map((l) => l.event)).toContain('decay-scan-aborted')
    // A tick after stop does nothing.
    await fire()
    expect(events).toHaveLength(3)
  })

  it('logs a failed scan and keeps the schedule', async () => {
    const { scheduler, fire } = manualScheduler()
    const { logger, lines } = capturingLogger()
    let calls = 0
    const job = scheduleDecayScan({
      expression: '* * * * *',
      cadenceHours: 24,
      scan: async () => {
        calls++
        if (calls === 1) throw new Error('disk full')
        return { status: 'ran', scanned_at: START, expired_from_recall: 0, core_demoted: 0, aggregates_refreshed: 0, duration_ms: 0 }
      },
      logger,
      scheduler,
    })
    await fire()
    await fire()
    await job.stop()
    expect(lines.filter((l) => String(l.event).startsWith('decay-scan-f') || l.event === 'decay-scan').map((l) => l.event)).toEqual([
      'decay-scan-failed',
      'decay-scan',
    ])
  })

  it('scans at start when the last scan is older than the cadence: a service never up when the schedule comes still scans', async () => {
    const { app, memory, clock, policy } = await createTestApp()
    const day = 24 * 3_600_000
    const post = await app.request('/v1/observations', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'Which cache?', all_options: ['Redis', 'None'], user_choice: 'Redis' }),
    })
    expect(post.status).toBe(201)
    expect(await memory.decayScan()).toMatchObject({ status: 'ran', expired_from_recall: 0 })
    // Run by day only: started each morning, stopped each evening, never up at 03:17 (fire is never called).
    const { logger, lines } = capturingLogger()
    for (let morning = 0; morning < 30; morning++) {
      clock.advance(day)
      const job = scheduleDecayScan({ expression: policy.scan.cron, cadenceHours: policy.scan.cadence_hours, scan: (signal, slot) => memory.decayScan({ signal, now: slot.toISOString() }), logger, scheduler: manualScheduler().scheduler, startedAt: clock.now() })
      await job.atStart
      await job.stop()
    }
    const scans = lines.filter((l) => l.event === 'decay-scan')
    expect(scans).toHaveLength(30)
    expect(scans.every((l) => l.status === 'ran' && l.at_start === true)).toBe(true)
    // The observation left recall once older than the TTL (R-MEM-3), by a scan at start.
    expect(scans.reduce((sum, l) => sum + (l.expired_from_recall as number), 0)).toBe(1)

    // Started again within the cadence of the last scan: skipped, said so.
    clock.advance(3_600_000)
    const again = scheduleDecayScan({ expression: policy.scan.cron, cadenceHours: policy.scan.cadence_hours, scan: (signal, slot) => memory.decayScan({ signal, now: slot.toISOString() }), logger, scheduler: manualScheduler().scheduler, startedAt: clock.now() })
    await again.atStart
    await again.stop()
    expect(lines.filter((l) => l.event === 'decay-scan').at(-1)).toMatchObject({ status: 'skipped', at_start: true, msg: 'decay scan skipped at start' })
  })

  it('names the zone its schedule is read in, which a log read on another machine cannot tell', async () => {
    const ran = async () => ({ status: 'ran' as const, scanned_at: START, expired_from_recall: 0, core_demoted: 0, aggregates_refreshed: 0, duration_ms: 0 })
    const { logger, lines } = capturingLogger()
    const job = scheduleDecayScan({ expression: '17 3 * * *', cadenceHours: 24, scan: ran, logger, scheduler: manualScheduler().scheduler, timeZone: 'Pacific/Chatham' })
    await job.stop()
    expect(lines.find((l) => l.event === 'decay-scan-scheduled')).toMatchObject({
      cron: '17 3 * * *',
      time_zone: 'Pacific/Chatham',
      msg: 'decay scan scheduled: 17 3 * * * (local time, Pacific/Chatham)',
    })
  })

  it('names the zone TZ sets, or, for one without a name, the offset it gives', () => {
    const before = process.env.TZ
    try {
      process.env.TZ = 'Pacific/Chatham'
      expect(localTimeZone()).toBe('Pacific/Chatham')
      // A POSIX rule: three hours behind UTC, as node-cron then reads the schedule.
      process.env.TZ = 'UTC+3'
      expect(localTimeZone(new Date(START))).toBe('GMT-3: TZ="UTC+3" names no zone by name')
      process.env.TZ = 'Foo/Bar'
      expect(localTimeZone(new Date(START))).toBe('GMT+0: TZ="Foo/Bar" names no zone by name')
    } finally {
      if (before === undefined) delete process.env.TZ
      else process.env.TZ = before
    }
  })
})

describe('a schedule that runs more often than scan.cadence_hours', () => {
  it('finds the shortest gap between two runs from the expression alone', () => {
    expect(shortestCronGapSeconds('17 3 * * *')).toBe(24 * 3600)
    expect(shortestCronGapSeconds('0 * * * *')).toBe(3600)
    expect(shortestCronGapSeconds('*/15 * * * * *')).toBe(15)
    expect(shortestCronGapSeconds('0 3,4 * * 1-5')).toBe(3600)
    // From a day's last run to the next day's first.
    expect(shortestCronGapSeconds('0 1,23 * * *')).toBe(2 * 3600)
    // Once on the days it runs, not every day: the gap between its days is not worked out.
    expect(shortestCronGapSeconds('17 3 * * 1')).toBeUndefined()
    expect(shortestCronGapSeconds('17 3 L * *')).toBeUndefined()
  })

  it('says so once at start, with the shortest gap, and not for a schedule as often as the cadence or less', async () => {
    const warnings = (expression: string, cadenceHours: number) => {
      const { logger, lines } = capturingLogger()
      scheduleDecayScan({ expression, cadenceHours, scan: async () => ({ status: 'skipped', reason: 'within_cadence_window', last_run: START, next_run_after: START }), logger, scheduler: manualScheduler().scheduler })
      return lines.filter((l) => l.level === 40)
    }
    expect(warnings('0 * * * *', 24)).toEqual([
      expect.objectContaining({
        event: 'decay-scan-cadence',
        cron: '0 * * * *',
        cadence_hours: 24,
        shortest_gap_seconds: 3600,
        msg: 'scan.cron runs as often as every 1 h, more often than scan.cadence_hours (24): a run within 24 h of the last scan is skipped',
      }),
    ])
    expect(warnings('*/15 * * * *', 1)[0]?.msg).toMatch(/^scan.cron runs as often as every 15 min, /)
    expect(warnings('17 3 * * *', 24)).toEqual([])
    expect(warnings('17 3 * * *', 6)).toEqual([])
    expect(warnings('17 3 * * 1', 48)).toEqual([])
  })
})

describe('node-cron in serve, on a machine asleep when a run was due (a laptop shut at night)', () => {
  it('runs that run on waking, as of the moment it was due, rather than skip the day', async () => {
    const before = process.env.TZ
    // Timers stand still while the machine sleeps, and the wall clock does not: faked, both.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    try {
      process.env.TZ = 'UTC'
      vi.setSystemTime(new Date('2026-12-02T00:00:00Z'))
      const { logger, lines } = capturingLogger()
      const slots: string[] = []
      const job = nodeCronScheduler(logger)('17 3 * * *', async (slot) => void slots.push(slot.toISOString()))
      // Shut at 00:00, opened at 09:00: the timer set for 03:17 fires 3 h 17 min of waking later.
      vi.setSystemTime(new Date('2026-12-02T09:00:00Z'))
      await vi.advanceTimersByTimeAsync(3 * 3_600_000 + 17 * 60_000)
      await job.stop()
      expect(slots).toEqual(['2026-12-02T03:17:00.000Z'])
      expect(lines.filter((l) => String(l.msg).includes('missed execution'))).toEqual([])
    } finally {
      vi.useRealTimers()
      if (before === undefined) delete process.env.TZ
      else process.env.TZ = before
    }
  })

  it('runs the last run due, once, on a machine off for days', async () => {
    const before = process.env.TZ
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    try {
      process.env.TZ = 'UTC'
      vi.setSystemTime(new Date('2026-12-02T00:00:00Z'))
      const { logger } = capturingLogger()
      const slots: string[] = []
      const job = nodeCronScheduler(logger)('17 3 * * *', async (slot) => void slots.push(slot.toISOString()))
      vi.setSystemTime(new Date('2026-12-05T09:00:00Z'))
      await vi.advanceTimersByTimeAsync(3 * 3_600_000 + 17 * 60_000)
      await job.stop()
      expect(slots).toEqual(['2026-12-05T03:17:00.000Z'])
    } finally {
      vi.useRealTimers()
      if (before === undefined) delete process.env.TZ
      else process.env.TZ = before
    }
  })
})
