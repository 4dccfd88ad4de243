import { describe, expect, it } from 'vitest'
import { createTestApp, START } from '../../test/support/test-app'

const DAY = 86_400_000
const T0 = Date.parse(START)

describe('the decay scan after a clock that was set wrong ahead, since mended', () => {
  it('runs: a last run ahead of the clock does not hold every scan back until the clock reaches it', async () => {
    const { call, clock } = await createTestApp()
    // The machine booted with its clock a year ahead; the nightly scan ran then.
    clock.set(new Date(T0 + 365 * DAY))
    expect((await call('POST', '/v1/maintenance/decay-scan')).body.status).toBe('ran')
    clock.set(new Date(T0 + DAY))
    const mended = await call('POST', '/v1/maintenance/decay-scan')
    expect(mended.body).toMatchObject({ status: 'ran', scanned_at: new Date(T0 + DAY).toISOString() })
    // The run of the mended clock is the last one now: the cadence holds again.
    clock.advance(3_600_000)
    expect((await call('POST', '/v1/maintenance/decay-scan')).body).toMatchObject({ status: 'skipped', last_run: new Date(T0 + DAY).toISOString() })
  })

  it('still counts a last run asked for as of a moment a little ahead (within the 5 minutes a request may be)', async () => {
    const { call } = await createTestApp()
    const ahead = new Date(T0 + 4 * 60_000).toISOString()
    expect((await call('POST', '/v1/maintenance/decay-scan', { now: ahead })).body.status).toBe('ran')
    expect((await call('POST', '/v1/maintenance/decay-scan')).body).toMatchObject({ status: 'skipped', last_run: ahead })
  })
})
