// Runs the real Claude Code binary against decision-memory's hooks, with a fake Anthropic Messages
// API on 127.0.0.1 that asks an AskUserQuestion, and captures every hook payload Claude Code sends
// (stdin) and what our hook printed (stdout), byte for byte, with what reached the fake API.
// Not run by `npm test` nor .ci/run: the binary is some 400 MB and is not in the repository.
//
//   npm run build && npx tsx scripts/claude-code-e2e.ts /path/to/claude [OUT_DIR [SCENARIO...]]
//
// SCENARIO... runs only the scenarios whose names begin so (`mcp-` for the MCP ones).
//
// Each scenario runs in a temporary git repository whose .claude/settings.json is written by
// `decision-memory install-hooks`, each hook command then wrapped by a capture (capture.mjs, written
// to OUT_DIR) that runs it as written. OUT_DIR (default: a temporary folder) gets, per scenario,
// NN-Event.stdin.json and NN-Event.stdout.txt of every hook call, api.ndjson (every request to the
// fake API), tool-result.txt (the tool_result the model got for the question), claude.stdout.ndjson
// (and claude.stdin.ndjson, what this script answered as the user), the settings install-hooks
// wrote, seed.json (the history sent first, where there is one), scenario.json and export.ndjson
// (what the service stored for the scenario's user).
//
// Plain `claude -p` offers no AskUserQuestion tool (it is enabled in print mode only with a
// permission prompt tool), so scenario 0 shows what that does, and the others run Claude Code as
// the Agent SDK does, `--input-format stream-json --permission-prompt-tool stdio`, where its picker
// is a `can_use_tool` control request this script answers as the user would.
//
// The `mcp-` scenarios check the MCP server instead (no hooks installed): it is added as README
// says, `claude mcp add decision-memory -e DECISION_MEMORY_USER=… -- node BIN mcp` run in the
// repository (its local scope, in ~/.claude.json; `-s project`, its .mcp.json), its command then
// wrapped by mcp-capture.mjs, which saves the folder and environment it was started with
// (mcp-start.json), every line of the protocol both ways (mcp.ndjson) and its stderr; the fake
// model calls its tools one a turn, and tools.json (what Claude Code offered the API of ours) and
// tool-results.json (each call with the tool_result that reached the model) are kept beside.
import { execFileSync, spawn } from 'node:child_process'
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { NO_FORCE_PUSH } from '../test/support/decision-record'
import { selectScenarios } from '../test/support/scenario-selection'
import { spawnService, type RunningService } from '../test/support/spawn-service'
import { parseFlags, readFlags, UsageError } from './flags'

const BIN = fileURLToPath(new URL('../bin/decision-memory.js', import.meta.url))
/** The fake API takes any key; a terminal session asks whether to use one it has not approved. */
const API_KEY = 'sk-ant-api03-fake-0000000000000000000000000000'
const USAGE =
  'usage: npx tsx scripts/claude-code-e2e.ts /path/to/claude [OUT_DIR [SCENARIO...]]  (SCENARIO: run only the scenarios whose names begin with it as whole words: `1` is scenario 1 alone, not 10, `mcp-` the MCP ones)'
