import { describe, expect, it } from 'vitest'
import type { MemoryStore } from '../memory/store'
import { claudeCodeFixture } from '../../test/support/fixtures'
import { createTestApp, START } from '../../test/support/test-app'

// README, "What the PreToolUse answer does": claims checked through the hook route as Claude Code sends it.

const HOOK = '/v1/hooks/claude-code'
const TIER_QUESTION = 'Which complexity tier should this SPEC use?'
const FIXTURE_PROJECT = '/home/dev/acme-api'

async function observationsOf(store: MemoryStore, user = 'default') {
  const out = []
  for await (const o of store.observationsOf(user)) out.push(o)
  return out
}

/** An app where the fixture's tier question is auto-resolved to Tier M: 30 past choices of it in the fixture's project. */
async function tierMApp() {
  const app = await createTestApp()
  const past = Array.from({ length: 30 }, (_, i) => ({
    project: FIXTURE_PROJECT,
    question: TIER_QUESTION,
    header: 'Tier',
    all_options: ['Tier S', 'Tier M', 'Tier L'],
    user_choice: 'Tier M',
    decision_id: `past-${i}`,
    timestamp: START,
  }))
  expect((await app.call('POST', '/v1/observations', past)).status).toBe(201)
  return app
}

/** The PostToolUse of the fixture's call with `answer` as the user's (or the hook's) answer. */
function postWith(toolUseId: string, answer: string) {
  const post = { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: toolUseId }
  for (const where of [post.tool_input, post.tool_response]) where.answers = { [TIER_QUESTION]: answer }
  return post
}

