import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { BIN_PATH, shellWord } from '../config/bin-path'
import { guard } from '../cli/guard'
import type { MemoryStore } from '../memory/store'
import { createTestApp } from '../../test/support/test-app'

/**
 * What Claude Code 2.1.332 sent our hooks and what they printed, captured by
 * scripts/claude-code-e2e.ts (test/fixtures/claude-code-2.1.332/README.md): each payload is sent
 * to the hook route again as `decision-memory hook` sent it, with the history the scenario began
 * with, and the answer must be what Claude Code got (and took), but for the divergences DIVERGENCES
 * states, the observations what was stored. The fixtures are as captured and never edited: a
 * change of wording since is stated here, not written into them.
 */
const FIXTURES = fileURLToPath(new URL('../../test/fixtures/claude-code-2.1.332/', import.meta.url))
const HOOK = '/v1/hooks/claude-code'

interface Scenario {
  user: string
  project: string
  service_url: string
}

interface Stored {
  type: 'observation' | 'session'
  data: Record<string, any>
}

function read(scenario: string, file: string): string {
  return readFileSync(join(FIXTURES, scenario, file), 'utf8')
}

/** The scenario's hook calls in the order Claude Code made them: `01-SessionStart`, … */
function hookCalls(scenario: string): string[] {
  return readdirSync(join(FIXTURES, scenario))
    .filter((f) => f.endsWith('.stdin.json'))
    .sort()
    .map((f) => f.replace(/\.stdin\.json$/, ''))
}

function storedOf(scenario: string): Stored[] {
  return read(scenario, 'stored.ndjson')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Stored)
}

/** The scenarios of the hooks (the `mcp-` ones are the MCP server's). */
function hookScenarios(): string[] {
  return readdirSync(FIXTURES).filter((f) => !f.startsWith('mcp-') && statSync(join(FIXTURES, f)).isDirectory())
}

/**
 * What our hooks print now that they did not print to Claude Code 2.1.332 when these scenarios were
 * captured (96e87ce, 2624b12, f9bc7ce), each on purpose. The recording stays what Claude Code sent
 * and got; a captured stdout at `where` (`scenario/call`) is read through `captured` → `now` (every
 * match: a RegExp must be global) before it is compared. An entry that no longer changes anything fails
 * the test: when the wording changes again, say so here, or capture again with
 * scripts/claude-code-e2e.ts and empty the table.
 */
interface Divergence {
  why: string
  where: RegExp
  captured: string | RegExp
  now: string
}

const DIVERGENCES: Divergence[] = [
  {
    why: 'e48c9d8: a window precondition reads after "Recommended when", as a sentence the user can find false',
    where: /\/02-PreToolUse$/,
    captured: /any context, as chosen from (\d{4}-\d\d-\d\d) to (\d{4}-\d\d-\d\d)/g,
    now: 'your choices from $1 to $2 still hold',
  },
]

/** What a hook call printed then (its stdout, captured), read through DIVERGENCES; the entries that changed it go in `used`. */
function printedThen(scenario: string, call: string, used = new Set<Divergence>()): string {
  let text = read(scenario, `${call}.stdout.txt`)
  for (const d of DIVERGENCES) {
    if (!d.where.test(`${scenario}/${call}`)) continue
    const next = text.replaceAll(d.captured, d.now)
    if (next !== text) used.add(d)
    text = next
  }
  return text
}

/** The command printed to be asked again names the checkout it runs from: this one, here. */
function withThisCheckout(text: string): string {
  return text.replace(/node \S*\/bin\/decision-memory\.js/g, `node ${shellWord(BIN_PATH)}`)
}

async function observationsOf(store: MemoryStore, user: string) {
  const out = []
  for await (const o of store.observationsOf(user)) out.push(o)
  return out
}

/**
 * Replays a scenario: its history (seed.json) and each hook call at the moment the service took
 * it (the stored observations' and session's times), each answer compared with what the hook
 * printed then (an empty stdout is `{}`, which the hook does not print).
 */