// Checked before anything is written or started: a flag it does not know (it takes none but
// --help) or a binary that does not run is said on one line, exit 2.
const { claude, version, argv } = readFlags('claude-code-e2e', () => {
  const { values, positionals } = parseFlags({ allowPositionals: true, options: { help: { type: 'boolean', short: 'h', default: false } } })
  if (values.help) {
    process.stdout.write(`${USAGE}\n`)
    process.exit(0)
  }
  const [claude] = positionals
  if (claude === undefined) throw new UsageError(USAGE)
  let version: string
  try {
    version = execFileSync(claude, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch (error) {
    throw new UsageError(`${claude}: cannot run it as Claude Code (\`${claude} --version\`: ${(error as { code?: unknown }).code ?? (error as Error).message.split('\n')[0]})`)
  }
  return { claude, version, argv: positionals }
})
const out = argv[1] ?? mkdtempSync(join(tmpdir(), 'dm-claude-code-e2e-'))
mkdirSync(out, { recursive: true })
console.log(`${version} → ${out}`)

/** A question the fake model asks, as AskUserQuestion's input. */
interface Scenario {
  name: string
  input?: { questions: Array<{ question: string; header: string; options: Array<{ label: string; description: string }>; multiSelect: boolean }> } | { command: string; description: string }
  /** The tool the fake model calls with `input`: AskUserQuestion unless said. */
  tool?: string
  /** Hooks installed with `install-hooks --guard`, and this decision stored first. */
  guard?: Record<string, unknown>
  /** How Claude Code runs: `-p` alone, as the Agent SDK runs it, or in a terminal (runClaude, runInTerminal). */
  mode: 'print' | 'sdk' | 'tty'
  /**
   * In a terminal: the keys the user presses once the picker is shown (`Enter to select`), one a
   * second (Enter, an arrow: `\r`, `\u001b[B`); none when no picker is expected.
   */
  keys?: string[]
  /**
   * What the user picks when the picker is shown (a `can_use_tool` request), by question text: a
   * label, labels as an array, or labels separated by U+0000, to be joined as Claude Code joins them.
   */
  userPicks?: Record<string, string | string[]>
  /**
   * The MCP server added in the scenario's repository as README says (`local`: `claude mcp add`;
   * `project`: with `-s project`, its .mcp.json), and the fake model's calls, one a turn
   * (`mcp__decision-memory__recommend` for `recommend`; one of Claude Code's own tools, ToolSearch,
   * when `own`), each of ours allowed as a user would when asked.
   */
  mcp?: { scope: 'local' | 'project'; calls: Array<{ tool: string; input: Record<string, unknown>; own?: true }> }
}

/** The MCP server's name, as README adds it: its tools are `mcp__decision-memory__NAME` to the model. */
const MCP_NAME = 'decision-memory'

/** The fake model's calls in a scenario, one a turn: its MCP calls, else its one tool_use. */
function callsOf(scenario: Scenario): Array<{ name: string; input: unknown }> {
  if (scenario.mcp !== undefined) return scenario.mcp.calls.map((c) => ({ name: c.own ? c.tool : `mcp__${MCP_NAME}__${c.tool}`, input: c.input }))
  return [{ name: scenario.tool ?? 'AskUserQuestion', input: scenario.input }]
}

const tier = {
  question: 'Which complexity tier should this SPEC use?',
  header: 'Tier',
  options: [
    { label: 'Tier S', description: 'Small: single pass, no plan document' },
    { label: 'Tier M', description: 'Medium: plan, run, sync with one review' },
    { label: 'Tier L', description: 'Large: full plan with design review' },
  ],
  multiSelect: false,
}
const method = {
  question: 'Which development methodology for this change?',
  header: 'Method',
  options: [
    { label: 'TDD', description: 'Write failing tests first' },
    { label: 'DDD', description: 'Domain model first, tests after' },
  ],
  multiSelect: false,
}
const checks = {
  question: 'Which checks should run before the PR?',
  header: 'Checks',
  options: [
    { label: 'Lint, format', description: 'eslint and prettier in one step' },
    { label: 'Unit "fast" tests', description: 'vitest' },
    { label: 'E2E tests', description: 'playwright, slow' },
  ],
  multiSelect: true,
}

/** 25 choices, one a day up to now (sufficient, p ≥ 0.9: `ask` false), for the scenario's user. */
async function seed(service: RunningService, question: typeof tier | typeof checks, choice: string | string[], project: string, user: string): Promise<void> {
  await post(service, '/v1/observations', observationsOf(question, choice, project, user), 'seeding')
}

/** POSTs `body` to the service, saved in the scenario's `file` (seed.json) first; throws unless it answers 2xx. */
async function post(service: RunningService, path: string, body: unknown, what: string, file = seedFile): Promise<void> {
  appendFileSync(join(out, file), JSON.stringify(body, null, 2) + '\n')
  const response = await fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${await response.text()}`)
}

function observationsOf(question: typeof tier | typeof checks, choice: string | string[], project: string, user: string) {
  const now = Date.now()
  const observations = Array.from({ length: 25 }, (_, i) => ({
    decision_id: `seed-${user}-${question.header}-${i}`,
    question: question.question,
    header: question.header,
    user_choice: choice,
    all_options: question.options.map((o) => o.label),
    multi_select: question.multiSelect,
    user,
    project,
    timestamp: new Date(now - (25 - i) * 86_400_000).toISOString(),
  }))
  return observations
}

/** The decision the MCP scenarios ask of: Tier S refused under src/billing. */
const MCP_DECISION = {
  key: 'D-040',
  title: 'No Tier S for billing changes',
  decision: 'A change under src/billing is planned at Tier M or above.',
  rationale: 'Billing changes broke invoices twice when shipped in a single pass.',
  enforce: 'required',
  status: 'accepted',
  scope: { points: ['complexity-tier'], path: 'src/billing' },
  constraints: [{ kind: 'must_not', option: 'Tier S' }],
}

/** Observations sent to the service first (seed), so that its answer is given for the user. */
type Seeded = Scenario & { seedFor?: (service: RunningService, project: string, user: string) => Promise<void> }
const scenarios: Seeded[] = [
  { name: '0-print-mode', mode: 'print', input: { questions: [tier] } },
  { name: '1-single-no-history', mode: 'sdk', input: { questions: [tier] }, userPicks: { [tier.question]: 'Tier L' } },
  { name: '2-single-auto-resolved', mode: 'sdk', input: { questions: [tier] }, userPicks: { [tier.question]: 'Tier S' }, seedFor: (s, p, u) => seed(s, tier, 'Tier M', p, u) },
  {
    name: '3-multi-auto-resolved',
    mode: 'sdk',
    input: { questions: [checks] },
    userPicks: { [checks.question]: 'E2E tests' },
    seedFor: (s, p, u) => seed(s, checks, ['Lint, format', 'Unit "fast" tests'], p, u),
  },
  // The user picks two labels, one holding ", ", one a double quote: as an array of labels, then as
  // Claude Code's own join (each such label a JSON string), to see what Claude Code makes of each.
  { name: '4-multi-asked-array', mode: 'sdk', input: { questions: [checks] }, userPicks: { [checks.question]: ['Lint, format', 'Unit "fast" tests'] } },
  { name: '5-multi-asked-joined', mode: 'sdk', input: { questions: [checks] }, userPicks: { [checks.question]: 'Lint, format\u0000Unit "fast" tests' } },
  // One question answered for the user, the other asked: `ask` with `answers` for the first.
  {
    name: '6-one-answered-one-asked',
    mode: 'sdk',
    input: { questions: [tier, method] },
    userPicks: { [method.question]: 'DDD' },
    seedFor: (s, p, u) => seed(s, tier, 'Tier M', p, u),
  },
  // The model leaves out multiSelect, which the tool's schema defaults to false (descriptions it requires).
  {
    name: '7-fields-left-out',
    mode: 'sdk',
    input: { questions: [{ question: 'Ship it now?', header: 'Ship', options: [{ label: 'Yes, ship it', description: 'today' }, { label: 'No, wait', description: 'next week' }] } as any] },
    userPicks: { 'Ship it now?': 'Yes, ship it' },
  },
  // In a terminal, Claude Code's own picker: two labels ticked (Enter, Down, Enter), then the
  // Submit tab (Right) and Submit answers (Enter), which joins them as Claude Code does.
  { name: '8-tty-multi-asked', mode: 'tty', input: { questions: [checks] }, keys: ['\r', '\u001b[B', '\r', '\u001b[C', '\r'] },
  { name: '9-tty-single-auto-resolved', mode: 'tty', input: { questions: [tier] }, seedFor: (s, p, u) => seed(s, tier, 'Tier M', p, u) },
  // Method asked (Down, Enter: DDD), Tier answered for the user.
  { name: '10-tty-one-answered-one-asked', mode: 'tty', input: { questions: [tier, method] }, keys: ['\u001b[B', '\r'], seedFor: (s, p, u) => seed(s, tier, 'Tier M', p, u) },
  // The guard (install-hooks --guard): a force push a required decision forbids, run under -p.
  // Last: the decision is the service's, for every scenario after it.
  {
    name: '11-guard-force-push',
    mode: 'print',
    tool: 'Bash',
    input: { command: 'git push --force origin main', description: 'Push the rebased branch' },
    guard: NO_FORCE_PUSH,
  },
  // A question the service cannot take (two options one label once normalised) beside one it can:
  // left as written at PreToolUse, its answer skipped at PostToolUse, said in a systemMessage.
  {
    name: '12-one-question-refused',
    mode: 'sdk',
    input: {
      questions: [
        method,
        {
          question: 'Which tests should run?',
          header: 'Tests',
          options: [
            { label: 'Unit tests', description: 'vitest' },
            { label: 'Unit tests (Recommended)', description: 'vitest, again' },
          ],
          multiSelect: false,
        },
      ],
    },
    userPicks: { [method.question]: 'TDD', 'Which tests should run?': 'Unit tests' },
  },
  // The MCP server under Claude Code, which offers its tools deferred, by name alone: the model
  // loads them with ToolSearch, as Claude Code's prompt tells it to, then calls each as an agent
  // would, the tier's history (25 × Tier M, in this repository's project) and D-040 (no Tier S
  // under src/billing) stored first; then arguments that do not fit (a choice as an object, no
  // options, a field no tool has, key and file together) and a tool the server does not have.
  {
    name: 'mcp-1-local-scope',
    mode: 'sdk',
    mcp: {
      scope: 'local',
      calls: [
        { tool: 'ToolSearch', own: true, input: { query: `select:${['recommend', 'plan_questions', 'record_choice', 'check_decision', 'why'].map((t) => `mcp__${MCP_NAME}__${t}`).join(',')}` } },
        { tool: 'recommend', input: { question: tier.question, header: tier.header, all_options: tier.options } },
        { tool: 'plan_questions', input: { questions: [tier, method] } },
        { tool: 'record_choice', input: { question: method.question, header: method.header, all_options: ['TDD', 'DDD'], user_choice: 'TDD' } },
        { tool: 'check_decision', input: { choice: 'Tier S', point: 'complexity-tier', all_options: ['Tier S', 'Tier M', 'Tier L'], path: 'src/billing/invoice.ts' } },
        { tool: 'why', input: { question: tier.question, header: tier.header, all_options: ['Tier S', 'Tier M', 'Tier L'] } },
        { tool: 'why', input: { key: 'D-040' } },
        { tool: 'why', input: { file: 'src/billing/invoice.ts' } },
        { tool: 'why', input: { file: 'src/missing.ts' } },
        { tool: 'record_choice', input: { question: method.question, all_options: ['TDD', 'DDD'], user_choice: { label: 'TDD' } } },
        { tool: 'recommend', input: { question: tier.question } },
        { tool: 'recommend', input: { question: tier.question, all_options: ['Tier S', 'Tier M', 'Tier L'], decisionId: 'D-040' } },
        { tool: 'why', input: { key: 'D-040', file: 'src/billing/invoice.ts' } },
        { tool: 'forget', input: { user: 'cc-mcp' } },
      ],
    },
    seedFor: async (s, p, u) => {
      await seed(s, tier, 'Tier M', p, u)
      await post(s, '/v1/decisions', MCP_DECISION, 'storing the decision', seedFile.replace('seed.json', 'decision.json'))
    },
  },
  // `claude mcp add -s project`: the server in the repository's .mcp.json, as one committed.
  { name: 'mcp-2-project-scope', mode: 'sdk', mcp: { scope: 'project', calls: [{ tool: 'why', input: { key: 'D-040' } }] } },
  // A tool called before ToolSearch loaded it, right and wrong: what Claude Code does with each.
  {
    name: 'mcp-3-not-loaded',
    mode: 'sdk',
    mcp: {
      scope: 'local',
      calls: [
        { tool: 'why', input: { key: 'D-040' } },
        { tool: 'record_choice', input: { question: method.question, all_options: ['TDD', 'DDD'], user_choice: { label: 'TDD' } } },
      ],
    },
  },
]

// The fake Messages API: a request whose conversation holds fewer tool_use blocks than the scenario
// has calls gets the next call (the scenario's one tool_use, else its MCP calls one a turn); any
// other (the last tool_result's turn, a title, a quota check) a short text. Every request is
// logged, path and body.
let current: Scenario = scenarios[0] as Seeded
/** Where seed() writes what it sent, relative to OUT_DIR: the scenario's seed.json. */
let seedFile = 'seed.json'
let apiLog = join(out, 'api.ndjson')
let toolUses = 0

function sse(res: ServerResponse, events: Array<Record<string, unknown>>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': 'req_fake' })
  for (const event of events) res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`)
  res.end()
}

function answerMessages(body: any, res: ServerResponse): void {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : []
  const offersTool = Array.isArray(body?.tools) && body.tools.some((t: any) => t?.name === 'AskUserQuestion')
  // Asked whether Claude Code offers the tool or not: without it (plain -p), what does it do?
  const made = messages.flatMap((m) => (Array.isArray(m?.content) ? m.content : [])).filter((b: any) => b?.type === 'tool_use').length
  const next = callsOf(current)[made]
  const ask = next !== undefined
  const mcpTools = Array.isArray(body?.tools) ? body.tools.map((t: any) => t?.name).filter((n: unknown) => typeof n === 'string' && n.startsWith('mcp__')) : []
  appendFileSync(apiLog, JSON.stringify({ offersAskUserQuestion: offersTool, ...(current.mcp === undefined ? {} : { offersMcp: mcpTools }), answered: ask ? 'tool_use' : 'text' }) + '\n')
  const model = typeof body?.model === 'string' ? body.model : 'claude-fake'
  const usage = { input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }
  const message = { id: `msg_fake_${Date.now()}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage }
  const id = `toolu_fake${String(++toolUses).padStart(4, '0')}${current.name.replace(/[^a-z0-9]/gi, '')}`
  const block = ask
    ? { start: { type: 'tool_use', id, name: next.name, input: {} }, delta: { type: 'input_json_delta', partial_json: JSON.stringify(next.input) } }
    : { start: { type: 'text', text: '' }, delta: { type: 'text_delta', text: 'Done.' } }
  if (body?.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json' })
    const done = ask ? { type: 'tool_use', id, name: next.name, input: next.input } : { type: 'text', text: 'Done.' }
    res.end(JSON.stringify({ ...message, content: [done], stop_reason: ask ? 'tool_use' : 'end_turn' }))
    return
  }
  sse(res, [
    { type: 'message_start', message },
    { type: 'content_block_start', index: 0, content_block: block.start },
    { type: 'content_block_delta', index: 0, delta: block.delta },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: ask ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } },
    { type: 'message_stop' },
  ])
}

const api = createServer((req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8')
    appendFileSync(apiLog, JSON.stringify({ method: req.method, url: req.url, body: text }) + '\n')
    const path = (req.url ?? '').split('?')[0]
    let body: unknown
    try {
      body = text === '' ? undefined : JSON.parse(text)
    } catch {
      body = undefined
    }
    if (req.method === 'POST' && path === '/v1/messages') return answerMessages(body, res)
    if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
      res.writeHead(200, { 'content-type': 'application/json' })
      return res.end(JSON.stringify({ input_tokens: 10 }))
    }
    res.writeHead(404, { 'content-type': 'application/json' })
    res.end('{}')
  })
})
await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve))
const apiUrl = `http://127.0.0.1:${(api.address() as { port: number }).port}`

// The capture: saves stdin, runs the hook command as written (its words after the folder), saves
// its stdout, and passes stdout, stderr and the exit code on as they came.
const capture = join(out, 'capture.mjs')
writeFileSync(
  capture,
  `import { spawnSync } from 'node:child_process'
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
const [dir, command, ...args] = process.argv.slice(2)
const stdin = readFileSync(0)
let event = 'unknown'
try { event = JSON.parse(stdin.toString('utf8')).hook_event_name } catch {}
const n = String(readdirSync(dir).filter((f) => f.endsWith('.stdin.json')).length + 1).padStart(2, '0')
writeFileSync(join(dir, n + '-' + event + '.stdin.json'), stdin)
const run = spawnSync(command, args, { input: stdin })
writeFileSync(join(dir, n + '-' + event + '.stdout.txt'), run.stdout)
writeFileSync(join(dir, n + '-' + event + '.stderr.txt'), run.stderr)
process.stdout.write(run.stdout)
process.stderr.write(run.stderr)
process.exit(run.status ?? 1)
`,
)

// The MCP server's capture: saves the folder it was started in, its arguments and its environment
// (the names; the values of DECISION_MEMORY_* and MCP_*), runs the command as written with them,
// and saves every line of the protocol, each way, and its stderr, passing all on as they came.
const mcpCapture = join(out, 'mcp-capture.mjs')
writeFileSync(
  mcpCapture,
  `import { spawn } from 'node:child_process'
import { appendFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
const [dir, command, ...args] = process.argv.slice(2)
const shown = Object.fromEntries(Object.entries(process.env).filter(([k]) => /^(DECISION_MEMORY_|MCP_)/.test(k)))
writeFileSync(join(dir, 'mcp-start.json'), JSON.stringify({ cwd: process.cwd(), command, args, env: shown, env_names: Object.keys(process.env).sort() }, null, 2) + '\\n')
const log = (from) => { let pending = ''; return (chunk) => { pending += chunk; let n; while ((n = pending.indexOf('\\n')) >= 0) { appendFileSync(join(dir, 'mcp.ndjson'), JSON.stringify({ at: new Date().toISOString(), from, line: pending.slice(0, n) }) + '\\n'); pending = pending.slice(n + 1) } } }
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] })
const fromClient = log('client')
const fromServer = log('server')
process.stdin.on('data', (c) => { fromClient(c.toString('utf8')); child.stdin.write(c) })
process.stdin.on('end', () => { appendFileSync(join(dir, 'mcp.ndjson'), JSON.stringify({ at: new Date().toISOString(), from: 'capture', stdin: 'closed by the client' }) + '\\n'); child.stdin.end() })
child.stdout.on('data', (c) => { fromServer(c.toString('utf8')); process.stdout.write(c) })
child.stderr.on('data', (c) => { appendFileSync(join(dir, 'mcp.stderr.txt'), c); process.stderr.write(c) })
child.on('exit', (code, signal) => { appendFileSync(join(dir, 'mcp.ndjson'), JSON.stringify({ at: new Date().toISOString(), from: 'capture', exit: code, signal }) + '\\n'); process.exit(code ?? 1) })
for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => { appendFileSync(join(dir, 'mcp.ndjson'), JSON.stringify({ at: new Date().toISOString(), from: 'capture', received: s }) + '\\n'); child.kill(s) })
`,
)

/**
 * What the user picks, as the picker shows the labels (`Tier M (Recommended)` for `Tier M`): an
 * array stays an array; a string of several labels is joined as Claude Code joins them (a label
 * holding ", " or a double quote as a JSON string).
 */
function shownPicks(picks: Record<string, string | string[]>, questions: Array<{ question: string; options: Array<{ label: string }> }>): Record<string, string | string[]> {
  const shown = (question: string, label: string) =>
    questions.find((q) => q.question === question)?.options.find((o) => o.label === label || o.label === `${label} (Recommended)`)?.label ?? label
  const joined = (labels: string[]) => labels.map((l) => (l.includes(', ') || l.includes('"') ? JSON.stringify(l) : l)).join(', ')
  return Object.fromEntries(
    Object.entries(picks).map(([question, pick]) => {
      if (Array.isArray(pick)) return [question, pick.map((l) => shown(question, l))]
      const labels = pick.split('\u0000')
      return [question, labels.length > 1 ? joined(labels.map((l) => shown(question, l))) : shown(question, pick)]
    }),
  )
}

/**
 * Claude Code run as `-p` alone (`print`), which offers no AskUserQuestion tool, or as the Agent
 * SDK runs it (`sdk`): stream-json on stdin too and `--permission-prompt-tool stdio`, under which
 * the tool is offered and its picker is a `can_use_tool` control request, answered here as the
 * user would answer the picker (`userPicks`), the answers in `updatedInput`.
 */
function runClaude(scenario: Scenario, cwd: string, env: NodeJS.ProcessEnv, dir: string): Promise<{ args: string[]; code: number | null; stdout: string; stderr: string }> {
  if (scenario.mode === 'tty') return runInTerminal(scenario, cwd, env)
  const sdk = scenario.mode === 'sdk'
  const args = sdk
    ? ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--permission-prompt-tool', 'stdio']
    : ['-p', 'go', '--output-format', 'stream-json', '--verbose']
  return new Promise((resolve) => {
    const child = spawn(claude as string, args, { cwd, env, stdio: [sdk ? 'pipe' : 'ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let pending = ''
    const send = (line: unknown) => {
      appendFileSync(join(dir, 'claude.stdin.ndjson'), JSON.stringify(line) + '\n')
      child.stdin?.write(JSON.stringify(line) + '\n')
    }
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c
      if (!sdk) return
      pending += c
      let newline: number
      while ((newline = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, newline)
        pending = pending.slice(newline + 1)
        let message: any
        try {
          message = JSON.parse(line)
        } catch {
          continue
        }
        if (message.type === 'control_request' && message.request?.subtype === 'can_use_tool') {
          const input = message.request.input ?? {}
          const picks = shownPicks(scenario.userPicks ?? {}, input.questions ?? [])
          // The MCP server's tools, each allowed once as asked, as a user allows them at the prompt.
          const ours = scenario.mcp !== undefined && String(message.request.tool_name).startsWith(`mcp__${MCP_NAME}__`)
          if (scenario.mcp !== undefined) appendFileSync(join(dir, 'can-use-tool.ndjson'), line + '\n')
          const response =
            message.request.tool_name === 'AskUserQuestion'
              ? { behavior: 'allow', updatedInput: { ...input, answers: { ...input.answers, ...picks } } }
              : ours
                ? { behavior: 'allow', updatedInput: input }
                : { behavior: 'deny', message: 'not in this scenario' }
          send({ type: 'control_response', response: { subtype: 'success', request_id: message.request_id, response } })
        } else if (message.type === 'result') child.stdin?.end()
      }
    })
    child.stderr!.on('data', (c) => (stderr += c))
    if (sdk) {
      send({ type: 'control_request', request_id: 'init-1', request: { subtype: 'initialize', hooks: null } })
      send({ type: 'user', message: { role: 'user', content: 'go' }, parent_tool_use_id: null, session_id: '' })
    }
    const timer = setTimeout(() => child.kill('SIGTERM'), 120_000)
    child.once('close', (code) => {
      clearTimeout(timer)
      resolve({ args, code, stdout, stderr })
    })
  })
}

/** A terminal's screen as text: its escape sequences left out. */
function screenText(raw: string): string {
  return raw.replace(/\u001b\[[0-9;?>]*[a-zA-Z]|\u001b\][^\u0007]*\u0007|\u001b[()][A-Z0-9]/g, '')
}

/**
 * Claude Code in a terminal, as a user runs it (`claude go`), through util-linux `script`, which
 * gives it one: once its picker is shown, the scenario's keys are pressed one a second; the run
 * ends a few seconds after the fake API got its second request (the tool_result's turn), or after
 * 60 s. The screen goes to screen.txt.
 */
function runInTerminal(scenario: Scenario, cwd: string, env: NodeJS.ProcessEnv): Promise<{ args: string[]; code: number | null; stdout: string; stderr: string }> {
  const args = ['go']
  const command = `stty cols 160 rows 50; exec ${JSON.stringify(claude)} go`
  return new Promise((resolve) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd, env: { ...env, TERM: 'xterm-256color' }, stdio: ['pipe', 'pipe', 'pipe'], detached: true })
    let stdout = ''
    let stderr = ''
    let pressed = false
    let ending = false
    const stop = () => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL')
      } catch {
        // gone already
      }
    }
    const end = (ms: number) => {
      if (ending) return
      ending = true
      setTimeout(stop, ms)
    }
    child.stdout.on('data', (c: Buffer) => {
      stdout += c
      if (!pressed && screenText(stdout).includes('Enter to select')) {
        pressed = true
        ;(scenario.keys ?? []).forEach((key, i) => setTimeout(() => child.stdin.write(key), 1500 + i * 1000))
      }
    })
    child.stderr.on('data', (c) => (stderr += c))
    const poll = setInterval(() => {
      const requests = existsSync(apiLog) ? readFileSync(apiLog, 'utf8').split('\n').filter((l) => l.includes('"url":"/v1/messages')).length : 0
      if (requests >= 2) end(4000)
    }, 500)
    const timer = setTimeout(stop, 60_000)
    child.once('close', (code) => {
      clearTimeout(timer)
      clearInterval(poll)
      resolve({ args, code, stdout: screenText(stdout), stderr })
    })
  })
}

