import { loadPolicy } from '../config/load-policy'
import type { DecisionMemory } from '../decision-memory'
import type { Decisions } from '../decisions/decisions'
import { InputError } from '../domain/errors'
import { jsonBytes } from '../domain/json-bytes'
import { LIMITS } from '../domain/limits'
import { PLAN_IGNORED_FIELDS, type PlanRequest } from '../domain/question-plan'
import { projectOf } from '../integrations/claude-code'
import type { BackendAnswer, McpBackend } from '../integrations/mcp'
import { planQuestionsToAsk } from '../plan-questions'
import { CHECKOUT_DATA_DIR } from '../config/bin-path'
import { packageVersion } from './package-version'
import { projectOfFolder, workingProjectOf } from '../repository'
import { issuesOf, type ServiceError } from './error-envelope'
import { hasFields, settingHint, throughServiceOrLocal, type Answer } from './service-client'
import { barredPortProblem, configFilePath, dataDirectory, envValue, EnvironmentError, parseFlags, serviceUrl, serviceUrlProblem, tokenProblem } from './options'
import { storePlaceProblem, StoreOpenError } from '../open-store'

/**
 * A user the token may not act for (403 naming `user`): the commands say to give --user; a tool
 * call says what mends it here, a `user` argument, or the server's DECISION_MEMORY_USER, which
 * every call without one acts for (`default` when it is not set).
 */
function userHint(answer: { status: number }, error: { issues?: Array<{ path?: string }> }): string {
  if (answer.status !== 403 || !(error.issues ?? []).some((i) => i.path === 'user')) return ''
  return '; give `user`, a user this token may act for (DECISION_MEMORY_USER in the MCP server\'s environment is the default), or set DECISION_MEMORY_TOKEN to a token of that user'
}

/**
 * An error answer as a tool's error: the service's envelope (`{"error": {code, message, issues}}`),
 * its code `http_STATUS` when it has none; and an answer without one, another program's (a
 * `{"error": "Not Found"}`, a FastAPI `{"detail": …}`, a proxy's empty 502), in the words the
 * commands say it in, naming the URL: it was said `undefined: undefined`, or `the service answered 404`.
 */
function errorOf(answer: Answer): Extract<BackendAnswer, { ok: false }>['error'] {
  const error = (answer.body as { error?: ServiceError } | null)?.error
  const code = typeof error?.code === 'string' ? error.code : `http_${answer.status}`
  if (typeof error?.message !== 'string') {
    return { code, message: `HTTP ${answer.status} with no error of decision-memory's in its answer: is DECISION_MEMORY_URL (${serviceUrl()}) a decision-memory service?` }
  }
  const issues = issuesOf(error).flatMap((i) => (typeof i.path === 'string' ? [{ path: i.path, message: i.message }] : []))
  return { code, message: error.message, ...(issues.length === 0 ? {} : { issues }) }
}

export const MCP_HELP = `decision-memory mcp [--data DIR] [--policy FILE]

  An MCP server over stdio with the tools recommend, plan_questions, record_choice, why and
  check_decision.
  With --data, each call is made on that store, as the commands do
  (\`decision-memory help\` says which store). Without it, each call goes through the running
  service at $DECISION_MEMORY_URL; when none runs, it opens $DECISION_MEMORY_DATA, else this
  checkout's ./data, where npm start keeps it (never the folder the server was started in), for
  that call. The tools' user defaults to $DECISION_MEMORY_USER, else "default", as the hook's
  does; their project to the one the hook records in the folder the server is started in (Claude
  Code starts it in the agent's): a git repository's root (a worktree's main checkout), else the
  folder itself, but none when that is / or the home folder. A service run with --auth wants
  $DECISION_MEMORY_TOKEN in the server's environment.
  --policy FILE is the policy of the calls made on a store the server opens itself (a running
  service answers with its own); it is checked at start, and a broken one stops the server, as a
  --data where no store can be (a file, a folder of other files) does, and, without --data, a
  DECISION_MEMORY_URL or DECISION_MEMORY_PORT no service could be reached by, or a
  DECISION_MEMORY_TOKEN no HTTP header may carry.
`

/** The folder the server was started in; `/` (no repository) when it is gone, which process.cwd() throws for. */
function startedIn(): string {
  try {
    return process.cwd()
  } catch {
    return '/'
  }
}

