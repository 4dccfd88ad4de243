import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../test/support/temp-dir'
import { createTestApp } from '../../test/support/test-app'
import { packageVersion } from '../cli/package-version'
import { createMcpServer, type BackendAnswer, type McpBackend } from './mcp'

/**
 * What Claude Code 2.1.332 sent our MCP server and what it answered, captured by
 * scripts/claude-code-e2e.ts (test/fixtures/claude-code-2.1.332/README.md, its `mcp-` scenarios):
 * each line Claude Code wrote to the server is sent again, at the moment it was written, to a
 * server on the service the scenario began with (its history and decision), and each answer must
 * be what Claude Code got then, but for times and ids; the tool_result that reached the model must
 * hold our text, and the service what was stored.
 */
const FIXTURES = fileURLToPath(new URL('../../test/fixtures/claude-code-2.1.332/', import.meta.url))

interface Line {
  at: string
  from: 'client' | 'server' | 'capture'
  line?: string
}

function read(scenario: string, file: string): string {
  return readFileSync(join(FIXTURES, scenario, file), 'utf8')
}

function linesOf(scenario: string): Line[] {
  return read(scenario, 'mcp.ndjson')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Line)
}

/** The backend `decision-memory mcp` has while a service runs: each call through its route. */
function serviceBackend(call: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>): McpBackend {
  const answer = async (method: string, path: string, body?: unknown): Promise<BackendAnswer> => {
    const response = await call(method, path, body)
    return response.status < 400 ? { ok: true, body: response.body } : { ok: false, error: response.body.error }
  }
  const asOf = (query: { as_of?: string }) => (query.as_of === undefined ? '' : `?${new URLSearchParams({ as_of: query.as_of })}`)
  return {
    recommend: (request) => answer('POST', '/v1/recommendations', request),
    plan: (request) => answer('POST', '/v1/plan', request),
    observe: (inputs) => answer('POST', '/v1/observations', inputs.length === 1 ? inputs[0] : inputs),
    whyPoint: (query) => answer('GET', `/v1/why?${new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined))}`),
    whyDecision: (key, query) => answer('GET', `/v1/decisions/${encodeURIComponent(key)}/why${asOf(query)}`),
    check: (request) => answer('POST', '/v1/decisions/check', request),
    listDecisions: (query) => answer('GET', `/v1/decisions${asOf(query)}`),
  }
}

/**
 * An answer as compared: times and observation ids left out (the replay's clock is the moment
 * Claude Code wrote the request, a few ms before the service read it), the server's folder and
 * project (the scenario's repository, gone since) as the replay's, fractions to 9 digits.
 */
function comparable(value: unknown, repo: string, here: string): unknown {
  if (typeof value === 'string') {
    const text = value.split(repo).join(here)
    // A tool's text is JSON (or an error): compared as what it holds.
    if (text.startsWith('{')) {
      try {
        return { json: comparable(JSON.parse(text), repo, here) }
      } catch {
        // not JSON after all
      }
    }
    return text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, 'TIME').replace(/obs-[a-z0-9]+-[0-9a-f]+/g, 'OBS')
  }
  if (typeof value === 'number') return Number.isInteger(value) ? (value > 1e12 ? 'EPOCH_MS' : value) : Number(value.toPrecision(9))
  if (Array.isArray(value)) return value.map((v) => comparable(v, repo, here))
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, comparable(v, repo, here)]))
  return value
}

/** Replays a scenario's session through our server; its answers, by id, and the replay's repository. */
async function replay(name: string) {
  const scenario = JSON.parse(read(name, 'scenario.json')) as { user: string; project: string }
  const start = JSON.parse(read(name, 'mcp-start.json')) as { cwd: string; env: Record<string, string> }
  const lines = linesOf(name)
  const t = await createTestApp({ now: lines[0]?.at })
  // The repository Claude Code started the server in, made again: a git repository with the file D-040 is scoped to.
  const here = join(tempDir('dm-cc-mcp-replay-'), 'repo')
  mkdirSync(join(here, '.git'), { recursive: true })
  mkdirSync(join(here, 'src', 'billing'), { recursive: true })
  writeFileSync(join(here, 'src', 'billing', 'invoice.ts'), 'export {}\n')
  if (existsSync(join(FIXTURES, name, 'seed.json'))) {
    const seed = JSON.parse(read(name, 'seed.json').split(scenario.project).join(here))
    expect((await t.call('POST', '/v1/observations', seed)).status).toBe(201)
  }
  // D-040, stored by the first scenario, was the service's for the others too.
  expect((await t.call('POST', '/v1/decisions', JSON.parse(read('mcp-1-local-scope', 'decision.json')))).status).toBe(201)
  // As `decision-memory mcp` makes it in the folder Claude Code started it in, with the environment it gave.
  const server = createMcpServer(serviceBackend(t.call), { version: packageVersion(), defaultUser: start.env.DECISION_MEMORY_USER, defaultProject: here, folder: here, clock: t.clock })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const answers = new Map<string | number, JSONRPCMessage>()
  const waiting = new Map<string | number, () => void>()
  clientSide.onmessage = (message) => {
    const id = (message as { id?: string | number }).id
    if (id === undefined) return
    answers.set(id, message)
    waiting.get(id)?.()
  }
  await server.connect(serverSide)
  for (const line of lines) {
    if (line.from !== 'client' || line.line === undefined) continue
    t.clock.set(line.at)
    const message = JSON.parse(line.line) as JSONRPCMessage & { id?: string | number }
    const answered = message.id === undefined ? undefined : new Promise<void>((resolve) => waiting.set(message.id as string | number, resolve))
    await clientSide.send(message)
    await answered
  }
  await clientSide.close()
  return { answers, here, scenario, start, memory: t }
}

