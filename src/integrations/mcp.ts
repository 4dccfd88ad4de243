import { isAbsolute } from 'node:path'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  CallToolRequestSchema,
  CancelledNotificationSchema,
  ErrorCode,
  InitializedNotificationSchema,
  InitializeRequestSchema,
  isJSONRPCNotification,
  isJSONRPCRequest,
  ListToolsRequestSchema,
  PingRequestSchema,
  ProgressNotificationSchema,
  type CallToolResult,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js'
import { notAsOf } from '../answer-as-of'
import { commandLine, shellWord } from '../config/bin-path'
import { decisionsOfFile, noDecisionOfFile, scopedNotInForce, scopedSaid, type FileDecision } from '../why-file'
import { systemClock, type Clock } from '../clock'
import { runOfContext } from '../decisions/applicability'
import { DECISION_LIMITS, DecisionKeySchema, type DecisionRecord } from '../decisions/decision'
import type { PointWhyQuery } from '../decisions/explain-point'
import { briefDecisionWhy, briefFileWhy, WHOLE_WHY_CHARACTERS } from '../decisions/decision-why-brief'
import { BRIEF_OBSERVATIONS, briefPointWhy } from '../decisions/point-why-brief'
import { jsonBytes } from '../domain/json-bytes'
import { nestsWithin } from '../domain/json-depth'
import { LIMITS } from '../domain/limits'
import { z } from '../domain/zod'
import { wrongTypeSaid } from '../domain/zod-issues'
import { CARRIED_PROTO_KEY, ContextSchema, FIELD_DESCRIPTIONS, hasNoLoneSurrogate, IdentifierSchema, LONE_SURROGATES, NO_CONTROL_PATTERN, ObservationInputSchema, TrimmedIdentifierSchema, type ObservationInput } from '../domain/observation'
import { CHECK_USER, CheckBody } from '../http/decision-schemas'
import { fieldsOf, issuesOf } from '../http/errors'
import { isChoiceKind, PLAN_IGNORED_FIELDS, PlanRequestSchema, type PlanRequest } from '../domain/question-plan'
import { RecommendationRequestSchema, type RecommendationRequest } from '../domain/recommendation'
import type { ContractedRecommendation } from '../decisions/enforcement'

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
  /** `GET /v1/decisions/{key}/why`: a decision's supersede chain, rationale and evidence (R-CON-5). */
  whyDecision(key: string, query: { as_of?: string }): Promise<BackendAnswer>
  /** `GET /v1/decisions`: every decision, as they stood as of `as_of`; what a file's why is read from. */
  listDecisions(query: { as_of?: string }): Promise<BackendAnswer>
  /** `POST /v1/decisions/check` (R-CON-3). */
  check(request: z.infer<typeof CheckBody>): Promise<BackendAnswer>
}

/** An error as a tool's text: its code and message, then each field at fault on a line of its own. */
function errorText(error: Extract<BackendAnswer, { ok: false }>['error']): string {
  const issues = (error.issues ?? []).map((i) => `\n- ${i.path}: ${i.message}`).join('')
  return `${error.code}: ${error.message}${issues}`
}

/**
 * A tool's answer as its text: the body as compact JSON. The text goes into the agent's context
 * and stays there for the rest of the session, paid for on every turn: indented, a plan of four
 * questions took some 70% more (24.7 KB against 14.1 KB), for a model that reads either alike.
 */
function result(answer: BackendAnswer, shape: (body: unknown) => unknown = (body) => body): CallToolResult {
  if (!answer.ok) return { isError: true, content: [{ type: 'text', text: errorText(answer.error) }] }
  return { content: [{ type: 'text', text: JSON.stringify(shape(answer.body)) }] }
}

/**
 * An answer asked as of `asOf` that does not say that moment, as a tool error: a service of an older
 * version, still running after an upgrade, may answer as of now whatever `as_of` says (`why --as-of`
 * refuses it the same way), and an audit of last Tuesday answered with today's chain passes for right.
 */
function answeredAsOf(answer: BackendAnswer, asOf: string | undefined, what: string): BackendAnswer {
  if (!answer.ok || asOf === undefined) return answer
  const wrong = notAsOf(answer.body, asOf, what, 'answered', 'as_of')
  return wrong === undefined ? answer : { ok: false, error: { code: 'as_of_not_answered', message: wrong } }
}

/** A tool error for arguments that fit the schema but not together, naming the fields as a 400 does. */
function refused(issues: Array<{ path: string; message: string }>, message: string): CallToolResult {
  return result({ ok: false, error: { code: 'invalid_request', message, issues } })
}

/**
 * What the tools do to the memory, as MCP's tool annotations say it: Claude Code runs a tool marked
 * `readOnlyHint` in plan mode (where agents ask their questions) and alongside others, and asks before
 * any other. Only `why` writes nothing: `recommend` and `plan_questions` start the session they name
 * (its count is the user's expertise), `plan_questions` remembers where it planned a question whose
 * options it took out (planQuestionsToAsk), they and `check_decision` count the pulses of the
 * decisions they reach, and `record_choice` stores a choice. None deletes or overwrites anything
 * but that record's time, planned again (a choice recorded again under its `decision_id` counts
 * once), and none reaches beyond this memory.
 */
