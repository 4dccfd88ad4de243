import { spawn, spawnSync } from 'node:child_process'
import { existsSync, realpathSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { claudeCodeFixture } from '../../test/support/fixtures'
import { closedPort, outsideEnv } from '../../test/support/processes'
import { tempDir } from '../../test/support/temp-dir'
import { BIN, runCli } from '../../test/support/spawn-service'
import { BIN_PATH, shellWord } from '../config/bin-path'
import { ANSWER_HEADER as ROUTE_ANSWER_HEADER, LATE_HEADER } from '../http/hooks'
import { PassThrough } from 'node:stream'
import { ANSWER_HEADER, HOOK_HELP, pathOfPayload, projectOfPayload, runHook, TERMINAL_STDIN, type HookStdin } from './hook'
import { projectOfFolder } from '../repository'

/** A stub's handler that notes the URL of each request in `asked` and answers it `{}`. */
function answeringEmpty(asked: URL[]): RequestListener {
  return (request, response) => {
    asked.push(new URL(request.url ?? '/', 'http://stub'))
    request.resume()
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'))
  }
}

/**
 * A stub answering on loopback with `handler`, and a temporary folder, for `run`: both taken down
 * after it, whatever it threw.
 */
async function withStub(
  prefix: string,
  handler: RequestListener,
  run: (address: { host: string; dir: string }) => Promise<void>,
): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  const server = createServer(handler)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  try {
    await run({ host: `127.0.0.1:${(server.address() as AddressInfo).port}`, dir })
  } finally {
    server.closeAllConnections()
    await new Promise<void>((done) => server.close(() => done()))
    await rm(dir, { recursive: true, force: true })
  }
}

describe('the project of a hook payload whose cwd is reached through a symbolic link', () => {
  it('is the one the MCP server started in the folder it points to records, and the path in it the same', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-hook-link-'))
    try {
      const real = join(realpathSync(dir), 'data', 'proj')
      await mkdir(join(real, '.git'), { recursive: true })
      await mkdir(join(real, 'services', 'billing'), { recursive: true })
      const link = join(dir, 'proj')
      await symlink(real, link, 'junction')
      // The MCP server reads process.cwd(), which has the link followed; Claude Code may send it as the user typed it.
      const mcp = projectOfFolder(join(real, 'services', 'billing'))
      expect(mcp).toBe(real)
      expect(projectOfPayload({ cwd: join(link, 'services', 'billing') })).toBe(mcp)
      expect(pathOfPayload({ cwd: join(link, 'services', 'billing') })).toBe('services/billing')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('the project of a hook payload whose cwd is in no repository', () => {
  it('is said in hook --help to be its session\'s below the folder that session was started in, as the service keeps it', () => {
    const text = HOOK_HELP.replace(/\s+/g, ' ')
    expect(text).toContain("a cwd in the folder its session was started in or below it, where Claude Code follows the agent's cd, is in that session's project")
  })

  it('is the folder a symbolic link leads to, sent as the cwd, not as ?project=, as why --project . run there names it; a cwd with no link, as written', async () => {
    const asked: URL[] = []
    const cwds: unknown[] = []
    const stub: RequestListener = (request, response) => {
      asked.push(new URL(request.url ?? '/', 'http://stub'))
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString()))
      request.on('end', () => {
        cwds.push((JSON.parse(body) as { cwd?: unknown }).cwd)
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      })
    }
    await withStub('dm-hook-nonrepo-link-', stub, async ({ host, dir }) => {
      const real = join(realpathSync(dir), 'data', 'notes')
      await mkdir(join(real, 'drafts'), { recursive: true })
      const link = join(dir, 'notes')
      await symlink(real, link, 'junction')
      expect(projectOfFolder(real)).toBe(undefined)
      // why --project . and the service's project of a cwd are projectOf(the folder), process.cwd() having its links followed.
      expect(projectOfPayload({ cwd: link })).toBe(real)
      expect(projectOfPayload({ cwd: join(link, 'drafts') })).toBe(join(real, 'drafts'))
      // No link: nothing sent, the service takes the cwd as written, as it did (a stored project id unchanged).
      expect(projectOfPayload({ cwd: real })).toBe(undefined)
      expect(projectOfPayload({ cwd: join(real, 'gone', 'since') })).toBe(undefined)
      expect(pathOfPayload({ cwd: link })).toBe(undefined)
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: join(dir, 'spool.ndjson') }
      const start = claudeCodeFixture('session-start')
      for (const cwd of [link, real]) expect((await runCli(['hook', '--budget', '10000'], { input: JSON.stringify({ ...start, cwd }), env })).code).toBe(0)
      // Sent as ?project=, a project of its own: a session started in the folder above it did not keep it.
      expect(asked.map((url) => url.searchParams.get('project'))).toEqual([null, null])
      expect(cwds).toEqual([real, real])
    })
  })
})

describe('decision-memory hook sending a PreToolUse', () => {
  it('tells the service how long it waits for the answer (?wait_ms=), less the answer\'s way back; a capture, nothing', async () => {
    const asked: URL[] = []
    const stub = answeringEmpty(asked)
    await withStub('dm-hook-wait-', stub, async ({ host, dir }) => {
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: join(dir, 'spool.ndjson') }
      expect((await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('pre-tool-use')), env })).code).toBe(0)
      expect((await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env })).code).toBe(0)
      const [pre, post] = asked
      // The budget less the exit's 400 ms, the time node took to start, and 250 ms for the way back.
      const wait = Number(pre?.searchParams.get('wait_ms'))
      expect(pre?.searchParams.get('wait_ms')).toMatch(/^\d+$/)
      expect(wait).toBeGreaterThan(0)
      expect(wait).toBeLessThanOrEqual(10_000 - 400 - 250)
      expect(post?.searchParams.has('wait_ms')).toBe(false)
    })
  })
})

describe('decision-memory hook answered {} for a PreToolUse planned past the time it waits', () => {
  it('prints nothing, as for any {}, and says once on stderr that the service was too late for its --budget; a {} without the header, nothing', async () => {
    let late = true
    const stub: RequestListener = (request, response) => {
      request.resume()
      request.on('end', () => response.writeHead(200, { 'content-type': 'application/json', ...(late ? { [LATE_HEADER]: '12000' } : {}) }).end('{}'))
    }
    await withStub('dm-hook-late-', stub, async ({ host, dir }) => {
      // A budget node's start cannot use up on a loaded machine (at 3000 ms it once did, at a load
      // average near 10, and the question went unsent); the stub answers at once all the same.
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: join(dir, 'spool.ndjson') }
      const input = JSON.stringify(claudeCodeFixture('pre-tool-use'))
      const asked = await runCli(['hook', '--budget', '10000'], { input, env })
      expect(asked).toMatchObject({ code: 0, stdout: '' })
      const said =
        "decision-memory hook: the service answered too late for this hook's --budget of 10000 ms (it took 12000 ms), so this question is asked as the agent wrote it, " +
        'nothing in it answered or ordered by your past choices; to give the service more time, raise --budget in the hook\'s command (at most 60000, and under the hook entry\'s "timeout", in seconds)\n'
      expect(asked.stderr).toBe(said)
      expect(existsSync(join(dir, 'spool.ndjson'))).toBe(false)
      // A capture answered so (no service sends it one) is no question asked: nothing said.
      expect(await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env })).toMatchObject({ code: 0, stdout: '', stderr: '' })
      late = false
      expect(await runCli(['hook', '--budget', '10000'], { input, env })).toMatchObject({ code: 0, stdout: '', stderr: '' })
    })
  })
})

describe('decision-memory hook delivering a spool to a service slow to take it', () => {
  it('keeps time for the event at hand: a spooled delivery still waiting is let go, kept in the spool, and the PreToolUse is sent and answered', async () => {
    // The service takes a late capture (`?at=`) slowly, past the whole budget (a remote service on a
    // slow link, one busy with that user's history), and plans a question at once. Draining the spool
    // first is to leave the question its time: a spooled delivery in flight took all of it, the
    // question was never sent, and the user was asked it as the agent wrote it.
    const planned = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'planned', updatedInput: { questions: [] } } })
    const asked: URL[] = []
    const stub: RequestListener = (request, response) => {
      const url = new URL(request.url ?? '/', 'http://stub')
      asked.push(url)
      request.resume()
      if (url.searchParams.has('at')) return
      request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(planned))
    }
    await withStub('dm-hook-slow-spool-', stub, async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const capture = { at: '2026-12-05T10:00:00.000Z', user: 'default', payload: claudeCodeFixture('post-tool-use-single') }
      await writeFile(spool, `${JSON.stringify(capture)}\n`)
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
      // A budget that leaves the spooled delivery time to start however long node takes to start on a loaded machine.
      const run = await runCli(['hook', '--budget', '6000'], { input: JSON.stringify(claudeCodeFixture('pre-tool-use')), env })
      expect(run.code).toBe(0)
      expect(run.stdout).toBe(`${planned}\n`)
      // The spooled capture was offered first, then the question, in the time kept back for it. How
      // much of the 400 ms was left to say in wait_ms is not asserted: a loaded machine fires the
      // drain's timer late and writes the spool back slowly, and 100 ms or more of it may be gone by then.
      expect(asked.map((u) => u.searchParams.has('at'))).toEqual([true, false])
      expect(asked[1]?.searchParams.get('wait_ms')).toMatch(/^\d+$/)
      // Not delivered, so not lost: it waits in the spool for the next call.
      const left = (await readFile(spool, 'utf8')).split('\n').filter((l) => l !== '')
      expect(left.map((l) => JSON.parse(l).payload.tool_use_id)).toEqual([capture.payload.tool_use_id])
    })
  })

  it('says a question planned too late as the spooled delivery having taken the time, not the --budget alone', async () => {
    // The question had the 400 ms the drain keeps back, not the budget: "too late for this hook's
    // --budget of 6000 ms (it took 200 ms)" alone named a time it never had.
    const stub: RequestListener = (request, response) => {
      const url = new URL(request.url ?? '/', 'http://stub')
      request.resume()
      if (url.searchParams.has('at')) return
      request.on('end', () => response.writeHead(200, { 'content-type': 'application/json', [LATE_HEADER]: '200' }).end('{}'))
    }
    await withStub('dm-hook-slow-spool-late-', stub, async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const capture = { at: '2026-12-05T10:00:00.000Z', user: 'default', payload: claudeCodeFixture('post-tool-use-single') }
      await writeFile(spool, `${JSON.stringify(capture)}\n`)
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
      const run = await runCli(['hook', '--budget', '6000'], { input: JSON.stringify(claudeCodeFixture('pre-tool-use')), env })
      expect(run).toMatchObject({ code: 0, stdout: '' })
      // How many it did not deliver, and where they wait: a question names no spool otherwise.
      expect(run.stderr).toContain(
        "decision-memory hook: the service answered too late for this hook's --budget of 6000 ms (it took 200 ms), delivering the spool " +
          `having taken all but the last 400 ms of it (the event it did not deliver waits in ${spool} for the next call), so this question is asked as the agent wrote it`,
      )
      expect((await readFile(spool, 'utf8')).split('\n').filter((l) => l !== '')).toHaveLength(1)
    })
  })
  it('says a capture not answered in the time left as the spooled delivery having taken the time, and spools both', async () => {
    // A service that answers nothing: the spooled capture is let go at the drain's end, and the
    // capture at hand has the 400 ms kept back, not the budget; "no answer within the hook's time
    // (--budget)" alone sent a person to raise a budget the event never had.
    const stub: RequestListener = (request) => {
      request.resume()
    }
    await withStub('dm-hook-slow-spool-capture-', stub, async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const capture = { at: '2026-12-05T10:00:00.000Z', user: 'default', payload: claudeCodeFixture('post-tool-use-single') }
      await writeFile(spool, `${JSON.stringify(capture)}\n`)
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
      const run = await runCli(['hook', '--budget', '6000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env })
      expect(run).toMatchObject({ code: 0, stdout: '' })
      // The spool named once, where this one joins the one not delivered.
      expect(run.stderr).toContain(
        `decision-memory hook: no answer from the service at http://${host} within the hook's time (--budget), delivering the spool ` +
          `having taken all but the last 400 ms of it (the event it did not deliver waits for the next call); this event is spooled to ${spool} with it\n`,
      )
      // The spooled capture waits still, and the capture at hand beside it.
      const left = (await readFile(spool, 'utf8')).split('\n').filter((l) => l !== '')
      expect(left.map((l) => JSON.parse(l).at)).toContain(capture.at)
      expect(left).toHaveLength(2)
    })
  })
})

