import { describe, expect, it } from 'vitest'
import { createTestApp, START } from '../../test/support/test-app'

const TIER = {
  question: 'Which complexity tier should this SPEC use?',
  header: 'Tier',
  all_options: ['Tier S', 'Tier M', 'Tier L'],
}
const HOUR = 3_600_000

function at(hoursAgo: number): string {
  return new Date(Date.parse(START) - hoursAgo * HOUR).toISOString()
}

/** 30 consistent answers of the user a day ago, then `auto` answers the service gave itself. */
async function history(auto: number, answerAfter = false) {
  const { call } = await createTestApp()
  const answers = Array.from({ length: 30 }, (_, i) => ({ ...TIER, user_choice: 'Tier M', decision_id: `u-${i}`, timestamp: at(24) }))
  const resolved = Array.from({ length: auto }, (_, i) => ({
    ...TIER, user_choice: 'Tier M', decision_id: `a-${i}`, timestamp: at(20 - i), source: 'auto-resolved',
  }))
  const later = answerAfter ? [{ ...TIER, user_choice: 'Tier M', decision_id: 'u-later', timestamp: at(1) }] : []
  expect((await call('POST', '/v1/observations', [...answers, ...resolved, ...later])).status).toBe(201)
  return (await call('POST', '/v1/recommendations', TIER)).body
}

describe('POST /v1/recommendations: checking in after auto-resolved answers (ask.check_in_after)', () => {
  it('auto-resolves up to 8 answers in a row', async () => {
    const body = await history(8)
    expect(body.state).toBe('sufficient')
    expect(body.ask).toBe(false)
  })

  it('asks the 10th question after 9 auto-resolved answers in a row, and says why', async () => {
    const body = await history(9)
    expect(body.state).toBe('sufficient')
    expect(body.ask).toBe(true)
    expect(body.ask_reason).toBe('9 answers in a row were auto-resolved: checking in with the user')
  })

  it('starts counting again once the user has answered', async () => {
    const body = await history(9, true)
    expect(body.ask).toBe(false)
  })
})
