import { spawn } from 'node:child_process'
import { closeSync, existsSync, openSync, readdirSync, realpathSync } from 'node:fs'
import { appendFile, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { createServer as createHttpServer } from 'node:http'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { claudeCodeFixture } from './support/fixtures'
import { PREVIEWED_QUESTIONS, previewedPostToolUse } from './support/preview-payload'
import { BIN, cleanEnv, closedPort, runCli, runCliFromFile, runCliKeptOpen, startService, type RunningService } from './support/processes'
import { LOOKUP_GAVE_UP, STUCK_HOST, stuckDnsPreload } from './support/stuck-dns'
import { sparseFile, tempDir } from './support/temp-dir'
import { BIN_PATH, shellWord } from '../src/config/bin-path'

const running: RunningService[] = []
const servers: Server[] = []

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()))
  for (const server of servers.splice(0)) server.close()
})

async function workdir() {
  const dir = tempDir('dm-hook-')
  return { data: join(dir, 'data'), spool: join(dir, 'spool', 'spool.ndjson') }
}

async function serve(data: string) {
  const service = await startService(data)
  running.push(service)
  return service
}

async function stop(service: RunningService) {
  running.splice(running.indexOf(service), 1)
  await service.stop()
}

/**
 * One hook call. The delivery tests give a generous budget: they are about what is delivered, and
 * a loaded test machine can spend the default 2 s starting node; the default is used where the
 * point is what happens when time runs out.
 */
function hook(payload: unknown, url: string, spool: string, budget?: number) {
  return runCli(budget === undefined ? ['hook'] : ['hook', '--budget', String(budget)], {
    input: JSON.stringify(payload),
    env: { DECISION_MEMORY_URL: url, DECISION_MEMORY_SPOOL: spool },
  })
}

async function spooledLines(spool: string): Promise<number> {
  if (!existsSync(spool)) return 0
  return (await readFile(spool, 'utf8')).split('\n').filter((l) => l !== '').length
}