describe('decision-memory hook whose time ran out before its spool was offered anything', () => {
  it('does not say the spool took the time: node\'s start and stdin took it, and nothing spooled was sent', async () => {
    // A budget of 1 ms is gone before node has started, so the drain stops for time at its first
    // event, offering none: saying "delivering the spool having taken all but the last 400 ms"
    // sent a person to the spool (or the service's late captures) for time the start had taken.
    const asked: string[] = []
    const stub: RequestListener = (request) => {
      asked.push(request.url ?? '')
      request.resume()
    }
    await withStub('dm-hook-no-time-', stub, async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const capture = { at: '2026-12-05T10:00:00.000Z', user: 'default', payload: claudeCodeFixture('post-tool-use-single') }
      await writeFile(spool, `${JSON.stringify(capture)}\n`)
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
      const run = await runCli(['hook', '--budget', '1'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env })
      expect(run).toMatchObject({ code: 0, stdout: '' })
      // The event already spooled is said waiting too, the spool named once.
      expect(run.stderr).toMatch(new RegExp(`^decision-memory hook: ${spentBefore(1, `http://${host}`)}; the event spooled waits for the next call; this event is spooled to ${escaped(spool)} with it\n$`))
      expect(asked).toEqual([])
      expect((await readFile(spool, 'utf8')).split('\n').filter((l) => l !== '')).toHaveLength(2)
    })
  })
})

describe('decision-memory hook with events waiting in the spool, the service down', () => {
  it('says how many wait and where, on the one line that says the service is not reachable, with what becomes of the event at hand', async () => {
    // Nothing listens: the drain stops at the first spooled event, and the event at hand is not
    // sent. "service not reachable at …; spooled to …" said nothing of the events that were
    // waiting, and a question's line did not say there was a spool at all.
    const url = `http://127.0.0.1:${await closedPort()}`
    const dir = await mkdtemp(join(tmpdir(), 'dm-hook-down-spool-'))
    try {
      const spool = join(dir, 'spool.ndjson')
      const env = { DECISION_MEMORY_URL: url, DECISION_MEMORY_SPOOL: spool }
      const capture = () => runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env })
      // None waiting: as before.
      expect(await capture()).toEqual({ code: 0, stdout: '', stderr: `decision-memory hook: service not reachable at ${url}; spooled to ${spool}\n` })
      expect(await capture()).toEqual({
        code: 0,
        stdout: '',
        stderr: `decision-memory hook: service not reachable at ${url}; the event spooled waits for the next call; this event, not sent for that reason, is spooled to ${spool} with it\n`,
      })
      expect(await capture()).toEqual({
        code: 0,
        stdout: '',
        stderr: `decision-memory hook: service not reachable at ${url}; the 2 events spooled wait for the next call; this event, not sent for that reason, is spooled to ${spool} with them\n`,
      })
      // A question, not spooled, names the spool where the others wait.
      const question = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('pre-tool-use')), env })
      expect(question).toEqual({
        code: 0,
        stdout: '',
        stderr: `decision-memory hook: service not reachable at ${url}; the 3 events spooled in ${spool} wait for the next call; ${ASKED_AS_WRITTEN}\n`,
      })
      expect((await readFile(spool, 'utf8')).split('\n').filter((l) => l !== '')).toHaveLength(3)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('says the service not reachable before that the capture is not kept, when the spool cannot be written', async () => {
    // A spool set to a folder, the service down: the line that the event is not kept came alone,
    // and hid that the service was never reached, as a refused token's or a wrong URL's is not.
    const url = `http://127.0.0.1:${await closedPort()}`
    const dir = await mkdtemp(join(tmpdir(), 'dm-hook-down-nospool-'))
    try {
      const env = { DECISION_MEMORY_URL: url, DECISION_MEMORY_SPOOL: dir }
      const chosen = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env })
      expect(chosen).toEqual({
        code: 0,
        stdout: '',
        stderr:
          `decision-memory hook: service not reachable at ${url}\n` +
          `decision-memory hook: the spool ${dir} is a folder (EISDIR): this event is not kept; give DECISION_MEMORY_SPOOL or --spool the path of a file in it\n`,
      })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('exits 0 saying the capture is not kept when the spool is a named pipe nobody reads, rather than wait for a reader past its --budget', async () => {
    // The spool's open waited for a reader: the hook hung until killed, Claude Code's hook error.
    const url = `http://127.0.0.1:${await closedPort()}`
    const dir = await mkdtemp(join(tmpdir(), 'dm-hook-down-fifo-'))
    try {
      const fifo = join(dir, 'spool.ndjson')
      expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
      // Killed (SIGTERM, no exit code) should it still wait, so that a failure is an assertion's, not the file's.
      // --budget 10 s: a loaded machine's start of node took the default 2 s (said as the budget spent, not the service down).
      const child = spawn(process.execPath, [BIN, 'hook', '--budget', '10000'], { env: { ...outsideEnv(), DECISION_MEMORY_URL: url, DECISION_MEMORY_SPOOL: fifo }, timeout: 20_000 })
      let stderr = ''
      child.stderr.on('data', (chunk) => (stderr += chunk))
      child.stdout.resume()
      child.stdin.end(JSON.stringify(claudeCodeFixture('post-tool-use-single')))
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
      expect({ code, stderr }).toEqual({
        code: 0,
        stderr:
          `decision-memory hook: service not reachable at ${url}\n` +
          `decision-memory hook: the spool ${fifo} is a named pipe (FIFO), not a file: this event is not kept; give DECISION_MEMORY_SPOOL or --spool the path of a file\n`,
      })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('removes a spool that is a symbolic link to no file, saying so once, rather than leave it moved aside for every later call to rename', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`
    const dir = await mkdtemp(join(tmpdir(), 'dm-hook-down-link-'))
    try {
      const file = join(dir, 'spool.ndjson')
      await symlink(join(dir, 'gone', 'spool.ndjson'), file)
      const env = { ...outsideEnv(), DECISION_MEMORY_URL: url, DECISION_MEMORY_SPOOL: file }
      const first = await runCli(['hook', '--budget', '10000'], { env, input: JSON.stringify(claudeCodeFixture('post-tool-use-single')) })
      expect(first.stderr).toBe(
        `decision-memory hook: the spool ${file} was a symbolic link to ${join(dir, 'gone', 'spool.ndjson')}, which leads to no file (ENOENT): it held no events, and is removed; the spool is a file of its own at ${file} from now on\n` +
          `decision-memory hook: service not reachable at ${url}; spooled to ${file}\n`,
      )
      const second = await runCli(['hook', '--budget', '10000'], { env, input: JSON.stringify(claudeCodeFixture('post-tool-use-single')) })
      expect(second.stderr).not.toContain('symbolic link')
      expect(await readdir(dir)).toEqual(['spool.ndjson'])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('says they wait for a call that can deliver them where DECISION_MEMORY_URL is set wrong, which the next call fails alike', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-hook-wrong-spool-'))
    try {
      const spool = join(dir, 'spool.ndjson')
      const capture = { at: '2026-12-05T10:00:00.000Z', user: 'default', payload: claudeCodeFixture('post-tool-use-single') }
      await writeFile(spool, `${JSON.stringify(capture)}\n`)
      const env = { DECISION_MEMORY_URL: 'localhost:7420', DECISION_MEMORY_SPOOL: spool }
      const wrong = 'DECISION_MEMORY_URL is "localhost:7420": give the service\'s address as http://HOST:PORT'
      const chosen = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('session-start')), env })
      expect(chosen).toEqual({
        code: 0,
        stdout: '',
        stderr: `decision-memory hook: ${wrong}; the event spooled waits for a call that can deliver it; this event, not sent for that reason, is spooled to ${spool} with it\n`,
      })
      const question = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('pre-tool-use')), env })
      expect(question).toEqual({ code: 0, stdout: '', stderr: `decision-memory hook: ${wrong}; the 2 events spooled in ${spool} wait for a call that can deliver them; ${ASKED_AS_WRITTEN}\n` })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('says of another tool\'s event (a matcher for every tool) what a spooled event was not delivered for, and that the events wait, as after a 503; with none waiting, nothing', async () => {
    // A Bash PreToolUse is neither sent nor spooled, but the call drains the spool: the service down,
    // or silent, the drain stopped and nothing was said of it, though a 5xx answered to a spooled
    // event was said for that event as for any other.
    const url = `http://127.0.0.1:${await closedPort()}`
    const dir = await mkdtemp(join(tmpdir(), 'dm-hook-down-other-'))
    try {
      const spool = join(dir, 'spool.ndjson')
      const bash = JSON.stringify(claudeCodeFixture('pre-tool-use-bash'))
      const env = { DECISION_MEMORY_URL: url, DECISION_MEMORY_SPOOL: spool }
      expect(await runCli(['hook', '--budget', '10000'], { input: bash, env })).toEqual({ code: 0, stdout: '', stderr: '' })
      const capture = { at: '2026-12-05T10:00:00.000Z', user: 'default', payload: claudeCodeFixture('post-tool-use-single') }
      await writeFile(spool, `${JSON.stringify(capture)}\n${JSON.stringify({ ...capture, at: '2026-12-05T10:01:00.000Z' })}\n`, { mode: 0o600 })
      expect(await runCli(['hook', '--budget', '10000'], { input: bash, env })).toEqual({
        code: 0,
        stdout: '',
        stderr: `decision-memory hook: service not reachable at ${url}; the 2 events spooled in ${spool} wait for the next call\n`,
      })
      // A URL fetch will not try: they wait for it to be mended, as a capture's line says.
      const wrong = await runCli(['hook', '--budget', '10000'], { input: bash, env: { ...env, DECISION_MEMORY_URL: 'localhost:7420' } })
      expect(wrong).toEqual({
        code: 0,
        stdout: '',
        stderr: `decision-memory hook: DECISION_MEMORY_URL is "localhost:7420": give the service's address as http://HOST:PORT; the 2 events spooled in ${spool} wait for a call that can deliver them\n`,
      })
      expect((await readFile(spool, 'utf8')).split('\n').filter((l) => l !== '')).toHaveLength(2)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
    // A service that takes the spooled event and never answers: let go at the drain's end, and said so.
    const silent: RequestListener = (request) => request.resume()
    await withStub('dm-hook-silent-other-', silent, async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const capture = { at: '2026-12-05T10:00:00.000Z', user: 'default', payload: claudeCodeFixture('post-tool-use-single') }
      await writeFile(spool, `${JSON.stringify(capture)}\n`, { mode: 0o600 })
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
      // A budget of 4 s, twice the default: node's start leaves the drain time to send the spooled
      // event even on a loaded machine, where a start of 1.6 s would leave it none, and nothing said.
      const said = await runCli(['hook', '--budget', '4000'], { input: JSON.stringify(claudeCodeFixture('pre-tool-use-bash')), env })
      expect(said).toEqual({
        code: 0,
        stdout: '',
        stderr:
          `decision-memory hook: no answer from the service at http://${host} within the hook's time (--budget), delivering the spool having taken all but the last 400 ms of it ` +
          `(the event it did not deliver waits in ${spool} for the next call)\n`,
      })
      expect((await readFile(spool, 'utf8')).split('\n').filter((l) => l !== '')).toHaveLength(1)
    })
  })
})

describe('decision-memory hook flags', () => {
  it('says a flag of another command as that command\'s, as the other commands do, the capture spooled, exit 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-hook-flag-'))
    try {
      const spool = join(dir, 'spool.ndjson')
      const env = { DECISION_MEMORY_URL: 'http://127.0.0.1:1', DECISION_MEMORY_SPOOL: spool }
      const input = JSON.stringify(claudeCodeFixture('post-tool-use-single'))
      const on = await runCli(['hook', '--on'], { input, env })
      expect(on).toMatchObject({ code: 0, stdout: '' })
      expect(on.stderr.split('\n')[0]).toBe('decision-memory hook: --on is a flag of toggle, not of hook')
      // A flag no command takes, said as the hook's other flag mistakes are, not in parseArgs' words
      // ("Unknown option '--frobnicate'"), with the flags the hook takes, as no help follows its line.
      const none = await runCli(['hook', '--frobnicate'], { input, env })
      expect(none).toMatchObject({ code: 0, stdout: '' })
      expect(none.stderr).toBe(
        'decision-memory hook: --frobnicate is no flag of hook, nor of any other command: hook takes --user, --spool and --budget (and, run by hand, --record-set-aside)\n' +
          'decision-memory hook: the payload is spooled for user "default", for a call with its flags mended to deliver\n',
      )
      // Given a value, or short, the flag as typed, without the value.
      const valued = await runCli(['hook', '--frobnicate=1'], { input, env })
      expect(valued.stderr.split('\n')[0]).toBe('decision-memory hook: --frobnicate is no flag of hook, nor of any other command: hook takes --user, --spool and --budget (and, run by hand, --record-set-aside)')
      const short = await runCli(['hook', '-x'], { input, env })
      expect(short.stderr.split('\n')[0]).toBe('decision-memory hook: -x is no flag of hook, nor of any other command: hook takes --user, --spool and --budget (and, run by hand, --record-set-aside)')
      // What it quotes of what was typed is shown escaped, one line, as the other commands' usage errors are.
      const escaped = await runCli(['hook', '--x\u001b[2J\ny'], { input, env })
      expect(escaped.stderr.split('\n')[0]).toBe('decision-memory hook: --x\\u001b[2J\\ny is no flag of hook, nor of any other command: hook takes --user, --spool and --budget (and, run by hand, --record-set-aside)')
      const budget = await runCli(['hook', '--budget', '0x1\u001b[2J'], { input, env })
      expect(budget.stderr.split('\n')[0]).toContain('not "0x1\\u001b[2J"')
      // --frobnicate=1 may have stood for the user: set aside, not spooled (see below).
      expect((await readFile(spool, 'utf8')).split('\n').filter((line) => line !== '')).toHaveLength(5)
      expect((await readFile(`${spool}.rejected`, 'utf8')).split('\n').filter((line) => line !== '')).toHaveLength(1)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('takes a --budget past a minute, or not in decimal ms, for a flag mistake: named on stderr, the capture spooled, exit 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-hook-budget-'))
    try {
      const spool = join(dir, 'spool.ndjson')
      for (const budget of ['1e9', '60001', '0x10', '1e3']) {
        const result = await runCli(['hook', '--budget', budget], {
          input: JSON.stringify(claudeCodeFixture('post-tool-use-single')),
          env: { DECISION_MEMORY_URL: 'http://127.0.0.1:1', DECISION_MEMORY_SPOOL: spool },
        })
        // 0, never 2: a PreToolUse hook that exits 2 blocks the agent's tool call (R-CAP-6).
        expect(result.code, budget).toBe(0)
        expect(result.stdout, budget).toBe('')
        // 1e3 and 0x10 are positive numbers of ms under 60000: what they are not is decimal digits.
        // A minute is this hook's own bound, not Claude Code's: its default hook timeout is 600 s
        // (hooks reference), and a message naming 60 s as Claude Code's sends a person after a limit
        // that is not there.
        expect(result.stderr, budget).toContain(`--budget must be a positive number of ms in decimal digits (2000), at most 60000 (a minute, the longest the agent is kept waiting at a question), not "${budget}"`)
        expect(result.stderr, budget).not.toContain('default hook timeout')
      }
      expect(existsSync(spool)).toBe(true)
      expect((await readFile(spool, 'utf8')).split('\n').filter((line) => line !== '')).toHaveLength(4)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('sets a capture aside, never spooled for another user, when a flag mistake leaves whose choices these are in doubt', async () => {
    // `--usr alice` (or `--user` with no value, a name refused) spooled the capture for "default":
    // the flags mended, the next call delivered it, alice's choice recorded as default's for good.
    const dir = await mkdtemp(join(tmpdir(), 'dm-hook-flag-user-'))
    try {
      const spool = join(dir, 'spool.ndjson')
      const other = join(dir, 'other.ndjson')
      const env = { DECISION_MEMORY_URL: 'http://127.0.0.1:1', DECISION_MEMORY_SPOOL: spool }
      const input = JSON.stringify(claudeCodeFixture('post-tool-use-single'))
      const aside = (file: string, user: string) =>
        `decision-memory hook: the payload is not spooled: the flags leave whose choices these are in doubt, and spooled for user "${user}" it would be recorded as that user's; ` +
        `kept in ${file}.rejected: to record it, run node ${shellWord(BIN_PATH)} hook --record-set-aside --user USER --spool ${file}, USER being whose choices these are; mend the flags to record the next ones\n`
      const doubts: Array<[string[], Record<string, string>, string]> = [
        [['--usr', 'alice'], {}, 'default'],
        [['--usr=alice'], {}, 'default'],
        [['-u', 'alice'], { DECISION_MEMORY_USER: 'bob' }, 'bob'],
        [['alice'], {}, 'default'],
        [['--user'], {}, 'default'],
        [['--user', 'alice', '--user', 'bob'], {}, 'bob'],
        [['--user', '..'], { DECISION_MEMORY_USER: 'alice' }, 'alice'],
        [[], { DECISION_MEMORY_USER: '!x' }, 'default'],
      ]
      for (const [flags, variables, user] of doubts) {
        const result = await runCli(['hook', ...flags], { input, env: { ...env, ...variables } })
        expect(result.code, flags.join(' ')).toBe(0)
        expect(result.stderr.split('\n').slice(1).join('\n'), flags.join(' ')).toBe(aside(spool, user))
      }
      // `--user --spool F`: --user has no value, and the spool is F, not the default one.
      const swallowed = await runCli(['hook', '--user', '--spool', other], { input, env })
      expect(swallowed.stderr.split('\n').slice(1).join('\n')).toBe(aside(other, 'default'))
      expect(swallowed.stderr.split('\n')[0]).toBe('decision-memory hook: --user needs a value, and "--spool" after it reads as a flag: give --user its value (--user=VALUE for one starting with -)')
      // `--spool F --user`: the same mistake, said in the hook's words too, set aside alike.
      const last = await runCli(['hook', '--spool', other, '--user'], { input, env })
      expect(last.stderr).toBe('decision-memory hook: --user needs a value, and nothing comes after it: give --user its value\n' + aside(other, 'default'))
      expect(existsSync(spool)).toBe(false)
      // Each line says what the flags named for the user, which a forget of that name finds.
      const named = async (file: string) =>
        (await readFile(`${file}.rejected`, 'utf8'))
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => (JSON.parse(line) as { user_in_doubt?: string[] }).user_in_doubt)
      expect(await named(spool)).toEqual([['alice'], ['alice'], ['alice'], ['alice'], [], ['alice', 'bob'], ['..'], ['!x']])
      expect(await named(other)).toEqual([[], []])
      // A mistake that leaves the user beyond doubt still spools it, for that user.
      for (const flags of [['--user', 'alice', '--bogus'], ['--user=alice', '--budget', '3e3'], ['--bogus'], ['--budget', '3e3']]) {
        const result = await runCli(['hook', ...flags], { input, env })
        const user = flags.some((flag) => flag.includes('alice')) ? 'alice' : 'default'
        expect(result.stderr.split('\n').slice(1).join('\n'), flags.join(' ')).toBe(
          `decision-memory hook: the payload is spooled for user "${user}", for a call with its flags mended to deliver\n`,
        )
      }
      const spooled = (await readFile(spool, 'utf8')).split('\n').filter((line) => line !== '')
      expect(spooled.map((line) => (JSON.parse(line) as { user: string }).user)).toEqual(['alice', 'alice', 'default', 'default'])
      // Its .rejected file unwritable (here a folder of that name; a full disk, another account's):
      // said lost, and why it was not spooled instead, not in the error's own words alone.
      const blocked = join(dir, 'blocked.ndjson')
      await mkdir(`${blocked}.rejected`)
      const lost = await runCli(['hook', '--usr', 'alice', '--spool', blocked], { input, env })
      expect(lost.code).toBe(0)
      expect(lost.stderr.split('\n').slice(1).join('\n')).toBe(
        `decision-memory hook: the payload is not spooled: the flags leave whose choices these are in doubt, and spooled for user "default" it would be recorded as that user's, ` +
          `nor kept: cannot write ${blocked}.rejected (EISDIR); make it a file this account can write, on a disk with room\n`,
      )
      expect(existsSync(blocked)).toBe(false)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('prints, for a capture set aside, a command that records it as printed, its user filled in, in a spool folder with a space in its name', async () => {
    // `run decision-memory hook … --spool /tmp/my spool/spool.ndjson`, pasted into a shell, ran no
    // command (`decision-memory` is on no PATH) and, were it one, read the path as two words.
    const dir = await mkdtemp(join(tmpdir(), 'dm-hook-flag-paste-'))
    try {
      const spool = join(dir, "my spool's", 'spool.ndjson')
      const input = JSON.stringify(claudeCodeFixture('post-tool-use-single'))
      const set = await runCli(['hook', '--usr', 'alice', '--spool', spool], { input, env: { DECISION_MEMORY_URL: 'http://127.0.0.1:1' } })
      expect(set.code).toBe(0)
      const command = /: to record it, run (.*), USER being whose choices these are;/.exec(set.stderr)?.[1]
      expect(command, set.stderr).toBeDefined()
      const pasted = spawnSync('sh', ['-c', (command as string).replace(' --user USER ', ' --user alice ')], { encoding: 'utf8' })
      expect(pasted.stderr).toBe('')
      expect(pasted.status).toBe(0)
      expect(pasted.stdout).toContain('moved 1 capture set aside for a user in doubt')
      const moved = (await readFile(spool, 'utf8')).split('\n').filter((line) => line !== '')
      expect(moved.map((line) => (JSON.parse(line) as { user: string }).user)).toEqual(['alice'])
      expect(existsSync(`${spool}.rejected`)).toBe(false)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('says after a flag mistake that a PreToolUse\'s question is asked as the agent wrote it, unspooled; another tool\'s event, nothing more', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-hook-flag-pre-'))
    try {
      const spool = join(dir, 'spool.ndjson')
      const env = { DECISION_MEMORY_URL: 'http://127.0.0.1:1', DECISION_MEMORY_SPOOL: spool }
      const mistakes: Array<[string[], Record<string, string>, string]> = [
        [['--budget', '0x10'], {}, '--budget must be a positive number of ms in decimal digits (2000)'],
        [['--user', '..'], {}, '--user: must not be'],
        [['--on'], {}, '--on is a flag of toggle, not of hook'],
        [['--bogus'], {}, '--bogus is no flag of hook, nor of any other command: hook takes --user, --spool and --budget (and, run by hand, --record-set-aside)'],
        // --record-set-aside mistyped is shown the flag it meant, the one run by hand.
        [['--record-set-asid'], {}, '--record-set-asid is no flag of hook, nor of any other command: hook takes --user, --spool and --budget (and, run by hand, --record-set-aside)'],
        // A number given without its flag is the budget, as `guard 3000` is told its --timeout, or
        // the user, whose name may be a number (a uid).
        [['3000'], {}, '"3000" is no argument of this command: give it after its flag, --budget 3000 if it is the hook\'s time in ms, or --user 3000 if it is the user whose choices these are'],
        [[], { DECISION_MEMORY_PORT: 'abc', DECISION_MEMORY_URL: '' }, 'DECISION_MEMORY_PORT must be a port number'],
      ]
      for (const [flags, variables, named] of mistakes) {
        const asked = await runCli(['hook', ...flags], { input: JSON.stringify(claudeCodeFixture('pre-tool-use')), env: { ...env, ...variables } })
        expect(asked, named).toMatchObject({ code: 0, stdout: '' })
        const lines = asked.stderr.split('\n')
        expect(lines[0], named).toContain(named)
        expect(lines.slice(1), named).toEqual([`decision-memory hook: ${ASKED_AS_WRITTEN}`, ''])
        const bash = await runCli(['hook', ...flags], { input: JSON.stringify(claudeCodeFixture('pre-tool-use-bash')), env: { ...env, ...variables } })
        expect(bash.stderr.split('\n').slice(1), named).toEqual([''])
      }
      expect(existsSync(spool)).toBe(false)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('decision-memory hook given https:// to the service', () => {
  it('says the scheme is the mistake, not that the service is not reachable, and spools the capture', async () => {
    await withStub('dm-hook-https-', (_request, response) => response.end('{}'), async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const url = `https://${host}`
      const env = { DECISION_MEMORY_URL: url, DECISION_MEMORY_SPOOL: spool }
      const chosen = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env })
      expect(chosen.code).toBe(0)
      expect(chosen.stderr).toContain(`${url}: what answers there does not speak TLS (ERR_SSL_WRONG_VERSION_NUMBER): the service speaks plain HTTP; give DECISION_MEMORY_URL as http://, not https://; spooled to ${spool}`)
      expect(chosen.stderr).not.toContain('not reachable')
      expect(existsSync(spool)).toBe(true)
    })
  })
})

describe('decision-memory hook refused 403 (a user the token may not act for)', () => {
  it('says a capture waits in the spool, and a PreToolUse, never spooled, does not, the refusal once in one line', async () => {
    const refuse: RequestListener = (request, response) => {
      request.resume()
      request.on('end', () =>
        response
          .writeHead(403, { 'content-type': 'application/json' })
          .end('{"error":{"code":"forbidden","message":"token \\"alice\\" may not act for user \\"default\\"","issues":[{"path":"user","message":"not a user this token may act for"}]}}'),
      )
    }
    await withStub('dm-hook-403-', refuse, async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool, DECISION_MEMORY_USER: '' }
      const asked = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('pre-tool-use')), env })
      expect(asked).toMatchObject({ code: 0, stdout: '' })
      // The question's fate after the refusal's parenthesis, in the words every other line says it in.
      const refused =
        `decision-memory hook: the service at http://${host} refused the token (HTTP 403: may DECISION_MEMORY_TOKEN act for user "default"? ` +
        "If not, set --user or DECISION_MEMORY_USER to the token's user)"
      expect(asked.stderr).toBe(`${refused}; ${ASKED_AS_WRITTEN}\n`)
      expect(existsSync(spool)).toBe(false)
      // One line: what was refused, what to do, and where the capture waits, the refusal said once.
      const chosen = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env })
      expect(chosen.code).toBe(0)
      expect(chosen.stderr).toBe(`${refused}; spooled to ${spool}, where events for "default" wait for a token that may act for that user\n`)
      expect((await readFile(spool, 'utf8')).split('\n').filter((line) => line !== '')).toHaveLength(1)
    })
  })
})

describe('decision-memory hook refused 401 (no token, or one the service does not know)', () => {
  it('says a PreToolUse is asked as the agent wrote it and not spooled, and a capture spooled, the refusal once in one line', async () => {
    const refuse: RequestListener = (request, response) => {
      request.resume()
      request.on('end', () => response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"code":"unauthorized","message":"a bearer token is required"}}'))
    }
    await withStub('dm-hook-401-', refuse, async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool, DECISION_MEMORY_USER: '' }
      const asked = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('pre-tool-use')), env })
      expect(asked).toMatchObject({ code: 0, stdout: '' })
      const refused = `decision-memory hook: the service at http://${host} refused the token (HTTP 401: is DECISION_MEMORY_TOKEN set to one of its tokens?)`
      expect(asked.stderr).toBe(`${refused}; ${ASKED_AS_WRITTEN}\n`)
      expect(existsSync(spool)).toBe(false)
      // One line: what was refused, what to do, and where the capture waits, the refusal said once.
      const chosen = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env })
      expect(chosen.code).toBe(0)
      expect(chosen.stderr).toBe(`${refused}; spooled to ${spool}, where events wait for one of its tokens\n`)
      expect((await readFile(spool, 'utf8')).split('\n').filter((line) => line !== '')).toHaveLength(1)
      // A spool that cannot be written: the refusal still said, then that the capture is not kept.
      const folder = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env: { ...env, DECISION_MEMORY_SPOOL: dir } })
      expect(folder).toMatchObject({ code: 0, stdout: '' })
      expect(folder.stderr).toBe(`${refused}\ndecision-memory hook: the spool ${dir} is a folder (EISDIR): this event is not kept; give DECISION_MEMORY_SPOOL or --spool the path of a file in it\n`)
    })
  })
})

