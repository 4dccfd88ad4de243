import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawn } from 'node:child_process'
import { PassThrough } from 'node:stream'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MemoryLevel } from 'memory-level'
import { decisionRecord, NO_FORCE_PUSH } from '../../test/support/decision-record'
import { captured } from '../../test/support/captured'
import { BIN, cleanEnv, closedPort, runCliFromFile, runCliKeptOpen } from '../../test/support/processes'
import { sparseFile, tempDir } from '../../test/support/temp-dir'
import { LOOKUP_GAVE_UP, STUCK_HOST, stuckDnsPreload } from '../../test/support/stuck-dns'
import { createTestApp } from '../../test/support/test-app'
import { OPS, testTokens } from '../../test/support/tokens'
import { BIN_PATH, shellWord } from '../config/bin-path'
import { createLevelDecisionStore } from '../decisions/level-decision-store'
import { checksElsewhere, guard, guardCommand, GUARD_HELP, GUARD_MAX_FOLDERS, readStdin } from './guard'
import { PAYLOAD_KEPT_BYTES, tooLargeWhy } from './stdin-payload'

const FIXTURES = new URL('../../test/fixtures/claude-code/', import.meta.url)
const bashPayload = () => readFile(new URL('pre-tool-use-bash.json', FIXTURES), 'utf8')


/** The guard talking to the real app in memory, not over a socket. */
async function guardOverApp(options: { failClosed?: boolean; db?: MemoryLevel<string, string> } = {}) {
  const app = await createTestApp({ db: options.db })
  await app.call('POST', '/v1/decisions', NO_FORCE_PUSH)
  const calls: string[] = []
  const fetch = (async (input: string, init?: RequestInit) => {
    calls.push(String(init?.body))
    return app.app.request(input, init)
  }) as unknown as typeof globalThis.fetch
  const run = (payload: string) =>
    guard({ payload, url: 'http://decision-memory.test', failClosed: options.failClosed ?? false, timeoutMs: 10_000, fetch })
  return { app, run, calls }
}