async function observationsAt(url: string, question: string, options: readonly string[], multi_select = false) {
  const response = await fetch(`${url}/v1/recommendations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ question, all_options: options, multi_select }),
  })
  return ((await response.json()) as { observations: number }).observations
}

const GENEROUS = 20_000

const TIER = ['Which complexity tier should this SPEC use?', ['Tier S', 'Tier M', 'Tier L']] as const
const METHOD = ['Which development methodology for this change?', ['TDD', 'DDD']] as const
const CHECKS = ['Which checks should run before the PR?', ['Lint, format', 'Unit tests', 'E2E tests']] as const

describe('decision-memory hook (R-CAP-6)', () => {
  it('with the service stopped: exits 0, prints nothing, and spools the payload', async () => {
    const { spool } = await workdir()
    const url = `http://127.0.0.1:${await closedPort()}`
    // A generous budget: on a loaded machine node's start alone can use the default 2 s, and the
    // hook then says it ran out of time, not that nothing listens.
    const result = await hook(claudeCodeFixture('post-tool-use-multi'), url, spool, GENEROUS)
    expect(result.code).toBe(0)
    expect(result.stdout).toBe('')
    expect(await spooledLines(spool)).toBe(1)
    // Nothing listens at the URL: that is what stderr says, naming it.
    expect(result.stderr).toContain(`service not reachable at ${url}; spooled to ${spool}`)
    // A PreToolUse is not spooled: its answer is of use only while the agent waits.
    const pre = await hook(claudeCodeFixture('pre-tool-use'), url, spool, GENEROUS)
    expect(pre).toMatchObject({ code: 0, stdout: '' })
    expect(await spooledLines(spool)).toBe(1)
  })

  it('under a matcher for every tool, neither spools nor sends another tool\'s event, and still delivers the spool', async () => {
    const { data, spool } = await workdir()
    const down = `http://127.0.0.1:${await closedPort()}`
    // A Read's PostToolUse carries the file it read: a .env's secrets must not wait on disk for a service that ignores them.
    const read = { ...claudeCodeFixture('post-tool-use-single'), tool_name: 'Read', tool_input: { file_path: '/home/dev/acme-api/.env' }, tool_response: { content: 'AWS_SECRET=abc123' } }
    const ignored = await hook(read, down, spool, GENEROUS)
    expect(ignored).toMatchObject({ code: 0, stdout: '', stderr: '' })
    expect(existsSync(spool)).toBe(false)
    expect((await hook(claudeCodeFixture('pre-tool-use-bash'), down, spool, GENEROUS)).stderr).toBe('')
    expect(existsSync(spool)).toBe(false)
    // A question's answer spooled meanwhile is delivered by the next call, whatever tool that call is of.
    expect((await hook(claudeCodeFixture('post-tool-use-single'), down, spool, GENEROUS)).code).toBe(0)
    expect(await spooledLines(spool)).toBe(1)
    const service = await serve(data)
    expect((await hook(read, service.url, spool, GENEROUS)).code).toBe(0)
    expect(await spooledLines(spool)).toBe(0)
    expect(await observationsAt(service.url, ...TIER)).toBe(1)
  })

  it('names DECISION_MEMORY_URL given without http:// rather than calling the service unreachable, and spools the capture', async () => {
    const { spool } = await workdir()
    const result = await hook(claudeCodeFixture('post-tool-use-single'), 'localhost:7420', spool, GENEROUS)
    expect(result).toMatchObject({ code: 0, stdout: '' })
    expect(await spooledLines(spool)).toBe(1)
    expect(result.stderr).toContain(`DECISION_MEMORY_URL is "localhost:7420": give the service's address as http://HOST:PORT; spooled to ${spool}`)
    expect(result.stderr).not.toContain('not reachable')
  })

  it('names DECISION_MEMORY_URL holding a password rather than calling the service unreachable, prints no password, and spools the capture', async () => {
    const { data, spool } = await workdir()
    const service = await serve(data)
    const host = new URL(service.url).host
    const result = await hook(claudeCodeFixture('post-tool-use-single'), `http://me:s3cret@${host}`, spool, GENEROUS)
    expect(result).toMatchObject({ code: 0, stdout: '' })
    expect(await spooledLines(spool)).toBe(1)
    expect(result.stderr).toContain(`DECISION_MEMORY_URL holds a user name or password (http://…@${host})`)
    expect(result.stderr).not.toContain('s3cret')
    expect(result.stderr).not.toContain('not reachable')
  })

  it('names DECISION_MEMORY_URL holding a query or fragment, sends nothing to it, and spools the capture', async () => {
    const { data, spool } = await workdir()
    const service = await serve(data)
    for (const [suffix, part] of [['?x=1', '?x=1'], ['/#top', '#top']]) {
      const result = await hook(claudeCodeFixture('post-tool-use-single'), `${service.url}${suffix}`, spool, GENEROUS)
      expect(result).toMatchObject({ code: 0, stdout: '' })
      expect(result.stderr).toContain(`DECISION_MEMORY_URL is "${service.url}${suffix}", which holds a query or fragment (${part}) the paths of the service would come after`)
      expect(result.stderr).not.toContain('with no path?')
      expect(result.stderr).not.toContain('/v1/hooks/claude-code')
    }
    expect(await spooledLines(spool)).toBe(2)
    // Mended, the URL delivers what waited.
    expect((await hook(claudeCodeFixture('post-tool-use-single'), service.url, spool, GENEROUS)).code).toBe(0)
    expect(await spooledLines(spool)).toBe(0)
  })

  it('names DECISION_MEMORY_TOKEN holding a line break rather than calling the service unreachable, and spools the capture', async () => {
    const { data, spool } = await workdir()
    const service = await serve(data)
    const result = await runCli(['hook', '--budget', String(GENEROUS)], {
      input: JSON.stringify(claudeCodeFixture('post-tool-use-single')),
      env: { DECISION_MEMORY_URL: service.url, DECISION_MEMORY_SPOOL: spool, DECISION_MEMORY_TOKEN: 'alice-token\n0123456789' },
    })
    expect(result).toMatchObject({ code: 0, stdout: '' })
    expect(await spooledLines(spool)).toBe(1)
    expect(result.stderr).toContain(`DECISION_MEMORY_TOKEN holds a line break, a control character or a character past U+00FF, which no HTTP header may carry: set it to the token alone (not shown here); spooled to ${spool}`)
    expect(result.stderr).not.toContain('not reachable')
    expect(result.stderr).not.toContain('0123456789')
  })

  it('spools a capture that was waiting on stdin when a held-up hook found its time already run out', async () => {
    const { spool } = await workdir()
    const url = `http://127.0.0.1:${await closedPort()}`
    // A loaded machine: the process is held up 300 ms as it starts reading stdin, so its read timer
    // is due before it has read the payload Claude Code wrote and closed long before.
    const stall = join(dirname(spool), 'stall.cjs')
    await mkdir(dirname(spool), { recursive: true })
    await writeFile(
      stall,
      `const d = Object.getOwnPropertyDescriptor(process, 'stdin'); let first = true
Object.defineProperty(process, 'stdin', { configurable: true, get() {
  const s = d.get.call(process)
  if (first) { first = false; const t = Date.now(); while (Date.now() - t < 300); }
  return s } })\n`,
    )
    const result = await runCli(['hook', '--budget', '1'], {
      input: JSON.stringify(claudeCodeFixture('post-tool-use-single')),
      env: { DECISION_MEMORY_URL: url, DECISION_MEMORY_SPOOL: spool, NODE_OPTIONS: `--require ${stall}` },
    })
    expect(result.code).toBe(0)
    expect(await spooledLines(spool)).toBe(1)
  })

  it('spools a capture given on stdin as a file (hook < payload.json) while a loaded machine holds the thread pool', async () => {
    const { spawn } = await import('node:child_process')
    const { openSync, closeSync } = await import('node:fs')
    const { BIN, cleanEnv } = await import('./support/processes')
    const { spool } = await workdir()
    const url = `http://127.0.0.1:${await closedPort()}`
    await mkdir(dirname(spool), { recursive: true })
    const payload = join(dirname(spool), 'payload.json')
    await writeFile(payload, JSON.stringify(claudeCodeFixture('post-tool-use-single')))
    // A loaded machine: libuv's one thread is busy for about a second from when the hook turns to
    // its stdin, so a file read as a stream (on that thread) is not read before the time runs out.
    const hold = join(dirname(spool), 'hold.cjs')
    await writeFile(
      hold,
      `const d = Object.getOwnPropertyDescriptor(process, 'stdin'); let first = true
Object.defineProperty(process, 'stdin', { configurable: true, get() {
  if (first) { first = false; require('node:crypto').pbkdf2('x', 'y', 2000000, 32, 'sha512', () => {}) }
  return d.get.call(process) } })\n`,
    )
    const input = openSync(payload, 'r')
    const child = spawn(process.execPath, [BIN, 'hook', '--budget', '1'], {
      env: cleanEnv({ DECISION_MEMORY_URL: url, DECISION_MEMORY_SPOOL: spool, UV_THREADPOOL_SIZE: '1', NODE_OPTIONS: `--require ${hold}` }),
      stdio: [input, 'pipe', 'pipe'],
    })
    closeSync(input)
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    expect(code).toBe(0)
    expect(await spooledLines(spool)).toBe(1)
  })

  /**
   * The hook spawned with `chunks` written on its stdin, which is then left open, as a client that
   * spawns it and keeps the pipe does (Claude Code closes it): what it printed once it exited.
   */
  function hookKeptOpen(chunks: string[], url: string, spool: string, budget: number | string, options: { close?: boolean } = {}) {
    return runCliKeptOpen(['hook', '--budget', String(budget)], chunks, { env: { DECISION_MEMORY_URL: url, DECISION_MEMORY_SPOOL: spool }, ...options })
  }

  it('takes a payload that has arrived whole though its stdin is left open: the capture delivered, the question answered', async () => {
    const { data, spool } = await workdir()
    const service = await serve(data)
    // Cut inside a string, in two writes: the first is no whole payload.
    const capture = JSON.stringify(claudeCodeFixture('post-tool-use-single'))
    const cut = capture.indexOf('"toolu_') + 3
    expect(await hookKeptOpen([capture.slice(0, cut), capture.slice(cut)], service.url, spool, GENEROUS)).toEqual({ code: 0, stdout: '', stderr: '' })
    expect(await observationsAt(service.url, ...TIER)).toBe(1)
    expect(await spooledLines(spool)).toBe(0)
    // A PreToolUse is answered within the budget as usual, not after it with nothing.
    const past = Array.from({ length: 40 }, (_, i) => ({ question: TIER[0], all_options: TIER[1], user_choice: 'Tier L', decision_id: `kept-${i}`, project: '/home/dev/acme-api' }))
    const posted = await fetch(`${service.url}/v1/observations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(past) })
    expect(posted.status).toBe(201)
    const question = await hookKeptOpen([JSON.stringify(claudeCodeFixture('pre-tool-use')) + '\n'], service.url, spool, GENEROUS)
    expect(question).toMatchObject({ code: 0, stderr: '' })
    expect(JSON.parse(question.stdout).hookSpecificOutput.hookEventName).toBe('PreToolUse')
  })

  it('takes a payload with a byte order mark before it, as an editor saves one: on a pipe left open or closed, and as a file', async () => {
    const { spool } = await workdir()
    const url = `http://127.0.0.1:${await closedPort()}`
    const marked = `\ufeff${JSON.stringify(claudeCodeFixture('post-tool-use-single'))}\r\n`
    const kept = await hookKeptOpen([marked], url, spool, GENEROUS)
    expect(kept).toMatchObject({ code: 0, stdout: '' })
    expect(kept.stderr).toContain('spooled to')
    expect(await spooledLines(spool)).toBe(1)
    const piped = await runCli(['hook', '--budget', String(GENEROUS)], { input: marked, env: { DECISION_MEMORY_URL: url, DECISION_MEMORY_SPOOL: spool } })
    expect(piped.stderr).toContain('spooled to')
    expect(await spooledLines(spool)).toBe(2)
    const payload = join(dirname(spool), 'payload.json')
    await mkdir(dirname(spool), { recursive: true })
    await writeFile(payload, marked)
    const input = openSync(payload, 'r')
    const child = spawn(process.execPath, [BIN, 'hook', '--budget', String(GENEROUS)], { env: cleanEnv({ DECISION_MEMORY_URL: url, DECISION_MEMORY_SPOOL: spool }), stdio: [input, 'ignore', 'ignore'] })
    closeSync(input)
    expect(await new Promise<number | null>((resolve) => child.once('close', resolve))).toBe(0)
    expect(await spooledLines(spool)).toBe(3)
  })

  it('says a payload that had not arrived whole when its time ran out, stdin left open: nothing printed, nothing spooled', async () => {
    const { spool } = await workdir()
    const url = `http://127.0.0.1:${await closedPort()}`
    const capture = JSON.stringify(claudeCodeFixture('post-tool-use-single'))
    const part = capture.slice(0, 100)
    expect(await hookKeptOpen([part], url, spool, 1000)).toEqual({
      code: 0,
      stdout: '',
      stderr:
        "decision-memory hook: the hook payload did not arrive whole on stdin within the hook's time (--budget of 1000 ms): " +
        'stdin, not closed, held 100 bytes that are not one whole JSON object, so nothing is sent or spooled\n',
    })
    expect(await spooledLines(spool)).toBe(0)
    expect((await hookKeptOpen([], url, spool, 1000)).stderr).toBe(
      "decision-memory hook: no hook payload arrived on stdin within the hook's time (--budget of 1000 ms), and stdin was not closed\n",
    )
    // A mistake in its flags: read for the default budget, to be spooled as the flags can be read.
    const mistaken = await hookKeptOpen([part], url, spool, '1e9')
    expect(mistaken).toMatchObject({ code: 0, stdout: '' })
    expect(mistaken.stderr).toMatch(/^decision-memory hook: --budget must be .*\n/)
    expect(mistaken.stderr).toContain(
      'decision-memory hook: the hook payload did not arrive whole on stdin within 2000 ms (the default --budget, its flags being mistaken): ' +
        'stdin, not closed, held 100 bytes that are not one whole JSON object, so nothing is sent or spooled\n',
    )
    expect(await spooledLines(spool)).toBe(0)
  })

  it('keeps no more of stdin than 16 MB: past it, says the payload did not arrive whole, exits 0, prints and spools nothing', async () => {
    const { spool } = await workdir()
    const url = `http://127.0.0.1:${await closedPort()}`
    // `yes | decision-memory hook`, in short: 17 MB of `y` lines, then stdin closed.
    const megabyte = 'y\n'.repeat(512 * 1024)
    expect(await hookKeptOpen([...Array.from({ length: 17 }, () => megabyte)], url, spool, GENEROUS, { close: true })).toMatchObject({
      code: 0,
      stdout: '',
      stderr: 'decision-memory hook: the hook payload on stdin was over 16 MB, more than the hook keeps of one, so it did not arrive whole: nothing is sent or spooled\n',
    })
    expect(await spooledLines(spool)).toBe(0)
  })

  it('says a payload given as a file over 16 MB too large, unread, as on a pipe: prints and spools nothing', async () => {
    const { spool } = await workdir()
    const url = `http://127.0.0.1:${await closedPort()}`
    // `decision-memory hook < payload.json` of 16 MB and a byte (sparse: made in no time).
    const payload = join(dirname(spool), 'payload.json')
    await mkdir(dirname(spool), { recursive: true })
    sparseFile(payload, 16 * 1024 * 1024 + 1)
    const { code, stdout, stderr } = await runCliFromFile(['hook', '--budget', String(GENEROUS)], payload, { env: { DECISION_MEMORY_URL: url, DECISION_MEMORY_SPOOL: spool } })
    expect({ code, stdout, stderr }).toEqual({
      code: 0,
      stdout: '',
      stderr: 'decision-memory hook: the hook payload on stdin was over 16 MB, more than the hook keeps of one, so it did not arrive whole: nothing is sent or spooled\n',
    })
    expect(await spooledLines(spool)).toBe(0)
  })

  it('keeps a capture of megabytes of previews whole, under what it keeps of stdin: sent, not said too large', async () => {
    const { spool } = await workdir()
    const url = `http://127.0.0.1:${await closedPort()}`
    // 5 MB in all, with the service down: spooled as any capture (previews taken out, as sent).
    const payload = claudeCodeFixture('post-tool-use-single')
    payload.tool_response = { ...payload.tool_response, padding: 'y\n'.repeat(2.5 * 1024 * 1024) }
    expect(await hook(payload, url, spool, GENEROUS)).toMatchObject({ code: 0, stdout: '' })
    expect(await spooledLines(spool)).toBe(1)
  })

  it('with a service that accepts but never answers: exits 0 and prints nothing', async () => {
    const { spool } = await workdir()
    // Holds each connection open without a word; closed with the test.
    const silent = createServer((socket) => silent.once('close', () => socket.destroy()))
    servers.push(silent)
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`
    // A budget a loaded machine's start does not use up: one it did would be said as spent before
    // the service was asked, rightly not as the service's silence.
    const result = await hook(claudeCodeFixture('post-tool-use-single'), url, spool, 3000)
    expect(result).toMatchObject({ code: 0, stdout: '' })
    expect(await spooledLines(spool)).toBe(1)
    // The service is there and took the connection: calling it "not reachable" would send a
    // person looking for a service that is running, not one that is slow or stuck.
    expect(result.stderr).toContain(`no answer from the service at ${url}`)
    expect(result.stderr).not.toContain('not reachable')
  })

  it('exits within its time when the service is named by a host whose DNS lookup hangs, and spools the capture', async () => {
    const { spool } = await workdir()
    await mkdir(dirname(spool), { recursive: true })
    const stuck = await stuckDnsPreload(dirname(spool))
    const result = await runCli(['hook'], {
      input: JSON.stringify(claudeCodeFixture('post-tool-use-single')),
      env: { DECISION_MEMORY_URL: `http://${STUCK_HOST}:7420`, DECISION_MEMORY_SPOOL: spool, NODE_OPTIONS: `--require ${stuck}` },
    })
    expect(result).toMatchObject({ code: 0, stdout: '' })
    expect(await spooledLines(spool)).toBe(1)
    // Gone before the lookup gave up (15 s, past the hook entry's 5 s timeout, after which Claude
    // Code kills it): it did not wait for it.
    expect(result.stderr).not.toContain(LOOKUP_GAVE_UP)
  })

  it('prints the PreToolUse answer of a running service', async () => {
    const { data, spool } = await workdir()
    const service = await serve(data)
    const result = await hook(claudeCodeFixture('pre-tool-use'), service.url, spool, GENEROUS)
    expect(result.code).toBe(0)
    const printed = JSON.parse(result.stdout)
    expect(printed.hookSpecificOutput.hookEventName).toBe('PreToolUse')
    expect(printed.hookSpecificOutput.updatedInput.questions[0].options[0].label).toBe('Tier M (Recommended)')
    // Captures print nothing: a PostToolUse hook has nothing to say.
    const post = await hook(claudeCodeFixture('post-tool-use-single'), service.url, spool, GENEROUS)
    expect(post).toMatchObject({ code: 0, stdout: '' })
  })

  it('prints the PreToolUse answer of a call one of whose questions the service cannot take: that one as written, the other planned', async () => {
    const { data, spool } = await workdir()
    const service = await serve(data)
    // The agent wrote "Unit tests" twice, once marked (Recommended): one option once normalised.
    const checks = { question: 'Which checks should run before the PR?', header: 'Checks', options: [{ label: 'Lint' }, { label: 'Unit tests' }, { label: 'Unit tests (Recommended)' }], multiSelect: true }
    const payload = claudeCodeFixture('pre-tool-use')
    payload.tool_input.questions.push(checks)
    const result = await hook(payload, service.url, spool, GENEROUS)
    expect(result).toMatchObject({ code: 0, stderr: '' })
    const printed = JSON.parse(result.stdout).hookSpecificOutput
    expect(printed.updatedInput.questions[0].options[0].label).toBe('Tier M (Recommended)')
    expect(printed.updatedInput.questions[1]).toEqual(checks)
    expect(printed.permissionDecisionReason).toContain('It left as written a question it could not take: "Which checks should run before the PR?" (tool_input.questions.1.options.2: options 1 and 2 are both "Unit tests")')
  })

  it('takes a multi-select call round: labels it added read back, its own answer kept as its own, the user\'s at the same points (R-CAP-5, R-ASK-4)', async () => {
    const { data, spool } = await workdir()
    const service = await serve(data)
    const project = '/home/dev/acme-api'
    const [checks, checkLabels] = CHECKS
    const docs = 'Which docs should this change update?'
    const docLabels = ['README, CHANGELOG', 'API docs', 'Migration guide']
    // Checks: always the same set, answered for the user. Docs: API docs most times, asked.
    const past = [
      ...Array.from({ length: 40 }, (_, i) => ({ question: checks, header: 'Checks', all_options: checkLabels, multi_select: true, user_choice: ['Lint, format', 'Unit tests'], decision_id: `checks-${i}`, project })),
      ...Array.from({ length: 10 }, (_, i) => ({ question: docs, header: 'Docs', all_options: docLabels, multi_select: true, user_choice: i < 7 ? ['API docs', 'README, CHANGELOG'] : ['API docs'], decision_id: `docs-${i}`, project })),
    ]
    const posted = await fetch(`${service.url}/v1/observations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(past) })
    expect(posted.status).toBe(201)
    const points = new Map(((await posted.json()) as { stored: Array<{ point: string; decision_id: string }> }).stored.map((s) => [s.decision_id.split('-')[0], s.point]))
    const multi = claudeCodeFixture('post-tool-use-multi')
    const asked = [multi.tool_input.questions[1], { question: docs, header: 'Docs', options: docLabels.map((label) => ({ label, description: label })), multiSelect: true }]
    const pre = { ...claudeCodeFixture('pre-tool-use'), tool_use_id: 'toolu_multi_round', tool_input: { questions: asked } }
    const printed = await hook(pre, service.url, spool, GENEROUS)
    expect(printed).toMatchObject({ code: 0, stderr: '' })
    const output = JSON.parse(printed.stdout).hookSpecificOutput
    expect(output.permissionDecision).toBe('ask')
    // Checks answered as Claude Code joins a multi-select answer, a label holding ", " quoted.
    expect(output.updatedInput.answers).toEqual({ [checks]: '"Lint, format (Recommended)", Unit tests (Recommended)' })
    const shown = output.updatedInput.questions
    expect(shown.map((q: { question: string }) => q.question)).toEqual([docs])
    expect(shown[0].options.map((o: { label: string }) => o.label)).toEqual(['README, CHANGELOG (Recommended)', 'API docs (Recommended)', 'Migration guide'])
    // The user picks from the labels shown, and types an "Other": Claude Code joins them with ", ".
    const post = { ...multi, tool_use_id: 'toolu_multi_round' }
    for (const where of [post.tool_input, post.tool_response]) {
      where.questions = shown
      where.answers = { ...output.updatedInput.answers, [docs]: 'API docs (Recommended), Migration guide, the wiki, too' }
    }
    expect(await hook(post, service.url, spool, GENEROUS)).toMatchObject({ code: 0, stdout: '', stderr: '' })
    expect(await spooledLines(spool)).toBe(0)
    const exported = (await (await fetch(`${service.url}/v1/users/default/export`)).text())
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { type: string; data: { decision_id: string | null; point: string; chosen: string[]; other: string | null; source: string; multi_select: boolean } })
      .filter((r) => r.type === 'observation' && r.data.decision_id?.startsWith('toolu_multi_round#'))
      .map((r) => r.data)
    expect(exported).toHaveLength(2)
    // Counted at the points the choices before were, the labels it added read back as the options.
    expect(exported.find((o) => o.point === points.get('checks'))).toMatchObject({ chosen: ['Lint, format', 'Unit tests'], other: null, source: 'auto-resolved', multi_select: true })
    expect(exported.find((o) => o.point === points.get('docs'))).toMatchObject({ chosen: ['API docs', 'Migration guide'], other: 'the wiki, too', source: 'user', multi_select: true })
  })

  it('sends its service URL with a PreToolUse, so the command printed to turn personalization off finds the service', async () => {
    const { data, spool } = await workdir()
    const service = await serve(data)
    // Made in the fixture's project (its cwd, in no repository here): a project with no choice of its own at a point is asked there.
    const past = Array.from({ length: 40 }, (_, i) => ({ question: TIER[0], all_options: TIER[1], user_choice: 'Tier L', decision_id: `past-${i}`, project: '/home/dev/acme-api' }))
    const posted = await fetch(`${service.url}/v1/observations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(past) })
    expect(posted.status).toBe(201)
    const result = await hook(claudeCodeFixture('pre-tool-use'), service.url, spool, GENEROUS)
    const reason = JSON.parse(result.stdout).hookSpecificOutput.permissionDecisionReason as string
    // The service is on a port of its own, not the default one a new shell would try.
    expect(reason).toMatch(new RegExp(`To be asked again in this session: DECISION_MEMORY_URL=${service.url.replace(/\./g, '\\.')} node .* toggle --session `))
  })

  it('exits 0, without a stack trace, when what reads its stdout has closed it (R-CAP-6)', async () => {
    const { spawn } = await import('node:child_process')
    const { BIN, cleanEnv } = await import('./support/processes')
    const { data, spool } = await workdir()
    const service = await serve(data)
    const child = spawn(process.execPath, [BIN, 'hook', '--budget', String(GENEROUS)], {
      env: cleanEnv({ DECISION_MEMORY_URL: service.url, DECISION_MEMORY_SPOOL: spool }),
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    // The reading end closed before the hook prints the PreToolUse answer: its write fails with EPIPE.
    child.stdout.destroy()
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.stdin.end(JSON.stringify(claudeCodeFixture('pre-tool-use')))
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    expect(stderr).not.toMatch(/\n\s+at /)
    expect(code).toBe(0)
  })

  it('exits 0 and says so in one line when its answer cannot be written (a full disk), not with a stack trace', async () => {
    const { spawn } = await import('node:child_process')
    const { openSync, closeSync } = await import('node:fs')
    const { BIN, cleanEnv } = await import('./support/processes')
    // /dev/full: every write fails with ENOSPC.
    if (!existsSync('/dev/full')) return
    const { data, spool } = await workdir()
    const service = await serve(data)
    const full = openSync('/dev/full', 'w')
    const child = spawn(process.execPath, [BIN, 'hook', '--budget', String(GENEROUS)], {
      env: cleanEnv({ DECISION_MEMORY_URL: service.url, DECISION_MEMORY_SPOOL: spool }),
      stdio: ['pipe', full, 'pipe'],
    })
    closeSync(full)
    let stderr = ''
    child.stderr?.on('data', (chunk) => (stderr += chunk))
    child.stdin?.end(JSON.stringify(claudeCodeFixture('pre-tool-use')))
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    expect(stderr).toBe('decision-memory hook: cannot write the answer: ENOSPC\n')
    expect(code).toBe(0)
  })

  it('records the repository as the project wherever in it the agent\'s cwd has moved', async () => {
    const { data, spool } = await workdir()
    const repo = tempDir('dm-repo-')
    await mkdir(join(repo, '.git'))
    await mkdir(join(repo, 'packages', 'api'), { recursive: true })
    const service = await serve(data)
    const at = (cwd: string, toolUseId: string) => ({ ...claudeCodeFixture('post-tool-use-single'), cwd, tool_use_id: toolUseId })
    expect(await hook(at(repo, 'toolu_root'), service.url, spool, GENEROUS)).toMatchObject({ code: 0, stdout: '' })
    expect(await hook(at(join(repo, 'packages', 'api'), 'toolu_sub'), service.url, spool, GENEROUS)).toMatchObject({ code: 0, stdout: '' })
    const preferences = (await (await fetch(`${service.url}/v1/users/default/preferences`)).json()) as { points: Array<{ observations: number; projects: string[] }> }
    expect(preferences.points).toMatchObject([{ observations: 2, projects: [repo] }])
  })

  it('outside a repository, records the session\'s folder as the project wherever below it the agent\'s cwd has moved', async () => {
    const { data, spool } = await workdir()
    const parent = tempDir('dm-notes-')
    const notes = join(parent, 'notes')
    await mkdir(join(notes, 'drafts'), { recursive: true })
    await mkdir(join(parent, 'elsewhere'))
    const service = await serve(data)
    expect(await hook({ ...claudeCodeFixture('session-start'), cwd: notes }, service.url, spool, GENEROUS)).toMatchObject({ code: 0, stdout: '' })
    const at = (cwd: string, toolUseId: string) => ({ ...claudeCodeFixture('post-tool-use-single'), cwd, tool_use_id: toolUseId })
    expect(await hook(at(notes, 'toolu_root'), service.url, spool, GENEROUS)).toMatchObject({ code: 0, stdout: '' })
    expect(await hook(at(join(notes, 'drafts'), 'toolu_sub'), service.url, spool, GENEROUS)).toMatchObject({ code: 0, stdout: '' })
    // A folder outside the session's is a project of its own, as before.
    expect(await hook(at(join(parent, 'elsewhere'), 'toolu_out'), service.url, spool, GENEROUS)).toMatchObject({ code: 0, stdout: '' })
    const preferences = (await (await fetch(`${service.url}/v1/users/default/preferences`)).json()) as { points: Array<{ observations: number; projects: string[] }> }
    expect(preferences.points).toMatchObject([{ observations: 3, projects: [join(parent, 'elsewhere'), notes].sort() }])
  })

  it('outside a repository, keeps the session\'s folder as the project below it when the folder is reached through a symbolic link', async () => {
    const { data, spool } = await workdir()
    const parent = realpathSync(tempDir('dm-notes-'))
    const real = join(parent, 'data', 'notes')
    await mkdir(join(real, 'drafts'), { recursive: true })
    await mkdir(join(real, 'vendor', 'lib', '.git'), { recursive: true })
    const link = join(parent, 'notes')
    await symlink(real, link, 'junction')
    const service = await serve(data)
    // Started through the link, as a shell's $PWD has it: the session is of the folder it leads to.
    expect(await hook({ ...claudeCodeFixture('session-start'), cwd: link }, service.url, spool, GENEROUS)).toMatchObject({ code: 0, stdout: '' })
    const at = (cwd: string, toolUseId: string) => ({ ...claudeCodeFixture('post-tool-use-single'), cwd, tool_use_id: toolUseId })
    for (const [i, cwd] of [link, join(link, 'drafts'), join(real, 'drafts')].entries()) {
      expect(await hook(at(cwd, `toolu_${i}`), service.url, spool, GENEROUS)).toMatchObject({ code: 0, stdout: '' })
    }
    // A repository in it, reached through the link too, is a project of its own, as before.
    expect(await hook(at(join(link, 'vendor', 'lib'), 'toolu_repo'), service.url, spool, GENEROUS)).toMatchObject({ code: 0, stdout: '' })
    const preferences = (await (await fetch(`${service.url}/v1/users/default/preferences`)).json()) as { points: Array<{ observations: number; projects: string[] }> }
    expect(preferences.points).toMatchObject([{ observations: 4, projects: [real, join(real, 'vendor', 'lib')].sort() }])
  })

  it('records a git worktree\'s choices in its repository\'s project, and plans its questions with its own folder as the path', async () => {
    const { data, spool } = await workdir()
    const parent = tempDir('dm-repo-')
    // `git worktree add ../acme-api-feature` of acme-api: a .git file pointing into acme-api/.git/worktrees.
    const main = join(parent, 'acme-api')
    const feature = join(parent, 'acme-api-feature')
    await mkdir(join(main, '.git', 'worktrees', 'acme-api-feature'), { recursive: true })
    await writeFile(join(main, '.git', 'worktrees', 'acme-api-feature', 'commondir'), '../..\n')
    await mkdir(join(feature, 'services', 'billing'), { recursive: true })
    await writeFile(join(feature, '.git'), `gitdir: ${join(main, '.git', 'worktrees', 'acme-api-feature')}\n`)
    const service = await serve(data)
    const post = (cwd: string, toolUseId: string) => ({ ...claudeCodeFixture('post-tool-use-single'), cwd, tool_use_id: toolUseId })
    expect(await hook(post(main, 'toolu_main'), service.url, spool, GENEROUS)).toMatchObject({ code: 0, stdout: '' })
    expect(await hook(post(feature, 'toolu_feature'), service.url, spool, GENEROUS)).toMatchObject({ code: 0, stdout: '' })
    const preferences = (await (await fetch(`${service.url}/v1/users/default/preferences`)).json()) as { points: Array<{ observations: number; projects: string[] }> }
    expect(preferences.points).toMatchObject([{ observations: 2, projects: [main] }])
    // A decision scoped to services/billing applies in the worktree's services/billing.
    const decision = { title: 'Billing is Tier L', decision: 'Billing specs are Tier L.', rationale: 'Design review.', enforce: 'required', status: 'accepted', key: 'D-1', scope: { points: ['complexity-tier'], path: 'services/billing' }, constraints: [{ kind: 'must', option: 'Tier L' }] }
    expect((await fetch(`${service.url}/v1/decisions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(decision) })).status).toBe(201)
    const asked = await hook({ ...claudeCodeFixture('pre-tool-use'), cwd: join(feature, 'services', 'billing') }, service.url, spool, GENEROUS)
    expect(JSON.parse(asked.stdout).hookSpecificOutput.permissionDecisionReason).toContain('D-1')
  })

  it('delivers a spooled capture to the project it was made in, though its folder is gone by then', async () => {
    const { data, spool } = await workdir()
    const parent = tempDir('dm-repo-')
    const repo = join(parent, 'worktree')
    await mkdir(join(repo, '.git'), { recursive: true })
    await mkdir(join(repo, 'src'))
    const down = `http://127.0.0.1:${await closedPort()}`
    const payload = { ...claudeCodeFixture('post-tool-use-single'), cwd: join(repo, 'src') }
    expect(await hook(payload, down, spool, GENEROUS)).toMatchObject({ code: 0, stdout: '' })
    expect(await spooledLines(spool)).toBe(1)
    // The session's worktree is removed before the service is back.
    await rm(repo, { recursive: true })
    const service = await serve(data)
    expect(await hook(claudeCodeFixture('session-start'), service.url, spool, GENEROUS)).toMatchObject({ code: 0 })
    expect(await spooledLines(spool)).toBe(0)
    const preferences = (await (await fetch(`${service.url}/v1/users/default/preferences`)).json()) as { points: Array<{ projects: string[] }> }
    expect(preferences.points).toMatchObject([{ projects: [repo] }])
  })

  it('delivers the spool first once the service is back, and loses or doubles nothing across outages', async () => {
    const { data, spool } = await workdir()
    const down = `http://127.0.0.1:${await closedPort()}`
    const single = claudeCodeFixture('post-tool-use-single')
    const multi = claudeCodeFixture('post-tool-use-multi')
    const another = { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: 'toolu_01QxAmPLe0009Another' }
    another.tool_response.answers[TIER[0]] = 'Tier L'

    // Outage 1: two captures spooled.
    await hook(multi, down, spool)
    await hook(claudeCodeFixture('session-start'), down, spool)
    expect(await spooledLines(spool)).toBe(2)

    // Back: the next call delivers the spool first, then its own payload.
    let service = await serve(data)
    const back = await hook(single, service.url, spool, GENEROUS)
    expect(back).toMatchObject({ code: 0, stdout: '' })
    expect(await spooledLines(spool)).toBe(0)
    expect(await observationsAt(service.url, ...METHOD)).toBe(1)
    expect(await observationsAt(service.url, ...CHECKS, true)).toBe(1)
    expect(await observationsAt(service.url, ...TIER)).toBe(1)
    await stop(service)

    // Outage 2: a repeat of a delivered payload and a new one are spooled.
    await hook(multi, down, spool)
    await hook(another, down, spool)
    expect(await spooledLines(spool)).toBe(2)

    // Outage 3 with the spool still full: the call adds to it, nothing is dropped.
    await hook(single, down, spool)
    expect(await spooledLines(spool)).toBe(3)

    service = await serve(data)
    await hook(claudeCodeFixture('session-start'), service.url, spool, GENEROUS)
    expect(await spooledLines(spool)).toBe(0)
    expect(await observationsAt(service.url, ...METHOD)).toBe(1)
    expect(await observationsAt(service.url, ...CHECKS, true)).toBe(1)
    expect(await observationsAt(service.url, ...TIER)).toBe(2)

    // Everything once more, straight to the service: nothing new.
    for (const payload of [multi, single, another]) await hook(payload, service.url, spool, GENEROUS)
    expect(await observationsAt(service.url, ...METHOD)).toBe(1)
    expect(await observationsAt(service.url, ...TIER)).toBe(2)
    expect(existsSync(`${spool}.rejected`)).toBe(false)
  })

  it('sets aside, said, an event spooled by an older version under a user spaced at its ends, and delivers the events behind it', async () => {
    const { data, spool } = await workdir()
    await mkdir(dirname(spool), { recursive: true })
    // Spooled while the service was down by a version that took `DECISION_MEMORY_USER="alice "`.
    const spaced = JSON.stringify({ at: '2026-01-01T00:00:00.000Z', user: 'alice ', payload: claudeCodeFixture('post-tool-use-multi') })
    const behind = JSON.stringify({ at: '2026-01-01T00:00:01.000Z', user: 'alice', payload: claudeCodeFixture('post-tool-use-single') })
    await writeFile(spool, `${spaced}\n${behind}\n`, { mode: 0o600 })
    const service = await serve(data)
    const run = await hook(claudeCodeFixture('session-start'), service.url, spool, GENEROUS)
    expect(run).toMatchObject({ code: 0, stdout: '' })
    expect(run.stderr).toContain('the service refused the payload: HTTP 400 invalid_request: invalid request: user (user: no spaces at its ends')
    // Not kept to be sent again at every call, nor holding up the one behind it.
    expect(await spooledLines(spool)).toBe(0)
    expect(await readFile(`${spool}.rejected`, 'utf8')).toBe(`${spaced}\n`)
    const export_ = await (await fetch(`${service.url}/v1/users/alice/export`)).text()
    expect(export_.split('\n').filter((line) => line.includes('"type":"observation"'))).toHaveLength(1)
  })

  it('keeps a capture it was sending when it was killed (Claude Code ends a hook past its timeout), for the next call to deliver', async () => {
    const { data, spool } = await workdir()
    // Takes the request and never answers; `sent` settles once the request's bytes arrive.
    let arrived = () => {}
    const sent = new Promise<void>((resolve) => (arrived = resolve))
    const silent = createServer((socket) => {
      socket.once('data', () => arrived())
      silent.once('close', () => socket.destroy())
    })
    servers.push(silent)
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`
    const child = spawn(process.execPath, [BIN, 'hook', '--budget', String(GENEROUS)], {
      env: cleanEnv({ DECISION_MEMORY_URL: url, DECISION_MEMORY_SPOOL: spool }),
      stdio: ['pipe', 'ignore', 'ignore'],
    })
    child.stdin.end(JSON.stringify(claudeCodeFixture('post-tool-use-single')))
    await sent
    const killed = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    await killed

    const service = await serve(data)
    expect(await hook(claudeCodeFixture('session-start'), service.url, spool, GENEROUS)).toMatchObject({ code: 0, stdout: '', stderr: '' })
    expect(await observationsAt(service.url, ...TIER)).toBe(1)
    // Delivered, nothing of it is left beside the spool, and a capture delivered at once leaves nothing either.
    expect(readdirSync(dirname(spool))).toEqual([])
    expect(await hook(claudeCodeFixture('post-tool-use-multi'), service.url, spool, GENEROUS)).toMatchObject({ code: 0, stdout: '', stderr: '' })
    expect(readdirSync(dirname(spool))).toEqual([])
    expect(await observationsAt(service.url, ...METHOD)).toBe(1)
  })

  it('delivers its own event when the spool cannot be taken to be drained (a folder it may not write, a name too long for a claim)', async () => {
    const { data } = await workdir()
    // A claim is the spool's name and `.PID.HEX.draining`: past 255 bytes, the rename fails as a
    // read-only folder's does (EACCES, which chmod cannot make for root), and threw out of the hook.
    const spool = join(tempDir('dm-hook-'), `${'s'.repeat(240)}.ndjson`)
    const waiting = { at: '2026-07-01T10:00:00.000Z', user: 'default', payload: claudeCodeFixture('post-tool-use-multi') }
    await writeFile(spool, JSON.stringify(waiting) + '\n')
    const service = await serve(data)
    const post = await hook(claudeCodeFixture('post-tool-use-single'), service.url, spool, GENEROUS)
    expect(post).toMatchObject({ code: 0, stdout: '' })
    expect(post.stderr).toBe(`decision-memory hook: cannot deliver the spool ${spool} (ENAMETOOLONG): its events wait for a call that can; this call's event is sent all the same\n`)
    expect(await observationsAt(service.url, ...TIER)).toBe(1)
    const pre = await hook(claudeCodeFixture('pre-tool-use'), service.url, spool, GENEROUS)
    expect(pre.stdout).toContain('"permissionDecision":"ask"')
    expect(await spooledLines(spool)).toBe(1)
  })

  it('says a capture it cannot deliver nor spool into a folder (DECISION_MEMORY_SPOOL=/tmp) is not kept, as for a full disk, after why it was not delivered', async () => {
    const folder = tempDir('dm-hook-spool-folder-')
    const url = `http://127.0.0.1:${await closedPort()}`
    const result = await hook(claudeCodeFixture('post-tool-use-single'), url, folder, GENEROUS)
    expect(result).toMatchObject({ code: 0, stdout: '' })
    expect(result.stderr).toBe(
      `decision-memory hook: service not reachable at ${url}\n` +
        `decision-memory hook: the spool ${folder} is a folder (EISDIR): this event is not kept; give DECISION_MEMORY_SPOOL or --spool the path of a file in it\n`,
    )
    expect(readdirSync(folder)).toEqual([])
  })

  it('sends DECISION_MEMORY_TOKEN, so that a service run with --auth takes the choices (R-SVC-4)', async () => {
    const { spool } = await workdir()
    const seen: Array<string | undefined> = []
    const server = createHttpServer((request, response) => {
      seen.push(request.headers.authorization)
      request.resume()
      request.on('end', () => {
        const ok = request.headers.authorization === 'Bearer hook-token-0123456789abcdef'
        response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' })
        response.end(ok ? '{}' : '{"error":{"code":"unauthorized","message":"a bearer token is required","issues":[]}}')
      })
    })
    servers.push(server as unknown as Server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
    const result = await runCli(['hook', '--budget', String(GENEROUS)], {
      input: JSON.stringify(claudeCodeFixture('post-tool-use-single')),
      env: { DECISION_MEMORY_URL: url, DECISION_MEMORY_SPOOL: spool, DECISION_MEMORY_TOKEN: 'hook-token-0123456789abcdef' },
    })
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' })
    expect(seen).toEqual(['Bearer hook-token-0123456789abcdef'])

    // Without the token (or with one the service refuses): spooled, not set aside, and delivered
    // by the next call once the token is set.
    const refused = await runCli(['hook', '--budget', String(GENEROUS)], {
      input: JSON.stringify(claudeCodeFixture('post-tool-use-single')),
      env: { DECISION_MEMORY_URL: url, DECISION_MEMORY_SPOOL: spool },
    })
    expect(refused).toMatchObject({ code: 0, stdout: '' })
    // One line: the refusal, what to do, and where the capture waits. Which user the event is for
    // does not matter to a missing or unknown token.
    expect(refused.stderr).toBe(
      `decision-memory hook: the service at ${url} refused the token (HTTP 401: is DECISION_MEMORY_TOKEN set to one of its tokens?); spooled to ${spool}, where events wait for one of its tokens\n`,
    )
    expect(await spooledLines(spool)).toBe(1)
    expect(existsSync(`${spool}.rejected`)).toBe(false)
    const mended = await runCli(['hook', '--budget', String(GENEROUS)], {
      input: JSON.stringify(claudeCodeFixture('session-start')),
      env: { DECISION_MEMORY_URL: url, DECISION_MEMORY_SPOOL: spool, DECISION_MEMORY_TOKEN: 'hook-token-0123456789abcdef' },
    })
    expect(mended).toMatchObject({ code: 0, stdout: '', stderr: '' })
    expect(await spooledLines(spool)).toBe(0)
    expect(seen.slice(1)).toEqual([undefined, 'Bearer hook-token-0123456789abcdef', 'Bearer hook-token-0123456789abcdef'])
  })

  /** A service whose token may act for ali only: ali's events answered with `body`, anyone else's 403; the users asked for, in order. */
  async function tokenForAliOnly(body: string) {
    const seen: string[] = []
    const server = createHttpServer((request, response) => {
      const user = new URL(request.url ?? '/', 'http://x').searchParams.get('user') ?? ''
      seen.push(user)
      request.resume()
      request.on('end', () => {
        const ok = user === 'ali'
        response.writeHead(ok ? 200 : 403, { 'content-type': 'application/json' })
        response.end(ok ? body : `{"error":{"code":"forbidden","message":"token may not act for user ${user}","issues":[]}}`)
      })
    })
    servers.push(server as unknown as Server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return { seen, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` }
  }

  it('goes on past a spooled event whose user the token may not act for (403): the others are delivered', async () => {
    const { spool } = await workdir()
    const { seen, url } = await tokenForAliOnly('{"systemMessage":"planned"}')
    const run = (user: string, fixture: Parameters<typeof claudeCodeFixture>[0]) =>
      runCli(['hook', '--budget', String(GENEROUS)], {
        input: JSON.stringify(claudeCodeFixture(fixture)),
        env: { DECISION_MEMORY_URL: url, DECISION_MEMORY_SPOOL: spool, DECISION_MEMORY_USER: user, DECISION_MEMORY_TOKEN: 'ali-token-0123456789abcdef' },
      })
    // A capture made while the user was set wrong: spooled.
    const wrong = await run('alice', 'post-tool-use-single')
    expect(wrong.stderr).toContain('HTTP 403: may DECISION_MEMORY_TOKEN act for user "alice"? If not, set --user or DECISION_MEMORY_USER to the token\'s user')
    expect(await spooledLines(spool)).toBe(1)
    // The user set right: the question is planned and the capture delivered, the wrong user's kept.
    const planned = await run('ali', 'pre-tool-use')
    expect(planned.stdout).toBe('{"systemMessage":"planned"}\n')
    const captured = await run('ali', 'post-tool-use-single')
    expect(captured).toMatchObject({ code: 0, stdout: '{"systemMessage":"planned"}\n' })
    expect(await spooledLines(spool)).toBe(1)
    expect(seen).toEqual(['alice', 'alice', 'ali', 'alice', 'ali'])
    expect(existsSync(`${spool}.rejected`)).toBe(false)
  })

  it('asks once per call for a user the token may not act for: many of their spooled events do not hold up the others', async () => {
    const { spool } = await workdir()
    const { seen, url } = await tokenForAliOnly('{}')
    // A day of captures under the wrong user, then one of the right user's while the service was down.
    const capture = claudeCodeFixture('post-tool-use-single')
    const line = (user: string, i: number) => JSON.stringify({ at: '2026-01-05T10:00:00.000Z', user, payload: { ...capture, tool_use_id: `toolu_${user}_${i}` } })
    await mkdir(dirname(spool), { recursive: true })
    await writeFile(spool, [...Array.from({ length: 30 }, (_, i) => line('alice', i)), line('ali', 0)].join('\n') + '\n')
    const result = await runCli(['hook', '--budget', String(GENEROUS)], {
      input: JSON.stringify(claudeCodeFixture('session-start')),
      env: { DECISION_MEMORY_URL: url, DECISION_MEMORY_SPOOL: spool, DECISION_MEMORY_USER: 'ali', DECISION_MEMORY_TOKEN: 'ali-token-0123456789abcdef' },
    })
    expect(result.code).toBe(0)
    expect(seen).toEqual(['alice', 'ali', 'ali'])
    expect(result.stderr.split('HTTP 403').length - 1).toBe(1)
    expect(await spooledLines(spool)).toBe(30)
    expect(await readFile(spool, 'utf8')).not.toContain('toolu_ali_0')
  })

  it('delivers a spooled capture whose time is ahead of the service clock (the spooling machine\'s clock ran fast) as happening now, rather than set it aside', async () => {
    const { data, spool } = await workdir()
    const service = await serve(data)
    // Spooled on a machine whose clock ran 10 minutes ahead of the service's (a service on another
    // machine, a clock set right since): the service refuses an `at` more than 5 minutes ahead.
    const at = new Date(Date.now() + 10 * 60_000).toISOString()
    await mkdir(dirname(spool), { recursive: true })
    await writeFile(spool, JSON.stringify({ at, user: 'default', payload: claudeCodeFixture('post-tool-use-single') }) + '\n')
    const result = await hook(claudeCodeFixture('session-start'), service.url, spool, GENEROUS)
    expect(result).toMatchObject({ code: 0, stdout: '' })
    expect(existsSync(`${spool}.rejected`)).toBe(false)
    expect(await spooledLines(spool)).toBe(0)
    expect(await observationsAt(service.url, ...TIER)).toBe(1)
  })

  it('delivers a capture one of whose questions the service cannot take, live or spooled: the others recorded, nothing set aside', async () => {
    const { data, spool } = await workdir()
    // The agent wrote "Unit tests" twice, once marked (Recommended): one option once normalised.
    const spoilt = (id: string) => {
      const payload = { ...claudeCodeFixture('post-tool-use-multi'), tool_use_id: id }
      for (const where of [payload.tool_input, payload.tool_response]) where.questions[1].options[2] = { label: 'Unit tests (Recommended)' }
      return payload
    }
    await hook(spoilt('toolu_spoilt_spooled'), `http://127.0.0.1:${await closedPort()}`, spool)
    expect(await spooledLines(spool)).toBe(1)
    const service = await serve(data)
    const result = await hook(spoilt('toolu_spoilt_live'), service.url, spool, GENEROUS)
    expect(result.code).toBe(0)
    // Claude Code shows the user a hook's systemMessage: which question was not recorded, and why.
    expect(JSON.parse(result.stdout).systemMessage).toContain('"Which checks should run before the PR?" (tool_response.questions.1.options.2: options 1 and 2 are both "Unit tests")')
    expect(result.stderr).toBe('')
    expect(await spooledLines(spool)).toBe(0)
    expect(existsSync(`${spool}.rejected`)).toBe(false)
    expect(await observationsAt(service.url, ...METHOD)).toBe(2)
  })

  it('delivers a capture whose session_id no session can be named by (null, 0), live or spooled: recorded, nothing set aside', async () => {
    const { data, spool } = await workdir()
    // Refused 400, either was set aside in the rejected file, its answer never learned.
    const unnamed = (id: string, session_id: unknown) => ({ ...claudeCodeFixture('post-tool-use-single'), tool_use_id: id, session_id })
    await hook(unnamed('toolu_null_spooled', null), `http://127.0.0.1:${await closedPort()}`, spool, GENEROUS)
    expect(await spooledLines(spool)).toBe(1)
    const service = await serve(data)
    const result = await hook(unnamed('toolu_zero_live', 0), service.url, spool, GENEROUS)
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' })
    expect(await spooledLines(spool)).toBe(0)
    expect(existsSync(`${spool}.rejected`)).toBe(false)
    expect(await observationsAt(service.url, ...TIER)).toBe(2)
  })

  it('delivers a capture over the body limit (4 questions whose options carry 20 KB previews), live or spooled: recorded, nothing set aside', async () => {
    const { data, spool } = await workdir()
    // Sent whole, the service answered 413 and the hook set the call aside, its answers never recorded.
    const spooled = previewedPostToolUse('toolu_previews_spooled')
    expect(Buffer.byteLength(JSON.stringify(spooled))).toBeGreaterThan(256 * 1024)
    await hook(spooled, `http://127.0.0.1:${await closedPort()}`, spool, GENEROUS)
    expect(await spooledLines(spool)).toBe(1)
    const service = await serve(data)
    const result = await hook(previewedPostToolUse('toolu_previews_live'), service.url, spool, GENEROUS)
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' })
    expect(await spooledLines(spool)).toBe(0)
    expect(existsSync(`${spool}.rejected`)).toBe(false)
    for (const { question, options } of PREVIEWED_QUESTIONS) expect(await observationsAt(service.url, question, options), question).toBe(2)
  })

  it('keeps a capture the service refuses for good in the rejected file, as a refused spooled one', async () => {
    const { spool } = await workdir()
    const server = createHttpServer((request, response) => {
      request.resume()
      request.on('end', () => {
        response.writeHead(400, { 'content-type': 'application/json' })
        response.end('{"error":{"code":"invalid_request","message":"no","issues":[]}}')
      })
    })
    servers.push(server as unknown as Server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
    const result = await hook(claudeCodeFixture('post-tool-use-single'), url, spool, GENEROUS)
    expect(result).toMatchObject({ code: 0, stdout: '' })
    expect(await spooledLines(spool)).toBe(0)
    const aside = (await readFile(`${spool}.rejected`, 'utf8')).split('\n').filter((l) => l !== '')
    expect(aside).toHaveLength(1)
    expect(JSON.parse(aside[0] as string).payload.tool_use_id).toBe('toolu_01QxAmPLe0001TierChoice')
  })

  it('spools a capture when DECISION_MEMORY_PORT is no port, naming the variable, as it does for a URL without http://', async () => {
    const { spool } = await workdir()
    const result = await runCli(['hook', '--spool', spool], {
      input: JSON.stringify(claudeCodeFixture('post-tool-use-single')),
      env: { DECISION_MEMORY_PORT: 'abc' },
    })
    expect(result).toMatchObject({ code: 0, stdout: '' })
    expect(result.stderr).toContain('DECISION_MEMORY_PORT must be a port number from 0 to 65535, not "abc"')
    expect(result.stderr).toContain('the payload is spooled')
    expect(await spooledLines(spool)).toBe(1)
  })

  it('spools a capture even when its own flags are wrong (in the settings, so in every call), for a mended call to deliver', async () => {
    const { data, spool } = await workdir()
    const service = await serve(data)
    const bad = await runCli(['hook', '--bogus', '--spool', spool], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env: { DECISION_MEMORY_URL: service.url } })
    expect(bad).toMatchObject({ code: 0, stdout: '' })
    expect(bad.stderr).toContain('--bogus')
    expect(bad.stderr).toContain('the payload is spooled')
    expect(await spooledLines(spool)).toBe(1)
    // What it says is not a capture is not kept.
    await runCli(['hook', '--bogus', '--spool', spool], { input: JSON.stringify(claudeCodeFixture('pre-tool-use')), env: { DECISION_MEMORY_URL: service.url } })
    expect(await spooledLines(spool)).toBe(1)
    // The flags mended, the next call delivers what waited.
    expect(await hook(claudeCodeFixture('session-start'), service.url, spool, GENEROUS)).toMatchObject({ code: 0 })
    expect(await spooledLines(spool)).toBe(0)
    expect(await observationsAt(service.url, ...TIER)).toBe(1)
  })

  it('takes a user the service would refuse (--user, DECISION_MEMORY_USER) as a flag mistake: set aside, never delivered for another user', async () => {
    // Spooled for DECISION_MEMORY_USER or `default` instead, the capture was delivered once the
    // flags were mended, recorded as that user's choice: whose it is, the flags leave in doubt.
    const { data, spool } = await workdir()
    const service = await serve(data)
    const input = JSON.stringify(claudeCodeFixture('post-tool-use-single'))
    const bad = await runCli(['hook', '--user', '..', '--spool', spool], { input, env: { DECISION_MEMORY_URL: service.url, DECISION_MEMORY_USER: 'alice' } })
    expect(bad).toMatchObject({ code: 0, stdout: '' })
    expect(bad.stderr).toContain('--user')
    expect(bad.stderr).toContain(`the payload is not spooled: the flags leave whose choices these are in doubt, and spooled for user "alice" it would be recorded as that user's; kept in ${spool}.rejected`)
    // The variable wrong, and no --user: named so, and set aside too.
    const badVariable = await runCli(['hook', '--spool', spool], { input: JSON.stringify(claudeCodeFixture('session-start')), env: { DECISION_MEMORY_URL: service.url, DECISION_MEMORY_USER: '!x' } })
    expect(badVariable).toMatchObject({ code: 0, stdout: '' })
    expect(badVariable.stderr).toContain('DECISION_MEMORY_USER (the default of --user)')
    expect(badVariable.stderr).toContain('spooled for user "default" it would be recorded as that user\'s')
    expect(await spooledLines(spool)).toBe(0)
    expect((await readFile(`${spool}.rejected`, 'utf8')).split('\n').filter((line) => line !== '')).toHaveLength(2)
    // Mended, the next call records nothing of them for alice, nor for anyone else.
    expect(await hook(claudeCodeFixture('pre-tool-use'), service.url, spool, GENEROUS)).toMatchObject({ code: 0 })
    for (const user of ['alice', 'default']) {
      const response = await fetch(`${service.url}/v1/recommendations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user, question: TIER[0], all_options: TIER[1] }),
      })
      expect(((await response.json()) as { observations: number }).observations, user).toBe(0)
    }
    // As stderr and the README say: its "user" set to whose choices these are, its line moved to
    // the spool, the next call records it for that user.
    const [capture] = (await readFile(`${spool}.rejected`, 'utf8')).split('\n')
    await appendFile(spool, JSON.stringify({ ...(JSON.parse(capture as string) as object), user: 'carol' }) + '\n')
    expect(await hook(claudeCodeFixture('session-start'), service.url, spool, GENEROUS)).toMatchObject({ code: 0 })
    expect(await spooledLines(spool)).toBe(0)
    const carol = await fetch(`${service.url}/v1/recommendations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'carol', question: TIER[0], all_options: TIER[1] }),
    })
    expect(((await carol.json()) as { observations: number }).observations).toBe(1)
  })

  it('records a capture set aside for a user in doubt with hook --record-set-aside, and forgets one by the name its flags gave', async () => {
    const { data, spool } = await workdir()
    const service = await serve(data)
    const env = { DECISION_MEMORY_URL: service.url }
    const observationsOf = async (user: string) => {
      const response = await fetch(`${service.url}/v1/recommendations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user, question: TIER[0], all_options: TIER[1] }),
      })
      return ((await response.json()) as { observations: number }).observations
    }
    // `--usr alice` in the settings: set aside under "default", as are bob's captures under `--usr bob`.
    const input = JSON.stringify(claudeCodeFixture('post-tool-use-single'))
    for (const who of ['alice', 'bob']) {
      const set = await runCli(['hook', '--usr', who, '--spool', spool], { input, env })
      expect(set.stderr).toContain(`to record it, run node ${shellWord(BIN_PATH)} hook --record-set-aside --user USER --spool ${spool}, USER being whose choices these are`)
    }
    // As stderr says: run by hand, it reads no payload (none is piped here) and sends nothing.
    const recorded = await runCli(['hook', '--record-set-aside', '--user', 'alice', '--spool', spool], { env })
    expect(recorded).toMatchObject({ code: 0, stderr: '' })
    expect(recorded.stdout).toBe(
      `moved 1 capture set aside for a user in doubt from ${spool}.rejected to ${spool} as user "alice": the next hook call delivers it\n` +
        `left 1 capture set aside for a user in doubt whose flags named "bob", not "alice": record it with --user "bob" if it is that user's\n`,
    )
    expect(await observationsOf('alice')).toBe(0)
    // The flags mended, the next call delivers it as alice's; nothing is recorded for default.
    expect(await hook(claudeCodeFixture('session-start'), service.url, spool, GENEROUS)).toMatchObject({ code: 0 })
    expect(await spooledLines(spool)).toBe(0)
    expect(await observationsOf('alice')).toBe(1)
    expect(await observationsOf('default')).toBe(0)
    // bob's forget takes out the capture his flags named, though it is set aside under "default".
    const forgot = await runCli(['forget', '--user', 'bob', '--yes', '--spool', spool], { env })
    expect(forgot).toMatchObject({ code: 0, stdout: 'forgot bob: 0 entries deleted, 1 spooled hook event removed\n' })
    expect(existsSync(`${spool}.rejected`)).toBe(false)
  })

  it('spools a capture a URL with a path answers 404, for the service to take once the URL is mended', async () => {
    const { data, spool } = await workdir()
    const service = await serve(data)
    const wrong = await hook(claudeCodeFixture('post-tool-use-single'), `${service.url}/v1`, spool, GENEROUS)
    expect(wrong).toMatchObject({ code: 0, stdout: '' })
    // One line: the URL at fault, said once, with where the capture waits; something answered, so not "not reachable".
    expect(wrong.stderr).toBe(
      `decision-memory hook: ${service.url}/v1/v1/hooks/claude-code answered HTTP 404: is DECISION_MEMORY_URL the service's address, with no path?; ` +
        `spooled to ${spool}, where events wait for DECISION_MEMORY_URL to be mended\n`,
    )
    expect(existsSync(`${spool}.rejected`)).toBe(false)
    expect(await spooledLines(spool)).toBe(1)
    // The URL mended, the next call delivers what waited.
    const mended = await hook(claudeCodeFixture('session-start'), service.url, spool, GENEROUS)
    expect(mended.code).toBe(0)
    expect(await spooledLines(spool)).toBe(0)
    expect(await observationsAt(service.url, ...TIER)).toBe(1)
  })

  /** Another server at DECISION_MEMORY_URL, answering every request 200 with this body; its URL. */
  async function answering200(type: string, body: string): Promise<string> {
    const server = createHttpServer((request, response) => {
      request.resume()
      request.on('end', () => {
        response.writeHead(200, { 'content-type': type })
        response.end(body)
      })
    })
    servers.push(server as unknown as Server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(server.address() as { port: number }).port}`
  }

  it('treats a 200 that is not JSON (another server at DECISION_MEMORY_URL) as no service: prints nothing, spools the capture', async () => {
    const { spool } = await workdir()
    const url = await answering200('text/html', '<html><body>Welcome to nginx!</body></html>')
    // Claude Code adds a SessionStart hook's stdout to the agent's context, and shows a
    // PreToolUse's: a page of another server must not get there.
    const pre = await hook(claudeCodeFixture('pre-tool-use'), url, spool, GENEROUS)
    expect(pre).toMatchObject({ code: 0, stdout: '' })
    expect(pre.stderr).toContain('not JSON')
    const capture = await hook(claudeCodeFixture('post-tool-use-single'), url, spool, GENEROUS)
    expect(capture).toMatchObject({ code: 0, stdout: '' })
    // Not delivered: kept for the service, once DECISION_MEMORY_URL is mended.
    expect(await spooledLines(spool)).toBe(1)
    expect(existsSync(`${spool}.rejected`)).toBe(false)
  })

  it('says a 200 answered with JSON that is no object (an array) as such, not as a body that is not JSON', async () => {
    const { spool } = await workdir()
    const url = await answering200('application/json', '[1]')
    const capture = await hook(claudeCodeFixture('post-tool-use-single'), url, spool, GENEROUS)
    expect(capture).toMatchObject({ code: 0, stdout: '' })
    expect(capture.stderr).toContain('answered HTTP 200 with JSON that is not an object')
    expect(capture.stderr).not.toContain('not JSON')
    expect(await spooledLines(spool)).toBe(1)
  })
})

describe('hooks against a service that takes the connection and drops it (a crash mid-request, a port forward with nothing behind it)', () => {
  async function rude() {
    const server = createServer((socket) => socket.destroy())
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(server.address() as { port: number }).port}`
  }

  it('the hook still exits 0 and spools the capture (R-CAP-6)', async () => {
    const { spool } = await workdir()
    const result = await hook(claudeCodeFixture('post-tool-use-single'), await rude(), spool)
    expect(result).toMatchObject({ code: 0, stdout: '' })
    expect(await spooledLines(spool)).toBe(1)
  })

  it('the guard still exits 0 and says why it let the command through', async () => {
    const result = await runCli(['guard', '--timeout', '500'], {
      input: JSON.stringify(claudeCodeFixture('pre-tool-use-bash')),
      env: { DECISION_MEMORY_URL: await rude() },
    })
    expect(result).toMatchObject({ code: 0, stdout: '' })
    expect(result.stderr).toContain('letting the command through')
  })
})