describe('decision-memory hook with a capture waiting in the spool, the token refused', () => {
  it('says the refusal once, of the spooled capture, then the question at hand asked as written, or the capture at hand spooled (401 and 403)', async () => {
    for (const status of [401, 403]) {
      const refuse: RequestListener = (request, response) => {
        request.resume()
        request.on('end', () => response.writeHead(status, { 'content-type': 'application/json' }).end('{"error":{"code":"refused","message":"no"}}'))
      }
      await withStub(`dm-hook-spool-${status}-`, refuse, async ({ host, dir }) => {
        const spool = join(dir, 'spool.ndjson')
        const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool, DECISION_MEMORY_USER: '' }
        const chosen = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env })
        expect(chosen.code).toBe(0)
        expect(existsSync(spool)).toBe(true)
        const asked = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('pre-tool-use')), env })
        expect(asked).toMatchObject({ code: 0, stdout: '' })
        // The refusal once, of the spooled capture, with what becomes of it; the question's fate on a line of its own.
        const refused =
          status === 401
            ? `decision-memory hook: the service at http://${host} refused the token (HTTP 401: is DECISION_MEMORY_TOKEN set to one of its tokens?); the event spooled in ${spool} waits for one of its tokens\n`
            : `decision-memory hook: the service at http://${host} refused the token (HTTP 403: may DECISION_MEMORY_TOKEN act for user "default"? If not, set --user or DECISION_MEMORY_USER to the token's user); ` +
              `the event spooled in ${spool} for "default" waits for a token that may act for that user\n`
        expect(asked.stderr, String(status)).toBe(`${refused}decision-memory hook: ${ASKED_AS_WRITTEN}\n`)
        expect((await readFile(spool, 'utf8')).split('\n').filter((line) => line !== ''), String(status)).toHaveLength(1)
        // A capture at hand, not sent for the same refusal: spooled with them, said without saying the refusal again.
        const started = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('session-start')), env })
        expect(started).toMatchObject({ code: 0, stdout: '' })
        const spooledWith =
          status === 401
            ? `this event, not sent for that reason, is spooled to ${spool} with it`
            : `this event for user "default", not sent as the token was refused for that user above, is spooled to ${spool} with that user's events`
        expect(started.stderr, String(status)).toBe(`${refused}decision-memory hook: ${spooledWith}\n`)
        expect((await readFile(spool, 'utf8')).split('\n').filter((line) => line !== ''), String(status)).toHaveLength(2)
      })
    }
  })

  it("names the user of a capture at hand not sent for its user's 403, when another user's refusal is the line above it", async () => {
    // The token may act for alice alone: bob's and carol's spooled events are refused 403, and the
    // drain goes on past each, so carol's refusal is said last, after bob's.
    const refuse: RequestListener = (request, response) => {
      request.resume()
      const user = new URL(request.url ?? '/', 'http://stub').searchParams.get('user')
      request.on('end', () =>
        user === 'alice'
          ? response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
          : response.writeHead(403, { 'content-type': 'application/json' }).end('{"error":{"code":"forbidden","message":"no"}}'),
      )
    }
    await withStub('dm-hook-spool-users-', refuse, async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
      for (const user of ['bob', 'carol']) {
        const spooled = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('session-start')), env: { ...env, DECISION_MEMORY_USER: user } })
        expect(spooled.code, user).toBe(0)
      }
      const chosen = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env: { ...env, DECISION_MEMORY_USER: 'bob' } })
      expect(chosen).toMatchObject({ code: 0, stdout: '' })
      const refused = (user: string) =>
        `decision-memory hook: the service at http://${host} refused the token (HTTP 403: may DECISION_MEMORY_TOKEN act for user "${user}"? If not, set --user or DECISION_MEMORY_USER to the token's user); ` +
        `the event spooled in ${spool} for "${user}" waits for a token that may act for that user\n`
      // Not "for that reason … with them" after carol's line, which would read as carol's.
      expect(chosen.stderr).toBe(
        `${refused('bob')}${refused('carol')}decision-memory hook: this event for user "bob", not sent as the token was refused for that user above, is spooled to ${spool} with that user's events\n`,
      )
      expect((await readFile(spool, 'utf8')).split('\n').filter((line) => line !== '')).toHaveLength(3)
    })
  })

  it("does not count another user's events refused 403 among those waiting for the next call, their line having said what they wait for", async () => {
    // bob's spooled event is refused 403 and kept; alice's event at hand is answered 503. Counted,
    // bob's event was said twice, the second time as waiting for the next call, which will refuse it too.
    const answer: RequestListener = (request, response) => {
      request.resume()
      const user = new URL(request.url ?? '/', 'http://stub').searchParams.get('user')
      request.on('end', () =>
        user === 'bob'
          ? response.writeHead(403, { 'content-type': 'application/json' }).end('{"error":{"code":"forbidden","message":"no"}}')
          : response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"code":"unavailable","message":"busy"}}'),
      )
    }
    await withStub('dm-hook-spool-403-503-', answer, async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const bob = { at: new Date(Date.now() - 60_000).toISOString(), user: 'bob', payload: claudeCodeFixture('session-start') }
      await writeFile(spool, `${JSON.stringify(bob)}\n`, { mode: 0o600 })
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool, DECISION_MEMORY_USER: 'alice' }
      const refused =
        `decision-memory hook: the service at http://${host} refused the token (HTTP 403: may DECISION_MEMORY_TOKEN act for user "bob"? If not, set --user or DECISION_MEMORY_USER to the token's user); ` +
        `the event spooled in ${spool} for "bob" waits for a token that may act for that user\n`
      const unavailable = `decision-memory hook: http://${host}/v1/hooks/claude-code answered HTTP 503 without taking it`
      const chosen = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env })
      expect(chosen).toEqual({ code: 0, stdout: '', stderr: `${refused}${unavailable}; spooled to ${spool}\n` })
      expect((await readFile(spool, 'utf8')).split('\n').filter((line) => line !== '').map((line) => (JSON.parse(line) as { user: string }).user).sort()).toEqual(['alice', 'bob'])
      // A question names no spool for bob's event either.
      await writeFile(spool, `${JSON.stringify(bob)}\n`, { mode: 0o600 })
      const asked = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('pre-tool-use')), env })
      expect(asked).toEqual({ code: 0, stdout: '', stderr: `${refused}${unavailable}; ${ASKED_AS_WRITTEN}\n` })
      expect((await readFile(spool, 'utf8')).split('\n').filter((line) => line !== '')).toEqual([JSON.stringify(bob)])
    })
  })
})

