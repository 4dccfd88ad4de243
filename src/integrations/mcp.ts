import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  ListToolsRequestSchema,
  PingRequestSchema,
  type CallToolResult,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js'
import { runOfContext } from '../decisions/applicability'
import type { PointWhyQuery } from '../decisions/explain-point'
import type { z } from '../domain/zod'
import { FIELD_DESCRIPTIONS, IdentifierSchema, ObservationInputSchema, type ObservationInput } from '../domain/observation'
import { CheckBody } from '../http/decision-schemas'
import { PlanRequestSchema, type PlanRequest } from '../domain/question-plan'
import { RecommendationRequestSchema, type Recommendation, type RecommendationRequest } from '../domain/recommendation'

/** An answer of decision-memory as the MCP tools see it: the body, or the error body of a 4xx. */
export type BackendAnswer =
  | { ok: true; body: unknown }
  | { ok: false; error: { code: string; message: string; issues?: Array<{ path: string; message: string }> } }

/**
 * What the MCP tools call: the use cases of DecisionMemory, reached through the running service
 * or the store opened locally (see `src/cli/mcp.ts`). The tools are one more doorway onto them.
 */
export interface McpBackend {
  recommend(request: RecommendationRequest): Promise<BackendAnswer>
  plan(request: PlanRequest): Promise<BackendAnswer>
  observe(inputs: ObservationInput[]): Promise<BackendAnswer>
  /** `GET /v1/why` for the point: the decisions, supersede chains and observations behind it (R-CON-5). */
  whyPoint(query: PointWhyQuery): Promise<BackendAnswer>
  /** `POST /v1/decisions/check` (R-CON-3). */
  check(request: z.infer<typeof CheckBody>): Promise<BackendAnswer>
}

function result(answer: BackendAnswer, shape: (body: unknown) => unknown = (body) => body): CallToolResult {
  if (!answer.ok) {
    const issues = (answer.error.issues ?? []).map((i) => `\n- ${i.path}: ${i.message}`).join('')
    return { isError: true, content: [{ type: 'text', text: `${answer.error.code}: ${answer.error.message}${issues}` }] }
  }
  return { content: [{ type: 'text', text: JSON.stringify(shape(answer.body), null, 2) }] }
}

/**
 * The evidence of a recommendation (R-CON-5 for observed choices): what is recommended, how
 * sure, under which conditions, from which layers, and the ids of the observations behind it.
 */
export function whyOf(recommendation: Recommendation) {
  const r = recommendation
  return {
    point: r.point,
    recommended: r.recommended,
    state: r.state,
    confidence: r.confidence,
    precondition: r.precondition,
    conditions: r.conditions,
    contradictions: r.contradictions,
    disclosure: r.disclosure,
    scope: r.scope,
    context_key: r.context_key,
    ask: r.ask,
    ask_reason: r.ask_reason,
    layers: r.layers,
    observations: r.observations,
    evidence: r.evidence,
    evidence_total: r.evidence_total,
    as_of: r.as_of,
  }
}

/** The requests the server answers, each with MCP's own schema of the request and its params. */
const REQUESTS = new Map<string, typeof PingRequestSchema | typeof InitializeRequestSchema | typeof ListToolsRequestSchema | typeof CallToolRequestSchema>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
])

/**
 * Why a request's params do not fit its method, field by field; undefined when they do (or it is
 * no request of ours). A `tools/call` of a tool the server does not have is one: MCP lists unknown
 * tools among the protocol errors, where the SDK would answer a tool result with `isError`.
 */
function invalidParams(message: JSONRPCMessage, tools: ReadonlySet<string>): string | undefined {
  if (!isJSONRPCRequest(message)) return undefined
  const parsed = REQUESTS.get(message.method)?.safeParse(message)
  if (parsed === undefined) return undefined
  if (!parsed.success) return parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')
  if (message.method !== 'tools/call') return undefined
  const { name } = (parsed.data as { params: { name: string } }).params
  if (!tools.has(name)) return `params.name: unknown tool ${JSON.stringify(name)}; the tools are ${[...tools].join(', ')}`
  // Read from the message, not the parse: zod drops a `__proto__` key, so an argument sent under
  // that name (JSON.parse makes it an own property) was gone without a word, the call made without it.
  const args = (message.params as { arguments?: unknown } | undefined)?.arguments
  if (typeof args === 'object' && args !== null && Object.hasOwn(args, '__proto__')) {
    return 'params.arguments.__proto__: no tool has an argument of that name'
  }
  return undefined
}

/**
 * A request whose params do not fit its method (a `tools/call` without `name`, `arguments` sent as
 * a string, an `initialize` without `protocolVersion`) is answered with JSON-RPC's -32602 Invalid
 * params naming the field, and goes no further. The SDK parses them too, but answers a failure
 * with -32603 Internal error and zod's dump: the client is told the server broke, not what to fix.
 * Put in front of the server's handler when the transport starts (after the server took it).
 */
