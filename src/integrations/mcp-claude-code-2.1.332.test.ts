import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../test/support/temp-dir'
import { createTestApp } from '../../test/support/test-app'
import { commandLine } from '../config/bin-path'
import { packageVersion } from '../cli/package-version'
import { briefPointWhy } from '../decisions/point-why-brief'
import { CHECK_USER } from '../http/decision-schemas'
import { createMcpServer, type BackendAnswer, type McpBackend } from './mcp'

/**
 * What Claude Code 2.1.332 sent our MCP server and what it answered, captured by
 * scripts/claude-code-e2e.ts (test/fixtures/claude-code-2.1.332/README.md, its `mcp-` scenarios):
 * each line Claude Code wrote to the server is sent again, at the moment it was written, to a
 * server on the service the scenario began with (its history and decision), and each answer must
 * be what Claude Code got then, but for times and ids and the divergences DIVERGENCES states; the
 * tool_result that reached the model must hold our text, and the service what was stored. The
 * fixtures are as captured and never edited: a change of wording since is stated here, not
 * written into them.
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
 * An answer as compared: times (in a URL's query too) and observation ids left out (the replay's clock is the moment
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
    return text.replace(/\d{4}-\d\d-\d\dT\d\d(:|%3A)\d\d\1\d\d\.\d{3}Z/g, 'TIME').replace(/obs-[a-z0-9]+-[0-9a-f]+/g, 'OBS')
  }
  if (typeof value === 'number') return Number.isInteger(value) ? (value > 1e12 ? 'EPOCH_MS' : value) : Number(value.toPrecision(9))
  if (Array.isArray(value)) return value.map((v) => comparable(v, repo, here))
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, comparable(v, repo, here)]))
  return value
}

/**
 * Strings a schema's `pattern` is tried on: what it accepts is what it means, so a pattern written
 * otherwise but accepting the same passes, and one that lets a control character or a spaced name
 * through does not. Lengths are the schema's minLength and maxLength, compared as they are.
 */
const PROBES = [
  ...['alice', 'Tier M', 'a b', 'Ünïcødé', '😀', '.hidden', '..x', '...', '.', '..', '!x', 'a!'],
  ...['a\u0000b', 'a\u001fb', 'a\u007fb', 'a\u0085b', 'a\u200bb'],
  ...[' alice', 'alice ', 'alice\t', '\u00a0alice', '\u3000alice'],
  ...['alice\u200b', '\u2060alice', 'alice\u200d', '\u202ealice'],
]

/** The probes a string schema's pattern accepts; all of them when it has none. */
function accepted(pattern: string | undefined): string[] {
  if (pattern === undefined) return PROBES
  const re = new RegExp(pattern, 'u')
  return PROBES.filter((p) => re.test(p))
}

/**
 * What our server says now that it did not say to Claude Code 2.1.332 when the mcp- scenarios were
 * captured (14248aa), each on purpose. The recording stays what Claude Code sent and got; a
 * captured text at `where` (a path of the compared answer, tools by name) is read through
 * `captured` → `now` before it is compared, and a pattern's probes through `refuses`. An entry that
 * no longer changes anything fails the test: when the wording changes again, say so here, or
 * capture again with scripts/claude-code-e2e.ts and empty the table.
 */
interface Divergence {
  why: string
  where: RegExp
  /** A text read through `now`, or a number (a `maxLength`) that is `now` since. */
  captured?: string | RegExp | number
  now?: string | number
  /** For a pattern: the probes the pattern now refuses that the one captured accepted. */
  refuses?: string[]
  /** For an object (a schema's `properties`): the keys it has now that it did not have, each as it is now. */
  adds?: Record<string, unknown>
  /** With `adds`: only to an object that has this key (a decision's why, by its `chain`, wherever an answer holds one). */
  having?: string
  /** For an object: what it reads as now, made from it as captured. */
  reads?: (captured: unknown) => unknown
}

const SPACED_OR_INVISIBLE_AT_AN_END = [
  ...[' alice', 'alice ', '\u00a0alice', '\u3000alice'],
  ...['alice\u200b', '\u2060alice', 'alice\u200d', '\u202ealice'],
]

