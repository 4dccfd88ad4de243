import { existsSync, readdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CLAUDE_CODE_FIXTURES, claudeCodeFixture } from './support/fixtures'
import { closedPort, runCli, startService, type RunningService } from './support/processes'
import { tempDir } from './support/temp-dir'

/**
 * `decision-memory hook` as Claude Code runs it (R-CAP-5, R-CAP-6): a payload on stdin, its stdout
 * read as the hook's answer, its exit code as whether to block. Every shared fixture, the fields a
 * newer or older Claude Code adds or leaves out, the other events it could be installed on, and
 * the answers its picker gives; the agent is never blocked, whatever the service does.
 */

const running: RunningService[] = []
const servers: Server[] = []

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()))
  await Promise.all(servers.splice(0).map((s) => new Promise((closed) => s.close(closed))))
})

/** The generous budget of tests about what is delivered: a loaded machine may spend 2 s starting node. */
const GENEROUS = '20000'

function hook(payload: unknown, env: { url: string; spool: string; user: string }, budget = GENEROUS) {
  return runCli(['hook', '--budget', budget], {
    input: JSON.stringify(payload),
    env: { DECISION_MEMORY_URL: env.url, DECISION_MEMORY_SPOOL: env.spool, DECISION_MEMORY_USER: env.user },
  })
}

interface Stored {
  point: string
  chosen: string[]
  other: string | null
  source: string
  session_id: string | null
}

/** What the service holds of `user`: observations (as compared here) and session ids. */
async function held(url: string, user: string): Promise<{ observations: Stored[]; sessions: string[] }> {
  const lines = (await (await fetch(`${url}/v1/users/${user}/export`)).text()).split('\n').filter((l) => l !== '')
  const records = lines.map((l) => JSON.parse(l) as { type: string; data: any })
  const observations = records
    .filter((r) => r.type === 'observation')
    .map(({ data }) => ({ point: data.point, chosen: data.chosen, other: data.other, source: data.source, session_id: data.session_id }))
    .sort((a, b) => a.point.localeCompare(b.point))
  const sessions = records.filter((r) => r.type === 'session').map((r) => r.data.session_id as string)
  return { observations, sessions }
}

async function spooled(spool: string): Promise<string[]> {
  if (!existsSync(spool)) return []
  return (await readFile(spool, 'utf8')).split('\n').filter((l) => l !== '')
}

/** A server at DECISION_MEMORY_URL that answers every request with `status` and `body` (a proxy's page, a service in trouble). */
async function answering(status: number, body: string, type = 'application/json'): Promise<string> {
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => response.writeHead(status, { 'content-type': type }).end(body))
  })
  servers.push(server)
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const METHOD = 'Which development methodology for this change?'
const CHECKS = 'Which checks should run before the PR?'

/** The shared multi-question PostToolUse with `answers` (in tool_input and tool_response, as Claude Code mirrors them) and its own tool_use_id. */
function answered(answers: Record<string, unknown>, toolUseId: string): any {
  const payload = claudeCodeFixture('post-tool-use-multi')
  payload.tool_use_id = toolUseId
  payload.tool_input.answers = answers
  payload.tool_response.answers = answers
  return payload
}

/** A payload of another hook event Claude Code has, with the fields its hooks reference gives it. */
function otherEvent(hook_event_name: string, extra: Record<string, unknown> = {}) {
  const { session_id, transcript_path, cwd } = claudeCodeFixture('session-start')
  return { session_id: `${session_id}-${hook_event_name}`, transcript_path, cwd, permission_mode: 'default', hook_event_name, ...extra }
}

