/**
 * How large a point's `why` is, where it is read: the HTTP answer of `GET /v1/why`, the MCP `why`
 * tool's text (a point alone, and a recommendation's, which carries the point's), and the CLI's
 * `why --point` (text and --json), and a decision's why by key (the route's, the MCP tool's). Cases a team reaches: a decision superseded through many
 * versions, many decisions bound to one point, many observations behind the recommendation.
 * Claude Code warns above 10,000 tokens of a tool's output (about 40,000 characters) and cuts it
 * above MAX_MCP_OUTPUT_TOKENS (25,000 by default).
 *
 *   npx tsx scripts/why-size.ts
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { mcpBackend, type McpCall } from '../src/cli/mcp'
import { jsonLine } from '../src/terminal'
import { pointText } from '../src/cli/why'
import type { PointWhy } from '../src/decisions/explain-point'
import { createMcpServer } from '../src/integrations/mcp'
import { bigWhyCase, BIG_WHY_CASES, type BigWhyCase } from '../test/support/big-why'
import { createTestApp } from '../test/support/test-app'
import { parseFlags, readFlags } from './flags'

// It takes no flags: one given is a mistake, said before anything runs.
readFlags('why-size', () => parseFlags({ options: {} }))

/** The parts of an answer by size: which field takes the room. */
function parts(value: Record<string, unknown>): string {
  return Object.entries(value)
    .map(([name, v]) => `${name} ${JSON.stringify(v)?.length ?? 0}`)
    .join(', ')
}

async function measure(shape: BigWhyCase) {
  const app = await createTestApp({ now: '2026-12-01T10:00:00.000Z' })
  const { point, question } = await bigWhyCase(app, shape)
  const query = `user=alice&project=p1&point=${point}`
  const http = await app.call('GET', `/v1/why?${query}`)
  if (http.status !== 200) throw new Error(`GET /v1/why: ${http.status} ${JSON.stringify(http.body)}`)
  const call: McpCall = async (path, body, _local, method = 'POST') => {
    const answer = await app.call(method, path, body)
    return answer.status < 400 ? { ok: true, body: answer.body } : { ok: false, error: answer.body.error }
  }
  const server = createMcpServer(mcpBackend(call), { version: '0.0.0', defaultUser: 'alice', clock: app.clock, defaultProject: 'p1' })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'why-size', version: '1.0.0' })
  await client.connect(clientSide)
  const text = async (args: Record<string, unknown>) => {
    const answer = await client.callTool({ name: 'why', arguments: args })
    const said = (answer.content as Array<{ text: string }>)[0]?.text ?? ''
    if (answer.isError === true) throw new Error(`why: ${said}`)
    return said
  }
  const mcpPoint = await text({ point })
  const mcpQuestion = await text({ question: question.question, point: question.point, all_options: question.all_options })
  // A decision's why by key, the first version's (its whole chain, in brief past WHOLE_WHY_CHARACTERS).
  const first = 'Q-001'
  const httpKey = (await app.call('GET', `/v1/decisions/${first}/why`)).body
  const mcpKey = await text({ key: first })
  await client.close()
  const body = http.body as PointWhy
  const row = {
    case: shape.name,
    http: JSON.stringify(body).length,
    mcp_point: mcpPoint.length,
    mcp_question: mcpQuestion.length,
    cli_text: pointText(body).length,
    cli_json: jsonLine(body).length,
    http_key: JSON.stringify(httpKey).length,
    mcp_key: mcpKey.length,
  }
  return { row, body, mcpPoint }
}

for (const shape of BIG_WHY_CASES) {
  const { row, body, mcpPoint } = await measure(shape)
  const tokens = (n: number) => `${n} chars ≈ ${Math.round(n / 4)} tokens`
  console.log(`${row.case}:`)
  console.log(`  HTTP GET /v1/why   ${tokens(row.http)}  (${parts(body as never)})`)
  if (body.decisions.length > 0) {
    const d = body.decisions[0] as unknown as Record<string, unknown>
    console.log(`    one decision entry: ${parts(d)}`)
  }
  const mcp = JSON.parse(mcpPoint) as Record<string, unknown>
  console.log(`  MCP why {point}    ${tokens(row.mcp_point)}  (${parts(mcp)})`)
  console.log(`  MCP why {question} ${tokens(row.mcp_question)}`)
  console.log(`  CLI why --point    ${tokens(row.cli_text)}; --json ${tokens(row.cli_json)}`)
  console.log(`  why Q-001: HTTP    ${tokens(row.http_key)}; MCP why {key} ${tokens(row.mcp_key)}`)
}
