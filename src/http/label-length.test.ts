import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { LIMITS } from '../domain/limits'
import { NOT_BLANK_PATTERN } from '../domain/observation'
import type { MemoryStore } from '../memory/store'
import { claudeCodeFixture } from '../../test/support/fixtures'
import { createTestApp } from '../../test/support/test-app'

// A label's 500 characters are counted as it is normalised (R-CAP-3): the agent's ` (Recommended)`
// and the white space normalisation drops are not the label's, so a label within the limit stays
// within it when the agent marks it.

const HOOK = '/v1/hooks/claude-code'
const LONG = 'x'.repeat(LIMITS.labelLength - 5)
const MARKED = `${LONG} (Recommended)`
const OVER = `${'x'.repeat(LIMITS.labelLength + 1)} (Recommended)`
const QUESTION = 'Which approach should this change take?'

async function observationsOf(store: MemoryStore) {
  const out = []
  for await (const o of store.observationsOf('default')) out.push(o)
  return out
}

describe('a label marked (Recommended) is within the limit when it is once the mark is dropped', () => {
  it('POST /v1/observations takes it, stored as the label', async () => {
    const { call, store } = await createTestApp()
    const res = await call('POST', '/v1/observations', { question: QUESTION, user_choice: MARKED, all_options: ['Short', { label: MARKED, description: 'd' }] })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect((await observationsOf(store)).map((o) => [o.chosen, o.options])).toEqual([[[LONG], ['Short', LONG]]])
  })

  it('white space inside a label that normalisation makes one space is not counted either', async () => {
    const { call } = await createTestApp()
    const spaced = `${'x'.repeat(250)}${' '.repeat(20)}${'y'.repeat(LIMITS.labelLength - 251)}`
    const res = await call('POST', '/v1/observations', { question: QUESTION, user_choice: spaced, all_options: ['Short', spaced] })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
  })

  it('POST /v1/recommendations takes it, as an option and as the static default', async () => {
    const { call } = await createTestApp()
    const res = await call('POST', '/v1/recommendations', { question: QUESTION, all_options: ['Short', MARKED], static_default: MARKED })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
  })

  it('POST /v1/plan takes it', async () => {
    const { call } = await createTestApp()
    const question = { question: QUESTION, header: 'Approach', multiSelect: false, options: [{ label: 'Short' }, { label: MARKED }] }
    const res = await call('POST', '/v1/plan', { questions: [question] })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(JSON.stringify(res.body)).not.toContain('could not take')
  })

  it('the Claude Code hook plans it at PreToolUse and records its answer at PostToolUse', async () => {
    const { call, store } = await createTestApp()
    const pre = claudeCodeFixture('pre-tool-use')
    pre.tool_input.questions[0].options[2].label = MARKED
    const planned = await call('POST', HOOK, pre)
    expect(planned.status).toBe(200)
    expect(JSON.stringify(planned.body)).not.toContain('could not take')
    const post = claudeCodeFixture('post-tool-use-multi')
    for (const where of [post.tool_input, post.tool_response]) where.questions[1].options[2].label = MARKED
    const recorded = await call('POST', HOOK, post)
    expect(recorded).toEqual({ status: 200, body: {} })
    expect((await observationsOf(store)).find((o) => o.question.startsWith('Which checks'))?.options).toEqual(['Lint, format', 'Unit tests', LONG])
  })

  // What it takes and how long it was once normalised (501: its mark not counted), as every length
  // limit is said; zod's words said neither, `Too big: expected string to have <=500 characters`.
  const OVER_SAID = 'at most 500 characters once normalised (a trailing " (Recommended)" and the white space at its ends not counted, a run of white space inside counted as one), not 501'

  it('a label over the limit once normalised is still refused, naming it and how long it was', async () => {
    const { call, store } = await createTestApp()
    for (const [path, body, field] of [
      ['/v1/observations', { question: QUESTION, user_choice: 'Short', all_options: ['Short', OVER] }, 'all_options.1'],
      ['/v1/recommendations', { question: QUESTION, all_options: ['Short', OVER] }, 'all_options.1'],
      ['/v1/plan', { questions: [{ question: QUESTION, header: 'A', multiSelect: false, options: [{ label: 'Short' }, { label: OVER }] }] }, 'questions.0.options.1.label'],
    ] as const) {
      const res = await call('POST', path, body)
      expect(res.status, path).toBe(400)
      expect(res.body.error.issues, path).toEqual([{ path: field, message: OVER_SAID }])
    }
    const post = claudeCodeFixture('post-tool-use-multi')
    for (const where of [post.tool_input, post.tool_response]) where.questions[1].options[2].label = OVER
    const said = (await call('POST', HOOK, post)).body.systemMessage
    expect(said).toContain(`tool_response.questions.1.options.2.label: ${OVER_SAID})`)
    expect((await observationsOf(store)).map((o) => o.question)).toEqual(['Which development methodology for this change?'])
  })

  it('says the white space inside a label is counted, a run of it as one, as the length it gives counts it', async () => {
    // 490 + 6 spaces + 20 is 511 once normalised, its run of spaces one: "white space not counted"
    // said 511 of a label of 510 characters that are not white space.
    const { call } = await createTestApp()
    const res = await call('POST', '/v1/recommendations', { question: QUESTION, all_options: ['Short', `${'x'.repeat(490)}      ${'y'.repeat(20)}`] })
    expect(res.body.error.issues).toEqual([
      { path: 'all_options.1', message: 'at most 500 characters once normalised (a trailing " (Recommended)" and the white space at its ends not counted, a run of white space inside counted as one), not 511' },
    ])
  })
})

