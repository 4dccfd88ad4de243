import { spawn } from 'node:child_process'
import { describe, expect, it, onTestFinished } from 'vitest'
import { BIN, cleanEnv, closedPort } from './support/processes'
import { tempDir } from './support/temp-dir'

/**
 * `decision-memory mcp` as each MCP client generation drives it (R-SVC-6): one session a protocol
 * version, the real process over stdio, newline-delimited JSON-RPC 2.0, from `initialize` to the
 * client closing stdin. What every client needs of the server, whatever version it speaks.
 */

type Message = { jsonrpc?: string; id?: unknown; result?: any; error?: { code: number; message: string } }

/** Runs `mcp --data DIR`, writes `lines` (all at once, as a client's buffered writes come), closes stdin, and reads every line answered. */
async function session(lines: string[]): Promise<{ answers: Array<Message | Message[]>; code: number | null; stderr: string }> {
  const data = tempDir('dm-mcp-versions-')
  // A service URL nothing listens on: with --data the calls are made on that store, never elsewhere.
  const child = spawn(process.execPath, [BIN, 'mcp', '--data', data], {
    env: cleanEnv({ DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}` }),
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  // A server that does not exit once stdin closes fails the test at its timeout, and is not left running after it.
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const code = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)))
  child.stdin.end(lines.map((line) => `${line}\n`).join(''))
  const exitCode = await code
  // Every line on stdout is one JSON-RPC message (or batch of them): nothing else may reach it.
  const answers = stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Message | Message[])
  return { answers, code: exitCode, stderr }
}

const json = (value: unknown) => JSON.stringify(value)

function initialize(id: string | number, protocolVersion: string) {
  return json({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion, capabilities: { roots: { listChanged: true } }, clientInfo: { name: 'client', version: '1.0.0' } } })
}

const RECORD = {
  question: 'Which database for the new service?',
  all_options: ['Postgres', 'SQLite'],
  user_choice: 'Postgres',
  decision_id: 'versions-1',
}

/** The answer at `id`; the test fails saying so when there is none, or more than one. */
function at(answers: Array<Message | Message[]>, id: unknown): Message {
  const found = answers.filter((a): a is Message => !Array.isArray(a) && a.id === id)
  expect(found, `one answer at id ${json(id)}`).toHaveLength(1)
  return found[0] as Message
}

describe('decision-memory mcp, driven as each protocol version\'s client drives it (R-SVC-6)', () => {
  // The versions clients send: each one the server knows is agreed; one it does not (a later
  // client) is answered with the latest it knows, which the client then speaks or disconnects.
  const versions: Array<[asked: string, agreed: string | 'latest', batches: boolean]> = [
    ['2024-11-05', '2024-11-05', false],
    ['2025-03-26', '2025-03-26', true],
    ['2025-06-18', '2025-06-18', false],
    ['2099-01-01', 'latest', false],
  ]

  it.each(versions)('a %s client: lifecycle, tools, errors, ids of both kinds, notifications unanswered, batches as the version has them, a clean exit', async (asked, agreed, batches) => {
    const { answers, code, stderr } = await session([
      initialize('init', asked),
      json({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      json({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      json({ jsonrpc: '2.0', id: 'ping-1', method: 'ping' }),
      json({ jsonrpc: '2.0', id: 2, method: 'resources/list' }),
      '{"jsonrpc": "2.0", "id": 3, "method": "ping"',
      json({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'record_choice', arguments: RECORD } }),
      json({ jsonrpc: '2.0', id: 'bad-args', method: 'tools/call', params: { name: 'record_choice', arguments: { question: 'Which database?' } } }),
      json({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }),
      json({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'recommend', arguments: { question: RECORD.question, all_options: RECORD.all_options } } }),
      // Notifications, known or not, are never answered.
      json({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }),
      json({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'never-sent' } }),
      json({ jsonrpc: '2.0', method: 'notifications/some-later-one', params: { x: 1 } }),
      json([
        { jsonrpc: '2.0', id: 'b1', method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } },
        { jsonrpc: '2.0', id: 7, method: 'tools/list' },
      ]),
    ])

    expect(code).toBe(0)
    const init = at(answers, 'init')
    expect(init.error).toBeUndefined()
    expect(init.result.serverInfo.name).toBe('decision-memory')
    expect(init.result.capabilities.tools).toBeDefined()
    if (agreed === 'latest') {
      // A version the client may not know: one of those the server speaks, and a date like them.
      expect(init.result.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      expect(init.result.protocolVersion).not.toBe(asked)
    } else expect(init.result.protocolVersion).toBe(agreed)

    // Every tool's inputSchema is a JSON Schema object a client accepts: `type: "object"`.
    const { tools } = at(answers, 1).result as { tools: Array<{ name: string; description?: string; inputSchema: Record<string, unknown> }> }
    expect(tools.map((t) => t.name).sort()).toEqual(['check_decision', 'plan_questions', 'recommend', 'record_choice', 'why'])
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/)
      expect(tool.inputSchema.type, tool.name).toBe('object')
      expect(typeof tool.inputSchema.properties, tool.name).toBe('object')
      expect(typeof tool.description, tool.name).toBe('string')
    }

    expect(at(answers, 'ping-1').result).toEqual({})
    // A method the server does not have, a capability it did not announce: -32601.
    expect(at(answers, 2).error?.code).toBe(-32601)
    // A line that is not JSON: -32700 at id null (its id cannot be read).
    const parse = answers.filter((a): a is Message => !Array.isArray(a) && a.error?.code === -32700)
    expect(parse).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } }])

    // A good call is a result; arguments the tool refuses are a tool error naming the field, not a protocol error.
    const recorded = at(answers, 4)
    expect(recorded.result.isError).toBeFalsy()
    expect(JSON.parse(recorded.result.content[0].text)).toMatchObject({ stored: [{ decision_id: 'versions-1' }], duplicates: [] })
    const refused = at(answers, 'bad-args')
    expect(refused.error).toBeUndefined()
    expect(refused.result.isError).toBe(true)
    expect(refused.result.content[0].text).toContain('all_options')
    expect(refused.result.content[0].text).toContain('user_choice')
    // A tool the server does not have: a protocol error, -32602 (Invalid params), as MCP's tools spec has it.
    expect(at(answers, 5).error?.code).toBe(-32602)
    // A recommendation (made beside the record above, as a client's calls in flight are: its count is not asserted).
    const recommended = at(answers, 6)
    expect(recommended.result.isError).toBeFalsy()
    expect(JSON.parse(recommended.result.content[0].text)).toMatchObject({ recommended: expect.any(String), options: expect.any(Array) })

    // The batch: one array of its requests' answers (the notification in it unanswered) under the
    // one version with batches; under the others each request is refused at its own id, -32600.
    const arrays = answers.filter((a): a is Message[] => Array.isArray(a))
    if (batches) {
      expect(arrays).toHaveLength(1)
      const batch = arrays[0] as Message[]
      expect(batch.map((m) => m.id).sort()).toEqual([7, 'b1'])
      expect(batch.find((m) => m.id === 'b1')?.result).toEqual({})
      expect(batch.find((m) => m.id === 7)?.result.tools).toHaveLength(5)
    } else {
      expect(arrays).toEqual([])
      expect(at(answers, 'b1').error?.code).toBe(-32600)
      expect(at(answers, 7).error?.code).toBe(-32600)
    }

    // Nothing answered but the requests: init, 1, ping-1, 2, parse error, 4, bad-args, 5, 6, and the batch's.
    expect(answers).toHaveLength(9 + (batches ? 1 : 2))
    // stderr says what went wrong; it never carries a stack trace.
    expect(stderr).not.toMatch(/\n\s+at /)
  })
})