describe('decision-memory hook refused for good (a 4xx)', () => {
  it('says the refusal in the service\'s words with its request id, and another program\'s page cut short, not as a raw body', async () => {
    let page = false
    const refuse: RequestListener = (request, response) => {
      request.resume()
      request.on('end', () => {
        if (page) return response.writeHead(400, { 'content-type': 'text/html' }).end(`<html>${'x'.repeat(5000)}</html>`)
        response.writeHead(400, { 'content-type': 'application/json' }).end(
          JSON.stringify({ error: { code: 'invalid_request', message: 'an AskUserQuestion event needs tool_use_id', issues: [{ path: 'tool_use_id', message: 'required \u001b[2J' }], request_id: 'r-1' } }),
        )
      })
    }
    await withStub('dm-hook-400-', refuse, async ({ host, dir }) => {
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: join(dir, 'spool.ndjson') }
      const input = JSON.stringify(claudeCodeFixture('post-tool-use-single'))
      const said = await runCli(['hook', '--budget', '10000'], { input, env })
      expect(said.code).toBe(0)
      expect(said.stderr).toContain(
        'decision-memory hook: the service refused the payload: HTTP 400 invalid_request: an AskUserQuestion event needs tool_use_id (tool_use_id: required \\u001b[2J) [request r-1]\n',
      )
      page = true
      const proxied = await runCli(['hook', '--budget', '10000'], { input, env })
      expect(proxied.stderr).toContain(`decision-memory hook: the service refused the payload: HTTP 400: <html>${'x'.repeat(194)}\n`)
    })
  })

  it('says where a spooled event it refuses went: the .rejected file, for a person to find', async () => {
    const refuse: RequestListener = (request, response) => {
      request.resume()
      request.on('end', () => response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'invalid_request', message: 'no' } })))
    }
    await withStub('dm-hook-400-spooled-', refuse, async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const line = JSON.stringify({ at: '2026-01-01T00:00:00.000Z', user: 'alice', payload: claudeCodeFixture('post-tool-use-single') })
      await writeFile(spool, `${line}\n`, { mode: 0o600 })
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
      const said = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('session-start')), env })
      expect(said.code).toBe(0)
      expect(said.stderr).toContain(`decision-memory hook: the service refused the payload: HTTP 400 invalid_request: no; set aside in ${spool}.rejected\n`)
      // The session's start, refused too, is said kept there on a line of its own.
      expect((await readFile(`${spool}.rejected`, 'utf8')).split('\n')[0]).toBe(line)
    })
  })

  it('says after the refusal of a PreToolUse that its question is asked as the agent wrote it, once; a capture refused, kept aside as before (400, 413)', async () => {
    const refusals = [
      { status: 400, error: { code: 'invalid_request', message: 'no', request_id: 'r-1' }, said: 'HTTP 400 invalid_request: no [request r-1]' },
      { status: 413, error: { code: 'body_too_large', message: 'the body is over 256 KB' }, said: 'HTTP 413 body_too_large: the body is over 256 KB' },
    ]
    for (const refused of refusals) {
      const refuse: RequestListener = (request, response) => {
        request.resume()
        request.on('end', () => response.writeHead(refused.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: refused.error })))
      }
      await withStub(`dm-hook-${refused.status}-pre-`, refuse, async ({ host, dir }) => {
        const spool = join(dir, 'spool.ndjson')
        const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
        const asked = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('pre-tool-use')), env })
        expect(asked).toMatchObject({ code: 0, stdout: '' })
        // The refusal in the service's words, then what became of the question, as after a URL at fault.
        expect(asked.stderr, String(refused.status)).toBe(
          `decision-memory hook: the service refused the payload: ${refused.said}\n` + `decision-memory hook: ${ASKED_AS_WRITTEN}\n`,
        )
        // Never spooled, nor kept aside: there is no answer to read in it.
        expect(existsSync(spool)).toBe(false)
        expect(existsSync(`${spool}.rejected`)).toBe(false)
        // A capture refused so is kept aside, said on a line of its own, and nothing said of a question.
        const chosen = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env })
        expect(chosen).toMatchObject({ code: 0, stdout: '' })
        expect(chosen.stderr, String(refused.status)).toBe(
          `decision-memory hook: the service refused the payload: ${refused.said}\n` + `decision-memory hook: kept in ${spool}.rejected\n`,
        )
        expect((await readFile(`${spool}.rejected`, 'utf8')).trim().split('\n')).toHaveLength(1)
        expect(existsSync(spool)).toBe(false)
      })
    }
  })
})

