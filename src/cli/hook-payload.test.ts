import { describe, expect, it } from 'vitest'
import { LIMITS } from '../domain/limits'
import { claudeCodeFixture } from '../../test/support/fixtures'
import { PREVIEWED_QUESTIONS, previewedPostToolUse } from '../../test/support/preview-payload'
import { createTestApp } from '../../test/support/test-app'
import { hookBody } from './hook-payload'

const HOOK = '/v1/hooks/claude-code'

/** A payload without the fields named, at any depth: what the service reads of it, compared. */
function withoutFields(value: unknown, fields: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutFields(v, fields))
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(Object.entries(value).filter(([key]) => !fields.includes(key)).map(([key, v]) => [key, withoutFields(v, fields)]))
}

describe('hookBody: what the hook sends for a PostToolUse over the body limit', () => {
  it('records 4 answers whose options carry 20 KB previews each, refused 413 when sent whole', async () => {
    const payload = previewedPostToolUse()
    expect(Buffer.byteLength(JSON.stringify(payload))).toBeGreaterThan(LIMITS.bodyBytes)
    const { call, store } = await createTestApp()
    // Sent whole, as the hook did: refused, and the hook set it aside, the answers never recorded.
    const whole = await call('POST', HOOK, JSON.stringify(payload))
    expect(whole.status).toBe(413)
    expect(whole.body.error.code).toBe('body_too_large')
    const body = hookBody(payload)
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(LIMITS.bodyBytes)
    const sent = await call('POST', HOOK, body)
    expect(sent).toEqual({ status: 200, body: {} })
    const stored = []
    for await (const o of store.observationsOf('default')) stored.push(o)
    const recorded = stored.map((o) => [o.question, o.chosen, o.options]).sort(([a], [b]) => String(a).localeCompare(String(b)))
    expect(recorded).toEqual(PREVIEWED_QUESTIONS.map(({ question, chosen, options }) => [question, [chosen], options]))
  })

  it('drops only the options\' previews and descriptions and the annotations\' previews and notes, every other byte as sent', () => {
    const payload = previewedPostToolUse()
    // A question went unanswered: that the service reads in annotations, and it stays.
    payload.tool_response.annotations = { ...payload.tool_response.annotations, 'Which layout for screen 1 of the settings page?': { preview: 'x', notes: 'later', unanswered: 'skipped' } }
    const sent = JSON.parse(hookBody(payload))
    expect(sent).toEqual(withoutFields(payload, ['preview', 'description', 'notes']))
    expect(sent.tool_response.annotations['Which layout for screen 1 of the settings page?']).toEqual({ unanswered: 'skipped' })
    expect(Object.keys(sent)).toEqual(Object.keys(payload))
    expect(sent.tool_input.questions[0].options[0]).toEqual({ label: 'Sidebar' })
  })

  it('drops tool_input.answers where it mirrors tool_response.answers when still over the limit: an Other answer pasted long costs the call\'s others no more', async () => {
    // 150 KB typed into Other, carried twice (tool_response.answers and its mirror in tool_input):
    // 300 KB, and nothing to strip. Refused 413, the call was set aside, the other answer too.
    const METHOD = 'Which development methodology for this change?'
    const CHECKS = 'Which checks should run before the PR?'
    const pasted = 'Pair on it, then write the tests. '.repeat(4600)
    const payload = claudeCodeFixture('post-tool-use-multi')
    payload.tool_use_id = 'toolu_long_other'
    payload.tool_input.answers = { [METHOD]: pasted, [CHECKS]: 'Unit tests' }
    payload.tool_response.answers = { [METHOD]: pasted, [CHECKS]: 'Unit tests' }
    expect(Buffer.byteLength(JSON.stringify(payload))).toBeGreaterThan(LIMITS.bodyBytes)
    const body = hookBody(payload)
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(LIMITS.bodyBytes)
    // What the service reads of the mirror is what tool_response has: only the mirror's copies go.
    const sent = JSON.parse(body)
    expect(sent.tool_input.answers).toEqual({})
    expect(sent.tool_response).toEqual(withoutFields(payload.tool_response, ['description']))
    const { call, store } = await createTestApp()
    const answered = await call('POST', HOOK, body)
    expect(answered.status).toBe(200)
    expect(answered.body.systemMessage).toBe(
      "decision-memory did not record the answer to a question it could not take, and recorded the call's other answers: " +
        `"${METHOD}" (tool_response.answers.${METHOD}: at most 1000 characters once the white space at its ends is taken off, not 156399 (and at most 500 once normalised: a trailing " (Recommended)" and the white space at its ends not counted, a run of white space inside counted as one))`,
    )
    const stored = []
    for await (const o of store.observationsOf('default')) stored.push(o)
    expect(stored.map((o) => [o.question, o.chosen])).toEqual([[CHECKS, ['Unit tests']]])
    // An answer of the mirror's own (none in tool_response, or another) is kept, as the service reads it there.
    payload.tool_input.answers = { [METHOD]: pasted, [CHECKS]: 'Lint, format' }
    payload.tool_response.answers = { [METHOD]: pasted }
    expect(JSON.parse(hookBody(payload)).tool_input.answers).toEqual({ [CHECKS]: 'Lint, format' })
  })

  it('sends an ordinary payload exactly as before, previews and all while it is within the limit', () => {
    for (const payload of [claudeCodeFixture('post-tool-use-multi'), claudeCodeFixture('post-tool-use-single'), claudeCodeFixture('session-start'), previewedPostToolUse('toolu_small', 1024)]) {
      expect(hookBody(payload)).toBe(JSON.stringify(payload))
    }
  })

  it('never cuts a PreToolUse, whose questions come back in updatedInput, nor another tool\'s event', () => {
    const big = previewedPostToolUse()
    const pre = { ...claudeCodeFixture('pre-tool-use'), tool_input: { questions: big.tool_input.questions } }
    const read = { ...big, tool_name: 'Read' }
    for (const payload of [pre, read]) expect(hookBody(payload)).toBe(JSON.stringify(payload))
  })
})