/** Events a settings file could run the hook on besides the three install-hooks adds, and other tools' events under a matcher for every tool. */
const OTHER_EVENTS: Array<[string, unknown]> = [
  ['UserPromptSubmit', otherEvent('UserPromptSubmit', { prompt: 'go' })],
  ['Stop', otherEvent('Stop', { stop_hook_active: false })],
  ['SubagentStop', otherEvent('SubagentStop', { stop_hook_active: false, agent_id: 'a-1', agent_type: 'general-purpose' })],
  ['Notification', otherEvent('Notification', { message: 'Claude needs your permission to use Bash' })],
  ['PreCompact', otherEvent('PreCompact', { trigger: 'manual', custom_instructions: '' })],
  ['SessionEnd', otherEvent('SessionEnd', { reason: 'prompt_input_exit' })],
  [
    'PostToolUseFailure of AskUserQuestion (the picker dismissed)',
    { ...otherEvent('PostToolUseFailure'), tool_name: 'AskUserQuestion', tool_input: claudeCodeFixture('pre-tool-use').tool_input, tool_use_id: 'toolu_failed', error: 'User rejected tool use', is_interrupt: true },
  ],
  ['PermissionRequest of AskUserQuestion', { ...claudeCodeFixture('pre-tool-use'), hook_event_name: 'PermissionRequest', session_id: 'perm-1' }],
  ['PostToolUse of Bash', { ...otherEvent('PostToolUse'), tool_name: 'Bash', tool_input: { command: 'cat .env' }, tool_response: { stdout: 'SECRET=1', stderr: '' }, tool_use_id: 'toolu_bash' }],
  ['PreToolUse of Bash', { ...claudeCodeFixture('pre-tool-use-bash'), session_id: 'bash-1' }],
]