describe('a label over the limit as sent', () => {
  // 1,000 is a bound on the text sent, not the label limit: the message says the 500 once normalised
  // too. It says what the 1,000 count and how many there were: 1,001 once the white space at its
  // ends is taken off where a label is trimmed, 1,006 where it is kept as written (a plan's, the
  // hook's option label). Zod's words said "as sent" of both, and neither length.
  const SENT = `  ${'x'.repeat(LIMITS.labelSentLength + 1)}   `
  const AND = '(and at most 500 once normalised: a trailing " (Recommended)" and the white space at its ends not counted, a run of white space inside counted as one)'
  const TRIMMED = `at most 1000 characters once the white space at its ends is taken off, not 1001 ${AND}`
  const AS_WRITTEN = `at most 1000 characters as sent, the white space at its ends counted, not 1006 ${AND}`

  it('is refused naming the field, in words that say the limit once normalised, wherever a label is taken', async () => {
    const { call, store } = await createTestApp()
    for (const [path, body, field, said] of [
      ['/v1/observations', { question: QUESTION, user_choice: 'Short', all_options: ['Short', SENT] }, 'all_options.1', TRIMMED],
      ['/v1/observations', { question: QUESTION, user_choice: SENT, all_options: ['Short', 'Long'] }, 'user_choice', TRIMMED],
      ['/v1/recommendations', { question: QUESTION, all_options: ['Short', SENT] }, 'all_options.1', TRIMMED],
      ['/v1/recommendations', { question: QUESTION, all_options: ['Short', 'Long'], static_default: SENT }, 'static_default', TRIMMED],
      ['/v1/plan', { questions: [{ question: QUESTION, header: 'A', multiSelect: false, options: [{ label: 'Short' }, { label: SENT }] }] }, 'questions.0.options.1.label', AS_WRITTEN],
      ['/v1/decisions/check', { choice: SENT }, 'choice', TRIMMED],
      [
        '/v1/decisions',
        { key: 'L-1', title: 'Decision L-1', decision: 'x', rationale: 'y', enforce: 'required', status: 'accepted', constraints: [{ kind: 'must_not', option: SENT }] },
        'constraints.0.option',
        TRIMMED,
      ],
    ] as const) {
      const res = await call('POST', path, body)
      expect(res.status, path).toBe(400)
      expect(res.body.error.issues, path).toEqual([{ path: field, message: said }])
    }
    const post = claudeCodeFixture('post-tool-use-multi')
    for (const where of [post.tool_input, post.tool_response]) where.questions[1].options[2].label = SENT
    const said = (await call('POST', HOOK, post)).body.systemMessage
    expect(said).toContain(`tool_response.questions.1.options.2.label: ${AS_WRITTEN})`)
    expect((await observationsOf(store)).map((o) => o.question)).toEqual(['Which development methodology for this change?'])
  })
})

describe('the label limit in the OpenAPI document', () => {
  it('is said in words wherever a label is taken, as its maxLength is the label as sent', async () => {
    const { call } = await createTestApp()
    const doc = (await call('GET', '/openapi.json')).body
    // Each string schema of the label's maxLength, and whether it, or a schema it is in, says the limit once normalised.
    const unsaid: string[] = []
    const walk = (value: unknown, path: string, said: boolean) => {
      if (value === null || typeof value !== 'object') return
      const schema = value as { description?: unknown; maxLength?: unknown; pattern?: unknown }
      const here = said || (typeof schema.description === 'string' && schema.description.includes(`${LIMITS.labelLength} characters once normalised`))
      // A label's schema: its maxLength, and the pattern that refuses white space alone (a path of 1,000 characters has none).
      if (schema.maxLength === LIMITS.labelSentLength && schema.pattern === NOT_BLANK_PATTERN && !here) unsaid.push(path)
      for (const [key, child] of Object.entries(value)) walk(child, `${path}.${key}`, here)
    }
    walk(doc, '', false)
    expect(unsaid).toEqual([])
  })
})

describe('README: Limits, the 1,000 characters of a label as sent', () => {
  // 999 characters, `a b` once normalised, and 5 spaces around them: 1,004 as sent.
  const CORE = `a${' '.repeat(LIMITS.labelSentLength - 3)}b`
  const SPACED = `  ${CORE}   `
  const ROW = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    .split('\n')
    .find((line) => line.startsWith('| option label'))

  it('counts them once white space at its ends is taken off, where a label is trimmed, and as written in a plan', async () => {
    const { call } = await createTestApp()
    expect((await call('POST', '/v1/observations', { question: QUESTION, user_choice: SPACED, all_options: ['Short', SPACED] })).status).toBe(201)
    expect((await call('POST', '/v1/recommendations', { question: QUESTION, all_options: ['Short', SPACED], static_default: SPACED })).status).toBe(200)
    expect((await call('POST', '/v1/decisions/check', { choice: SPACED })).status).toBe(200)
    const decision = { title: 't', decision: 'd', rationale: 'r', scope: { points: ['p'] }, constraints: [{ kind: 'must', option: SPACED }] }
    expect((await call('POST', '/v1/decisions', decision)).status).toBe(201)
    const plan = await call('POST', '/v1/plan', { questions: [{ question: QUESTION, header: 'A', options: [{ label: 'Short' }, { label: SPACED }] }] })
    expect(plan.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['questions.0.options.1.label'])
    // One character more inside is over the 1,000 wherever it is sent.
    const over = await call('POST', '/v1/observations', { question: QUESTION, user_choice: 'Short', all_options: ['Short', ` ${CORE}bb `] })
    expect(over.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['all_options.1'])
    // And the README says so, not that the white space at a label's ends is counted everywhere.
    expect(ROW).toContain('at most 1,000 as sent once white space at its ends is taken off')
    expect(ROW).toContain("a plan's option `label` and the hook's, kept as written, count the white space at their ends too")
  })
})
