import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'

// The test app's clock stands still: every observation below is recorded in the same millisecond,
// and those sent without a timestamp are dated in it too, as a hook's several answers or a batch
// sent back to back can be.
const CHECKS = { question: 'Which checks should run before merge?', header: 'Checks', all_options: ['Lint', 'Unit tests', 'E2E'] }
const SET = { ...CHECKS, multi_select: true, user_choice: ['Lint', 'Unit tests'] }
const ONE = { ...CHECKS, multi_select: false, user_choice: 'Lint' }

function ndjson(text: string): Array<{ type: string; data?: any }> {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line))
}

describe('observations recorded in one millisecond', () => {
  it('read the one sent last as the latest choice, in one request or in two (multi_select left out)', async () => {
    const { call } = await createTestApp()
    // Ten users, each answering the question twice, the last answer alternately a set and one label.
    for (let u = 0; u < 10; u++) {
      const user = `u-${u}`
      const [first, last] = u % 2 === 0 ? [SET, ONE] : [ONE, SET]
      if (u < 5) {
        expect((await call('POST', '/v1/observations', [{ ...first, user, decision_id: `${user}-a` }, { ...last, user, decision_id: `${user}-b` }])).status).toBe(201)
      } else {
        expect((await call('POST', '/v1/observations', { ...first, user, decision_id: `${user}-a` })).status).toBe(201)
        expect((await call('POST', '/v1/observations', { ...last, user, decision_id: `${user}-b` })).status).toBe(201)
      }
      const { body } = await call('POST', '/v1/recommendations', { ...CHECKS, user })
      expect({ user, multi_select: body.multi_select }).toEqual({ user, multi_select: last.multi_select })
    }
  })

  it('are exported, and their latest question learned, in the order they were sent', async () => {
    const { call } = await createTestApp()
    // One point (the policy's complexity-tier) asked in several words: the latest words name it.
    const questions = Array.from({ length: 12 }, (_, i) => `Which complexity tier for step ${i}?`)
    const sent = questions.map((question, i) => ({ question, header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'], user_choice: i % 3 === 0 ? 'Tier S' : 'Tier M', decision_id: `d-${i}` }))
    expect((await call('POST', '/v1/observations', sent.slice(0, 8))).status).toBe(201)
    for (const one of sent.slice(8)) expect((await call('POST', '/v1/observations', one)).status).toBe(201)
    const exported = ndjson(String((await call('GET', '/v1/users/default/export')).body))
    expect(exported.filter((l) => l.type === 'observation').map((l) => l.data.decision_id)).toEqual(sent.map((o) => o.decision_id))
    const [learned] = (await call('GET', '/v1/users/default/preferences')).body.points
    expect(learned).toMatchObject({ point: 'complexity-tier', question: questions[11] })
  })

  it('of one AskUserQuestion are stored in the order its questions were answered', async () => {
    const { call } = await createTestApp()
    // Four questions of one call at one point (the policy's complexity-tier, by their header), the
    // last one multi-select: recorded at one moment, the hook's, as the user answered them.
    const questions = ['API', 'worker', 'web app', 'docs'].map((part, i) => ({
      question: `Which complexity tier for the ${part}?`,
      header: 'Tier',
      options: [{ label: 'Tier S' }, { label: 'Tier M' }, { label: 'Tier L' }],
      multiSelect: i === 3,
    }))
    for (const user of ['alice', 'bob']) {
      const answers = Object.fromEntries(questions.map((q, i) => [q.question, i === 3 ? 'Tier S, Tier M' : 'Tier M']))
      const payload = {
        session_id: `s-${user}`,
        cwd: '/home/dev/acme-api',
        hook_event_name: 'PostToolUse',
        tool_name: 'AskUserQuestion',
        tool_use_id: `toolu_${user}`,
        tool_input: { questions, answers },
        tool_response: { questions, answers },
      }
      expect((await call('POST', `/v1/hooks/claude-code?user=${user}`, payload)).status).toBe(200)
      const exported = ndjson(String((await call('GET', `/v1/users/${user}/export`)).body))
      expect(exported.filter((l) => l.type === 'observation').map((l) => l.data.question)).toEqual(questions.map((q) => q.question))
      const { body } = await call('POST', '/v1/recommendations', { question: 'Which complexity tier?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'], user })
      expect(body.multi_select).toBe(true)
    }
  })

  it('are cited newest first, the one sent last first, and the newest 100 of them kept', async () => {
    const { call } = await createTestApp()
    const TIER = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }
    // Five an hour before, then 103 in one request and two more in two others, all at one moment.
    const earlier = Array.from({ length: 5 }, (_, i) => ({ ...TIER, user_choice: 'Tier M', decision_id: `e-${i}`, timestamp: '2026-07-01T09:00:00.000Z' }))
    const now = Array.from({ length: 105 }, (_, i) => ({ ...TIER, user_choice: 'Tier M', decision_id: `n-${i}` }))
    const ids: string[] = []
    for (const batch of [earlier, now.slice(0, 103), [now[103]], [now[104]]]) {
      const posted = await call('POST', '/v1/observations', batch)
      expect(posted.status).toBe(201)
      ids.push(...posted.body.stored.map((s: { id: string }) => s.id))
    }
    const newestFirst = [...ids.slice(5)].reverse().slice(0, 100)
    expect((await call('POST', '/v1/recommendations', TIER)).body.evidence).toEqual(newestFirst)
    const why = await call('GET', `/v1/why?point=complexity-tier`)
    expect(why.status).toBe(200)
    expect(why.body.observations.map((o: { id: string }) => o.id)).toEqual(newestFirst)
  })
})