describe('decision-memory guard (R-CON-3)', () => {
  it('names DECISION_MEMORY_URL when it is no http address, or has a path the service answers 404 to', async () => {
    const payload = await bashPayload()
    let called = false
    const never = (async () => {
      called = true
      throw new Error('fetch failed')
    }) as unknown as typeof globalThis.fetch
    const bare = await guard({ payload, url: 'localhost:7420', failClosed: false, timeoutMs: 1000, fetch: never })
    expect(called).toBe(false)
    expect(bare).toEqual({ stdout: '', stderr: 'decision-memory guard: DECISION_MEMORY_URL is "localhost:7420": give the service\'s address as http://HOST:PORT; letting the command through\n' })
    // A user name and password in the URL: fetch would refuse it, and the message printed the password.
    const credentials = await guard({ payload, url: 'http://me:s3cret@127.0.0.1:7421', failClosed: false, timeoutMs: 1000, fetch: never })
    expect(called).toBe(false)
    expect(credentials.stderr).toBe(
      'decision-memory guard: DECISION_MEMORY_URL holds a user name or password (http://…@127.0.0.1:7421), which fetch, the client of the ' +
        'commands and hooks, sends no request with: give the service\'s address as http://HOST:PORT, and its token in DECISION_MEMORY_TOKEN; letting the command through\n',
    )
    const app = await createTestApp()
    const fetch = (async (input: string, init?: RequestInit) => app.app.request(input, init)) as unknown as typeof globalThis.fetch
    const withPath = await guard({ payload, url: 'http://decision-memory.test/v1', failClosed: true, timeoutMs: 1000, fetch })
    expect(withPath.stderr).toBe(
      'decision-memory guard: http://decision-memory.test/v1/v1/decisions/check answered HTTP 404: is DECISION_MEMORY_URL the service\'s address, with no path?; refusing the command (--fail-closed)\n',
    )
    expect(JSON.parse(withPath.stdout).hookSpecificOutput.permissionDecision).toBe('deny')
  })

  it('names DECISION_MEMORY_TOKEN holding a line break rather than calling the service unreachable, and quotes no token', async () => {
    const payload = await bashPayload()
    const app = await createTestApp()
    const fetch = (async (input: string, init?: RequestInit) => app.app.request(input, init)) as unknown as typeof globalThis.fetch
    const out = await guard({ payload, url: 'http://decision-memory.test', token: 'alice-token\n0123456789', failClosed: false, timeoutMs: 1000, fetch })
    expect(out).toEqual({
      stdout: '',
      stderr:
        'decision-memory guard: DECISION_MEMORY_TOKEN holds a line break, a control character or a character past U+00FF, which no HTTP header may carry: ' +
        'set it to the token alone (not shown here); letting the command through\n',
    })
  })

  it('denies the fixture force push, citing the decision', async () => {
    const { run, calls } = await guardOverApp()
    const out = await run(await bashPayload())
    expect(out.stderr).toBe('')
    const answer = JSON.parse(out.stdout)
    expect(answer.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny' })
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain('D-021')
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain('Force push has lost us work twice.')
    // As README shows it: the decision, what the command met, then why.
    expect(answer.hookSpecificOutput.permissionDecisionReason).toMatch(
      /^Blocked by decision D-021 \(required\): Never force push to protected branches\. .+\. Why: Force push has lost us work twice\.$/,
    )
    expect(JSON.parse(calls[0] as string)).toEqual({ action: 'git push --force origin main', path: '/home/dev/acme-api' })
  })

  it('denies the force push sent to the PowerShell tool too, which runs shell commands on Windows in place of Bash', async () => {
    const { run, calls } = await guardOverApp()
    // Claude Code on Windows routes shell commands through its PowerShell tool, and without Git
    // Bash registers no Bash tool at all (hooks reference, PreToolUse: PowerShell).
    const powershell = JSON.parse(await bashPayload())
    powershell.tool_name = 'PowerShell'
    const answer = JSON.parse((await run(JSON.stringify(powershell))).stdout)
    expect(answer.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny' })
    expect(answer.hookSpecificOutput.permissionDecisionReason).toMatch(/^Blocked by decision D-021 \(required\)/)
    expect(JSON.parse(calls[0] as string)).toEqual({ action: 'git push --force origin main', path: '/home/dev/acme-api' })
  })

  it('cites a long rationale by its start and where the whole is, and keeps the reason within what Claude Code shows whole', async () => {
    // Claude Code saves a field over 10,000 characters to a file and shows the agent a preview.
    const long = (key: string) => `${key} says why at length. ${'Force push has lost us work twice. '.repeat(240)}`.slice(0, 8000)
    const app = await createTestApp()
    expect((await app.call('POST', '/v1/decisions', { ...NO_FORCE_PUSH, rationale: long('D-021') })).status).toBe(201)
    const fetch = (async (input: string, init?: RequestInit) => app.app.request(input, init)) as unknown as typeof globalThis.fetch
    const run = (payload: string) => guard({ payload, url: 'http://decision-memory.test', failClosed: false, timeoutMs: 1000, fetch })
    const one = JSON.parse((await run(await bashPayload())).stdout).hookSpecificOutput.permissionDecisionReason as string
    expect(one.length).toBeLessThan(1200)
    expect(one).toMatch(/^Blocked by decision D-021 \(required\): Never force push to protected branches\. .+\. Why: D-021 says why at length\. Force push/)
    // The command that prints it whole runs as printed: this checkout's bin by path (`decision-memory`
    // is on no PATH), the guard's service named, a new shell not finding it at the default address.
    expect(one.endsWith(`… (the whole rationale: DECISION_MEMORY_URL=http://decision-memory.test node ${shellWord(BIN_PATH)} why D-021)`)).toBe(true)
    // Many decisions block it, each with a long rationale: each is still named, its rationale cut
    // shorter, and the reason fits.
    for (let i = 1; i <= 14; i++) {
      const key = `D-1${String(i).padStart(2, '0')}`
      expect((await app.call('POST', '/v1/decisions', { ...NO_FORCE_PUSH, key, title: `No force push, rule ${i}`, rationale: long(key) })).status).toBe(201)
    }
    const many = JSON.parse((await run(await bashPayload())).stdout).hookSpecificOutput.permissionDecisionReason as string
    expect(many.length).toBeLessThanOrEqual(10_000)
    expect(many).toMatch(/^Blocked by decision /)
    for (const key of ['D-021', ...Array.from({ length: 14 }, (_, i) => `D-1${String(i + 1).padStart(2, '0')}`)]) {
      expect(many).toContain(`Blocked by decision ${key} (required)`)
      expect(many).toContain(`Why: ${key} says why`)
      expect(many).toContain(`(the whole rationale: DECISION_MEMORY_URL=http://decision-memory.test node ${shellWord(BIN_PATH)} why ${key})`)
    }
  })

  it('denies the force push however the agent writes it, and the check route says the same (R-CON-3)', async () => {
    const { app, run } = await guardOverApp()
    const fixture = await bashPayload()
    const written = [
      `git push '--force' origin main`,
      `GIT_SSH_COMMAND="ssh -v" git -C /home/dev/acme-api push "--force" origin main`,
      'npm test && sudo /usr/bin/git push \\--force origin main',
      `bash -lc 'git push --for"ce" origin main'`,
    ]
    for (const command of written) {
      const payload = JSON.stringify({ ...JSON.parse(fixture), tool_input: { command, description: 'Push the rebased branch' } })
      const answer = JSON.parse((await run(payload)).stdout)
      expect(answer.hookSpecificOutput.permissionDecision, command).toBe('deny')
      // The reason says the command as the shell runs it, which is what the pattern matched.
      expect(answer.hookSpecificOutput.permissionDecisionReason).toMatch(/\(read as "[^"]*git push --force origin main"\)/)
      const check = await app.call('POST', '/v1/decisions/check', { action: command, path: '/home/dev/acme-api' })
      expect(check.body.blocked_by.map((b: { key: string }) => b.key), command).toEqual(['D-021'])
    }
  })

  it('prints nothing for a command no decision forbids', async () => {
    const { run } = await guardOverApp()
    const payload = (await bashPayload()).replace('git push --force origin main', 'git push origin main')
    expect(await run(payload)).toEqual({ stdout: '', stderr: '' })
  })

  it('lets a command an advisory decision forbids through, telling the agent and the user why, without allowing it', async () => {
    const { app, run } = await guardOverApp()
    const noPublish = { ...NO_FORCE_PUSH, key: 'D-040', title: 'Packages are published by CI', enforce: 'advisory', rationale: 'CI signs them.', constraints: [{ kind: 'must_not', pattern: 'npm publish' }] }
    expect((await app.call('POST', '/v1/decisions', noPublish)).status).toBe(201)
    const answer = await run((await bashPayload()).replace('git push --force origin main', 'npm publish --tag next'))
    expect(answer.stderr).toBe('')
    const out = JSON.parse(answer.stdout)
    const note = 'Advisory decision D-040 (not enforced): Packages are published by CI. "npm publish --tag next" matches the must_not pattern /npm publish/. Why: CI signs them.'
    expect(out).toEqual({ systemMessage: note, hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: note } })
    // A required decision still denies, whatever advisory ones say besides.
    const both = JSON.parse((await run((await bashPayload()).replace('git push --force origin main', 'git push --force origin main && npm publish'))).stdout)
    expect(both.hookSpecificOutput.permissionDecision).toBe('deny')
  })

  it('tells the user of a decision left unchecked for its stored glob scope, letting the command through', async () => {
    // Stored by a version that took a glob as a path scope: it applies to none of the paths the glob matches.
    const db = new MemoryLevel<string, string>()
    const stored = await createLevelDecisionStore(db as never)
    const scoped = (path: string) => ({ points: [], task: null, path, stage: null })
    await stored.transact(async (tx) => {
      await tx.put(decisionRecord('D-GLOB', { scope: scoped('/home/dev/**'), constraints: [{ kind: 'must_not', pattern: 'rm -rf' }] }))
      await tx.put(decisionRecord('D-SUB', { scope: scoped('/home/dev/acme-api/web/*'), constraints: [{ kind: 'must_not', pattern: 'rm -rf' }] }))
    })
    const { app, run } = await guardOverApp({ db })
    const warningOf = async (key: string) => (await app.call('GET', `/v1/decisions/${key}`)).body.scope_warning as string
    const command = (text: string) => bashPayload().then((p) => p.replace('git push --force origin main', text))
    const unchecked = await run(await command('rm -rf build'))
    expect(unchecked.stderr).toBe('')
    // To the user, not the agent: no permission decision, and nothing the agent would weigh the command against.
    expect(JSON.parse(unchecked.stdout)).toEqual({ systemMessage: `Decision D-GLOB was not checked: ${await warningOf('D-GLOB')}.` })
    // Beside an advisory decision's note: the agent is told the advice alone, the user both.
    const noPublish = { ...NO_FORCE_PUSH, key: 'D-040', title: 'Packages are published by CI', enforce: 'advisory', rationale: 'CI signs them.', constraints: [{ kind: 'must_not', pattern: 'npm publish' }] }
    expect((await app.call('POST', '/v1/decisions', noPublish)).status).toBe(201)
    const both = JSON.parse((await run(await command('npm publish && rm -rf dist'))).stdout)
    const note = 'Advisory decision D-040 (not enforced): Packages are published by CI. "npm publish && rm -rf dist" matches the must_not pattern /npm publish/. Why: CI signs them.'
    expect(both).toEqual({ systemMessage: `${note} Decision D-GLOB was not checked: ${await warningOf('D-GLOB')}.`, hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: note } })
    // Where a part of the command runs, said with its folder, each decision once.
    const sub = JSON.parse((await run(await command('cd web && rm -rf build'))).stdout)
    expect(sub.systemMessage).toBe(
      `Decision D-GLOB was not checked: ${await warningOf('D-GLOB')}. Decision D-SUB was not checked (run in /home/dev/acme-api/web): ${await warningOf('D-SUB')}.`,
    )
    // A command denied is told why it is denied, the deny alone.
    expect(JSON.parse((await run(await command('git push --force origin main'))).stdout)).toEqual({
      hookSpecificOutput: expect.objectContaining({ permissionDecision: 'deny' }),
    })
    // Outside the folder the glob was written for, nothing is said.
    const elsewhere = JSON.stringify({ ...JSON.parse(await command('rm -rf build')), cwd: '/srv/other' })
    expect(await run(elsewhere)).toEqual({ stdout: '', stderr: '' })
    // Nor in it at a command the decision could not have blocked: `ls` is no `rm -rf`.
    expect(await run(await command('ls'))).toEqual({ stdout: '', stderr: '' })
    expect(await run(await command('cd web && cat index.html'))).toEqual({ stdout: '', stderr: '' })
  })

  it('says in its help that a glob-scoped decision is told of only where it would have acted', () => {
    // `ls` under a decision against `rm -rf` stored as `src/billing/**` is told nothing: the help must not promise more.
    expect(GUARD_HELP.replace(/\s+/g, ' ')).toContain('and, read as scoped to the glob\'s folder, would have denied or warned of the command, a note for the user (systemMessage)')
  })

  it('leaves other tools and events alone without asking the service', async () => {
    const { run, calls } = await guardOverApp()
    const ask = await readFile(new URL('pre-tool-use.json', FIXTURES), 'utf8')
    const start = await readFile(new URL('session-start.json', FIXTURES), 'utf8')
    expect(await run(ask)).toEqual({ stdout: '', stderr: '' })
    expect(await run(start)).toEqual({ stdout: '', stderr: '' })
    expect(calls).toEqual([])
    // Another tool's input may carry a `command` too: only Bash's is a shell command to check.
    const other = JSON.parse(await bashPayload())
    other.tool_name = 'mcp__deploy__run'
    expect(await run(JSON.stringify(other))).toEqual({ stdout: '', stderr: '' })
    expect(calls).toEqual([])
  })

  it('passes a command of only white space, which runs nothing, without asking the service, even fail-closed', async () => {
    const { run, calls } = await guardOverApp({ failClosed: true })
    for (const command of ['', '   ', '\n']) {
      const payload = JSON.stringify({ ...JSON.parse(await bashPayload()), tool_input: { command } })
      expect(await run(payload), JSON.stringify(command)).toEqual({ stdout: '', stderr: '' })
    }
    expect(calls).toEqual([])
  })

  it('lets the command through when the service is down, and says so; fail-closed refuses it', async () => {
    const refused = (async () => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })
    }) as unknown as typeof fetch
    const input = { payload: await bashPayload(), url: 'http://127.0.0.1:9', timeoutMs: 1000, fetch: refused }
    const open = await guard({ ...input, failClosed: false })
    expect(open.stdout).toBe('')
    expect(open.stderr).toBe(
      'decision-memory guard: the service at http://127.0.0.1:9 is not reachable (ECONNREFUSED); letting the command through\n',
    )
    const closed = await guard({ ...input, failClosed: true })
    expect(JSON.parse(closed.stdout).hookSpecificOutput.permissionDecision).toBe('deny')
    expect(closed.stderr).toContain('refusing the command (--fail-closed)')
  })

  it('refuses fail-closed, exit 0, when Claude Code has closed its stderr (EPIPE), rather than end with an error', async () => {
    // The line said on stderr failed to be written, and the error, with no listener, ended the
    // guard with exit 1: a hook error, whose deny on stdout Claude Code does not act on.
    const port = await closedPort()
    const env = cleanEnv({ DECISION_MEMORY_URL: `http://127.0.0.1:${port}` })
    const child = spawn(process.execPath, [BIN, 'guard', '--fail-closed'], { env, stdio: ['pipe', 'pipe', 'pipe'] })
    child.stderr.destroy()
    let stdout = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))
    child.stdin.end(await bashPayload())
    expect(await closed).toBe(0)
    expect(JSON.parse(stdout).hookSpecificOutput.permissionDecision).toBe('deny')
  })

  it('says a host not found, or https:// to the service, as the URL\'s mistake, not as a service down', async () => {
    const failing = (code: string) =>
      (async () => {
        throw Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(code), { code }) })
      }) as unknown as typeof fetch
    const payload = await bashPayload()
    const notFound = await guard({ payload, url: 'http://dm-host.invalid:7420', timeoutMs: 1000, fetch: failing('ENOTFOUND'), failClosed: false })
    expect(notFound.stderr).toBe(
      'decision-memory guard: the service at http://dm-host.invalid:7420: no host of that name was found (ENOTFOUND): is the host in DECISION_MEMORY_URL right?; letting the command through\n',
    )
    const tls = await guard({ payload, url: 'https://127.0.0.1:7420', timeoutMs: 1000, fetch: failing('ERR_SSL_WRONG_VERSION_NUMBER'), failClosed: false })
    expect(tls.stderr).toContain('give DECISION_MEMORY_URL as http://, not https://')
  })

  it('says a port fetch will not connect to as that, as the hook and the commands say it, not as a service down', async () => {
    // fetch refuses 6000 (a "bad port" of the Fetch standard) before connecting: no service is needed.
    const payload = await bashPayload()
    const open = await guard({ payload, url: 'http://127.0.0.1:6000', timeoutMs: 1000, fetch: globalThis.fetch, failClosed: false })
    expect(open.stdout).toBe('')
    expect(open.stderr).toBe(
      'decision-memory guard: the service at http://127.0.0.1:6000: port 6000 is one that fetch, the client of the commands and hooks, will not connect to (a "bad port" of the Fetch standard); run the service on another (serve --port, DECISION_MEMORY_PORT); letting the command through\n',
    )
  })

  it('tells an advisory pattern left undecided from one the command meets by the service\'s mark, not by the words of the command', async () => {
    const { app, run } = await guardOverApp()
    const slow = { ...NO_FORCE_PUSH, key: 'D-031', title: 'Slow advice', enforce: 'advisory', constraints: [{ kind: 'must_not', pattern: '(a+)+$' }] }
    expect((await app.call('POST', '/v1/decisions', slow)).status).toBe(201)
    // The command quotes the words of a match: it is still a pattern that could not be decided.
    const command = `echo "x matches the must_not pattern /y/" ${'a'.repeat(40)}!`
    const check = (await app.call('POST', '/v1/decisions/check', { action: command })).body
    expect(check.warnings).toMatchObject([{ key: 'D-031', undecided: true }])
    const payload = JSON.parse(await bashPayload())
    expect(await run(JSON.stringify({ ...payload, tool_input: { ...payload.tool_input, command } }))).toEqual({
      stdout: '',
      stderr: 'decision-memory guard: advisory decision D-031 could not be checked against this command in time; letting the command through\n',
    })
  })

  it('still tells the advice on what it checked when the rest could not be checked, and lets the command through', async () => {
    const noPublish = { ...NO_FORCE_PUSH, key: 'D-040', title: 'Packages are published by CI', enforce: 'advisory', rationale: 'CI signs them.', constraints: [{ kind: 'must_not', pattern: 'npm publish' }] }
    const slow = { ...NO_FORCE_PUSH, key: 'D-030', title: 'Slow', constraints: [{ kind: 'must_not', pattern: '(a+)+$' }] }
    const open = await guardOverApp()
    expect((await open.app.call('POST', '/v1/decisions', noPublish)).status).toBe(201)
    const withCommand = async (command: string) => (await bashPayload()).replace('git push --force origin main', command)
    const long = await open.run(await withCommand(`npm publish # ${'x'.repeat(150_000)}`))
    expect(JSON.parse(long.stdout).hookSpecificOutput.additionalContext).toMatch(/^Advisory decision D-040 \(not enforced\)/)
    expect(long.stderr).toMatch(/only its first 100000 could be checked .*; letting the command through\n$/)
    expect((await open.app.call('POST', '/v1/decisions', slow)).status).toBe(201)
    const undecided = await open.run(await withCommand(`npm publish && echo ${'a'.repeat(40)}!`))
    expect(JSON.parse(undecided.stdout).systemMessage).toMatch(/^Advisory decision D-040 /)
    expect(undecided.stderr).toBe('decision-memory guard: required decision D-030 could not be checked against this command in time; letting the command through\n')
    // An advisory pattern it could not decide on the checked part is said beside the line.
    const slowAdvice = { ...slow, key: 'D-031', enforce: 'advisory' }
    const other = await guardOverApp()
    expect((await other.app.call('POST', '/v1/decisions', slowAdvice)).status).toBe(201)
    const both = await other.run(await withCommand(`echo ${'a'.repeat(40)}! # ${'x'.repeat(150_000)}`))
    expect(both.stderr.split('\n')).toEqual([
      expect.stringMatching(/only its first 100000 could be checked .*; letting the command through$/),
      'decision-memory guard: advisory decision D-031 could not be checked against this command in time; letting the command through',
      '',
    ])
    // Fail-closed, the command is refused, and the refusal is what is said.
    const closed = await guardOverApp({ failClosed: true })
    await closed.app.call('POST', '/v1/decisions', noPublish)
    const refused = await closed.run(await withCommand(`npm publish # ${'x'.repeat(150_000)}`))
    expect(JSON.parse(refused.stdout).hookSpecificOutput.permissionDecision).toBe('deny')
  })

  it('names several decisions whose patterns could not be decided in time together, the sentence in the plural', async () => {
    const slow = { ...NO_FORCE_PUSH, title: 'Slow', constraints: [{ kind: 'must_not', pattern: '(a+)+$' }] }
    const payload = (await bashPayload()).replace('git push --force origin main', `echo ${'a'.repeat(40)}!`)
    const required = await guardOverApp()
    for (const key of ['D-030', 'D-032']) expect((await required.app.call('POST', '/v1/decisions', { ...slow, key })).status).toBe(201)
    expect((await required.run(payload)).stderr).toBe('decision-memory guard: required decisions D-030, D-032 could not be checked against this command in time; letting the command through\n')
    const advisory = await guardOverApp()
    for (const key of ['D-031', 'D-033']) expect((await advisory.app.call('POST', '/v1/decisions', { ...slow, key, enforce: 'advisory' })).status).toBe(201)
    expect(await advisory.run(payload)).toEqual({
      stdout: '',
      stderr: 'decision-memory guard: advisory decisions D-031, D-033 could not be checked against this command in time; letting the command through\n',
    })
  })

  it('says so when a required pattern could not be decided in time, and fail-closed refuses the command', async () => {
    const slow = { ...NO_FORCE_PUSH, key: 'D-030', title: 'Slow', constraints: [{ kind: 'must_not', pattern: '(a+)+$' }] }
    const payload = (await bashPayload()).replace('git push --force origin main', `echo ${'a'.repeat(40)}!`)
    const open = await guardOverApp()
    await open.app.call('POST', '/v1/decisions', slow)
    const letThrough = await open.run(payload)
    expect(letThrough.stdout).toBe('')
    expect(letThrough.stderr).toBe('decision-memory guard: required decision D-030 could not be checked against this command in time; letting the command through\n')
    const closed = await guardOverApp({ failClosed: true })
    await closed.app.call('POST', '/v1/decisions', slow)
    const refused = await closed.run(payload)
    expect(JSON.parse(refused.stdout).hookSpecificOutput.permissionDecision).toBe('deny')
    expect(refused.stderr).toContain('refusing the command (--fail-closed)')
    // A command every pattern decides passes as before.
    expect(await closed.run((await bashPayload()).replace('git push --force origin main', 'ls'))).toEqual({ stdout: '', stderr: '' })
  })

  it('checks the start of a command longer than the service takes, and says the rest went unchecked; fail-closed refuses it', async () => {
    const withCommand = async (command: string) => JSON.stringify({ ...JSON.parse(await bashPayload()), tool_input: { command } })
    const open = await guardOverApp()
    // Over the action limit, and (in three-byte characters) over the body limit: the service would
    // refuse either with a 4xx, which let the force push through.
    for (const padding of ['x'.repeat(150_000), '漢'.repeat(99_000)]) {
      const denied = await open.run(await withCommand(`git push --force origin main # ${padding}`))
      expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe('deny')
    }
    const sent = JSON.parse(open.calls.at(-1) as string).action as string
    expect(sent.startsWith('git push --force origin main # 漢')).toBe(true)
    expect(Buffer.byteLength(sent)).toBeLessThan(256 * 1024)
    const harmless = await withCommand(`echo ${'x'.repeat(150_000)}`)
    expect(await open.run(harmless)).toEqual({
      stdout: '',
      stderr: 'decision-memory guard: the command is 150005 characters long, and only its first 100000 could be checked (the service takes at most 100000); letting the command through\n',
    })
    const closed = await guardOverApp({ failClosed: true })
    expect(JSON.parse((await closed.run(harmless)).stdout).hookSpecificOutput.permissionDecision).toBe('deny')
  })

  it('sends nothing it cannot cut to the body limit, and says so: a cwd alone over it', async () => {
    // The cut stopped only once the body fitted, and with no command left it never did: the guard
    // spun for good, holding the agent up until Claude Code's hook timeout let the command through.
    const payload = JSON.stringify({ ...JSON.parse(await bashPayload()), cwd: `/${'p'.repeat(300_000)}` })
    const closed = await guardOverApp({ failClosed: true })
    const out = await closed.run(payload)
    expect(JSON.parse(out.stdout).hookSpecificOutput.permissionDecision).toBe('deny')
    expect(out.stderr).toContain('the service answered HTTP 413')
  })

  it('does not wait for a service that never answers', async () => {
    const silent = ((_input: string, init?: RequestInit) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))
      })) as unknown as typeof fetch
    const out = await guard({ payload: await bashPayload(), url: 'http://slow.test', failClosed: false, timeoutMs: 20, fetch: silent })
    expect(out).toEqual({
      stdout: '',
      stderr: 'decision-memory guard: the service at http://slow.test is not reachable (no answer within 20 ms); letting the command through\n',
    })
  })

  it('says an error answer of the service in its words, not as its JSON envelope', async () => {
    const stopping = (async () =>
      new Response(JSON.stringify({ error: { code: 'stopping', message: 'the service is stopping', issues: [], request_id: 'abc' } }), {
        status: 503,
        headers: { 'content-type': 'application/json' },
      })) as unknown as typeof fetch
    const out = await guard({ url: 'http://x.test', failClosed: false, timeoutMs: 1000, fetch: stopping, payload: await bashPayload() })
    expect(out).toEqual({ stdout: '', stderr: 'decision-memory guard: the service answered HTTP 503: the service is stopping; letting the command through\n' })
    // JSON had a control character escaped: so does the message, read out of it.
    const escaped = (async () => new Response(JSON.stringify({ error: { code: 'x', message: 'bad \u001b[2J' } }), { status: 400 })) as unknown as typeof fetch
    const shown = await guard({ url: 'http://x.test', failClosed: false, timeoutMs: 1000, fetch: escaped, payload: await bashPayload() })
    expect(shown.stderr).toBe('decision-memory guard: the service answered HTTP 400: bad \\u001b[2J; letting the command through\n')
  })

  it('treats an error answer or a broken payload as a service it cannot rely on', async () => {
    const broken = (async () => new Response('oops', { status: 500 })) as unknown as typeof fetch
    const base = { url: 'http://x.test', failClosed: false, timeoutMs: 1000, fetch: broken }
    expect((await guard({ ...base, payload: await bashPayload() })).stderr).toContain('HTTP 500')
    const garbage = await guard({ ...base, payload: 'not json' })
    expect(garbage).toEqual({ stdout: '', stderr: 'decision-memory guard: stdin is not a JSON hook payload; letting the command through\n' })
  })

  it('says a terminal is no hook payload, as the hook says it, run by hand with nothing piped: let through, and refused with --fail-closed', async () => {
    const unused = (async () => new Response('{}')) as unknown as typeof fetch
    const base = { url: 'http://x.test', timeoutMs: 1000, fetch: unused, payload: '', payloadFromTerminal: true }
    const why = 'stdin is a terminal, not a hook payload: the guard reads one hook payload on stdin, as Claude Code gives it (decision-memory guard < payload.json; see decision-memory guard --help)'
    expect(await guard({ ...base, failClosed: false })).toEqual({ stdout: '', stderr: `decision-memory guard: ${why}; letting the command through\n` })
    const closed = await guard({ ...base, failClosed: true })
    expect(JSON.parse(closed.stdout).hookSpecificOutput.permissionDecision).toBe('deny')
    expect(closed.stderr).toBe(`decision-memory guard: ${why}; refusing the command (--fail-closed)\n`)
  })

  it('reads a terminal on stdin as one, not as an empty payload, so that it is said so when run by hand', async () => {
    const terminal = Object.assign(new PassThrough(), { isTTY: true })
    expect(await readStdin(1000, terminal, () => undefined)).toEqual({ text: '', cut: false, terminal: true })
    const pipe = new PassThrough()
    pipe.end('{"tool_name":"Bash"}')
    expect(await readStdin(1000, pipe, () => undefined)).toMatchObject({ text: '{"tool_name":"Bash"}', cut: false })
  })

  it('says a JSON array is no hook payload, as it says of garbage or null: let through, and refused with --fail-closed', async () => {
    const unused = (async () => new Response('{}')) as unknown as typeof fetch
    const base = { url: 'http://x.test', timeoutMs: 1000, fetch: unused }
    for (const payload of ['[]', '[{}]', JSON.stringify([JSON.parse(await bashPayload())]), 'null']) {
      expect(await guard({ ...base, failClosed: false, payload })).toEqual({
        stdout: '',
        stderr: 'decision-memory guard: stdin is not a JSON hook payload; letting the command through\n',
      })
      const closed = await guard({ ...base, failClosed: true, payload })
      expect(JSON.parse(closed.stdout).hookSpecificOutput.permissionDecision).toBe('deny')
      expect(closed.stderr).toBe('decision-memory guard: stdin is not a JSON hook payload; refusing the command (--fail-closed)\n')
    }
  })

  it('says a shell call without tool_input.command, or with no text there, as a payload it cannot read: let through, and refused with --fail-closed', async () => {
    let called = false
    const unused = (async () => {
      called = true
      return new Response('{}')
    }) as unknown as typeof fetch
    const base = { url: 'http://x.test', timeoutMs: 1000, fetch: unused }
    const bash = JSON.parse(await bashPayload())
    const cases: Array<[unknown, string]> = [
      [{ ...bash, tool_input: { description: 'list' } }, 'with no tool_input.command'],
      [{ ...bash, tool_input: null }, 'with no tool_input.command'],
      [(({ tool_input: _, ...rest }) => rest)(bash), 'with no tool_input.command'],
      [{ ...bash, tool_input: { command: 42 } }, 'with a tool_input.command that is no text (a number)'],
      [{ ...bash, tool_input: { command: null } }, 'with a tool_input.command that is no text (null)'],
      [{ ...bash, tool_name: 'PowerShell', tool_input: { command: ['ls'] } }, 'with a tool_input.command that is no text (an array)'],
    ]
    for (const [event, said] of cases) {
      const payload = JSON.stringify(event)
      const tool = (event as { tool_name: string }).tool_name
      const why = `stdin is a PreToolUse payload of ${tool} ${said}, so no command to check`
      expect(await guard({ ...base, failClosed: false, payload }), said).toEqual({ stdout: '', stderr: `decision-memory guard: ${why}; letting the command through\n` })
      const closed = await guard({ ...base, failClosed: true, payload })
      expect(JSON.parse(closed.stdout).hookSpecificOutput.permissionDecision).toBe('deny')
      expect(closed.stderr).toBe(`decision-memory guard: ${why}; refusing the command (--fail-closed)\n`)
    }
    expect(called).toBe(false)
    // Another tool, or another event, passes untouched, as before; so does a command of white space alone, which runs nothing.
    for (const event of [{ ...bash, tool_name: 'Read', tool_input: {} }, { ...bash, hook_event_name: 'PostToolUse', tool_input: {} }, { ...bash, tool_input: { command: '  ' } }]) {
      expect(await guard({ ...base, failClosed: true, payload: JSON.stringify(event) })).toEqual({ stdout: '', stderr: '' })
    }
  })

  it('does not take another program\'s JSON ({}) for a verdict: said, and refused with --fail-closed', async () => {
    const other = (async () => new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } })) as unknown as typeof fetch
    const base = { url: 'http://x.test', timeoutMs: 1000, fetch: other, payload: await bashPayload() }
    const said = 'http://x.test/v1/decisions/check answered JSON that is no check\'s verdict: is DECISION_MEMORY_URL a decision-memory service?'
    expect(await guard({ ...base, failClosed: false })).toEqual({ stdout: '', stderr: `decision-memory guard: ${said}; letting the command through\n` })
    const closed = await guard({ ...base, failClosed: true })
    expect(JSON.parse(closed.stdout).hookSpecificOutput.permissionDecision).toBe('deny')
    expect(closed.stderr).toContain(said)
  })

  it('says a payload over what it keeps of one was too large, not that it is no JSON nor late: let through, refused with --fail-closed', async () => {
    const unused = (async () => new Response('{}')) as unknown as typeof fetch
    const base = { url: 'http://x.test', timeoutMs: 5, fetch: unused, payloadTooLarge: true, payload: '' }
    const said = 'the hook payload on stdin was over 16 MB, more than the guard keeps of one, so it did not arrive whole'
    expect(await guard({ ...base, failClosed: false })).toEqual({ stdout: '', stderr: `decision-memory guard: ${said}; letting the command through\n` })
    const closed = await guard({ ...base, failClosed: true, payloadCut: true })
    expect(JSON.parse(closed.stdout).hookSpecificOutput.permissionDecision).toBe('deny')
    expect(closed.stderr).toBe(`decision-memory guard: ${said}; refusing the command (--fail-closed)\n`)
  })

  it('says a payload cut at --timeout was late, not that it is no JSON', async () => {
    const unused = (async () => new Response('{}')) as unknown as typeof fetch
    const base = { url: 'http://x.test', timeoutMs: 5, fetch: unused, payloadCut: true }
    const cut = (await bashPayload()).slice(0, 40)
    expect(await guard({ ...base, failClosed: false, payload: cut })).toEqual({
      stdout: '',
      stderr: 'decision-memory guard: the hook payload did not arrive on stdin within 5 ms (--timeout); letting the command through\n',
    })
    const closed = await guard({ ...base, failClosed: true, payload: '' })
    expect(JSON.parse(closed.stdout).hookSpecificOutput.permissionDecision).toBe('deny')
    expect(closed.stderr).toContain('did not arrive on stdin within 5 ms')
  })

  it('sends DECISION_MEMORY_TOKEN to a service run with --auth, so that it still denies (R-SVC-4)', async () => {
    const app = await createTestApp({ auth: testTokens })
    const created = await app.call('POST', '/v1/decisions', NO_FORCE_PUSH, { authorization: `Bearer ${OPS}` })
    expect(created.status).toBe(201)
    const fetch = (async (input: string, init?: RequestInit) => app.app.request(input, init)) as unknown as typeof globalThis.fetch
    const base = { payload: await bashPayload(), url: 'http://decision-memory.test', failClosed: false, timeoutMs: 1000, fetch }
    const out = await guard({ ...base, token: OPS })
    expect(out.stderr).toBe('')
    expect(JSON.parse(out.stdout).hookSpecificOutput.permissionDecision).toBe('deny')
  })

  it('says a token the service refuses as the other commands do, naming DECISION_MEMORY_TOKEN; fail-closed refuses the command', async () => {
    const app = await createTestApp({ auth: testTokens })
    await app.call('POST', '/v1/decisions', NO_FORCE_PUSH, { authorization: `Bearer ${OPS}` })
    const fetch = (async (input: string, init?: RequestInit) => app.app.request(input, init)) as unknown as typeof globalThis.fetch
    const base = { payload: await bashPayload(), url: 'http://decision-memory.test', timeoutMs: 1000, fetch }
    const stale = 'a-token-rotated-out-of-the-file'
    const open = await guard({ ...base, failClosed: false, token: stale })
    expect(open).toEqual({
      stdout: '',
      stderr:
        "decision-memory guard: the service refused the token (HTTP 401: the bearer token is not valid); set DECISION_MEMORY_TOKEN to a token of the service's tokens file; letting the command through\n",
    })
    const none = await guard({ ...base, failClosed: true })
    expect(none.stderr).toContain('(HTTP 401: a bearer token is required); set DECISION_MEMORY_TOKEN')
    expect(JSON.parse(none.stdout).hookSpecificOutput.permissionDecision).toBe('deny')
    expect(open.stderr + none.stdout + none.stderr).not.toContain(stale)
  })

  it('scopes by the path inside the repository, so that a decision on services/payments guards commands run there (R-CON-4)', async () => {
    const repo = await mkdtemp(join(tmpdir(), 'dm-guard-'))
    try {
      await mkdir(join(repo, '.git'))
      await mkdir(join(repo, 'services', 'payments', 'src'), { recursive: true })
      const { app, run, calls } = await guardOverApp()
      const noPublish = { ...NO_FORCE_PUSH, key: 'D-040', title: 'Payments is never published', scope: { path: 'services/payments' }, constraints: [{ kind: 'must_not', pattern: 'npm publish' }] }
      expect((await app.call('POST', '/v1/decisions', noPublish)).status).toBe(201)
      const publishIn = async (cwd: string) => run((await bashPayload()).replace('git push --force origin main', 'npm publish').replace('/home/dev/acme-api', cwd))
      const below = await publishIn(join(repo, 'services', 'payments', 'src'))
      expect(JSON.parse(below.stdout).hookSpecificOutput.permissionDecisionReason).toContain('D-040')
      expect(JSON.parse(calls[0] as string).path).toBe('services/payments/src')
      // At the root, and in a sibling folder, the scoped decision does not apply.
      expect(await publishIn(repo)).toEqual({ stdout: '', stderr: '' })
      expect(JSON.parse(calls[1] as string).path).toBe('.')
      await mkdir(join(repo, 'services', 'payments-v2'))
      expect(await publishIn(join(repo, 'services', 'payments-v2'))).toEqual({ stdout: '', stderr: '' })
      // A global decision still applies everywhere.
      const forcePush = await run((await bashPayload()).replace('/home/dev/acme-api', join(repo, 'services')))
      expect(JSON.parse(forcePush.stdout).hookSpecificOutput.permissionDecisionReason).toContain('D-021')
    } finally {
      await rm(repo, { recursive: true, force: true })
    }
  })

  it('checks each part of a chain where its cd takes it, so that a decision scoped to services/billing meets `cd services/billing && rm -rf build` run at the root (R-CON-4)', async () => {
    const repo = await mkdtemp(join(tmpdir(), 'dm-guard-cd-'))
    try {
      await mkdir(join(repo, '.git'))
      await mkdir(join(repo, 'services', 'billing'), { recursive: true })
      const { app, run, calls } = await guardOverApp()
      const noClean = { ...NO_FORCE_PUSH, key: 'D-050', title: 'Billing keeps its build', scope: { path: 'services/billing' }, constraints: [{ kind: 'must_not', pattern: '^rm -rf build' }] }
      expect((await app.call('POST', '/v1/decisions', noClean)).status).toBe(201)
      const at = async (command: string, cwd = repo) => run((await bashPayload()).replace('git push --force origin main', command.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')).replace('/home/dev/acme-api', cwd))
      const denied = await at('cd services/billing && rm -rf build')
      expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecisionReason).toContain('Blocked by decision D-050 (required): Billing keeps its build. "rm -rf build" matches the must_not pattern /^rm -rf build/ (run in services/billing). Why:')
      // Two checks at once: the whole command where it starts, as before, and the part run in billing there.
      expect(calls.map((c) => JSON.parse(c))).toEqual([
        { action: 'cd services/billing && rm -rf build', path: '.' },
        { action: 'rm -rf build', path: 'services/billing' },
      ])
      // Quoted, absolute, with cd --, pushd, or a cd of its own line: the same.
      for (const command of ['cd "services/billing" && rm -rf build', `cd ${repo}/services/billing; rm -rf build`, 'cd -- services/billing || exit 1\nrm -rf build', 'pushd services/billing && rm -rf build && popd']) {
        expect(JSON.parse((await at(command)).stdout).hookSpecificOutput.permissionDecisionReason, command).toContain('D-050')
      }
      // As Claude Code writes them: a line broken with `\`, a comment after the cd, a here-string
      // before it, its output sent away with `>&`.
      for (const command of ['cd services/billing \\\n  && rm -rf build', 'cd services/billing # clean it\nrm -rf build', 'grep -q x <<< "$v"\ncd services/billing\nrm -rf build', 'cd services/billing >& /dev/null && rm -rf build']) {
        expect(JSON.parse((await at(command)).stdout || '{}').hookSpecificOutput?.permissionDecisionReason, command).toContain('D-050')
      }
      // Where the part does not run in billing, it is not blocked: back at the root, in a subshell, in a sibling.
      calls.length = 0
      expect(await at('cd services/billing && make && cd ../.. && rm -rf build')).toEqual({ stdout: '', stderr: '' })
      expect(calls.map((c) => JSON.parse(c).path)).toEqual(['.', 'services/billing'])
      expect(JSON.parse(calls[1] as string).action).toBe('make && cd ../..')
      expect(await at('cd services/web && rm -rf build')).toEqual({ stdout: '', stderr: '' })
      expect(await at('(cd services/billing && make) && rm -rf build')).toEqual({ stdout: '', stderr: '' })
      // Inside the subshell, as Claude Code writes one, the part in billing is denied there.
      expect(JSON.parse((await at('(cd services/billing && rm -rf build)')).stdout).hookSpecificOutput.permissionDecisionReason).toContain('D-050')
      const sub = await at("bash -c 'cd services/billing && make' && rm -rf build")
      expect(sub.stdout).toBe('')
      expect(sub.stderr).toBe(
        "decision-memory guard: not followed (the command starts in .): bash -c 'cd services/billing && make': a cd inside ( … ), $( … ), bash -c '…' or the like moves nothing after it, so the commands inside are checked where it starts\n",
      )
      // A control character of the command is shown escaped in that note, as stderr reaches a terminal.
      const escaped = await run(JSON.stringify({ ...JSON.parse(await bashPayload()), cwd: repo, tool_input: { command: 'cd "$X\u001b[2J\u202e" && make' } }))
      expect(escaped.stderr).toBe('decision-memory guard: not followed (the command starts in .): cd "$X\\u001b[2J\\u202e": a folder the guard cannot know, so the commands after it are checked where the command starts\n')
      // A cd the guard cannot follow: what runs after it is checked where the command starts, as before, and said.
      calls.length = 0
      const unknown = await at('cd "$BILLING" && rm -rf build')
      expect(unknown).toEqual({ stdout: '', stderr: 'decision-memory guard: not followed (the command starts in .): cd "$BILLING": a folder the guard cannot know, so the commands after it are checked where the command starts\n' })
      expect(calls).toHaveLength(1)
      // Each check counts its pulses: D-021, which applies everywhere, reached in two folders of one command counts two.
      const checkPulses = async () =>
        Object.fromEntries(((await app.call('GET', '/v1/decisions/pulses')).body.decisions as Array<{ key: string; by: { check: number } }>).map((d) => [d.key, d.by.check]))
      const before = await checkPulses()
      expect(await at('cd services/billing && make')).toEqual({ stdout: '', stderr: '' })
      // D-050, scoped to billing, is reached by the part run there only: one.
      expect(await checkPulses()).toEqual({ 'D-021': (before['D-021'] as number) + 2, 'D-050': (before['D-050'] as number) + 1 })
      // An advisory decision met where a part runs is told with its folder, the command let through.
      const noPublish = { ...NO_FORCE_PUSH, key: 'D-051', enforce: 'advisory', title: 'Billing is published by CI', scope: { path: 'services/billing' }, constraints: [{ kind: 'must_not', pattern: '^npm publish' }] }
      expect((await app.call('POST', '/v1/decisions', noPublish)).status).toBe(201)
      const advised = JSON.parse((await at('cd services/billing && npm publish')).stdout)
      expect(advised.hookSpecificOutput.permissionDecision).toBeUndefined()
      expect(advised.systemMessage).toContain('Advisory decision D-051 (not enforced): Billing is published by CI. "npm publish" matches the must_not pattern /^npm publish/ (run in services/billing). Why:')
      // Started in billing, as before.
      expect(JSON.parse((await at('rm -rf build', join(repo, 'services', 'billing'))).stdout).hookSpecificOutput.permissionDecision).toBe('deny')
      // The PowerShell tool's commands are checked where they start only.
      calls.length = 0
      const ps = { ...JSON.parse(await bashPayload()), tool_name: 'PowerShell', cwd: repo, tool_input: { command: 'cd services/billing; rm -rf build' } }
      expect(await run(JSON.stringify(ps))).toEqual({ stdout: '', stderr: '' })
      expect(calls).toHaveLength(1)
    } finally {
      await rm(repo, { recursive: true, force: true })
    }
  })

  it('checks at most GUARD_MAX_FOLDERS folders besides the cwd, saying once that the others were checked where the command starts', () => {
    const folders = Array.from({ length: GUARD_MAX_FOLDERS + 3 }, (_, i) => `cd /nowhere/f${i} && make`).join(' && ')
    const many = checksElsewhere(folders, '/nowhere', '/nowhere')
    expect(many.checks.map((c) => c.body)).toEqual(Array.from({ length: GUARD_MAX_FOLDERS }, (_, i) => ({ action: `make && cd /nowhere/f${i + 1}`, path: `/nowhere/f${i}` })))
    expect(many.notes).toEqual([`more than ${GUARD_MAX_FOLDERS} folders besides where the command starts, so the commands in the others are checked there`])
    // A thousand folders, each deeper: a few looked up.
    const deep = checksElsewhere(Array.from({ length: 1000 }, () => 'cd a').join(' && '), '/nowhere', '/nowhere')
    expect(deep.checks).toHaveLength(GUARD_MAX_FOLDERS)
    // The folders past the 500th are over the 1,000 characters the route takes: said too.
    expect(deep.notes).toEqual([
      'a folder whose path is over the 1000 characters the service takes, so the commands in it are checked where the command starts',
      `more than ${GUARD_MAX_FOLDERS} folders besides where the command starts, so the commands in the others are checked there`,
    ])
    // A folder whose path the service would refuse: checked where the command starts, and said.
    const long = checksElsewhere(`cd /nowhere/${'x'.repeat(1000)} && make`, '/nowhere', '/nowhere')
    expect(long).toEqual({ checks: [], notes: ['a folder whose path is over the 1000 characters the service takes, so the commands in it are checked where the command starts'] })
    // One of tens of thousands of folders under the cwd: refused unread, where looking it up on disk
    // walked each folder above it, for most of a minute, and threw past the stack.
    const deeper = checksElsewhere(`cd ${'a/'.repeat(20000)} && make`, '/nowhere', '/nowhere')
    expect(deeper).toEqual({ checks: [], notes: ['a folder whose path is over the 1000 characters the service takes, so the commands in it are checked where the command starts'] })
    // A thousand cds not followed: the first few said, then how many more, not a line 100 KB long.
    const unknown = checksElsewhere(Array.from({ length: 1000 }, (_, i) => `cd "$D${i}"`).join('; '), '/nowhere', '/nowhere')
    expect(unknown.notes).toHaveLength(6)
    expect(unknown.notes[0]).toBe('cd "$D0": a folder the guard cannot know, so the commands after it are checked where the command starts')
    expect(unknown.notes[5]).toBe('995 more not followed')
    // The parts of one folder: those next to each other with what joins them, the others on lines of their own.
    expect(checksElsewhere('cd /nowhere/b && make; make test | tee log && cd .. && ls && cd b && make clean', '/nowhere', '/nowhere').checks).toEqual([
      { body: { action: 'make; make test | tee log && cd ..\nmake clean', path: '/nowhere/b' }, where: '/nowhere/b' },
    ])
  })

  it('asks for every folder at once, within one --timeout, and lets the command through when one check gets no answer, saying so', async () => {
    const repo = await mkdtemp(join(tmpdir(), 'dm-guard-cd-'))
    try {
      await mkdir(join(repo, '.git'))
      const started: string[] = []
      // The root's check answers; billing's never does.
      const app = await createTestApp()
      const fetch = (async (input: string, init?: RequestInit) => {
        const path = JSON.parse(String(init?.body)).path as string
        started.push(path)
        if (path === '.') return app.app.request(input, init)
        return new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)))
      }) as unknown as typeof globalThis.fetch
      const payload = (await bashPayload()).replace('git push --force origin main', 'cd services/billing && make && cd ../web && make').replace('/home/dev/acme-api', repo)
      const out = await guard({ payload, url: 'http://decision-memory.test', failClosed: false, timeoutMs: 50, fetch })
      expect(started).toEqual(['.', 'services/billing', 'services/web'])
      expect(out).toEqual({ stdout: '', stderr: 'decision-memory guard: the service at http://decision-memory.test is not reachable (no answer within 50 ms); letting the command through\n' })
      const closed = await guard({ payload, url: 'http://decision-memory.test', failClosed: true, timeoutMs: 50, fetch })
      expect(JSON.parse(closed.stdout).hookSpecificOutput.permissionDecision).toBe('deny')
    } finally {
      await rm(repo, { recursive: true, force: true })
    }
  })

  it('exits 0, not 141, when what reads its stdout has closed it: Claude Code reports any exit but 0 and 2 as a hook error', async () => {
    // Fail-closed with no service: the guard prints a deny, and that write fails with EPIPE.
    const child = spawn(process.execPath, [BIN, 'guard', '--fail-closed'], {
      env: cleanEnv({ DECISION_MEMORY_URL: 'http://127.0.0.1:1' }),
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    child.stdout.destroy()
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.stdin.end(await bashPayload())
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    expect(stderr).toContain('refusing the command (--fail-closed)')
    expect(stderr).not.toMatch(/\n\s+at /)
    expect(code).toBe(0)
  })

  it('takes a DECISION_MEMORY_PORT that is no port as a check it cannot make: refused with --fail-closed, exit 0', async () => {
    // Exit 1, as for a mistake in its flags, let every command run under --fail-closed: Claude Code
    // reports an exit 1 without blocking. It is said as a DECISION_MEMORY_URL that is no address is.
    const runWith = async (args: string[]) =>
      runCliKeptOpen(['guard', ...args], [await bashPayload()], { env: { DECISION_MEMORY_PORT: 'abc' }, close: true })
    const said = 'DECISION_MEMORY_PORT must be a port number from 0 to 65535, not "abc"'
    const closed = await runWith(['--fail-closed'])
    expect(closed.code).toBe(0)
    expect(JSON.parse(closed.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' })
    expect(closed.stderr).toBe(`decision-memory guard: ${said}; refusing the command (--fail-closed)\n`)
    const open = await runWith([])
    expect(open).toEqual({ code: 0, stdout: '', stderr: `decision-memory guard: ${said}; letting the command through\n` })
  })

  it('takes a payload that has arrived whole though its stdin is left open, without waiting out --timeout', async () => {
    // A client that spawns the guard and keeps the pipe open (Claude Code closes it) had every Bash
    // call held up for the whole --timeout. A timer of that length that runs out says so on stderr
    // (a preload): the guard, done at once, gives it no time to.
    const dir = await mkdtemp(join(tmpdir(), 'dm-guard-open-'))
    try {
      const preload = join(dir, 'timeout-said.cjs')
      await writeFile(
        preload,
        `const set = globalThis.setTimeout
globalThis.setTimeout = function (fn, ms, ...args) {
  if (ms !== 9999) return set.call(this, fn, ms, ...args)
  return set.call(this, (...given) => { process.stderr.write('--timeout ran out\\n'); fn(...given) }, ms, ...args)
}\n`,
      )
      const url = `http://127.0.0.1:${await closedPort()}`
      // Cut inside a string, in two writes: the first is no whole payload.
      const payload = await bashPayload()
      const cut = payload.indexOf('git push') + 4
      const { code, stdout, stderr } = await runCliKeptOpen(['guard', '--fail-closed', '--timeout', '9999'], [payload.slice(0, cut), payload.slice(cut)], {
        env: { DECISION_MEMORY_URL: url, NODE_OPTIONS: `--require ${preload}` },
      })
      expect(code).toBe(0)
      // The command was read and checked: refused as the service cannot be reached.
      expect(JSON.parse(stdout).hookSpecificOutput.permissionDecision).toBe('deny')
      expect(stderr).toBe(`decision-memory guard: the service at ${url} is not reachable (ECONNREFUSED); refusing the command (--fail-closed)\n`)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('says a payload given as a file over what it keeps of one too large, unread, as on a pipe: not no JSON', async () => {
    // `guard < payload.json` of 16 MB and a byte (sparse: made in no time).
    const file = sparseFile(join(tempDir('dm-guard-big-'), 'payload.json'), PAYLOAD_KEPT_BYTES + 1)
    const { code, stdout, stderr } = await runCliFromFile(['guard', '--fail-closed'], file, { env: { DECISION_MEMORY_URL: 'http://127.0.0.1:1' } })
    expect({ code, stderr }).toEqual({ code: 0, stderr: `decision-memory guard: ${tooLargeWhy('the guard')}; refusing the command (--fail-closed)\n` })
    expect(JSON.parse(stdout).hookSpecificOutput.permissionDecision).toBe('deny')
  })

  it('still checks commands with a --timeout it took before in other than decimal digits, saying how to write it, --fail-closed too', async () => {
    // `--timeout 3e3` (README's own example once), ` 3000`, `0x3e8`: refused as the hook's --budget
    // is, the guard exited 1 on every call of a settings file that held one, which Claude Code takes
    // as letting the command run: every command unchecked, --fail-closed too, where it checked them before.
    const url = `http://127.0.0.1:${await closedPort()}`
    const refused = `decision-memory guard: the service at ${url} is not reachable (ECONNREFUSED); refusing the command (--fail-closed)\n`
    for (const [flag, raw, ms] of [['--timeout=3e3', '3e3', 3000], ['--timeout= 3000', ' 3000', 3000], ['--timeout=0x3e8', '0x3e8', 1000]] as const) {
      const { code, stdout, stderr } = await runCliKeptOpen(['guard', '--fail-closed', flag], [await bashPayload()], { env: { DECISION_MEMORY_URL: url }, close: true })
      const note =
        `decision-memory guard: --timeout must be a whole number of ms in decimal digits (1000), from 1 to 10000, not "${raw}"; ` +
        `read as ${ms} ms, as the guard read it before, so that it still checks commands: write --timeout ${ms}\n`
      expect({ flag, code, stderr }).toEqual({ flag, code: 0, stderr: `${note}${refused}` })
      expect(JSON.parse(stdout).hookSpecificOutput.permissionDecision).toBe('deny')
    }
    // In decimal digits, nothing is said of it.
    const { stderr } = await runCliKeptOpen(['guard', '--fail-closed', '--timeout', '3000'], [await bashPayload()], { env: { DECISION_MEMORY_URL: url }, close: true })
    expect(stderr).toBe(refused)
  })

  it('reads a payload with a byte order mark before it, as an editor saves one, given as a file as on a pipe', async () => {
    // `guard < payload.json`, README's way to try one by hand: a version before this read the mark
    // on a pipe but not in a file, and said a payload saved so was no JSON, let through unchecked.
    const file = join(tempDir('dm-guard-bom-'), 'payload.json')
    await writeFile(file, `\ufeff${await bashPayload()}\r\n`)
    const url = `http://127.0.0.1:${await closedPort()}`
    const refused = `decision-memory guard: the service at ${url} is not reachable (ECONNREFUSED); refusing the command (--fail-closed)\n`
    for (const stdin of ['file', 'pipe'] as const) {
      const args = ['guard', '--fail-closed']
      const env = { DECISION_MEMORY_URL: url }
      const { code, stdout, stderr } =
        stdin === 'file' ? await runCliFromFile(args, file, { env }) : await runCliKeptOpen(args, [await readFile(file, 'utf8')], { env, close: true })
      // Read and checked: refused as the service cannot be reached, not as no JSON.
      expect({ stdin, code, stderr }).toEqual({ stdin, code: 0, stderr: refused })
      expect(JSON.parse(stdout).hookSpecificOutput.permissionDecision).toBe('deny')
    }
  })

  it('exits once it has let the command through when the service is named by a host whose DNS lookup hangs', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-guard-dns-'))
    try {
      const stuck = await stuckDnsPreload(dir)
      const { code, stdout, stderr } = await runCliKeptOpen(['guard'], [await bashPayload()], {
        env: { DECISION_MEMORY_URL: `http://${STUCK_HOST}:7420`, NODE_OPTIONS: `--require ${stuck}` },
        close: true,
      })
      expect({ code, stdout }).toEqual({ code: 0, stdout: '' })
      expect(stderr).toContain('letting the command through')
      // Gone before the lookup gave up (15 s, past the hook entry's 5 s timeout, after which Claude
      // Code kills it and every Bash call waits that long): it did not wait for it.
      expect(stderr).not.toContain(LOOKUP_GAVE_UP)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  describe('a mistake in its own flags', () => {
    afterEach(() => {
      vi.restoreAllMocks()
    })

    it('says a flag of another command as that one\'s, one no command takes with its own flags, escaped on one line, exit 1 before stdin is read', async () => {
      // The guard prints no help (it runs as a Claude Code hook): parseArgs' `Unknown option
      // '--budget'` named neither the command the flag is of (a hook entry's flags copied to the
      // guard's) nor the flags it takes, and what it quoted of the settings file went to the
      // terminal raw, an escape sequence run there, a line feed breaking the line.
      for (const [argv, said] of [
        [['--budget', '3000'], '--budget is a flag of hook, not of guard'],
        [['--fail-closed', '--spool', 'x'], '--spool is a flag of hook and forget, not of guard'],
        [['--bogus'], '--bogus is no flag of guard, nor of any other command: guard takes --fail-closed and --timeout'],
        [['--x\u001b[2J'], '--x\\u001b[2J is no flag of guard, nor of any other command: guard takes --fail-closed and --timeout'],
        [['--timeout', '5\n0'], '--timeout must be a whole number of ms in decimal digits (1000), from 1 to 10000, not "5\\n0"'],
        // Read as the hook reads its --budget, but for what Number() took before (a whole 1 to 10000
        // ms: hex, an exponent, spaces around the digits), still taken (below): a fraction, or past 10000, is not.
        [['--timeout', '2e4'], '--timeout must be a whole number of ms in decimal digits (1000), from 1 to 10000, not "2e4"'],
        [['--timeout', '0x10.5'], '--timeout must be a whole number of ms in decimal digits (1000), from 1 to 10000, not "0x10.5"'],
        // A value without its flag, as `serve 7420` is told its --port: the --timeout, one the guard takes.
        [['3000'], '"3000" is no argument of this command: give it after its flag, --timeout 3000'],
        [['--fail-closed', '10000'], '"10000" is no argument of this command: give it after its flag, --timeout 10000'],
        [['--', '3000'], 'this command takes no arguments, and "3000" after -- is one: give it after its flag, --timeout 3000'],
        // One it would refuse, or with --timeout given already, is told no flag.
        [['20000'], "Unexpected argument '20000'. This command does not take positional arguments"],
        [['--timeout', '2000', '3000'], "Unexpected argument '3000'. This command does not take positional arguments"],
      ] as const) {
        const { code, stdout, stderr } = await captured(() => guardCommand([...argv]))
        expect({ code, stdout, stderr }, argv.join(' ')).toEqual({ code: 1, stdout: '', stderr: `decision-memory guard: ${said}\n` })
      }
    })
  })
})
