import { mkdirSync, realpathSync, symlinkSync } from 'node:fs'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { BIN_PATH, shellWord } from '../config/bin-path'
import { DEFAULT_POLICY_FILE, loadPolicy } from '../config/load-policy'
import { hashPointKey } from '../domain/decision-point'
import { LIMITS } from '../domain/limits'
import { DecisionIdSchema } from '../domain/observation'
import { compilePolicy } from '../domain/policy'
import { ClaudeCodeHookPayloadSchema, hookDecisionId } from '../integrations/claude-code'
import type { MemoryStore } from '../memory/store'
import { claudeCodeFixture } from '../../test/support/fixtures'
import { REQUIRED_TIER_L } from '../../test/support/decision-record'
import { createTestApp, START } from '../../test/support/test-app'
import { tempDir } from '../../test/support/temp-dir'

const HOOK = '/v1/hooks/claude-code'
const TIER_QUESTION = 'Which complexity tier should this SPEC use?'
const TIER_OPTIONS = ['Tier S', 'Tier M', 'Tier L']

async function observationsOf(store: MemoryStore, user = 'default') {
  const out = []
  for await (const o of store.observationsOf(user)) out.push(o)
  return out
}

/** The project of the fixtures' events: their cwd. */
const FIXTURE_PROJECT = '/home/dev/acme-api'

/**
 * `count` past choices of `choice` at a question, each its own decision, made in the fixtures'
 * project: a project with no choice of its own at a point is asked there (R-ASK-2).
 */
function pastChoices(count: number, choice: string, base: Record<string, unknown>) {
  return Array.from({ length: count }, (_, i) => ({ project: FIXTURE_PROJECT, ...base, user_choice: choice, decision_id: `past-${i}`, timestamp: START }))
}

const TIER = { question: TIER_QUESTION, header: 'Tier', all_options: TIER_OPTIONS }
/** A second question of a PreToolUse call, beside the fixture's tier. */
const METHOD_QUESTION = {
  question: 'Which development methodology for this change?',
  header: 'Method',
  options: [
    { label: 'TDD', description: 'Write failing tests first' },
    { label: 'DDD', description: 'Domain model first' },
  ],
  multiSelect: false,
}