const WRITES = { readOnlyHint: false, destructiveHint: false, openWorldHint: false } as const
const READS = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const

/**
 * The evidence of a recommendation (R-CON-5 for observed choices): what is recommended, how
 * sure, under which conditions, from which layers, and the ids of the observations behind it;
 * and what each decision bound to the point did to this recommendation (`decisions`), with what
 * observed choices alone would pick when one fixed something else (`learned`). `point_why` is
 * recomputed from the latest question asked at the point, with its options: the effects it lists
 * may be another question's (a decision `enforced` there is `ruled-out` here, its option not offered).
 */
export function whyOf(recommendation: ContractedRecommendation) {
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
    context_test: r.context_test,
    change_test: r.change_test,
    ask: r.ask,
    ask_reason: r.ask_reason,
    layers: r.layers,
    observations: r.observations,
    evidence: r.evidence,
    evidence_total: r.evidence_total,
    as_of: r.as_of,
    decisions: r.decisions ?? [],
    ...(r.conflicts === undefined ? {} : { conflicts: r.conflicts }),
    ...(r.learned === undefined ? {} : { learned: r.learned }),
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
  if (!parsed.success) return paramsSaid(parsed.error, message)
  // Every tool is listed in one page, with no nextCursor: a cursor is none this server gave, which
  // MCP has answered with -32602 (the SDK ignored it and sent the first page again, as if the next).
  const cursor = (message.params as { cursor?: unknown } | undefined)?.cursor
  if (message.method === 'tools/list' && cursor !== undefined) {
    return `params.cursor: no such cursor: every tool is listed in one page, with no nextCursor; ask again without a cursor`
  }
  if (message.method !== 'tools/call') return undefined
  const { name } = (parsed.data as { params: { name: string } }).params
  if (!tools.has(name)) return `params.name: unknown tool ${JSON.stringify(name)}; the tools are ${[...tools].join(', ')}`
  return undefined
}

/**
 * A `tools/call` whose `__proto__` argument (JSON.parse makes it an own property) travels under
 * CARRIED_PROTO_KEY, as a body's context key does: zod drops a `__proto__` key, so the argument
 * was gone without a word, the call made without it. Carried, the tool's schema refuses it as it
 * refuses any argument it does not know, and the answer names it `__proto__` (issuesOf). A key
 * sent as the carrier itself becomes one no schema takes, never read as `__proto__`.
 */
function withProtoArgumentCarried(message: JSONRPCMessage): JSONRPCMessage {
  if (!isJSONRPCRequest(message) || message.method !== 'tools/call') return message
  const args = (message.params as { arguments?: unknown } | undefined)?.arguments
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return message
  if (!Object.hasOwn(args, '__proto__') && !Object.hasOwn(args, CARRIED_PROTO_KEY)) return message
  const carried = Object.fromEntries(Object.entries(args).map(([k, v]) => [k === '__proto__' ? CARRIED_PROTO_KEY : k === CARRIED_PROTO_KEY ? '\u0000' : k, v]))
  return { ...message, params: { ...message.params, arguments: carried } }
}

/** The notifications the server reads, each with MCP's own schema of it. */
const NOTIFICATIONS = new Map<string, typeof CancelledNotificationSchema | typeof ProgressNotificationSchema | typeof InitializedNotificationSchema>([
  ['notifications/cancelled', CancelledNotificationSchema],
  ['notifications/progress', ProgressNotificationSchema],
  ['notifications/initialized', InitializedNotificationSchema],
])

/** What is wrong with a notification the server reads whose params do not fit it, in one line; undefined when they do. */
function invalidNotification(message: JSONRPCMessage): string | undefined {
  if (!isJSONRPCNotification(message)) return undefined
  const parsed = NOTIFICATIONS.get(message.method)?.safeParse(message)
  if (parsed === undefined || parsed.success) return undefined
  return `${message.method} ignored: ${paramsSaid(parsed.error, message)}`
}

/**
 * Why a message's params do not fit, field by field, in the words of a route's 400: a field left
 * out is `missing`, and one of a few types says them (`params.requestId: Invalid input: expected
 * string or number, received null`), where zod's own words were a bare `Invalid input`.
 */
function paramsSaid(error: { issues: readonly unknown[] }, message: JSONRPCMessage): string {
  return issuesOf(error, message)
    .map((issue) => `${issue.path}: ${issue.message}`)
    .join('; ')
}

/** A plain object without its `null` fields but the `required` ones, which stay to be refused, named; anything else as it is. */
function withoutNullFields(value: unknown, required: readonly string[]): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value
  const given = Object.entries(value).filter(([name, field]) => field !== null || required.includes(name))
  return given.length === Object.keys(value).length ? value : Object.fromEntries(given)
}

