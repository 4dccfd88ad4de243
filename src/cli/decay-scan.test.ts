import { describe, expect, it } from 'vitest'
import { scanSentence } from './decay-scan'

describe('decision-memory decay-scan, as it is said', () => {
  const ran = { status: 'ran', scanned_at: '2026-12-03T14:51:25.118Z', expired_from_recall: 1, core_demoted: 1, aggregates_refreshed: 0, duration_ms: 10 } as const

  it('counts one observation, and one aggregate, in the singular, more in the plural', () => {
    expect(scanSentence(ran)).toBe('decay scan ran at 2026-12-03T14:51:25.118Z: 1 observation left recall, 1 aggregate demoted from core, 0 rebuilt (10 ms)\n')
    expect(scanSentence({ ...ran, expired_from_recall: 2, core_demoted: 0 })).toContain(': 2 observations left recall, 0 aggregates demoted from core,')
  })

  it('says a scan skipped within the cadence window, and how to run it now', () => {
    const skipped = { status: 'skipped', reason: 'within_cadence_window', last_run: '2026-12-03T14:33:54.163Z', next_run_after: '2026-12-04T14:33:54.163Z' } as const
    expect(scanSentence(skipped)).toBe(
      'decay scan skipped: the last ran at 2026-12-03T14:33:54.163Z, within the cadence window (next from 2026-12-04T14:33:54.163Z; --force runs it now)\n',
    )
  })
})