async function replay(name: string) {
  const scenario = JSON.parse(read(name, 'scenario.json')) as Scenario
  const stored = storedOf(name)
  const { app, answers } = await replayed(name, (call, body) => {
    const printed = printedThen(name, call)
    expect(JSON.stringify(body), call).toBe(printed === '' ? '{}' : withThisCheckout(printed.trimEnd()))
  })
  const observations = await observationsOf(app.store, scenario.user)
  const fromHooks = observations.filter((o) => !o.decision_id?.startsWith('seed-'))
  const fields = (o: Record<string, any>) => ({
    decision_id: o.decision_id,
    point: o.point,
    question: o.question,
    options: o.options,
    chosen: o.chosen,
    other: o.other,
    multi_select: o.multi_select,
    source: o.source,
    session_id: o.session_id,
    project: o.project,
  })
  const expected = stored.filter((s) => s.type === 'observation').map((s) => fields(s.data))
  expect(fromHooks.map(fields).sort((a, b) => String(a.decision_id).localeCompare(String(b.decision_id)))).toEqual(
    expected.sort((a, b) => String(a.decision_id).localeCompare(String(b.decision_id))),
  )
  return { answers, observations: fromHooks }
}

/**
 * A scenario's hook calls sent as replay sends them, from the history it began with, each payload
 * as `edit` leaves it (one Claude Code could have sent otherwise), each answer handed to `answered`.
 */
async function replayed(name: string, answered?: (call: string, body: unknown) => void, edit?: (call: string, payload: any) => void) {
  const scenario = JSON.parse(read(name, 'scenario.json')) as Scenario
  const stored = storedOf(name)
  const autoResolved = stored.find((s) => s.type === 'observation' && s.data.source === 'auto-resolved')
  const session = stored.find((s) => s.type === 'session')
  const now = (autoResolved?.data.recorded_at ?? session?.data.started_at) as string
  const app = await createTestApp({ now })
  if (existsSync(join(FIXTURES, name, 'seed.json'))) {
    const seeded = await app.call('POST', '/v1/observations', JSON.parse(read(name, 'seed.json')))
    expect(seeded.status).toBe(201)
  }
  const answers: Record<string, unknown> = {}
  for (const call of hookCalls(name)) {
    const payload = JSON.parse(read(name, `${call}.stdin.json`))
    edit?.(call, payload)
    // As `decision-memory hook` sends it: the repository root as the project; with a PreToolUse,
    // the cwd's place in it and the service's address, which was not the default.
    const query = new URLSearchParams({ user: scenario.user, project: scenario.project })
    if (payload.hook_event_name === 'PreToolUse') {
      query.set('path', '.')
      query.set('service_url', scenario.service_url)
    }
    const { status, body } = await app.call('POST', `${HOOK}?${query}`, payload)
    expect(status, call).toBe(200)
    answered?.(call, body)
    answers[call] = body
  }
  return { app, answers }
}