/** Each item of `list`, when it is one, through `each`; anything else as it is. */
function eachOf(list: unknown, each: (item: unknown) => unknown): unknown {
  return Array.isArray(list) ? list.map(each) : list
}

/** An option object (`{label, description}`) without its null fields but `label`. */
const option = (item: unknown) => withoutNullFields(item, ['label'])

/**
 * The objects inside a tool's arguments whose null fields are read as not given, by tool: the
 * options of `all_options`, and plan_questions' question objects and their options, which models
 * fill as they fill the arguments (`"multiSelect": null`, `"description": null`). A required field
 * (`question`, `options`, `label`) given null stays, refused and named; `context` keeps its nulls.
 * A question asking for text or a number takes no `options`: null there is not given.
 */
const NESTED_NULLS: Record<string, (args: Record<string, unknown>) => Record<string, unknown>> = {
  recommend: (args) => ({ ...args, all_options: eachOf(args.all_options, option) }),
  why: (args) => ({ ...args, all_options: eachOf(args.all_options, option) }),
  record_choice: (args) => ({ ...args, all_options: eachOf(args.all_options, option) }),
  plan_questions: (args) => ({
    ...args,
    questions: eachOf(args.questions, (question) => {
      // A question asking for text or a number has no options: a null one is not given either.
      const other = typeof question === 'object' && question !== null && !isChoiceKind((question as { kind?: unknown }).kind)
      const kept = withoutNullFields(question, other ? ['question'] : ['question', 'options'])
      if (typeof kept !== 'object' || kept === null || Array.isArray(kept)) return kept
      return 'options' in kept ? { ...kept, options: eachOf(kept.options, option) } : kept
    }),
  }),
}

/**
 * A `tools/call` whose arguments give `null` for an argument, read as one not given: models fill
 * optional arguments they do not use with null (`"project": null`), where the schemas, the HTTP
 * routes' (which refuse null for a field left out), refused the call and cost the agent a turn.
 * Inside an argument, only the fields of the objects NESTED_NULLS names: a null elsewhere (a
 * `context` value) is that value.
 */
function withoutNullArguments(message: JSONRPCMessage): JSONRPCMessage {
  if (!isJSONRPCRequest(message) || message.method !== 'tools/call') return message
  const params = message.params as { name?: unknown; arguments?: unknown } | undefined
  const args = params?.arguments
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return message
  const given = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null))
  const nested = typeof params?.name === 'string' && Object.hasOwn(NESTED_NULLS, params.name) ? NESTED_NULLS[params.name] : undefined
  // Only the arguments given: a field the call left out is not made one, undefined.
  const inner = nested === undefined ? given : Object.fromEntries(Object.entries(nested(given)).filter(([name]) => Object.hasOwn(given, name)))
  return { ...message, params: { ...message.params, arguments: inner } }
}

/**
 * A request without its `task` (MCP 2025-11-25's task augmentation): a server that declares no
 * `tasks` capability, as this one, MUST process such a request normally, ignoring it, where the SDK
 * answered any request with a `task` (a `tools/call`, a `ping`) -32603 "Server does not support
 * task creation", an internal error for what the client may send.
 */
function withoutTask(message: JSONRPCMessage): JSONRPCMessage {
  if (!isJSONRPCRequest(message) || message.params === undefined || !Object.hasOwn(message.params, 'task')) return message
  const { task: _ignored, ...params } = message.params
  return { ...message, params }
}

/** The optional param of a method that a null is read as not given for, as `"params": null` is (mcp-stdio). */
const NULL_AS_ABSENT: Record<string, string> = { 'tools/call': 'arguments', 'tools/list': 'cursor' }

/**
 * A request without `"arguments": null` (a `tools/call`) or `"cursor": null` (a `tools/list`), as
 * clients that write an absent field as null send them: -32602 for it told the client the protocol
 * was broken, where a tool called with no arguments is a tool error naming what is missing.
 */