describe('decision-memory hook sending a spooled event again as of now (its time refused as ahead of the service)', () => {
  it('says it set the event aside when the second send is refused for good, as it says of one refused at the first', async () => {
    const sent: Array<string | null> = []
    const refuse: RequestListener = (request, response) => {
      const at = new URL(request.url ?? '/', 'http://stub').searchParams.get('at')
      sent.push(at)
      request.resume()
      request.on('end', () => {
        // The spooling machine's clock ran ahead: its time is refused, then the event itself.
        const error = at === null ? { code: 'invalid_request', message: 'no' } : { code: 'timestamp_in_future', message: 'at is ahead' }
        response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error }))
      })
    }
    await withStub('dm-hook-400-again-', refuse, async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const line = JSON.stringify({ at: '2030-01-01T00:00:00.000Z', user: 'alice', payload: claudeCodeFixture('post-tool-use-single') })
      await writeFile(spool, `${line}\n`, { mode: 0o600 })
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
      // Another tool's event: the spool is drained, and nothing else sent.
      const said = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('pre-tool-use-bash')), env })
      expect(said.code).toBe(0)
      expect(sent).toEqual(['2030-01-01T00:00:00.000Z', null])
      expect(said.stderr).toBe(`decision-memory hook: the service refused the payload: HTTP 400 invalid_request: no; set aside in ${spool}.rejected\n`)
      expect((await readFile(`${spool}.rejected`, 'utf8')).split('\n')[0]).toBe(line)
    })
  })
})

/** A string's regular expression characters escaped, to match it as written. */
/**
 * A service that refuses the events of the users named, each with its status and error code (the
 * message `no`), and holds any other's unanswered, calling `held` once it has the whole request.
 */
function refusingUsers(refusals: Record<string, [number, string]>, held: () => void): RequestListener {
  return (request, response) => {
    request.resume()
    const user = new URL(request.url ?? '/', 'http://stub').searchParams.get('user') ?? ''
    request.on('end', () => {
      const refusal = Object.hasOwn(refusals, user) ? refusals[user] : undefined
      if (refusal === undefined) return held()
      const [status, code] = refusal
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code, message: 'no' } }))
    })
  }
}

/**
 * The hook run as Claude Code runs it, on `payload`, with a budget the test never reaches, ended by
 * `signal` once `arrival` resolves (the stub's sign that the moment to end it has come, made before
 * the payload is sent): how it ended, and all it said on stderr.
 */
async function endedWhileSending(env: NodeJS.ProcessEnv, payload: unknown, signal: NodeJS.Signals, arrival: () => Promise<void>): Promise<{ how: string | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'hook', '--budget', '20000'], { env, stdio: ['pipe', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const closed = new Promise<string | null>((resolve) => child.once('close', (_code, how) => resolve(how)))
  const arrived = arrival()
  child.stdin.end(JSON.stringify(payload))
  await arrived
  child.kill(signal)
  return { how: await closed, stderr }
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * A regular expression source matching what the hook says of a --budget of `budget` ms spent
 * before it could send the event at hand to the service at `url`: the ms it had run by then are the machine's.
 * A budget of 400 ms or under has none of it before the 400 ms kept for spooling and exiting.
 */
function spentBefore(budget: number, url: string): string {
  const kept =
    budget > 400
      ? 'and keeps the last 400 ms of its budget for spooling and exiting, so this event was not sent'
      : 'and it sends only until 400 ms before its budget ends, keeping those for spooling and exiting: a budget of 400 ms or under leaves it no time to send at all, and the hook ends past it, so this event was not sent'
  return (
    escaped(`the hook's --budget of ${budget} ms was spent before the service at ${url} could be asked: the hook had run `) +
    '\\d+' +
    escaped(` ms by then (node's start included), ${kept}; raise --budget in the hook's command (at most 60000, and under the hook entry's "timeout", in seconds)`)
  )
}

describe('decision-memory hook whose --budget is spent before it can send the event at hand', () => {
  it('says the budget was spent before the service could be asked, not that the service gave no answer; a capture spooled, a question asked as written', async () => {
    // A budget under what starting node takes: nothing is sent, and "no answer from the service
    // within the hook's time" blamed a service that was never asked.
    const asked: string[] = []
    const stub: RequestListener = (request, response) => {
      asked.push(request.url ?? '')
      request.resume()
      request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'))
    }
    await withStub('dm-hook-spent-', stub, async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
      const chosen = await runCli(['hook', '--budget', '1'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env })
      expect(chosen).toMatchObject({ code: 0, stdout: '' })
      expect(chosen.stderr).toMatch(new RegExp(`^decision-memory hook: ${spentBefore(1, `http://${host}`)}; spooled to ${escaped(spool)}\n$`))
      expect(chosen.stderr).not.toContain('no answer')
      expect((await readFile(spool, 'utf8')).split('\n').filter((l) => l !== '')).toHaveLength(1)
      await rm(spool)
      const question = await runCli(['hook', '--budget', '1'], { input: JSON.stringify(claudeCodeFixture('pre-tool-use')), env })
      expect(question).toMatchObject({ code: 0, stdout: '' })
      expect(question.stderr).toMatch(new RegExp(`^decision-memory hook: ${spentBefore(1, `http://${host}`)}; ${escaped(ASKED_AS_WRITTEN)}\n$`))
      expect(existsSync(spool)).toBe(false)
      expect(asked).toEqual([])
    })
  })
})

describe('decision-memory hook whose --budget is 400 ms or under', () => {
  it('says it leaves no time to send at all, not that the hook keeps the last 400 ms of it; a budget over 400 ms, that it keeps them', async () => {
    // In this process, performance.now() is long past 1 ms: a budget of 401 ms is spent as surely
    // as one of 1 ms, the one said to keep its last 400 ms, the other, which has none to keep, not.
    const dir = await mkdtemp(join(tmpdir(), 'dm-hook-short-budget-'))
    const said: string[] = []
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      said.push(String(chunk))
      return true
    })
    vi.stubEnv('DECISION_MEMORY_URL', 'http://127.0.0.1:9')
    try {
      const spool = join(dir, 'spool.ndjson')
      for (const budget of [1, 400, 401]) {
        said.length = 0
        const stdin = new PassThrough()
        stdin.end(JSON.stringify(claudeCodeFixture('post-tool-use-single')))
        await runHook(['--budget', String(budget), '--spool', spool], stdin)
        expect(said.join(''), String(budget)).toMatch(new RegExp(`^decision-memory hook: ${spentBefore(budget, 'http://127.0.0.1:9')}; spooled to ${escaped(spool)}\n$`))
        expect((await readFile(spool, 'utf8')).split('\n').filter((l) => l !== ''), String(budget)).toHaveLength(1)
        await rm(spool)
      }
      expect(said.join('')).toContain('keeps the last 400 ms of its budget')
    } finally {
      write.mockRestore()
      vi.unstubAllEnvs()
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('decision-memory hook whose PreToolUse gets no answer from the service', () => {
  it('says why on stderr, as a capture\'s does, that the question is asked as written, and spools nothing', async () => {
    // A service that answers 503 (a store it cannot read), then one that never answers (a plan
    // slower than the budget): the question is asked as the agent wrote it, and personalization
    // stopped with nothing said anywhere while the captures still went through.
    let hang = false
    const stub: RequestListener = (request, response) => {
      request.resume()
      request.on('end', () => {
        if (hang) return
        response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"code":"store_unavailable","message":"the store cannot be read"}}')
      })
    }
    await withStub('dm-hook-pre-unanswered-', stub, async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const url = `http://${host}`
      const env = { DECISION_MEMORY_URL: url, DECISION_MEMORY_SPOOL: spool }
      const input = JSON.stringify(claudeCodeFixture('pre-tool-use'))
      const unavailable = await runCli(['hook', '--budget', '10000'], { input, env })
      expect(unavailable).toMatchObject({ code: 0, stdout: '' })
      expect(unavailable.stderr).toContain(`decision-memory hook: ${url}/v1/hooks/claude-code answered HTTP 503 without taking it; this question is asked as the agent wrote it`)
      hang = true
      // A small budget, the least that leaves the hook time to send after node starts (0.2 to 0.45 s
      // here): the test waits out what is left of it, not 2 s. Where starting took it all (a loaded
      // machine), the hook sends nothing and says its budget was spent before it could ask, the
      // question asked as written all the same.
      const slow = await runCli(['hook', '--budget', '1000'], { input, env })
      expect(slow).toMatchObject({ code: 0, stdout: '' })
      const why = `(${escaped(`no answer from the service at ${url} within the hook's time (--budget)`)}|${spentBefore(1000, url)})`
      expect(slow.stderr).toMatch(new RegExp(`^decision-memory hook: ${why}; ${escaped(ASKED_AS_WRITTEN)}\n$`))
      expect(existsSync(spool)).toBe(false)
    })
  })

  it('says a refusal once, in the refusal\'s words, then on its line what became of the question', async () => {
    const refuse: RequestListener = (request, response) => {
      request.resume()
      request.on('end', () => response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found","message":"no route"}}'))
    }
    await withStub('dm-hook-pre-404-', refuse, async ({ host, dir }) => {
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: join(dir, 'spool.ndjson') }
      const asked = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('pre-tool-use')), env })
      expect(asked).toMatchObject({ code: 0, stdout: '' })
      // The URL at fault said once, not again as "answered HTTP 404 without taking it", on one line
      // with what became of the question, as a capture's says where it is spooled.
      expect(asked.stderr).toBe(
        `decision-memory hook: http://${host}/v1/hooks/claude-code answered HTTP 404: is DECISION_MEMORY_URL the service's address, with no path?; ${ASKED_AS_WRITTEN}\n`,
      )
    })
  })
})

/** What the hook says of a PreToolUse whose failure a line of its own said, in a line after it. */
const ASKED_AS_WRITTEN = 'this question is asked as the agent wrote it (a PreToolUse is not spooled: its answer is of use only while the agent waits)'

/** Answers that say DECISION_MEMORY_URL is at fault, and what the hook's line says of each, after the URL. */
const URL_AT_FAULT = [
  { status: 404, type: 'application/json', body: '{"error":{"code":"not_found","message":"no route"}}', said: 'answered HTTP 404: is DECISION_MEMORY_URL the service\'s address, with no path?' },
  { status: 405, type: 'text/plain', body: 'Method Not Allowed', said: 'answered HTTP 405: is DECISION_MEMORY_URL the service\'s address, with no path?' },
  { status: 200, type: 'text/html', body: '<html>Welcome to nginx!</html>', said: 'answered HTTP 200 with a body that is not JSON (is DECISION_MEMORY_URL a decision-memory service?)' },
  // A mock or echo server's catch-all: a JSON object, but none of a hook answer's fields.
  { status: 200, type: 'application/json', body: '{"status":"ok","received":{"hook_event_name":"PostToolUse"}}', said: 'answered HTTP 200 with JSON that is no hook answer (is DECISION_MEMORY_URL a decision-memory service?)' },
]

describe('decision-memory hook given a capture, DECISION_MEMORY_URL at fault', () => {
  it('says the URL once, in one line with where the capture is spooled and what it waits for (404, 405, a page that is not JSON)', async () => {
    for (const answer of URL_AT_FAULT) {
      const wrong: RequestListener = (request, response) => {
        request.resume()
        request.on('end', () => response.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body))
      }
      await withStub(`dm-hook-url-${answer.status}-`, wrong, async ({ host, dir }) => {
        const spool = join(dir, 'spool.ndjson')
        const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
        const chosen = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env })
        expect(chosen).toMatchObject({ code: 0, stdout: '' })
        // Not the URL, then "answered HTTP 404 without taking it; spooled to …": the fault once, with where the capture waits.
        expect(chosen.stderr, String(answer.status)).toBe(
          `decision-memory hook: http://${host}/v1/hooks/claude-code ${answer.said}; spooled to ${spool}, where events wait for DECISION_MEMORY_URL to be mended\n`,
        )
        expect((await readFile(spool, 'utf8')).split('\n').filter((line) => line !== ''), String(answer.status)).toHaveLength(1)
        // A spool that cannot be written: the URL still said, then that the capture is not kept.
        const folder = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env: { ...env, DECISION_MEMORY_SPOOL: dir } })
        expect(folder).toMatchObject({ code: 0, stdout: '' })
        expect(folder.stderr, String(answer.status)).toBe(
          `decision-memory hook: http://${host}/v1/hooks/claude-code ${answer.said}\n` +
            `decision-memory hook: the spool ${dir} is a folder (EISDIR): this event is not kept; give DECISION_MEMORY_SPOOL or --spool the path of a file in it\n`,
        )
      })
    }
  })
})