/**
 * Adds the MCP server as README says, `claude mcp add [-s project] decision-memory -e
 * DECISION_MEMORY_USER=USER -- node BIN mcp` run in the repository, keeps what it printed
 * (mcp-add.txt) and what it wrote (mcp-config.added.json), then wraps the command it wrote in
 * mcp-capture.mjs, as it stands in ~/.claude.json (local) or .mcp.json (project).
 */
function addMcpServer(scope: 'local' | 'project', repo: string, home: string, env: NodeJS.ProcessEnv, user: string, dir: string): void {
  const args = ['mcp', 'add', ...(scope === 'project' ? ['-s', 'project'] : []), MCP_NAME, '-e', `DECISION_MEMORY_USER=${user}`, '--', 'node', BIN, 'mcp']
  const printed = execFileSync(claude as string, args, { cwd: repo, env, encoding: 'utf8' })
  writeFileSync(join(dir, 'mcp-add.txt'), `$ claude ${args.join(' ')}\n${printed}`)
  const file = scope === 'project' ? join(repo, '.mcp.json') : join(home, '.claude.json')
  const config = JSON.parse(readFileSync(file, 'utf8'))
  const servers = scope === 'project' ? config.mcpServers : config.projects[repo].mcpServers
  writeFileSync(join(dir, 'mcp-config.added.json'), JSON.stringify({ [scope === 'project' ? '.mcp.json' : '~/.claude.json projects[REPO]']: { mcpServers: servers } }, null, 2) + '\n')
  const server = servers[MCP_NAME]
  servers[MCP_NAME] = { ...server, command: process.execPath, args: [mcpCapture, dir, server.command, ...server.args] }
  writeFileSync(file, JSON.stringify(config, null, 2) + '\n')
}