/** `decision-memory mcp` (R-SVC-6): serves until the client closes stdin, or sends SIGINT or SIGTERM. */
export async function mcpCommand(argv: string[]): Promise<number> {
  const { values } = parseFlags({
    args: argv,
    options: { data: { type: 'string' }, policy: { type: 'string' } },
    strict: true,
  })
  // Checked at start, as serve checks its own: a broken policy stops the server with the file and
  // the field named, rather than failing each tool call later (or never, while a service answers).
  if (values.policy !== undefined) {
    values.policy = configFilePath(values.policy)
    await loadPolicy(values.policy)
  }
  // So is a --data where no store can be (a file, a folder of other files), as serve refuses it:
  // the server started, and each tool call then failed saying so, where the client shows no stderr.
  if (values.data !== undefined) {
    const problem = storePlaceProblem(dataDirectory(values.data))
    if (problem !== undefined) throw new StoreOpenError(problem)
  }
  // And, without --data (each call then goes through the service), a DECISION_MEMORY_URL or
  // DECISION_MEMORY_PORT no service could be reached by (`localhost:7420` without http://, a port of
  // letters, in either, a port fetch will not connect to, 6000): each tool call failed saying so, as --data's
  // did; and a DECISION_MEMORY_TOKEN no header may carry (a line break in it), which each call
  // said before asking any service, so that none went through, nor to the store when none ran.
  // With --data the calls are made on that store, which such a variable does not stop.
  if (values.data === undefined) {
    const url = serviceUrl()
    const problem = serviceUrlProblem(url) ?? barredPortProblem(url) ?? tokenProblem()
    if (problem !== undefined) throw new EnvironmentError(problem)
  }

  async function call(
    path: string,
    body: unknown,
    local: (memory: DecisionMemory, decisions: Decisions) => Promise<unknown>,
    method = 'POST',
    expect?: (body: unknown) => boolean,
    writesNothing = false,
  ): Promise<BackendAnswer> {
    try {
      // Run on its own, the MCP server may be the first to use the store: it makes one.
      const answer = await throughServiceOrLocal({
        method,
        path,
        body,
        local,
        dataDir: values.data,
        // Not ./data: Claude Code starts the server in the agent's project, and a store made there would
        // put the user's choices in that repository (to be committed with it), apart from the service's.
        defaultDataDir: CHECKOUT_DATA_DIR,
        policyFile: values.policy,
        createStore: true,
        expect,
        writesNothing,
      })
      if (answer.status < 400) return { ok: true, body: answer.body }
      const error = errorOf(answer)
      // A 401 is the server's setting, not the agent's input: say which variable mends it, as the commands do.
      return { ok: false, error: { ...error, message: error.message + settingHint(answer) + userHint(answer, error) } }
    } catch (error) {
      if (error instanceof InputError) {
        return { ok: false, error: { code: error.code, message: error.message, issues: error.issues } }
      }
      throw error
    }
  }

  const backend = mcpBackend(call)
  // Loaded here, not at the top: every command starts through main.ts, and the hook must start fast.
  const [{ createMcpServer }, { createStdioTransport }] = await Promise.all([
    import('../integrations/mcp'),
    import('../integrations/mcp-stdio'),
  ])
  // Claude Code starts the server in the agent's project: the tools record and recommend in the
  // project its hooks record there, a folder kept out of git included (the hooks record it as the
  // project, and the tools took none there: they recommended across every project what the hook
  // recommended from that folder's choices). Other clients start it in / or the home folder: no default.
  // A `file` given to `why` is read from there too, as `why FILE` run in that folder reads it.
  const here = startedIn()
  const folder = workingProjectOf(here)
  const defaultProject = folder === undefined ? undefined : projectOf(folder)
  const defaultProjectIsFolder = folder !== undefined && projectOfFolder(here) === undefined
  // The store and policy a point's whole why is read with, as the command it names (absolute, since
  // the agent may run it from another folder). policy was made absolute above.
  const commandFlags = [...(values.data === undefined ? [] : ['--data', dataDirectory(values.data)]), ...(values.policy === undefined ? [] : ['--policy', values.policy])]
  // And the service and store this server reads: Claude Code starts it with .mcp.json's `env`, which
  // the agent's shell lacks, in the agent's folder, where the command's ./data is no store (this
  // server's is $DECISION_MEMORY_DATA, else the checkout's). Not the token, which is no text to show.
  // With --data, a DECISION_MEMORY_URL or _PORT no service could be reached by does not stop the
  // server (checked above without --data only), and is left out of the command as well.
  const servedAt = (() => {
    try {
      const given = serviceUrl()
      return serviceUrlProblem(given) === undefined ? given : undefined
    } catch {
      return undefined
    }
  })()
  const commandEnvironment: Array<[string, string]> = [
    ...(servedAt === undefined ? [] : [['DECISION_MEMORY_URL', servedAt] as [string, string]]),
    ...(values.data === undefined ? [['DECISION_MEMORY_DATA', dataDirectory(undefined, process.env, CHECKOUT_DATA_DIR)] as [string, string]] : []),
  ]
  const server = createMcpServer(backend, {
    version: packageVersion(),
    defaultUser: envValue('DECISION_MEMORY_USER'),
    defaultProject,
    defaultProjectIsFolder,
    folder: here,
    commandFlags,
    commandEnvironment,
  })
  // stdout is the protocol's: what goes wrong is said on stderr (a line that is not JSON, or not
  // JSON-RPC, is also answered on stdout as JSON-RPC 2.0 says; one over 10 MB closes the transport).
  const say = (message: string) => process.stderr.write(`decision-memory mcp: ${message}\n`)
  // A stderr no one reads (a client gone, its end of every pipe closed) is no reason to stop: its
  // EPIPE, with no listener, ended the server with 1 and a stack trace, the calls in flight cut off
  // at the first line said, the one saying the client reads no more. What is said then goes nowhere.
  process.stderr.on('error', () => {})
  const transport = createStdioTransport({ input: process.stdin, output: process.stdout, report: say })
  await server.connect(transport)
  server.server.onerror = (error) => say(error.message)
  // The transport closes under the server only when it can read no further (a line over 10 MB):
  // a server that stayed up would hold the client's pipe and answer nothing, so the process ends,
  // and with 1, so that the client sees a failure. stdin let go, the calls in flight still finish.
  server.server.onclose = () => {
    say('the transport is closed: exiting')
    process.exitCode = 1
    process.stdin.destroy()
  }
  // Claude Code (2.1.332; not on Windows) ends the server with SIGINT, then SIGTERM 100 ms later and
  // SIGKILL 400 ms after that, and never closes stdin: either signal is read as the end of input, no
  // request read after it, and the calls in flight are answered and stored before the process exits
  // 0, as when stdin closes; the signal's default ended it at once, a choice being stored cut off.
  // A signal again changes nothing: a call ends within the service's or the store's wait.
  const stop = () => process.stdin.destroy()
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  // A client that closes the server's stdout (EPIPE: it reads no more) has ended the session, as one
  // closing stdin does: said once, no request read after, the calls in flight made and stored (their
  // answers go nowhere), exit 0. Any other failure to write (ENOSPC on a redirected stdout) ends it so, with 1.
  let unwritable = false
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (unwritable) return
    unwritable = true
    if (error.code === 'EPIPE') say('the client reads no more (its end of stdout is closed): exiting')
    else {
      say(`cannot write the output: ${error.code ?? error.message}`)
      process.exitCode = 1
    }
    stop()
  })
  // -1: keep running; the process ends when the client closes stdin, or sends SIGINT or SIGTERM.
  return -1
}