describe('decision-memory hook answered with a hook output field and one it does not know', () => {
  it('takes it for the service\'s answer, prints its hook output fields alone and spools nothing (a later service may add a field)', async () => {
    for (const answer of [
      { systemMessage: 'decision-memory recorded it', added_later: { by: 'a later service' } },
      { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' }, added_later: 1 },
      {},
    ]) {
      const body = JSON.stringify(answer)
      const service: RequestListener = (request, response) => {
        request.resume()
        request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(body))
      }
      await withStub('dm-hook-added-field-', service, async ({ host, dir }) => {
        const spool = join(dir, 'spool.ndjson')
        const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
        const run = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env })
        expect(run, body).toMatchObject({ code: 0, stderr: '' })
        // Printed whole, a field Claude Code does not know had it refuse the whole answer
        // ("Hook JSON output validation failed"): a question's answers, a message, lost with it.
        const { added_later: _added, ...known } = answer as { added_later?: unknown }
        expect(run.stdout === '' ? {} : JSON.parse(run.stdout), body).toEqual(known)
        expect(existsSync(spool), body).toBe(false)
      })
    }
  })
})

describe('decision-memory hook answered with the service\'s answer header', () => {
  it('takes any object sent with it for the service\'s answer, none of a hook\'s fields in it (a later service\'s {} with a field added)', async () => {
    expect(ANSWER_HEADER).toBe(ROUTE_ANSWER_HEADER)
    for (const [headers, spooled] of [
      [{ [ANSWER_HEADER]: '1' }, false],
      [{}, true],
    ] as const) {
      const service: RequestListener = (request, response) => {
        request.resume()
        request.on('end', () => response.writeHead(200, { 'content-type': 'application/json', ...headers }).end('{"added_later":1}'))
      }
      await withStub('dm-hook-answer-header-', service, async ({ host, dir }) => {
        const spool = join(dir, 'spool.ndjson')
        const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
        const run = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env })
        expect(run).toMatchObject({ code: 0, stdout: '' })
        // With the header: delivered, and nothing of a hook's output to print. Without: no service.
        expect(existsSync(spool), JSON.stringify(headers)).toBe(spooled)
        expect(run.stderr === '', JSON.stringify(headers)).toBe(!spooled)
      })
    }
  })
})

describe('decision-memory hook with a capture waiting in the spool, DECISION_MEMORY_URL at fault', () => {
  it('says the URL once, of the spooled capture, then that the event at hand, not sent, is asked as the agent wrote it or spooled with them (404, 405, a page that is not JSON)', async () => {
    for (const answer of URL_AT_FAULT) {
      const sent: Array<string | null> = []
      const wrong: RequestListener = (request, response) => {
        sent.push(new URL(request.url ?? '/', 'http://stub').searchParams.get('at'))
        request.resume()
        request.on('end', () => response.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body))
      }
      await withStub(`dm-hook-spool-url-${answer.status}-`, wrong, async ({ host, dir }) => {
        const spool = join(dir, 'spool.ndjson')
        const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
        expect((await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env })).code).toBe(0)
        sent.length = 0
        const asked = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('pre-tool-use')), env })
        expect(asked).toMatchObject({ code: 0, stdout: '' })
        // The capture offered first, late; the question then not sent.
        expect(sent, String(answer.status)).toEqual([expect.any(String)])
        const spooledSaid = `decision-memory hook: http://${host}/v1/hooks/claude-code ${answer.said}; the event spooled in ${spool} waits for DECISION_MEMORY_URL to be mended\n`
        expect(asked.stderr, String(answer.status)).toBe(`${spooledSaid}decision-memory hook: ${ASKED_AS_WRITTEN}\n`)
        expect((await readFile(spool, 'utf8')).split('\n').filter((line) => line !== ''), String(answer.status)).toHaveLength(1)
        // A capture at hand, not sent either: said spooled with them, not as answered what the spooled one was.
        sent.length = 0
        const started = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('session-start')), env })
        expect(started).toMatchObject({ code: 0, stdout: '' })
        expect(sent, String(answer.status)).toEqual([expect.any(String)])
        expect(started.stderr, String(answer.status)).toBe(`${spooledSaid}decision-memory hook: this event, not sent for that reason, is spooled to ${spool} with it\n`)
        expect((await readFile(spool, 'utf8')).split('\n').filter((line) => line !== ''), String(answer.status)).toHaveLength(2)
      })
    }
  })

  it('says a question itself answered so in one line, the URL once with the question asked as written (404, 405, a page that is not JSON)', async () => {
    for (const answer of URL_AT_FAULT) {
      const wrong: RequestListener = (request, response) => {
        request.resume()
        request.on('end', () => response.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body))
      }
      await withStub(`dm-hook-pre-url-${answer.status}-`, wrong, async ({ host, dir }) => {
        const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: join(dir, 'spool.ndjson') }
        const asked = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('pre-tool-use')), env })
        expect(asked).toMatchObject({ code: 0, stdout: '' })
        // As a capture's one line says where it is spooled: not the URL, then the question's fate on a second line.
        expect(asked.stderr, String(answer.status)).toBe(`decision-memory hook: http://${host}/v1/hooks/claude-code ${answer.said}; ${ASKED_AS_WRITTEN}\n`)
        expect(existsSync(join(dir, 'spool.ndjson')), String(answer.status)).toBe(false)
      })
    }
  })
})

describe('decision-memory hook with a capture waiting in the spool, the service unable to take it now', () => {
  it('says the spooled capture\'s answer once, with what becomes of the spooled events, then the event at hand, not sent, asked as written or spooled with them (503, 500, 429)', async () => {
    for (const status of [503, 500, 429]) {
      const sent: Array<string | null> = []
      const busy: RequestListener = (request, response) => {
        sent.push(new URL(request.url ?? '/', 'http://stub').searchParams.get('at'))
        request.resume()
        request.on('end', () => response.writeHead(status, { 'content-type': 'application/json' }).end('{"error":{"code":"busy","message":"try later"}}'))
      }
      await withStub(`dm-hook-spool-${status}-`, busy, async ({ host, dir }) => {
        const spool = join(dir, 'spool.ndjson')
        const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
        // The capture at hand answered so itself: its own answer, with where it went.
        const chosen = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env })
        expect(chosen, String(status)).toEqual({ code: 0, stdout: '', stderr: `decision-memory hook: http://${host}/v1/hooks/claude-code answered HTTP ${status} without taking it; spooled to ${spool}\n` })
        // The spooled capture offered first, late, and answered so; the question then not sent, nor said answered.
        sent.length = 0
        const asked = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('pre-tool-use')), env })
        expect(asked).toMatchObject({ code: 0, stdout: '' })
        expect(sent, String(status)).toEqual([expect.any(String)])
        const spooledSaid = `decision-memory hook: http://${host}/v1/hooks/claude-code answered HTTP ${status} without taking a spooled event; the event spooled in ${spool} waits for the next call\n`
        expect(asked.stderr, String(status)).toBe(`${spooledSaid}decision-memory hook: ${ASKED_AS_WRITTEN}\n`)
        expect((await readFile(spool, 'utf8')).split('\n').filter((line) => line !== ''), String(status)).toHaveLength(1)
        // A capture at hand, not sent either: said spooled with them, not as answered what the spooled one was.
        sent.length = 0
        const started = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('session-start')), env })
        expect(started).toMatchObject({ code: 0, stdout: '' })
        expect(sent, String(status)).toEqual([expect.any(String)])
        expect(started.stderr, String(status)).toBe(`${spooledSaid}decision-memory hook: this event, not sent for that reason, is spooled to ${spool} with it\n`)
        expect((await readFile(spool, 'utf8')).split('\n').filter((line) => line !== ''), String(status)).toHaveLength(2)
      })
    }
  })
})

