import { describe, expect, it } from 'vitest'
import { claudeCodeFixture } from '../../test/support/fixtures'
import { createTestApp, START } from '../../test/support/test-app'
import { timestampFlag, UsageError } from '../cli/options'

/*
 * Every field that takes a moment takes the same ones, and refuses the others with a 4xx naming
 * itself: a body's `timestamp`, `started_at`, `as_of` and `now`, a query's `as_of` and the hook's
 * `at`, and the `--as-of`/`--now` flags (their form; the range is the service's, checkTimestamp).
 * The test app's clock stands at START, 2026-07-01T10:00:00Z.
 */

const OUT_OF_RANGE = 'timestamp_out_of_range'
const IN_FUTURE = 'timestamp_in_future'
const NO_MOMENT = /^not a moment of the calendar/
const NO_FORM = /^an ISO time with seconds and a zone/

/** Each time, and what every entry point does with it: taken (null), or refused with that code, or as `invalid_request` with that issue. */
const TIMES: Array<[string, null | string | RegExp]> = [
  ['2026-07-01T09:00:00Z', null],
  ['1970-01-01T00:00:00Z', null],
  ['1970-01-01T00:00:00.000Z', null],
  ['2026-07-01T09:00:00+14:00', null],
  ['2026-06-30T09:00:00-12:00', null],
  ['2026-07-01T09:00:00+23:59', null],
  ['2026-07-01T09:00:00.5Z', null],
  ['2026-07-01T09:00:00.123456789Z', null],
  ['2026-07-01T10:04:59Z', null],
  ['1969-12-31T23:59:59Z', OUT_OF_RANGE],
  ['1969-12-31T23:59:59.999Z', OUT_OF_RANGE],
  ['1970-01-01T00:59:59+01:00', OUT_OF_RANGE],
  ['0000-01-01T00:00:00Z', OUT_OF_RANGE],
  ['2026-07-01T10:05:01Z', IN_FUTURE],
  ['9999-12-31T23:59:59Z', IN_FUTURE],
  ['2026-06-30T23:59:60Z', NO_MOMENT],
  ['2026-07-01T24:00:00Z', NO_MOMENT],
  ['2026-02-30T09:00:00Z', NO_MOMENT],
  ['2026-07-01T09:00:00+24:00', NO_MOMENT],
  ['+275760-09-13T00:00:00Z', NO_FORM],
  ['-271821-04-20T00:00:00Z', NO_FORM],
  ['2026-07-01t09:00:00z', NO_FORM],
  ['2026-07-01 09:00:00Z', NO_FORM],
  ['2026-07-01', NO_FORM],
  ['2026-07-01T09:00Z', NO_FORM],
  ['2026-07-01T09:00:00+0200', NO_FORM],
]