describe('decision-memory hook as Claude Code runs it (R-CAP-5, R-CAP-6)', () => {
  it('prints for every shared fixture what POST /v1/hooks/claude-code answers, exits 0, and stores what the route stores', async () => {
    const dir = tempDir('dm-hook-client-')
    const service = await startService(join(dir, 'data'))
    running.push(service)
    const spool = join(dir, 'spool.ndjson')
    const fixtures = readdirSync(CLAUDE_CODE_FIXTURES).filter((f) => f.endsWith('.json')).sort()
    expect(fixtures).toEqual(['post-tool-use-multi.json', 'post-tool-use-single.json', 'pre-tool-use-bash.json', 'pre-tool-use.json', 'session-start.json'])
    // In the order Claude Code sends them: the session, the question before and after, the other tool.
    for (const name of ['session-start.json', 'pre-tool-use.json', 'post-tool-use-single.json', 'post-tool-use-multi.json', 'pre-tool-use-bash.json']) {
      const payload = claudeCodeFixture(name.replace(/\.json$/, ''))
      const route = await fetch(`${service.url}/v1/hooks/claude-code?user=by-route`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      })
      expect(route.status, name).toBe(200)
      const answer = await route.text()
      const run = await hook(payload, { url: service.url, spool, user: 'by-hook' })
      expect(run.code, name).toBe(0)
      // stdout is the route's answer, one line of JSON, or nothing where the route has nothing to say ({}).
      expect(run.stdout, name).toBe(answer === '{}' ? '' : `${answer}\n`)
      expect(run.stderr, name).toBe('')
    }
    expect(await spooled(spool)).toEqual([])
    const byRoute = await held(service.url, 'by-route')
    expect(await held(service.url, 'by-hook')).toEqual(byRoute)
    expect(byRoute.observations.map((o) => [o.point, o.chosen, o.source])).toEqual([
      ['complexity-tier', ['Tier M'], 'user'],
      ['development-methodology', ['TDD'], 'user'],
      [expect.stringMatching(/^q-/), ['Lint, format', 'Unit tests'], 'user'],
    ])
    expect(byRoute.sessions).toEqual([claudeCodeFixture('session-start').session_id])
  })

  it.each(OTHER_EVENTS)('run on %s: exits 0, prints nothing, sends and spools nothing, with the service up or down', async (_name, payload) => {
    const dir = tempDir('dm-hook-client-')
    const service = await startService(join(dir, 'data'))
    running.push(service)
    const spool = join(dir, 'spool.ndjson')
    const up = await hook(payload, { url: service.url, spool, user: 'other-events' })
    expect(up).toMatchObject({ code: 0, stdout: '', stderr: '' })
    expect(await held(service.url, 'other-events')).toEqual({ observations: [], sessions: [] })
    const down = await hook(payload, { url: `http://127.0.0.1:${await closedPort()}`, spool, user: 'other-events' }, '2000')
    expect(down).toMatchObject({ code: 0, stdout: '', stderr: '' })
    expect(await spooled(spool)).toEqual([])
    expect(existsSync(dirname(spool)) ? readdirSync(dirname(spool)).filter((f) => f.startsWith('spool')) : []).toEqual([])
  })

  it('records what the picker answers: free text, a multi-select with text of the user\'s own, an array of labels, and nothing for a question dismissed or left unanswered', async () => {
    const dir = tempDir('dm-hook-client-')
    const service = await startService(join(dir, 'data'))
    running.push(service)
    const env = { url: service.url, spool: join(dir, 'spool.ndjson'), user: 'picker' }

    // Free text typed under "Other" for one, labels joined by ", " with text of the user's own for the other.
    const typed = await hook(answered({ [METHOD]: 'BDD with cucumber', [CHECKS]: 'Lint, format, my own smoke check' }, 'toolu_typed'), env)
    expect(typed).toMatchObject({ code: 0, stdout: '', stderr: '' })
    // An array of labels, as the Agent SDK's canUseTool answer passes one on.
    const array = await hook(answered({ [METHOD]: 'DDD', [CHECKS]: ['Unit tests', 'E2E tests'] }, 'toolu_array'), env)
    expect(array).toMatchObject({ code: 0, stdout: '', stderr: '' })
    // Claude Code saying a question went unanswered (the picker dismissed, skipped): no choice, whatever text answers holds then.
    const dismissed = answered({ [METHOD]: 'User dismissed the question', [CHECKS]: 'Unit tests' }, 'toolu_dismissed')
    dismissed.tool_response.annotations = { [METHOD]: { unanswered: 'dismissed' } }
    dismissed.tool_input.annotations = { [METHOD]: { unanswered: 'dismissed' } }
    expect(await hook(dismissed, env)).toMatchObject({ code: 0, stdout: '', stderr: '' })
    // A call with no answer at all records nothing and says nothing.
    expect(await hook(answered({}, 'toolu_none'), env)).toMatchObject({ code: 0, stdout: '', stderr: '' })

    const { observations } = await held(service.url, 'picker')
    const at = (point: string) => observations.filter((o) => o.point === point).map((o) => [o.chosen, o.other])
    expect(at('development-methodology')).toEqual(
      expect.arrayContaining([
        [[], 'BDD with cucumber'],
        [['DDD'], null],
      ]),
    )
    expect(at('development-methodology')).toHaveLength(2)
    const checks = observations.filter((o) => o.point.startsWith('q-')).map((o) => [o.chosen, o.other])
    expect(checks).toEqual(
      expect.arrayContaining([
        [['Lint, format'], 'my own smoke check'],
        [['Unit tests', 'E2E tests'], null],
        [['Unit tests'], null],
      ]),
    )
    expect(checks).toHaveLength(3)
    expect(await spooled(env.spool)).toEqual([])
  })

  it('takes the fields a newer Claude Code adds and does without those an older one leaves out', async () => {
    const dir = tempDir('dm-hook-client-')
    const service = await startService(join(dir, 'data'))
    running.push(service)
    const env = { url: service.url, spool: join(dir, 'spool.ndjson'), user: 'fields' }

    const newer = answered({ [METHOD]: 'TDD', [CHECKS]: 'Unit tests' }, 'toolu_newer')
    Object.assign(newer, { prompt_id: 'p-1', effort: { level: 'high' }, scratchpad_dir: '/tmp/scratch', agent_id: 'a-1', agent_type: 'general-purpose', some_later_field: { nested: [1, 2] } })
    newer.tool_response.annotations = { [METHOD]: { notes: 'tests first, always', preview: 'x' } }
    for (const side of [newer.tool_input, newer.tool_response]) side.questions[0].options[0].preview = '```ts\ntest("x")\n```'
    expect(await hook(newer, env)).toMatchObject({ code: 0, stdout: '', stderr: '' })

    const older = answered({ [METHOD]: 'DDD', [CHECKS]: 'E2E tests' }, 'toolu_older')
    for (const field of ['transcript_path', 'permission_mode', 'duration_ms']) delete older[field]
    for (const side of [older.tool_input, older.tool_response]) {
      delete side.annotations
      for (const question of side.questions) {
        delete question.multiSelect
        for (const option of question.options) delete option.description
      }
    }
    expect(await hook(older, env)).toMatchObject({ code: 0, stdout: '', stderr: '' })

    // A PreToolUse with fields of a newer Claude Code: echoed in updatedInput, which replaces the whole tool input.
    const pre = claudeCodeFixture('pre-tool-use')
    pre.tool_input.metadata = { source: 'plan-mode' }
    pre.tool_input.questions[0].options[2].preview = 'Large: a design review first'
    pre.prompt_id = 'p-2'
    const asked = await hook(pre, env)
    expect(asked.code).toBe(0)
    const updated = JSON.parse(asked.stdout).hookSpecificOutput.updatedInput
    expect(updated.metadata).toEqual({ source: 'plan-mode' })
    expect(updated.questions[0].options.find((o: { label: string }) => o.label.startsWith('Tier L'))).toMatchObject({ preview: 'Large: a design review first' })

    const { observations } = await held(service.url, 'fields')
    expect(observations.map((o) => [o.point.startsWith('q-') ? 'checks' : o.point, o.chosen])).toEqual(
      expect.arrayContaining([
        ['development-methodology', ['TDD']],
        ['development-methodology', ['DDD']],
        ['checks', ['Unit tests']],
        ['checks', ['E2E tests']],
      ]),
    )
    expect(observations).toHaveLength(4)
  })

  // What Claude Code reads of a hook: exit 0 and no stdout lets the call go on as the agent wrote it
  // (exit 2 would block it, and stdout would be read as the hook's answer or shown).
  it.each([
    ['answering 500', () => answering(500, '{"error":{"code":"internal","message":"boom"}}'), 'spooled'],
    ['answering 503 with a proxy\'s page', () => answering(503, '<html>Service Unavailable</html>', 'text/html'), 'spooled'],
    ['answering 200 with a page that is not JSON', () => answering(200, '<html>hello</html>', 'text/html'), 'spooled'],
    ['refusing the payload for good (400)', () => answering(400, '{"error":{"code":"invalid_request","message":"bad payload"}}'), 'rejected'],
    ['down', async () => `http://127.0.0.1:${await closedPort()}`, 'spooled'],
  ] as const)('never blocks the agent with the service %s: exit 0, nothing on stdout, the capture kept, the question asked as written', async (_name, serviceAt, kept) => {
    const dir = tempDir('dm-hook-client-')
    const url = await serviceAt()
    const env = { url, spool: join(dir, 'spool.ndjson'), user: 'troubled' }
    for (const name of ['session-start.json', 'pre-tool-use.json', 'post-tool-use-single.json']) {
      // The generous budget: each answer comes at once, and with 2000 ms a node started through tsx on
      // a loaded machine (1.6 s and more) found no time left to send, and spooled what a 400 set aside.
      const run = await hook(claudeCodeFixture(name.replace(/\.json$/, '')), env)
      expect(run.code, name).toBe(0)
      expect(run.stdout, name).toBe('')
      expect(run.stderr, name).not.toMatch(/\n\s+at /)
    }
    // The session start and the choice are kept for later (the spool, or for a refusal the .rejected file); the PreToolUse is not.
    const file = kept === 'spooled' ? env.spool : `${env.spool}.rejected`
    const events = (await spooled(file)).map((line) => (JSON.parse(line) as { payload: { hook_event_name: string } }).payload.hook_event_name)
    expect(events).toEqual(['SessionStart', 'PostToolUse'])
  })
})