function withoutNullParam(message: JSONRPCMessage): JSONRPCMessage {
  if (!isJSONRPCRequest(message) || !Object.hasOwn(NULL_AS_ABSENT, message.method)) return message
  const name = NULL_AS_ABSENT[message.method] as string
  if (message.params === undefined || message.params[name] !== null) return message
  const { [name]: _null, ...params } = message.params
  return { ...message, params }
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
    transport.onmessage = (sent, extra) => {
      const message = withoutNullParam(withoutTask(sent))
      // A notification is never answered: one whose params do not fit is dropped, said in a line,
      // where the SDK's handler threw and the server said zod's dump over some thirty lines of stderr.
      const unfit = invalidNotification(message)
      if (unfit !== undefined) return transport.onerror?.(new Error(unfit))
      const why = invalidParams(message, tools)
      if (why === undefined) return deliver?.(withoutNullArguments(withProtoArgumentCarried(message)), extra)
      const id = (message as { id: string | number }).id
      transport
        .send({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${why}` } })
        .catch((error: Error) => transport.onerror?.(error))
    }
    return start()
  }
}

/**
 * The arguments, by tool, whose depth its schema judges as the route's does, left alone by the
 * server's own bound (LIMITS.nesting counted from the arguments), which refused what the route
 * takes: plan_questions' `questions` (each at most 64 levels, counted from the question, refused
 * naming it, `questions.0`) and the fields of AskUserQuestion's input it takes and ignores at any
 * depth, which are never sent on (mcpBackend).
 */
const DEPTH_OF_THEIR_OWN: Record<string, readonly string[]> = { plan_questions: ['questions', ...PLAN_IGNORED_FIELDS] }

/** What the SDK's McpServer calls to check a tool's arguments against its input schema (private to it). */
interface ArgumentCheck {
  validateToolInput(tool: { inputSchema?: z.ZodType }, args: unknown, name: string): Promise<unknown>
}

/**
 * Arguments that do not fit a tool's input schema are a tool error said as the route's 400 says
 * the same body (`invalid_request`, each field at fault on a line of its own, dotted as the body's
 * path: `- user_choice: an option's label, or an array of labels, not an object`). The SDK says
 * zod's own text instead: "Invalid input at user_choice" for a missing choice or an option object,
 * `Unrecognized key: "decisionId"`, and a string sent for `all_options` "too big" for a string,
 * behind "MCP error -32602", which reads as the protocol's failure rather than the agent's field.
 */
function sayingInvalidArgumentsAsTheRoutes(server: McpServer): void {
  const sdk = server as unknown as ArgumentCheck
  // A private method of the SDK's: one that no longer has it would check arguments its own way, unseen.
  if (typeof sdk.validateToolInput !== 'function') throw new Error('McpServer has no validateToolInput: the SDK changed')
  sdk.validateToolInput = async (tool, args, name) => {
    // Arguments nested thousands deep (a line JSON.parse takes) are what JSON.stringify, being
    // recursive, cannot write, to send them on: the call ended "Maximum call stack size exceeded".
    // The fields that nest so are named, after what the schema says of them; but those whose depth
    // the schema judges as the route does.
    const own = Object.hasOwn(DEPTH_OF_THEIR_OWN, name) ? DEPTH_OF_THEIR_OWN[name] : undefined
    const deep = Object.entries(args ?? {})
      .filter(([field, value]) => !own?.includes(field) && !nestsWithin(value, LIMITS.nesting - 1))
      .map(([path]) => ({ path: path === CARRIED_PROTO_KEY ? '__proto__' : path, message: `must not nest arrays and objects more than ${LIMITS.nesting} levels deep` }))
    // Over the service's body limit, refused as its route refuses that body (413): on a store the
    // server opened itself, the call was made, where through the service the same one was refused.
    if (deep.length === 0 && jsonBytes(args ?? {}) > LIMITS.bodyBytes) {
      throw new Error(errorText({ code: 'body_too_large', message: `the arguments are over ${LIMITS.bodyBytes / 1024} KB, the most the service takes in a body` }))
    }
    if (tool.inputSchema === undefined) return undefined
    const parsed = await tool.inputSchema.safeParseAsync(args ?? {})
    if (parsed.success && deep.length === 0) return parsed.data
    const said = parsed.success ? [] : issuesOf(parsed.error, args ?? {})
    // A field the schema named already (`context.k`: a context is flat) is not named twice.
    const issues = [...said, ...deep.filter((d) => !said.some((i) => i.path === d.path || i.path.startsWith(`${d.path}.`)))]
    // Thrown, the SDK answers it as the tool's error (isError) with this text alone, as `result` says a 400.
    throw new Error(errorText({ code: 'invalid_request', message: `invalid arguments: ${fieldsOf(issues)}`, issues }))
  }
}

/**
 * The MCP server of `decision-memory mcp` (R-SVC-6). Input schemas are the zod schemas of the
 * HTTP routes; `user` defaults to `defaultUser` (the hook's $DECISION_MEMORY_USER) instead of
 * "default", so that the tools and the hooks speak of the same person; `project`, left out, is
 * `defaultProject` when there is one (the project the hooks record for the folder the server was
 * started in: its git repository, or the folder itself where `defaultProjectIsFolder`), so that the
 * tools and the hooks speak of the same project. `why`'s `file` is read
 * from `folder`, the folder the server was started in, as `why FILE` reads it from where it runs.
 */
export function createMcpServer(
  backend: McpBackend,
  options: {
    version: string
    defaultUser?: string
    defaultProject?: string
    defaultProjectIsFolder?: boolean
    folder?: string
    clock?: Clock
    /** The server's own `--data` and `--policy`, which the command it names for a point's whole why takes too. */
    commandFlags?: readonly string[]
    /** The variables that command is run with (the service's URL, the store), which the agent's shell may not have. */
    commandEnvironment?: ReadonlyArray<readonly [string, string]>
  },
): McpServer {
  const clock = options.clock ?? systemClock
  /** A point's why in brief, naming the command that gives it whole as this server would read it. */
  const wholeCommand = (args: string[]) =>
    [...(options.commandEnvironment ?? []).map(([name, value]) => `${name}=${shellWord(value)}`), commandLine([...args, ...(options.commandFlags ?? [])])].join(' ')
  const brief = (body: unknown) => briefPointWhy(body, { commandLine: wholeCommand })
  const folder = options.folder ?? process.cwd()
  // prefault, not default: zod returns a default as it is, so a $DECISION_MEMORY_USER of "" or "!x"
  // (or one not in NFC) would reach the store unchecked when the call runs locally, where no route
  // parses it again, under a name the service's export and forget cannot name (R-SVC-5).
  const userDescription = `${FIELD_DESCRIPTIONS.user} Default: the server's $DECISION_MEMORY_USER, else "default".`
  const user = IdentifierSchema.prefault(options.defaultUser ?? 'default').meta({ description: userDescription })
  // The tools that write (recommend and plan start the session they name; observe) refuse a name spaced at its ends, as their routes do.
  const writingUser = TrimmedIdentifierSchema.prefault(options.defaultUser ?? 'default').meta({ description: userDescription })
  const { defaultProject } = options
  // Put in by the tools, not the schema: `why` with `key` refuses a project given beside it.
  const projectDescription =
    defaultProject === undefined
      ? FIELD_DESCRIPTIONS.project
      : `${FIELD_DESCRIPTIONS.project} Default: ${JSON.stringify(defaultProject)}, the ${options.defaultProjectIsFolder === true ? 'folder' : 'git repository'} the server was started in, as the hooks record it.`
  const project = IdentifierSchema.optional().meta({ description: projectDescription })
  const writingProject = TrimmedIdentifierSchema.optional().meta({ description: projectDescription })
  /** A request with the default project when it names none. */
  const inProject = <Request extends { project?: string | undefined }>(request: Request): Request =>
    request.project !== undefined || defaultProject === undefined ? request : { ...request, project: defaultProject }
  // A context's keys checked as the routes check them (1 to 100 characters, no control character),
  // said in its description, not as the schema's `propertyNames`: Gemini's function declarations
  // (their `parameters`, which Gemini CLIs before `parametersJsonSchema` and gateways to Gemini send
  // a tool's schema as) refuse a schema that has one, `Unknown name "propertyNames"`, and with it the
  // whole request, every tool of every server. The OpenAPI document keeps it.
  const context = ContextSchema.optional().meta({ description: FIELD_DESCRIPTIONS.context, propertyNames: undefined })
  const recommendation = RecommendationRequestSchema.extend({ user: writingUser, project: writingProject, context })
  const server = new McpServer({ name: 'decision-memory', version: options.version })
  const tools = new Set<string>()
  const tool = <Name extends string>(name: Name) => (tools.add(name), name)
  sayingInvalidArgumentsAsTheRoutes(server)
  const connect = server.connect.bind(server)
  server.connect = (transport) => {
    refusingInvalidParams(transport, tools)
    return connect(transport)
  }

  server.registerTool(
    tool('recommend'),
    {
      annotations: WRITES,
      title: 'Recommend an option',
      description:
        'Before asking the user a question: which option they are likely to pick, how sure the memory is ' +
        '(confidence, p), the condition it holds under, the options ordered and labelled for the user, and ' +
        'whether the question is worth asking at all (`ask`).',
      inputSchema: recommendation,
    },
    async (request) => result(await backend.recommend(inProject(request))),
  )

  server.registerTool(
    tool('plan_questions'),
    {
      annotations: WRITES,
      title: 'Plan AskUserQuestion questions',
      description:
        'Given the AskUserQuestion questions you are about to ask, returns them ordered by information ' +
        '(most uncertain first), their options ordered and labelled, the ones that need not be asked ' +
        'answered in `answers`, and `ask_user_question_input`: the exact input to pass to AskUserQuestion ' +
        '(null when nothing is left to ask). A question asking for no choice (`kind` `text`, `number` or another kind than `choice`, no options) ' +
        'comes back as written, in its place, always asked. It records no answer: an answer of `answers` you act on without asking ' +
        'is recorded with `record_choice` and `source: "auto-resolved"`, so that it does not count as the user\'s choice.',
      inputSchema: PlanRequestSchema.extend({ user: writingUser, project: writingProject, context }),
    },
    async (request) => result(await backend.plan(inProject(request))),
  )

  server.registerTool(
    tool('record_choice'),
    {
      annotations: WRITES,
      title: 'Record a choice',
      description:
        'Records what the user chose at a question (an observation). Give a `decision_id` so that ' +
        'recording it twice counts once. Where decision-memory\'s Claude Code hooks are installed, its PostToolUse ' +
        'hook records every AskUserQuestion answer already: record only choices asked otherwise (in plain text), or ' +
        'they count twice. Give the `point` that `recommend` or `plan_questions` answered for the question: the options ' +
        'you showed may not be the ones asked about (a required decision can take some out), and without `point` the ' +
        'choice is counted at the point of the options given.',
      inputSchema: ObservationInputSchema.extend({ user: writingUser, project: writingProject, context }),
    },
    async (input) => result(await backend.observe([inProject(input)])),
  )

  /**
   * Why `file` is as it is, as `why FILE` says it (decisionsOfFile): the decisions as they stood as of
   * `asOf`, then the chain of each behind the file, as of it too. None behind it is the tool error
   * `decision_not_found` naming `file`, with what answers instead, as the command says it.
   */
  async function whyOfFile(file: string, asOf: string | undefined): Promise<BackendAnswer> {
    const listed = await backend.listDecisions({ as_of: asOf })
    if (!listed.ok) return listed
    const all = (listed.body as { decisions: DecisionRecord[] }).decisions
    const { path, found } = decisionsOfFile(file, all, folder)
    if (found.length === 0) {
      const doorway = {
        folder,
        here: `in ${folder}, the folder the server was started in`,
        pointAt: (at: string) => `\`why\` with \`point\` and context.path ${JSON.stringify(at)}`,
        whyOf: (key: string) => `\`why\` with \`key\` ${JSON.stringify(key)}`,
      }
      const message = noDecisionOfFile(file, path, doorway, asOf, all)
      const then = asOf === undefined ? '' : ` as of ${asOf}`
      const scoped = scopedSaid(scopedNotInForce(path, all))
      return { ok: false, error: { code: 'decision_not_found', message, issues: [{ path: 'file', message: `no decision was imported from it or is ${scoped} to its path${then}` }] } }
    }
    const decisions: Array<FileDecision & { why: unknown }> = []
    for (const decision of found) {
      const why = answeredAsOf(await backend.whyDecision(decision.key, { as_of: asOf }), asOf, decision.key)
      if (!why.ok) return why
      decisions.push({ ...decision, why: why.body })
    }
    return { ok: true, body: { file, path, decisions } }
  }

  // One tool for the four `why`s of R-CON-5: a recommendation's (the question as `recommend` takes
  // it), a point's (`point` alone: what the memory holds of it, as `GET /v1/why` says), a
  // decision's (`key`: e.g. the one `check_decision` named as blocking) and a file's (`file`: the
  // decisions behind it, as `why FILE` reads them). Which is asked is told by
  // the arguments, checked in the tool: a top-level anyOf is what the Claude API refuses.
  /** The names of a recommendation's why, as `recommend` takes them: none spaced at its ends. */
  const spacedNames = z.object({
    user: TrimmedIdentifierSchema,
    project: TrimmedIdentifierSchema.optional(),
    session_id: TrimmedIdentifierSchema.optional(),
    point: TrimmedIdentifierSchema.optional(),
  })
  const whyInput = recommendation.extend({
    // A read: it reaches what was stored under a name spaced at its ends before writes refused one.
    user,
    project,
    session_id: IdentifierSchema.optional().meta({ description: FIELD_DESCRIPTIONS.session_id }),
    point: IdentifierSchema.optional().meta({ description: FIELD_DESCRIPTIONS.point }),
    question: RecommendationRequestSchema.shape.question.optional(),
    all_options: RecommendationRequestSchema.shape.all_options.optional(),
    key: DecisionKeySchema.optional().meta({
      description:
        'A decision\'s key (e.g. one `check_decision` named): its supersede chain, rationale and evidence, as of `as_of`. ' +
        'Give it with no other argument but `as_of`; give `point` alone for what is behind a point, `question` and ' +
        '`all_options` for a recommendation\'s evidence, or `file` for the decisions behind a file.',
    }),
    file: z
      .string({ error: wrongTypeSaid('a file or folder (text), such as src/billing/invoice.ts') })
      .min(1)
      .max(DECISION_LIMITS.pathLength)
      .regex(new RegExp(NO_CONTROL_PATTERN), 'must not contain control characters')
      .refine(hasNoLoneSurrogate, LONE_SURROGATES)
      .optional()
      .meta({
        description:
          'A file (or folder) to explain, as `decision-memory why FILE` does: the chain of each decision imported from it ' +
          '(a record import-adr read, `docs/adr/0005-use-postgres.md`, a `DECISIONS.md`, one deleted since), then of each ' +
          'decision in force scoped to its path or a folder above it (`src/billing` for `src/billing/invoice.ts`), then of each ' +
          'accepted one stored with a glob path scope whose folder holds it (`src/billing/**`, which holds none of the paths it would ' +
          'match: `from` is `glob`, and its chain says so in `scope_warning`), as of `as_of`. ' +
          `Absolute, or relative to ${JSON.stringify(folder)}, the folder the server was started in (Claude Code starts it in the agent's), ` +
          'else, where that has no such file, to the root of its git repository, as the command run there reads it; its path in its ' +
          'git repository, from the root, is what decisions are scoped by. Give it with no other argument but `as_of` (and `user`); not with `key`.',
      }),
  })
  server.registerTool(
    tool('why'),
    {
      annotations: READS,
      title: 'Why this recommendation, point, decision or file',
      description:
        'With `question` and `all_options` (as `recommend` takes them): the evidence of the recommendation, namely ' +
        'precondition, confidence and how it was computed, the session, recent and long-term layers, the ids of the ' +
        'observations it rests on, what each decision bound to its point did to it (`decisions`), and in `point_why` ' +
        'the decisions bound to its point with their supersede chains and rationales. With `point` alone: what is recommended there, whether the user was asked or answered for, ' +
        'and the decisions and observations behind it. A point\'s `chains` name their links by key, each in `decisions` once, those no longer in force ' +
        `without their rationale and evidence; the newest ${BRIEF_OBSERVATIONS} observations are listed; \`left_out\` says what is not given and where it is. ` +
        'With `key`: that decision\'s supersede chain, each link with its rationale, source and ' +
        'evidence, and the proposals pending to supersede a link (`proposals`)' +
        `; over ${WHOLE_WHY_CHARACTERS} characters, the links no longer in force but the one asked without them. ` +
        'With `file` (a path, absolute or relative to the folder the server was started in): why that file is as ' +
        'it is, the decisions imported from it (an ADR, a DECISIONS.md) and those in force scoped to its path, each with its chain' +
        `; over ${WHOLE_WHY_CHARACTERS} characters, each chain once (\`chains\`) and each decision once (\`links\`). \`left_out\` says what is not given and where it is.`,
      inputSchema: whyInput,
    },
    async (input) => {
      const { key, file, question, all_options, ...rest } = input
      /** The arguments given among `names`, each refused with `why`. */
      const given = (names: readonly string[], why: string) =>
        names.filter((name) => (input as Record<string, unknown>)[name] !== undefined).map((path) => ({ path, message: why }))
      if (key !== undefined && file !== undefined) {
        return refused(
          [
            { path: 'key', message: 'not taken with `file`: give `key` or `file`' },
            { path: 'file', message: 'not taken with `key`: give `key` or `file`' },
          ],
          'why explains one decision by its key, or the decisions behind a file: give `key` or `file`, not both',
        )
      }
      if (file !== undefined) {
        // As with `key`: a decision holds nobody's choices, and no point, question or run changes which are behind a file.
        const extra = given(Object.keys(input).filter((name) => !['file', 'user', 'as_of'].includes(name)), 'not taken with `file`: a file\'s why takes only `as_of`')
        if (extra.length > 0) {
          return refused(extra, `why with file explains the decisions behind that file, and takes only as_of beside it: drop ${extra.map((i) => i.path).join(', ')}`)
        }
        // Run where the file is read from: a relative one, as `why FILE` reads it in the server's folder.
        const there = (args: string[]) => (isAbsolute(file) ? wholeCommand(args) : `cd ${shellWord(folder)} && ${wholeCommand(args)}`)
        return result(await whyOfFile(file, input.as_of), (body) => briefFileWhy(body, { commandLine: there }))
      }
      if (key !== undefined) {
        // `user` is always there (it defaults), and a decision holds nobody's choices: it is not asked of.
        const extra = given(Object.keys(input).filter((name) => !['key', 'user', 'as_of'].includes(name)), 'not taken with `key`: a decision\'s why takes only `as_of`')
        if (extra.length > 0) {
          return refused(extra, `why with key explains that decision, and takes only as_of beside it: drop ${extra.map((i) => i.path).join(', ')}`)
        }
        return result(answeredAsOf(await backend.whyDecision(key, { as_of: input.as_of }), input.as_of, key), (body) => briefDecisionWhy(body, { commandLine: wholeCommand }))
      }
      // In the run the context describes: decisions scoped to its task, path or stage apply there too (R-CON-4).
      const run = runOfContext(input.context)
      const asked = (point: string, asOf = input.as_of) =>
        backend.whyPoint({ user: input.user, project: input.project ?? defaultProject, session_id: input.session_id, point, as_of: asOf, ...run })
      if (question === undefined && all_options === undefined) {
        if (input.point === undefined) {
          return refused(
            [{ path: 'question', message: 'required: give `question` and `all_options`, or `point`, or `key`, or `file`' }],
            'why needs what to explain: a question with `question` and `all_options`, a point with `point`, a decision with `key`, or a file with `file`',
          )
        }
        // A point alone: nothing to recommend from, so what `GET /v1/why` says is the answer, a
        // point nothing is known of included (an error naming it, as the route's 404 does). What
        // describes a question is refused rather than dropped: it would not change the answer.
        const extra = given(['header', 'static_default', 'multi_select', 'multiSelect'], 'taken only with `question` and `all_options`')
        // Nor is any key of the context but the run's: the point is explained as GET /v1/why
        // recomputes it, in its run alone, and `phase` dropped would explain another recommendation.
        for (const name of Object.keys(input.context ?? {})) {
          if (!['task', 'path', 'stage'].includes(name)) extra.push({ path: `context.${name}`, message: 'at a point alone the context gives only `task`, `path` and `stage`' })
        }
        if (extra.length > 0) return refused(extra, `why at a point alone takes no ${extra.map((i) => i.path).join(', ')}: give the question with them`)
        return result(answeredAsOf(await asked(input.point), input.as_of, `point ${input.point}`), brief)
      }
      if (question === undefined || all_options === undefined) {
        const path = question === undefined ? 'question' : 'all_options'
        return refused([{ path, message: 'required with `' + (path === 'question' ? 'all_options' : 'question') + '`' }], `${path} is required with a recommendation's why`)
      }
      // The recommendation's why is the one `recommend` makes, whose names are written ones: a name
      // spaced at its ends is refused as `recommend` refuses it. Through the service the route
      // refused it, but on a store the server opened itself (`mcp --data`) it was read as asked.
      const written = spacedNames.safeParse({ user: input.user, project: input.project, session_id: input.session_id, point: input.point })
      if (!written.success) {
        const issues = issuesOf(written.error, input)
        return refused(issues, `invalid arguments: ${fieldsOf(issues)}`)
      }
      // Read, not made: without `as_of`, the recommendation as of this moment, as GET /v1/why
      // recomputes its own. A live one would start the session it names (a why in a new session
      // would count towards the user's expertise, R-SES-2) and count a pulse for each decision
      // bound to the point (R-CON-4), which an explanation is not. The point's why is read as of
      // the same moment, so that both halves of the answer read the same history, whatever the
      // service's clock says (a service on another machine).
      const at = input.as_of ?? clock.now().toISOString()
      const answer = await backend.recommend(inProject({ ...rest, question, all_options, as_of: at }))
      if (!answer.ok && input.as_of === undefined && answer.error.code === 'timestamp_in_future') {
        const message = `this MCP server's clock (${at}) is more than 5 minutes ahead of the service's: set it right, or give as_of`
        return result({ ok: false, error: { ...answer.error, message } })
      }
      if (!answer.ok) return result(answer)
      const rec = answer.body as ContractedRecommendation
      // Checked only when the agent gave as_of: `at` otherwise is this server's now, which an older
      // service answering as of its own now describes as well as it can.
      const behind = answeredAsOf(await asked(rec.point, at), input.as_of, `point ${rec.point}`)
      if (behind.ok) return result({ ok: true, body: { ...whyOf(rec), point_why: brief(behind.body) } })
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
      annotations: WRITES,
      title: 'Check an action or a choice against the decisions in force',
      description:
        'Before running a shell command (`action`) or choosing an option at a `point` (`choice`): allowed or ' +
        'blocked, with the accepted decisions that block it (required) or warn (advisory). A `choice` with no `point` is read at ' +
        'every point the decisions are bound to: blocked where a `must_not` names it or it is over a `limit`, not by a `must`. Give a choice\'s `all_options` (with its `point`), ' +
        'the options the question offered, to have it read among them as `recommend` reads them. With `as_of` (an ISO ' +
        'time), an audit: checked against the decisions as they stood then, e.g. to see why a command was blocked. ' +
        "A one-label `choice` at a point whose question's kind neither `multi_select` nor the policy says is read as the `user`'s latest own choice there was asked, " +
        'as `record_choice` stores it: after a multi-select one, `Lint, E2E tests` is both options.',
      // The user as the other tools take theirs (the server's, checked as a given one is): a read, as `why`'s.
      // Without the server's, `default` is put in by the tool, not the schema (checkUser).
      inputSchema: CheckBody.safeExtend({
        user: (options.defaultUser === undefined ? IdentifierSchema.optional() : IdentifierSchema.prefault(options.defaultUser)).meta({
          description: `${CHECK_USER} Default: the server's $DECISION_MEMORY_USER, else "default".`,
        }),
      }),
    },
    async (request) => {
      const { user, ...check } = request
      // A user only where the check reads one (a one-label choice at a point that does not say its
      // kind): `git push --force` sent with `default` was refused (403) by a service run with --auth
      // to a token of alice's, a check that passed before the check took a user.
      const reads = typeof check.choice === 'string' && check.point !== undefined && check.multi_select === undefined && check.multiSelect === undefined
      if (!reads) return result(await backend.check(check))
      // A service of a version before the check took a user (still running after an upgrade of the
      // checkout this server runs from) refuses the field (400, `user: unknown field`): it can only
      // check by the decisions, so it is asked so, as before, rather than every such check failing.
      const withUser = async (named: string) => {
        const answer = await backend.check({ ...check, user: named })
        const unknownUser = !answer.ok && (answer.error.issues ?? []).some((i) => i.path === 'user' && i.message === 'unknown field')
        return unknownUser ? backend.check(check) : answer
      }
      if (user !== undefined) return result(await withUser(user))
      // Neither the call nor the server names one: `default`, whose choices record_choice stores
      // then. A token that may not act for `default` has had none of its choices stored so: checked
      // by the decisions alone, as before the check took a user, rather than refused.
      const asDefault = await withUser('default')
      if (!asDefault.ok && asDefault.error.code === 'forbidden') return result(await backend.check(check))
      return result(asDefault)
    },
  )

  // The SDK advertises `listChanged: true` for any server with tools, a promise of
  // notifications/tools/list_changed; these five tools are fixed at start and never change.
  server.server.registerCapabilities({ tools: { listChanged: false } })
  return server
}
