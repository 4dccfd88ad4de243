import { describe, expect, it } from 'vitest'
import { compilePolicy } from '../domain/policy'
import { loadPolicy } from '../config/load-policy'
import { createTestApp, START } from '../../test/support/test-app'

const TIER = {
  question: 'Which complexity tier should this SPEC use?',
  header: 'Tier',
  all_options: ['Tier S', 'Tier M', 'Tier L'],
}
const DAY = 86_400_000

function at(daysAgo: number): string {
  return new Date(Date.parse(START) - daysAgo * DAY).toISOString()
}

// 30 choices of Tier S from 127 to 40 days ago, then 6 of Tier L in the last week.
const OLDER = Array.from({ length: 30 }, (_, i) => ({ ...TIER, user_choice: 'Tier S', decision_id: `old-${i}`, timestamp: at(40 + i * 3) }))
const RECENT = Array.from({ length: 6 }, (_, i) => ({ ...TIER, user_choice: 'Tier L', decision_id: `new-${i}`, timestamp: at(1 + i) }))

describe('POST /v1/recommendations after a change of preference', () => {
  it('by decayed weight alone, the long older history still outvotes the new choice', async () => {
    const policy = await loadPolicy()
    const { call } = await createTestApp({ policy: compilePolicy({ ...policy, change: { window_days: 28, significance: 1e-12 } }) })
    await call('POST', '/v1/observations', [...OLDER, ...RECENT])
    const { body } = await call('POST', '/v1/recommendations', TIER)
    expect(body.recommended).toBe('Tier S')
  })

  it('follows the new choice once the recent ones differ from the older ones, and says since when', async () => {
    const { call } = await createTestApp()
    expect((await call('POST', '/v1/observations', [...OLDER, ...RECENT])).status).toBe(201)
    const { status, body } = await call('POST', '/v1/recommendations', TIER)
    expect(status).toBe(200)
    expect(body.recommended).toBe('Tier L')
    expect(body.observations).toBe(6)
    expect(body.disclosure).toBe(`based on 100% of recent choices since ${at(28).slice(0, 10)} (they differ from your earlier choices)`)
    expect(body.layers.long_term.observations).toBe(36)
  })
})