describe('decision-memory hook whose spooled events are refused or not taken, several waiting', () => {
  it('says how many wait, and where, on the refusal\'s line (401, 403, 404, 503), a user\'s refused 403 on that user\'s line and not among the others', async () => {
    // Two events of bob, whom the token may not act for (403), then two of alice's, the first
    // answered `status`; the line said `the events spooled wait`, no count, where the line of a
    // service not reachable says how many, and where.
    let status = 503
    const answer: RequestListener = (request, response) => {
      request.resume()
      const user = new URL(request.url ?? '/', 'http://stub').searchParams.get('user')
      const code = user === 'bob' && status !== 401 ? 403 : status
      request.on('end', () => response.writeHead(code, { 'content-type': 'application/json' }).end('{"error":{"code":"no","message":"no"}}'))
    }
    await withStub('dm-hook-spool-counted-', answer, async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const event = (user: string, minutes: number) => JSON.stringify({ at: new Date(Date.now() - minutes * 60_000).toISOString(), user, payload: claudeCodeFixture('session-start') })
      const spooled = [event('bob', 4), event('bob', 3), event('alice', 2), event('alice', 1)].join('\n') + '\n'
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool, DECISION_MEMORY_USER: 'alice' }
      const url = `http://${host}/v1/hooks/claude-code`
      const bob =
        `decision-memory hook: the service at http://${host} refused the token (HTTP 403: may DECISION_MEMORY_TOKEN act for user "bob"? If not, set --user or DECISION_MEMORY_USER to the token's user); ` +
        `the 2 events spooled in ${spool} for "bob" wait for a token that may act for that user\n`
      const cases: Array<[number, string]> = [
        [503, `${bob}decision-memory hook: ${url} answered HTTP 503 without taking a spooled event; the 2 events spooled in ${spool} wait for the next call\n`],
        [404, `${bob}decision-memory hook: ${url} answered HTTP 404: is DECISION_MEMORY_URL the service's address, with no path?; the 2 events spooled in ${spool} wait for DECISION_MEMORY_URL to be mended\n`],
        // A 401 is every user's: the drain stops at bob's first, and all four wait.
        [401, `decision-memory hook: the service at http://${host} refused the token (HTTP 401: is DECISION_MEMORY_TOKEN set to one of its tokens?); the 4 events spooled in ${spool} wait for one of its tokens\n`],
      ]
      for (const [answered, said] of cases) {
        status = answered
        await writeFile(spool, spooled, { mode: 0o600 })
        const asked = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('pre-tool-use')), env })
        expect(asked, String(answered)).toEqual({ code: 0, stdout: '', stderr: `${said}decision-memory hook: ${ASKED_AS_WRITTEN}\n` })
        expect((await readFile(spool, 'utf8')).split('\n').filter((l) => l !== '').sort(), String(answered)).toEqual(spooled.split('\n').filter((l) => l !== '').sort())
        // A capture at hand joins them, said so once.
        const chosen = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env })
        expect(chosen.stderr, String(answered)).toBe(`${said}decision-memory hook: this event, not sent for that reason, is spooled to ${spool} with them\n`)
      }
    })
  })
  it('counts no event waiting when the drain could not write back what it kept after a 403, not "the -1 events"', async () => {
    // bob's spooled event is refused 403 and kept; the drain then cannot write it back (a folder
    // now where the spool was: EISDIR) and throws, having put back nothing it counted. The 403 was
    // subtracted from that nothing all the same, and the event at hand's line said `the -1 events`.
    const answer: RequestListener = (request, response) => {
      request.resume()
      const user = new URL(request.url ?? '/', 'http://stub').searchParams.get('user')
      request.on('end', () => {
        if (user === 'bob') {
          void mkdir(spoolNow).then(() => response.writeHead(403, { 'content-type': 'application/json' }).end('{"error":{"code":"forbidden","message":"no"}}'))
        } else {
          void rm(spoolNow, { recursive: true, force: true }).then(() =>
            response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"code":"unavailable","message":"busy"}}'),
          )
        }
      })
    }
    let spoolNow = ''
    await withStub('dm-hook-spool-403-unwritable-', answer, async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      spoolNow = spool
      const bob = { at: new Date(Date.now() - 60_000).toISOString(), user: 'bob', payload: claudeCodeFixture('session-start') }
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool, DECISION_MEMORY_USER: 'alice' }
      const said =
        `decision-memory hook: the service at http://${host} refused the token (HTTP 403: may DECISION_MEMORY_TOKEN act for user "bob"? If not, set --user or DECISION_MEMORY_USER to the token's user); ` +
        `the events spooled in ${spool} for "bob" wait for a token that may act for that user\n` +
        `decision-memory hook: cannot deliver the spool ${spool} (EISDIR): its events wait for a call that can; this call's event is sent all the same\n` +
        `decision-memory hook: http://${host}/v1/hooks/claude-code answered HTTP 503 without taking it; `
      await writeFile(spool, `${JSON.stringify(bob)}\n`, { mode: 0o600 })
      const chosen = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env })
      expect(chosen).toEqual({ code: 0, stdout: '', stderr: `${said}spooled to ${spool}\n` })
      // Nothing lost: bob's event stays in the drain's claim, for a later drain to take over.
      expect(await readFile(spool, 'utf8')).toContain('"user":"alice"')
      // The claim left (bob's event) would be taken over by the next drain: a fresh folder.
      await rm(dir, { recursive: true, force: true })
      await mkdir(dir)
      await writeFile(spool, `${JSON.stringify(bob)}\n`, { mode: 0o600 })
      const asked = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('pre-tool-use')), env })
      expect(asked).toEqual({ code: 0, stdout: '', stderr: `${said}${ASKED_AS_WRITTEN}\n` })
    })
  })
  it('names the spool where a spooled event refused for its URL waits, when the drain could not count what it kept', async () => {
    // alice's spooled event is answered 404 (a path in DECISION_MEMORY_URL) and kept; the drain then
    // cannot write it back (a folder now where the spool was: EISDIR) and throws, having counted
    // nothing. The line said `the events spooled wait for DECISION_MEMORY_URL to be mended`, where.
    let requests = 0
    let spoolNow = ''
    const answer: RequestListener = (request, response) => {
      request.resume()
      request.on('end', () => {
        requests += 1
        const status = requests === 1 ? 404 : 503
        const before = requests === 1 ? mkdir(spoolNow) : rm(spoolNow, { recursive: true, force: true })
        void before.then(() => response.writeHead(status, { 'content-type': 'application/json' }).end('{"error":{"code":"no","message":"no"}}'))
      })
    }
    await withStub('dm-hook-spool-404-unwritable-', answer, async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      spoolNow = spool
      const alice = { at: new Date(Date.now() - 60_000).toISOString(), user: 'alice', payload: claudeCodeFixture('session-start') }
      await writeFile(spool, `${JSON.stringify(alice)}\n`, { mode: 0o600 })
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool, DECISION_MEMORY_USER: 'alice' }
      const chosen = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('post-tool-use-single')), env })
      expect(chosen).toEqual({
        code: 0,
        stdout: '',
        stderr:
          `decision-memory hook: http://${host}/v1/hooks/claude-code answered HTTP 404: is DECISION_MEMORY_URL the service's address, with no path?; ` +
          `the events spooled in ${spool} wait for DECISION_MEMORY_URL to be mended\n` +
          `decision-memory hook: cannot deliver the spool ${spool} (EISDIR): its events wait for a call that can; this call's event is sent all the same\n` +
          `decision-memory hook: http://${host}/v1/hooks/claude-code answered HTTP 503 without taking it; spooled to ${spool}\n`,
      })
    })
  })

  it('says what it held of the spooled events when ended by SIGTERM or SIGINT mid-drain (Claude Code ends a hook past its "timeout"), and loses none', async () => {
    // carol's event is refused for good (400), bob's two are refused 403, and alice's, behind them,
    // is never answered: Claude Code ends the hook there (an entry's "timeout" under its --budget).
    // The refusals' lines were held for the drain's count and died with the process, unsaid.
    let reached = () => {}
    const answer = refusingUsers({ carol: [400, 'invalid_request'], bob: [403, 'forbidden'] }, () => reached())
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      await withStub('dm-hook-spool-ended-', answer, async ({ host, dir }) => {
        const spool = join(dir, 'spool.ndjson')
        const event = (user: string, minutes: number) => JSON.stringify({ at: new Date(Date.now() - minutes * 60_000).toISOString(), user, payload: claudeCodeFixture('session-start') })
        const spooled = [event('carol', 4), event('bob', 3), event('bob', 2), event('alice', 1)]
        await writeFile(spool, spooled.join('\n') + '\n', { mode: 0o600 })
        const env = { ...outsideEnv(), DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool, DECISION_MEMORY_USER: 'alice' }
        const chosen = claudeCodeFixture('post-tool-use-single')
        // Ended once alice's spooled event reached the service: carol's and bob's were answered before it.
        const { how, stderr } = await endedWhileSending(env, chosen, signal, () => new Promise<void>((resolve) => (reached = resolve)))
        expect(how, signal).toBe(signal)
        expect(stderr, signal).toBe(
          `decision-memory hook: the service refused the payload: HTTP 400 invalid_request: no; not set aside in ${spool}.rejected, the hook ended first: the next call offers it again\n` +
            `decision-memory hook: the service at http://${host} refused the token (HTTP 403: may DECISION_MEMORY_TOKEN act for user "bob"? If not, set --user or DECISION_MEMORY_USER to the token's user); ` +
            `the events spooled in ${spool} for "bob" wait for a token that may act for that user\n` +
            // Only SIGTERM is Claude Code's, past the entry's timeout; SIGINT is a Ctrl-C, no timeout to raise.
            `decision-memory hook: ended by ${signal} while delivering the spool ${spool}` +
            (signal === 'SIGTERM' ? `, as Claude Code ends a hook past its entry's "timeout" (keep that, in seconds, over the hook's --budget of 20000 ms)` : '') +
            `: what it had not delivered waits beside the spool, for the next call to take over, and so does this event, not sent\n`,
        )
        // Nothing lost: every spooled event, and the capture at hand, is in a file the next drain takes.
        const left = await Promise.all((await readdir(dir)).map((name) => readFile(join(dir, name), 'utf8')))
        const lines = left.join('').split('\n').filter((l) => l !== '')
        for (const line of spooled) expect(lines, signal).toContain(line)
        expect(lines.some((l) => l.includes(chosen.tool_use_id)), signal).toBe(true)
      })
    }
  })
  it('spools and exits 0 when Claude Code has closed its stderr (EPIPE), rather than end with an error', async () => {
    // A line said on a stderr no one reads failed, and the error, with no listener, ended the hook
    // with exit 1 on the next turn: after a flag mistake's line, before the capture was spooled.
    const dir = await mkdtemp(join(tmpdir(), 'dm-hook-epipe-'))
    try {
      const spool = join(dir, 'spool.ndjson')
      const env = { ...outsideEnv(), DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}`, DECISION_MEMORY_SPOOL: spool }
      const run = (args: string[]) => {
        const child = spawn(process.execPath, [BIN, 'hook', ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] })
        child.stderr.destroy()
        child.stdout.resume()
        const closed = new Promise<[number | null, string | null]>((resolve) => child.once('close', (code, how) => resolve([code, how])))
        child.stdin.end(JSON.stringify(claudeCodeFixture('post-tool-use-single')))
        return { child, closed }
      }
      expect(await run(['--budget', '3e3']).closed).toEqual([0, null])
      expect(await run([]).closed).toEqual([0, null])
      const lines = (await readFile(spool, 'utf8')).split('\n').filter((l) => l !== '')
      expect(lines).toHaveLength(2)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('says a capture kept nowhere (a spool set to a folder, a device or a named pipe) is lost when a signal ends the hook while sending it', async () => {
    // A spool that is a folder holds nothing beside it (holdWhileDelivering): Claude Code's SIGTERM
    // while the capture was being sent, no drain under way, ended the hook without a word.
    // The signal comes once the service holds the whole request: "not sent" was untrue there.
    let reached = () => {}
    const answer: RequestListener = (request) => {
      request.resume()
      request.on('end', () => reached())
    }
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      await withStub('dm-hook-folder-ended-', answer, async ({ host, dir }) => {
        // A named pipe, in a folder of its own: `dir` is to hold nothing after.
        const fifo = join(tempDir('dm-hook-fifo-ended-'), 'spool.ndjson')
        expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
        for (const [spool, why] of [
          [dir, `the spool ${dir} is a folder: give DECISION_MEMORY_SPOOL or --spool the path of a file in it`],
          ['/dev/null', 'the spool /dev/null is a device, not a file: give DECISION_MEMORY_SPOOL or --spool the path of a file'],
          [fifo, `the spool ${fifo} is a named pipe (FIFO), not a file: give DECISION_MEMORY_SPOOL or --spool the path of a file`],
        ] as const) {
          const env = { ...outsideEnv(), DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
          const { how, stderr } = await endedWhileSending(env, claudeCodeFixture('post-tool-use-single'), signal, () => new Promise<void>((resolve) => (reached = resolve)))
          expect(how, signal).toBe(signal)
          expect(stderr, `${signal} ${spool}`).toBe(
            `decision-memory hook: ended by ${signal} while sending this event` +
              (signal === 'SIGTERM' ? `, as Claude Code ends a hook past its entry's "timeout" (keep that, in seconds, over the hook's --budget of 20000 ms)` : '') +
              `: this event, unanswered, is recorded only if the service took it before the signal, and is not kept, as ${why}\n`,
          )
        }
        expect(await readdir(dir)).toEqual([])
      })
    }
  })
  it('says a refused event set aside where a claim it was in was done with before the signal, not offered again', async () => {
    // carol's event, refused for good, is in a claim left by a hook killed mid-drain, which this drain
    // takes over and is done with first: set aside in the .rejected file, gone from the spool. The
    // signal comes while alice's, in the spool, is being delivered: the line said "not set aside ...
    // the next call offers it again", of an event the next call never offers.
    let reached = () => {}
    const answer = refusingUsers({ carol: [400, 'invalid_request'] }, () => reached())
    await withStub('dm-hook-spool-ended-aside-', answer, async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const event = (user: string, minutes: number) => JSON.stringify({ at: new Date(Date.now() - minutes * 60_000).toISOString(), user, payload: claudeCodeFixture('session-start') })
      const dead = spawnSync(process.execPath, ['-e', '0']).pid as number
      const refused = event('carol', 2)
      await writeFile(join(dir, `spool.ndjson.${dead}.0a1b2c3d.draining`), refused + '\n', { mode: 0o600 })
      await writeFile(spool, event('alice', 1) + '\n', { mode: 0o600 })
      const env = { ...outsideEnv(), DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool, DECISION_MEMORY_USER: 'alice' }
      const { how, stderr } = await endedWhileSending(env, claudeCodeFixture('post-tool-use-single'), 'SIGTERM', () => new Promise<void>((resolve) => (reached = resolve)))
      expect(how).toBe('SIGTERM')
      expect(stderr.split('\n')[0]).toBe(`decision-memory hook: the service refused the payload: HTTP 400 invalid_request: no; set aside in ${spool}.rejected`)
      expect(await readFile(`${spool}.rejected`, 'utf8')).toBe(refused + '\n')
      const claims = (await readdir(dir)).filter((name) => name.endsWith('.draining'))
      const left = await Promise.all(claims.map((name) => readFile(join(dir, name), 'utf8')))
      expect(left.join('')).not.toContain(refused)
    })
  })
})

describe('the hook run by hand in a terminal, no payload piped to it', () => {
  it('says at once that it reads a hook payload on stdin, reads nothing, prints and spools nothing, with its flags right or mistaken', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-hook-tty-'))
    try {
      for (const flags of [['--budget', '1500'], ['--budget', 'soon']]) {
        // A terminal no one types in: read to the end of the budget, it would give nothing.
        const terminal: HookStdin = Object.assign(new PassThrough(), { isTTY: true })
        const spool = join(dir, 'spool.ndjson')
        await expect(runHook([...flags, '--spool', spool], terminal)).rejects.toThrow(TERMINAL_STDIN)
        expect(terminal.listenerCount('data')).toBe(0)
        expect(terminal.destroyed).toBe(false)
        expect(existsSync(spool)).toBe(false)
      }
      expect(TERMINAL_STDIN).toContain('reads one hook payload on stdin')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('decision-memory hook given JSON that is no hook payload', () => {
  it('says of an array, null, a string or a number what it says of garbage; exits 0, prints, sends and spools nothing, the spool left', async () => {
    const asked: URL[] = []
    await withStub('dm-hook-nonobject-', answeringEmpty(asked), async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const waiting = JSON.stringify({ at: new Date(0).toISOString(), user: 'default', payload: claudeCodeFixture('session-start') }) + '\n'
      await writeFile(spool, waiting, { mode: 0o600 })
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
      for (const input of ['garbage', '[]', '[{"hook_event_name":"SessionStart"}]', 'null', '"x"', '5']) {
        expect(await runCli(['hook', '--budget', '10000'], { input, env })).toEqual({ code: 0, stdout: '', stderr: 'decision-memory hook: stdin is not a JSON hook payload\n' })
      }
      expect(asked).toEqual([])
      expect(await readFile(spool, 'utf8')).toBe(waiting)
    })
  })

  it('says of stdin empty or white space alone, closed, what it says of garbage, as the guard does; the spool left undrained', async () => {
    const asked: URL[] = []
    await withStub('dm-hook-empty-', answeringEmpty(asked), async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const waiting = JSON.stringify({ at: new Date(0).toISOString(), user: 'default', payload: claudeCodeFixture('session-start') }) + '\n'
      await writeFile(spool, waiting, { mode: 0o600 })
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
      for (const input of ['', ' \n\t\n']) {
        expect(await runCli(['hook', '--budget', '10000'], { input, env }), JSON.stringify(input)).toEqual({ code: 0, stdout: '', stderr: 'decision-memory hook: stdin is not a JSON hook payload\n' })
      }
      expect(asked).toEqual([])
      expect(await readFile(spool, 'utf8')).toBe(waiting)
    })
  })

  it('says of an object naming no event ({}) that it has no hook_event_name, which the service would refuse; another event, nothing', async () => {
    const asked: URL[] = []
    await withStub('dm-hook-noevent-', answeringEmpty(asked), async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
      const said = 'decision-memory hook: stdin is not a JSON hook payload: it has no hook_event_name, which every hook payload has\n'
      for (const input of ['{}', '{"hook_event_name":5}', '{"hook_event_name":""}', '{"tool_name":"AskUserQuestion"}']) {
        expect(await runCli(['hook', '--budget', '10000'], { input, env })).toEqual({ code: 0, stdout: '', stderr: said })
      }
      expect(asked).toEqual([])
      expect(existsSync(spool)).toBe(false)
      // An event the service does nothing with (a hook in a group of every event) is let be, unsaid.
      expect(await runCli(['hook', '--budget', '10000'], { input: '{"hook_event_name":"Stop"}', env })).toEqual({ code: 0, stdout: '', stderr: '' })
    })
  })
})

describe('decision-memory hook given a payload nested deeper than the service takes', () => {
  /** `payload` as JSON, with `field` an array nested `levels` deep (JSON.stringify cannot write ten thousand). */
  const nested = (payload: object, field: string, levels: number) =>
    JSON.stringify({ ...payload, [field]: 'DEEP' }).replace('"DEEP"', '['.repeat(levels) + ']'.repeat(levels))

  it('names the field and sends, spools and keeps nothing, ten thousand deep (which JSON.stringify cannot write); a PreToolUse\'s question said asked as written', async () => {
    const asked: URL[] = []
    await withStub('dm-hook-deep-', answeringEmpty(asked), async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
      const said = (field: string, fate: string) =>
        `decision-memory hook: the service would refuse the payload (${field}: must not nest arrays and objects more than 64 levels deep, counted from the body): ${fate}\n`
      const inputs: Array<[string, string, string]> = [
        [nested(claudeCodeFixture('session-start'), 'extra', 10_000), 'extra', 'not sent, nor kept'],
        [nested(claudeCodeFixture('post-tool-use-single'), 'tool_input', 10_000), 'tool_input', 'not sent, nor kept'],
        // A PreToolUse: asked as written, said so as after any other refusal of one, and never said
        // to be a service not reachable.
        [nested(claudeCodeFixture('pre-tool-use'), 'extra', 10_000), 'extra', `not sent; ${ASKED_AS_WRITTEN}`],
        [nested(claudeCodeFixture('pre-tool-use'), 'tool_input', 65), 'tool_input', `not sent; ${ASKED_AS_WRITTEN}`],
      ]
      for (const [input, field, fate] of inputs) {
        expect(await runCli(['hook', '--budget', '10000'], { input, env })).toEqual({ code: 0, stdout: '', stderr: said(field, fate) })
      }
      expect(asked).toEqual([])
      expect(existsSync(spool)).toBe(false)
      expect(existsSync(`${spool}.rejected`)).toBe(false)
    })
  })

  it('keeps a capture 65 deep in the .rejected file for a person to read, as any capture the service refuses for good', async () => {
    const asked: URL[] = []
    await withStub('dm-hook-deep-kept-', answeringEmpty(asked), async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
      // Its answers are in it, and a line can hold it: not sent, but not lost either.
      const input = nested(claudeCodeFixture('post-tool-use-single'), 'tool_response', 64)
      expect(await runCli(['hook', '--budget', '10000'], { input, env })).toEqual({
        code: 0,
        stdout: '',
        stderr: `decision-memory hook: the service would refuse the payload (tool_response: must not nest arrays and objects more than 64 levels deep, counted from the body): kept in ${spool}.rejected\n`,
      })
      expect(asked).toEqual([])
      expect(existsSync(spool)).toBe(false)
      const kept = (await readFile(`${spool}.rejected`, 'utf8')).split('\n')
      expect(kept).toHaveLength(2)
      expect(JSON.parse(kept[0] as string)).toMatchObject({ user: 'default', payload: JSON.parse(input) })
    })
  })

  it('says the same with its flags mistaken, where the capture would be spooled as the defaults say', async () => {
    await withStub('dm-hook-deep-flags-', answeringEmpty([]), async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
      const input = nested(claudeCodeFixture('post-tool-use-single'), 'tool_input', 10_000)
      const run = await runCli(['hook', '--budget', '0x10'], { input, env })
      expect(run.stderr.split('\n').slice(1)).toEqual([
        'decision-memory hook: the service would refuse the payload (tool_input: must not nest arrays and objects more than 64 levels deep, counted from the body): not sent, nor kept',
        '',
      ])
      expect(existsSync(spool)).toBe(false)
      // One a line can hold is spooled as any capture is then: the call that drains it sets it aside.
      const writable = nested(claudeCodeFixture('post-tool-use-single'), 'tool_input', 64)
      expect((await runCli(['hook', '--budget', '0x10'], { input: writable, env })).stderr).toContain('the payload is spooled for user "default"')
      expect(JSON.parse(await readFile(spool, 'utf8'))).toMatchObject({ user: 'default', payload: JSON.parse(writable) })
    })
  })

  it('sets a spooled one aside as it was written, and delivers the events behind it', async () => {
    const asked: URL[] = []
    await withStub('dm-hook-deep-spooled-', answeringEmpty(asked), async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const start = claudeCodeFixture('session-start')
      // Written by hand, or by a version before this one: no hook writes it (JSON.stringify cannot).
      const deepLine = `{"at":"2026-01-01T00:00:00.000Z","user":"default","payload":{"hook_event_name":"SessionStart","extra":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`
      const behind = JSON.stringify({ at: '2026-01-01T00:00:01.000Z', user: 'default', payload: start })
      await writeFile(spool, `${deepLine}\n${behind}\n`, { mode: 0o600 })
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
      const run = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(start), env })
      expect(run.stderr).toBe(
        `decision-memory hook: the service would refuse a spooled payload (extra: must not nest arrays and objects more than 64 levels deep, counted from the body): set aside in ${spool}.rejected\n`,
      )
      // The event behind it, then the call's own.
      expect(asked).toHaveLength(2)
      expect(await readFile(`${spool}.rejected`, 'utf8')).toBe(`${deepLine}\n`)
      expect(await readFile(spool, 'utf8').catch(() => '')).toBe('')
    })
  })
})

describe('decision-memory hook draining lines of the spool that are no event', () => {
  it('says how many it set aside, and where, once, and delivers the event appended after a line cut short', async () => {
    // A line cut short by a write that stopped partway, and `null`, went to the .rejected file with
    // nothing said: a person never learned to look there, as they do for a payload refused for good.
    const asked: URL[] = []
    await withStub('dm-hook-unreadable-', answeringEmpty(asked), async ({ host, dir }) => {
      const spool = join(dir, 'spool.ndjson')
      const event = JSON.stringify({ at: '2026-12-05T10:00:00.000Z', user: 'carol', payload: claudeCodeFixture('post-tool-use-single') })
      await writeFile(spool, `${event.slice(0, 150)}${event}\nnull\n`, { mode: 0o600 })
      const env = { DECISION_MEMORY_URL: `http://${host}`, DECISION_MEMORY_SPOOL: spool }
      const run = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('session-start')), env })
      expect(run).toEqual({
        code: 0,
        stdout: '',
        stderr: `decision-memory hook: set aside 2 lines of the spool that are no event (cut short by a write that stopped partway, or JSON no hook wrote) in ${spool}.rejected, for a person to read\n`,
      })
      expect(asked.map((url) => url.searchParams.get('user'))).toEqual(['carol', 'default'])
      expect((await readFile(`${spool}.rejected`, 'utf8')).split('\n').filter((l) => l !== '')).toEqual([event.slice(0, 150), 'null'])
      // One: said in the singular.
      await writeFile(spool, 'null\n', { mode: 0o600 })
      const one = await runCli(['hook', '--budget', '10000'], { input: JSON.stringify(claudeCodeFixture('session-start')), env })
      expect(one.stderr).toBe(`decision-memory hook: set aside a line of the spool that is no event (cut short by a write that stopped partway, or JSON no hook wrote) in ${spool}.rejected, for a person to read\n`)
    })
  })
})