/**
 * How a tool's call is made: through the service, by `path` (its route), or on a store opened
 * here, by `local` (the same use case); `expect` tells the service's answer from another's;
 * `writesNothing` where the use case only reads the store, so that a store failure met on a store
 * opened here is said as a read's, as the route's answer says it (StoreRequest.writesNothing).
 */
export type McpCall = (
  path: string,
  body: unknown,
  local: (memory: DecisionMemory, decisions: Decisions) => Promise<unknown>,
  method?: string,
  expect?: (body: unknown) => boolean,
  writesNothing?: boolean,
) => Promise<BackendAnswer>

/**
 * How each route's 2xx answer is told from another program's at DECISION_MEMORY_URL (a mock's
 * catch-all `{}`, `null`, a 204): taken for one, record_choice said a choice stored that was not,
 * and check_decision gave a verdict with no `allowed`. The fields the commands and the guard read.
 */
const ROUTE_ANSWERS = {
  recommend: hasFields({ point: 'string', state: 'string', options: 'array' }),
  plan: hasFields({ questions: 'array' }),
  observe: hasFields({ stored: 'array', duplicates: 'array' }),
  whyPoint: hasFields({ point: 'string' }),
  whyDecision: hasFields({ key: 'string', chain: 'array', evidence: 'array' }),
  check: hasFields({ allowed: 'boolean', blocked_by: 'array' }),
  listDecisions: hasFields({ decisions: 'array' }),
} satisfies Record<keyof McpBackend, (body: unknown) => boolean>