function refusingInvalidParams(transport: Transport, tools: ReadonlySet<string>): void {
  const start = transport.start.bind(transport)
  transport.start = () => {
    const deliver = transport.onmessage
    transport.onmessage = (message, extra) => {
      const why = invalidParams(message, tools)
      if (why === undefined) return deliver?.(message, extra)
      const id = (message as { id: string | number }).id
      transport
        .send({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${why}` } })
        .catch((error: Error) => transport.onerror?.(error))
    }
    return start()
  }
}

/**
 * The MCP server of `decision-memory mcp` (R-SVC-6). Input schemas are the zod schemas of the
 * HTTP routes; `user` defaults to `defaultUser` (the hook's $DECISION_MEMORY_USER) instead of
 * "default", so that the tools and the hooks speak of the same person.
 */
export function createMcpServer(backend: McpBackend, options: { version: string; defaultUser?: string }): McpServer {
  // prefault, not default: zod returns a default as it is, so a $DECISION_MEMORY_USER of "" or "!x"
  // (or one not in NFC) would reach the store unchecked when the call runs locally, where no route
  // parses it again, under a name the service's export and forget cannot name (R-SVC-5).
  const user = IdentifierSchema.prefault(options.defaultUser ?? 'default').meta({
    description: `${FIELD_DESCRIPTIONS.user} Default: the server's $DECISION_MEMORY_USER, else "default".`,
  })
  const recommendation = RecommendationRequestSchema.extend({ user })
  const server = new McpServer({ name: 'decision-memory', version: options.version })
  const tools = new Set<string>()
  const tool = <Name extends string>(name: Name) => (tools.add(name), name)
  const connect = server.connect.bind(server)
  server.connect = (transport) => {
    refusingInvalidParams(transport, tools)
    return connect(transport)
  }

  server.registerTool(
    tool('recommend'),
    {
      title: 'Recommend an option',
      description:
        'Before asking the user a question: which option they are likely to pick, how sure the memory is ' +
        '(confidence, p), the condition it holds under, the options ordered and labelled for the user, and ' +
        'whether the question is worth asking at all (`ask`).',
      inputSchema: recommendation,
    },
    async (request) => result(await backend.recommend(request)),
  )

  server.registerTool(
    tool('plan_questions'),
    {
      title: 'Plan AskUserQuestion questions',
      description:
        'Given the AskUserQuestion questions you are about to ask, returns them ordered by information ' +
        '(most uncertain first), their options ordered and labelled, the ones that need not be asked ' +
        'answered in `answers`, and `ask_user_question_input`: the exact input to pass to AskUserQuestion ' +
        '(null when nothing is left to ask).',
      inputSchema: PlanRequestSchema.extend({ user }),
    },
    async (request) => result(await backend.plan(request)),
  )

  server.registerTool(
    tool('record_choice'),
    {
      title: 'Record a choice',
      description:
        'Records what the user chose at a question (an observation). Give a `decision_id` so that ' +
        'recording it twice counts once.',
      inputSchema: ObservationInputSchema.extend({ user }),
    },
    async (input) => result(await backend.observe([input])),
  )

  server.registerTool(
    tool('why'),
    {
      title: 'Why this recommendation',
      description:
        'The evidence of a recommendation: precondition, confidence and how it was computed, the session, ' +
        'recent and long-term layers, the ids of the observations it rests on, and the decisions bound to ' +
        'its point with their supersede chains and rationales.',
      inputSchema: recommendation,
    },
    async (request) => {
      const answer = await backend.recommend(request)
      if (!answer.ok) return result(answer)
      const rec = answer.body as Recommendation
      // In the recommendation's run: decisions scoped to its task, path or stage apply there too (R-CON-4).
      const run = runOfContext(request.context)
      const behind = await backend.whyPoint({
        user: request.user,
        project: request.project,
        session_id: request.session_id,
        point: rec.point,
        as_of: request.as_of,
        ...run,
      })
      if (behind.ok) return result({ ok: true, body: { ...whyOf(rec), point_why: behind.body } })
      // A point nothing is known of yet (no observation, no decision bound to it) has no `why` of
      // its own: the recommendation explains itself. Any other failure is the tool's: an answer
      // without the decisions bound to the point would pass for one at a point that has none.
      if (behind.error.code === 'point_not_found') return result({ ok: true, body: { ...whyOf(rec), point_why: null } })
      const message = `what is behind point ${rec.point} could not be read: ${behind.error.message}`
      return result({ ok: false, error: { ...behind.error, message } })
    },
  )

  server.registerTool(
    tool('check_decision'),
    {
      title: 'Check an action or a choice against the decisions in force',
      description:
        'Before running a shell command (`action`) or choosing an option at a `point` (`choice`): allowed or ' +
        'blocked, with the accepted decisions that block it (required) or warn (advisory). With `as_of` (an ISO ' +
        'time), an audit: checked against the decisions as they stood then, e.g. to see why a command was blocked.',
      inputSchema: CheckBody,
    },
    async (request) => result(await backend.check(request)),
  )

  // The SDK advertises `listChanged: true` for any server with tools, a promise of
  // notifications/tools/list_changed; these five tools are fixed at start and never change.
  server.server.registerCapabilities({ tools: { listChanged: false } })
  return server
}