describe('README: every question auto-resolves', () => {
  it('answers allow with the answers keyed by question text, the reason also the systemMessage, ending in a toggle command for the hook\'s user', async () => {
    const { call } = await tierMApp()
    const { status, body } = await call('POST', HOOK, claudeCodeFixture('pre-tool-use'))
    expect(status).toBe(200)
    const out = body.hookSpecificOutput
    expect(out.permissionDecision).toBe('allow')
    expect(out.updatedInput.answers).toEqual({ [TIER_QUESTION]: 'Tier M (Recommended)' })
    expect(body.systemMessage).toBe(out.permissionDecisionReason)
    expect(body.systemMessage).toMatch(/toggle --session 7c1f2a9e-3b4d-4e5f-8a6b-1c2d3e4f5a6b --user default --off$/)
    expect(body.systemMessage).not.toContain('DECISION_MEMORY_URL=')
  })

  it('puts DECISION_MEMORY_URL with the origin of ?service_url= before the command, no path, user or password', async () => {
    const { call } = await tierMApp()
    const { body } = await call('POST', `${HOOK}?service_url=${encodeURIComponent('http://me:pw@127.0.0.1:7421/v1/')}`, claudeCodeFixture('pre-tool-use'))
    expect(body.systemMessage).toContain('To be asked again in this session: DECISION_MEMORY_URL=http://127.0.0.1:7421 node ')
    expect(body.systemMessage).not.toContain('pw')
  })

  it('records the answer it gave as auto-resolved under the PostToolUse copy\'s decision_id, so that copy is a duplicate; another answer is the user\'s, once', async () => {
    const { call, store } = await tierMApp()
    const before = (await observationsOf(store)).length
    await call('POST', HOOK, claudeCodeFixture('pre-tool-use'))
    const [auto] = (await observationsOf(store)).slice(before)
    expect(auto).toMatchObject({ source: 'auto-resolved', chosen: ['Tier M'] })
    expect(auto?.decision_id).toMatch(/^toolu_01QxAmPLe0003PreAsk#[0-9a-f]{16}$/)
    // The PostToolUse copy of the same answer: a duplicate, nothing stored.
    expect((await call('POST', HOOK, postWith('toolu_01QxAmPLe0003PreAsk', 'Tier M (Recommended)'))).status).toBe(200)
    expect((await observationsOf(store)).length).toBe(before + 1)
    // Asked after all and answered otherwise: the user's, under an id of its own, however often sent.
    for (let i = 0; i < 2; i++) expect((await call('POST', HOOK, postWith('toolu_01QxAmPLe0003PreAsk', 'Tier S'))).status).toBe(200)
    const added = (await observationsOf(store)).slice(before + 1)
    expect(added).toHaveLength(1)
    expect(added[0]).toMatchObject({ source: 'user', chosen: ['Tier S'] })
    expect(added[0]?.decision_id).not.toBe(auto?.decision_id)
  })
})

describe('README: a question asking for text', () => {
  const NAME = { question: 'What should the service be called?', header: 'Name', kind: 'text' }

  it('alone is left as it is ({}); beside an auto-resolved choice question it keeps its place and the answer is ask', async () => {
    const { call } = await tierMApp()
    const alone = claudeCodeFixture('pre-tool-use')
    alone.tool_input.questions = [NAME]
    expect(await call('POST', HOOK, alone)).toEqual({ status: 200, body: {} })
    const both = { ...claudeCodeFixture('pre-tool-use'), tool_use_id: 'toolu_both' }
    both.tool_input.questions = [NAME, both.tool_input.questions[0]]
    const out = (await call('POST', HOOK, both)).body.hookSpecificOutput
    expect(out.permissionDecision).toBe('ask')
    expect(out.updatedInput.questions).toEqual([NAME])
    expect(out.updatedInput.answers).toEqual({ [TIER_QUESTION]: 'Tier M (Recommended)' })
  })

  it('of the same text as a choice question is refused 400, naming the later one by its place as sent', async () => {
    const { call, store } = await createTestApp()
    const pre = claudeCodeFixture('pre-tool-use')
    pre.tool_input.questions = [NAME, pre.tool_input.questions[0], { question: TIER_QUESTION, kind: 'text' }]
    const { status, body } = await call('POST', HOOK, pre)
    expect(status).toBe(400)
    expect(body.error.issues).toHaveLength(1)
    expect(body.error.issues[0].path).toBe('tool_input.questions.2.question')
    expect(body.error.issues[0].message).toMatch(/^the same text as question 1: /)
    expect(await observationsOf(store)).toEqual([])
  })
})

describe('README: answers the agent filled in', () => {
  it('keeps them: every question the service would answer answered already prints nothing; a blank one is replaced', async () => {
    const { call, store } = await tierMApp()
    const before = (await observationsOf(store)).length
    const filled = claudeCodeFixture('pre-tool-use')
    filled.tool_input.answers = { [TIER_QUESTION]: 'Tier L' }
    expect(await call('POST', HOOK, filled)).toEqual({ status: 200, body: {} })
    expect((await observationsOf(store)).length).toBe(before)
    const blank = { ...claudeCodeFixture('pre-tool-use'), tool_use_id: 'toolu_blank_answer' }
    blank.tool_input.answers = { [TIER_QUESTION]: ' \t' }
    const out = (await call('POST', HOOK, blank)).body.hookSpecificOutput
    expect(out.permissionDecision).toBe('allow')
    expect(out.updatedInput.answers).toEqual({ [TIER_QUESTION]: 'Tier M (Recommended)' })
  })

  it('refuses what is wrong with the call as a whole 400, naming its field: answers no object, more than 4 questions', async () => {
    const { call } = await createTestApp()
    const notObject = claudeCodeFixture('pre-tool-use')
    notObject.tool_input.answers = [1]
    const one = await call('POST', HOOK, notObject)
    expect(one.status).toBe(400)
    expect(one.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['tool_input.answers'])
    const five = claudeCodeFixture('pre-tool-use')
    five.tool_input.questions = Array.from({ length: 5 }, (_, i) => ({ ...five.tool_input.questions[0], question: `Q${i}?` }))
    const many = await call('POST', HOOK, five)
    expect(many.status).toBe(400)
    expect(many.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['tool_input.questions'])
  })
})