const QUESTION = { question: 'Which complexity tier?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }

/** Each entry point: the request that gives it `time`, and the field it names. */
const ENTRIES: Array<[string, (time: string) => [string, string, unknown?], string]> = [
  ['observation timestamp', (t) => ['POST', '/v1/observations', { ...QUESTION, user_choice: 'Tier M', decision_id: 'd-1', timestamp: t }], 'timestamp'],
  ['session started_at', (t) => ['POST', '/v1/sessions', { started_at: t }], 'started_at'],
  ['recommendation as_of', (t) => ['POST', '/v1/recommendations', { ...QUESTION, as_of: t }], 'as_of'],
  ['plan as_of', (t) => ['POST', '/v1/plan', { questions: [{ question: QUESTION.question, header: 'Tier', options: QUESTION.all_options.map((label) => ({ label })) }], as_of: t }], 'as_of'],
  ['check as_of', (t) => ['POST', '/v1/decisions/check', { action: 'ls', as_of: t }], 'as_of'],
  ['decay-scan now', (t) => ['POST', '/v1/maintenance/decay-scan', { now: t, force: true }], 'now'],
  ['why ?as_of', (t) => ['GET', `/v1/why?point=complexity-tier&as_of=${encodeURIComponent(t)}`], 'as_of'],
  ['preferences ?as_of', (t) => ['GET', `/v1/users/default/preferences?as_of=${encodeURIComponent(t)}`], 'as_of'],
  ['decisions ?as_of', (t) => ['GET', `/v1/decisions?as_of=${encodeURIComponent(t)}`], 'as_of'],
  ['applicable ?as_of', (t) => ['GET', `/v1/decisions/applicable?as_of=${encodeURIComponent(t)}`], 'as_of'],
  ['decision why ?as_of', (t) => ['GET', `/v1/decisions/D-1/why?as_of=${encodeURIComponent(t)}`], 'as_of'],
  ['hook ?at', (t) => ['POST', `/v1/hooks/claude-code?at=${encodeURIComponent(t)}`, claudeCodeFixture('session-start')], 'at'],
]

/** What is not found as of a moment (no observation at the point, no such decision) is an answer to a moment taken. */
const TAKEN_NOT_FOUND = ['point_not_found', 'decision_not_found']

describe('a time, at every field and flag that takes one', () => {
  it.each(TIMES)('%s is taken or refused alike, naming the field', async (time, refused) => {
    for (const [entry, request, field] of ENTRIES) {
      const { call } = await createTestApp()
      const [method, path, body] = request(time)
      const { status, body: answer } = await call(method, path, body)
      const what = `${entry}: ${status} ${JSON.stringify(answer)}`
      if (refused === null) {
        expect(status < 300 || (status === 404 && TAKEN_NOT_FOUND.includes(answer.error.code)), what).toBe(true)
        continue
      }
      expect(status, what).toBe(400)
      if (typeof refused === 'string') {
        expect(answer.error.code, what).toBe(refused)
        expect(answer.error.issues, what).toEqual([{ path: field, message: expect.any(String) }])
      } else {
        expect(answer.error.code, what).toBe('invalid_request')
        expect(answer.error.issues.filter((i: { path: string }) => i.path === field), what).toEqual([{ path: field, message: expect.stringMatching(refused) }])
      }
    }
    // The flags read the form (a usage error, exit 2), and the service or the store the range.
    const flag = () => timestampFlag(time, 'as-of')
    if (refused instanceof RegExp) expect(flag).toThrow(UsageError)
    else expect(flag()).toBe(time)
  })
})

describe('a time at the edge of what is taken', () => {
  it('counts in every answer after it, and comes back from an export as it was sent', async () => {
    const { call, clock } = await createTestApp()
    const times = ['1970-01-01T00:00:00Z', '1970-01-01T00:00:00.001Z', '2026-07-01T10:04:59.999Z', START]
    const sent = times.map((timestamp, i) => ({ ...QUESTION, user_choice: i % 2 === 0 ? 'Tier L' : 'Tier M', decision_id: `d-${i}`, timestamp, session_id: 's-1' }))
    expect((await call('POST', '/v1/sessions', { session_id: 's-1', started_at: '1970-01-01T00:00:00Z' })).status).toBe(201)
    expect((await call('POST', '/v1/observations', sent)).status).toBe(201)
    const finite = (answer: unknown) => expect(JSON.stringify(answer)).not.toMatch(/NaN|Infinity|null,"level"/)
    for (const asOf of [undefined, '1970-01-01T00:00:00Z', START]) {
      const rec = await call('POST', '/v1/recommendations', { ...QUESTION, as_of: asOf })
      expect(rec.status).toBe(200)
      expect(rec.body.confidence.value).toBeGreaterThan(0)
      finite(rec.body)
    }
    const prefs = await call('GET', '/v1/users/default/preferences')
    expect(prefs.body.points[0]).toMatchObject({ point: 'complexity-tier', observations: 4 })
    finite(prefs.body)
    expect((await call('POST', '/v1/maintenance/decay-scan', { force: true })).body.status).toBe('ran')
    clock.advance(400 * 86_400_000)
    expect((await call('POST', '/v1/maintenance/decay-scan', {})).body.status).toBe('ran')
    finite((await call('POST', '/v1/recommendations', QUESTION)).body)
    // The export says each moment in UTC, to the millisecond: one ahead of the clock, by then its now.
    const lines = String((await call('GET', '/v1/users/default/export')).body)
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line))
    const exported = lines.filter((l) => l.type === 'observation').map((l) => l.data.timestamp)
    expect(exported).toEqual(['1970-01-01T00:00:00.000Z', '1970-01-01T00:00:00.001Z', START, START])
    const again = await createTestApp()
    const resent = await again.call('POST', '/v1/observations', exported.map((timestamp, i) => ({ ...sent[i], timestamp })))
    expect(resent.status).toBe(201)
    const session = lines.find((l) => l.type === 'session').data
    // Started by the observations naming it, the session is moved back to its start as exported.
    const started = await again.call('POST', '/v1/sessions', { session_id: session.session_id, started_at: session.started_at })
    expect(started).toMatchObject({ status: 200, body: { started_at: '1970-01-01T00:00:00.000Z' } })
  })
})