describe('POST /v1/hooks/claude-code: PostToolUse captures (R-CAP-5)', () => {
  it('records one label answering a question that leaves multiSelect out as the point reads it: multi-select where the latest choice there was (R-REC-8)', async () => {
    const { call, store } = await createTestApp()
    const question = 'Which checks should run before the PR?'
    const checks = { question, header: 'Checks', all_options: ['Lint, format', 'Unit tests', 'E2E tests'], project: FIXTURE_PROJECT }
    await call('POST', '/v1/observations', Array.from({ length: 10 }, (_, i) => ({ ...checks, user_choice: ['Lint, format', 'Unit tests'], decision_id: `set-${i}` })))
    const post = claudeCodeFixture('post-tool-use-multi')
    for (const part of [post.tool_input, post.tool_response]) {
      for (const q of part.questions) if (q.question === question) delete q.multiSelect
      if (part.answers !== undefined) part.answers[question] = 'Unit tests'
    }
    expect((await call('POST', HOOK, post)).status).toBe(200)
    // Read single-select, the one label was the point's latest choice, and made it single-select: its sets read as shares of one choice.
    expect((await observationsOf(store)).find((o) => o.question === question && o.decision_id?.startsWith('set-') !== true)).toMatchObject({ chosen: ['Unit tests'], multi_select: true })
    expect((await call('POST', '/v1/recommendations', checks)).body).toMatchObject({ multi_select: true, recommended: ['Lint, format', 'Unit tests'] })
  })

  it('the multi-question fixture gives two observations, the multi-select one split by known labels', async () => {
    const { call, store } = await createTestApp()
    const { status, body } = await call('POST', HOOK, claudeCodeFixture('post-tool-use-multi'))
    expect(status).toBe(200)
    expect(body).toEqual({})
    const stored = await observationsOf(store)
    expect(stored).toHaveLength(2)
    const method = stored.find((o) => o.question.startsWith('Which development methodology'))
    const checks = stored.find((o) => o.question.startsWith('Which checks'))
    expect(method?.chosen).toEqual(['TDD'])
    expect(method?.point).toBe('development-methodology')
    expect(checks?.chosen).toEqual(['Lint, format', 'Unit tests'])
    expect(checks?.multi_select).toBe(true)
    expect(checks?.other).toBeNull()
    for (const o of stored) {
      expect(o.project).toBe('/home/dev/acme-api')
      expect(o.session_id).toBe('7c1f2a9e-3b4d-4e5f-8a6b-1c2d3e4f5a6b')
      expect(o.source).toBe('user')
      expect(o.decision_id).toMatch(/^toolu_01QxAmPLe0002MultiQuestion#[0-9a-f]{16}$/)
    }
  })

  it('shows the control characters of a question it names escaped, never raw to the terminal, its answer kept as sent', async () => {
    // Claude Code prints a systemMessage to the user's terminal: an escape sequence in a question's
    // text (ESC, CSI as U+009B, a bidirectional override) would run there, as the CLI's own output never lets it.
    const { call, store } = await createTestApp()
    const ODD = 'Which\u001b[2J method\u009b\u202e?'
    const post = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: 'toolu_control_named' }
    for (const where of [post.tool_input, post.tool_response]) where.questions[0].question = ODD
    post.tool_response.answers = { [ODD]: 7, [post.tool_response.questions[1].question]: 'Unit tests' }
    post.tool_input.answers = {}
    const { status, body } = await call('POST', HOOK, post)
    expect(status).toBe(200)
    expect(body.systemMessage).toContain('"Which\\u001b[2J method\\u009b\\u202e?" (tool_response.answers.Which\\u001b[2J method\\u009b\\u202e?: a number is no label)')
    expect(body.systemMessage).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/)
    expect((await observationsOf(store)).map((o) => o.chosen)).toEqual([['Unit tests']])
  })

  it('says a field of the payload left out is missing, as every route says it, not that it received undefined', async () => {
    // JSON has no undefined: zod's "Invalid input: expected string, received undefined" meant a field not sent.
    const { call, store } = await createTestApp()
    const post = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: 'toolu_missing_one' }
    for (const where of [post.tool_input, post.tool_response]) delete where.questions[0].question
    const skipped = await call('POST', HOOK, post)
    expect(skipped.status).toBe(200)
    expect(skipped.body.systemMessage).toContain('question 1 (tool_response.questions.0.question: missing: expected string)')
    expect(skipped.body.systemMessage).not.toContain('undefined')
    expect(await observationsOf(store)).toHaveLength(1)
    const { tool_input: _input, ...noInput } = { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: 'toolu_missing_input' }
    const refused = await call('POST', HOOK, noInput)
    expect(refused.status).toBe(400)
    expect(refused.body.error.issues).toEqual([{ path: 'tool_input', message: 'missing: expected object' }])
  })

  it('says a question of blank text it skipped by its place, whatever its answers are keyed by, and records the others', async () => {
    // Answers are keyed by the question's text: one asked as "" may have its answer under no key that
    // tells it (here the text it was meant to have), and it was skipped with {} and no word.
    for (const key of ['Which development methodology for this change?', '']) {
      const { call, store } = await createTestApp()
      const post = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: `toolu_blank_${key.length}` }
      const text = post.tool_input.questions[0].question
      for (const where of [post.tool_input, post.tool_response]) {
        where.questions[0].question = ''
        const answer = where.answers[text]
        delete where.answers[text]
        where.answers[key] = answer
      }
      const skipped = await call('POST', HOOK, post)
      expect(skipped.status, JSON.stringify(key)).toBe(200)
      expect(skipped.body.systemMessage, JSON.stringify(key)).toBe(
        "decision-memory did not record the answer to a question it could not take, and recorded the call's other answers: " +
          'question 1 (tool_response.questions.0.question: must not be blank)',
      )
      expect((await observationsOf(store)).map((o) => o.question)).toEqual(['Which checks should run before the PR?'])
    }
    // Unless Claude Code says it went unanswered: then no answer was lost.
    const { call } = await createTestApp()
    const dismissed = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: 'toolu_blank_dismissed' }
    const text = dismissed.tool_input.questions[0].question
    for (const where of [dismissed.tool_input, dismissed.tool_response]) {
      where.questions[0].question = ''
      delete where.answers[text]
    }
    dismissed.tool_response.annotations = { '': { unanswered: 'dismissed' } }
    const quiet = await call('POST', HOOK, dismissed)
    expect([quiet.status, quiet.body]).toEqual([200, {}])
  })

  it('"Tier M (Recommended)" counts as Tier M', async () => {
    const { call, store } = await createTestApp()
    await call('POST', HOOK, claudeCodeFixture('post-tool-use-single'))
    const [only, ...rest] = await observationsOf(store)
    expect(rest).toHaveLength(0)
    expect(only?.chosen).toEqual(['Tier M'])
    expect(only?.options).toEqual(['Tier M', 'Tier S', 'Tier L'])
    expect(only?.point).toBe('complexity-tier')
  })

  it('takes fields it does not know at every level of the payload: Claude Code adds some with each release', async () => {
    const { call, store } = await createTestApp()
    const payload = claudeCodeFixture('post-tool-use-single') as Record<string, any>
    const newer = (q: Record<string, any>) => ({ ...q, preview: 'p', options: q.options.map((o: object) => ({ ...o, shortcut: 'k' })) })
    const r = await call('POST', HOOK, {
      ...payload,
      agent_id: 'a-1',
      tool_input: { ...payload.tool_input, metadata: { source: 'x' }, questions: payload.tool_input.questions.map(newer) },
      tool_response: { ...payload.tool_response, elapsed_ms: 3, questions: payload.tool_response.questions.map(newer) },
    })
    expect(r.status).toBe(200)
    expect((await observationsOf(store)).map((o) => o.chosen)).toEqual([['Tier M']])
  })

  it('sending a fixture twice stores nothing new', async () => {
    const { call, store } = await createTestApp()
    for (const name of ['post-tool-use-multi', 'post-tool-use-single']) {
      await call('POST', HOOK, claudeCodeFixture(name))
      await call('POST', HOOK, claudeCodeFixture(name))
    }
    expect(await observationsOf(store)).toHaveLength(3)
  })

  it('two questions of one call that are one text after normalisation (case, spaces, end mark, Unicode form) are both recorded, once each', async () => {
    const { call, store } = await createTestApp()
    const texts = ['Which tier?', 'which  TIER.', 'Caf\u00e9?', 'Cafe\u0301?']
    const questions = texts.map((question, i) => ({ question, header: `H${i}`, multiSelect: false, options: [{ label: `A${i}`, description: '' }, { label: `B${i}`, description: '' }] }))
    const answers = Object.fromEntries(texts.map((text, i) => [text, `B${i}`]))
    const payload = { ...claudeCodeFixture('post-tool-use-single'), tool_input: { questions, answers }, tool_response: { questions, answers }, tool_use_id: 'toolu_twins' }
    expect((await call('POST', HOOK, payload)).status).toBe(200)
    // A retry, with the questions in another order (as a plan may put them), stores nothing new.
    const reordered = [...questions].reverse()
    expect((await call('POST', HOOK, { ...payload, tool_input: { questions: reordered, answers }, tool_response: { questions: reordered, answers } })).status).toBe(200)
    const stored = await observationsOf(store)
    expect(stored.map((o) => o.question).sort()).toEqual([...texts].sort())
    expect(stored.map((o) => o.chosen)).toEqual(expect.arrayContaining(texts.map((_, i) => [`B${i}`])))
    expect(new Set(stored.map((o) => o.decision_id)).size).toBe(texts.length)
  })

  it('a question without an answer gives nothing, and the user is taken from ?user=', async () => {
    const { call, store } = await createTestApp()
    const payload = claudeCodeFixture('post-tool-use-multi')
    delete payload.tool_response.answers['Which checks should run before the PR?']
    delete payload.tool_input.answers['Which checks should run before the PR?']
    await call('POST', `${HOOK}?user=alice`, payload)
    expect(await observationsOf(store, 'alice')).toHaveLength(1)
    expect(await observationsOf(store)).toHaveLength(0)
  })

  it('an answer tool_response.answers lacks is read from its mirror in tool_input.answers', async () => {
    const { call, store } = await createTestApp()
    const payload = claudeCodeFixture('post-tool-use-multi')
    payload.tool_response.answers = {}
    expect(await call('POST', HOOK, payload)).toEqual({ status: 200, body: {} })
    expect((await observationsOf(store)).map((o) => o.chosen)).toEqual(expect.arrayContaining([['TDD'], ['Lint, format', 'Unit tests']]))
    expect(await observationsOf(store)).toHaveLength(2)

    // One question lacking (or blank, or null) in tool_response.answers: that one from tool_input.answers.
    const { call: call2, store: store2 } = await createTestApp()
    const partial = claudeCodeFixture('post-tool-use-multi')
    partial.tool_response.answers = { 'Which development methodology for this change?': 'DDD', 'Which checks should run before the PR?': ' ' }
    partial.tool_input.answers['Which development methodology for this change?'] = 'TDD'
    await call2('POST', HOOK, partial)
    const stored = await observationsOf(store2)
    expect(stored.find((o) => o.question.startsWith('Which development'))?.chosen).toEqual(['DDD'])
    expect(stored.find((o) => o.question.startsWith('Which checks'))?.chosen).toEqual(['Lint, format', 'Unit tests'])
    const single = { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: 'toolu_null' }
    single.tool_response.answers = { 'Which complexity tier should this SPEC use?': null }
    await call2('POST', HOOK, single)
    expect((await observationsOf(store2)).filter((o) => o.decision_id?.startsWith('toolu_null#')).map((o) => o.chosen)).toEqual([['Tier M']])
  })

  it('a question the user wrote notes on without choosing an option ("(notes only)") records no choice, the call\'s others are kept', async () => {
    const { call, store } = await createTestApp()
    const METHOD = 'Which development methodology for this change?'
    const CHECKS = 'Which checks should run before the PR?'
    const payload = claudeCodeFixture('post-tool-use-multi')
    // As Claude Code's picker sends it: the sentinel in answers (both copies), the notes in annotations.
    for (const where of [payload.tool_input, payload.tool_response]) {
      where.answers = { [METHOD]: '(notes only)', [CHECKS]: 'Unit tests' }
      where.annotations = { [METHOD]: { notes: 'ask me again once the domain is clearer' } }
    }
    expect(await call('POST', HOOK, payload)).toEqual({ status: 200, body: {} })
    const stored = await observationsOf(store)
    expect(stored.map((o) => [o.question, o.chosen, o.other])).toEqual([[CHECKS, ['Unit tests'], null]])
  })

  it('a question Claude Code says went unanswered (skipped, dismissed, replied in the chat) records no choice, whatever text answers holds', async () => {
    const { call, store } = await createTestApp()
    const METHOD = 'Which development methodology for this change?'
    const CHECKS = 'Which checks should run before the PR?'
    let n = 0
    const recorded = async (unanswered: unknown) => {
      const id = `toolu_unanswered_${n++}`
      const payload = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: id }
      payload.tool_response.answers = { [METHOD]: 'The user skipped this question', [CHECKS]: 'Unit tests' }
      payload.tool_response.annotations = { [METHOD]: { unanswered } }
      expect(await call('POST', HOOK, payload)).toEqual({ status: 200, body: {} })
      return (await observationsOf(store)).filter((o) => o.decision_id?.startsWith(`${id}#`)).map((o) => o.question)
    }
    for (const how of ['skipped', 'dismissed', 'replied_in_chat']) expect(await recorded(how)).toEqual([CHECKS])
    // Any other value is none, as Claude Code reads it: the answer is the user's.
    expect((await recorded('later')).sort()).toEqual([CHECKS, METHOD].sort())
  })

  it('an answer keyed by no question of the call is matched to none, and said where a question went without one', async () => {
    const { call, store } = await createTestApp()
    const METHOD = 'Which development methodology for this change?'
    const CHECKS = 'Which checks should run before the PR?'
    const CAFE = 'Café au lait or espresso?'
    let n = 0
    const sent = async (answers: Record<string, unknown>, spoil?: (where: { questions: Array<{ question: string }>; annotations?: unknown }) => void) => {
      const id = `toolu_stray_${n++}`
      const payload = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: id }
      for (const where of [payload.tool_input, payload.tool_response]) {
        where.answers = answers
        spoil?.(where)
      }
      const { status, body } = await call('POST', HOOK, payload)
      expect(status).toBe(200)
      const stored = (await observationsOf(store)).filter((o) => o.decision_id?.startsWith(`${id}#`)).map((o) => o.question)
      return { said: body.systemMessage, stored }
    }
    // Claude Code keys an answer by its question's exact text: a key spaced otherwise is no guess.
    expect(await sent({ [` ${METHOD} `]: 'TDD', [CHECKS]: 'Unit tests' })).toEqual({
      said:
        "decision-memory did not record the answer to a question it could not take, and recorded the call's other answers: " +
        `an answer keyed " ${METHOD} " (tool_response.answers. ${METHOD} : names no question of the call: it differs from "${METHOD}" in white space or Unicode form, and answers are keyed by the exact text)`,
      stored: [CHECKS],
    })
    // Decomposed against the question composed: within a call the two are two questions.
    const decomposed = CAFE.normalize('NFD')
    expect(decomposed).not.toBe(CAFE)
    expect(await sent({ [decomposed]: 'TDD' }, (where) => void ((where.questions[0] as { question: string }).question = CAFE))).toEqual({
      said:
        'decision-memory did not record the answer to a question it could not take: ' +
        `an answer keyed "${decomposed}" (tool_response.answers.${decomposed}: names no question of the call: it differs from "${CAFE}" in white space or Unicode form, and answers are keyed by the exact text)`,
      stored: [],
    })
    // A key like no question at all, found in the mirror alone, is said by its field there.
    const mirror = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: 'toolu_stray_mirror' }
    mirror.tool_response.answers = { [CHECKS]: 'Unit tests' }
    mirror.tool_input.answers = { [CHECKS]: 'Unit tests', 'Which method?': 'TDD' }
    expect((await call('POST', HOOK, mirror)).body.systemMessage).toBe(
      "decision-memory did not record the answer to a question it could not take, and recorded the call's other answers: " +
        'an answer keyed "Which method?" (tool_input.answers.Which method?: names no question of the call)',
    )
    // Every question answered: a key beside them is no loss (under -p, the answer this service gave
    // at PreToolUse stays in answers while its question is gone), and nothing is said.
    expect(await sent({ [METHOD]: 'TDD', [CHECKS]: 'Unit tests', 'Which complexity tier should this SPEC use?': 'Tier M (Recommended)' })).toEqual({
      said: undefined,
      stored: [METHOD, CHECKS],
    })
    // Nor where the question without an answer went unanswered, or the stray key answers nothing.
    const skipped = (where: { annotations?: unknown }) => void (where.annotations = { [METHOD]: { unanswered: 'skipped' } })
    expect(await sent({ [` ${METHOD} `]: 'The user skipped this question', [CHECKS]: 'Unit tests' }, skipped)).toEqual({ said: undefined, stored: [CHECKS] })
    expect(await sent({ [` ${METHOD} `]: ' ', [CHECKS]: 'Unit tests' })).toEqual({ said: undefined, stored: [CHECKS] })
    // Nor where the question has its key, if with notes only: the key beside it is not its answer.
    expect(await sent({ [METHOD]: '(notes only)', [CHECKS]: 'Unit tests', 'Which complexity tier should this SPEC use?': 'Tier M (Recommended)' })).toEqual({
      said: undefined,
      stored: [CHECKS],
    })
  })

  it('reads the answer to a question tool_response words otherwise than tool_input, keyed by tool_input\'s text, as that question\'s', async () => {
    // Claude Code mirrors tool_input's questions in tool_response; a client that words one
    // otherwise there but keys its answer by the text the agent wrote had that answer dropped
    // without a word: the key names a question of the call (tool_input's), the question read
    // (tool_response's) has no key.
    const { call, store } = await createTestApp()
    const METHOD = 'Which development methodology for this change?'
    const CHECKS = 'Which checks should run before the PR?'
    let n = 0
    const sent = async (reworded: string[] | 'reversed', answers: Record<string, unknown>) => {
      const id = `toolu_mismatch_${n++}`
      const payload = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: id }
      if (reworded === 'reversed') payload.tool_response.questions.reverse()
      else reworded.forEach((text, i) => void (payload.tool_response.questions[i].question = text))
      payload.tool_input.answers = answers
      payload.tool_response.answers = answers
      const { status, body } = await call('POST', HOOK, payload)
      expect(status).toBe(200)
      const stored = (await observationsOf(store)).filter((o) => o.decision_id?.startsWith(`${id}#`))
      return { said: body.systemMessage, stored: stored.map((o) => [o.question, o.chosen, o.decision_id === hookDecisionId(id, o.question)]).sort() }
    }
    const both = { [METHOD]: 'TDD', [CHECKS]: 'Unit tests' }
    // tool_input's question at the same place is the one its key names: recorded under it, with
    // the decision_id a PreToolUse of that text gives, nothing said.
    expect(await sent(['1. Which development methodology?'], both)).toEqual({
      said: undefined,
      stored: [[CHECKS, ['Unit tests'], true], [METHOD, ['TDD'], true]],
    })
    expect(await sent(['Method?', 'Checks?'], both)).toEqual({ said: undefined, stored: [[CHECKS, ['Unit tests'], true], [METHOD, ['TDD'], true]] })
    // Keyed by tool_response's own text, it is that question's, as before.
    expect(await sent(['Method?'], { 'Method?': 'DDD', [CHECKS]: 'Unit tests' })).toEqual({
      said: undefined,
      stored: [['Method?', ['DDD'], true], [CHECKS, ['Unit tests'], true]],
    })
    // The questions in another order, each its own text: each answer under its own question.
    expect(await sent('reversed', both)).toEqual({ said: undefined, stored: [[CHECKS, ['Unit tests'], true], [METHOD, ['TDD'], true]] })
    // tool_input's question answered with no choice is said by its text, as any such answer is.
    const odd = await sent(['Method?'], { [METHOD]: 7, [CHECKS]: 'Unit tests' })
    expect(odd.stored).toEqual([[CHECKS, ['Unit tests'], true]])
    expect(odd.said).toBe(
      "decision-memory did not record the answer to a question it could not take, and recorded the call's other answers: " +
        `"${METHOD}" (tool_response.answers.${METHOD}: a number is no label)`,
    )
  })

  it('reads the answer to a question tool_response both rewords and moves as the question its key names, and says one it cannot place', async () => {
    // Reworded and in another order, the question at the same place in tool_input is another one,
    // whose text is shown already: the answer keyed by tool_input's text was dropped without a word.
    const { call, store } = await createTestApp()
    const METHOD = 'Which development methodology for this change?'
    const CHECKS = 'Which checks should run before the PR?'
    let n = 0
    const sent = async (change: (response: { questions: Array<Record<string, unknown>> }) => void, extra?: Record<string, unknown>) => {
      const id = `toolu_moved_${n++}`
      const payload = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: id }
      change(payload.tool_response)
      if (extra !== undefined) {
        payload.tool_input.questions.push(extra)
        const text = (extra as { question: string }).question
        payload.tool_input.answers = { ...payload.tool_input.answers, [text]: 'Yes' }
        payload.tool_response.answers = { ...payload.tool_response.answers, [text]: 'Yes' }
      }
      const { status, body } = await call('POST', HOOK, payload)
      expect(status).toBe(200)
      const stored = (await observationsOf(store)).filter((o) => o.decision_id?.startsWith(`${id}#`))
      return { said: body.systemMessage, stored: stored.map((o) => [o.question, o.chosen, o.decision_id === hookDecisionId(id, o.question)]).sort() }
    }
    const both = [[CHECKS, ['Lint, format', 'Unit tests'], true], [METHOD, ['TDD'], true]]
    // The checks question reworded and moved first: each answer under the question its key names.
    expect(await sent((r) => void (r.questions = [{ ...r.questions[1], question: 'Which checks must run?' }, { ...r.questions[0] }]))).toEqual({ said: undefined, stored: both })
    // Both reworded and swapped: still each under its own text, as tool_input words it.
    expect(
      await sent((r) => void (r.questions = [{ ...r.questions[1], question: 'Checks?' }, { ...r.questions[0], question: 'Method?' }])),
    ).toEqual({ said: undefined, stored: both })
    // tool_response lists fewer questions than tool_input, reworded: which it shows is not known,
    // so none is read by its place; each answer left is said, never stored under another question.
    const DEPLOY = 'Deploy now?'
    const fewer = await sent((r) => void (r.questions = [{ ...r.questions[1], question: 'Checks?' }]), {
      question: DEPLOY,
      header: 'Deploy',
      options: [{ label: 'Yes', description: 'now' }, { label: 'No', description: 'later' }],
      multiSelect: false,
    })
    expect(fewer.stored).toEqual([])
    for (const [text, place] of [[METHOD, 0], [CHECKS, 1], [DEPLOY, 2]] as const) {
      expect(fewer.said).toContain(
        `"${text}" (tool_response.answers.${text}: its question, tool_input.questions.${place}, is none of tool_response's questions, which word, order or count them otherwise: which of them was shown for it is not known)`,
      )
    }
  })

  it('reads a multi-select answer as Claude Code joins it now, a label holding ", " or a quote written as a JSON string', async () => {
    const { call, store } = await createTestApp()
    const CHECKS = 'Which checks should run before the PR?'
    let n = 0
    const recorded = async (answer: string, labels?: string[]) => {
      const id = `toolu_quoted_${n++}`
      const payload = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: id }
      for (const where of [payload.tool_input, payload.tool_response]) {
        if (labels !== undefined) where.questions[1].options = labels.map((label) => ({ label, description: label }))
        where.answers = { [CHECKS]: answer }
      }
      expect(await call('POST', HOOK, payload)).toEqual({ status: 200, body: {} })
      const stored = (await observationsOf(store)).find((o) => o.decision_id?.startsWith(`${id}#`))
      return [stored?.chosen, stored?.other]
    }
    expect(await recorded('"Lint, format", Unit tests')).toEqual([['Lint, format', 'Unit tests'], null])
    expect(await recorded('Unit tests, "Lint, format (Recommended)"')).toEqual([['Unit tests', 'Lint, format'], null])
    expect(await recorded('"Use \\"strict\\"", E2E', ['Use "strict"', 'E2E', 'Loose'])).toEqual([['Use "strict"', 'E2E'], null])
    // Joined as an older Claude Code did, the labels as they are: split by the known labels, as before.
    expect(await recorded('Lint, format, Unit tests')).toEqual([['Lint, format', 'Unit tests'], null])
    // A label in quotes itself, joined as it is, stays one.
    expect(await recorded('"Fast", Safe', ['"Fast"', 'Safe'])).toEqual([['"Fast"', 'Safe'], null])
    // A label holding a comma with no space after it (`1,000 users`) is not quoted by Claude Code,
    // and is one label: it was stored as the text `1, 000 users, 100, 000 users`, no option chosen.
    const loads = ['1,000 users', '10,000 users', '100,000 users']
    expect(await recorded('1,000 users, 100,000 users', loads)).toEqual([['1,000 users', '100,000 users'], null])
  })

  it('questions that ask for text or a number (kind "text", "number": no options) are left out, the choices of the call recorded', async () => {
    const { call, store } = await createTestApp()
    const REPLICAS = 'How many replicas?'
    const NAME = 'What should the service be called?'
    const payload = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: 'toolu_kinds' }
    for (const where of [payload.tool_input, payload.tool_response]) {
      where.questions[0].kind = 'choice'
      where.questions.splice(1, 0, { question: REPLICAS, header: 'Replicas', kind: 'number', min: 1, max: 9, options: [], multiSelect: false })
      where.questions.push({ question: NAME, header: 'Name', kind: 'text', options: [], multiSelect: false })
      where.answers = { ...where.answers, [REPLICAS]: '3', [NAME]: 'billing' }
    }
    expect(await call('POST', HOOK, payload)).toEqual({ status: 200, body: {} })
    expect((await observationsOf(store)).map((o) => o.chosen)).toEqual(expect.arrayContaining([['TDD'], ['Lint, format', 'Unit tests']]))
    expect(await observationsOf(store)).toHaveLength(2)
    // Only questions of another kind: nothing to record, and nothing refused.
    const only = { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: 'toolu_kinds_only' }
    for (const where of [only.tool_input, only.tool_response]) {
      where.questions = [{ question: NAME, header: 'Name', kind: 'text', options: [], multiSelect: false }]
      where.answers = { [NAME]: 'billing' }
    }
    expect(await call('POST', HOOK, only)).toEqual({ status: 200, body: {} })
    expect(await observationsOf(store)).toHaveLength(2)
    // A choice question refused is named by its place as sent, after the number question before it.
    const blank = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: 'toolu_kinds_blank' }
    for (const where of [blank.tool_input, blank.tool_response]) {
      where.questions.unshift({ question: REPLICAS, header: 'Replicas', kind: 'number', min: 1, max: 9, options: [], multiSelect: false })
    }
    blank.tool_response.questions[2].options[1].label = ' '
    const skipped = await call('POST', HOOK, blank)
    expect(skipped.status).toBe(200)
    expect(skipped.body.systemMessage).toContain('"Which checks should run before the PR?" (tool_response.questions.2.options.1.label: must not be blank)')
    // Refused with no other answer to record: the call is refused, the question named by its place as sent.
    delete blank.tool_response.answers['Which development methodology for this change?']
    delete blank.tool_input.answers['Which development methodology for this change?']
    const refused = await call('POST', HOOK, { ...blank, tool_use_id: 'toolu_kinds_blank_only' })
    expect(refused.status).toBe(400)
    expect(refused.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['tool_response.questions.2.options.1.label'])
    expect(refused.body.error.message).toContain('tool_response.questions.2.options.1.label')
  })

  it('a question whose kind is null is a choice, as one without kind: its answer is recorded', async () => {
    const { call, store } = await createTestApp()
    const payload = { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: 'toolu_kind_null' }
    for (const where of [payload.tool_input, payload.tool_response]) where.questions[0].kind = null
    expect(await call('POST', HOOK, payload)).toEqual({ status: 200, body: {} })
    expect((await observationsOf(store)).map((o) => o.chosen)).toEqual([['Tier M']])
  })

  it('a tool_response of another shape (a string, content blocks) is read as none: the answers come from tool_input.answers', async () => {
    const { call, store } = await createTestApp()
    const text = { ...claudeCodeFixture('post-tool-use-multi'), tool_response: 'User has answered your questions: ...' }
    expect(await call('POST', HOOK, text)).toEqual({ status: 200, body: {} })
    const blocks = { ...claudeCodeFixture('post-tool-use-single'), tool_response: [{ type: 'text', text: 'User has answered' }] }
    expect(await call('POST', HOOK, blocks)).toEqual({ status: 200, body: {} })
    expect((await observationsOf(store)).map((o) => o.chosen)).toEqual(expect.arrayContaining([['TDD'], ['Lint, format', 'Unit tests'], ['Tier M']]))
    expect(await observationsOf(store)).toHaveLength(3)
  })

  it('records labels answering a question that leaves multiSelect out as multi-select, at a point the policy makes single-select too, with the call\'s other answers', async () => {
    const base = await createTestApp()
    const points = base.policy.points.map((p) => (p.key === 'development-methodology' ? { ...p, multi_select: false } : p))
    const { call, store } = await createTestApp({ policy: compilePolicy({ ...base.policy, points }) })
    const METHOD = 'Which development methodology for this change?'
    const CHECKS = 'Which checks should run before the PR?'
    const unsaid = claudeCodeFixture('post-tool-use-multi')
    for (const where of [unsaid.tool_input, unsaid.tool_response]) delete where.questions[0].multiSelect
    unsaid.tool_response.answers = { [METHOD]: ['TDD', 'DDD'], [CHECKS]: ['Unit tests'] }
    expect(await call('POST', HOOK, unsaid)).toEqual({ status: 200, body: {} })
    const stored = await observationsOf(store)
    expect(stored.map((o) => [o.point, o.chosen, o.multi_select]).sort()).toEqual([
      ['development-methodology', ['TDD', 'DDD'], true],
      [hashPointKey(CHECKS, ['Lint, format', 'Unit tests', 'E2E tests']), ['Unit tests'], true],
    ].sort())
  })

  it('takes an array of labels as the chosen ones, and skips an answer that is neither a label nor labels, keeping the others', async () => {
    const { call, store } = await createTestApp()
    const CHECKS = 'Which checks should run before the PR?'
    const METHOD = 'Which development methodology for this change?'
    const payload = claudeCodeFixture('post-tool-use-multi')
    payload.tool_response.answers = { [METHOD]: ['TDD'], [CHECKS]: ['Lint, format', 'E2E tests'] }
    expect(await call('POST', HOOK, payload)).toEqual({ status: 200, body: {} })
    const stored = await observationsOf(store)
    expect(stored.find((o) => o.question === METHOD)?.chosen).toEqual(['TDD'])
    expect(stored.find((o) => o.question === CHECKS)?.chosen).toEqual(['Lint, format', 'E2E tests'])
    expect(stored.find((o) => o.question === CHECKS)?.other).toBeNull()
    // A question that leaves multiSelect out is not taken for a single-select one: its labels count.
    const unsaid = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: 'toolu_unsaid' }
    for (const where of [unsaid.tool_input, unsaid.tool_response]) delete where.questions[1].multiSelect
    unsaid.tool_response.answers = { [METHOD]: 'TDD', [CHECKS]: ['Unit tests', 'E2E tests'] }
    expect(await call('POST', HOOK, unsaid)).toEqual({ status: 200, body: {} })
    const unsaidChecks = (await observationsOf(store)).find((o) => o.decision_id?.startsWith('toolu_unsaid#') && o.question === CHECKS)
    expect(unsaidChecks?.chosen).toEqual(['Unit tests', 'E2E tests'])

    // One odd answer (a number, an object, a label not a string, two labels for a single choice)
    // is skipped; the call's other answer is recorded all the same, as before arrays were read, and
    // the user is told which answer was not recorded and why, its field named as sent.
    let n = 0
    const said: string[] = []
    const recorded = async (answers: Record<string, unknown>, where: 'tool_response' | 'tool_input' = 'tool_response') => {
      const id = `toolu_odd_${n++}`
      const odd = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: id }
      if (where === 'tool_input') odd.tool_response.answers = {}
      odd[where].answers = answers
      const { status, body } = await call('POST', HOOK, odd)
      expect(status).toBe(200)
      expect(Object.keys(body)).toEqual(['systemMessage'])
      expect(body.systemMessage).toMatch(/^decision-memory did not record the answer to a question it could not take, and recorded the call's other answers: /)
      said.push(body.systemMessage.replace(/^[^:]*: /, ''))
      return (await observationsOf(store)).filter((o) => o.decision_id?.startsWith(`${id}#`)).map((o) => [o.question, o.chosen])
    }
    expect(await recorded({ [METHOD]: 1, [CHECKS]: 'Unit tests' })).toEqual([[CHECKS, ['Unit tests']]])
    expect(await recorded({ [METHOD]: 'TDD', [CHECKS]: { label: 'Unit tests' } })).toEqual([[METHOD, ['TDD']]])
    expect(await recorded({ [METHOD]: 'DDD', [CHECKS]: ['Unit tests', 2] })).toEqual([[METHOD, ['DDD']]])
    expect(await recorded({ [METHOD]: 'TDD', [CHECKS]: false }, 'tool_input')).toEqual([[METHOD, ['TDD']]])
    expect(await recorded({ [METHOD]: ['TDD', 'DDD'], [CHECKS]: ['Lint, format'] })).toEqual([[CHECKS, ['Lint, format']]])
    // Commas alone join no label at a multi-select question: skipped, not recorded as a choice of nothing.
    expect(await recorded({ [METHOD]: 'DDD', [CHECKS]: ', ,' })).toEqual([[METHOD, ['DDD']]])
    expect(said).toEqual([
      `"${METHOD}" (tool_response.answers.${METHOD}: a number is no label)`,
      `"${CHECKS}" (tool_response.answers.${CHECKS}: an object is no label)`,
      `"${CHECKS}" (tool_response.answers.${CHECKS}.1: a number is no label)`,
      `"${CHECKS}" (tool_input.answers.${CHECKS}: false is no label)`,
      `"${METHOD}" (tool_response.answers.${METHOD}: 2 labels for a question of one choice)`,
      `"${CHECKS}" (tool_response.answers.${CHECKS}: commas alone join no label)`,
    ])

    // No answer of the call is a choice: nothing recorded, nothing wrong with the call itself (it is
    // not refused, so not kept aside), and the user told all the same.
    const none = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: 'toolu_odd_all' }
    none.tool_response.answers = { [METHOD]: 7, [CHECKS]: ['Unit tests', ' '] }
    expect(await call('POST', HOOK, none)).toEqual({
      status: 200,
      body: {
        systemMessage:
          `decision-memory did not record the answers to 2 questions it could not take: "${METHOD}" (tool_response.answers.${METHOD}: a number is no label); ` +
          `"${CHECKS}" (tool_response.answers.${CHECKS}.1: a blank label)`,
      },
    })
    expect((await observationsOf(store)).filter((o) => o.decision_id?.startsWith('toolu_odd_all#'))).toEqual([])
    // A long question is named by its start, in its field too: what the user is shown stays short.
    const long = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: 'toolu_odd_long' }
    const LONG = `${CHECKS} ${'and why '.repeat(180)}`
    for (const where of [long.tool_input, long.tool_response]) where.questions[1].question = LONG
    long.tool_response.answers = { [METHOD]: 'TDD', [LONG]: 4 }
    long.tool_input.answers = {}
    const longSaid = (await call('POST', HOOK, long)).body.systemMessage
    expect(longSaid).toContain(`"${LONG.slice(0, 199)}…" (tool_response.answers.${LONG.slice(0, 199)}…: a number is no label)`)
    expect(longSaid.length).toBeLessThan(600)
    // An odd answer at a question the user skipped is no loss: nothing said.
    const skipped = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: 'toolu_odd_unanswered' }
    skipped.tool_response.answers = { [METHOD]: 'TDD', [CHECKS]: 3 }
    skipped.tool_response.annotations = { [CHECKS]: { unanswered: 'skipped' } }
    expect(await call('POST', HOOK, skipped)).toEqual({ status: 200, body: {} })
  })

  it("an option's description over the limit costs no answer: a choice is captured by its labels", async () => {
    const { call, store } = await createTestApp()
    const payload = claudeCodeFixture('post-tool-use-multi')
    // Claude Code sets no limit on a description; the agent wrote a long one for E2E tests.
    for (const where of [payload.tool_input, payload.tool_response]) where.questions[1].options[2].description = 'd'.repeat(LIMITS.descriptionLength + 1)
    expect(await call('POST', HOOK, payload)).toEqual({ status: 200, body: {} })
    const stored = await observationsOf(store)
    expect(stored.map((o) => [o.question, o.chosen, o.options])).toEqual(
      expect.arrayContaining([
        ['Which development methodology for this change?', ['TDD'], ['TDD', 'DDD']],
        ['Which checks should run before the PR?', ['Lint, format', 'Unit tests'], ['Lint, format', 'Unit tests', 'E2E tests']],
      ]),
    )
    expect(stored).toHaveLength(2)
  })

  it('a question whose options the service refuses is skipped and said; the call\'s other answers are recorded', async () => {
    const { call, store } = await createTestApp()
    const METHOD = 'Which development methodology for this change?'
    const CHECKS = 'Which checks should run before the PR?'
    const cases: Array<[string, (options: Array<Record<string, unknown>>) => void, string]> = [
      ['two options that are one label', (o) => void (o[2] = { label: 'Unit tests (Recommended)' }), 'tool_response.questions.1.options.2: options 1 and 2 are both "Unit tests"'],
      ['a label over the limit', (o) => void (o[2] = { label: 'x'.repeat(LIMITS.labelLength + 1) }), 'tool_response.questions.1.options.2.label: at most 500 characters once normalised (a trailing " (Recommended)" and the white space at its ends not counted, a run of white space inside counted as one), not 501'],
      ['more options than AskUserQuestion allows', (o) => void o.push({ label: 'A' }, { label: 'B' }), 'tool_response.questions.1.options: at most 4 options, not 5 (a choice question has 2 to 4 options))'],
      ['a blank label', (o) => void (o[2] = { label: ' ' }), 'tool_response.questions.1.options.2.label: must not be blank'],
    ]
    for (const [n, [what, spoil, reason]] of cases.entries()) {
      const id = `toolu_spoilt_${n}`
      const payload = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: id }
      for (const where of [payload.tool_input, payload.tool_response]) spoil(where.questions[1].options)
      const { status, body } = await call('POST', HOOK, payload)
      expect(status, what).toBe(200)
      expect(body.systemMessage, what).toContain(`"${CHECKS}" (${reason}`)
      expect(body.systemMessage, what).toMatch(/^decision-memory did not record the answer to a question it could not take, and recorded the call's other answers: /)
      const stored = (await observationsOf(store)).filter((o) => o.decision_id?.startsWith(`${id}#`))
      expect(stored.map((o) => [o.question, o.chosen]), what).toEqual([[METHOD, ['TDD']]])
    }
    // Sent again (a retry): the answer taken is a duplicate, the question refused said again.
    const again = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: 'toolu_spoilt_0' }
    for (const where of [again.tool_input, again.tool_response]) where.questions[1].options[2] = { label: 'Unit tests (Recommended)' }
    expect((await call('POST', HOOK, again)).body.systemMessage).toContain('options 1 and 2 are both "Unit tests"')
    expect(await observationsOf(store)).toHaveLength(cases.length)
    // A question refused for its length is named by its start.
    const long = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: 'toolu_spoilt_long' }
    const LONG = `${CHECKS} ${'and why '.repeat(300)}`
    for (const where of [long.tool_input, long.tool_response]) {
      where.questions[1].question = LONG
      where.answers = { [METHOD]: 'TDD', [LONG]: 'Unit tests' }
    }
    const said = (await call('POST', HOOK, long)).body.systemMessage
    expect(said).toContain(`"${LONG.slice(0, 199)}…" (tool_response.questions.1.question: at most 2000 characters, not ${[...LONG].length})`)
    expect(said.length).toBeLessThan(500)
    // One refused that the user did not answer costs nothing: the other answer recorded, nothing said.
    const unanswered = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: 'toolu_spoilt_unanswered' }
    for (const where of [unanswered.tool_input, unanswered.tool_response]) {
      where.questions[1].options[2] = { label: ' ' }
      where.answers = { [METHOD]: 'DDD' }
    }
    expect(await call('POST', HOOK, unanswered)).toEqual({ status: 200, body: {} })
    expect((await observationsOf(store)).filter((o) => o.decision_id?.startsWith('toolu_spoilt_unanswered#')).map((o) => o.chosen)).toEqual([['DDD']])
  })

  it('an answer whose free text is over the label limit is skipped and said, as POST /v1/observations refuses it; the call\'s other answers are recorded', async () => {
    const { call, store } = await createTestApp()
    const METHOD = 'Which development methodology for this change?'
    const CHECKS = 'Which checks should run before the PR?'
    const answered = (id: string, answers: Record<string, string>) => {
      const payload = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: id }
      for (const where of [payload.tool_input, payload.tool_response]) where.answers = { [METHOD]: 'TDD', [CHECKS]: 'Unit tests', ...answers }
      return payload
    }
    const OVER = 'x'.repeat(LIMITS.labelLength + 1)
    const AS_SENT = 'x'.repeat(LIMITS.labelSentLength + 1)
    // An `Other` answer of a single-select question; the text beside a label of a multi-select one.
    const single = await call('POST', HOOK, answered('toolu_long_1', { [METHOD]: OVER }))
    expect(single.status).toBe(200)
    expect(single.body.systemMessage).toContain(
      `"${METHOD}" (tool_response.answers.${METHOD}: at most 500 characters once normalised (a trailing " (Recommended)" and the white space at its ends not counted, a run of white space inside counted as one), not 501)`,
    )
    const multi = await call('POST', HOOK, answered('toolu_long_2', { [CHECKS]: `Unit tests, ${AS_SENT}` }))
    expect(multi.body.systemMessage).toContain(`"${CHECKS}" (tool_response.answers.${CHECKS}: at most 1000 characters once the white space at its ends is taken off, not 1001 (and`)
    expect(multi.body.systemMessage).toMatch(/^decision-memory did not record the answer to a question it could not take, and recorded the call's other answers: /)
    const recorded = (id: string) => observationsOf(store).then((all) => all.filter((o) => o.decision_id?.startsWith(`${id}#`)).map((o) => [o.question, o.chosen, o.other]))
    expect(await recorded('toolu_long_1')).toEqual([[CHECKS, ['Unit tests'], null]])
    expect(await recorded('toolu_long_2')).toEqual([[METHOD, ['TDD'], null]])
    // At the limit it is recorded, and the route takes it back as stored (an export re-sent).
    const AT = 'y'.repeat(LIMITS.labelLength)
    expect(await call('POST', HOOK, answered('toolu_long_3', { [METHOD]: AT }))).toEqual({ status: 200, body: {} })
    expect(await recorded('toolu_long_3')).toEqual([[METHOD, [], AT], [CHECKS, ['Unit tests'], null]])
    expect((await call('POST', '/v1/observations', { question: METHOD, all_options: ['TDD', 'DDD'], user_choice: AT })).status).toBe(201)
    expect((await call('POST', '/v1/observations', { question: METHOD, all_options: ['TDD', 'DDD'], user_choice: OVER })).status).toBe(400)
    // A call whose one answer is such: nothing recorded, nothing set aside (200), and said.
    const alone = { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: 'toolu_long_4' }
    for (const where of [alone.tool_input, alone.tool_response]) where.answers = { 'Which complexity tier should this SPEC use?': OVER }
    const lone = await call('POST', HOOK, alone)
    expect(lone.status).toBe(200)
    expect(lone.body.systemMessage).toMatch(/^decision-memory did not record the answer to a question it could not take: "Which complexity tier should this SPEC use\?" \(tool_response\.answers\./)
    expect(await recorded('toolu_long_4')).toEqual([])
  })

  it('a call none of whose questions the service can take is refused as before, its fields named', async () => {
    const { call, store } = await createTestApp()
    const payload = claudeCodeFixture('post-tool-use-multi')
    for (const where of [payload.tool_input, payload.tool_response]) {
      where.questions[0].options[1].label = 'TDD (Recommended)'
      where.questions[1].options[2].label = ' '
    }
    const { status, body } = await call('POST', HOOK, payload)
    expect(status).toBe(400)
    // Each question named: the first's options, two labels that are one, as well as the second's blank label.
    expect(body.error.issues).toEqual([
      { path: 'tool_input.questions.1.options.2.label', message: 'must not be blank' },
      { path: 'tool_response.questions.0.options.1', message: 'duplicate of tool_response.questions.0.options.0 after normalisation' },
    ])
    // One refused beside one that has no answer: nothing to record, refused as before.
    const single = claudeCodeFixture('post-tool-use-multi')
    for (const where of [single.tool_input, single.tool_response]) where.questions[1].options[2].label = 'Unit tests (Recommended)'
    single.tool_response.answers = { 'Which checks should run before the PR?': 'Unit tests' }
    single.tool_input.answers = {}
    const refused = await call('POST', HOOK, single)
    expect(refused.status).toBe(400)
    expect(refused.body.error.code).toBe('duplicate_option')
    expect(refused.body.error.message).toBe('tool_response.questions.1.options.2: options 1 and 2 are both "Unit tests"')
    expect(await observationsOf(store)).toHaveLength(0)
  })

  it('a call refused whole names every question it could not take, an answer over the label limit or no choice beside refused options', async () => {
    // The refusal named the first question whose options it refused alone: the answer beside it,
    // over the label limit (or no choice), went unsaid in the one message a person reads of the
    // call set aside, as did a second question whose options were refused.
    const { call, store } = await createTestApp()
    const METHOD = 'Which development methodology for this change?'
    const CHECKS = 'Which checks should run before the PR?'
    const OVER = 'x'.repeat(1200)
    const refusal = async (answers: Record<string, unknown>, spoil: (questions: Array<{ options: Array<{ label: string }> }>) => void) => {
      const payload = claudeCodeFixture('post-tool-use-multi')
      for (const where of [payload.tool_input, payload.tool_response]) {
        spoil(where.questions)
        where.answers = answers
      }
      const { status, body } = await call('POST', HOOK, payload)
      expect(status).toBe(400)
      return body.error
    }
    const tooLong = 'at most 1000 characters once the white space at its ends is taken off, not 1200 (and at most 500 once normalised: a trailing " (Recommended)" and the white space at its ends not counted, a run of white space inside counted as one)'
    const long = await refusal({ [METHOD]: OVER, [CHECKS]: 'Unit tests' }, (questions) => void (questions[1]!.options[2]!.label = 'Unit tests (Recommended)'))
    expect(long.code).toBe('duplicate_option')
    expect(long.message).toBe(
      'tool_response.questions.1.options.2: options 1 and 2 are both "Unit tests"; ' +
        `nor could it take "${METHOD}" (tool_response.answers.${METHOD}: ${tooLong})`,
    )
    expect(long.issues).toEqual([
      { path: 'tool_response.questions.1.options.2', message: 'duplicate of tool_response.questions.1.options.1 after normalisation' },
      { path: `tool_response.answers.${METHOD}`, message: tooLong },
    ])
    const odd = await refusal({ [METHOD]: 7, [CHECKS]: 'Unit tests' }, (questions) => void (questions[1]!.options[2]!.label = 'Unit tests (Recommended)'))
    expect(odd.message).toBe(`tool_response.questions.1.options.2: options 1 and 2 are both "Unit tests"; nor could it take "${METHOD}" (tool_response.answers.${METHOD}: a number is no label)`)
    // Each issue names its field, and says why without naming it again, as the first one does.
    expect(odd.issues.at(-1)).toEqual({ path: `tool_response.answers.${METHOD}`, message: 'a number is no label' })
    const item = await refusal({ [METHOD]: ['TDD', ' '], [CHECKS]: 'Unit tests' }, (questions) => void (questions[1]!.options[2]!.label = 'Unit tests (Recommended)'))
    expect(item.issues.at(-1)).toEqual({ path: `tool_response.answers.${METHOD}.1`, message: 'a blank label' })
    // Both questions' options refused: each named once.
    const both = await refusal({ [METHOD]: 'TDD', [CHECKS]: 'Unit tests' }, (questions) => {
      questions[0]!.options[1]!.label = 'TDD (Recommended)'
      questions[1]!.options[2]!.label = 'Unit tests (Recommended)'
    })
    expect(both.message).toBe(
      'tool_response.questions.0.options.1: options 0 and 1 are both "TDD"; ' +
        `nor could it take "${CHECKS}" (tool_response.questions.1.options.2: options 1 and 2 are both "Unit tests")`,
    )
    expect(both.issues).toEqual([
      { path: 'tool_response.questions.0.options.1', message: 'duplicate of tool_response.questions.0.options.0 after normalisation' },
      { path: 'tool_response.questions.1.options.2', message: 'duplicate of tool_response.questions.1.options.1 after normalisation' },
    ])
    expect(await observationsOf(store)).toHaveLength(0)
  })

  it('a late delivery (?at=) is timestamped when it happened', async () => {
    const { call, store } = await createTestApp()
    await call('POST', `${HOOK}?at=2026-06-30T08:00:00Z`, claudeCodeFixture('post-tool-use-single'))
    const [only] = await observationsOf(store)
    expect(only?.timestamp).toBe('2026-06-30T08:00:00.000Z')
    expect(only?.recorded_at).toBe(START)
  })

  it('refuses ?at= with a PreToolUse, planned now and never sent late: its answers would be stamped then, planned on now', async () => {
    const { call, store } = await createTestApp()
    const { status, body } = await call('POST', `${HOOK}?at=2026-06-30T08:00:00Z`, claudeCodeFixture('pre-tool-use'))
    expect(status).toBe(400)
    expect(body.error.issues).toEqual([{ path: 'at', message: 'not taken with a PreToolUse: leave it out' }])
    expect(await observationsOf(store)).toHaveLength(0)
    // Without it, the same call is planned.
    expect((await call('POST', HOOK, claudeCodeFixture('pre-tool-use'))).status).toBe(200)
  })

  it('?project= names the project instead of the cwd (the hook command sends its repository), for captures and sessions', async () => {
    const { call, store } = await createTestApp()
    const post = { ...claudeCodeFixture('post-tool-use-single'), cwd: '/home/dev/acme-api/packages/web' }
    expect((await call('POST', `${HOOK}?project=${encodeURIComponent('/home/dev/acme-api')}`, post)).status).toBe(200)
    const start = { hook_event_name: 'SessionStart', session_id: 's-moved', cwd: '/home/dev/acme-api/packages/web' }
    expect((await call('POST', `${HOOK}?project=${encodeURIComponent('/home/dev/acme-api')}`, start)).status).toBe(200)
    expect((await observationsOf(store)).map((o) => o.project)).toEqual(['/home/dev/acme-api'])
    expect((await store.getSession('default', 's-moved'))?.project).toBe('/home/dev/acme-api')
    // Without it, the cwd as before (in a session not started in a folder above it).
    await call('POST', HOOK, { ...post, tool_use_id: 'toolu_other', session_id: 's-other' })
    expect((await observationsOf(store)).map((o) => o.project).sort()).toEqual(['/home/dev/acme-api', '/home/dev/acme-api/packages/web'])
    expect((await call('POST', `${HOOK}?project=`, post)).body.error.issues[0].path).toBe('project')
  })

  it('a decision scoped to a path of the repository applies to the questions asked there (R-CON-4), given ?project=', async () => {
    const { call } = await createTestApp()
    const scoped = { ...REQUIRED_TIER_L, key: 'D-060', scope: { points: ['complexity-tier'], path: 'services/billing' } }
    expect((await call('POST', '/v1/decisions', scoped)).status).toBe(201)
    const project = `?project=${encodeURIComponent('/home/dev/acme-api')}`
    const askedIn = async (cwd: string, query = project) =>
      (await call('POST', `${HOOK}${query}`, { ...claudeCodeFixture('pre-tool-use'), cwd })).body.hookSpecificOutput
    const inBilling = await askedIn('/home/dev/acme-api/services/billing/src')
    expect(inBilling.updatedInput.answers).toEqual({ [TIER_QUESTION]: 'Tier L (Recommended)' })
    expect(inBilling.permissionDecisionReason).toContain('D-060')
    // At the root, in a sibling folder, or with no project named (the path is unknown): not in force.
    for (const elsewhere of [await askedIn('/home/dev/acme-api'), await askedIn('/home/dev/acme-api/services/billing-v2'), await askedIn('/home/dev/acme-api/services/billing', '')]) {
      expect(elsewhere.updatedInput.answers).toBeUndefined()
      expect(elsewhere.permissionDecisionReason).not.toContain('D-060')
    }
  })

  it('plans with the ?path= the hook sends, for a worktree whose project (the main working tree) the cwd is not under', async () => {
    const { call } = await createTestApp()
    const scoped = { ...REQUIRED_TIER_L, key: 'D-061', scope: { points: ['complexity-tier'], path: 'services/billing' } }
    expect((await call('POST', '/v1/decisions', scoped)).status).toBe(201)
    const project = `project=${encodeURIComponent('/home/dev/acme-api')}`
    const pre = { ...claudeCodeFixture('pre-tool-use'), cwd: '/home/dev/acme-api-feature/services/billing' }
    const inBilling = (await call('POST', `${HOOK}?${project}&path=services%2Fbilling`, pre)).body.hookSpecificOutput
    expect(inBilling.updatedInput.answers).toEqual({ [TIER_QUESTION]: 'Tier L (Recommended)' })
    expect(inBilling.permissionDecisionReason).toContain('D-061')
    // Without it, the cwd is in no folder of the project: the path is unknown, the decision not in force.
    const unknown = (await call('POST', `${HOOK}?${project}`, pre)).body.hookSpecificOutput
    expect(unknown.updatedInput.answers).toBeUndefined()
    expect((await call('POST', `${HOOK}?${project}&path=`, pre)).body.error.issues[0].path).toBe('path')
  })

  it('asks a question whose every option a required decision rules out as written, and tells the user and the agent why', async () => {
    const { call } = await createTestApp()
    expect((await call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-070' })).status).toBe(201)
    // The agent offers Tier S and Tier M only; 30 past choices of Tier S would have answered it.
    await call('POST', '/v1/observations', pastChoices(30, 'Tier S', { question: TIER_QUESTION, header: 'Tier', all_options: ['Tier S', 'Tier M'] }))
    const pre = claudeCodeFixture('pre-tool-use')
    const question = pre.tool_input.questions[0]
    pre.tool_input.questions[0] = { ...question, options: question.options.filter((o: { label: string }) => o.label !== 'Tier L') }
    const output = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(output.permissionDecision).toBe('ask')
    expect(output.updatedInput.questions).toEqual(pre.tool_input.questions)
    expect(output.updatedInput.answers).toBeUndefined()
    expect(output.permissionDecisionReason).toContain(`For "${TIER_QUESTION}", every option offered is ruled out by required decision D-070`)
    // The decision's rationale is followed by a sentence of its own, not a second colon.
    expect(output.permissionDecisionReason).toMatch(/only Tier L has\. The agent is told to ask again with an option the decision allows$/)
    expect(output.additionalContext).toContain('ask again with an option the decision allows')
  })

  it('says once that every option is ruled out where required decisions that rule them out contradict each other, and names the pair', async () => {
    const { call, clock } = await createTestApp()
    // Tier S required first; Tier L, not offered, an hour later: the newer rules out every option offered.
    expect((await call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-001', title: 'Small', constraints: [{ kind: 'must', option: 'Tier S' }] })).status).toBe(201)
    clock.advance(3_600_000)
    expect((await call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-002' })).status).toBe(201)
    const pre = claudeCodeFixture('pre-tool-use')
    const question = pre.tool_input.questions[0]
    pre.tool_input.questions[0] = { ...question, options: question.options.filter((o: { label: string }) => o.label !== 'Tier L') }
    const output = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(output.permissionDecision).toBe('ask')
    expect(output.permissionDecisionReason).toBe(
      `decision-memory left the questions it asks as written. For "${TIER_QUESTION}", every option offered is ruled out by required decision D-002: ${REQUIRED_TIER_L.rationale} ` +
        `The agent is told to ask again with an option the decision allows. For "${TIER_QUESTION}", required decisions D-002 and D-001 contradict each other over "Tier S" (the newer, D-002, holds)`,
    )
  })

  it('drops the agent\'s (Recommended) from an option a required decision rules out but that stays in the question', async () => {
    const { call } = await createTestApp()
    expect((await call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-070' })).status).toBe(201)
    const labels = (output: any) => output.updatedInput.questions[0].options.map((o: { label: string }) => o.label)
    // Every option offered is ruled out: the question is asked, but recommends none of them.
    const pre = claudeCodeFixture('pre-tool-use')
    pre.tool_input.questions[0].options = [{ label: 'Tier S' }, { label: 'Tier M (Recommended)' }]
    const all = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(labels(all)).toEqual(['Tier S', 'Tier M'])
    expect(all.permissionDecisionReason).toContain('every option offered is ruled out by required decision D-070')
    // The one option left is recommended; the ruled-out one after it is not, a sensitive question's either.
    expect((await call('POST', `/v1/decisions/D-070/revoke`, {})).status).toBe(200)
    expect((await call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-071', constraints: [{ kind: 'must_not', option: 'Tier S' }] })).status).toBe(201)
    pre.tool_input.questions[0].options = [{ label: 'Tier S (Recommended)' }, { label: 'Tier M' }]
    expect((await call('PUT', `/v1/sessions/${pre.session_id}/personalization`, { enabled: false })).status).toBe(200)
    const off = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(labels(off)).toEqual(['Tier M (Recommended)', 'Tier S'])
    pre.tool_input.questions[0].question = 'Which tier for this security incident?'
    const sensitive = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(labels(sensitive)).toEqual(['Tier S', 'Tier M'])
    expect(sensitive.permissionDecisionReason).toContain('Only Tier M can be chosen')
  })

  it('says a question is ruled out beside one it answered, the command to be asked again last, and with personalization off', async () => {
    const { call } = await createTestApp()
    expect((await call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-071' })).status).toBe(201)
    const method = { question: 'Which development methodology?', header: 'Method', all_options: ['TDD', 'DDD'] }
    await call('POST', '/v1/observations', pastChoices(40, 'TDD', method))
    const pre = claudeCodeFixture('pre-tool-use')
    const tier = pre.tool_input.questions[0]
    pre.tool_input.questions = [
      { ...tier, options: tier.options.filter((o: { label: string }) => o.label !== 'Tier L') },
      { question: method.question, header: method.header, options: method.all_options.map((label) => ({ label, description: label })), multiSelect: false },
    ]
    const output = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(output.updatedInput.answers).toEqual({ [method.question]: 'TDD (Recommended)' })
    expect(output.permissionDecisionReason).toContain('ruled out by required decision D-071')
    expect(output.permissionDecisionReason.endsWith(`toggle --session ${pre.session_id} --user default --off`)).toBe(true)

    // Personalization off turns off what was learned, not the decision: the user and agent are still told.
    expect((await call('PUT', `/v1/sessions/${pre.session_id}/personalization`, { enabled: false })).status).toBe(200)
    pre.tool_use_id = 'toolu_off'
    const off = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(off?.permissionDecision).toBe('ask')
    expect(off.updatedInput.answers).toBeUndefined()
    expect(off.permissionDecisionReason).toContain(`For "${TIER_QUESTION}", every option offered is ruled out by required decision D-071`)
    expect(off.additionalContext).toContain('ask again with an option the decision allows')
  })

  it('names the required decisions that rule options out by key, as the decisions are listed, not newest first', async () => {
    const { call } = await createTestApp()
    for (const key of ['D-001', 'D-002']) {
      const noTierS = { ...REQUIRED_TIER_L, key, title: 'No Tier S', constraints: [{ kind: 'must_not', option: 'Tier S' }] }
      expect((await call('POST', '/v1/decisions', noTierS)).status).toBe(201)
    }
    expect((await call('GET', '/v1/decisions')).body.decisions.map((d: { key: string }) => d.key)).toEqual(['D-001', 'D-002'])
    const pre = claudeCodeFixture('pre-tool-use')
    const taken = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(taken.permissionDecisionReason).toContain('took out Tier S (ruled out by required decisions D-001, D-002)')
    // Kept where one option alone would be left (a sensitive question, which is asked): said of the decisions in the same order.
    pre.tool_input.questions[0] = { ...pre.tool_input.questions[0], question: 'Which tier for this security incident?', options: [{ label: 'Tier S' }, { label: 'Tier M' }] }
    const kept = (await call('POST', HOOK, { ...pre, tool_use_id: 'toolu_kept' })).body.hookSpecificOutput
    expect(kept.permissionDecisionReason).toContain('Only Tier M can be chosen for "Which tier for this security incident?" (required decisions D-001, D-002 rule out Tier S)')
  })

  it('names the required decisions that rule out every option offered by key, each with its rationale, a long one quoted by its start', async () => {
    const { call } = await createTestApp()
    // D-001's rationale is long: quoted by its start, with the command that prints it whole, before D-002's.
    const long = `Small tiers skip the design review. ${'Billing needs it. '.repeat(40)}`.trim()
    const noTierS = { ...REQUIRED_TIER_L, key: 'D-001', title: 'No Tier S', rationale: long, constraints: [{ kind: 'must_not', option: 'Tier S' }] }
    const noTierM = { ...REQUIRED_TIER_L, key: 'D-002', title: 'No Tier M', rationale: 'Tier M is being retired.', constraints: [{ kind: 'must_not', option: 'Tier M' }] }
    for (const d of [noTierS, noTierM]) expect((await call('POST', '/v1/decisions', d)).status).toBe(201)
    const pre = claudeCodeFixture('pre-tool-use')
    const question = pre.tool_input.questions[0]
    pre.tool_input.questions[0] = { ...question, options: question.options.filter((o: { label: string }) => o.label !== 'Tier L') }
    const output = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(output.permissionDecision).toBe('ask')
    const ruledOut =
      `every option offered is ruled out by required decisions D-001: ${long.slice(0, 500)}… (the whole rationale: node ${shellWord(BIN_PATH)} why D-001); ` +
      'D-002: Tier M is being retired'
    expect(output.permissionDecisionReason).toBe(
      `decision-memory left the questions it asks as written. For "${TIER_QUESTION}", ${ruledOut}. The agent is told to ask again with an option the decisions allow`,
    )
    // Two decisions named: an option both allow, not "the decision" as if one.
    expect(output.additionalContext).toBe(`decision-memory: for "${TIER_QUESTION}", ${ruledOut}; ask again with an option the decisions allow`)
  })

  it('takes out the options a required decision rules out, a sensitive question\'s too, and says so', async () => {
    const { call } = await createTestApp()
    const noTierS = { ...REQUIRED_TIER_L, key: 'D-071', title: 'No Tier S', constraints: [{ kind: 'must_not', option: 'Tier S' }] }
    expect((await call('POST', '/v1/decisions', noTierS)).status).toBe(201)
    const labels = (output: any) => output.updatedInput.questions[0].options.map((o: { label: string }) => o.label)
    const plain = (await call('POST', HOOK, claudeCodeFixture('pre-tool-use'))).body.hookSpecificOutput
    expect(labels(plain)).toEqual(['Tier M (Recommended)', 'Tier L'])
    expect(plain.permissionDecisionReason).toContain('and took out Tier S (ruled out by required decision D-071)')
    // A sensitive question leans on no option, but the decision holds: Tier S leaves it, the rest as written.
    const sensitive = claudeCodeFixture('pre-tool-use')
    sensitive.tool_input.questions[0].question = 'Which tier for this security incident?'
    const neutral = (await call('POST', HOOK, sensitive)).body.hookSpecificOutput
    expect(labels(neutral)).toEqual(['Tier M', 'Tier L'])
    expect(neutral.permissionDecisionReason).toBe('decision-memory took out Tier S (ruled out by required decision D-071)')
    expect(neutral.updatedInput.answers).toBeUndefined()
    // Personalization off sets the user's choices aside, not the decision.
    const pre = claudeCodeFixture('pre-tool-use')
    expect((await call('PUT', `/v1/sessions/${pre.session_id}/personalization`, { enabled: false })).status).toBe(200)
    const off = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(labels(off)).toEqual(['Tier M', 'Tier L'])
    expect(off.permissionDecisionReason).toBe('decision-memory took out Tier S (ruled out by required decision D-071)')
  })

  it('a question a required decision leaves one option of keeps two or more, and the reason says which one can be chosen', async () => {
    const { call, store } = await createTestApp()
    const onlyL = { ...REQUIRED_TIER_L, key: 'D-072', title: 'Only Tier L', constraints: [{ kind: 'must_not', option: 'Tier S' }, { kind: 'must_not', option: 'Tier M' }] }
    expect((await call('POST', '/v1/decisions', onlyL)).status).toBe(201)
    const labels = (output: any) => output.updatedInput.questions[0].options.map((o: { label: string }) => o.label)
    // Answered for the user: the question as passed on still has the options AskUserQuestion needs.
    const plain = (await call('POST', HOOK, claudeCodeFixture('pre-tool-use'))).body.hookSpecificOutput
    expect(plain.permissionDecision).toBe('allow')
    expect(labels(plain)).toEqual(['Tier L (Recommended)', 'Tier S', 'Tier M'])
    // updatedInput replaces the whole tool input: the fields it does not know go back as sent.
    const withMetadata = claudeCodeFixture('pre-tool-use')
    withMetadata.tool_input.metadata = { source: 'x' }
    const kept = (await call('POST', HOOK, withMetadata)).body.hookSpecificOutput
    expect(kept.permissionDecision).toBe('allow')
    expect(kept.updatedInput.metadata).toEqual({ source: 'x' })
    // A sensitive question was shown as written with no word of the decision ({}).
    const sensitive = claudeCodeFixture('pre-tool-use')
    sensitive.tool_input.questions[0].question = 'Which tier for this security incident?'
    const neutral = (await call('POST', HOOK, sensitive)).body.hookSpecificOutput
    expect(labels(neutral)).toEqual(TIER_OPTIONS)
    expect(neutral.permissionDecisionReason).toBe(
      'decision-memory left the questions it asks as written. Only Tier L can be chosen for "Which tier for this security incident?" (required decision D-072 rules out Tier S, Tier M)',
    )
    // Personalization off, it is asked: one option alone was a question AskUserQuestion refuses,
    // and its capture afterwards a 400, the user's answer lost.
    const pre = claudeCodeFixture('pre-tool-use')
    expect((await call('PUT', `/v1/sessions/${pre.session_id}/personalization`, { enabled: false })).status).toBe(200)
    const off = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(labels(off)).toEqual(['Tier L (Recommended)', 'Tier S', 'Tier M'])
    expect(off.permissionDecisionReason).toContain(`Only Tier L can be chosen for "${TIER_QUESTION}" (required decision D-072 rules out Tier S, Tier M)`)
    const post = claudeCodeFixture('post-tool-use-single')
    post.tool_input = { questions: off.updatedInput.questions, answers: { [TIER_QUESTION]: 'Tier L (Recommended)' }, annotations: {} }
    post.tool_response = post.tool_input
    expect((await call('POST', HOOK, post)).status).toBe(200)
    const [only] = await observationsOf(store)
    expect(only).toMatchObject({ chosen: ['Tier L'], options: ['Tier L', 'Tier S', 'Tier M'] })
  })

  it('a multi-select question a required decision leaves one option of, none recommended, is not said to have no option allowed', async () => {
    const { call, store } = await createTestApp()
    const CHECKS = 'Which checks should run before the PR?'
    const checks = { question: CHECKS, header: 'Checks', options: ['Lint, format', 'Unit tests', 'E2E tests'].map((label) => ({ label })), multiSelect: true }
    const point = (await call('POST', '/v1/plan', { questions: [checks] })).body.questions[0].recommendation.point
    const noTests = { ...REQUIRED_TIER_L, key: 'D-073', title: 'No tests', scope: { points: [point] }, constraints: [{ kind: 'must_not', option: 'Unit tests' }, { kind: 'must_not', option: 'E2E tests' }] }
    expect((await call('POST', '/v1/decisions', noTests)).status).toBe(201)
    // The user always picked the two tests the decision now rules out: the option left was never chosen.
    await call('POST', '/v1/observations', pastChoices(30, ['Unit tests', 'E2E tests'] as never, { question: CHECKS, header: 'Checks', all_options: checks.options.map((o) => o.label), multi_select: true }))
    const pre = claudeCodeFixture('pre-tool-use')
    pre.tool_input.questions = [checks]
    const output = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(output.permissionDecision).toBe('ask')
    expect(output.updatedInput.answers).toBeUndefined()
    // The label with a comma is quoted, else it reads as two options.
    expect(output.permissionDecisionReason).toContain(`Only "Lint, format" can be chosen for "${CHECKS}" (required decision D-073 rules out Unit tests, E2E tests)`)
    // Lint, format can be chosen: not "every option offered is ruled out", nor the agent told to ask again.
    expect(output.permissionDecisionReason).not.toContain('every option offered is ruled out')
    expect(output.additionalContext ?? '').not.toContain('ask again with an option the decision allows')
    const post = claudeCodeFixture('post-tool-use-single')
    post.tool_use_id = pre.tool_use_id
    post.tool_input = { questions: output.updatedInput.questions, answers: { [CHECKS]: 'Lint, format' } }
    post.tool_response = post.tool_input
    expect((await call('POST', HOOK, post)).status).toBe(200)
    expect((await observationsOf(store)).filter((o) => o.decision_id?.startsWith(`${pre.tool_use_id}#`)).map((o) => o.chosen)).toEqual([['Lint, format']])
  })

  it('a multi-select question a required decision adds an option to says the user\'s own choices are put first beside it', async () => {
    const { call, store } = await createTestApp()
    const CHECKS = 'Which checks should run before the PR?'
    const checks = { question: CHECKS, header: 'Checks', options: ['Lint, format', 'Unit tests', 'E2E tests'].map((label) => ({ label })), multiSelect: true }
    const point = (await call('POST', '/v1/plan', { questions: [checks] })).body.questions[0].recommendation.point
    const e2e = { ...REQUIRED_TIER_L, key: 'D-074', title: 'E2E', scope: { points: [point] }, constraints: [{ kind: 'must', option: 'E2E tests' }] }
    expect((await call('POST', '/v1/decisions', e2e)).status).toBe(201)
    await call('POST', '/v1/observations', pastChoices(30, ['Unit tests'] as never, { question: CHECKS, header: 'Checks', all_options: checks.options.map((o) => o.label), multi_select: true }))
    const pre = claudeCodeFixture('pre-tool-use')
    pre.tool_input.questions = [checks]
    const output = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    // Unit tests, the user's own pick, comes first; E2E tests, which the decision requires, after it.
    expect(output.updatedInput.questions[0].options.map((o: { label: string }) => o.label)).toEqual(['Unit tests (Recommended)', 'E2E tests (Recommended)', 'Lint, format'])
    expect(output.updatedInput.answers).toBeUndefined()
    expect(output.permissionDecisionReason).toBe('decision-memory put first the option you are most likely to pick (or the option required by decision D-074: Billing changes need the design review that only Tier L has)')
    const post = claudeCodeFixture('post-tool-use-single')
    post.tool_use_id = pre.tool_use_id
    post.tool_input = { questions: output.updatedInput.questions, answers: { [CHECKS]: 'Unit tests (Recommended), E2E tests (Recommended)' } }
    post.tool_response = post.tool_input
    expect((await call('POST', HOOK, post)).status).toBe(200)
    expect((await observationsOf(store)).filter((o) => o.decision_id?.startsWith(`${pre.tool_use_id}#`)).map((o) => o.chosen)).toEqual([['Unit tests', 'E2E tests']])
  })

  it('says nothing of the options taken out of a question it answered for the user, which is not shown', async () => {
    const { call } = await createTestApp()
    const noTierS = { ...REQUIRED_TIER_L, key: 'D-072', title: 'No Tier S', constraints: [{ kind: 'must_not', option: 'Tier S' }] }
    expect((await call('POST', '/v1/decisions', noTierS)).status).toBe(201)
    await call('POST', '/v1/observations', pastChoices(30, 'Tier M', { question: TIER_QUESTION, header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }))
    const pre = claudeCodeFixture('pre-tool-use')
    pre.tool_input.questions.push({ question: 'Which development methodology for this change?', header: 'Method', options: [{ label: 'TDD' }, { label: 'DDD' }], multiSelect: false })
    const output = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(output.updatedInput.answers[TIER_QUESTION]).toMatch(/^Tier M/)
    expect(output.permissionDecisionReason).not.toContain('took out')
  })

  it('a malformed AskUserQuestion payload is a 400 naming the field', async () => {
    const { call } = await createTestApp()
    const payload = claudeCodeFixture('post-tool-use-single')
    payload.tool_input.questions[0].options = [{ label: 'Only one' }]
    payload.tool_response.questions[0].options = [{ label: 'Only one' }]
    const { status, body } = await call('POST', HOOK, payload)
    expect(status).toBe(400)
    expect(body.error.issues.map((i: { path: string }) => i.path)).toContain('tool_input.questions.0.options')
    const missingId = claudeCodeFixture('post-tool-use-single')
    delete missingId.tool_use_id
    const second = await call('POST', HOOK, missingId)
    expect(second.status).toBe(400)
    expect(second.body.error.issues[0].path).toBe('tool_use_id')
  })

  it('other tools and events change nothing', async () => {
    const { call, store } = await createTestApp()
    const bash = await call('POST', HOOK, claudeCodeFixture('pre-tool-use-bash'))
    expect(bash).toEqual({ status: 200, body: {} })
    const other = await call('POST', HOOK, { hook_event_name: 'Stop', session_id: 's-9' })
    expect(other).toEqual({ status: 200, body: {} })
    expect(await observationsOf(store)).toHaveLength(0)
  })
})

describe('POST /v1/hooks/claude-code: a field it cannot read but can do without', () => {
  /** session_ids no session can be named by: no string, or a string the routes refuse as a session's name. */
  const UNNAMED = [null, 0, 1.5, false, ['s-1'], { id: 's-1' }, 's'.repeat(LIMITS.identifierLength + 1), 'a\u0000b', '!s', '.', '..', 'x\ud800']

  it('reads a session_id no session can be named by as none: the answers recorded without a session, no session started', async () => {
    const { call, store } = await createTestApp()
    for (const [i, session_id] of UNNAMED.entries()) {
      const start = await call('POST', HOOK, { ...claudeCodeFixture('session-start'), session_id })
      expect(start, JSON.stringify(session_id)).toEqual({ status: 200, body: {} })
      const post = await call('POST', HOOK, { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: `toolu_${i}`, session_id })
      expect(post, JSON.stringify(session_id)).toEqual({ status: 200, body: {} })
    }
    expect(await store.countSessions('default')).toBe(0)
    const observations = await observationsOf(store)
    expect(observations).toHaveLength(UNNAMED.length)
    expect(observations.map((o) => [o.session_id, o.chosen, o.project])).toEqual(UNNAMED.map(() => [null, ['Tier M'], FIXTURE_PROJECT]))
    // One of 200 characters is a session's name, as the routes take it.
    const longest = 's'.repeat(LIMITS.identifierLength)
    expect((await call('POST', HOOK, { ...claudeCodeFixture('session-start'), session_id: longest })).status).toBe(200)
    expect(await store.getSession('default', longest)).toMatchObject({ personalization: true })
  })

  it('says in the OpenAPI document each session_id it reads as none, as it reads them', async () => {
    const { app } = await createTestApp()
    const doc = (await (await app.request('/openapi.json')).json()) as any
    const said: string = doc.components.schemas.ClaudeCodeHookPayload.properties.session_id.description
    // It named the empty, the spaced, the long, a control character and no string: a client read
    // `!s` or `..` as a session's name, and the event was taken without one, unsaid.
    for (const rule of ['`null`', 'empty', 'spaced at its ends', 'over 200 characters', 'a control character', 'a lone surrogate', 'a leading `!`', '`.` or `..`']) {
      expect(said, rule).toContain(rule)
    }
  })

  it('plans a PreToolUse whose session_id is none such, as one without', async () => {
    const { call } = await createTestApp()
    const res = await call('POST', HOOK, { ...claudeCodeFixture('pre-tool-use'), session_id: null })
    expect(res.status).toBe(200)
    expect(res.body.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'ask' })
  })

  it('reads a cwd that is no folder as none (the project ?project= gives, or none), and a tool_name past 200 characters as no tool\'s', async () => {
    const { call, store } = await createTestApp()
    for (const [i, cwd] of [null, 5, '', ['/home/dev/acme-api'], '/'.repeat(4097)].entries()) {
      const post = { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: `toolu_${i}`, cwd }
      expect((await call('POST', HOOK, post)).status, JSON.stringify(cwd)).toBe(200)
    }
    expect((await call('POST', `${HOOK}?project=acme`, { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: 'toolu_p', cwd: 7 })).status).toBe(200)
    const start = await call('POST', HOOK, { ...claudeCodeFixture('session-start'), cwd: null })
    expect(start).toEqual({ status: 200, body: {} })
    expect((await observationsOf(store)).map((o) => o.project ?? null)).toEqual([...Array(5).fill(null), 'acme'])
    expect(await store.getSession('default', claudeCodeFixture('session-start').session_id)).toMatchObject({ personalization: true })
    // No tool's name: no tool the service reads, so nothing to do, as for any other tool.
    expect(await call('POST', HOOK, { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: 'toolu_t', tool_name: 'x'.repeat(201) })).toEqual({ status: 200, body: {} })
    expect(await observationsOf(store)).toHaveLength(6)
    // A field it does not read (transcript_path, permission_mode) is kept as sent, whatever it holds.
    const odd = { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: 'toolu_odd', transcript_path: null, permission_mode: 5 }
    expect(await call('POST', HOOK, odd)).toEqual({ status: 200, body: {} })
    expect(await observationsOf(store)).toHaveLength(7)
  })

  it('takes the project of the event\'s session for a cwd that is no folder: its answers where the user\'s others in that folder are', async () => {
    const { call, store } = await createTestApp()
    // Started in /home/dev/acme-api; then a cwd of null, 5, "": under no project, they were read by
    // no recommendation in that project, which reads its own answers alone once it has 5.
    expect((await call('POST', HOOK, claudeCodeFixture('session-start'))).status).toBe(200)
    for (const [i, cwd] of [null, 5, ''].entries()) {
      expect((await call('POST', HOOK, { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: `toolu_${i}`, cwd })).status).toBe(200)
    }
    // ?project= still wins; no session, or one started in no project, gives none.
    expect((await call('POST', `${HOOK}?project=acme`, { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: 'toolu_p', cwd: null })).status).toBe(200)
    expect((await call('POST', HOOK, { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: 'toolu_n', cwd: null, session_id: null })).status).toBe(200)
    expect((await call('POST', HOOK, { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: 'toolu_o', cwd: null, session_id: 's-other' })).status).toBe(200)
    // Nor is it another user's session of that id.
    expect((await call('POST', `${HOOK}?user=bob`, { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: 'toolu_b', cwd: null })).status).toBe(200)
    expect((await observationsOf(store, 'bob')).map((o) => o.project ?? null)).toEqual([null])
    // No cwd at all is no folder either: the session's project, not none.
    const { cwd: _cwd, ...noCwd } = { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: 'toolu_c' }
    expect((await call('POST', HOOK, noCwd)).status).toBe(200)
    expect((await observationsOf(store)).map((o) => o.project ?? null)).toEqual([...Array(3).fill(FIXTURE_PROJECT), 'acme', null, null, FIXTURE_PROJECT])
    // A PreToolUse is planned in that project too, with the answers recorded there.
    expect((await call('POST', HOOK, { ...claudeCodeFixture('pre-tool-use'), cwd: null })).body.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse' })
  })

  it('outside a repository, takes the project of the session for a cwd in its folder or below it, as a repository\'s root keeps it', async () => {
    const { call, store } = await createTestApp()
    // A folder kept out of git: the hook sends no ?project=, and Claude Code's cwd follows the
    // agent's cd. The session's questions in projC/docs were recorded and planned as another project.
    const projC = '/home/dev/projC'
    const method = { question: 'Which development methodology?', header: 'Method', all_options: ['TDD', 'DDD'] }
    await call('POST', '/v1/observations', pastChoices(40, 'DDD', { ...method, project: projC }))
    await call('POST', '/v1/observations', pastChoices(60, 'TDD', { ...method, project: '/home/dev/other' }).map((o, i) => ({ ...o, decision_id: `other-${i}` })))
    const start = claudeCodeFixture('session-start')
    expect((await call('POST', HOOK, { ...start, cwd: projC })).status).toBe(200)
    const pre = claudeCodeFixture('pre-tool-use')
    pre.tool_input.questions = [{ question: method.question, header: method.header, options: method.all_options.map((label) => ({ label, description: label })), multiSelect: false }]
    for (const [i, cwd] of [projC, `${projC}/docs`, `${projC}/docs/api/`].entries()) {
      const output = (await call('POST', HOOK, { ...pre, tool_use_id: `toolu_pre_${i}`, cwd })).body.hookSpecificOutput
      expect(output.updatedInput.answers, cwd).toEqual({ [method.question]: 'DDD (Recommended)' })
    }
    // Its answers there are recorded in the session's project, not in a project of the subfolder.
    const post = { ...claudeCodeFixture('post-tool-use-single'), session_id: start.session_id }
    expect((await call('POST', HOOK, { ...post, tool_use_id: 'toolu_docs', cwd: `${projC}/docs` })).status).toBe(200)
    // A cwd outside it keeps its own: another folder, one whose name starts alike, one above it.
    for (const cwd of ['/home/dev/elsewhere', `${projC}-v2`, '/home/dev']) {
      expect((await call('POST', HOOK, { ...post, tool_use_id: `toolu_${cwd}`, cwd })).status).toBe(200)
    }
    // ?project= still wins (a repository inside the folder is a project of its own), as does no session.
    expect((await call('POST', `${HOOK}?project=${encodeURIComponent(`${projC}/vendor/lib`)}`, { ...post, tool_use_id: 'toolu_repo', cwd: `${projC}/vendor/lib/src` })).status).toBe(200)
    expect((await call('POST', HOOK, { ...post, tool_use_id: 'toolu_none', cwd: `${projC}/docs`, session_id: null })).status).toBe(200)
    // Nor is it another user's session of that id.
    expect((await call('POST', `${HOOK}?user=bob`, { ...post, tool_use_id: 'toolu_bob', cwd: `${projC}/docs` })).status).toBe(200)
    const stored = await observationsOf(store)
    // What the PreToolUse answered for the user is recorded where it was planned.
    expect(new Set(stored.filter((o) => o.decision_id?.startsWith('toolu_pre_')).map((o) => o.project))).toEqual(new Set([projC]))
    const recorded = stored.filter((o) => o.decision_id?.startsWith('toolu_') && !o.decision_id.startsWith('toolu_pre_')).map((o) => o.project ?? null)
    expect(recorded).toEqual([projC, '/home/dev/elsewhere', `${projC}-v2`, '/home/dev', `${projC}/vendor/lib`, `${projC}/docs`])
    expect((await observationsOf(store, 'bob')).map((o) => o.project ?? null)).toEqual([`${projC}/docs`])
    // A resume in a subfolder keeps the session as it was started.
    expect((await call('POST', HOOK, { ...start, source: 'resume', cwd: `${projC}/docs` })).status).toBe(200)
    expect(await store.getSession('default', start.session_id)).toMatchObject({ project: projC })
  })

  it('outside a repository, a cwd that climbs out of the session\'s folder by .. is not of its project', async () => {
    const { call, store } = await createTestApp()
    const start = claudeCodeFixture('session-start')
    expect((await call('POST', HOOK, { ...start, cwd: '/home/dev/projC' })).status).toBe(200)
    expect((await call('POST', HOOK, { ...start, session_id: 's-win', cwd: 'C:\\proj' })).status).toBe(200)
    const post = { ...claudeCodeFixture('post-tool-use-single'), session_id: start.session_id }
    // Read by whole segments, `/home/dev/projC/../other` was of projC: it is `/home/dev/other`.
    const cwds = ['/home/dev/projC/../other', '/home/dev/projC/docs/../../other', '/home/dev/projC/./docs', '/home/dev/projC/docs/..']
    for (const [i, cwd] of cwds.entries()) expect((await call('POST', HOOK, { ...post, tool_use_id: `toolu_${i}`, cwd })).status).toBe(200)
    expect((await call('POST', HOOK, { ...post, session_id: 's-win', tool_use_id: 'toolu_win', cwd: 'C:\\proj\\..\\other' })).status).toBe(200)
    expect((await observationsOf(store)).map((o) => o.project ?? null)).toEqual([...cwds.slice(0, 2), '/home/dev/projC', '/home/dev/projC', 'C:\\proj\\..\\other'])
  })

  it('outside a repository, a SessionStart delivered late from the spool, after an answer started its session below, gives the session its folder', async () => {
    const { call, store } = await createTestApp()
    // The service was down at the start: the SessionStart in projC waits in the spool, and the next
    // call, out of time for the drain, sends the answer asked in projC/docs first, which starts the session.
    const projC = '/home/dev/projC'
    const start = claudeCodeFixture('session-start')
    const post = { ...claudeCodeFixture('post-tool-use-single'), session_id: start.session_id }
    expect((await call('POST', HOOK, { ...post, tool_use_id: 'toolu_first', cwd: `${projC}/docs` })).status).toBe(200)
    expect((await call('POST', `${HOOK}?at=2026-07-01T09:00:00Z`, { ...start, cwd: projC })).status).toBe(200)
    // Its next answers in projC and below are of projC, as they would have been had it come in time.
    for (const cwd of [projC, `${projC}/docs`]) expect((await call('POST', HOOK, { ...post, tool_use_id: `toolu_${cwd}`, cwd })).status).toBe(200)
    expect(await store.getSession('default', start.session_id)).toMatchObject({ project: projC, started_at: '2026-07-01T09:00:00.000Z' })
    expect((await observationsOf(store)).map((o) => o.project ?? null)).toEqual([`${projC}/docs`, projC, projC])
  })

  it('outside a repository, a Windows cwd is in its session\'s folder whatever the case of its letters, as Windows finds folders', async () => {
    const { call, store } = await createTestApp()
    // A shell started at `c:\\proj`, a cd in Git Bash reported as `C:\\Proj\\docs`: one folder on Windows.
    const start = claudeCodeFixture('session-start')
    expect((await call('POST', HOOK, { ...start, cwd: 'c:\\proj' })).status).toBe(200)
    const post = { ...claudeCodeFixture('post-tool-use-single'), session_id: start.session_id }
    for (const [i, cwd] of ['C:\\Proj\\docs', 'c:/PROJ', 'C:\\proj-v2', 'D:\\proj\\docs'].entries()) {
      expect((await call('POST', HOOK, { ...post, tool_use_id: `toolu_${i}`, cwd })).status).toBe(200)
    }
    expect((await observationsOf(store)).map((o) => o.project ?? null)).toEqual(['c:\\proj', 'c:\\proj', 'C:\\proj-v2', 'D:\\proj\\docs'])
  })

  it('outside a repository, a session started in the home folder is no project its subfolders share', async () => {
    const { call, store } = await createTestApp()
    // Claude Code started in ~, then in ~/notes and ~/scratch: unrelated folders, not one project of ~.
    vi.stubEnv('HOME', '/home/dev/')
    const start = claudeCodeFixture('session-start')
    expect((await call('POST', HOOK, { ...start, cwd: '/home/dev' })).status).toBe(200)
    const post = { ...claudeCodeFixture('post-tool-use-single'), session_id: start.session_id }
    for (const [i, cwd] of ['/home/dev/notes', '/home/dev/scratch/x', '/home/dev'].entries()) {
      expect((await call('POST', HOOK, { ...post, tool_use_id: `toolu_${i}`, cwd })).status).toBe(200)
    }
    expect((await observationsOf(store)).map((o) => o.project ?? null)).toEqual(['/home/dev/notes', '/home/dev/scratch/x', '/home/dev'])
    vi.unstubAllEnvs()
  })

  it('outside a repository, a home reached through a symbolic link is the home the hook sends, the folder it leads to', async () => {
    const { call, store } = await createTestApp()
    // HOME=/home/dev, a link to /data/dev (an NFS home, /home a link on FreeBSD): Claude Code's cwd,
    // and the hook's, is the folder it leads to, as the MCP server's home is (workingProjectOf).
    const dir = tempDir('dm-hooks-home-')
    mkdirSync(join(dir, 'real-home'))
    symlinkSync(join(dir, 'real-home'), join(dir, 'home'))
    const real = realpathSync(join(dir, 'real-home'))
    onTestFinished(() => {
        vi.unstubAllEnvs()
      })
    vi.stubEnv('HOME', join(dir, 'home'))
    const start = claudeCodeFixture('session-start')
    expect((await call('POST', HOOK, { ...start, cwd: real })).status).toBe(200)
    const post = { ...claudeCodeFixture('post-tool-use-single'), session_id: start.session_id }
    for (const [i, cwd] of [`${real}/notes`, `${real}/scratch`].entries()) {
      expect((await call('POST', HOOK, { ...post, tool_use_id: `toolu_${i}`, cwd })).status).toBe(200)
    }
    expect((await observationsOf(store)).map((o) => o.project ?? null)).toEqual([`${real}/notes`, `${real}/scratch`])
  })

  it('outside a repository, with HOME set empty or relative the home is the account\'s, as the MCP server takes it', async () => {
    // `HOME=` in a unit file or a wrapper: the MCP server's tools take no project in the account's
    // home (homeFolder), and the hooks keep no subfolder of a session started there either.
    const home = userInfo().homedir
    for (const value of ['', 'relative/home']) {
      const { call, store } = await createTestApp()
      onTestFinished(() => {
        vi.unstubAllEnvs()
      })
      vi.stubEnv('HOME', value)
      const start = claudeCodeFixture('session-start')
      expect((await call('POST', HOOK, { ...start, cwd: home })).status).toBe(200)
      const post = { ...claudeCodeFixture('post-tool-use-single'), session_id: start.session_id }
      expect((await call('POST', HOOK, { ...post, cwd: `${home}/notes` })).status).toBe(200)
      expect((await observationsOf(store)).map((o) => o.project ?? null)).toEqual([`${home}/notes`])
    }
  })

  it('outside a repository, a session started in the root folder is no project its subfolders share', async () => {
    const { call, store } = await createTestApp()
    const start = claudeCodeFixture('session-start')
    expect((await call('POST', HOOK, { ...start, cwd: '/' })).status).toBe(200)
    const post = { ...claudeCodeFixture('post-tool-use-single'), session_id: start.session_id }
    for (const cwd of ['/', '/srv/notes']) expect((await call('POST', HOOK, { ...post, tool_use_id: `toolu_${cwd}`, cwd })).status).toBe(200)
    // Nor is a drive's on Windows.
    expect((await call('POST', HOOK, { ...start, session_id: 's-win', cwd: 'C:\\' })).status).toBe(200)
    expect((await call('POST', HOOK, { ...post, session_id: 's-win', tool_use_id: 'toolu_win', cwd: 'C:\\Users\\dev\\notes' })).status).toBe(200)
    expect((await observationsOf(store)).map((o) => o.project ?? null)).toEqual(['/', '/srv/notes', 'C:\\Users\\dev\\notes'])
  })

  it('refuses a PreToolUse or PostToolUse whose tool_name is not a string, naming it: an AskUserQuestion\'s answers are not dropped unsaid', async () => {
    const { call, store } = await createTestApp()
    // Read as no tool's, the answers below were answered {} and recorded nowhere, nothing to say so.
    for (const tool_name of [null, 5, ['AskUserQuestion'], { name: 'AskUserQuestion' }]) {
      for (const fixture of ['post-tool-use-single', 'pre-tool-use'] as const) {
        const res = await call('POST', HOOK, { ...claudeCodeFixture(fixture), tool_name })
        expect(res.status, `${fixture} ${JSON.stringify(tool_name)}`).toBe(400)
        const event = claudeCodeFixture(fixture).hook_event_name
        expect(res.body.error.issues).toEqual([{ path: 'tool_name', message: `must be a string at a ${event}: the tool the event is of` }])
      }
      // At another event it is not read, and the event is taken.
      expect(await call('POST', HOOK, { ...claudeCodeFixture('session-start'), tool_name })).toEqual({ status: 200, body: {} })
    }
    // Left out, it is no more told: answered {} and recorded nowhere, as null was.
    for (const fixture of ['post-tool-use-single', 'pre-tool-use'] as const) {
      const { tool_name: _tool, ...none } = claudeCodeFixture(fixture)
      const res = await call('POST', HOOK, none)
      expect(res.status, fixture).toBe(400)
      expect(res.body.error.issues).toEqual([{ path: 'tool_name', message: `must be a string at a ${none.hook_event_name}: the tool the event is of` }])
    }
    expect(await observationsOf(store)).toEqual([])
    expect(await store.countSessions('default')).toBe(1)
  })

  it('still refuses, naming it, what it cannot do without: the event, the tool_use_id of an AskUserQuestion, its questions', async () => {
    const { call } = await createTestApp()
    const { hook_event_name: _event, ...noEvent } = claudeCodeFixture('post-tool-use-single')
    for (const [payload, field] of [
      [noEvent, 'hook_event_name'],
      [{ ...claudeCodeFixture('post-tool-use-single'), hook_event_name: 5 }, 'hook_event_name'],
      [{ ...claudeCodeFixture('post-tool-use-single'), tool_use_id: 5, session_id: null }, 'tool_use_id'],
      [{ ...claudeCodeFixture('pre-tool-use'), tool_input: { questions: 'Which tier?' }, session_id: 0 }, 'tool_input.questions'],
    ] as const) {
      const res = await call('POST', HOOK, payload)
      expect(res.status, field).toBe(400)
      expect(res.body.error.issues.map((i: { path: string }) => i.path)).toContain(field)
    }
  })

  it('refuses a session_id or cwd nested past the body\'s limit, naming it, as any field of the body: the hook sends none such', async () => {
    const { call } = await createTestApp()
    const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`
    for (const field of ['session_id', 'cwd', 'tool_name']) {
      const over = await call('POST', HOOK, `{"hook_event_name": "SessionStart", "${field}": ${nested(LIMITS.nesting)}}`)
      expect(over.status, field).toBe(400)
      expect(over.body.error.issues).toEqual([{ path: field, message: `must not nest arrays and objects more than ${LIMITS.nesting} levels deep (counted from the body)` }])
      // Within it, read as none.
      expect(await call('POST', HOOK, `{"hook_event_name": "SessionStart", "${field}": ${nested(LIMITS.nesting - 1)}}`), field).toEqual({ status: 200, body: {} })
    }
  })

  it('takes a session_id spaced or invisible at its ends that names a session the user has stored, its toggle off applied, and reads any other as none', async () => {
    const { call, memory, store } = await createTestApp()
    await call('POST', '/v1/observations', pastChoices(40, 'Tier L', TIER))
    // Stored as a version before writes refused such ids took them, and turned off as the toggle still can.
    for (const session_id of [' s-off', 's-off\u200b']) {
      await memory.startSession({ user: 'default', session_id, project: FIXTURE_PROJECT })
      expect((await call('PUT', `/v1/sessions/${encodeURIComponent(session_id)}/personalization`, { enabled: false })).body.personalization).toBe(false)
    }
    const pre = claudeCodeFixture('pre-tool-use') as Record<string, unknown>
    for (const [i, session_id] of [' s-off', 's-off\u200b'].entries()) {
      // Off in that session: nothing answered for the user, as for any session turned off.
      expect(await call('POST', HOOK, { ...pre, session_id, tool_use_id: `toolu_pre_${i}` }), JSON.stringify(session_id)).toEqual({ status: 200, body: {} })
      expect((await call('POST', HOOK, { ...claudeCodeFixture('session-start'), session_id })).status).toBe(200)
      const post = await call('POST', HOOK, { ...claudeCodeFixture('post-tool-use-single'), session_id, tool_use_id: `toolu_post_${i}` })
      expect(post.status).toBe(200)
    }
    // The same ids spaced otherwise, or another user's: no session of the user, read as none.
    const other = await call('POST', HOOK, { ...pre, session_id: 's-off ', tool_use_id: 'toolu_pre_other' })
    expect(other.body.hookSpecificOutput.permissionDecision).toBe('allow')
    const elsewhere = await call('POST', `${HOOK}?user=bob`, { ...claudeCodeFixture('post-tool-use-single'), session_id: ' s-off', tool_use_id: 'toolu_bob' })
    expect(elsewhere.status).toBe(200)
    const captured = (await observationsOf(store)).filter((o) => o.decision_id?.startsWith('toolu_post_'))
    expect(captured.map((o) => o.session_id).sort()).toEqual([' s-off', 's-off\u200b'])
    expect((await observationsOf(store, 'bob')).map((o) => o.session_id)).toEqual([null])
    expect(await store.countSessions('bob')).toBe(0)
    // Started again by SessionStart, each is still the one session, still off.
    expect(await store.countSessions('default')).toBe(2)
    for (const session_id of [' s-off', 's-off\u200b']) expect((await store.getSession('default', session_id))?.personalization).toBe(false)
  })
})

describe('POST /v1/hooks/claude-code: SessionStart (R-SES-1)', () => {
  it('starts the session with cwd as project, once', async () => {
    const { call, store } = await createTestApp()
    const payload = claudeCodeFixture('session-start')
    expect((await call('POST', HOOK, payload)).body).toEqual({})
    await call('POST', HOOK, payload)
    const session = await store.getSession('default', payload.session_id)
    expect(session?.project).toBe('/home/dev/acme-api')
    expect(session?.personalization).toBe(true)
    expect(await store.countSessions('default')).toBe(1)
  })

  it('a resume or a compact of a session keeps it as it was: counted once, personalization as toggled', async () => {
    const { call, store } = await createTestApp()
    const payload = claudeCodeFixture('session-start')
    await call('POST', HOOK, payload)
    await call('PUT', `/v1/sessions/${payload.session_id}/personalization`, { enabled: false })
    for (const source of ['resume', 'compact']) {
      const again = { ...payload, source, permission_mode: 'plan', model: 'claude-opus-4', prompt_id: 'p-1', effort: { level: 'high' } }
      expect((await call('POST', HOOK, again)).body).toEqual({})
    }
    expect(await store.getSession('default', payload.session_id)).toMatchObject({ personalization: false })
    expect(await store.countSessions('default')).toBe(1)
    // After /clear Claude Code gives a new session id: a new session, personalization on.
    await call('POST', HOOK, { ...payload, source: 'clear', session_id: 'after-clear' })
    expect(await store.getSession('default', 'after-clear')).toMatchObject({ personalization: true })
    expect(await store.countSessions('default')).toBe(2)
    // A fork (Claude Code 2.1.214 says `fork`, not `resume`) goes on under a session id of its own: taken alike.
    expect((await call('POST', HOOK, { ...payload, source: 'fork', session_id: 'forked' })).body).toEqual({})
    expect(await store.getSession('default', 'forked')).toMatchObject({ personalization: true })
    expect(await store.countSessions('default')).toBe(3)
  })
})

describe('POST /v1/hooks/claude-code: PreToolUse on AskUserQuestion (R-ASK-4)', () => {
  it('with few observations: labelled, re-ordered options, the user still asked, no answers', async () => {
    const { call } = await createTestApp()
    const payload = claudeCodeFixture('pre-tool-use')
    const { status, body } = await call('POST', HOOK, payload)
    expect(status).toBe(200)
    const output = body.hookSpecificOutput
    expect(output.hookEventName).toBe('PreToolUse')
    expect(output.permissionDecision).toBe('ask')
    expect(output.updatedInput.answers).toBeUndefined()
    const [question] = output.updatedInput.questions
    expect(question.options.map((o: { label: string }) => o.label)).toEqual(['Tier M (Recommended)', 'Tier S', 'Tier L'])
    expect(question.options[0].description).toMatch(/^Medium: plan, run, sync with one review\. Recommended when .* — based on static default/)
    expect(question.options[1].description).toBe('Small: single pass, no plan document')
    expect(question.question).toBe(payload.tool_input.questions[0].question)
    expect(question.header).toBe('Tier')
    expect(question.multiSelect).toBe(false)
    // Nothing of the user's is behind that order yet: the reason says so, and claims no likelihood.
    expect(output.permissionDecisionReason).toContain('put first the usual default (there is not yet enough history of your choices here)')
    expect(output.permissionDecisionReason).not.toContain('most likely')
  })

  it("names the advisory decision whose option it put first, not the usual default it replaced", async () => {
    const { call } = await createTestApp()
    const advisory = { title: 'Tier L for billing', decision: 'Use Tier L', rationale: 'audits', status: 'accepted', scope: { points: ['complexity-tier'] } }
    expect((await call('POST', '/v1/decisions', { ...advisory, key: 'D-001', constraints: [{ kind: 'prefer', option: 'Tier L' }] })).status).toBe(201)
    const output = (await call('POST', HOOK, claudeCodeFixture('pre-tool-use'))).body.hookSpecificOutput
    expect(output.updatedInput.questions[0].options[0].label).toBe('Tier L (Recommended)')
    expect(output.permissionDecisionReason).toBe('decision-memory put first the default advisory decision D-001 gives (there is not yet enough history of your choices here)')
  })

  it('names the advisory decisions whose options it put first by key, as the decisions are listed', async () => {
    const { call } = await createTestApp()
    const advisory = { title: 'Preferred', decision: 'Use it', rationale: 'audits', status: 'accepted' }
    expect((await call('POST', '/v1/decisions', { ...advisory, key: 'D-001', scope: { points: ['complexity-tier'] }, constraints: [{ kind: 'prefer', option: 'Tier L' }] })).status).toBe(201)
    expect((await call('POST', '/v1/decisions', { ...advisory, key: 'D-002', scope: { points: ['complexity-tier'] }, constraints: [{ kind: 'prefer', option: 'Tier L' }] })).status).toBe(201)
    expect((await call('GET', '/v1/decisions')).body.decisions.map((d: { key: string }) => d.key)).toEqual(['D-001', 'D-002'])
    const payload = claudeCodeFixture('pre-tool-use')
    const output = (await call('POST', HOOK, payload)).body.hookSpecificOutput
    expect(output.permissionDecisionReason).toBe('decision-memory put first the default advisory decisions D-001, D-002 give (there is not yet enough history of your choices here)')
    // Across questions too: each at its own point, newer first in the plan's answer.
    expect((await call('POST', '/v1/decisions', { ...advisory, key: 'D-003', scope: { points: ['development-methodology'] }, constraints: [{ kind: 'prefer', option: 'DDD' }] })).status).toBe(201)
    const two = { ...payload, tool_input: { ...payload.tool_input, questions: [...payload.tool_input.questions, METHOD_QUESTION] } }
    const both = (await call('POST', HOOK, two)).body.hookSpecificOutput
    expect(both.permissionDecisionReason).toContain('the default advisory decisions D-001, D-002, D-003 give')
  })

  it('questions planned already (plan_questions, passed to AskUserQuestion) come back with the rationale once, none left on an option no longer recommended', async () => {
    const { call } = await createTestApp()
    // The agent asked through the MCP tool's plan first: Tier M, the usual default, carries the rationale.
    const pre = claudeCodeFixture('pre-tool-use')
    const first = (await call('POST', HOOK, pre)).body.hookSpecificOutput.updatedInput
    const planned = { ...pre, tool_use_id: 'toolu_planned_twice', tool_input: first }
    expect(first.questions[0].options[0].description.match(/Recommended when /g)).toHaveLength(1)
    // Planned again, it is already as it would be shown: nothing to change, no rationale said twice.
    expect((await call('POST', HOOK, planned)).body).toEqual({})
    // The user's choices have moved the recommendation to Tier L since: Tier M keeps what it means, no stale rationale.
    await call('POST', '/v1/observations', pastChoices(8, 'Tier L', TIER))
    const moved = (await call('POST', HOOK, { ...planned, tool_use_id: 'toolu_planned_moved' })).body.hookSpecificOutput.updatedInput
    const options = moved.questions[0].options as Array<{ label: string; description: string }>
    expect(options[0]?.label).toBe('Tier L (Recommended)')
    expect(options[0]?.description).toMatch(/^Large: full plan with design review\. Recommended when [^]* — based on \d+% of recent choices/)
    expect(options[0]?.description.match(/Recommended when /g)).toHaveLength(1)
    expect(options.find((o) => o.label === 'Tier M')?.description).toBe('Medium: plan, run, sync with one review.')
  })

  it('an option whose description was a rationale alone keeps a blank one, which AskUserQuestion requires, no longer recommended or with personalization off', async () => {
    const { call } = await createTestApp()
    // Planned before with a blank description: the rationale alone (a plan_questions answer passed on).
    const pre = claudeCodeFixture('pre-tool-use')
    pre.tool_input.questions[0].options[1].description = ''
    const first = (await call('POST', HOOK, pre)).body.hookSpecificOutput.updatedInput
    expect(first.questions[0].options[0].description).toMatch(/^Recommended when /)
    const planned = { ...pre, tool_input: first }
    // Tier L recommended since: Tier M's rationale goes, its description stays, blank.
    await call('POST', '/v1/observations', pastChoices(8, 'Tier L', TIER))
    const moved = (await call('POST', HOOK, { ...planned, tool_use_id: 'toolu_blank_moved' })).body.hookSpecificOutput.updatedInput
    const options = moved.questions[0].options as Array<{ label: string; description?: string }>
    expect(options[0]?.label).toBe('Tier L (Recommended)')
    expect(options.find((o) => o.label === 'Tier M')).toEqual({ label: 'Tier M', description: '' })
    // Sensitive, so neutral: the question as written, the stale rationale taken out, the description kept.
    const SECURITY = 'Which security review should this SPEC get?'
    const sensitive = {
      ...planned,
      tool_use_id: 'toolu_blank_neutral',
      tool_input: { questions: [{ ...first.questions[0], question: SECURITY, header: 'Security' }] },
    }
    const neutral = (await call('POST', HOOK, sensitive)).body.hookSpecificOutput.updatedInput
    for (const option of neutral.questions[0].options as Array<{ description?: string }>) expect(typeof option.description).toBe('string')
    expect(neutral.questions[0].options[0]).toEqual({ label: 'Tier M (Recommended)', description: '' })
  })

  it('with choices only of options not offered now: the usual default, said so, claiming no likelihood', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/observations', pastChoices(6, 'Tier XL', { ...TIER, all_options: ['Tier XL', 'Tier XXL'] }))
    const { body } = await call('POST', HOOK, claudeCodeFixture('pre-tool-use'))
    const output = body.hookSpecificOutput
    expect(output.permissionDecision).toBe('ask')
    expect(output.updatedInput.questions[0].options[0].label).toBe('Tier M (Recommended)')
    expect(output.updatedInput.questions[0].options[0].description).toContain('based on static default, none of the 6 choices at this point was one of these options')
    expect(output.permissionDecisionReason).toBe('decision-memory put first the usual default (you have not yet chosen any of the options offered here)')
    // Beside a question the user's choices order, each is said where it holds.
    const DB = { question: 'Which database should this service use?', header: 'Database', all_options: ['Postgres', 'MySQL'] }
    await call('POST', '/v1/observations', pastChoices(6, 'MySQL', DB).map((o, i) => ({ ...o, decision_id: `db-${i}` })))
    const pre = claudeCodeFixture('pre-tool-use')
    const dbQuestion = { question: DB.question, header: DB.header, options: [{ label: 'Postgres' }, { label: 'MySQL' }], multiSelect: false }
    const both = await call('POST', HOOK, { ...pre, tool_input: { questions: [...pre.tool_input.questions, dbQuestion] } })
    expect(both.body.hookSpecificOutput.permissionDecisionReason).toBe(
      'decision-memory put first the option you are most likely to pick (the usual default where you have not yet chosen any of the options offered)',
    )
  })

  it('says of a multi-select question what it put first: the options of the set, or nothing where no option reaches half (R-REC-8)', async () => {
    const CHECKS = {
      question: 'Which checks should run before the PR?',
      header: 'Checks',
      options: [
        { label: 'Lint', description: 'eslint' },
        { label: 'Unit tests', description: 'vitest' },
        { label: 'E2E tests', description: 'playwright' },
      ],
      multiSelect: true,
    }
    /** The PreToolUse of the fixture's tier question (40 choices of Tier L: answered for the user) and the checks, after `choices` of sets. */
    const asked = async (choices: Array<[string[], number]>) => {
      const { call } = await createTestApp()
      const observations = choices.flatMap(([set, n], k) =>
        Array.from({ length: n }, (_, i) => ({ project: FIXTURE_PROJECT, question: CHECKS.question, all_options: CHECKS.options, multi_select: true, user_choice: set, decision_id: `c-${k}-${i}`, timestamp: START })),
      )
      expect((await call('POST', '/v1/observations', [...pastChoices(40, 'Tier L', TIER), ...observations])).status).toBe(201)
      const pre = claudeCodeFixture('pre-tool-use')
      return (await call('POST', HOOK, { ...pre, tool_input: { questions: [...pre.tool_input.questions, CHECKS] } })).body.hookSpecificOutput
    }
    const set = await asked([[['Lint', 'Unit tests'], 6], [['E2E tests'], 2]])
    expect(set.updatedInput.questions.map((q: { question: string }) => q.question)).toEqual([CHECKS.question])
    expect(set.updatedInput.questions[0].options.map((o: { label: string }) => o.label)).toEqual(['Lint (Recommended)', 'Unit tests (Recommended)', 'E2E tests'])
    expect(set.permissionDecisionReason).toMatch(/^decision-memory put first the options you are most likely to pick\. It answered for you: /)
    // Each chosen a third of the time: none recommended, the options shown as written, and said so.
    const none = await asked([[['Lint'], 3], [['Unit tests'], 3], [['E2E tests'], 3]])
    expect(none.updatedInput.questions).toEqual([CHECKS])
    expect(none.permissionDecisionReason).toMatch(/^decision-memory left the questions it asks as written\. It answered for you: /)
  })

  it('after 40 consistent choices it answers for the user, and that answer never counts as theirs', async () => {
    const { call, store } = await createTestApp()
    await call('POST', '/v1/observations', pastChoices(40, 'Tier L', TIER))
    const pre = claudeCodeFixture('pre-tool-use')
    const { body } = await call('POST', HOOK, pre)
    const output = body.hookSpecificOutput
    expect(output.permissionDecision).toBe('allow')
    expect(output.updatedInput.answers).toEqual({ [TIER_QUESTION]: 'Tier L (Recommended)' })
    expect(output.updatedInput.questions[0].options[0].label).toBe('Tier L (Recommended)')
    // How to be asked again, as a command that runs as printed: this checkout's bin by path.
    expect(output.permissionDecisionReason).toMatch(/To be asked again in this session: (.*)$/)
    expect(output.permissionDecisionReason.endsWith(`: node ${shellWord(BIN_PATH)} toggle --session ${pre.session_id} --user default --off`)).toBe(true)
    const rec = await call('POST', '/v1/recommendations', TIER)
    expect(rec.body.state).toBe('sufficient')
    expect(rec.body.p).toBeGreaterThanOrEqual(0.9)

    // The answer is kept as auto-resolved; the PostToolUse copy of it is a duplicate.
    const auto = (await observationsOf(store)).filter((o) => o.source === 'auto-resolved')
    expect(auto).toHaveLength(1)
    expect(auto[0]?.chosen).toEqual(['Tier L'])
    const post = {
      ...pre,
      hook_event_name: 'PostToolUse',
      tool_input: output.updatedInput,
      tool_response: { questions: output.updatedInput.questions, answers: output.updatedInput.answers },
    }
    await call('POST', HOOK, post)
    const all = await observationsOf(store)
    expect(all).toHaveLength(41)
    expect(all.filter((o) => o.source === 'user')).toHaveLength(40)
    expect((await call('POST', '/v1/recommendations', TIER)).body.observations).toBe(40)
  })

  it('asks in a project with no choice of its own at the point, however sure the other projects are, then answers once they agree (R-ASK-2)', async () => {
    const { call, clock } = await createTestApp()
    await call('POST', '/v1/observations', pastChoices(40, 'Tier L', { ...TIER, project: 'other/repo' }))
    const pre = claudeCodeFixture('pre-tool-use')
    const first = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(first.permissionDecision).toBe('ask')
    expect(first.updatedInput.answers).toBeUndefined()
    // Still recommended, from the other projects.
    expect(first.updatedInput.questions[0].options[0].label).toBe('Tier L (Recommended)')
    const plan = (await call('POST', '/v1/plan', { project: FIXTURE_PROJECT, questions: [pre.tool_input.questions[0]] })).body
    expect(plan.questions[0].recommendation).toMatchObject({
      scope: 'all-projects',
      ask: true,
      ask_reason: 'no choice of yours at this point in this project yet: the recommendation rests on your other projects',
    })
    // The user picks Tier L here too: the next question is answered for them.
    clock.advance(60_000)
    await call('POST', '/v1/observations', { ...TIER, project: FIXTURE_PROJECT, user_choice: 'Tier L', decision_id: 'here-1' })
    clock.advance(60_000)
    expect((await call('POST', HOOK, { ...pre, tool_use_id: 'toolu_next' })).body.hookSpecificOutput.permissionDecision).toBe('allow')
  })

  it('answers a multi-select question as Claude Code joins labels, quoting one that holds ", ", and records the labels themselves', async () => {
    const { call, store } = await createTestApp()
    const CHECKS_QUESTION = 'Which checks should run before the PR?'
    const options = ['Lint, format', 'Unit tests', 'E2E tests']
    const past = Array.from({ length: 40 }, (_, i) => ({
      question: CHECKS_QUESTION, header: 'Checks', all_options: options, multi_select: true, user_choice: ['Lint, format', 'Unit tests'], decision_id: `checks-${i}`, timestamp: START, project: FIXTURE_PROJECT,
    }))
    expect((await call('POST', '/v1/observations', past)).status).toBe(201)
    const pre = claudeCodeFixture('pre-tool-use')
    const question = { question: CHECKS_QUESTION, header: 'Checks', options: options.map((label) => ({ label, description: '' })), multiSelect: true }
    const output = (await call('POST', HOOK, { ...pre, tool_input: { questions: [question] } })).body.hookSpecificOutput
    expect(output.permissionDecision).toBe('allow')
    expect(output.updatedInput.answers).toEqual({ [CHECKS_QUESTION]: '"Lint, format (Recommended)", Unit tests (Recommended)' })
    // The reason names each label chosen in quotes of its own, not the joined string set in quotes
    // (`""Lint, format (Recommended)", Unit tests (Recommended)"`), which tells no label from another.
    expect(output.permissionDecisionReason).toContain(`"${CHECKS_QUESTION}" = "Lint, format (Recommended)", "Unit tests (Recommended)" (from your past choices: 40 choices`)
    const auto = (await observationsOf(store)).filter((o) => o.source === 'auto-resolved')
    expect(auto.map((o) => [o.chosen, o.other])).toEqual([[['Lint, format', 'Unit tests'], null]])
  })

  it('says a question asked to check in, after answers it gave for the user, is a check-in', async () => {
    const { call, clock } = await createTestApp()
    await call('POST', '/v1/observations', pastChoices(40, 'Tier L', TIER))
    const pre = claudeCodeFixture('pre-tool-use')
    for (let i = 0; i < 9; i++) {
      clock.advance(60_000)
      const answered = (await call('POST', HOOK, { ...pre, tool_use_id: `toolu_auto_${i}` })).body.hookSpecificOutput
      expect(answered.permissionDecision).toBe('allow')
    }
    clock.advance(60_000)
    const body = (await call('POST', HOOK, { ...pre, tool_use_id: 'toolu_check_in' })).body
    const asked = body.hookSpecificOutput
    expect(asked.permissionDecision).toBe('ask')
    expect(asked.permissionDecisionReason).toBe(
      `decision-memory put first the option you are most likely to pick. It asks "${TIER_QUESTION}" to check in with you, after 9 answers it gave for you`,
    )
    // Claude Code shows an `ask`'s reason at most on its review screen, which one single-select question skips: the user, answered for 9 times, learns why they are asked from the systemMessage.
    expect(body.systemMessage).toBe(`decision-memory asks "${TIER_QUESTION}" to check in with you, after 9 answers it gave for you`)
  })

  it('says a check-in after one answer it gave in the singular (ask.check_in_after 1)', async () => {
    const base = await loadPolicy(DEFAULT_POLICY_FILE)
    const { call, clock } = await createTestApp({ policy: compilePolicy({ ...base, ask: { ...base.ask, check_in_after: 1 } }) })
    await call('POST', '/v1/observations', pastChoices(40, 'Tier L', TIER))
    const pre = claudeCodeFixture('pre-tool-use')
    clock.advance(60_000)
    expect((await call('POST', HOOK, { ...pre, tool_use_id: 'toolu_auto_0' })).body.hookSpecificOutput.permissionDecision).toBe('allow')
    clock.advance(60_000)
    const body = (await call('POST', HOOK, { ...pre, tool_use_id: 'toolu_check_in' })).body
    expect(body.hookSpecificOutput.permissionDecision).toBe('ask')
    expect(body.systemMessage).toBe(`decision-memory asks "${TIER_QUESTION}" to check in with you, after 1 answer it gave for you`)
    const { body: rec } = await call('POST', '/v1/recommendations', { ...TIER, project: pre.cwd })
    expect(rec.ask_reason).toBe('1 answer in a row was auto-resolved: checking in with the user')
  })

  it('says a check-in beside answers it gave, in the systemMessage, with the command to be asked again last', async () => {
    const { call, clock } = await createTestApp()
    const METHOD_QUESTION = 'Which development methodology for this change?'
    const METHOD = { question: METHOD_QUESTION, header: 'Method', all_options: ['TDD', 'DDD'] }
    await call('POST', '/v1/observations', pastChoices(40, 'Tier L', TIER))
    const pre = claudeCodeFixture('pre-tool-use')
    for (let i = 0; i < 9; i++) {
      clock.advance(60_000)
      expect((await call('POST', HOOK, { ...pre, tool_use_id: `toolu_auto_${i}` })).body.hookSpecificOutput.permissionDecision).toBe('allow')
    }
    await call('POST', '/v1/observations', pastChoices(40, 'TDD', METHOD).map((o, i) => ({ ...o, decision_id: `method-${i}` })))
    clock.advance(60_000)
    const method = { question: METHOD_QUESTION, header: 'Method', options: [{ label: 'TDD', description: '' }, { label: 'DDD', description: '' }], multiSelect: false }
    const body = (await call('POST', HOOK, { ...pre, tool_use_id: 'toolu_mixed', tool_input: { questions: [...pre.tool_input.questions, method] } })).body
    expect(body.hookSpecificOutput.permissionDecision).toBe('ask')
    expect(body.systemMessage.startsWith(`decision-memory asks "${TIER_QUESTION}" to check in with you, after 9 answers it gave for you. It answered for you: "${METHOD_QUESTION}" = "TDD (Recommended)" (`)).toBe(true)
    expect(body.systemMessage).toMatch(/\. To be asked again in this session: node \S+ toggle --session \S+ --user default --off$/)
  })

  it.each([
    ['left out', undefined],
    ['null', null],
    ['spaced at its ends', ' s-1 '],
  ])('says no toggle command where the session_id is %s: no session can be turned off for that event', async (_, session_id) => {
    const { call } = await createTestApp()
    await call('POST', '/v1/observations', pastChoices(40, 'Tier L', TIER))
    const METHOD_QUESTION = 'Which development methodology for this change?'
    const method = { question: METHOD_QUESTION, header: 'Method', options: [{ label: 'TDD', description: '' }, { label: 'DDD', description: '' }], multiSelect: false }
    const pre = { ...claudeCodeFixture('pre-tool-use'), session_id }
    const cannot = 'Personalization cannot be turned off for this session: the event named no session id decision-memory could read'
    // Every question answered (an allow), then one of two (an ask): each text that told the command says why there is none.
    const allowed = (await call('POST', HOOK, { ...pre, tool_use_id: 'toolu_all' })).body
    expect(allowed.hookSpecificOutput.permissionDecision).toBe('allow')
    const asked = (await call('POST', HOOK, { ...pre, tool_use_id: 'toolu_some', tool_input: { questions: [...pre.tool_input.questions, method] } })).body
    expect(asked.hookSpecificOutput.permissionDecision).toBe('ask')
    for (const text of [allowed.systemMessage, allowed.hookSpecificOutput.permissionDecisionReason, asked.systemMessage, asked.hookSpecificOutput.permissionDecisionReason]) {
      expect(text).toMatch(/^decision-memory .*answered for you: "Which complexity tier should this SPEC use\?" = "Tier L \(Recommended\)"/)
      expect(text.endsWith(`. ${cannot}`), text).toBe(true)
      expect(text).not.toContain('toggle')
    }
  })

  it('its own answer, mirrored in tool_input.answers alone, stays a duplicate: never counted as the user’s', async () => {
    const { call, store } = await createTestApp()
    await call('POST', '/v1/observations', pastChoices(40, 'Tier L', TIER))
    const pre = claudeCodeFixture('pre-tool-use')
    const output = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(output.updatedInput.answers).toEqual({ [TIER_QUESTION]: 'Tier L (Recommended)' })
    const post = { ...pre, hook_event_name: 'PostToolUse', tool_input: output.updatedInput, tool_response: { questions: output.updatedInput.questions, answers: {} } }
    expect((await call('POST', HOOK, post)).status).toBe(200)
    const all = await observationsOf(store)
    expect(all).toHaveLength(41)
    expect(all.filter((o) => o.source === 'auto-resolved')).toHaveLength(1)
    expect((await call('POST', '/v1/recommendations', TIER)).body.observations).toBe(40)
  })

  it('keeps an answer tool_input.answers holds already (the agent, another hook): not replaced, nor recorded as its own', async () => {
    const { call, store } = await createTestApp()
    const METHOD_QUESTION = 'Which development methodology for this change?'
    const METHOD = { question: METHOD_QUESTION, header: 'Method', all_options: ['TDD', 'DDD'] }
    await call('POST', '/v1/observations', pastChoices(40, 'Tier L', TIER))
    await call('POST', '/v1/observations', pastChoices(40, 'TDD', METHOD).map((o, i) => ({ ...o, decision_id: `method-${i}` })))
    const pre = claudeCodeFixture('pre-tool-use')
    const questions = [...pre.tool_input.questions, { question: METHOD_QUESTION, header: 'Method', options: [{ label: 'TDD', description: '' }, { label: 'DDD', description: '' }], multiSelect: false }]
    const given = { ...pre, tool_use_id: 'toolu_given', tool_input: { questions, answers: { [TIER_QUESTION]: 'Tier S' } } }
    const { body } = await call('POST', HOOK, given)
    const output = body.hookSpecificOutput
    expect(output.permissionDecision).toBe('allow')
    expect(output.updatedInput.answers).toEqual({ [TIER_QUESTION]: 'Tier S', [METHOD_QUESTION]: 'TDD (Recommended)' })
    expect(output.permissionDecisionReason).toContain(METHOD_QUESTION)
    expect(output.permissionDecisionReason).not.toContain(TIER_QUESTION)
    const auto = (await observationsOf(store)).filter((o) => o.source === 'auto-resolved')
    expect(auto.map((o) => o.question)).toEqual([METHOD_QUESTION])

    // Every question answered already: nothing to change, nothing recorded.
    const all = { ...pre, tool_use_id: 'toolu_all_given', tool_input: { ...pre.tool_input, answers: { [TIER_QUESTION]: 'Tier M' } } }
    expect((await call('POST', HOOK, all)).body).toEqual({})
    expect((await observationsOf(store)).filter((o) => o.source === 'auto-resolved')).toHaveLength(1)
  })

  it('answers a question whose answer in tool_input.answers is blank, as it does one with none: the blank does not win', async () => {
    const { call, store } = await createTestApp()
    await call('POST', '/v1/observations', pastChoices(40, 'Tier L', TIER))
    const pre = claudeCodeFixture('pre-tool-use')
    const blank = { ...pre, tool_use_id: 'toolu_blank', tool_input: { ...pre.tool_input, answers: { [TIER_QUESTION]: '  ' } } }
    const output = (await call('POST', HOOK, blank)).body.hookSpecificOutput
    expect(output.permissionDecision).toBe('allow')
    // What the reason says it answered, and recorded as auto-resolved, is the answer the tool gets.
    expect(output.updatedInput.answers).toEqual({ [TIER_QUESTION]: 'Tier L (Recommended)' })
    expect((await observationsOf(store)).filter((o) => o.source === 'auto-resolved').map((o) => o.chosen)).toEqual([['Tier L']])
  })

  it('names the user in the command to be asked again, the default one too: toggle reads $DECISION_MEMORY_USER, the shell\'s', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/observations', pastChoices(40, 'Tier L', { ...TIER, user: 'alice' }))
    const pre = claudeCodeFixture('pre-tool-use')
    const { body } = await call('POST', `${HOOK}?user=alice`, pre)
    expect(body.hookSpecificOutput.permissionDecision).toBe('allow')
    expect(body.hookSpecificOutput.permissionDecisionReason.endsWith(`toggle --session ${pre.session_id} --user alice --off`)).toBe(true)
    // An allow's reason goes to Claude Code's debug log only: the user reads it as the systemMessage.
    expect(body.systemMessage).toBe(body.hookSpecificOutput.permissionDecisionReason)
    // A user (or session id) starting with '-' goes as --user=-x: parseArgs refuses '--user -x'.
    await call('POST', '/v1/observations', pastChoices(40, 'Tier L', { ...TIER, user: '-x' }))
    const dashed = await call('POST', `${HOOK}?user=-x`, { ...pre, session_id: '-s1' })
    const printed = dashed.body.hookSpecificOutput.permissionDecisionReason as string
    expect(printed.endsWith(`toggle --session=-s1 --user=-x --off`)).toBe(true)
    const args = printed.slice(printed.indexOf(' toggle ') + ' toggle '.length).split(' ')
    expect(parseArgs({ args, options: { session: { type: 'string' }, user: { type: 'string' }, off: { type: 'boolean' } } }).values).toEqual({
      session: '-s1',
      user: '-x',
      off: true,
    })
  })

  it('names the service’s address in the command to be asked again when it is not the default one (?service_url=)', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/observations', pastChoices(40, 'Tier L', TIER))
    const pre = claudeCodeFixture('pre-tool-use')
    const reasonAt = async (query: string, toolUseId: string) => {
      const { status, body } = await call('POST', `${HOOK}${query}`, { ...pre, tool_use_id: toolUseId })
      expect(status, query).toBe(200)
      return body.hookSpecificOutput.permissionDecisionReason as string
    }
    const command = `node ${shellWord(BIN_PATH)} toggle --session ${pre.session_id} --user default --off`
    const other = await reasonAt(`?service_url=${encodeURIComponent('http://127.0.0.1:7421')}`, 'toolu_url_1')
    expect(other.endsWith(`To be asked again in this session: DECISION_MEMORY_URL=http://127.0.0.1:7421 ${command}`)).toBe(true)
    // Its origin alone: no path, no credentials; quoted for the shell where it needs it.
    const remote = await reasonAt(`?service_url=${encodeURIComponent('https://me:secret@dm.example.com/x?y')}`, 'toolu_url_2')
    expect(remote.endsWith(`: DECISION_MEMORY_URL=https://dm.example.com ${command}`)).toBe(true)
    // The default address (as a new shell has it), or none given: the command alone.
    expect((await reasonAt(`?service_url=${encodeURIComponent('http://127.0.0.1:7420/')}`, 'toolu_url_3')).endsWith(`: ${command}`)).toBe(true)
    expect((await reasonAt('', 'toolu_url_4')).endsWith(`: ${command}`)).toBe(true)
    const bad = await call('POST', `${HOOK}?service_url=ftp://x`, pre)
    expect(bad.status).toBe(400)
    expect(bad.body.error.issues.map((i: any) => i.path)).toEqual(['service_url'])
  })

  it('says ?service_url= is an http(s) URL, in its refusal and in the OpenAPI document, which refuses what the route refuses', async () => {
    const { app, call } = await createTestApp()
    const pre = claudeCodeFixture('pre-tool-use')
    const doc = (await (await app.request('/openapi.json')).json()) as any
    const param = doc.paths['/v1/hooks/claude-code'].post.parameters.find((p: any) => p.name === 'service_url')
    const documented = (url: string) => new RegExp(param.schema.pattern, 'u').test(url)
    // A URL of another scheme is a URL: `format: uri` alone let a client send it, and "Invalid URL" said it was none.
    for (const url of ['file:///run/dm.sock', 'urn:decision-memory', 'ftp://x']) {
      const { status, body } = await call('POST', `${HOOK}?service_url=${encodeURIComponent(url)}`, pre)
      expect(status, url).toBe(400)
      expect(body.error.issues, url).toEqual([{ path: 'service_url', message: 'an http:// or https:// URL' }])
      expect(documented(url), url).toBe(false)
    }
    for (const url of ['http://127.0.0.1:7421', 'HTTPS://dm.example.com/x']) {
      expect((await call('POST', `${HOOK}?service_url=${encodeURIComponent(url)}`, pre)).status, url).toBe(200)
      expect(documented(url), url).toBe(true)
    }
  })

  it('says an http(s) URL over 2,048 characters is too long, not that it is no http(s) URL', async () => {
    const { call } = await createTestApp()
    const pre = claudeCodeFixture('pre-tool-use')
    const url = `http://127.0.0.1:7421/${'a'.repeat(2027)}`
    const { status, body } = await call('POST', `${HOOK}?service_url=${encodeURIComponent(url)}`, pre)
    expect(status).toBe(400)
    expect(body.error.issues).toEqual([{ path: 'service_url', message: 'at most 2048 characters, not 2049' }])
    expect((await call('POST', `${HOOK}?service_url=${encodeURIComponent(url.slice(0, -1))}`, pre)).status).toBe(200)
  })

  it('the OpenAPI document says where Claude Code shows an ask\'s reason, as its hooks reference and 2.1.332 have it', async () => {
    const { app } = await createTestApp()
    const doc = (await (await app.request('/openapi.json')).json()) as any
    const said: string = doc.components.schemas.ClaudeCodeHookAnswer.properties.systemMessage.description
    // The hooks reference shows an `ask`'s reason to the user, and 2.1.332 did on its picker's review
    // screen (scenario 8-tty-multi-asked): "shows no ask's reason" sent a client author the wrong way.
    expect(said).not.toMatch(/shows no `ask`'s reason/)
    expect(said).toContain("shows an `ask`'s at most on its picker's review screen")
  })

  it('a question whose options the service refuses is left as written, in its place, and said; the call\'s other questions are planned', async () => {
    const { call, store } = await createTestApp()
    const CHECKS = 'Which checks should run before the PR?'
    const checks = () => ({ question: CHECKS, header: 'Checks', options: [{ label: 'Lint' }, { label: 'Unit tests' }, { label: 'E2E' }], multiSelect: true })
    const cases: Array<[string, (options: Array<Record<string, unknown>>) => void, string]> = [
      ['two options that are one label', (o) => void (o[2] = { label: 'Unit tests (Recommended)' }), 'tool_input.questions.1.options.2: options 1 and 2 are both "Unit tests"'],
      ['a label over the limit', (o) => void (o[2] = { label: 'x'.repeat(LIMITS.labelLength + 1) }), 'tool_input.questions.1.options.2.label: at most 500 characters once normalised (a trailing " (Recommended)" and the white space at its ends not counted, a run of white space inside counted as one), not 501'],
      ['more options than AskUserQuestion allows', (o) => void o.push({ label: 'A' }, { label: 'B' }), 'tool_input.questions.1.options: at most 4 options, not 5 (a choice question has 2 to 4 options))'],
      ['a blank label', (o) => void (o[2] = { label: ' ' }), 'tool_input.questions.1.options.2.label: must not be blank'],
      ['a description over the limit', (o) => void (o[2] = { label: 'E2E', description: 'd'.repeat(LIMITS.descriptionLength + 1) }), 'tool_input.questions.1.options.2.description: at most 2000 characters, not 2001)'],
    ]
    for (const [n, [what, spoil, reason]] of cases.entries()) {
      const spoilt = checks()
      spoil(spoilt.options)
      const payload = claudeCodeFixture('pre-tool-use')
      payload.tool_use_id = `toolu_pre_spoilt_${n}`
      payload.tool_input.questions.push(structuredClone(spoilt))
      const { status, body } = await call('POST', HOOK, payload)
      expect(status, what).toBe(200)
      const output = body.hookSpecificOutput
      expect(output.permissionDecision, what).toBe('ask')
      // The tier planned as usual, the refused question exactly as the agent wrote it, in its place.
      expect(output.updatedInput.questions[0].options.map((o: { label: string }) => o.label), what).toEqual(['Tier M (Recommended)', 'Tier S', 'Tier L'])
      expect(output.updatedInput.questions[1], what).toEqual(spoilt)
      expect(output.updatedInput.questions, what).toHaveLength(2)
      expect(output.permissionDecisionReason, what).toContain(`put first the usual default (there is not yet enough history of your choices here). It left as written a question it could not take: "${CHECKS}" (${reason}`)
    }
    // Refused first, before the tier: named by its place as sent, and kept there.
    const first = claudeCodeFixture('pre-tool-use')
    first.tool_use_id = 'toolu_pre_spoilt_first'
    const twice = { ...checks(), options: [{ label: 'Lint' }, { label: 'Lint (Recommended)' }] }
    first.tool_input.questions.unshift(twice)
    const firstOut = (await call('POST', HOOK, first)).body.hookSpecificOutput
    expect(firstOut.updatedInput.questions[0]).toEqual(twice)
    expect(firstOut.updatedInput.questions[1].options[0].label).toBe('Tier M (Recommended)')
    expect(firstOut.permissionDecisionReason).toContain(`"${CHECKS}" (tool_input.questions.0.options.1: options 0 and 1 are both "Lint")`)

    // One without a text, or a blank one, is named by its place, as README shows it.
    for (const [n, [text, reason]] of ([[' ', 'must not be blank'], [undefined, 'missing: expected string']] as const).entries()) {
      const blank = claudeCodeFixture('pre-tool-use')
      blank.tool_use_id = `toolu_pre_spoilt_blank_${n}`
      const nameless = { ...checks(), question: text }
      blank.tool_input.questions.push(nameless)
      const blankOut = (await call('POST', HOOK, blank)).body.hookSpecificOutput
      expect(blankOut.updatedInput.questions[1]).toEqual(JSON.parse(JSON.stringify(nameless)))
      expect(blankOut.permissionDecisionReason).toMatch(
        new RegExp(`\\. It left as written a question it could not take: question 2 \\(tool_input\\.questions\\.1\\.question: ${reason}\\)$`),
      )
    }

    // Beside questions it plans as they are already (planned once, passed again): nothing of them
    // changes, no permission decision nor input, but the refused one is said, as where it is alone
    // (`{}` said nothing of why their memory did not help with it).
    const planned = (await call('POST', HOOK, { ...claudeCodeFixture('pre-tool-use'), tool_use_id: 'toolu_pre_spoilt_planned' })).body.hookSpecificOutput.updatedInput
    expect(planned.answers).toBeUndefined()
    const unchanged = { ...claudeCodeFixture('pre-tool-use'), tool_use_id: 'toolu_pre_spoilt_unchanged', tool_input: { questions: [...planned.questions, twice] } }
    const unchangedSaid = `decision-memory left as written a question it could not take: "${CHECKS}" (tool_input.questions.1.options.1: options 0 and 1 are both "Lint")`
    expect(await call('POST', HOOK, unchanged)).toEqual({ status: 200, body: { systemMessage: unchangedSaid } })
    // So with personalization off, where the others are left as written; none refused, nothing printed.
    const off = { ...claudeCodeFixture('pre-tool-use'), session_id: 'sess-spoilt-off', tool_use_id: 'toolu_pre_spoilt_off' }
    await call('POST', HOOK, { ...claudeCodeFixture('session-start'), session_id: off.session_id })
    expect((await call('PUT', `/v1/sessions/${off.session_id}/personalization`, { enabled: false })).status).toBe(200)
    expect((await call('POST', HOOK, off)).body).toEqual({})
    off.tool_input.questions.push(twice)
    expect((await call('POST', HOOK, off)).body).toEqual({ systemMessage: unchangedSaid })

    // The tier answered for the user: the refused question is still asked, never answered for them.
    await call('POST', '/v1/observations', pastChoices(40, 'Tier L', TIER))
    const answered = claudeCodeFixture('pre-tool-use')
    answered.tool_use_id = 'toolu_pre_spoilt_answered'
    answered.tool_input.questions.push(twice)
    const asked = (await call('POST', HOOK, answered)).body
    expect(asked.hookSpecificOutput.permissionDecision).toBe('ask')
    expect(asked.hookSpecificOutput.updatedInput.questions).toEqual([twice])
    expect(asked.hookSpecificOutput.updatedInput.answers).toEqual({ [TIER_QUESTION]: 'Tier L (Recommended)' })
    expect(asked.hookSpecificOutput.permissionDecisionReason).toMatch(
      /^decision-memory left as written a question it could not take: "Which checks should run before the PR\?" \(tool_input\.questions\.1\.options\.1: options 0 and 1 are both "Lint"\)\. It answered for you: "Which complexity tier/,
    )
    expect(asked.systemMessage).toMatch(/^decision-memory answered for you: "Which complexity tier/)
    const auto = (await observationsOf(store)).filter((o) => o.decision_id?.startsWith('toolu_pre_spoilt_answered'))
    expect(auto.map((o) => [o.source, o.question])).toEqual([['auto-resolved', TIER_QUESTION]])
    // The tier answered already in tool_input.answers (the agent, another hook): nothing of its own
    // to give, but the refused question is said still, as beside questions planned as they are.
    const given = { ...claudeCodeFixture('pre-tool-use'), tool_use_id: 'toolu_pre_spoilt_given' }
    given.tool_input.questions.push(twice)
    given.tool_input = { ...given.tool_input, answers: { [TIER_QUESTION]: 'Tier S' } }
    expect(await call('POST', HOOK, given)).toEqual({ status: 200, body: { systemMessage: unchangedSaid } })
    expect((await observationsOf(store)).filter((o) => o.decision_id?.startsWith('toolu_pre_spoilt_given'))).toEqual([])

    // Refused beside a question of one text with it after normalisation: the answer it gave keeps
    // the decision_id its PostToolUse copy carries, so that copy stays a duplicate, never the user's.
    const SAME = 'which complexity tier should this SPEC use.'
    const near = { ...claudeCodeFixture('pre-tool-use'), tool_use_id: 'toolu_pre_spoilt_near' }
    near.tool_input.questions.push({ ...twice, question: SAME })
    const nearOut = (await call('POST', HOOK, near)).body.hookSpecificOutput
    expect(nearOut.updatedInput.answers).toEqual({ [TIER_QUESTION]: 'Tier L (Recommended)' })
    const nearPost = {
      ...near,
      hook_event_name: 'PostToolUse',
      tool_input: { questions: nearOut.updatedInput.questions, answers: nearOut.updatedInput.answers },
      tool_response: { questions: [...near.tool_input.questions], answers: { [TIER_QUESTION]: 'Tier L (Recommended)', [SAME]: 'Lint' } },
    }
    expect((await call('POST', HOOK, nearPost)).status).toBe(200)
    const nearStored = (await observationsOf(store)).filter((o) => o.decision_id?.startsWith('toolu_pre_spoilt_near'))
    expect(nearStored.map((o) => o.source)).toEqual(['auto-resolved'])

    // No question it can plan (refused alone, or beside a text question): the call goes on as
    // written, no permission decision nor input of its own, but said to the user, as a question
    // refused beside others it plans is (`{}` said nothing of why their memory did not help).
    const alone = { ...claudeCodeFixture('pre-tool-use'), tool_use_id: 'toolu_pre_spoilt_alone' }
    alone.tool_input.questions = [twice]
    const leftSaid = (place: number) => `"${CHECKS}" (tool_input.questions.${place}.options.1: options 0 and 1 are both "Lint")`
    expect(await call('POST', HOOK, alone)).toEqual({ status: 200, body: { systemMessage: `decision-memory left as written a question it could not take: ${leftSaid(0)}` } })
    alone.tool_input.questions = [{ question: 'Name the service?', header: 'Name', kind: 'text' }, twice]
    expect(await call('POST', HOOK, alone)).toEqual({ status: 200, body: { systemMessage: `decision-memory left as written a question it could not take: ${leftSaid(1)}` } })
    // One option, or five, which AskUserQuestion does not take either; two such questions, each said.
    const tier = claudeCodeFixture('pre-tool-use').tool_input.questions[0]
    alone.tool_input.questions = [{ ...tier, options: [tier.options[0]] }]
    expect((await call('POST', HOOK, alone)).body).toEqual({
      systemMessage: `decision-memory left as written a question it could not take: "${TIER_QUESTION}" (tool_input.questions.0.options: at least 2 options, not 1 (a choice question has 2 to 4 options))`,
    })
    alone.tool_input.questions = [twice, { ...tier, options: [...tier.options, { label: 'Tier XL' }, { label: 'Tier XXL' }] }]
    expect((await call('POST', HOOK, alone)).body).toEqual({
      systemMessage: `decision-memory left as written 2 questions it could not take: ${leftSaid(0)}; "${TIER_QUESTION}" (tool_input.questions.1.options: at most 4 options, not 5 (a choice question has 2 to 4 options))`,
    })
    expect((await observationsOf(store)).filter((o) => o.decision_id?.startsWith('toolu_pre_spoilt_alone'))).toEqual([])
    // What is wrong with the whole call is refused as before: two questions of one text.
    const same = { ...claudeCodeFixture('pre-tool-use'), tool_use_id: 'toolu_pre_spoilt_same' }
    same.tool_input.questions.push({ ...twice, question: TIER_QUESTION })
    const refused = await call('POST', HOOK, same)
    expect(refused.status).toBe(400)
    expect(refused.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['tool_input.questions.1.question'])
  })

  it('keeps the user’s own answer when Claude Code asked them after all and they answered otherwise, once', async () => {
    const { call, store } = await createTestApp()
    await call('POST', '/v1/observations', pastChoices(40, 'Tier L', TIER))
    const pre = claudeCodeFixture('pre-tool-use')
    const { body } = await call('POST', HOOK, pre)
    expect(body.hookSpecificOutput.updatedInput.answers).toEqual({ [TIER_QUESTION]: 'Tier L (Recommended)' })
    // The hook gave up waiting (or another hook said ask): Claude Code showed the picker, and the user chose Tier S.
    const post = {
      ...pre,
      hook_event_name: 'PostToolUse',
      tool_input: { ...pre.tool_input, answers: { [TIER_QUESTION]: 'Tier S' } },
      tool_response: { questions: pre.tool_input.questions, answers: { [TIER_QUESTION]: 'Tier S' } },
    }
    expect((await call('POST', HOOK, post)).status).toBe(200)
    // Sent again (a retried hook): still one answer of the user's.
    await call('POST', HOOK, post)
    const all = await observationsOf(store)
    expect(all.filter((o) => o.source === 'auto-resolved').map((o) => o.chosen)).toEqual([['Tier L']])
    const theirs = all.filter((o) => o.source === 'user' && o.chosen[0] === 'Tier S')
    expect(theirs).toHaveLength(1)
    expect(theirs[0]?.decision_id).toMatch(new RegExp(`^${pre.tool_use_id}#[0-9a-f]{16}$`))
    expect(theirs[0]?.decision_id).not.toBe(all.find((o) => o.source === 'auto-resolved')?.decision_id)
    expect((await call('POST', '/v1/recommendations', TIER)).body.observations).toBe(41)
  })

  it('records no answer of its own for a PreToolUse planned past the time the hook waits (?wait_ms=): the user, asked, answers for themself', async () => {
    const { call, store, clock, memory } = await createTestApp()
    await call('POST', '/v1/observations', pastChoices(40, 'Tier L', TIER))
    const pre = claudeCodeFixture('pre-tool-use')
    // Planning that takes 5 s by the service's clock, where the hook waits 1.2 s for its answer.
    const recommend = memory.recommend.bind(memory)
    const slow = vi.spyOn(memory, 'recommend').mockImplementation(async (request) => {
      clock.advance(5_000)
      return recommend(request)
    })
    const late = await call('POST', `${HOOK}?wait_ms=1200`, pre)
    slow.mockRestore()
    // The hook has let the question through as the agent wrote it: nothing to answer, nothing answered.
    expect(late).toEqual({ status: 200, body: {} })
    expect((await observationsOf(store)).filter((o) => o.source === 'auto-resolved')).toHaveLength(0)
    // The user, asked, chose what the service would have: their choice, counted as theirs, once.
    const post = {
      ...pre,
      hook_event_name: 'PostToolUse',
      tool_input: { ...pre.tool_input, answers: { [TIER_QUESTION]: 'Tier L' } },
      tool_response: { questions: pre.tool_input.questions, answers: { [TIER_QUESTION]: 'Tier L' } },
    }
    expect((await call('POST', HOOK, post)).status).toBe(200)
    const all = await observationsOf(store)
    expect(all.filter((o) => o.decision_id?.startsWith(pre.tool_use_id)).map((o) => [o.source, o.chosen])).toEqual([['user', ['Tier L']]])
    expect((await call('POST', '/v1/recommendations', TIER)).body.observations).toBe(41)
    // Within the time, it answers and records its answer, as without ?wait_ms=.
    const inTime = await call('POST', `${HOOK}?wait_ms=1200`, { ...pre, tool_use_id: 'toolu_in_time' })
    expect(inTime.body.hookSpecificOutput.updatedInput.answers).toEqual({ [TIER_QUESTION]: 'Tier L (Recommended)' })
    expect((await observationsOf(store)).filter((o) => o.source === 'auto-resolved')).toHaveLength(1)
  })

  it('sends X-Decision-Memory-Hook-Answer with every answer of every event, by which the hook knows the service whatever the fields', async () => {
    const { app } = await createTestApp()
    for (const fixture of ['session-start', 'pre-tool-use', 'post-tool-use-single', 'post-tool-use-multi', 'pre-tool-use-bash'] as const) {
      const answer = await app.request(HOOK, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(claudeCodeFixture(fixture)) })
      expect(answer.status, fixture).toBe(200)
      expect(answer.headers.get('x-decision-memory-hook-answer'), fixture).toBe('1')
    }
    // A refusal is no answer: without it.
    const refused = await app.request(HOOK, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"hook_event_name": 1}' })
    expect(refused.status).toBe(400)
    expect(refused.headers.has('x-decision-memory-hook-answer')).toBe(false)
  })

  it('says by X-Decision-Memory-Late that a PreToolUse answered {} was planned past ?wait_ms=, with the ms it took, unlike a {} that changes nothing', async () => {
    const { app, clock, memory, call } = await createTestApp()
    await call('POST', '/v1/observations', pastChoices(40, 'Tier L', TIER))
    const pre = claudeCodeFixture('pre-tool-use')
    const send = (body: unknown, query = '?wait_ms=1200') =>
      app.request(`${HOOK}${query}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const recommend = memory.recommend.bind(memory)
    const slow = vi.spyOn(memory, 'recommend').mockImplementation(async (request) => {
      clock.advance(5_000)
      return recommend(request)
    })
    const late = await send(pre)
    // The body is what the hook prints as it did: {} (nothing); the header alone tells it apart.
    expect(await late.json()).toEqual({})
    expect(late.headers.get('x-decision-memory-late')).toBe('5000')
    // As slow, but with no ?wait_ms= (the sender waits as long as it takes): answered, no header.
    const waited = await send({ ...pre, tool_use_id: 'toolu_waited' }, '')
    expect(((await waited.json()) as any).hookSpecificOutput.permissionDecision).toBe('allow')
    expect(waited.headers.has('x-decision-memory-late')).toBe(false)
    slow.mockRestore()
    // A {} in time (personalization off in that session: nothing to change) has no header either.
    await call('PUT', '/v1/sessions/s-off/personalization', { enabled: false })
    const unchanged = await send({ ...pre, session_id: 's-off', tool_use_id: 'toolu_off' })
    expect(await unchanged.json()).toEqual({})
    expect(unchanged.headers.has('x-decision-memory-late')).toBe(false)
  })

  it('refuses a ?wait_ms= that is no whole number of ms, naming it', async () => {
    const { call } = await createTestApp()
    for (const wait of ['-1', '1.5', 'soon', '1e3', '100000']) {
      const refused = await call('POST', `${HOOK}?wait_ms=${wait}`, claudeCodeFixture('pre-tool-use'))
      expect(refused.status, wait).toBe(400)
      expect(refused.body.error.issues.map((i: { path: string }) => i.path), wait).toEqual(['wait_ms'])
    }
  })

  it('says an answer fixed by a required decision rests on that decision, not on past choices', async () => {
    const { call } = await createTestApp()
    const created = await call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-050', rationale: 'Audits need the full plan.' })
    expect(created.status).toBe(201)
    const { body } = await call('POST', HOOK, claudeCodeFixture('pre-tool-use'))
    const output = body.hookSpecificOutput
    expect(output.permissionDecision).toBe('allow')
    expect(output.updatedInput.answers).toEqual({ [TIER_QUESTION]: 'Tier L (Recommended)' })
    // The decision's words inside the brackets, without a full stop of their own before ')'.
    expect(output.permissionDecisionReason).toContain('(required by decision D-050: Audits need the full plan)')
    expect(output.permissionDecisionReason).not.toContain('past choices')

    // With personalization off the user is asked, the decision's option first: the reason names it.
    const pre = claudeCodeFixture('pre-tool-use')
    expect((await call('PUT', `/v1/sessions/${pre.session_id}/personalization`, { enabled: false })).status).toBe(200)
    const asked = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(asked.permissionDecision).toBe('ask')
    expect(asked.updatedInput.questions[0].options[0].label).toBe('Tier L (Recommended)')
    expect(asked.permissionDecisionReason).toContain('put first the option required by decision D-050: Audits need the full plan')
    expect(asked.permissionDecisionReason).not.toContain('most likely')
  })

  it('keeps every text within what Claude Code shows whole, long rationales and questions cut, the command to be asked again last', async () => {
    // Claude Code saves a text over 10,000 characters to a file and shows a short preview: the
    // command to be asked again, last, would be lost.
    const questions = [1, 2, 3, 4].map((i) => ({
      question: `Question ${i}: ${'which way should this part of the change go, given all that came before it? '.repeat(25)}`,
      header: `Part ${i}`,
      options: [{ label: 'Alpha' }, { label: 'Beta' }],
      multiSelect: false,
    }))
    const rationale = (key: string) => `${key} rests on this. ${'The reasons go on at length, as some records do. '.repeat(170)}`.slice(0, 8000)
    const hookWith = async (ruleOutLast: boolean, query = '') => {
      const { call } = await createTestApp()
      const points = (await call('POST', '/v1/plan', { questions })).body.questions.map((q: { recommendation: { point: string } }) => q.recommendation.point)
      for (const [i, point] of points.entries()) {
        const key = `D-20${i + 1}`
        const constraints = ruleOutLast && i === 3 ? [{ kind: 'must_not', option: 'Alpha' }, { kind: 'must_not', option: 'Beta' }] : [{ kind: 'must', option: 'Alpha' }]
        expect((await call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key, rationale: rationale(key), scope: { points: [point] }, constraints })).status).toBe(201)
      }
      const pre = claudeCodeFixture('pre-tool-use')
      pre.tool_input.questions = questions
      const answer = await call('POST', `${HOOK}${query}`, pre)
      expect(answer.status).toBe(200)
      return { body: answer.body, turnOff: `To be asked again in this session: node ${shellWord(BIN_PATH)} toggle --session ${pre.session_id} --user default --off` }
    }
    const fits = (text: unknown) => {
      expect(typeof text).toBe('string')
      expect((text as string).length).toBeLessThanOrEqual(10_000)
    }

    // Every question answered for the user: an allow, its reason also the systemMessage.
    const all = await hookWith(false)
    const allowed = all.body.hookSpecificOutput
    expect(allowed.permissionDecision).toBe('allow')
    fits(allowed.permissionDecisionReason)
    expect(allowed.permissionDecisionReason).toMatch(/^decision-memory answered for you: "Question 1: which way/)
    expect(allowed.permissionDecisionReason.endsWith(all.turnOff)).toBe(true)
    expect(all.body.systemMessage).toBe(allowed.permissionDecisionReason)
    for (const key of ['D-201', 'D-202', 'D-203', 'D-204']) {
      expect(allowed.permissionDecisionReason).toContain(`(required by decision ${key}: ${key} rests on this.`)
      expect(allowed.permissionDecisionReason).toContain(`(the whole rationale: node ${shellWord(BIN_PATH)} why ${key})`)
    }

    // Three answered, every option of the fourth ruled out: an ask, with all three texts.
    const asked = await hookWith(true)
    const output = asked.body.hookSpecificOutput
    expect(output.permissionDecision).toBe('ask')
    for (const text of [asked.body.systemMessage, output.permissionDecisionReason, output.additionalContext]) fits(text)
    expect(asked.body.systemMessage).toMatch(/^decision-memory answered for you: "Question 1: which way/)
    expect(asked.body.systemMessage.endsWith(asked.turnOff)).toBe(true)
    expect(output.permissionDecisionReason).toMatch(/^decision-memory left the questions it asks as written\. For "Question 4: which way/)
    expect(output.permissionDecisionReason.endsWith(asked.turnOff)).toBe(true)
    expect(output.additionalContext).toMatch(/^decision-memory answered these on the user's behalf: "Question 1: which way/)
    expect(output.additionalContext).toMatch(/ask again with an option the decision allows$/)
    expect(output.additionalContext).toContain(`(the whole rationale: node ${shellWord(BIN_PATH)} why D-204)`)

    // A service elsewhere than the default address: the command that prints a rationale whole names
    // it, as the one to be asked again does, so that it runs as printed from a new shell.
    const elsewhere = await hookWith(false, `?service_url=${encodeURIComponent('http://127.0.0.1:7421')}`)
    expect(elsewhere.body.hookSpecificOutput.permissionDecisionReason).toContain(
      `(the whole rationale: DECISION_MEMORY_URL=http://127.0.0.1:7421 node ${shellWord(BIN_PATH)} why D-201)`,
    )
  })

  it('with personalization off, a required decision fixing the usual default keeps the agent\'s description before its rationale', async () => {
    const { call } = await createTestApp()
    // Tier M is the policy's static default: what the session's neutral answer recommends.
    await call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key: 'D-051', constraints: [{ kind: 'must', option: 'Tier M' }] })
    const pre = claudeCodeFixture('pre-tool-use')
    await call('PUT', `/v1/sessions/${pre.session_id}/personalization`, { enabled: false })
    const asked = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(asked.permissionDecision).toBe('ask')
    expect(asked.updatedInput.questions[0].options).toEqual([
      {
        label: 'Tier M (Recommended)',
        description: `Medium: plan, run, sync with one review. Recommended when required decision D-051 is in force — required by decision D-051: ${REQUIRED_TIER_L.rationale}`,
      },
      { label: 'Tier S', description: 'Small: single pass, no plan document' },
      { label: 'Tier L', description: 'Large: full plan with design review' },
    ])
  })

  it('a question two required decisions fix, planned again, says their rationales once', async () => {
    const { call } = await createTestApp()
    // Asked with personalization off, Tier M carries the rationale of both decisions, in the plural.
    for (const key of ['D-051', 'D-052']) {
      expect((await call('POST', '/v1/decisions', { ...REQUIRED_TIER_L, key, rationale: `${key} says so.`, constraints: [{ kind: 'must', option: 'Tier M' }] })).status).toBe(201)
    }
    const pre = claudeCodeFixture('pre-tool-use')
    await call('PUT', `/v1/sessions/${pre.session_id}/personalization`, { enabled: false })
    const first = (await call('POST', HOOK, pre)).body.hookSpecificOutput.updatedInput
    expect(first.questions[0].options[0]).toEqual({
      label: 'Tier M (Recommended)',
      description: 'Medium: plan, run, sync with one review. Recommended when required decisions D-051, D-052 are in force — required by decisions D-051: D-051 says so.; D-052: D-052 says so.',
    })
    // Planned again (plan_questions' input passed to AskUserQuestion), the rationale is this
    // service's and is dropped before planning: nothing to change, not said twice.
    expect((await call('POST', HOOK, { ...pre, tool_use_id: 'toolu_two_required_again', tool_input: first })).body).toEqual({})
  })

  it('answers only the questions that auto-resolve and asks the rest', async () => {
    const { call, store } = await createTestApp()
    await call('POST', '/v1/observations', pastChoices(40, 'Tier S', TIER))
    const pre = claudeCodeFixture('pre-tool-use')
    const method = { ...METHOD_QUESTION }
    pre.tool_input.questions.push(method)
    const answer = (await call('POST', HOOK, pre)).body
    const output = answer.hookSpecificOutput
    expect(output.permissionDecision).toBe('ask')
    expect(output.updatedInput.questions.map((q: { question: string }) => q.question)).toEqual([method.question])
    expect(output.updatedInput.answers).toEqual({ [TIER_QUESTION]: 'Tier S (Recommended)' })
    expect(output.additionalContext).toContain(`"${TIER_QUESTION}" = "Tier S (Recommended)"`)
    // Told to the agent, the past choices are the user's, not the agent's own.
    expect(output.additionalContext).toContain("(from the user's past choices: 40 choices")
    expect(output.additionalContext).not.toContain('your')
    // The user is told too, with how to be asked again, not only the agent.
    expect(output.permissionDecisionReason).toContain(`It answered for you: "${TIER_QUESTION}" = "Tier S (Recommended)"`)
    expect(output.permissionDecisionReason).toContain(`To be asked again in this session: node ${shellWord(BIN_PATH)} toggle --session ${pre.session_id} --user default --off`)
    // Claude Code shows an `ask`'s reason at most on its picker's review screen: the user reads the
    // answers given for them, and how to be asked again, in the hook's systemMessage.
    expect(answer.systemMessage).toMatch(/^decision-memory answered for you: "Which complexity tier should this SPEC use\?" = "Tier S \(Recommended\)" \(from your past choices: 40 choices, p 0\.\d+\)\. To be asked again in this session: /)
    expect(answer.systemMessage).toContain(`To be asked again in this session: node ${shellWord(BIN_PATH)} toggle --session ${pre.session_id} --user default --off`)

    // The user answers the one question shown; Claude Code reports both.
    const post = {
      ...pre,
      hook_event_name: 'PostToolUse',
      tool_response: {
        questions: output.updatedInput.questions,
        answers: { ...output.updatedInput.answers, [method.question]: 'DDD' },
      },
    }
    await call('POST', HOOK, post)
    const fromThisCall = (await observationsOf(store)).filter((o) => o.decision_id?.startsWith('toolu_01QxAmPLe0003PreAsk'))
    expect(fromThisCall.map((o) => [o.point, o.source, o.chosen[0]]).sort()).toEqual([
      ['complexity-tier', 'auto-resolved', 'Tier S'],
      ['development-methodology', 'user', 'DDD'],
    ])
  })

  it('plans the choice questions beside ones that ask for text or a number, which stay as written, in their places', async () => {
    const { call, store } = await createTestApp()
    const REPLICAS = { question: 'How many replicas?', header: 'Replicas', kind: 'number', min: 1, max: 9, options: [], multiSelect: false }
    const NAME = { question: 'What should the service be called?', header: 'Name', kind: 'text' }
    const METHOD = { ...METHOD_QUESTION, kind: 'choice' }
    const pre = claudeCodeFixture('pre-tool-use')
    const tier = pre.tool_input.questions[0]
    pre.tool_input.questions = [REPLICAS, tier, NAME, METHOD]
    const first = await call('POST', HOOK, pre)
    expect(first.status).toBe(200)
    const asked = first.body.hookSpecificOutput
    expect(asked.permissionDecision).toBe('ask')
    const questions = asked.updatedInput.questions
    // The choice questions are ordered by information (the methodology's p = ½ first) in the choices' places.
    expect(questions.map((q: { question: string }) => q.question)).toEqual([REPLICAS.question, METHOD.question, NAME.question, tier.question])
    expect(questions[0]).toEqual(REPLICAS)
    expect(questions[2]).toEqual(NAME)
    expect(questions[3].options.map((o: { label: string }) => o.label)).toEqual(['Tier M (Recommended)', 'Tier S', 'Tier L'])

    // Tier answered for the user: the text and number questions are still asked (not `allow`), in their places.
    await call('POST', '/v1/observations', pastChoices(40, 'Tier S', TIER))
    const later = { ...pre, tool_use_id: 'toolu_kinds_pre' }
    const output = (await call('POST', HOOK, later)).body.hookSpecificOutput
    expect(output.permissionDecision).toBe('ask')
    expect(output.updatedInput.questions.map((q: { question: string }) => q.question)).toEqual([REPLICAS.question, NAME.question, METHOD.question])
    expect(output.updatedInput.questions[0]).toEqual(REPLICAS)
    expect(output.updatedInput.questions[1]).toEqual(NAME)
    expect(output.updatedInput.answers).toEqual({ [TIER_QUESTION]: 'Tier S (Recommended)' })
    const auto = (await observationsOf(store)).filter((o) => o.decision_id?.startsWith('toolu_kinds_pre'))
    expect(auto.map((o) => [o.source, o.chosen])).toEqual([['auto-resolved', ['Tier S']]])

    // Every choice question answered for the user: the text question alone is asked, and the reason says so.
    const textLeft = { ...pre, tool_use_id: 'toolu_kinds_text_left', tool_input: { questions: [tier, NAME] } }
    const left = (await call('POST', HOOK, textLeft)).body.hookSpecificOutput
    expect(left.permissionDecision).toBe('ask')
    expect(left.updatedInput.questions).toEqual([NAME])
    expect(left.updatedInput.answers).toEqual({ [TIER_QUESTION]: 'Tier S (Recommended)' })
    expect(left.permissionDecisionReason).toMatch(/^decision-memory left to you the question asking for text or a number\. It answered for you: "Which complexity tier/)

    // Only questions of another kind: nothing to plan, nothing refused.
    const only = { ...pre, tool_use_id: 'toolu_kinds_only_pre', tool_input: { questions: [NAME, REPLICAS] } }
    expect(await call('POST', HOOK, only)).toEqual({ status: 200, body: {} })
    // A choice question refused is left as written and named by its place as sent, after the text question before it.
    const twice = { ...tier, options: [tier.options[0], tier.options[0]] }
    const refused = await call('POST', HOOK, { ...pre, tool_use_id: 'toolu_kinds_refused', tool_input: { questions: [NAME, twice, METHOD_QUESTION] } })
    expect(refused.status).toBe(200)
    const kept = refused.body.hookSpecificOutput
    expect(kept.updatedInput.questions.slice(0, 2)).toEqual([NAME, twice])
    expect(kept.updatedInput.questions[2].question).toBe(METHOD_QUESTION.question)
    expect(kept.permissionDecisionReason).toContain(`"${TIER_QUESTION}" (tool_input.questions.1.options.1: options 0 and 1 are both "Tier S")`)
  })

  it('plans and records a question whose kind is "Choice" or empty as a choice, as the plan reads it', async () => {
    const { call, store } = await createTestApp()
    const pre = claudeCodeFixture('pre-tool-use')
    const tier = pre.tool_input.questions[0]
    pre.tool_input.questions = [{ ...tier, kind: 'Choice' }, { ...METHOD_QUESTION, kind: '' }]
    const asked = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(asked.permissionDecision).toBe('ask')
    const labels = asked.updatedInput.questions.map((q: { options: Array<{ label: string }> }) => q.options.map((o) => o.label))
    expect(labels.flat().filter((label: string) => label.endsWith(' (Recommended)'))).toHaveLength(2)
    const post = {
      ...pre,
      hook_event_name: 'PostToolUse',
      tool_response: { questions: pre.tool_input.questions, answers: { [tier.question]: 'Tier S', [METHOD_QUESTION.question]: 'DDD' } },
    }
    expect((await call('POST', HOOK, post)).status).toBe(200)
    const recorded = (await observationsOf(store)).filter((o) => o.decision_id?.startsWith(pre.tool_use_id))
    expect(recorded.map((o) => o.chosen[0]).sort()).toEqual(['DDD', 'Tier S'])
  })

  it('names the choice question that repeats another\'s text by its place as sent, after a text question too', async () => {
    const { call } = await createTestApp()
    const pre = { ...claudeCodeFixture('pre-tool-use'), tool_use_id: 'toolu_repeated_text' }
    const tier = pre.tool_input.questions[0]
    pre.tool_input.questions = [{ question: 'Why?', header: 'Why', kind: 'text' }, tier, tier]
    const refused = await call('POST', HOOK, pre)
    expect(refused.status).toBe(400)
    expect(refused.body.error.issues).toEqual([
      { path: 'tool_input.questions.2.question', message: 'the same text as question 1: question texts must be unique (answers are keyed by them)' },
    ])
  })

  it('refuses a choice question and a text question of one text, as two choice questions of one text: they would share one answer', async () => {
    const { call, store } = await createTestApp()
    await call('POST', '/v1/observations', pastChoices(40, 'Tier S', TIER))
    const pre = { ...claudeCodeFixture('pre-tool-use'), tool_use_id: 'toolu_same_text' }
    const tier = pre.tool_input.questions[0]
    pre.tool_input.questions = [tier, { question: tier.question, header: 'Why', kind: 'text' }]
    const refused = await call('POST', HOOK, pre)
    expect(refused.status).toBe(400)
    expect(refused.body.error.issues).toEqual([
      { path: 'tool_input.questions.1.question', message: 'the same text as question 0: question texts must be unique (answers are keyed by them)' },
    ])
    // Nothing answered for the user, so nothing recorded as answered for them either.
    expect((await observationsOf(store)).filter((o) => o.decision_id?.startsWith('toolu_same_text'))).toEqual([])
    // Nor is the one answer read as the choice's at PostToolUse.
    const post = { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: 'toolu_same_text_post' }
    for (const where of [post.tool_input, post.tool_response]) where.questions.push({ question: where.questions[0].question, header: 'Why', kind: 'text' })
    expect((await call('POST', HOOK, post)).status).toBe(400)
    expect((await observationsOf(store)).filter((o) => o.decision_id?.startsWith('toolu_same_text_post'))).toEqual([])
  })

  it('an answer it gave beside a question that is one text with it after normalisation stays a duplicate, and the other answer is kept', async () => {
    const { call, store } = await createTestApp()
    await call('POST', '/v1/observations', pastChoices(40, 'Tier S', TIER))
    const pre = claudeCodeFixture('pre-tool-use')
    const twin = { question: 'which complexity tier should this SPEC use', header: 'Twin', options: [{ label: 'X', description: '' }, { label: 'Y', description: '' }], multiSelect: false }
    pre.tool_input.questions.push(twin)
    const output = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(output.updatedInput.answers).toEqual({ [TIER_QUESTION]: 'Tier S (Recommended)' })
    // Claude Code asked both after all (say the hook's answer came too late), and reports both.
    const questions = [...pre.tool_input.questions]
    const answers = { [TIER_QUESTION]: 'Tier S (Recommended)', [twin.question]: 'Y' }
    const post = { ...pre, hook_event_name: 'PostToolUse', tool_input: { questions, answers }, tool_response: { questions, answers } }
    await call('POST', HOOK, post)
    await call('POST', HOOK, post)
    const fromThisCall = (await observationsOf(store)).filter((o) => o.decision_id?.startsWith('toolu_01QxAmPLe0003PreAsk'))
    expect(fromThisCall.map((o) => [o.question, o.source, o.chosen[0]]).sort()).toEqual([
      [TIER_QUESTION, 'auto-resolved', 'Tier S'],
      [twin.question, 'user', 'Y'],
    ])
    expect(await observationsOf(store)).toHaveLength(42)
  })

  it('never answers a sensitive or always_ask point', async () => {
    const base = await loadPolicy(DEFAULT_POLICY_FILE)
    const policy = compilePolicy({
      ...base,
      points: [...base.points, { key: 'deploy-window', match: { header: '^Deploy$' }, always_ask: true, sensitive: false, multi_select: false }],
    })
    const { call, store } = await createTestApp({ policy })
    const questions = [
      { question: 'Which security review level?', header: 'Review', all_options: ['Light', 'Full'] },
      { question: 'When should we deploy?', header: 'Deploy', all_options: ['Now', 'Tonight'] },
    ]
    for (const [i, q] of questions.entries()) {
      await call('POST', '/v1/observations', pastChoices(40, q.all_options[0] as string, { ...q, point: undefined }).map((o) => ({ ...o, decision_id: `${i}-${o.decision_id}` })))
      const rec = await call('POST', '/v1/recommendations', q)
      expect(rec.body.ask).toBe(true)
      const pre = claudeCodeFixture('pre-tool-use')
      pre.tool_use_id = `toolu_${i}`
      pre.tool_input.questions = [
        { question: q.question, header: q.header, options: q.all_options.map((label) => ({ label, description: label })), multiSelect: false },
      ]
      const { body } = await call('POST', HOOK, pre)
      expect(body.hookSpecificOutput?.updatedInput?.answers).toBeUndefined()
      expect(body.hookSpecificOutput?.permissionDecision).not.toBe('allow')
    }
    expect((await observationsOf(store)).filter((o) => o.source === 'auto-resolved')).toHaveLength(0)
  })

  it('claims no likelihood for a sensitive question it left as written, asked beside one put in the default order', async () => {
    const { call } = await createTestApp()
    const review = { question: 'Which security review level?', header: 'Review', all_options: ['Light', 'Full'] }
    await call('POST', '/v1/observations', pastChoices(10, 'Full', review))
    const pre = claudeCodeFixture('pre-tool-use')
    pre.tool_input.questions.push({
      question: review.question,
      header: review.header,
      options: review.all_options.map((label) => ({ label, description: label })),
      multiSelect: false,
    })
    const output = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(output.permissionDecision).toBe('ask')
    // The sensitive question's history put nothing first: only the tier's default order is said.
    expect(output.permissionDecisionReason).toContain('put first the usual default (there is not yet enough history of your choices here)')
    expect(output.permissionDecisionReason).not.toContain('most likely')

    // The tier answered for the user, the sensitive question alone asked: nothing was put first.
    await call('POST', '/v1/observations', pastChoices(40, 'Tier S', TIER).map((o) => ({ ...o, decision_id: `tier-${o.decision_id}` })))
    pre.tool_use_id = 'toolu_again'
    const again = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(again.updatedInput.questions.map((q: { question: string }) => q.question)).toEqual([review.question])
    expect(again.permissionDecisionReason).toMatch(/^decision-memory left the questions it asks as written\. It answered for you: /)
  })

  it('shows options the PostToolUse that echoes them is taken with: a label and description at the limits stay within them', async () => {
    const { call, store } = await createTestApp()
    const long = { label: 'A'.repeat(LIMITS.labelLength), description: 'd'.repeat(LIMITS.descriptionLength) }
    const fixture = claudeCodeFixture('pre-tool-use')
    const queue = { question: 'Which queue should this job use?', header: 'Queue', options: [long, { label: 'B', description: 'b' }], multiSelect: false }
    const pre = { ...fixture, tool_input: { questions: [...fixture.tool_input.questions, queue] } }
    const { body } = await call('POST', HOOK, pre)
    const shown = body.hookSpecificOutput.updatedInput
    const shownQueue = shown.questions.find((q: { question: string }) => q.question === queue.question)
    const first = shownQueue.options[0]
    // Marked: the label's limit counts it without the mark, so the PostToolUse takes it back.
    expect(first.label).toBe(`${long.label} (Recommended)`)
    expect(first.description.length).toBeLessThanOrEqual(LIMITS.descriptionLength)
    // Claude Code sends the input as the hook changed it, with the label the user picked.
    const answers = { [queue.question]: first.label }
    const post = { ...pre, hook_event_name: 'PostToolUse', tool_input: { ...shown, answers }, tool_response: { ...shown, answers } }
    expect((await call('POST', HOOK, post)).status).toBe(200)
    expect((await observationsOf(store)).map((o) => o.chosen)).toEqual([[long.label]])
  })

  it('with personalization off it changes nothing', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/observations', pastChoices(40, 'Tier L', TIER))
    const pre = claudeCodeFixture('pre-tool-use')
    await call('PUT', `/v1/sessions/${pre.session_id}/personalization`, { enabled: false })
    expect(await call('POST', HOOK, pre)).toEqual({ status: 200, body: {} })
  })
})

describe('POST /v1/hooks/claude-code: the answer to a question the plan took options out of', () => {
  const QUEUE = 'Which queue backend?'
  const queue = { question: QUEUE, header: 'Queue', multiSelect: false, options: ['Redis', 'SQS', 'Kafka'].map((label) => ({ label, description: `${label} queues` })) }

  /** The app, the point the queue question is keyed to as asked (by hash: no policy rule fits it), and a required decision bound to it. */
  async function queueApp(constraints: unknown[] = [{ kind: 'must_not', option: 'Kafka' }]) {
    const app = await createTestApp()
    const point = (await app.call('POST', '/v1/plan', { questions: [queue] })).body.questions[0].recommendation.point as string
    expect(point).toMatch(/^q-/)
    const decision = { ...REQUIRED_TIER_L, key: 'D-080', title: 'Queues', scope: { points: [point] }, constraints }
    expect((await app.call('POST', '/v1/decisions', decision)).status).toBe(201)
    return { ...app, point }
  }

  /** The PreToolUse of `questions` (the fixture's), and its PostToolUse with the questions as shown and `answers`. */
  function events(questions: unknown[], toolUseId = 'toolu_queue') {
    const pre = claudeCodeFixture('pre-tool-use')
    pre.tool_use_id = toolUseId
    pre.tool_input.questions = questions
    const post = (shown: unknown[], answers: Record<string, unknown>) => {
      const payload = claudeCodeFixture('post-tool-use-single')
      payload.tool_use_id = toolUseId
      payload.tool_input = { questions: shown, answers, annotations: {} }
      payload.tool_response = payload.tool_input
      return payload
    }
    return { pre, post }
  }

  /** What the store keeps of the user's planned points (export lists them among its `entry` lines). */
  async function plannedPoints(store: MemoryStore, user = 'default') {
    const out = []
    for await (const entry of store.untypedEntriesOf(user)) if (entry.sublevel === 'planned-points') out.push(entry)
    return out
  }

  it('is recorded at the point the question was planned at, not at the one the options shown key it to, and counts there', async () => {
    const { call, store, point } = await queueApp()
    const { pre, post } = events([queue])
    const shown = (await call('POST', HOOK, pre)).body.hookSpecificOutput.updatedInput.questions
    expect(shown[0].options.map((o: { label: string }) => o.label)).toEqual(['Redis (Recommended)', 'SQS'])
    expect(await plannedPoints(store)).toEqual([{ sublevel: 'planned-points', key: ['default', expect.stringMatching(/^toolu_queue#/)], value: { point, planned_at: START } }])
    expect((await call('POST', HOOK, post(shown, { [QUEUE]: 'SQS' }))).body).toEqual({})
    const stored = await observationsOf(store)
    expect(stored.map((o) => [o.point, o.chosen, o.options])).toEqual([[point, ['SQS'], ['Redis', 'SQS']]])
    // Used, the record goes; a retry of the PostToolUse is a duplicate still, stored nowhere.
    expect(await plannedPoints(store)).toEqual([])
    expect((await call('POST', HOOK, post(shown, { [QUEUE]: 'SQS' }))).status).toBe(200)
    expect(await observationsOf(store)).toHaveLength(1)
    // The question as the agent asks it reads the user's choice: it no longer stands on its static default alone.
    const rec = (await call('POST', '/v1/recommendations', { question: QUEUE, header: 'Queue', all_options: ['Redis', 'SQS', 'Kafka'] })).body
    expect(rec).toMatchObject({ point, observations: 1 })
  })

  it('a limit bound to the point that takes an option out is followed alike; a limit bound to no point takes none out, and nothing is written', async () => {
    const REPLICAS = 'How many replicas should the service run?'
    const replicas = { question: REPLICAS, header: 'Replicas', multiSelect: false, options: ['1', '3', '5', '10'].map((label) => ({ label, description: `${label} pods` })) }
    const bound = await createTestApp()
    const point = (await bound.call('POST', '/v1/plan', { questions: [replicas] })).body.questions[0].recommendation.point
    const atMost5 = { ...REQUIRED_TIER_L, key: 'D-300', title: 'At most 5', scope: { points: [point] }, constraints: [{ kind: 'limit', value: 5 }] }
    expect((await bound.call('POST', '/v1/decisions', atMost5)).status).toBe(201)
    const { pre, post } = events([replicas], 'toolu_replicas')
    const output = (await bound.call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(output.permissionDecisionReason).toContain('took out 10 (ruled out by required decision D-300)')
    expect((await bound.call('POST', HOOK, post(output.updatedInput.questions, { [REPLICAS]: '3' }))).status).toBe(200)
    expect((await observationsOf(bound.store)).map((o) => [o.point, o.chosen])).toEqual([[point, ['3']]])

    // Bound to no point, it is checked at every point: it blocks an answer over it, and leaves the offer as it is.
    const global = await createTestApp()
    expect((await global.call('POST', '/v1/decisions', { ...atMost5, scope: { points: [] } })).status).toBe(201)
    const shown = (await global.call('POST', HOOK, pre)).body.hookSpecificOutput.updatedInput.questions
    expect(shown[0].options).toHaveLength(4)
    expect(await plannedPoints(global.store)).toEqual([])
    expect((await global.call('POST', HOOK, post(shown, { [REPLICAS]: '3' }))).status).toBe(200)
    expect((await observationsOf(global.store)).map((o) => o.point)).toEqual([point])
  })

  it('writes nothing where no option is taken out: none ruled out, or the one allowed kept with the others', async () => {
    const { call, store, point } = await queueApp([{ kind: 'must_not', option: 'Redis' }, { kind: 'must_not', option: 'Kafka' }])
    const { pre, post } = events([queue])
    const output = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    // AskUserQuestion takes no fewer than two options: SQS, the one allowed, is shown with the others.
    expect(output.updatedInput.questions[0].options).toHaveLength(3)
    expect(await plannedPoints(store)).toEqual([])
    expect((await call('POST', HOOK, post(output.updatedInput.questions, { [QUEUE]: 'SQS (Recommended)' }))).status).toBe(200)
    expect((await observationsOf(store)).map((o) => o.point)).toEqual([point])
    const method = events([METHOD_QUESTION], 'toolu_method')
    expect((await call('POST', HOOK, method.pre)).status).toBe(200)
    expect(await plannedPoints(store)).toEqual([])
  })

  it('with personalization off, where the decision still takes the option out, and at a multi-select question', async () => {
    const { call, store, point } = await queueApp()
    const { pre, post } = events([queue])
    expect((await call('PUT', `/v1/sessions/${pre.session_id}/personalization`, { enabled: false })).status).toBe(200)
    const shown = (await call('POST', HOOK, pre)).body.hookSpecificOutput.updatedInput.questions
    expect(shown[0].options.map((o: { label: string }) => o.label)).toEqual(['Redis', 'SQS'])
    expect((await call('POST', HOOK, post(shown, { [QUEUE]: 'Redis' }))).status).toBe(200)
    expect((await observationsOf(store)).map((o) => o.point)).toEqual([point])

    const CHECKS = 'Which checks should this repository run?'
    const checks = { question: CHECKS, header: 'Checks', multiSelect: true, options: ['Lint, format', 'Unit tests', 'E2E tests'].map((label) => ({ label, description: label })) }
    const checksPoint = (await call('POST', '/v1/plan', { questions: [checks] })).body.questions[0].recommendation.point
    const noE2e = { ...REQUIRED_TIER_L, key: 'D-081', title: 'No E2E', scope: { points: [checksPoint] }, constraints: [{ kind: 'must_not', option: 'E2E tests' }] }
    expect((await call('POST', '/v1/decisions', noE2e)).status).toBe(201)
    const multi = events([checks], 'toolu_checks')
    const asked = (await call('POST', HOOK, multi.pre)).body.hookSpecificOutput.updatedInput.questions
    expect(asked[0].options).toHaveLength(2)
    expect((await call('POST', HOOK, multi.post(asked, { [CHECKS]: 'Lint, format, Unit tests' }))).status).toBe(200)
    const [chosen] = (await observationsOf(store)).filter((o) => o.question === CHECKS)
    expect(chosen).toMatchObject({ point: checksPoint, chosen: ['Lint, format', 'Unit tests'], multi_select: true })
  })

  it('an answer given for the user is stored at the planned point, and so is theirs when they were asked after all and answered otherwise', async () => {
    const { call, store, point } = await queueApp()
    await call('POST', '/v1/observations', pastChoices(30, 'SQS', { question: QUEUE, header: 'Queue', all_options: ['Redis', 'SQS', 'Kafka'] }))
    const { pre, post } = events([queue])
    const output = (await call('POST', HOOK, pre)).body.hookSpecificOutput
    expect(output.permissionDecision).toBe('allow')
    expect(output.updatedInput.answers).toEqual({ [QUEUE]: 'SQS (Recommended)' })
    const auto = (await observationsOf(store)).filter((o) => o.source === 'auto-resolved')
    expect(auto.map((o) => [o.point, o.chosen])).toEqual([[point, ['SQS']]])
    // Another hook asked the user the question as shown, and they chose Redis: their own answer, at the point.
    expect((await call('POST', HOOK, post(output.updatedInput.questions, { [QUEUE]: 'Redis' }))).status).toBe(200)
    const theirs = (await observationsOf(store)).filter((o) => o.decision_id?.startsWith('toolu_queue#') && o.source === 'user')
    expect(theirs.map((o) => [o.point, o.chosen])).toEqual([[point, ['Redis']]])
    expect(await plannedPoints(store)).toEqual([])
  })

  it('is forgotten with the user, and listed by their export until its answer comes', async () => {
    const { call, store, app } = await queueApp()
    const { pre } = events([queue])
    expect((await call('POST', HOOK, pre)).status).toBe(200)
    expect(await plannedPoints(store)).toHaveLength(1)
    const lines = (await (await app.request('/v1/users/default/export')).text()).trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.filter((l) => l.type === 'entry').map((l) => l.data.sublevel)).toEqual(['planned-points'])
    expect((await call('DELETE', '/v1/users/default')).body).toEqual({ user: 'default', deleted: expect.any(Number) })
    expect(await plannedPoints(store)).toEqual([])
  })

  it('is dropped by the first decay scan after recall\'s TTL when its answer never comes (the picker dismissed)', async () => {
    const { call, store, clock } = await queueApp()
    expect((await call('POST', HOOK, events([queue]).pre)).status).toBe(200)
    clock.advance(27 * 86_400_000)
    expect((await call('POST', '/v1/maintenance/decay-scan', { force: true })).body.status).toBe('ran')
    expect(await plannedPoints(store)).toHaveLength(1)
    clock.advance(2 * 86_400_000)
    expect((await call('POST', '/v1/maintenance/decay-scan', { force: true })).body.status).toBe('ran')
    expect(await plannedPoints(store)).toEqual([])
  })
})

describe('POST /v1/hooks/claude-code: a question asked as POST /v1/plan or plan_questions showed it, options taken out', () => {
  const QUEUE = 'Which queue backend?'
  const queue = { question: QUEUE, header: 'Queue', multiSelect: false, options: ['Redis', 'SQS', 'Kafka'].map((label) => ({ label, description: `${label} queues` })) }
  /** The point the queue question keys to as shown, Kafka taken out (by hash: no policy rule fits it). */
  const SHOWN = hashPointKey(QUEUE, ['Redis', 'SQS'])

  /** The app, the point the queue question is keyed to as asked, and a required decision there that takes Kafka out. */
  async function queueApp(options: { now?: string } = {}) {
    const app = await createTestApp(options)
    const point = (await app.call('POST', '/v1/plan', { questions: [queue] })).body.questions[0].recommendation.point as string
    expect(point).toMatch(/^q-/)
    expect(point).not.toBe(SHOWN)
    const decision = { ...REQUIRED_TIER_L, key: 'D-082', title: 'Queues', scope: { points: [point] }, constraints: [{ kind: 'must_not', option: 'Kafka' }] }
    expect((await app.call('POST', '/v1/decisions', decision)).status).toBe(201)
    // Nothing kept of a plan that took nothing out.
    expect(await shownPoints(app.store)).toEqual([])
    return { ...app, point }
  }

  /** The PreToolUse of the questions as the plan showed them, and its PostToolUse with `answers`. */
  function events(shown: unknown[], toolUseId = 'toolu_shown') {
    const pre = claudeCodeFixture('pre-tool-use')
    pre.tool_use_id = toolUseId
    pre.tool_input = { questions: shown }
    const post = (asked: unknown[], answers: Record<string, unknown>) => {
      const payload = claudeCodeFixture('post-tool-use-single')
      payload.tool_use_id = toolUseId
      payload.tool_input = { questions: asked, answers, annotations: {} }
      payload.tool_response = payload.tool_input
      return payload
    }
    return { pre, post }
  }

  /** What the store keeps of the user's shown points (export lists them among its `entry` lines). */
  async function shownPoints(store: MemoryStore, user = 'default') {
    const out = []
    for await (const entry of store.untypedEntriesOf(user)) if (entry.sublevel === 'shown-points') out.push(entry)
    return out
  }

  it('is planned and recorded at the point the plan planned it at, not at the one its options shown key it to, and counts there', async () => {
    const { call, store, point } = await queueApp()
    const plan = (await call('POST', '/v1/plan', { questions: [queue] })).body
    const shown = plan.ask_user_question_input.questions
    expect(shown[0].options.map((o: { label: string }) => o.label)).toEqual(['Redis (Recommended)', 'SQS'])
    expect(await shownPoints(store)).toEqual([{ sublevel: 'shown-points', key: ['default', SHOWN], value: { point, planned_at: START } }])
    // The agent passes the plan's input to AskUserQuestion: the hook plans it where the plan did.
    // Planned there, it is what the plan showed: nothing to change, and the answer's point remembered.
    const { pre, post } = events(shown)
    expect((await call('POST', HOOK, pre)).body).toEqual({})
    expect((await call('POST', HOOK, post(shown, { [QUEUE]: 'SQS' }))).body).toEqual({})
    expect((await observationsOf(store)).map((o) => [o.point, o.chosen, o.options])).toEqual([[point, ['SQS'], ['Redis', 'SQS']]])
    // The question as the agent asks it, and as it plans it, reads the user's choice.
    const rec = (await call('POST', '/v1/recommendations', { question: QUEUE, header: 'Queue', all_options: ['Redis', 'SQS', 'Kafka'] })).body
    expect(rec).toMatchObject({ point, observations: 1 })
    const again = (await call('POST', '/v1/plan', { questions: [queue] })).body.questions[0].recommendation
    expect(again).toMatchObject({ point, observations: 1 })
    // Kept for the next time it is asked as shown: only the decay scan drops it.
    expect(await shownPoints(store)).toHaveLength(1)
  })

  it('is answered for the user at the point the plan planned it at, with their history there', async () => {
    const { call, store, point } = await queueApp()
    const shown = (await call('POST', '/v1/plan', { questions: [queue] })).body.ask_user_question_input.questions
    // The user's choices at the question since it was planned: the hook plans it with them.
    await call('POST', '/v1/observations', pastChoices(30, 'SQS', { question: QUEUE, header: 'Queue', all_options: ['Redis', 'SQS', 'Kafka'] }))
    const output = (await call('POST', HOOK, events(shown).pre)).body.hookSpecificOutput
    expect(output.permissionDecision).toBe('allow')
    expect(output.updatedInput.answers).toEqual({ [QUEUE]: 'SQS (Recommended)' })
    const auto = (await observationsOf(store)).filter((o) => o.source === 'auto-resolved')
    expect(auto.map((o) => [o.point, o.chosen])).toEqual([[point, ['SQS']]])
  })

  it('is recorded where the plan planned it when its answer comes with no PreToolUse before it (only the PostToolUse hook installed)', async () => {
    const { call, store, point } = await queueApp()
    const shown = (await call('POST', '/v1/plan', { questions: [queue] })).body.ask_user_question_input.questions
    // README's setup for a Claude Code before 2.1.0 installs only the PostToolUse hook: no PreToolUse
    // planned the question, so nothing was remembered by its tool_use_id.
    const { post } = events(shown, 'toolu_post_only')
    expect((await call('POST', HOOK, post(shown, { [QUEUE]: 'SQS' }))).body).toEqual({})
    expect((await observationsOf(store)).map((o) => [o.point, o.chosen])).toEqual([[point, ['SQS']]])
    expect((await call('POST', '/v1/recommendations', { question: QUEUE, header: 'Queue', all_options: ['Redis', 'SQS', 'Kafka'] })).body).toMatchObject({ point, observations: 1 })
  })

  it('is keyed by its options shown, as before, when no plan showed it so, and nothing is kept', async () => {
    const { call, store } = await queueApp()
    const asShown = { ...queue, options: queue.options.slice(0, 2) }
    const { pre, post } = events([asShown])
    const asked = (await call('POST', HOOK, pre)).body.hookSpecificOutput?.updatedInput.questions ?? [asShown]
    expect((await call('POST', HOOK, post(asked, { [QUEUE]: 'SQS' }))).status).toBe(200)
    expect((await observationsOf(store)).map((o) => o.point)).toEqual([SHOWN])
    expect(await shownPoints(store)).toEqual([])
  })

  it('writes nothing for a plan as of an earlier moment, which only reads', async () => {
    const { call, store } = await queueApp({ now: '2026-07-02T10:00:00.000Z' })
    expect((await call('POST', '/v1/plan', { questions: [queue], as_of: '2026-07-02T09:00:00.000Z' })).status).toBe(200)
    expect(await shownPoints(store)).toEqual([])
  })

  it('is listed by the user\'s export, forgotten with them, and another user\'s plan is not theirs', async () => {
    const { call, store, app } = await queueApp()
    expect((await call('POST', '/v1/plan', { questions: [queue] })).status).toBe(200)
    expect((await call('POST', '/v1/plan', { user: 'bob', questions: [queue] })).status).toBe(200)
    const lines = (await (await app.request('/v1/users/default/export')).text()).trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.filter((l) => l.type === 'entry').map((l) => l.data.sublevel)).toEqual(['shown-points'])
    expect((await call('DELETE', '/v1/users/default')).status).toBe(200)
    expect(await shownPoints(store)).toEqual([])
    expect(await shownPoints(store, 'bob')).toHaveLength(1)
    // Forgotten, the question asked as shown is keyed by its options again.
    const { pre, post } = events([{ ...queue, options: queue.options.slice(0, 2) }])
    const asked = (await call('POST', HOOK, pre)).body.hookSpecificOutput?.updatedInput.questions ?? pre.tool_input.questions
    expect((await call('POST', HOOK, post(asked, { [QUEUE]: 'Redis' }))).status).toBe(200)
    expect((await observationsOf(store)).map((o) => o.point)).toEqual([SHOWN])
  })

  it('is dropped by the first decay scan after recall\'s TTL, and kept by one before', async () => {
    const { call, store, clock } = await queueApp()
    expect((await call('POST', '/v1/plan', { questions: [queue] })).status).toBe(200)
    clock.advance(27 * 86_400_000)
    expect((await call('POST', '/v1/maintenance/decay-scan', { force: true })).body.status).toBe('ran')
    expect(await shownPoints(store)).toHaveLength(1)
    clock.advance(2 * 86_400_000)
    expect((await call('POST', '/v1/maintenance/decay-scan', { force: true })).body.status).toBe('ran')
    expect(await shownPoints(store)).toEqual([])
  })
})

describe('tool_use_id as part of a store key', () => {
  it('refuses a tool_use_id with a lone surrogate, which would make two calls one decision_id', async () => {
    const { call } = await createTestApp()
    const payload = claudeCodeFixture('post-tool-use-single') as Record<string, unknown>
    const r = await call('POST', HOOK, { ...payload, tool_use_id: 'toolu_\ud800' })
    expect(r.status).toBe(400)
    expect(r.body.error.issues[0].path).toBe('tool_use_id')
  })

  it('refuses a tool_use_id spaced or invisible at its start, whose decision_id the re-send of an export would have refused', async () => {
    const { call, store } = await createTestApp()
    const payload = claudeCodeFixture('post-tool-use-single') as Record<string, unknown>
    for (const [id, message] of [
      [' toolu_1', 'no spaces at its start: " toolu_1" would be another name than "toolu_1"'],
      ['\u200btoolu_1', 'no invisible characters at its start: "\\u200btoolu_1" would be another name than "toolu_1"'],
      ['\ufe0ftoolu_1', 'no invisible characters at its start: "\\ufe0ftoolu_1" would be another name than "toolu_1"'],
      ['\u200b \u200b', 'must not be empty or invisible characters alone: "\\u200b \\u200b"'],
    ]) {
      const r = await call('POST', HOOK, { ...payload, tool_use_id: id })
      expect(r.status, JSON.stringify(id)).toBe(400)
      expect(r.body.error.issues).toEqual([{ path: 'tool_use_id', message }])
    }
    expect(await observationsOf(store)).toEqual([])
    // What the hook stores, POST /v1/observations takes again as the same answer (README's replay of an export).
    expect((await call('POST', HOOK, { ...payload, tool_use_id: 'toolu_1' })).status).toBe(200)
    const [stored] = await observationsOf(store)
    const again = await call('POST', '/v1/observations', { decision_id: stored?.decision_id, question: stored?.question, all_options: ['a', 'b'], user_choice: 'a' })
    expect(again.body).toEqual({ stored: [], duplicates: [stored?.decision_id] })
  })

  it('takes a tool_use_id exactly when the decision_ids it starts are taken, for every UTF-16 unit at its start, its end and alone', () => {
    const toolUseId = ClaudeCodeHookPayloadSchema.shape.tool_use_id
    for (let unit = 0; unit <= 0xffff; unit++) {
      if (unit >= 0xd800 && unit <= 0xdfff) continue
      const c = String.fromCharCode(unit)
      for (const id of [`toolu_1${c}`, `${c}toolu_1`, c]) {
        if (toolUseId.safeParse(id).success !== DecisionIdSchema.safeParse(hookDecisionId(id, 'Which DB?')).success) expect.fail(`${JSON.stringify(id)}: the hook and POST /v1/observations differ`)
      }
    }
  })

  it('takes a tool_use_id spaced or invisible at its end, as POST /v1/observations takes the decision_id it makes, and the re-send counts it once', async () => {
    const { call, store } = await createTestApp()
    const payload = claudeCodeFixture('post-tool-use-single') as Record<string, unknown>
    for (const id of ['toolu_1 ', 'toolu_2\u200b', 'toolu_3\t']) {
      const r = await call('POST', HOOK, { ...payload, tool_use_id: id })
      expect(r.status, JSON.stringify(id)).toBe(200)
    }
    const stored = await observationsOf(store)
    expect(stored.map((o) => o.decision_id?.replace(/#[0-9a-f]{16}$/, ''))).toEqual(['toolu_1 ', 'toolu_2\u200b', 'toolu_3\t'])
    for (const o of stored) {
      const again = await call('POST', '/v1/observations', { decision_id: o.decision_id, question: o.question, all_options: ['a', 'b'], user_choice: 'a' })
      expect(again.body, JSON.stringify(o.decision_id)).toEqual({ stored: [], duplicates: [o.decision_id] })
    }
  })
})

describe('cwd as the project', () => {
  it('keeps a project the API would accept, whatever the cwd: no control character, lone surrogate or leading "!", NFC', async () => {
    const { call, store } = await createTestApp()
    const payload = claudeCodeFixture('post-tool-use-single') as Record<string, unknown>
    // A folder may end in a space, or another white space trim() takes (a no-break space): a
    // project written so is refused by the routes that write, which the MCP server's tools call.
    const cwds = ['/home/dev/a\u0000b', '!bang', '/home/dev/x\ud800', '/home/dev/Cafe\u0301', '/home/dev/acme ', '/home/dev/acme\u00a0']
    for (const [i, cwd] of cwds.entries()) {
      const r = await call('POST', HOOK, { ...payload, cwd, tool_use_id: `toolu_cwd_${i}` })
      expect(r.status).toBe(200)
    }
    const projects = (await observationsOf(store)).map((o) => o.project as string)
    expect(projects).toHaveLength(cwds.length)
    for (const project of projects) {
      // What POST /v1/recommendations would take as `project`, so the agent can ask about it.
      const r = await call('POST', '/v1/recommendations', { project, question: TIER_QUESTION, all_options: TIER_OPTIONS })
      expect(r.status, JSON.stringify(project)).toBe(200)
    }
    // Two cwds that differ only where a store key cannot tell them apart stay two projects.
    expect(new Set(projects).size).toBe(cwds.length)
    expect(projects).toContain('/home/dev/Café')
  })
})

describe('a refused hook payload names the field as the payload and query have it (R-SVC-2)', () => {
  const FUTURE = '2026-07-01T11:00:00.000Z'
  const question = (question: string, labels: string[]) => ({
    question,
    header: 'H',
    options: labels.map((label) => ({ label, description: '' })),
    multiSelect: false,
  })

  it('`at` in the future is named `at`, for PostToolUse and SessionStart alike', async () => {
    const { call, store } = await createTestApp()
    const post = await call('POST', `${HOOK}?at=${FUTURE}`, {
      hook_event_name: 'PostToolUse', tool_name: 'AskUserQuestion', tool_use_id: 'toolu_future',
      tool_input: { questions: [question('Q1?', ['a', 'b'])] }, tool_response: { answers: { 'Q1?': 'a' } },
    })
    expect(post.status).toBe(400)
    expect(post.body.error.code).toBe('timestamp_in_future')
    expect(post.body.error.issues.map((i: any) => i.path)).toEqual(['at'])
    const start = await call('POST', `${HOOK}?at=${FUTURE}`, { hook_event_name: 'SessionStart', session_id: 's-future' })
    expect(start.status).toBe(400)
    expect(start.body.error.issues.map((i: any) => i.path)).toEqual(['at'])
    expect(await observationsOf(store)).toEqual([])
  })

  it('two options that are one label are named where they are in tool_input, for the question answered', async () => {
    const { call, store } = await createTestApp()
    const { status, body } = await call('POST', HOOK, {
      hook_event_name: 'PostToolUse', tool_name: 'AskUserQuestion', tool_use_id: 'toolu_dup',
      tool_input: { questions: [question('Q0?', ['x', 'y']), question('Q1?', ['a', 'b', 'a (Recommended)'])] },
      tool_response: { answers: { 'Q1?': 'a' } },
    })
    expect(status).toBe(400)
    expect(body.error.code).toBe('duplicate_option')
    expect(body.error.issues.map((i: any) => i.path)).toEqual(['tool_input.questions.1.options.2'])
    expect(await observationsOf(store)).toEqual([])
    const pre = await call('POST', HOOK, {
      hook_event_name: 'PreToolUse', tool_name: 'AskUserQuestion', tool_use_id: 'toolu_dup2',
      tool_input: { questions: [question('Q0?', ['x', 'y']), question('Q1?', ['a', 'b', 'a (Recommended)'])] },
    })
    // At PreToolUse that question is left as written, named so, and the other planned.
    expect(pre.status).toBe(200)
    expect(pre.body.hookSpecificOutput.permissionDecisionReason).toContain('"Q1?" (tool_input.questions.1.options.2: options 0 and 2 are both "a")')
  })
})

describe('a refused hook payload says in its message the fields its issues name (R-SVC-2)', () => {
  const FUTURE = '2026-07-01T11:00:00.000Z'
  /** Every field path the message names, in the internal spelling or the payload's. */
  const internal = /\b(?:\d+\.)?(?:timestamp|started_at|all_options|user_choice)\b|(?<![\w.])questions\.\d/

  it('a duplicate option in the multi-question fixture: message and issue name tool_response.questions.1.options.3', async () => {
    const { call, store } = await createTestApp()
    const payload = claudeCodeFixture('post-tool-use-multi')
    payload.tool_response.questions[1].options.push({ label: 'Unit tests (Recommended)', description: 'again' })
    // The call's other answer is recorded, and the question refused said in the same words.
    const skipped = await call('POST', HOOK, payload)
    expect(skipped.status).toBe(200)
    expect(skipped.body.systemMessage).toContain('(tool_response.questions.1.options.3: options 1 and 3 are both "Unit tests")')
    expect(skipped.body.systemMessage).not.toMatch(internal)
    expect(await observationsOf(store)).toHaveLength(1)
    // No other answer: refused, as a call none of whose questions can be taken.
    payload.tool_use_id = 'toolu_dup_only'
    payload.tool_response.answers = { 'Which checks should run before the PR?': 'Unit tests' }
    payload.tool_input.answers = {}
    const { status, body } = await call('POST', HOOK, payload)
    expect(status).toBe(400)
    expect(body.error.code).toBe('duplicate_option')
    expect(body.error.issues).toEqual([
      { path: 'tool_response.questions.1.options.3', message: 'duplicate of tool_response.questions.1.options.1 after normalisation' },
    ])
    expect(body.error.message).toBe('tool_response.questions.1.options.3: options 1 and 3 are both "Unit tests"')
    expect(await observationsOf(store)).toHaveLength(1)
  })

  it('the same duplicate at PreToolUse: the reason names tool_input.questions.0, the question left as written', async () => {
    const { call } = await createTestApp()
    const payload = claudeCodeFixture('pre-tool-use')
    payload.tool_input.questions[0].options.push({ ...payload.tool_input.questions[0].options[0] })
    payload.tool_input.questions.push(METHOD_QUESTION)
    const { status, body } = await call('POST', HOOK, payload)
    expect(status).toBe(200)
    const reason = body.hookSpecificOutput.permissionDecisionReason
    expect(reason).toContain(`"${TIER_QUESTION}" (tool_input.questions.0.options.3: options 0 and 3 are both "Tier S")`)
    expect(reason).not.toMatch(internal)
    expect(body.hookSpecificOutput.updatedInput.questions[0]).toEqual(payload.tool_input.questions[0])
  })

  it('`at` in the future, for the multi-question fixture and SessionStart: the message names `at`', async () => {
    const { call } = await createTestApp()
    for (const name of ['post-tool-use-multi', 'session-start']) {
      const { status, body } = await call('POST', `${HOOK}?at=${FUTURE}`, claudeCodeFixture(name))
      expect(status).toBe(400)
      expect(body.error.issues.map((i: any) => i.path)).toEqual(['at'])
      expect(body.error.message).toBe(`at ${FUTURE} is in the future: more than 5 minutes ahead of the service clock (${START})`)
    }
  })
})

describe("POST /v1/hooks/claude-code: the session's own choice (R-MEM-5, R-ASK-2)", () => {
  const METHOD = { question: METHOD_QUESTION.question, header: METHOD_QUESTION.header, all_options: ['TDD', 'DDD'] }
  const SESSION = 'session-own-choice'
  /** A PreToolUse of the session asking the tier and the methodology at once. */
  const askBoth = (id: string) => {
    const payload = claudeCodeFixture('pre-tool-use')
    payload.tool_input.questions.push(METHOD_QUESTION)
    return { ...payload, session_id: SESSION, tool_use_id: id }
  }
  /**
   * Its PostToolUse as Claude Code sends it under -p: the questions the PreToolUse left in the
   * picker (its updatedInput), and `answers` keyed by question text, those it gave kept in them.
   */
  const answered = (id: string, shown: { questions: unknown[] }, answers: Record<string, string>) => {
    const payload = claudeCodeFixture('post-tool-use-single')
    for (const where of [payload.tool_input, payload.tool_response]) Object.assign(where, { questions: shown.questions, answers })
    return { ...payload, session_id: SESSION, tool_use_id: id }
  }

  it("counts no answer it gave itself as the session's, asks the tier the session chose otherwise, and answers it again once the session agrees", async () => {
    const { call, clock, store } = await createTestApp()
    expect((await call('POST', '/v1/observations', [...pastChoices(25, 'Tier M', TIER), ...pastChoices(25, 'TDD', METHOD).map((o) => ({ ...o, decision_id: `m-${o.decision_id}` }))])).status).toBe(201)
    const tierInSession = async () => (await call('POST', '/v1/recommendations', { ...TIER, project: FIXTURE_PROJECT, session_id: SESSION })).body

    // Both answered for the user; the PostToolUse carries those answers back: copies, not the user's.
    const first = (await call('POST', HOOK, askBoth('toolu_own_1'))).body.hookSpecificOutput
    expect(first).toMatchObject({ permissionDecision: 'allow' })
    const given = first.updatedInput.answers as Record<string, string>
    expect(Object.keys(given).sort()).toEqual([METHOD_QUESTION.question, TIER_QUESTION].sort())
    clock.advance(60_000)
    expect((await call('POST', HOOK, answered('toolu_own_1', first.updatedInput, given))).body).toEqual({})
    expect((await observationsOf(store)).filter((o) => o.session_id === SESSION).map((o) => o.source)).toEqual(['auto-resolved', 'auto-resolved'])
    expect(await tierInSession()).toMatchObject({ ask: false, layers: { session: { observations: 0 } } })

    // Answered for the user again, but Claude Code asked them after all (another hook said ask): they chose Tier S.
    clock.advance(60_000)
    const second = (await call('POST', HOOK, askBoth('toolu_own_2'))).body.hookSpecificOutput
    expect(second.permissionDecision).toBe('allow')
    clock.advance(60_000)
    expect((await call('POST', HOOK, answered('toolu_own_2', second.updatedInput, { ...second.updatedInput.answers, [TIER_QUESTION]: 'Tier S' }))).body).toEqual({})
    expect(await tierInSession()).toMatchObject({ recommended: 'Tier M', ask: true, layers: { session: { observations: 1, majority: 'Tier S' } } })

    // The next call of the session asks the tier alone, the methodology still answered for them.
    clock.advance(60_000)
    const third = (await call('POST', HOOK, askBoth('toolu_own_3'))).body.hookSpecificOutput
    expect(third.permissionDecision).toBe('ask')
    expect(third.updatedInput.questions.map((q: { question: string }) => q.question)).toEqual([TIER_QUESTION])
    expect(Object.keys(third.updatedInput.answers)).toEqual([METHOD_QUESTION.question])
    const shown = third.updatedInput.questions[0].options[0].label as string
    expect(shown).toMatch(/^Tier M /)
    // The user picks Tier M as shown: the session agrees, and the next call answers both again.
    clock.advance(60_000)
    expect((await call('POST', HOOK, answered('toolu_own_3', third.updatedInput, { ...third.updatedInput.answers, [TIER_QUESTION]: shown }))).body).toEqual({})
    expect(await tierInSession()).toMatchObject({ ask: false })
    clock.advance(60_000)
    const fourth = (await call('POST', HOOK, askBoth('toolu_own_4'))).body.hookSpecificOutput
    expect(fourth.permissionDecision).toBe('allow')
    expect(Object.keys(fourth.updatedInput.answers).sort()).toEqual([METHOD_QUESTION.question, TIER_QUESTION].sort())
    const own = (await observationsOf(store)).filter((o) => o.session_id === SESSION && o.source === 'user')
    expect(own.map((o) => [o.point, o.chosen])).toEqual([
      ['complexity-tier', ['Tier S']],
      ['complexity-tier', ['Tier M']],
    ])
  })
})