/** What our server answered Claude Code, by id. */
function capturedAnswers(name: string): Map<string | number, any> {
  const answers = new Map<string | number, any>()
  for (const line of linesOf(name)) {
    if (line.from !== 'server' || line.line === undefined) continue
    const message = JSON.parse(line.line)
    answers.set(message.id, message)
  }
  return answers
}

/** Each tools/call Claude Code made, with our answer then, in order. */
function toolCalls(name: string): Array<{ id: string | number; name: string; arguments: unknown; answer: any }> {
  const captured = capturedAnswers(name)
  return linesOf(name)
    .filter((l) => l.from === 'client' && l.line !== undefined)
    .map((l) => JSON.parse(l.line as string))
    .filter((m) => m.method === 'tools/call')
    .map((m) => ({ id: m.id, name: m.params.name, arguments: m.params.arguments, answer: captured.get(m.id) }))
}

const SCENARIOS = ['mcp-1-local-scope', 'mcp-2-project-scope', 'mcp-3-not-loaded']

describe('the MCP server under Claude Code 2.1.332, replayed', () => {
  it.each(SCENARIOS)('%s: answers every request Claude Code made as it answered then', async (name) => {
    const { answers, here, scenario } = await replay(name)
    const captured = capturedAnswers(name)
    expect([...answers.keys()]).toEqual([...captured.keys()])
    for (const [id, answer] of captured) {
      expect(comparable(answers.get(id), scenario.project, here), `answer to ${id}`).toEqual(comparable(answer, scenario.project, here))
    }
  })

  it('was started in the repository, with Claude Code\'s environment and the user given with -e, and asked first for discovery, then 2025-11-25', () => {
    for (const name of SCENARIOS) {
      const scenario = JSON.parse(read(name, 'scenario.json'))
      const start = JSON.parse(read(name, 'mcp-start.json'))
      expect(start).toMatchObject({ cwd: scenario.project, command: 'node', args: [expect.stringMatching(/bin\/decision-memory\.js$/), 'mcp'] })
      expect(start.env).toMatchObject({ DECISION_MEMORY_USER: scenario.user, DECISION_MEMORY_URL: scenario.service_url })
      const [discover, , initialize] = linesOf(name).filter((l) => l.line !== undefined).map((l) => JSON.parse(l.line as string))
      expect(discover).toMatchObject({ method: 'server/discover' })
      expect(capturedAnswers(name).get(discover.id)).toMatchObject({ error: { code: -32601 } })
      expect(initialize).toMatchObject({ method: 'initialize', params: { protocolVersion: '2025-11-25' } })
      expect(capturedAnswers(name).get(initialize.id)).toMatchObject({ result: { protocolVersion: '2025-11-25', capabilities: { tools: { listChanged: false } } } })
    }
  })

  it('offered the model our five tools, loaded by ToolSearch, with our schemas and descriptions (but a … written ...)', () => {
    const listed = [...capturedAnswers('mcp-1-local-scope').values()].find((a) => Array.isArray(a.result?.tools))?.result.tools as Array<Record<string, any>>
    const offered = JSON.parse(read('mcp-1-local-scope', 'tools.json')) as Array<Record<string, any>>
    expect(offered.map((t) => t.name).sort()).toEqual(listed.map((t) => `mcp__decision-memory__${t.name}`).sort())
    for (const tool of listed) {
      const their = offered.find((t) => t.name === `mcp__decision-memory__${tool.name}`) as Record<string, any>
      expect(their.description).toBe(tool.description)
      expect(their.defer_loading).toBe(true)
      // The same schema, but for one character: Claude Code writes U+2026 as three dots.
      expect(their.input_schema).toEqual(JSON.parse(JSON.stringify(tool.inputSchema).replaceAll('…', '...')))
    }
    // Without ToolSearch, none of ours is in the request's tools: only named in the prompt.
    expect(JSON.parse(read('mcp-3-not-loaded', 'tools.json'))).toEqual([])
  })

  it.each(SCENARIOS)('%s: gave the model our text for each call, isError as we said it', (name) => {
    const calls = toolCalls(name)
    const results = (JSON.parse(read(name, 'tool-results.json')) as Array<{ tool: string; is_error: boolean; content: unknown }>).filter(
      (r) => r.tool.startsWith('mcp__decision-memory__') && calls.length > 0 && !JSON.stringify(r.content).includes('No such tool available'),
    )
    expect(results.map((r) => r.tool)).toEqual(calls.map((c) => `mcp__decision-memory__${c.name}`))
    results.forEach((result, i) => {
      const answer = calls[i]?.answer.result
      const text = answer.content[0].text as string
      expect(result.is_error, `${result.tool} #${i}`).toBe(answer.isError === true)
      // An error reaches the model as a string, our text first (Claude Code adds the schema to one of a tool ToolSearch had not loaded).
      if (answer.isError === true) expect(String(result.content).startsWith(text), `${result.tool} #${i}`).toBe(true)
      else expect(result.content).toEqual([{ type: 'text', text }])
    })
  })

  it('stored the choice record_choice recorded, for the user given with -e, in the project of the repository', async () => {
    const { memory, here, scenario } = await replay('mcp-1-local-scope')
    const stored = read('mcp-1-local-scope', 'stored.ndjson')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l).data)
    const replayed = []
    for await (const o of memory.store.observationsOf(scenario.user)) if (!String(o.decision_id).startsWith('seed-')) replayed.push(o)
    const fields = (o: any) => ({ user: o.user, project: o.project === scenario.project ? here : o.project, point: o.point, question: o.question, options: o.options, chosen: o.chosen, source: o.source })
    expect(replayed.map(fields)).toEqual(stored.map(fields))
    expect(stored.map((o) => o.project)).toEqual([scenario.project])
  })
})