const DIVERGENCES: Divergence[] = [
  {
    why: "Gemini's function declarations refuse a schema with propertyNames: a context key's rules are said in context's description, and checked by the tool",
    where: /^tools\/list .*\.inputSchema\.properties\.context\.description$/,
    captured: /(decisions' scopes match\.)$/,
    now: '$1 At most 32 keys, each of 1 to 100 characters without control characters.',
  },
  {
    why: "Gemini's function declarations refuse a schema with propertyNames (`Unknown name \"propertyNames\"`), and the whole request with it",
    where: /^tools\/list .*\.inputSchema\.properties\.context$/,
    reads: (captured) => {
      const { propertyNames: _left, ...rest } = captured as Record<string, unknown>
      return rest
    },
  },
  {
    why: 'e48c9d8: a window precondition reads after "Recommended when", as a sentence the user can find false',
    where: /^tools\/call .*\.(precondition|description)$/,
    captured: /any context, as chosen from (\S+) to (\S+)/,
    now: 'your choices from $1 to $2 still hold',
  },
  {
    why: '85dee9c: a required argument left out is said missing, not "received undefined" (JSON has no undefined)',
    where: /^tools\/call \.result\.content\[0\]\.text$/,
    captured: 'Invalid input: expected array, received undefined',
    now: 'missing: expected array',
  },
  {
    why: 'a field sent as another JSON type is told what it takes, in the service\'s words, not zod\'s',
    where: /^tools\/call \.result\.content\[0\]\.text$/,
    captured: 'user_choice: Invalid input: expected string or array, received object',
    now: "user_choice: an option's label, or an array of labels, not an object",
  },
  {
    why: "13cc64c: why's file lists the glob-scoped decisions meant for it, warned",
    where: /^tools\/list .*\.tools\[why\]\.inputSchema\.properties\.file\.description$/,
    captured: '(`src/billing` for `src/billing/invoice.ts`), as of `as_of`.',
    now:
      '(`src/billing` for `src/billing/invoice.ts`), then of each accepted one stored with a glob ' +
      'path scope whose folder holds it (`src/billing/**`, which holds none of the paths it would ' +
      'match: `from` is `glob`, and its chain says so in `scope_warning`), as of `as_of`.',
  },
  {
    why: 'e5a1faa, d530fad: a user, project, session or point written may not start or end with a space or an invisible character (why, which reads, takes one); nor may a point a choice is checked at, as the recommendation that gave it',
    where: /^tools\/list .*\.tools\[(recommend|plan_questions|record_choice|check_decision)\]\.inputSchema\.properties\.(user|project|session_id|point)\.pattern$/,
    refuses: SPACED_OR_INVISIBLE_AT_AN_END,
  },
  {
    why: 'e5a1faa: a decision_id spaced at its ends, or with an invisible character there, is refused, as " d-1" or "d-1\\u200b" sent again as "d-1" counted the choice twice',
    where: /^tools\/list .*\.tools\[record_choice\]\.inputSchema\.properties\.decision_id\.pattern$/,
    refuses: [...SPACED_OR_INVISIBLE_AT_AN_END, 'alice\t'],
  },
  {
    why: 'a decision_id its pattern takes, with an invisible character above U+FFFF at an end, is refused: said in words, as no pattern can',
    where: /^tools\/list .*\.tools\[record_choice\]\.inputSchema\.properties\.decision_id\.description$/,
    captured: 'An idempotency key: the same id recorded twice counts once.',
    now:
      'An idempotency key: the same id recorded twice counts once. No spaces or invisible characters (U+200B, U+2060, …) at its ends, ' +
      'nor a variation selector or tag character at its start, and no lone surrogates; those above U+FFFF (U+1D173–1D17A, U+E0000–E0FFF, …) are said in no pattern.',
  },
  {
    why: "a label's 500 characters are counted once normalised, its \" (Recommended)\" not counted: as sent it may have 1000",
    where: /^tools\/list .*\.(all_options\.items\.anyOf\[0\]|all_options\.items\.anyOf\[1\]\.properties\.label|static_default|user_choice\.anyOf\[0\]|user_choice\.anyOf\[1\]\.items|choice\.anyOf\[0\]|choice\.anyOf\[1\]\.items|options\.anyOf\[0\]\.items\.properties\.label)\.maxLength$/,
    captured: 500,
    now: 1000,
  },
  {
    why: "a label's limit said in words where its maxLength, as sent, cannot say it",
    where: /^tools\/list .*\.(all_options\.description|options\.anyOf\[0\]\.items\.properties\.label\.description)$/,
    captured: /(as AskUserQuestion has them\.|is replaced by the learned one\.)$/,
    now: '$1 At most 500 characters once normalised: a trailing " (Recommended)" and the white space at its ends are not counted, a run of white space inside counts as one (at most 1000 as sent).',
  },
  {
    why: "a label's limit said in words too where a choice is taken, at record_choice and check_decision",
    where: /^tools\/list .*\.(user_choice|choice)\.description$/,
    captured: /(kept as free text \(R-CAP-3\)\.|\(checked together\)\.)$/,
    now: '$1 Each label: At most 500 characters once normalised: a trailing " (Recommended)" and the white space at its ends are not counted, a run of white space inside counts as one (at most 1000 as sent).',
  },
  {
    why: 'a string choice at a point whose latest choice was multi-select is read as its labels, as a recommendation there reads the point: a label recorded alone made a multi-select point single-select',
    where: /^tools\/list .*\[record_choice\]\.inputSchema\.properties\.user_choice\.description$/,
    captured: 'read as labels only with multi_select true or at a point the policy makes multi-select, else kept as free text); ',
    now: 'read as labels only with multi_select true, at a point the policy makes multi-select, or, neither saying, where the latest choice of the user at the point was multi-select, else kept as free text); ',
  },
  {
    why: "check_decision takes a user, the server's by default as the other tools': a string choice at a point neither multi_select nor the policy says is read as the user's latest own choice there was asked, as record_choice stores it (a check of `Lint, E2E tests` after a multi-select answer was allowed where capture stores both)",
    where: /^tools\/list \.result$/,
    // As why's user (a read, the scenario's $DECISION_MEMORY_USER by default), described for the check.
    reads: (captured) => {
      const { tools } = captured as { tools: Array<{ name: string; inputSchema: { properties: Record<string, { description: string }> } }> }
      const user = tools.find((t) => t.name === 'why')?.inputSchema.properties.user
      const check = tools.find((t) => t.name === 'check_decision')
      if (user !== undefined && check !== undefined) check.inputSchema.properties.user = { ...user, description: user.description.replace(/^.*?(?= Default: )/, CHECK_USER) }
      return captured
    },
  },
  {
    why: "check_decision's description says how a one-label choice is read by the user's history",
    where: /^tools\/list .*\.tools\[check_decision\]\.description$/,
    captured: /(e\.g\. to see why a command was blocked\.)$/,
    now: "$1 A one-label `choice` at a point whose question's kind neither `multi_select` nor the policy says is read as the `user`'s latest own choice there was asked, as `record_choice` stores it: after a multi-select one, `Lint, E2E tests` is both options.",
  },
  {
    why: "check_decision takes multi_select: a choice of several options is refused at a single-select question, which the point's policy says where the check does not; and multiSelect for it, as recommend and record_choice do",
    where: /^tools\/list .*\[check_decision\]\.inputSchema\.properties$/,
    adds: {
      multi_select: {
        type: 'boolean',
        description:
          "Whether the question `choice` was made at was multi-select; left out, the point's policy says (and an array is a multi-select choice where it does not). " +
          'Single-select, a `choice` of several options is refused (`multiple_choices`): it is no one choice. ' +
          'Multi-select, one label joined with `, ` as AskUserQuestion gives an answer (`Tier S, Tier M`) is the options it joins, as capture stores it.',
      },
      multiSelect: { type: 'boolean', description: "AskUserQuestion's spelling of `multi_select`, taken as it; give one of the two." },
    },
  },
  {
    why: "a run's task and stage are compared without the white space at their ends, as what is learned reads a context's values",
    where: /^tools\/list .*\.properties\.(task|stage)\.description$/,
    captured: 'apply only when it is given (R-CON-4).',
    now: 'apply only when it is given (R-CON-4), compared without the white space at its ends.',
  },
  {
    why: "a run's path is compared without the white space at its ends, as its task and stage are",
    where: /^tools\/list .*\.properties\.path\.description$/,
    captured: 'without it they are left out (R-CON-4).',
    now: 'without it they are left out (R-CON-4). Compared without the white space at its ends.',
  },
  {
    why: "why gives each link of a decision's chain its own evidence and source, so that why D-038 says why D-007, which it replaced, was chosen",
    where: /^tools\/call .*\.chain\[\d+\]$/,
    adds: { source: null, evidence: [] },
  },
  {
    why: "why names the proposals pending to supersede a link of a decision's chain, so that a reviewer knows a change is pending",
    where: /^tools\/call /,
    having: 'chain',
    adds: { proposals: [] },
  },
  {
    why: "why with key says each link has its own source and evidence, and names the proposals pending (the two entries above)",
    where: /^tools\/list .*\.tools\[why\]\.description$/,
    captured: "With `key`: that decision's supersede chain, rationale and evidence.",
    now:
      "With `key`: that decision's supersede chain, each link with its rationale, source and evidence, and the proposals pending to supersede a link (`proposals`); " +
      'over 16000 characters, the links no longer in force but the one asked without them.',
  },
  {
    why: "why of a key or a file over 16,000 characters is given in brief, each chain once: a chain of 30 versions by key was some 67,000 characters, a folder of 30 records superseding each other some 950,000",
    where: /^tools\/list .*\.tools\[why\]\.description$/,
    captured: 'and those in force scoped to its path, each with its chain.',
    now: 'and those in force scoped to its path, each with its chain; over 16000 characters, each chain once (`chains`) and each decision once (`links`). `left_out` says what is not given and where it is.',
  },
  {
    why: "why of a point gives each decision once and its chains by key, as its whole chain once per version was over Claude Code's tool output limit",
    where: /^tools\/list .*\.tools\[why\]\.description$/,
    captured: 'and the decisions and observations behind it. With `key`:',
    now:
      'and the decisions and observations behind it. A point\'s `chains` name their links by key, each in `decisions` once, those no longer in force ' +
      'without their rationale and evidence; the newest 10 observations are listed; `left_out` says what is not given and where it is. With `key`:',
  },
  {
    why: "why of a point gives each decision once and its chains by key, the newest 10 observations, and says what it leaves out: each decision's whole chain, once per version, was over Claude Code's tool output limit",
    where: /^tools\/call .*\.point_why$/,
    reads: (captured) => briefPointWhy(captured, { commandLine }),
  },
  {
    why: "a label's limit said in words too where a static default or a check's options are taken",
    where: /^tools\/list .*(\.static_default|\[check_decision\]\.inputSchema\.properties\.all_options)\.description$/,
    captured: /(one of `all_options`\.|allows what it keeps\.)$/,
    now: '$1 At most 500 characters once normalised: a trailing " (Recommended)" and the white space at its ends are not counted, a run of white space inside counts as one (at most 1000 as sent).',
  },
  {
    why: '3576317: record_choice asks for the point recommend or plan_questions answered, as the options shown may key another where a required decision took some out',
    where: /^tools\/list .*\.tools\[record_choice\]\.description$/,
    captured: /(or they count twice\.)$/,
    now:
      '$1 Give the `point` that `recommend` or `plan_questions` answered for the question: the options you showed may not be ' +
      'the ones asked about (a required decision can take some out), and without `point` the choice is counted at the point of the options given.',
  },
]

/**
 * A compared answer with the divergences applied, and the entries that changed something. A string
 * schema's `pattern` becomes the probes it accepts (every string schema gets one, as a schema with
 * none accepts them all); `kind` (`tools/list`, `tools/call`, …) starts each path.
 */
function stated(value: unknown, kind: string, divergences: Divergence[], used: Set<Divergence>): unknown {
  const walk = (v: unknown, path: string): unknown => {
    if (typeof v === 'number') {
      const d = divergences.find((d) => d.captured === v && d.where.test(`${kind} ${path}`))
      if (d === undefined) return v
      used.add(d)
      return d.now
    }
    if (typeof v === 'string') {
      let text = v
      for (const d of divergences) {
        if (d.captured === undefined || typeof d.captured === 'number' || !d.where.test(`${kind} ${path}`)) continue
        const next = text.replace(d.captured, String(d.now ?? ''))
        if (next !== text) used.add(d)
        text = next
      }
      return text
    }
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${path}[${typeof x?.name === 'string' ? x.name : i}]`))
    if (v === null || typeof v !== 'object') return v
    const object = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'pattern' && typeof x === 'string' ? x : walk(x, `${path}.${k}`)]))
    for (const d of divergences) {
      if (d.adds === undefined || !d.where.test(`${kind} ${path}`) || (d.having !== undefined && !Object.hasOwn(object, d.having))) continue
      // Only a key the captured object lacks: one it has is compared as it was.
      for (const [k, x] of Object.entries(d.adds)) {
        if (Object.hasOwn(object, k)) continue
        object[k] = walk(x, `${path}.${k}`)
        used.add(d)
      }
    }
    for (const d of divergences) {
      if (d.reads === undefined || !d.where.test(`${kind} ${path}`)) continue
      used.add(d)
      return d.reads(object)
    }
    if (object.type === 'string' && (object.pattern === undefined || typeof object.pattern === 'string')) {
      let probes = accepted(object.pattern as string | undefined)
      for (const d of divergences) {
        if (d.refuses === undefined || !d.where.test(`${kind} ${path}.pattern`)) continue
        const next = probes.filter((p) => !d.refuses?.includes(p))
        if (next.length !== probes.length) used.add(d)
        probes = next
      }
      object.pattern = { accepts: probes }
    }
    return object
  }
  return walk(value, '')
}

/** An answer's shape: its fields, types, required, enums, nesting and values, descriptions and patterns left out. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k, v]) => !((k === 'description' && typeof v === 'string') || k === 'pattern'))
      .map(([k, v]) => [k, shapeOf(v)]),
  )
}

/** The method a captured answer answers, by its id. */
function methodsOf(name: string): Map<string | number, string> {
  const methods = new Map<string | number, string>()
  for (const line of linesOf(name)) {
    if (line.from !== 'client' || line.line === undefined) continue
    const message = JSON.parse(line.line) as { id?: string | number; method?: string }
    if (message.id !== undefined && message.method !== undefined) methods.set(message.id, message.method)
  }
  return methods
}

/** Each answer of a scenario as captured (read through DIVERGENCES) and as our server gives it now, by id. */
async function compared(name: string) {
  const { answers, here, scenario } = await replayOnce(name)
  const methods = methodsOf(name)
  const used = new Set<Divergence>()
  const pairs = [...capturedAnswers(name)].map(([id, answer]) => {
    const kind = methods.get(id) ?? '?'
    return {
      id,
      captured: stated(comparable(answer, scenario.project, here), kind, DIVERGENCES, used),
      now: stated(comparable(answers.get(id), scenario.project, here), kind, [], new Set()),
    }
  })
  return { pairs, used, ids: { replayed: [...answers.keys()], captured: [...capturedAnswers(name).keys()] } }
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

const replays = new Map<string, ReturnType<typeof replay>>()

/** A scenario replayed once for the file's tests. */
function replayOnce(name: string): ReturnType<typeof replay> {
  const known = replays.get(name)
  if (known !== undefined) return known
  const started = replay(name)
  replays.set(name, started)
  return started
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
  it.each(SCENARIOS)('%s: answers every request Claude Code made as it answered then, but for the divergences stated', async (name) => {
    const { pairs, ids } = await compared(name)
    expect(ids.replayed).toEqual(ids.captured)
    for (const { id, captured, now } of pairs) {
      // The shape first, so that a field or type lost reads as such, not as a change of wording.
      expect(shapeOf(now), `answer to ${id}, its shape`).toEqual(shapeOf(captured))
      expect(now, `answer to ${id}`).toEqual(captured)
    }
  })

  it('states no divergence that no longer is one', async () => {
    const used = new Set<Divergence>()
    for (const name of SCENARIOS) for (const d of (await compared(name)).used) used.add(d)
    expect(DIVERGENCES.filter((d) => !used.has(d)).map((d) => d.why)).toEqual([])
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
    const { memory, here, scenario } = await replayOnce('mcp-1-local-scope')
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