/** The MCP tools' backend (R-SVC-6): each use case with its route and its call on a store, side by side, so that the two say one thing. */
export function mcpBackend(made: McpCall): McpBackend {
  /**
   * A body over the service's limit is refused, as its route refuses it (413), in both doorways:
   * the arguments are measured before they are checked (createMcpServer), but the body is more,
   * with the default project the server adds (and `as_of` for a `why`), and a call just under the
   * limit was made on a store the server opened itself, where the route refused it.
   */
  const tooLarge = (body: unknown): Promise<BackendAnswer> | undefined =>
    body !== undefined && jsonBytes(body) > LIMITS.bodyBytes
      ? Promise.resolve({ ok: false, error: { code: 'body_too_large', message: `the arguments are over ${LIMITS.bodyBytes / 1024} KB, the most the service takes in a body` } })
      : undefined
  const call: McpCall = (path, body, local, method, expect, writesNothing) => tooLarge(body) ?? made(path, body, local, method, expect, writesNothing)
  return {
    recommend: (request) => call('/v1/recommendations', request, (memory) => memory.recommend(request), 'POST', ROUTE_ANSWERS.recommend),
    // AskUserQuestion's fields the route takes and ignores, at any depth, count in the body's size, as
    // the route counts them, but are not sent: nested thousands deep, JSON.stringify cannot write them.
    plan: (request) => {
      const sent = Object.fromEntries(Object.entries(request).filter(([name]) => !(PLAN_IGNORED_FIELDS as readonly string[]).includes(name))) as PlanRequest
      return tooLarge(request) ?? made('/v1/plan', sent, (memory) => planQuestionsToAsk(memory, sent), 'POST', ROUTE_ANSWERS.plan)
    },
    // One observation is sent as an object, so that the service names its fields as the tool's
    // input has them (`timestamp`), not as an array's first item (`0.timestamp`).
    observe: (inputs) => call('/v1/observations', inputs.length === 1 ? inputs[0] : inputs, (memory) => memory.observe(inputs), 'POST', ROUTE_ANSWERS.observe),
    // A point's recommendation may rebuild its aggregate into core, a write, as `why --point` says.
    whyPoint: (query) => {
      const params = new URLSearchParams()
      for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, value)
      return call(`/v1/why?${params}`, undefined, (memory) => memory.why(query), 'GET', ROUTE_ANSWERS.whyPoint)
    },
    // A decision's chain is read, as `why KEY` reads it.
    whyDecision: (key, query) => {
      const asOf = query.as_of === undefined ? '' : `?${new URLSearchParams({ as_of: query.as_of })}`
      return call(`/v1/decisions/${encodeURIComponent(key)}/why${asOf}`, undefined, (_memory, decisions) => decisions.why(key, query), 'GET', ROUTE_ANSWERS.whyDecision, true)
    },
    // A check counts the pulses of the decisions it reaches, but an audit (as_of) counts none.
    check: (request) => call('/v1/decisions/check', request, (memory) => memory.check(request), 'POST', ROUTE_ANSWERS.check, request.as_of !== undefined),
    // As `why FILE` lists them: an answer without its `decisions` is no decision-memory's, not "none behind the file".
    listDecisions: (query) => {
      const asOf = query.as_of === undefined ? '' : `?${new URLSearchParams({ as_of: query.as_of })}`
      const list = async (_memory: DecisionMemory, decisions: Decisions) => ({ decisions: await decisions.list({ as_of: query.as_of }) })
      return call(`/v1/decisions${asOf}`, undefined, list, 'GET', ROUTE_ANSWERS.listDecisions, true)
    },
  }
}