describe('Claude Code 2.1.332, its payloads replayed through the hook route', () => {
  it('states no divergence that no longer is one', () => {
    const used = new Set<Divergence>()
    for (const name of hookScenarios()) for (const call of hookCalls(name)) printedThen(name, call, used)
    expect(DIVERGENCES.filter((d) => !used.has(d)).map((d) => d.why)).toEqual([])
  })

  it('plain -p: AskUserQuestion is disabled, only SessionStart reaches the hook, and the model is told so', async () => {
    expect(hookCalls('0-print-mode')).toEqual(['01-SessionStart'])
    expect(read('0-print-mode', 'tool-result.txt')).toContain('No such tool available: AskUserQuestion')
    const { observations } = await replay('0-print-mode')
    expect(observations).toEqual([])
  })

  it('a question with no history: asked with the static default first, and the answer picked recorded as the user’s', async () => {
    const { answers, observations } = await replay('1-single-no-history')
    expect(answers['02-PreToolUse']).toMatchObject({ hookSpecificOutput: { permissionDecision: 'ask' } })
    // The picker Claude Code showed (its can_use_tool request) is our updatedInput, re-ordered and labelled.
    const picker = JSON.parse(read('1-single-no-history', 'can-use-tool.json'))
    expect(picker.request.input).toEqual((answers['02-PreToolUse'] as any).hookSpecificOutput.updatedInput)
    expect(observations.map((o) => [o.source, o.chosen])).toEqual([['user', ['Tier L']]])
  })

  it('history that auto-resolves: Claude Code takes the allow with its answers, and the PostToolUse copy stays a duplicate', async () => {
    const { answers, observations } = await replay('2-single-auto-resolved')
    expect(answers['02-PreToolUse']).toMatchObject({ hookSpecificOutput: { permissionDecision: 'allow' } })
    expect(existsSync(join(FIXTURES, '2-single-auto-resolved', 'can-use-tool.json'))).toBe(false)
    expect(read('2-single-auto-resolved', 'tool-result.txt')).toBe(
      'Your questions have been answered: "Which complexity tier should this SPEC use?"="Tier M (Recommended)". You can now continue with these answers in mind.',
    )
    expect(observations.map((o) => [o.source, o.chosen])).toEqual([['auto-resolved', ['Tier M']]])
  })

  it('a multi-select answer given for the user, labels holding ", " and a double quote: joined as Claude Code reads it back', async () => {
    const { answers, observations } = await replay('3-multi-auto-resolved')
    const given = (answers['02-PreToolUse'] as any).hookSpecificOutput.updatedInput.answers['Which checks should run before the PR?']
    expect(given).toBe('"Lint, format (Recommended)", "Unit \\"fast\\" tests (Recommended)"')
    // Claude Code's tool_result says "Your questions have been answered" only for an answer whose
    // labels it read back, each one of the options shown, and rejoined to the same text.
    expect(read('3-multi-auto-resolved', 'tool-result.txt')).toBe(
      `Your questions have been answered: "Which checks should run before the PR?"="${given}". You can now continue with these answers in mind.`,
    )
    const post = JSON.parse(read('3-multi-auto-resolved', '03-PostToolUse.stdin.json'))
    expect(post.tool_response.answers['Which checks should run before the PR?']).toBe(given)
    expect(observations.map((o) => [o.source, o.chosen])).toEqual([['auto-resolved', ['Lint, format', 'Unit "fast" tests']]])
  })

  it('a multi-select answer the user gave as an array of labels: Claude Code passes the array on, read as those labels', async () => {
    const post = JSON.parse(read('4-multi-asked-array', '03-PostToolUse.stdin.json'))
    expect(post.tool_response.answers['Which checks should run before the PR?']).toEqual(['Lint, format (Recommended)', 'Unit "fast" tests'])
    const { observations } = await replay('4-multi-asked-array')
    expect(observations.map((o) => [o.source, o.chosen, o.other])).toEqual([['user', ['Lint, format', 'Unit "fast" tests'], null]])
  })

  it('a multi-select answer joined as Claude Code joins it, quoted labels and all: read as those labels', async () => {
    const { observations } = await replay('5-multi-asked-joined')
    expect(observations.map((o) => [o.source, o.chosen, o.other])).toEqual([['user', ['Lint, format', 'Unit "fast" tests'], null]])
  })

  it('one question answered for the user, one asked: the answer given stays out of the picker and the PostToolUse', async () => {
    const { answers, observations } = await replay('6-one-answered-one-asked')
    const output = (answers['02-PreToolUse'] as any).hookSpecificOutput
    expect(output.permissionDecision).toBe('ask')
    expect(output.updatedInput.questions.map((q: { question: string }) => q.question)).toEqual(['Which development methodology for this change?'])
    // The tool_result names only the question asked; the agent learns the other from additionalContext.
    expect(read('6-one-answered-one-asked', 'tool-result.txt')).not.toContain('Which complexity tier')
    expect(output.additionalContext).toContain('Which complexity tier should this SPEC use?')
    expect(observations.map((o) => [o.point, o.source, o.chosen]).sort()).toEqual([
      ['complexity-tier', 'auto-resolved', ['Tier M']],
      ['development-methodology', 'user', ['DDD']],
    ])
  })

  it('one question answered for the user, the one asked given no answer by the host: the answer given is said to be no stray key', async () => {
    // The host (--permission-prompt-tool) answers nothing for the question asked: that question has
    // no key, and the answer this service gave at PreToolUse, recorded then, is the only key left.
    const METHOD = 'Which development methodology for this change?'
    const { app, answers } = await replayed('6-one-answered-one-asked', undefined, (call, payload) => {
      if (call === '03-PostToolUse') for (const where of [payload.tool_input, payload.tool_response]) delete where.answers[METHOD]
    })
    expect(answers['03-PostToolUse']).toEqual({})
    const observations = await observationsOf(app.store, 'cc-6')
    expect(observations.filter((o) => !o.decision_id?.startsWith('seed-')).map((o) => [o.point, o.source])).toEqual([['complexity-tier', 'auto-resolved']])
  })

  it('a question the service cannot take beside one it can: left as written, its answer skipped, said in a systemMessage Claude Code shows', async () => {
    const { answers, observations } = await replay('12-one-question-refused')
    expect((answers['03-PostToolUse'] as any).systemMessage).toContain('did not record the answer to a question it could not take')
    expect(observations.map((o) => [o.point, o.source, o.chosen])).toEqual([['development-methodology', 'user', ['TDD']]])
  })

  it('multiSelect left out by the model: Claude Code sends it as false, and a label holding ", " stays one choice', async () => {
    const pre = JSON.parse(read('7-fields-left-out', '02-PreToolUse.stdin.json'))
    expect(pre.tool_input.questions[0].multiSelect).toBe(false)
    const { observations } = await replay('7-fields-left-out')
    expect(observations.map((o) => [o.source, o.chosen, o.multi_select])).toEqual([['user', ['Yes, ship it'], false]])
  })
})