/**
 * From the requests the fake API got: our tools as Claude Code offered them (tools.json, from the
 * first request offering any), and each call the fake model made with the tool_result that came
 * back for it (tool-results.json).
 */
function keepMcpExchanges(dir: string): void {
  const bodies = readFileSync(apiLog, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        return [JSON.parse(JSON.parse(line).body)]
      } catch {
        return []
      }
    })
  const ours = (t: any) => typeof t?.name === 'string' && t.name.startsWith(`mcp__${MCP_NAME}__`)
  const offered = bodies.find((b) => Array.isArray(b.tools) && b.tools.some(ours))
  writeFileSync(join(dir, 'tools.json'), JSON.stringify(offered?.tools.filter(ours) ?? [], null, 2) + '\n')
  // The longest conversation holds every call and every result before it.
  const messages: any[] = bodies.reduce((longest: any[], b) => (Array.isArray(b.messages) && b.messages.length > longest.length ? b.messages : longest), [])
  const blocks = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []))
  const exchanges = blocks
    .filter((b) => b.type === 'tool_use')
    .map((use) => {
      const result = blocks.find((b) => b.type === 'tool_result' && b.tool_use_id === use.id)
      return { tool: use.name, input: use.input, is_error: result?.is_error ?? false, content: result?.content ?? null }
    })
  writeFileSync(join(dir, 'tool-results.json'), JSON.stringify(exchanges, null, 2) + '\n')
}

