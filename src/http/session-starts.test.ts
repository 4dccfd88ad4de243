import { describe, expect, it } from 'vitest'
import { claudeCodeFixture } from '../../test/support/fixtures'
import { createTestApp, START } from '../../test/support/test-app'

const HOOK = '/v1/hooks/claude-code?user=alice'
const TIER = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }
const TIER_Q = { question: TIER.question, header: 'Tier', options: TIER.all_options.map((label) => ({ label, description: label })), multiSelect: false }
const NAME = { question: 'What should the service be called?', header: 'Name', kind: 'text' }
const SID = '7c1f2a9e-3b4d-4e5f-8a6b-1c2d3e4f5a6b'

/** Each request naming a session id not seen yet, and whether README's "Sessions that start themselves" says it starts it. */
type Call = Awaited<ReturnType<typeof createTestApp>>['call']
const cases: Array<[string, boolean, (call: Call) => Promise<{ status: number }>]> = [
  ['observation', true, (call) => call('POST', '/v1/observations', { ...TIER, user: 'alice', session_id: SID, user_choice: 'Tier S' })],
  ['recommendation', true, (call) => call('POST', '/v1/recommendations', { ...TIER, user: 'alice', session_id: SID })],
  ['recommendation as_of', false, (call) => call('POST', '/v1/recommendations', { ...TIER, user: 'alice', session_id: SID, as_of: START })],
  ['plan choice', true, (call) => call('POST', '/v1/plan', { user: 'alice', session_id: SID, questions: [TIER_Q] })],
  ['plan text', true, (call) => call('POST', '/v1/plan', { user: 'alice', session_id: SID, questions: [NAME] })],
  ['plan text as_of', false, (call) => call('POST', '/v1/plan', { user: 'alice', session_id: SID, questions: [NAME], as_of: START })],
  ['plan choice as_of', false, (call) => call('POST', '/v1/plan', { user: 'alice', session_id: SID, questions: [TIER_Q, NAME], as_of: START })],
  ['toggle', true, (call) => call('PUT', `/v1/sessions/${SID}/personalization`, { user: 'alice', enabled: true })],
  ['why', false, (call) => call('GET', `/v1/why?user=alice&point=complexity-tier&session_id=${SID}`)],
  ['SessionStart', true, (call) => call('POST', HOOK, claudeCodeFixture('session-start'))],
  ['PostToolUse', true, (call) => call('POST', HOOK, claudeCodeFixture('post-tool-use-single'))],
  ['PreToolUse choice', true, (call) => call('POST', HOOK, claudeCodeFixture('pre-tool-use'))],
  ['PreToolUse text', false, (call) => call('POST', HOOK, { ...claudeCodeFixture('pre-tool-use'), tool_input: { questions: [NAME] } })],
  ['PreToolUse text+choice', true, (call) => call('POST', HOOK, { ...claudeCodeFixture('pre-tool-use'), tool_input: { questions: [NAME, TIER_Q] } })],
]
describe('the requests README lists as starting a new session_id, and those it says only read (R-SES-1)', () => {
  it.each(cases)('%s: starts it %s', async (_name, starts, send) => {
    const { call, store } = await createTestApp()
    // A choice made without a session, that a why has something to explain.
    expect((await call('POST', '/v1/observations', { ...TIER, user: 'alice', user_choice: 'Tier M', timestamp: START })).status).toBe(201)
    const r = await send(call)
    expect(r.status).toBeLessThan(300)
    expect((await store.getSession('alice', SID)) !== undefined).toBe(starts)
  })
})