describe('Claude Code 2.1.332 in a terminal, its own picker', () => {
  it('two labels ticked, one holding ", " and one a double quote: joined as JSON strings, read as those labels', async () => {
    const post = JSON.parse(read('8-tty-multi-asked', '03-PostToolUse.stdin.json'))
    expect(post.permission_mode).toBe('auto')
    expect(post.tool_response.annotations).toEqual({})
    expect(post.tool_response.answers['Which checks should run before the PR?']).toBe('"Lint, format (Recommended)", "Unit \\"fast\\" tests"')
    const { observations } = await replay('8-tty-multi-asked')
    expect(observations.map((o) => [o.source, o.chosen, o.other])).toEqual([['user', ['Lint, format', 'Unit "fast" tests'], null]])
    // The review screen before Submit shows the reason of our `ask`.
    expect(read('8-tty-multi-asked', 'screen.txt').replace(/[\r│]/g, '')).toContain('requires confirmation for this tool:decision-memory put first the usual default')
  })

  it('history that auto-resolves: no picker, our systemMessage shown, the answer recorded once as auto-resolved', async () => {
    const { answers, observations } = await replay('9-tty-single-auto-resolved')
    expect(read('9-tty-single-auto-resolved', 'screen.txt')).not.toContain('Enter to select')
    expect(read('9-tty-single-auto-resolved', 'screen.txt')).toContain('PreToolUse:AskUserQuestion says: decision-memory answered for you')
    expect((answers['02-PreToolUse'] as any).hookSpecificOutput.permissionDecision).toBe('allow')
    expect(observations.map((o) => [o.source, o.chosen])).toEqual([['auto-resolved', ['Tier M']]])
  })

  it('one question answered for the user, one asked: the picker drops the answer given from the tool’s answers, recorded all the same', async () => {
    const post = JSON.parse(read('10-tty-one-answered-one-asked', '03-PostToolUse.stdin.json'))
    expect(post.tool_response.answers).toEqual({ 'Which development methodology for this change?': 'DDD' })
    const { observations } = await replay('10-tty-one-answered-one-asked')
    expect(observations.map((o) => [o.point, o.source, o.chosen]).sort()).toEqual([
      ['complexity-tier', 'auto-resolved', ['Tier M']],
      ['development-methodology', 'user', ['DDD']],
    ])
  })
})

describe('Claude Code 2.1.332 and the guard (install-hooks --guard)', () => {
  it('a force push a required decision forbids: denied, and the model told why', async () => {
    const name = '11-guard-force-push'
    expect(hookCalls(name)).toEqual(['01-SessionStart', '02-PreToolUse'])
    const app = await createTestApp()
    expect((await app.call('POST', '/v1/decisions', JSON.parse(read(name, 'decision.json')))).status).toBe(201)
    const fetch = (async (input: string, init?: RequestInit) => app.app.request(input, init)) as unknown as typeof globalThis.fetch
    const out = await guard({ payload: read(name, '02-PreToolUse.stdin.json'), url: 'http://decision-memory.test', failClosed: false, timeoutMs: 1000, fetch })
    expect(out.stdout).toBe(printedThen(name, '02-PreToolUse'))
    const reason = JSON.parse(out.stdout).hookSpecificOutput.permissionDecisionReason
    // Claude Code hands the deny's reason to the model as the tool's result, and runs nothing.
    expect(read(name, 'tool-result.txt')).toBe(`PreToolUse:Bash hook error: ${reason}`)
  })
})