const data = mkdtempSync(join(tmpdir(), 'dm-cc-data-'))
const service = await spawnService({ dataDir: data })
console.log(`service ${service.url} (data ${service.dataDir}), fake API ${apiUrl}`)

// Whatever fails, the service and the fake API stop, and the data folder goes.
try {
  const only = argv.slice(2)
  for (const scenario of selectScenarios(scenarios, only)) {
    const dir = join(out, scenario.name)
    mkdirSync(dir, { recursive: true })
    current = scenario
    apiLog = join(dir, 'api.ndjson')
    const home = mkdtempSync(join(tmpdir(), 'dm-cc-home-'))
    const repo = mkdtempSync(join(tmpdir(), 'dm-cc-repo-'))
    execFileSync('git', ['init', '-q', repo])
    // A file D-040 (the MCP scenarios') is scoped to, for `why` of a file.
    mkdirSync(join(repo, 'src', 'billing'), { recursive: true })
    writeFileSync(join(repo, 'src', 'billing', 'invoice.ts'), 'export {}\n')
    if (scenario.mcp === undefined) execFileSync(process.execPath, [BIN, 'install-hooks', '--project', repo, ...(scenario.guard === undefined ? [] : ['--guard'])], { stdio: ['ignore', 'inherit', 'inherit'] })
    if (scenario.guard !== undefined) {
      const stored = await fetch(`${service.url}/v1/decisions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(scenario.guard) })
      if (!stored.ok) throw new Error(`storing the decision answered ${stored.status}: ${await stored.text()}`)
      writeFileSync(join(dir, 'decision.json'), JSON.stringify(scenario.guard, null, 2) + '\n')
    }
    const settingsFile = join(repo, '.claude', 'settings.json')
    if (scenario.mcp === undefined) {
      const installed = readFileSync(settingsFile, 'utf8')
      writeFileSync(join(dir, 'settings.installed.json'), installed)
      const settings = JSON.parse(installed)
      for (const groups of Object.values(settings.hooks) as Array<Array<{ hooks: Array<{ command: string }> }>>) {
        for (const group of groups) for (const hook of group.hooks) hook.command = `node "${capture}" "${dir}" ${hook.command}`
      }
      writeFileSync(settingsFile, JSON.stringify(settings, null, 2) + '\n')
    }
    // A user of its own, so that no scenario's choices are another's history.
    const user = `cc-${/^(mcp-)?\d+/.exec(scenario.name)?.[0]}`
    seedFile = join(scenario.name, 'seed.json')
    await scenario.seedFor?.(service, repo, user)
    // A terminal session asks first for a theme, whether to trust the folder and whether to use the
    // API key: answered beforehand, as a user who has run it before has.
    writeFileSync(
      join(home, '.claude.json'),
      JSON.stringify({
        hasCompletedOnboarding: true,
        theme: 'dark',
        customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
        projects: { [repo]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
      }),
    )
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: home,
      ANTHROPIC_BASE_URL: apiUrl,
      ANTHROPIC_API_KEY: API_KEY,
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DECISION_MEMORY_URL: service.url,
      // The MCP server's user is given with -e, as README says: not in Claude Code's environment.
      ...(scenario.mcp === undefined ? { DECISION_MEMORY_USER: user } : {}),
      DECISION_MEMORY_SPOOL: join(home, 'spool.ndjson'),
    }
    if (scenario.mcp !== undefined) addMcpServer(scenario.mcp.scope, repo, home, env, user, dir)
    const run = await runClaude(scenario, repo, env, dir)
    writeFileSync(join(dir, scenario.mode === 'tty' ? 'screen.txt' : 'claude.stdout.ndjson'), run.stdout)
    writeFileSync(join(dir, 'claude.stderr.txt'), run.stderr)
    const exported = execFileSync(process.execPath, [BIN, 'export', '--user', user], { env: { ...process.env, DECISION_MEMORY_URL: service.url }, encoding: 'utf8' })
    writeFileSync(join(dir, 'export.ndjson'), exported)
    // What reached the model for the question: the tool_result of the request that carried it.
    const results = readFileSync(apiLog, 'utf8')
      .split('\n')
      .flatMap((line) => {
        try {
          const body = JSON.parse(JSON.parse(line).body)
          return (body.messages ?? []).flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).filter((b: any) => b.type === 'tool_result')
        } catch {
          return []
        }
      })
    const last = results.at(-1)
    if (last !== undefined) writeFileSync(join(dir, 'tool-result.txt'), typeof last.content === 'string' ? last.content : JSON.stringify(last.content))
    if (scenario.mcp !== undefined) keepMcpExchanges(dir)
    writeFileSync(join(dir, 'scenario.json'), JSON.stringify({ claude_code: version, args: run.args, user, project: repo, service_url: service.url, user_picks: scenario.userPicks ?? null }, null, 2) + '\n')
    const events = readdirSync(dir).filter((f) => f.endsWith('.stdin.json')).map((f) => f.replace(/^\d+-|\.stdin\.json$/g, ''))
    console.log(`${scenario.name}: claude exited ${run.code}, hooks run: ${events.join(', ') || 'none'}; ${dir}`)
    rmSync(home, { recursive: true, force: true })
    rmSync(repo, { recursive: true, force: true })
  }
} finally {
  await service.stop()
  api.close()
  rmSync(data, { recursive: true, force: true })
}
