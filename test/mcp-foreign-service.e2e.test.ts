import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { runCli } from './support/processes'

// Another program at DECISION_MEMORY_URL (a dev server or a mock's catch-all on port 7420), walked
// as an MCP client walks the server: the raw lines of the protocol, no SDK. Its answers are none of
// the routes' answers, and each tool says so, naming the URL, as the commands and the guard do:
// record_choice answered `{}` as if stored, and check_decision as if allowed, an error answer in
// another program's words (`{"error": "Not Found"}`, a proxy's empty 502) came back as
// `undefined: undefined`, and `why` of a question ended in `Cannot read properties of null`.

const CALLS: Array<[string, Record<string, unknown>]> = [
  ['recommend', { question: 'Which database?', all_options: ['Postgres', 'SQLite'] }],
  ['plan_questions', { questions: [{ question: 'Which database?', header: 'DB', options: [{ label: 'Postgres' }, { label: 'SQLite' }] }] }],
  ['record_choice', { question: 'Which database?', user_choice: 'Postgres', all_options: ['Postgres', 'SQLite'], decision_id: 'foreign-1' }],
  ['why', { question: 'Which database?', all_options: ['Postgres', 'SQLite'] }],
  ['why', { point: 'database' }],
  ['why', { key: 'D-001' }],
  ['why', { file: 'src/billing/invoice.ts' }],
  ['check_decision', { action: 'git push --force' }],
]

/** Each tool call of CALLS made on a server started against `listener`, what each answered, in order. */
async function callsAgainst(listener: RequestListener): Promise<{ url: string; answers: Array<{ isError?: boolean; text: string }>; code: number | null }> {
  const foreign = createServer(listener)
  await new Promise<void>((listening) => foreign.listen(0, '127.0.0.1', listening))
  const url = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`
  try {
    const lines = [
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      ...CALLS.map(([name, args], i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name, arguments: args } })),
    ]
    const { code, stdout } = await runCli(['mcp'], { input: lines.map((line) => JSON.stringify(line) + '\n').join(''), env: { DECISION_MEMORY_URL: url, DECISION_MEMORY_USER: 'alice' } })
    const replies = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; result?: { isError?: boolean; content: Array<{ text: string }> } })
    const answers = CALLS.map((_, i) => {
      const result = replies.find((r) => r.id === i + 1)?.result
      return { isError: result?.isError, text: result?.content[0]?.text ?? `no result for call ${i + 1}` }
    })
    return { url, answers, code }
  } finally {
    foreign.closeAllConnections()
    await new Promise((closed) => foreign.close(closed))
  }
}

describe('decision-memory mcp with another program at DECISION_MEMORY_URL', () => {
  it('takes no 2xx answer that is not its route\'s for one: each tool is an error naming the URL, nothing said done', async () => {
    for (const [status, body] of [
      [200, '{"hello":"world"}'],
      [200, 'null'],
      [204, ''],
    ] as const) {
      const { url, answers, code } = await callsAgainst((_request, response) => {
        response.writeHead(status, { 'content-type': 'application/json' })
        response.end(body)
      })
      expect(code).toBe(0)
      for (const [i, answer] of answers.entries()) {
        const said = `${CALLS[i]?.[0]} ${JSON.stringify(CALLS[i]?.[1])} answered ${status} ${body}`
        expect(answer.isError, `${said}: ${answer.text}`).toBe(true)
        expect(answer.text, said).toMatch(new RegExp(`^(GET|POST) ${url.replaceAll('.', '\\.')}/v1/\\S+: answered HTTP ${status} with what is not this route's answer \\(is DECISION_MEMORY_URL a decision-memory service\\?\\)$`))
      }
    }
  })

  it('says an error answer without decision-memory\'s error in it as the commands do, naming the URL, not `undefined: undefined`', async () => {
    for (const [status, body] of [
      [404, '{"error":"Not Found"}'],
      [502, ''],
    ] as const) {
      const { url, answers } = await callsAgainst((_request, response) => {
        response.writeHead(status, { 'content-type': 'application/json' })
        response.end(body)
      })
      for (const [i, answer] of answers.entries()) {
        const said = `${CALLS[i]?.[0]} ${JSON.stringify(CALLS[i]?.[1])} answered ${status} ${body}`
        expect(answer.isError, said).toBe(true)
        expect(answer.text, said).toContain(`http_${status}: HTTP ${status} with no error of decision-memory's in its answer: is DECISION_MEMORY_URL (${url}) a decision-memory service?`)
      }
    }
    // An error of the service's shape without its code keeps its words, under the status.
    const { answers } = await callsAgainst((_request, response) => {
      response.writeHead(400, { 'content-type': 'application/json' })
      response.end('{"error":{"message":"the body is wrong"}}')
    })
    for (const answer of answers) expect(answer.text).toBe('http_400: the body is wrong')
  })
})
