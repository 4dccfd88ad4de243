import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/support/spawn-service'
import { createTestApp } from '../../test/support/test-app'
import { tempDir } from '../../test/support/temp-dir'
import { createMcpServer } from '../integrations/mcp'
import { MCP_HELP, mcpBackend } from './mcp'

describe('mcp --help', () => {
  it('names the store opened when no service runs as the server opens it: $DECISION_MEMORY_DATA, else the checkout\'s data', () => {
    const text = MCP_HELP.replace(/\s+/g, ' ')
    expect(text).toContain("when none runs, it opens $DECISION_MEMORY_DATA, else this checkout's ./data")
  })

  it('says the project is none in / or the home folder only outside a repository: a home folder kept in git is its project', () => {
    const text = MCP_HELP.replace(/\s+/g, ' ')
    expect(text).toContain("a git repository's root (a worktree's main checkout), else the folder itself, but none when that is / or the home folder")
  })
})

describe('mcp --data where no store can be', () => {
  it('refuses at start, in one line, exit 1, as serve does, a file or a folder of other files, rather than fail every tool call', async () => {
    const dir = tempDir('dm-mcp-data-')
    writeFileSync(join(dir, 'passwd'), 'root:x:0:0\n')
    mkdirSync(join(dir, 'project'))
    writeFileSync(join(dir, 'project', 'README.md'), '# a project\n')
    for (const [data, said] of [
      [join(dir, 'passwd'), `cannot make the store in ${join(dir, 'passwd')}: it, or a folder above it, is a file, not a folder`],
      [join(dir, 'passwd', 'x'), `cannot make the store in ${join(dir, 'passwd', 'x')}: it, or a folder above it, is a file, not a folder`],
      [join(dir, 'project'), `there is no store in ${join(dir, 'project')}, and it holds files that are not a store's (README.md)`],
    ]) {
      // stdin closed at once: a server that started ends there, exit 0, having said nothing.
      const { code, stdout, stderr } = await runCli(['mcp', '--data', data as string], { env: { DECISION_MEMORY_URL: 'http://127.0.0.1:1' } })
      expect(code, data).toBe(1)
      expect(stdout, data).toBe('')
      expect(stderr, data).toContain(`decision-memory mcp: ${said}`)
    }
    // Nothing made where it was refused.
    expect(existsSync(join(dir, 'project', 'CURRENT'))).toBe(false)
  })
})

describe('mcp with a DECISION_MEMORY_URL or DECISION_MEMORY_PORT no service could be reached by', () => {
  it('refuses at start without --data, in one line naming the variable, exit 1, rather than fail every tool call', async () => {
    for (const [env, said] of [
      [{ DECISION_MEMORY_URL: 'localhost:7420' }, 'DECISION_MEMORY_URL is "localhost:7420": give the service\'s address as http://HOST:PORT'],
      [{ DECISION_MEMORY_URL: '', DECISION_MEMORY_PORT: 'abc' }, 'DECISION_MEMORY_PORT must be a port number from 0 to 65535, not "abc"'],
      // A port of letters in the URL: Claude Code showed the server connected, and every call failed ERR_INVALID_URL.
      [{ DECISION_MEMORY_URL: 'http://localhost:74a0' }, 'DECISION_MEMORY_URL is "http://localhost:74a0", which is no address fetch can read (ERR_INVALID_URL): give the service\'s address as http://HOST:PORT'],
      // fetch refuses a "bad port" of the Fetch standard before connecting, so every call failed.
      [{ DECISION_MEMORY_URL: 'http://127.0.0.1:6000' }, 'port 6000 is one that fetch, the client of the commands and hooks, will not connect to'],
      [{ DECISION_MEMORY_URL: '', DECISION_MEMORY_PORT: '10080' }, 'port 10080 is one that fetch, the client of the commands and hooks, will not connect to'],
      // A token no header may carry stopped every call before it asked the service or the store.
      [{ DECISION_MEMORY_TOKEN: 'abc\ndef' }, 'DECISION_MEMORY_TOKEN holds a line break, a control character or a character past U+00FF'],
    ] as const) {
      const { code, stdout, stderr } = await runCli(['mcp'], { env })
      expect(code, said).toBe(1)
      expect(stdout, said).toBe('')
      expect(stderr, said).toContain(`decision-memory mcp: ${said}`)
      // With --data each call is made on that store, which the variable does not stop: it starts
      // (and, stdin closed at once, ends there, exit 0, having said nothing).
      const onStore = await runCli(['mcp', '--data', tempDir('dm-mcp-env-')], { env })
      expect(onStore.code, said).toBe(0)
      expect(onStore.stderr, said).toBe('')
    }
  })
})

