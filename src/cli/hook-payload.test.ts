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