describe('mcpBackend: a body over the service\'s limit', () => {
  /** A server whose calls are made on a store (`--data`), as src/cli/service-client.ts makes them, each body kept. */
  async function onStore(defaultProject: string) {
    const app = await createTestApp()
    const bodies: unknown[] = []
    const backend = mcpBackend(async (_path, body, local) => {
      bodies.push(body)
      return { ok: true, body: JSON.parse(JSON.stringify(await local(app.memory, app.decisions))) }
    })
    const server = createMcpServer(backend, { version: '0.0.0', clock: app.clock, defaultProject })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.connect(serverSide)
    const client = new Client({ name: 'body-limit', version: '1.0.0' })
    await client.connect(clientSide)
    return { app, client, bodies }
  }
  const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value))
  /** A record_choice's arguments of `bytes` bytes as JSON, each field within its own limit. */
  function choiceOf(bytes: number) {
    const make = (n: number) => ({
      question: 'Which one?',
      user_choice: 'option 1',
      all_options: [...Array.from({ length: 33 }, (_, i) => ({ label: `option ${i}`, description: '😀'.repeat(1965) })), { label: 'last', description: 'x'.repeat(n) }],
    })
    return make(bytes - size(make(0)))
  }

  it('is measured on the body the route would get, with the default project the server adds, not on the arguments alone', async () => {
    const { app, client, bodies } = await onStore('/home/someone/work/a-project-with-a-long-name')
    // Under 256 KB as arguments, over it with the project the server adds: the route answers 413.
    const under = choiceOf(256 * 1024 - 20)
    expect(size(under)).toBeLessThanOrEqual(256 * 1024)
    expect((await app.call('POST', '/v1/observations', { ...under, project: '/home/someone/work/a-project-with-a-long-name' })).status).toBe(413)
    const refused = await client.callTool({ name: 'record_choice', arguments: under })
    expect((refused.content as Array<{ text: string }>)[0]?.text).toBe('body_too_large: the arguments are over 256 KB, the most the service takes in a body')
    expect(bodies).toEqual([])
    // With room for the project, the call is made, on a body the route takes.
    expect((await client.callTool({ name: 'record_choice', arguments: choiceOf(256 * 1024 - 100) })).isError).toBeFalsy()
    expect(bodies).toHaveLength(1)
    expect(size(bodies[0])).toBeLessThanOrEqual(256 * 1024)
    await client.close()
  })
})

describe('mcpBackend: plan_questions nested deep', () => {
  it('takes and refuses at each depth what POST /v1/plan does, the service given the body as JSON', async () => {
    const app = await createTestApp()
    // As through the service: the body written as JSON, which JSON.stringify, being recursive, cannot do thousands deep.
    const backend = mcpBackend(async (path, body) => {
      const answer = await app.call('POST', path, JSON.stringify(body))
      return answer.status < 400 ? { ok: true, body: answer.body } : { ok: false, error: answer.body.error }
    })
    const server = createMcpServer(backend, { version: '0.0.0', clock: app.clock })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.connect(serverSide)
    const client = new Client({ name: 'deep-plan', version: '1.0.0' })
    await client.connect(clientSide)
    /** `levels` arrays around a string, as JSON text: what JSON.parse takes at any depth. */
    const nested = (levels: number) => '['.repeat(levels) + '"x"' + ']'.repeat(levels)
    const question = (extra: string) => `{"question":"Which database?","options":[{"label":"pg"},{"label":"mysql"}],"extra":${extra}}`
    const bodies = [
      // A question's own fields, sent back as they came: at most 64 levels, counted from the question.
      `{"questions":[${question(nested(62))}]}`,
      `{"questions":[${question(nested(63))}]}`,
      `{"questions":[${question(nested(64))}]}`,
      // AskUserQuestion's fields beside the questions, taken and ignored: any depth.
      `{"questions":[${question('1')}],"metadata":${nested(64)}}`,
      `{"questions":[${question('1')}],"annotations":${nested(100)},"answers":${nested(100)}}`,
      `{"questions":[${question('1')}],"metadata":${nested(10_000)}}`,
      `{"questions":[],"metadata":${nested(10_000)}}`,
    ]
    for (const body of bodies) {
      const route = await app.app.request('/v1/plan', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      const routed = (await route.json()) as { error?: { issues: Array<{ path: string; message: string }> } }
      const answer = await client.callTool({ name: 'plan_questions', arguments: JSON.parse(body) })
      const text = (answer.content as Array<{ text: string }>)[0]?.text ?? ''
      const said = body.slice(0, 120)
      expect(Boolean(answer.isError), `${said}: ${text.slice(0, 300)}`).toBe(route.status >= 400)
      if (route.status >= 400) expect(text.split('\n').slice(1), said).toEqual(routed.error?.issues.map((i) => `- ${i.path}: ${i.message}`))
    }
    await client.close()
  })
})
