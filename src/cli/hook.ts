import type { Readable } from 'node:stream'
import { parseArgs } from 'node:util'
import { LIMITS } from '../domain/limits'
import { TrimmedIdentifierSchema } from '../domain/observation'
import { DEFAULT_SERVICE_URL } from '../config/service-address'
import { abortAfter, authHeaders, BUDGET_FLAG, MAX_BUDGET_MS, msFlag, barredPortReason, urlMistakeReason, envValue, exitWhenWritten, homePath, identifierFlag, serviceUrl, serviceUrlProblem, tokenProblem, parseFlags } from './options'
import { linkedFolder, pathInRepository, projectOfFolder, repositoryRoot } from '../repository'
import { issuesText, serviceErrorIn } from './error-envelope'
import { fieldNestedTooDeep, hookBody } from './hook-payload'
import { stdinFile } from './stdin-file'
import { readStdinPayload, tooLargeWhy, type StdinPayload } from './stdin-payload'
import { RECORD_SET_ASIDE, recordSetAsideCommand } from './set-aside'
import { commandLine, optionArgs } from '../config/bin-path'
import { printable, printableLine } from '../terminal'
import { appendToRejected, appendToSpool, drainSpool, holdWhileDelivering, lstatOrNone, notAFile, rejectedFile, spoolFile, type Delivery, type SpooledEvent } from './spool'

export const HOOK_HELP = `decision-memory hook [--user USER] [--spool FILE] [--budget MS]
decision-memory hook --record-set-aside --user USER [--spool FILE]

  The Claude Code command hook (SessionStart, PreToolUse and PostToolUse on AskUserQuestion).
  Reads one hook payload on stdin (taken once its JSON object has arrived whole, stdin closed or
  not), sends it to the service at $DECISION_MEMORY_URL and prints the service's answer. It
  always exits 0, and within its --budget (2 s by default): when the service is down or slow it prints
  nothing, and what it could not deliver (choices, session starts) goes to the spool, delivered
  first by the next call. The project is the root of the git repository the payload's cwd is in
  (the nearest folder holding .git, symbolic links followed; for a linked worktree, its
  repository's main working tree), or the cwd outside one, its symbolic links followed too, but
  a cwd in the folder its session was started in or below it, where Claude Code follows the
  agent's cd, is in that session's project, as a repository's root keeps it (not a session
  started in / or the home folder).

  --user USER    whose choices these are (default $DECISION_MEMORY_USER or "default"); a flag
                 mistake spools the capture, but one that leaves the user in doubt (a name the
                 service would refuse, --user with no value, --usr alice) sets it aside in the
                 spool's .rejected file, never delivered for another user
  --spool FILE   the spool (default $DECISION_MEMORY_SPOOL or ~/.decision-memory/spool.ndjson)
  --budget MS    time from process start to exit (default 2000, at most 60000: a minute, the
                 longest the agent is kept waiting at a question; keep it under the hook entry's
                 "timeout", in seconds)

  --record-set-aside  run by hand, not by Claude Code: records the captures set aside in the
                 spool's .rejected file because the flags left their user in doubt, moving them
                 into the spool as USER's (--user, required) for the next call to deliver. One
                 whose flags named other users, never USER (--usr bob), stays, as do the events
                 the service refused. Reads no payload, sends nothing; prints what it moved and
                 left; exit 0, 2 for a usage mistake, 1 when the files cannot be written
`

/** From the hook's start to its exit, unless --budget says otherwise. */
export const DEFAULT_BUDGET_MS = 2000
/** Kept back from the budget for writing the spool and exiting. */
const EXIT_RESERVE_MS = 400
/** Draining the spool stops this long before the deadline, leaving time for the event at hand. */
const CURRENT_EVENT_RESERVE_MS = 400
/**
 * Kept back from the time a PreToolUse waits when telling the service how long that is
 * (`?wait_ms=`): for writing the answers it gives and their way back. An answer planned later is
 * not given, nor recorded as given, as the hook would have let the question through by then.
 */
const ANSWER_RETURN_MS = 250
/**
 * The header the service sends with the `{}` of a PreToolUse it planned past `?wait_ms=` (the ms it
 * took), as src/http/hooks.ts names it; named here so the hook's bundle does not load the routes.
 */
const LATE_HEADER = 'X-Decision-Memory-Late'
/**
 * The header the service sends with every hook answer, as src/http/hooks.ts names it: an object
 * with it is the service's answer, whatever fields it holds (a later service's too).
 */
export const ANSWER_HEADER = 'X-Decision-Memory-Hook-Answer'
/**
 * Stdin is read even when start-up used the whole budget (a loaded machine): Claude Code has
 * closed it by then, so reading is instant, and the payload can still be spooled.
 */
const STDIN_MIN_MS = 100

/** The hook's stdin: process.stdin, or a stream a test gives in its place. */
export type HookStdin = Readable & { isTTY?: boolean }

/**
 * What the hook says when run by hand in a terminal with no payload piped to it, as the guard
 * says it too: no payload is coming, and it waited out its whole budget.
 */
export const TERMINAL_STDIN =
  'stdin is a terminal, not a hook payload: the hook reads one hook payload on stdin, as Claude Code gives it (decision-memory hook < payload.json; see decision-memory hook --help); nothing is sent or spooled'

/** What the hook says of stdin that is not JSON, or JSON but no object, as the guard says it. */
const NOT_A_PAYLOAD = 'stdin is not a JSON hook payload'

/**
 * What becomes of a PreToolUse's question the service did not plan, said after what kept it, on its
 * line or on one of its own: one wording wherever it is said, a refused token's lines included.
 */
const QUESTION_AS_WRITTEN = 'this question is asked as the agent wrote it (a PreToolUse is not spooled: its answer is of use only while the agent waits)'

async function readStdin(timeoutMs: number, stdin: HookStdin): Promise<StdinPayload | undefined> {
  // Run by hand in a terminal, nothing is piped: said at once, rather than after the budget.
  if (stdin.isTTY === true) throw new Error(TERMINAL_STDIN)
  // A file is read at once (stdinFile): given one, a held-up hook lost the payload unspooled.
  const file = stdin === process.stdin ? stdinFile() : undefined
  if (file !== undefined) return file
  return readStdinPayload(stdin, timeoutMs)
}

/**
 * What stderr says of a payload that had not all arrived when the time to read it ran out (stdin
 * left open, a payload cut short), as the guard says its own: said, not called garbage, nor left
 * unsaid, as it was when the hook exited 0 having neither sent nor spooled it.
 */
function notArrivedWhy(stdin: StdinPayload, within: string): string {
  const bytes = Buffer.byteLength(stdin.text)
  // Past what is kept of one, the rest was let go: no payload to send, whenever stdin closed.
  if (stdin.tooLarge === true) return `${tooLargeWhy('the hook')}: nothing is sent or spooled`
  return stdin.text.trim() === ''
    ? `no hook payload arrived on stdin within ${within}, and stdin was not closed`
    : `the hook payload did not arrive whole on stdin within ${within}: stdin, not closed, held ${bytes} bytes that are not one whole JSON object, so nothing is sent or spooled`
}

/**
 * Whether an event is worth keeping when it cannot be delivered. A PreToolUse is not: its answer
 * only helps while the agent waits, and replaying it later would record auto-answers for a
 * question the user was in fact asked.
 */
function isCapture(payload: unknown): boolean {
  const event = (payload as { hook_event_name?: unknown } | null)?.hook_event_name
  return (event === 'PostToolUse' && isQuestionTool(payload)) || event === 'SessionStart'
}

/**
 * Whether a tool event is of AskUserQuestion, the one tool the service reads (as
 * handleClaudeCodeHook does; named here so the hook's bundle does not load the integration). A hook
 * in a group whose matcher runs for every tool (`*`, `""`, which install-hooks keeps) also gets
 * every Bash, Read and Edit call: those are neither sent (the service would answer `{}`) nor
 * spooled, where a Read's tool_response (a file's content, a `.env`'s secrets) would be kept on
 * disk while the service is down, to be sent later.
 */
function isQuestionTool(payload: unknown): boolean {
  return (payload as { tool_name?: unknown } | null)?.tool_name === 'AskUserQuestion'
}

/** Whether the service does anything with an event: a session start, or an AskUserQuestion call. */
function isForService(payload: unknown): boolean {
  const event = (payload as { hook_event_name?: unknown } | null)?.hook_event_name
  return event === 'SessionStart' || ((event === 'PreToolUse' || event === 'PostToolUse') && isQuestionTool(payload))
}

function isPreToolUse(payload: unknown): boolean {
  return (payload as { hook_event_name?: unknown } | null)?.hook_event_name === 'PreToolUse'
}

function cwdOfPayload(payload: unknown): string | undefined {
  const cwd = (payload as { cwd?: unknown } | null)?.cwd
  return typeof cwd === 'string' && cwd !== '' ? cwd : undefined
}

/**
 * The project of the payload's `cwd`, found on this machine: the root of the git repository it is
 * in, the main working tree's for a linked worktree (projectRoot); outside a repository, the folder
 * a symbolic link in the cwd leads to (linkedFolder), which the service cannot find, as it may run
 * on another machine, and which is sent as the cwd (sentOfPayload); undefined otherwise, the
 * service then taking the cwd as written.
 */
export function projectOfPayload(payload: unknown): string | undefined {
  const cwd = cwdOfPayload(payload)
  return cwd === undefined ? undefined : (projectOfFolder(cwd) ?? linkedFolder(cwd))
}

/**
 * What is sent for a payload: the root of the repository its `cwd` is in as the project
 * (projectOfFolder), sent as ?project=, which the service takes as it is; outside a repository,
 * no project, and the `cwd` as the folder a symbolic link in it leads to (linkedFolder), so that
 * the service takes it as the folder the agent is in, which is of the project of a session
 * started in a folder above it, as `/data/notes/drafts` is of one started in `/home/dev/notes`,
 * a link to `/data/notes`. Sent as ?project=, it was a project of its own, as a repository is.
 */
export function sentOfPayload(payload: unknown): { payload: unknown; project?: string } {
  const cwd = cwdOfPayload(payload)
  const project = cwd === undefined ? undefined : projectOfFolder(cwd)
  if (project !== undefined) return { payload, project }
  const folder = cwd === undefined ? undefined : linkedFolder(cwd)
  return { payload: folder === undefined ? payload : { ...(payload as Record<string, unknown>), cwd: folder } }
}

/**
 * Where the payload's `cwd` is in its checkout (`services/billing`, `.` at its root), as decisions
 * are scoped: sent beside the project, which for a worktree is another folder than the one the
 * cwd is in, so the service cannot find it from the two. Undefined outside a repository.
 */
export function pathOfPayload(payload: unknown): string | undefined {
  const cwd = cwdOfPayload(payload)
  return cwd === undefined || repositoryRoot(cwd) === undefined ? undefined : pathInRepository(cwd)
}

/**
 * The fields of the JSON a command hook prints that Claude Code reads (its hooks reference): the
 * service answers with some of them (`systemMessage`, `hookSpecificOutput`) or none (`{}`).
 */
const HOOK_OUTPUT_FIELDS = new Set(['continue', 'stopReason', 'suppressOutput', 'systemMessage', 'decision', 'reason', 'hookSpecificOutput'])

/**
 * What a body is as JSON: a hook answer (an object holding a hook output field, as the service
 * answers, or nothing, `{}`), another object (a mock or echo server's catch-all: `{"status": "ok"}`,
 * the payload sent back, which hold none), other JSON (an array, a string), or none. A field beside
 * the hook's own (one a later service may add) leaves an answer an answer: taken for no service,
 * every capture it recorded would be spooled and sent again at every call; so does any object sent
 * with the service's ANSWER_HEADER (a later service's `{"added": 1}` in place of `{}`).
 */
function jsonKind(body: string, fromService: boolean): 'answer' | 'object' | 'other' | 'none' {
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch {
    return 'none'
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'other'
  // Said by the service's own header (a service before it sends none, and is read by its fields).
  if (fromService) return 'answer'
  const fields = Object.keys(value)
  const specific: unknown = (value as { hookSpecificOutput?: unknown }).hookSpecificOutput
  if (specific !== undefined && (typeof specific !== 'object' || specific === null || Array.isArray(specific))) return 'object'
  return fields.length === 0 || fields.some((field) => HOOK_OUTPUT_FIELDS.has(field)) ? 'answer' : 'object'
}

/**
 * What the hook prints of the service's answer: the body as it came, or, where it holds fields
 * beside a command hook's (a later service's), those alone. Claude Code checks the JSON a hook
 * prints against the fields it knows and refuses all of it for one more (`Hook JSON output
 * validation failed`): the questions answered, the message, were lost with the field.
 */
function printedAnswer(body: string): string {
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch {
    return body
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return body
  const fields = Object.entries(value)
  const known = fields.filter(([field]) => HOOK_OUTPUT_FIELDS.has(field))
  return known.length === fields.length ? body : JSON.stringify(Object.fromEntries(known))
}

/** The `error.code` of a service's error answer; undefined for any other body. */
function errorCode(body: string): unknown {
  try {
    return (JSON.parse(body) as { error?: { code?: unknown } } | null)?.error?.code
  } catch {
    return undefined
  }
}

/**
 * A refusal in the service's words: its message, each field's issue and the request id to find its
 * log line by, rather than its JSON envelope; another program's answer as it came, cut short (a
 * proxy's error page). Control characters shown escaped, as JSON had them (printable).
 */
function refusal(status: number, body: string): string {
  const error = serviceErrorIn(body)
  if (typeof error?.message !== 'string') return printable(`HTTP ${status}: ${body.slice(0, 200)}`)
  const issues = issuesText(error)
  const code = typeof error.code === 'string' ? ` ${error.code}` : ''
  const id = typeof error.request_id === 'string' ? ` [request ${error.request_id}]` : ''
  return printable(`HTTP ${status}${code}: ${error.message}${issues !== '' ? ` (${issues})` : ''}${id}`)
}

/**
 * What the hook says when the service planned a PreToolUse past the time the hook waits: `took`
 * is the service's LATE_HEADER (its ms), said only when it is a number of ms; `spoolHeld`, what a
 * spooled delivery that took most of the time adds (empty when none did).
 */
function tooLateWhy(took: string, budget: number, spoolHeld: string): string {
  const taken = /^\d{1,9}$/.test(took) ? ` (it took ${took} ms)` : ''
  return (
    `the service answered too late for this hook's --budget of ${budget} ms${taken}${spoolHeld}, so this question is asked as the agent wrote it, nothing in it answered or ordered by your past choices; ` +
    `to give the service more time, raise --budget in the hook's command (at most ${MAX_BUDGET_MS}, and under the hook entry's "timeout", in seconds)`
  )
}

/**
 * What the hook says when its time was spent before the event at hand could be sent (a --budget
 * under what starting node takes, a loaded machine): the service was never asked, so "no answer
 * from the service within the hook's time" sent a person looking at a service that had no time to
 * answer. `ran` is the ms the hook had run by then; `spool`, whether the drain sent anything.
 * It sends only until EXIT_RESERVE_MS before the budget ends (the deadline): a budget no longer
 * than that has its deadline at the start, so nothing is ever sent, and the hook, reading stdin,
 * spooling and exiting, ends past it; "keeps the last 400 ms of its budget" was no truth of `--budget 1`.
 */
function budgetSpentWhy(budget: number, ran: number, url: string, spool: boolean): string {
  const kept =
    budget > EXIT_RESERVE_MS
      ? `and keeps the last ${EXIT_RESERVE_MS} ms of its budget for spooling and exiting, so this event was not sent`
      : `and it sends only until ${EXIT_RESERVE_MS} ms before its budget ends, keeping those for spooling and exiting: a budget of ${EXIT_RESERVE_MS} ms or under ` +
        'leaves it no time to send at all, and the hook ends past it, so this event was not sent'
  return (
    `the hook's --budget of ${budget} ms was spent before the service at ${url} could be asked: the hook had run ${ran} ms by then ` +
    `(${spool ? "node's start and delivering the spool" : "node's start"} included), ${kept}; ` +
    `raise --budget in the hook's command (at most ${MAX_BUDGET_MS}, and under the hook entry's "timeout", in seconds)`
  )
}

/**
 * Whether a capture nested too deep to send is kept in the .rejected file, as a capture the service
 * refuses for good is, for a person to read its answers: when a line can hold it. One nested
 * thousands deep cannot be (JSON.stringify, being recursive, overflows the stack on it).
 */
function keptAside(event: SpooledEvent): boolean {
  if (!isCapture(event.payload)) return false
  try {
    JSON.stringify(event)
    return true
  } catch {
    return false
  }
}

/** Why a payload with `field` nested too deep is not sent, as the service would refuse it. */
function tooDeepWhy(field: string, which: 'the' | 'a spooled'): string {
  return `the service would refuse ${which} payload (${field}: must not nest arrays and objects more than ${LIMITS.nesting} levels deep, counted from the body)`
}

/** `decision-memory hook` (R-CAP-6): never blocks the agent, never loses a choice. */
export async function hookCommand(argv: string[]): Promise<number> {
  // A command of its own, run by a person: its exit codes are a command's, not a hook's (set-aside.ts).
  if (argv.some((arg) => arg === RECORD_SET_ASIDE || arg.startsWith(`${RECORD_SET_ASIDE}=`))) return recordSetAsideCommand(argv)
  try {
    await runHook(argv)
  } catch (error) {
    // Exit code 2 would block the agent's tool call: a broken hook must only say so.
    process.stderr.write(`decision-memory hook: ${(error as Error).message}\n`)
  }
  // Delivered or spooled, and answered: what it gave up on (a DNS lookup) must not hold it past 2 s.
  exitWhenWritten(0)
  return 0
}

/**
 * The ms the hook's `--budget` value gives (DEFAULT_BUDGET_MS when not given), as the hook reads it,
 * install-hooks too (shortTimeouts): a value it does not take throws. Decimal ms only (msFlag, the
 * guard's --timeout's rule too): Number() read `0x10` as 16 ms and `1e9` as a billion.
 */
export function hookBudgetMs(value: string | undefined): number {
  return value === undefined ? DEFAULT_BUDGET_MS : msFlag(value, BUDGET_FLAG)
}

const HOOK_FLAGS = { user: { type: 'string' }, spool: { type: 'string' }, budget: { type: 'string' } } as const

/**
 * A flag no command takes (parseArgs' `Unknown option '--bogus'`), said as the hook's other flag
 * mistakes are (`--on is a flag of toggle, not of hook`), naming the flags the hook takes, the one
 * run by hand too, so that a mistyped `--record-set-asid` is shown the flag it meant: no help
 * follows the hook's line, as one follows a command's. Undefined for another message.
 */
function unknownFlagWhy(message: string): string | undefined {
  const flag = /^Unknown option '(.*)'$/s.exec(message)?.[1]
  if (flag === undefined) return undefined
  const flags = Object.keys(HOOK_FLAGS).map((name) => `--${name}`)
  return `${flag} is no flag of hook, nor of any other command: hook takes ${flags.slice(0, -1).join(', ')} and ${flags.at(-1)} (and, run by hand, ${RECORD_SET_ASIDE})`
}

/**
 * A mistake in the hook's own flags (in the settings file, so in every call) must not lose the
 * user's choices: the capture is spooled as the flags can be read, else as the defaults say, for
 * the next call with its flags mended to deliver.
 */
async function spoolDespiteFlags(argv: string[], input: HookStdin): Promise<void> {
  const stdin = await readStdin(Math.max(DEFAULT_BUDGET_MS - EXIT_RESERVE_MS - performance.now(), STDIN_MIN_MS), input)
  if (stdin === undefined) return
  if (!stdin.whole) {
    process.stderr.write(`decision-memory hook: ${notArrivedWhy(stdin, `${DEFAULT_BUDGET_MS} ms (the default --budget, its flags being mistaken)`)}\n`)
    return
  }
  let payload: unknown
  try {
    payload = JSON.parse(stdin.text)
  } catch {
    return
  }
  // A question is not spooled, as none is: asked as the agent wrote it, said on a line of its own
  // after the one naming the flag, as after a URL at fault, or its fate went unsaid.
  if (isPreToolUse(payload) && isQuestionTool(payload)) {
    process.stderr.write(`decision-memory hook: ${QUESTION_AS_WRITTEN}\n`)
    return
  }
  if (!isCapture(payload)) return
  // One a line can hold is spooled, and set aside in the .rejected file by the call that drains it.
  const deep = fieldNestedTooDeep(payload)
  if (deep !== undefined && !keptAside({ at: '', user: 'default', payload })) {
    process.stderr.write(`decision-memory hook: ${tooDeepWhy(deep, 'the')}: not sent, nor kept\n`)
    return
  }
  const { values, user: known, named } = flagsAsRead(argv)
  const given = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined)
  // A user the service would refuse is no user to spool for: the event would be refused for good
  // when delivered.
  const valid = (value: string | undefined) => {
    const parsed = TrimmedIdentifierSchema.safeParse(value)
    return parsed.success ? parsed.data : undefined
  }
  const user = valid(given(values.user)) ?? valid(envValue('DECISION_MEMORY_USER')) ?? 'default'
  const spool = given(values.spool)
  const file = spool === undefined ? spoolFile() : homePath(spool)
  const event: SpooledEvent = { at: new Date().toISOString(), user, ...sentOfPayload(payload) }
  // Whose choices these are, the flags leave unknown (`--usr alice`, `--user` with no value, or a
  // name refused): spooled for the user the defaults give, they were recorded for that user once
  // the flags were mended, another's choices, for good. Set aside for a person to read instead,
  // as a capture refused for good is, never delivered.
  if (known === undefined || valid(known) === undefined) {
    const notSpooled = `the payload is not spooled: the flags leave whose choices these are in doubt, and spooled for user ${JSON.stringify(user)} it would be recorded as that user's`
    // Not written there (a full disk, a folder of that name, one this account may not write): the
    // error's own words ("EISDIR: illegal operation on a directory, open '…'") said neither that
    // the capture was lost nor why it was not spooled instead.
    try {
      // With the names the flags gave: a forget of alice reaches the capture `--usr alice` set aside.
      await appendToRejected(file, { ...event, user_in_doubt: named })
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (typeof code !== 'string') throw error
      throw new Error(`${notSpooled}, nor kept: cannot write ${rejectedFile(file)} (${code}); make it a file this account can write, on a disk with room`)
    }
    // A command that runs as printed, pasted into a shell: `decision-memory` is on no PATH, and a
    // spool path with a space in it, unquoted, was two words (`Unexpected argument`).
    const record = commandLine(['hook', RECORD_SET_ASIDE, '--user', 'USER', ...optionArgs('--spool', file)])
    process.stderr.write(
      `decision-memory hook: ${notSpooled}; kept in ${rejectedFile(file)}: to record it, run ${record}, USER being whose choices these are; mend the flags to record the next ones\n`,
    )
    return
  }
  await appendToSpool(file, event)
  process.stderr.write(`decision-memory hook: the payload is spooled for user ${JSON.stringify(user)}, for a call with its flags mended to deliver\n`)
}

/**
 * The hook's flags as far as a mistake in them lets them be read, and the user they name, when
 * that is beyond doubt: `--user` given once with a value (not a flag, `--user --spool F` being
 * `--user` with none, and `--spool F`), or not given, with nothing that may stand for it (a word
 * no flag takes, `--usr alice`, `-u alice`, `--usr=alice`): `$DECISION_MEMORY_USER`, else
 * `default`. `user` is undefined when it is in doubt. `named`: every name given for the user, as
 * written: the values of `--user`, else the words that may stand for it, else the user.
 */
function flagsAsRead(argv: string[]): { values: { user?: unknown; spool?: unknown }; user: string | undefined; named: string[] } {
  let args = argv
  let userWithout = false
  for (;;) {
    const { values, tokens } = parseArgs({ args, options: HOOK_FLAGS, strict: false, allowPositionals: true, tokens: true })
    // A flag that took the next flag as its value (`--user --spool F`) is one with no value: read again without it.
    const swallowed = tokens.find((t) => t.kind === 'option' && t.name in HOOK_FLAGS && t.inlineValue === false && t.value?.startsWith('-') === true)
    if (swallowed?.kind === 'option') {
      userWithout ||= swallowed.name === 'user'
      args = args.filter((_, i) => i !== swallowed.index)
      continue
    }
    const users = tokens.filter((t) => t.kind === 'option' && t.name === 'user')
    const standing = tokens.flatMap((t) => (t.kind === 'positional' ? [t.value] : t.kind === 'option' && !(t.name in HOOK_FLAGS) && t.value !== undefined ? [t.value] : []))
    const given = users.flatMap((t) => (t.kind === 'option' && t.value !== undefined ? [t.value] : []))
    const named = given.length > 0 ? given : standing
    if (userWithout || users.length > 1) return { values, user: undefined, named }
    if (users.length === 1) return { values, user: given[0], named }
    if (standing.length > 0) return { values, user: undefined, named }
    const user = envValue('DECISION_MEMORY_USER') ?? 'default'
    return { values, user, named: [user] }
  }
}

/**
 * Whose choices the hook records: --user, else $DECISION_MEMORY_USER, else `default`, checked as
 * the service checks `?user=`: a name it refuses is a mistake in the hook's flags (spooled, said
 * on stderr), not a payload to set aside as refused.
 */
function hookUser(flag: string | undefined): string {
  if (flag !== undefined) return identifierFlag(flag, 'user', undefined, { written: true })
  const variable = envValue('DECISION_MEMORY_USER')
  return variable === undefined ? 'default' : identifierFlag(variable, 'user', 'DECISION_MEMORY_USER', { written: true })
}

/**
 * The hook's work, exit aside (hookCommand): what it cannot do it throws, for hookCommand to say.
 * `input` is its stdin, a stand-in in tests.
 */
export async function runHook(argv: string[], input: HookStdin = process.stdin): Promise<void> {
  let values: { user?: string; spool?: string; budget?: string }
  let budget: number
  let user: string
  try {
    values = parseFlags({ args: argv, options: HOOK_FLAGS, strict: true }).values
    budget = hookBudgetMs(values.budget)
    user = hookUser(values.user)
    // A DECISION_MEMORY_PORT that is no port (set in the environment Claude Code runs in, so wrong
    // in every call) is a mistake of the setup as a flag's is: the capture is spooled, not lost.
    serviceUrl()
  } catch (error) {
    // The hook says its own flag mistakes (it exits 0, R-CAP-6), so main never sees them: a flag of
    // another command is said as that command's, as main says it for the others (`--on is a flag of
    // toggle, not of hook`), and one no command takes as a flag mistake of the hook's too
    // (unknownFlagWhy), not in parseArgs' words. Loaded only then: the hook starts on every agent event.
    const code = (error as { code?: unknown }).code
    const message = (error as Error).message
    const owned = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? ((await (await import('./main')).flagOfOthers('hook', message)) ?? unknownFlagWhy(message)) : undefined
    // What it quotes was typed in the settings file: shown escaped, one line, as main shows the
    // other commands' usage errors, rather than an escape sequence run in the terminal reading it.
    process.stderr.write(`decision-memory hook: ${printableLine(owned ?? message)}\n`)
    await spoolDespiteFlags(argv, input)
    return
  }
  // performance.now() counts from process start, so the budget includes starting node and tsx.
  const deadline = budget - EXIT_RESERVE_MS
  const remaining = () => deadline - performance.now()
  const file = values.spool === undefined ? spoolFile() : homePath(values.spool)

  const stdin = await readStdin(Math.max(remaining(), STDIN_MIN_MS), input)
  if (stdin === undefined) return
  if (!stdin.whole) {
    process.stderr.write(`decision-memory hook: ${notArrivedWhy(stdin, `the hook's time (--budget of ${budget} ms)`)}\n`)
    return
  }
  // Nothing but white space, stdin closed (`decision-memory hook < /dev/null`): no JSON, said as the
  // guard says it, rather than exit unsaid as though a payload had been taken. Claude Code always
  // gives one, so this is said to a person trying the hook by hand, or to the debug log.
  let payload: unknown
  try {
    payload = JSON.parse(stdin.text)
  } catch {
    throw new Error(NOT_A_PAYLOAD)
  }
  // JSON, but no payload (`[]`, `null`, `"x"`, `5`), as the guard says of it: exited 0 unsaid, the
  // spool drained, as though it had been taken.
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new Error(NOT_A_PAYLOAD)
  // An object naming no event (`{}`, run by hand to try the hook, or another tool's format): the
  // service refuses it (400, hook_event_name), and the hook left it unsaid, as another event is.
  const name = (payload as { hook_event_name?: unknown }).hook_event_name
  if (typeof name !== 'string' || name === '') throw new Error(`${NOT_A_PAYLOAD}: it has no hook_event_name, which every hook payload has`)
  const event: SpooledEvent = { at: new Date().toISOString(), user, ...sentOfPayload(payload) }
  // On disk before anything is sent (the spool's drain first): killed past its time, the hook
  // leaves it for the next call, rather than lose a capture it had not yet spooled.
  const held = isCapture(payload) ? await holdWhileDelivering(file, event) : undefined
  const unkept = isCapture(payload) && held === undefined ? lossSaidOnSignal(file, budget) : undefined
  try {
    await deliverOrSpool(file, event, payload, budget, remaining, held !== undefined, unkept)
  } finally {
    unkept?.pause()
    await held?.release()
  }
}

/** Listening for a signal, paused while another listener says what it ends (endedMidDrain). */
interface SignalSaid {
  pause(): void
  resume(): void
}

/**
 * A capture kept nowhere while it is sent (a spool set to a folder or a device, or one nothing can
 * be written beside: holdWhileDelivering): a signal then (Claude Code's SIGTERM to a hook past its
 * entry's `timeout`, a Ctrl-C) ended the hook without a word, the capture lost. Said on stderr,
 * with why it is not kept, and the signal then ends the hook as it would have. Not said unsent: the
 * service may hold the whole request already (a slow service, the commonest reason for the signal),
 * and record it.
 */
function lossSaidOnSignal(file: string, budget: number): SignalSaid {
  const ended = (signal: NodeJS.Signals) => {
    pause()
    const found = lstatOrNone(file)
    const pipe = found === undefined ? undefined : notAFile(found)
    const why =
      found?.isDirectory() === true
        ? `the spool ${file} is a folder: give DECISION_MEMORY_SPOOL or --spool the path of a file in it`
        : found !== undefined && (found.isCharacterDevice() || found.isBlockDevice())
          ? `the spool ${file} is a device, not a file: give DECISION_MEMORY_SPOOL or --spool the path of a file`
          : pipe !== undefined
            ? `the spool ${file} is ${pipe}, not a file: give DECISION_MEMORY_SPOOL or --spool the path of a file`
            : `it could not be written beside the spool ${file} before it was sent: give DECISION_MEMORY_SPOOL or --spool a file in a folder this account can write, on a disk with room`
    const how = signal === 'SIGTERM' ? `, as Claude Code ends a hook past its entry's "timeout" (keep that, in seconds, over the hook's --budget of ${budget} ms)` : ''
    endWith(signal, `decision-memory hook: ended by ${signal} while sending this event${how}: this event, unanswered, is recorded only if the service took it before the signal, and is not kept, as ${why}\n`)
  }
  const pause = () => {
    process.off('SIGTERM', ended)
    process.off('SIGINT', ended)
  }
  const resume = () => {
    process.once('SIGTERM', ended)
    process.once('SIGINT', ended)
  }
  resume()
  return { pause, resume }
}

/** Says `line` on stderr, then lets `signal` end the hook, as it would have with no listener. */
function endWith(signal: NodeJS.Signals, line: string): void {
  process.stderr.write(line)
  process.stderr.write('', () => process.kill(process.pid, signal))
}

/**
 * What a delivery said on stderr of why it did not go through, for the end of the call to say the
 * rest once:
 * - `unsaid`: nothing (no answer in time, nothing listening, a 408, a 429 or a 5xx answered to the
 *   event at hand): the end of the call says why (undeliveredWhy), for a capture with where it went;
 * - `said`: why, on a line of its own (a refusal, a URL at fault, a 5xx answered to a spooled
 *   event), what became of the event at hand left to say;
 * - `said-asked`: why, on one line with the fate of the question at hand (a PreToolUse refused, or
 *   answered by a URL at fault);
 * - `held`: why the capture at hand was not taken (its token refused, a URL at fault), unsaid: said
 *   once it is spooled, on one line with where and what it waits for, rather than on a line of its
 *   own followed by another saying again that it was not taken;
 * - `forbidden`: the event at hand not sent, its user's token refused (403) for a spooled event
 *   above: named on the line saying it is spooled, as that line may be another user's refusal.
 */
type Said =
  | { kind: 'unsaid' }
  | { kind: 'said' }
  | { kind: 'said-asked' }
  | { kind: 'held'; why: string; waiting: string }
  | { kind: 'forbidden'; user: string }
const UNSAID: Said = { kind: 'unsaid' }

/**
 * Delivers the spool, then `event`; spools it, or sets it aside, when it is not delivered.
 * `heldOnDisk`: the event, a capture, is kept beside the spool while it is delivered (holdWhileDelivering).
 */
async function deliverOrSpool(
  file: string,
  event: SpooledEvent,
  payload: unknown,
  budget: number,
  remaining: () => number,
  heldOnDisk = false,
  unkept?: SignalSaid,
): Promise<void> {
  const url = `${serviceUrl()}/v1/hooks/claude-code`

  /**
   * Whether it failed for want of an answer in time (a slow or stuck service), rather than a
   * connection refused: "not reachable" would send a person looking for a service that is in fact
   * running.
   */
  let timedOut = false
  /**
   * The ms the hook had run when it found its time spent before the event at hand could be sent
   * (budgetSpentWhy): not sent, so neither "not reachable" nor "no answer" is true of the service.
   */
  let spentAfter: number | undefined
  /** Why fetch would not even try the service's port (barredPortReason), or what in the URL is wrong (urlMistakeReason), when that is why. */
  let barredPort: string | undefined
  /**
   * The HTTP status of the last answer that did not take the event (a 404 of a URL with a path, a
   * 5xx, a 200 that is not JSON): something answered, so "not reachable" would mislead.
   */
  let answered: number | undefined
  /**
   * The users the token was refused for (403) in this call: their other events are not sent again,
   * each would cost a request for the same 403 (and a stderr line), and a spool of many, when the
   * service is remote, would use every call's drain on them, never reaching the events behind.
   */
  const forbidden = new Set<string>()
  /** What the last delivery said of why it did not go through (Said): set by deliver, read at the end of the call. */
  let said: Said = UNSAID
  /**
   * What stderr says of a token the service refused (401, 403), and what to do: the URL, as the
   * other lines of a service that did not take an event name it.
   */
  const tokenRefusedWhy = (status: 401 | 403, user: string) =>
    status === 401
      ? `the service at ${serviceUrl()} refused the token (HTTP 401: is DECISION_MEMORY_TOKEN set to one of its tokens?)`
      : `the service at ${serviceUrl()} refused the token (HTTP 403: may DECISION_MEMORY_TOKEN act for user ${JSON.stringify(user)}? If not, set --user or DECISION_MEMORY_USER to the token's user)`
  /** What events spooled while DECISION_MEMORY_URL is at fault (a 404, a 405, a page that is not JSON) wait for. */
  const URL_MENDED = 'wait for DECISION_MEMORY_URL to be mended'
  /** The same, after a count (spooledWaiting) that says its verb. */
  const URL_FIXED = 'for DECISION_MEMORY_URL to be mended'
  /**
   * What deliver says of a spooled event while the drain runs, held until it is over (sayHeld): a
   * refusal's line says how many events the drain put back and where, as the line of a service not
   * reachable says it, and that is known only once the drain has put them back. Held in order, so
   * that a line saying `for that reason` after them follows the line it means. Undefined once said.
   */
  let heldLines: Array<() => string> | undefined = []
  /** Whether the drain finished and counted what it put back (waiting, refusedOf): not when it threw. */
  let counted = false
  /**
   * The signal (SIGTERM, SIGINT) that ended the hook mid-drain, as Claude Code ends one past its
   * entry's `timeout`: the held lines are said then (endedMidDrain), in the words of a drain cut
   * short, whose claim keeps what it had not finished with, refused events too, for the next call.
   */
  let endedBy: NodeJS.Signals | undefined
  /** Writes a line of deliver's, or holds it while the drain runs; nothing once a signal ended the hook. */
  const say = (line: () => string) => {
    if (endedBy !== undefined) return
    if (heldLines === undefined) process.stderr.write(`decision-memory hook: ${line()}\n`)
    else heldLines.push(line)
  }
  /**
   * The spooled events refused for good whose claim the drain is not done with yet: each set aside
   * in the .rejected file once the drain is done with the claim it is in (drainSpool's `setAside`).
   */
  let notYetAside: Array<{ aside: boolean }> = []
  /**
   * Where a spooled event refused for good goes, asked as it is refused: set aside in the .rejected
   * file once the drain is done with its claim; ended before, it stays in that claim, and the next
   * call offers it again. A claim done with before the signal (one left by a hook killed mid-drain,
   * taken over first) has set its refused events aside already.
   */
  const setAside = () => {
    const refused = { aside: false }
    notYetAside.push(refused)
    return () =>
      endedBy === undefined || refused.aside ? `set aside in ${rejectedFile(file)}` : `not set aside in ${rejectedFile(file)}, the hook ended first: the next call offers it again`
  }
  /** Writes the lines held while the drain ran, then says the rest at once. */
  const sayHeld = () => {
    const lines = heldLines ?? []
    heldLines = undefined
    for (const line of lines) process.stderr.write(`decision-memory hook: ${line()}\n`)
  }
  /**
   * What a spooled event's refusal says of the events the drain put back: how many, where, and
   * (`forWhat`) what they wait for, as undeliveredWhy says it (`the 2 events spooled in FILE wait
   * for the next call`). Of a user refused 403, `user`: that user's events the drain kept for it,
   * `the event spooled in FILE for "bob" waits for …`, none of which are counted among the others
   * (waiting). Without the count when the drain threw before counting them, the spool named all the same.
   */
  const spooledWaiting = (forWhat: string, user?: string) => () => {
    const count = !counted ? undefined : user === undefined ? waiting : (refusedOf.get(user) ?? 0)
    const whose = user === undefined ? '' : ` for ${JSON.stringify(user)}`
    // Uncounted (the drain threw, or a signal ended it), they are still the spool's, as its other lines name it.
    if (count === undefined || count === 0) return `the events spooled in ${file}${whose} wait ${forWhat}`
    return count === 1 ? `the event spooled in ${file}${whose} waits ${forWhat}` : `the ${count} events spooled in ${file}${whose} wait ${forWhat}`
  }
  /**
   * Says why `e` was not taken, a URL at fault, once: with what becomes of the spooled events, for
   * a spooled one, as a refused token's line says it; held for the line saying where it is
   * spooled, for the event at hand, a capture (`held`); for a PreToolUse, on one line with its
   * question's fate, as a refused token's line says it, rather than that fate on a second line.
   */
  const sayUrlFault = (e: SpooledEvent, spooled: boolean, why: string) => {
    if (spooled) {
      const waits = spooledWaiting(URL_FIXED)
      say(() => `${why}; ${waits()}`)
      said = { kind: 'said' }
    } else if (isCapture(e.payload)) said = { kind: 'held', why, waiting: URL_MENDED }
    else {
      say(() => `${why}; ${QUESTION_AS_WRITTEN}`)
      said = { kind: 'said-asked' }
    }
  }
  /** What becomes of spooled events after such a refusal: they stay in the spool, for a token that will do. */
  const waitingFor = (status: 401 | 403, user: string) =>
    status === 401 ? 'wait for one of its tokens' : `for ${JSON.stringify(user)} wait for a token that may act for that user`
  /**
   * Whether delivering the spool took all but CURRENT_EVENT_RESERVE_MS of the hook's time (a
   * spooled event let go at the drain's end, still unanswered, or the drain stopped for time after
   * deliveries that were answered): a question then planned too late for what was left, or not
   * answered within it, is said so (spoolHeld): "too late for --budget of 2000 ms (it took 200 ms)"
   * alone named a budget the question never had.
   */
  let spoolTookTime = false
  /**
   * How many events the drain put back in the spool, undelivered (none when it could not take the
   * spool, whose line said its events wait; nor those of a user refused 403, whose line said what
   * they wait for): said with the spool's path when the event at hand is
   * not taken either, or a person asking why their choices are not captured learned of this one
   * alone, not of the others waiting, nor for a question, where they wait.
   */
  let waiting = 0
  /** `the event` or `the 3 events`, of `waiting`, and the verb after it. */
  const theWaiting = () => (waiting === 1 ? { events: 'the event', wait: 'waits' } : { events: `the ${waiting} events`, wait: 'wait' })
  /**
   * What stderr adds to a line on time run out, when a spooled delivery took the time
   * (spoolTookTime): with how many it did not deliver, and where they wait, unless the line names
   * the spool after it (`inSpool` false).
   */
  const spoolHeld = (inSpool = true) => {
    if (!spoolTookTime) return ''
    const { events, wait } = theWaiting()
    const left = waiting === 0 ? 'what it did not deliver stays in the spool' : `${events} it did not deliver ${wait}${inSpool ? ` in ${file}` : ''}`
    return `, delivering the spool having taken all but the last ${CURRENT_EVENT_RESERVE_MS} ms of it (${left} for the next call)`
  }
  /**
   * Sends one event, `late` (with `?at=`) or as of now; `spooled`: one the drain took from the spool,
   * which sets it aside when refused for good, as said here, sent late or, its time refused, again as of now.
   */
  async function deliver(e: SpooledEvent, late: boolean, spooled = late): Promise<{ outcome: Delivery; body?: string; tooLate?: string }> {
    said = UNSAID
    spentAfter = undefined
    if (forbidden.has(e.user)) {
      said = { kind: 'forbidden', user: e.user }
      return { outcome: 'deferred' }
    }
    // Refused by the service for good, and, nested thousands deep, no body to send: JSON.stringify
    // threw, read as a service not reachable, and a spooled one held up every event behind it.
    const deep = fieldNestedTooDeep(e.payload)
    if (deep !== undefined) {
      // A PreToolUse's question is asked as written: said here, as after any other refusal of one,
      // since this line is the only one said of it.
      const asked = !spooled && isPreToolUse(e.payload)
      const fate = spooled ? undefined : keptAside(e) ? `kept in ${rejectedFile(file)}` : asked ? `not sent; ${QUESTION_AS_WRITTEN}` : 'not sent, nor kept'
      const aside = spooled ? setAside() : undefined
      say(() => `${tooDeepWhy(deep, spooled ? 'a spooled' : 'the')}: ${fate ?? aside?.()}`)
      said = { kind: asked ? 'said-asked' : 'said' }
      timedOut = false
      return { outcome: 'rejected' }
    }
    // A DECISION_MEMORY_URL fetch would send to, though the service's paths cannot follow it (a
    // query or fragment: `…?x=1/v1/hooks/claude-code` asked `/`, and the 404's line asked for a URL
    // `with no path?`), is sent nothing, as one fetch refuses (no http://, a password) is not: said
    // as the commands say it (undeliveredWhy), the capture spooled for the URL to be mended.
    if (serviceUrlProblem(serviceUrl()) !== undefined) {
      answered = undefined
      timedOut = false
      return { outcome: 'failed' }
    }
    // A spooled event waits no longer than the drain may run: one still in flight at the deadline
    // took the time kept back for the event at hand (CURRENT_EVENT_RESERVE_MS), and a question was
    // never sent, though the service would have planned it at once. Let go, it stays in the spool.
    const wait = Math.floor(remaining() - (spooled ? CURRENT_EVENT_RESERVE_MS : 0))
    if (wait <= 0 && spooled) {
      spoolTookTime = true
      return { outcome: 'deferred' }
    }
    if (wait <= 0) {
      timedOut = false
      spentAfter = Math.round(performance.now())
      answered = undefined
      return { outcome: 'failed' }
    }
    const query = new URLSearchParams({ user: e.user })
    if (late) query.set('at', e.at)
    // The project is the repository, wherever in it the agent's cwd has moved (cd in a Bash call).
    // Spooled by an older hook without one, found now; one it gave, a linked folder too, as it is.
    const sent = e.project === undefined ? sentOfPayload(e.payload) : { payload: e.payload, project: e.project }
    if (sent.project !== undefined) query.set('project', sent.project)
    // Questions are planned with it (PreToolUse, never spooled: the folder is there now).
    const path = isPreToolUse(e.payload) ? pathOfPayload(e.payload) : undefined
    if (path !== undefined) query.set('path', path)
    // The command a PreToolUse answer prints to turn personalization off must find the service from
    // a new shell. Sent with that event alone: a capture is never to be refused for it.
    if (isPreToolUse(e.payload) && serviceUrl() !== DEFAULT_SERVICE_URL) query.set('service_url', serviceUrl())
    // How long this hook waits for the answer: past it, the service records none of the answers it
    // would have given, which the user, asked the question as written, gives or not themself.
    if (isPreToolUse(e.payload)) query.set('wait_ms', String(Math.max(0, wait - ANSWER_RETURN_MS)))
    const timeout = abortAfter(wait)
    try {
      const response = await fetch(`${url}?${query}`, {
        method: 'POST',
        // A service run with --auth refuses a hook without the token (R-SVC-4).
        headers: { 'content-type': 'application/json', ...authHeaders() },
        // A PostToolUse over the body limit goes without what the service never reads (previews).
        body: hookBody(sent.payload),
        signal: timeout.signal,
      })
      const body = await response.text()
      answered = response.status
      // The clock of the machine that spooled it ran more than 5 minutes ahead of the service's (a
      // service on another machine, a clock set right since): the time is refused, not the event,
      // which is sent again as happening now rather than set aside as refused and never learned.
      // Still a spooled one: refused for good then, it is set aside all the same, and said so.
      if (late && response.status === 400 && errorCode(body) === 'timestamp_in_future') return await deliver(e, false, spooled)
      if (response.ok) {
        const kind = jsonKind(body, response.headers.has(ANSWER_HEADER))
        if (kind === 'answer') {
          const tooLate = response.headers.get(LATE_HEADER)
          return { outcome: 'delivered', body, ...(tooLate === null ? {} : { tooLate }) }
        }
        // Another server at the URL (a web server, a proxy's page, a mock's catch-all JSON): it took
        // nothing, and what it said must not reach stdout, which Claude Code shows, or adds to the
        // agent's context. Taken for the service's, a capture was lost unsaid, as the guard refuses
        // JSON that is no check's verdict.
        const what = kind === 'none' ? 'a body that is not JSON' : kind === 'object' ? 'JSON that is no hook answer' : 'JSON that is not an object'
        sayUrlFault(e, spooled, `${url} answered HTTP ${response.status} with ${what} (is DECISION_MEMORY_URL a decision-memory service?)`)
        timedOut = false
        return { outcome: 'failed' }
      }
      // A 4xx will be refused again; 408, 429 and 5xx may pass later, and so may 401 and 403: a
      // token missing or wrong is the setup's fault, not the event's, and is mended by setting
      // DECISION_MEMORY_TOKEN, after which the spool delivers what waited.
      // 404 and 405 too: the service always has its hook route, so either is the URL's fault (a
      // path in DECISION_MEMORY_URL, another server at it), not the event's; once it is mended,
      // what waited in the spool is delivered rather than lost to the rejected file.
      const retried = [401, 403, 404, 405, 408, 429]
      const permanent = response.status >= 400 && response.status < 500 && !retried.includes(response.status)
      // A spooled event refused so is set aside by the drain: said where, or a person reading stderr
      // knows it is gone from the spool and not where to find it (the event at hand, a capture, is
      // said kept in the same file below).
      if (permanent) {
        const refused = refusal(response.status, body)
        const fate = spooled ? setAside() : undefined
        say(() => `the service refused the payload: ${refused}${fate === undefined ? '' : `; ${fate()}`}`)
        said = { kind: 'said' }
      } else if (response.status === 404 || response.status === 405) {
        sayUrlFault(e, spooled, `${url} answered HTTP ${response.status}: is DECISION_MEMORY_URL the service's address, with no path?`)
      } else if (response.status === 401 || response.status === 403) {
        // 401: no token, or one the service does not know, whatever the event's user. 403: either
        // may be wrong, the token or the user the event was captured for (DECISION_MEMORY_USER unset
        // sends `default`, which a developer's token may not act for). What becomes of the event
        // follows the refusal's parenthesis, once: a spooled one stays in the spool; the event at
        // hand, a capture, is said with where it is spooled, after it is (`held`); a PreToolUse
        // is never spooled (isCapture), and saying it waits sent a person looking in the spool for
        // questions that were simply asked.
        const refused = tokenRefusedWhy(response.status, e.user)
        if (spooled) {
          const waits = response.status === 401 ? spooledWaiting('for one of its tokens') : spooledWaiting('for a token that may act for that user', e.user)
          say(() => `${refused}; ${waits()}`)
          said = { kind: 'said' }
        } else if (isCapture(e.payload)) said = { kind: 'held', why: refused, waiting: waitingFor(response.status, e.user) }
        else {
          say(() => `${refused}; ${QUESTION_AS_WRITTEN}`)
          said = { kind: 'said-asked' }
        }
      } else if (spooled) {
        // A 408, a 429 or a 5xx answered to a spooled event stops the drain, and the event at hand
        // is not sent: said here, with what becomes of the spooled events, or the end of the call
        // said of the event at hand "answered HTTP 503 without taking it", an answer it never had.
        // The event at hand's own is left unsaid here, for the end of the call to say with where it went.
        const status = response.status
        const waits = spooledWaiting('for the next call')
        say(() => `${url} answered HTTP ${status} without taking a spooled event; ${waits()}`)
        said = { kind: 'said' }
      }
      timedOut = false
      // A 403 is this event's user's alone (the token may act for others): the drain goes on, so
      // that one user the token may not act for does not hold up every other event, and every
      // later one, for good.
      if (response.status === 403) {
        forbidden.add(e.user)
        return { outcome: 'deferred' }
      }
      return { outcome: permanent ? 'rejected' : 'failed' }
    } catch (error) {
      answered = undefined
      timedOut = timeout.signal.aborted
      // Let go at the drain's end, not failed: kept for the next call, and the event at hand sent in the time left.
      if (spooled && timeout.signal.aborted) {
        spoolTookTime = true
        return { outcome: 'deferred' }
      }
      // A bad port, an https:// or a host not found: the URL's mistake, said as the commands say it.
      barredPort = barredPortReason(error, url) ?? urlMistakeReason(error)
      return { outcome: 'failed' }
    } finally {
      timeout.clear()
    }
  }

  /** How many spooled events the drain offered: none, and a drain stopped for time took none of it. */
  let offered = 0
  /**
   * How many it kept for a user the token was refused for (403): their line said they wait for a
   * token that may act for that user, so they are not counted again as waiting for the next call.
   */
  let refusedUsers = 0
  /** How many of them each such user has: said on the line of that user's refusal (spooledWaiting). */
  const refusedOf = new Map<string, number>()
  /**
   * How many spooled events the service refused for good, each said on its own line: the drain set
   * aside others too, lines that are no event (spooledLines), which only the count tells.
   */
  let refusedForGood = 0
  /**
   * Ended by a signal mid-drain (Claude Code sends SIGTERM to a hook past its entry's `timeout`, a
   * `timeout` under the hook's --budget, which install-hooks warns of): the lines held for the
   * drain's count died with the process, and a refusal went unsaid. They are said as a drain cut
   * short leaves things (no count: it made none; a refused event not yet set aside), with what
   * becomes of the rest, then the signal ends the hook as it would have.
   */
  const endedMidDrain = (signal: NodeJS.Signals) => {
    stopListening()
    endedBy = signal
    sayHeld()
    // A capture at hand is kept beside the spool while it is delivered, unless that could not be written.
    const atHand = !isForService(payload) ? '' : isPreToolUse(payload) ? `; ${QUESTION_AS_WRITTEN}` : heldOnDisk ? ', and so does this event, not sent' : '; this event, not sent, is not kept'
    // SIGTERM is how Claude Code ends a hook past its timeout; SIGINT is a person's Ctrl-C (the hook
    // run by hand, a payload piped to it), which no entry's timeout would have spared.
    const how = signal === 'SIGTERM' ? `, as Claude Code ends a hook past its entry's "timeout" (keep that, in seconds, over the hook's --budget of ${budget} ms)` : ''
    endWith(signal, `decision-memory hook: ended by ${signal} while delivering the spool ${file}${how}: what it had not delivered waits beside the spool, for the next call to take over${atHand}\n`)
  }
  const stopListening = () => {
    process.off('SIGTERM', endedMidDrain)
    process.off('SIGINT', endedMidDrain)
  }
  // The drain's own listener says the event at hand too (atHand): the other is paused meanwhile.
  unkept?.pause()
  process.once('SIGTERM', endedMidDrain)
  process.once('SIGINT', endedMidDrain)
  const drained = await drainSpool(
    file,
    async (e) => {
      offered++
      const { outcome } = await deliver(e, true)
      if (outcome === 'rejected') refusedForGood++
      if (outcome === 'deferred' && forbidden.has(e.user)) {
        refusedUsers++
        refusedOf.set(e.user, (refusedOf.get(e.user) ?? 0) + 1)
      }
      return outcome
    },
    () => remaining() > CURRENT_EVENT_RESERVE_MS,
    () => {
      for (const refused of notYetAside) refused.aside = true
      notYetAside = []
    },
  ).catch((error: NodeJS.ErrnoException) => {
    // A spool that cannot be taken (a folder this account may not write: the rename fails) threw
    // out of the hook: a PreToolUse went unanswered and a capture unsent, though the service was
    // up, in every call. What is spooled stays (a claim taken is taken over once this pid is gone).
    // What deliveries said before, first, without a count the drain never made.
    stopListening()
    sayHeld()
    process.stderr.write(`decision-memory hook: cannot deliver the spool ${file} (${error.code ?? error.message}): its events wait for a call that can; this call's event is sent all the same\n`)
    return { stopped: null }
  })
  // Stopped for time after offering none, the time was gone before the drain began (node's start, a
  // payload slow to arrive on stdin): the spool took none of it, and is not said to.
  if (drained.stopped === 'time' && offered > 0) spoolTookTime = true
  // A drain that threw (its kept events could not be written back, after a 403 too) counted
  // nothing: the line above said its events wait, and none is counted here, where `left` less the
  // events refused 403 was `0 - 1`, said as `the -1 events`. Never below none.
  counted = 'left' in drained
  waiting = 'left' in drained ? Math.max(0, drained.left - refusedUsers) : 0
  stopListening()
  unkept?.resume()
  // Lines no hook could send (a write cut short, JSON that is no event) went to the .rejected file
  // unsaid: a person never learned to look there. Said before the held lines, so that a line
  // saying `for that reason` still follows the one it means.
  const unreadable = 'rejected' in drained ? drained.rejected - refusedForGood : 0
  if (unreadable > 0) {
    const lines = unreadable === 1 ? 'a line of the spool that is no event' : `${unreadable} lines of the spool that are no event`
    process.stderr.write(`decision-memory hook: set aside ${lines} (cut short by a write that stopped partway, or JSON no hook wrote) in ${rejectedFile(file)}, for a person to read\n`)
  }
  // A spool set as a link to a file not there (or a looping one) was moved aside by the claim and
  // kept there, renamed by every later hook: it held no events and is removed, said this once.
  for (const { target, code } of 'removedLinks' in drained ? (drained.removedLinks ?? []) : []) {
    const leads = code === 'ELOOP' ? 'which loops (ELOOP)' : 'which leads to no file (ENOENT)'
    process.stderr.write(
      `decision-memory hook: the spool ${file} was a symbolic link to ${printableLine(target)}, ${leads}: it held no events, and is removed; the spool is a file of its own at ${file} from now on\n`,
    )
  }
  sayHeld()
  // Another tool's event (a matcher for every tool): the spool was given its turn, and that is all.
  // A spooled delivery that went unanswered (nothing listening, a URL fetch will not try, no answer
  // in time) is said with the events left waiting and where, as a capture's or a question's line
  // says it, and as a 401, a 404 or a 5xx answered to a spooled event is said by deliver; said of
  // no event at hand, which is neither sent nor spooled. A drain stopped for time after deliveries
  // that were answered, or before it could send one, says nothing: the service is not at fault.
  if (!isForService(payload)) {
    const unanswered = (drained.stopped === 'failure' && said.kind === 'unsaid') || (spoolTookTime && timedOut)
    if (unanswered && waiting > 0) process.stderr.write(`decision-memory hook: ${undeliveredWhy()}\n`)
    return
  }
  // After a failed delivery the service is down or slow: the event at hand joins the spool at once.
  // When that delivery's own line said why (a token refused, a URL at fault, a 408, a 429 or a
  // 5xx), the event at hand's line says it was not sent for that reason, rather than what the
  // spooled event was answered.
  const notSentForSaid = drained.stopped === 'failure' && said.kind !== 'unsaid'
  const now = drained.stopped === 'failure' ? { outcome: 'failed' as const } : await deliver(event, false)
  if (now.outcome === 'delivered') {
    const body = printedAnswer(now.body ?? '')
    if (body !== '' && body !== '{}') process.stdout.write(body + '\n')
    // A `{}` planned past the time this hook waits is no "nothing to change": Claude Code gets the
    // same nothing, and stderr says why their memory did not answer, and what gives it time (read
    // in Claude Code's debug log: stderr of a hook that exits 0 goes nowhere else, hooks reference).
    if (now.tooLate !== undefined && isPreToolUse(payload)) process.stderr.write(`decision-memory hook: ${tooLateWhy(now.tooLate, budget, spoolHeld())}\n`)
    return
  }
  // Said by deliver: kept aside as any capture refused for good is, but for one nested too deep to write as a line.
  if (now.outcome === 'rejected' && fieldNestedTooDeep(payload) !== undefined) {
    if (keptAside(event)) await appendToRejected(file, event)
    return
  }
  if (now.outcome === 'rejected' && isCapture(payload)) {
    // Refused for good, like a spooled event refused on replay: kept aside for a person to read.
    await appendToRejected(file, event)
    process.stderr.write(`decision-memory hook: kept in ${rejectedFile(file)}\n`)
    return
  }
  // A PreToolUse is not spooled, and the question is asked as the agent wrote it: what kept the
  // service's answer from it is said all the same (a plan slower than the budget, a service down),
  // or personalization stops with nothing said anywhere, while the captures go through. Said on
  // stderr, which Claude Code keeps to its debug log (R-CAP-6: nothing printed when it is down).
  if (now.outcome === 'failed' && isPreToolUse(payload) && said.kind === 'unsaid') {
    process.stderr.write(`decision-memory hook: ${undeliveredWhy()}; ${QUESTION_AS_WRITTEN}\n`)
    return
  }
  // Why said by a delivery's own line, which says nothing of the question: the token refused for a
  // spooled event the drain offered first (the question then not sent, or not sent again for a
  // user refused so), a URL at fault (404, 405, a page that is not JSON) answered to that event
  // (the question itself answered so says its fate on that line, as a capture says where it is
  // spooled), a 408, a 429 or a 5xx answered to that event (the question
  // then not sent), or the question refused for good (a 400, a 413), which is
  // neither spooled nor kept aside. What became of the question is said too, on a line of its
  // own, as a capture refused for good is said kept, and as a PreToolUse refused the token itself
  // says it: the URL, or the refusal, is said once all the same.
  if ((now.outcome === 'failed' || now.outcome === 'deferred' || now.outcome === 'rejected') && isPreToolUse(payload) && (said.kind === 'said' || said.kind === 'forbidden')) {
    process.stderr.write(`decision-memory hook: ${QUESTION_AS_WRITTEN}\n`)
    return
  }
  if ((now.outcome === 'failed' || now.outcome === 'deferred') && isCapture(payload)) {
    // Why it was not taken (its token refused, a URL at fault), said on one line with where it
    // went: spooled, or, when the spool cannot be written, the reason alone, before the line that
    // says it is not kept.
    const held = said
    await appendToSpool(file, event).catch((error: unknown) => {
      if (held.kind === 'held') process.stderr.write(`decision-memory hook: ${held.why}\n`)
      // Not said by a spooled event's line either (the service down, silent, or the budget spent):
      // said here, or "the spool /tmp is a folder: this event is not kept" alone hid that the
      // service was never reached, and a person who mended the spool learned it a call later.
      else if (held.kind !== 'forbidden' && !notSentForSaid) process.stderr.write(`decision-memory hook: ${undeliveredWhy()}\n`)
      throw error
    })
    if (held.kind === 'held') process.stderr.write(`decision-memory hook: ${held.why}; spooled to ${file}, where events ${held.waiting}\n`)
    else if (held.kind === 'forbidden') {
      // Refused 403 for a spooled event of its user: the drain went on past it, so the line above
      // may be another user's refusal, and `for that reason … with them` would point at theirs.
      process.stderr.write(`decision-memory hook: this event for user ${JSON.stringify(held.user)}, not sent as the token was refused for that user above, is spooled to ${file} with that user's events\n`)
    } else if (notSentForSaid) {
      // The token refused for a spooled event, the URL at fault, or the service unable to take it
      // now, said on its line (the drain stopped at a 401, a 404, a 405, a page that is not JSON, a
      // 408, a 429 or a 5xx, or the user is one the token may not act for): this one, not sent, is
      // said spooled on a line of its own, as a PreToolUse's question is said asked as written,
      // the reason said once.
      process.stderr.write(`decision-memory hook: this event, not sent for that reason, is spooled to ${file} with ${waiting === 1 ? 'it' : 'them'}\n`)
    } else if (waiting === 0) process.stderr.write(`decision-memory hook: ${undeliveredWhy()}; spooled to ${file}\n`)
    else {
      // Events were waiting in the spool (the drain stopped at the first, the service down, or let
      // them go for time): said with this one, which joins them, on its one line, the spool named
      // once. Not sent at all when the drain stopped at a failure, as after a 5xx's line.
      const notSent = drained.stopped === 'failure' ? ', not sent for that reason,' : ''
      process.stderr.write(`decision-memory hook: ${undeliveredWhy(false)}; this event${notSent} is spooled to ${file} with ${waiting === 1 ? 'it' : 'them'}\n`)
    }
  }

  /**
   * Why the last delivery did not go through, as stderr says it, then what becomes of the events
   * the drain put back (waiting): how many, what they wait for, and where, unless the line names the
   * spool after it (`inSpool` false). Said once: a reason on time a spooled delivery took says them
   * itself (spoolHeld).
   */
  function undeliveredWhy(inSpool = true): string {
    // No http(s) address at all (`localhost:7420`), or one with a password: fetch refuses it
    // unsent, and "not reachable" would send a person looking for the service rather than at the
    // variable, as the commands say.
    // So is a token no header may carry: fetch is never called, and the service is not at fault.
    const urlProblem = serviceUrlProblem(serviceUrl()) ?? tokenProblem()
    const setWrong = urlProblem ?? (barredPort === undefined ? undefined : `${serviceUrl()}: ${barredPort}`)
    if (timedOut && setWrong === undefined && spentAfter === undefined && spoolTookTime) {
      return `no answer from the service at ${serviceUrl()} within the hook's time (--budget)${spoolHeld(inSpool)}`
    }
    const why =
      setWrong !== undefined
        ? setWrong
        : spentAfter !== undefined
          ? budgetSpentWhy(budget, spentAfter, serviceUrl(), offered > 0)
        : timedOut
          ? `no answer from the service at ${serviceUrl()} within the hook's time (--budget)`
        : answered !== undefined
          ? `${url} answered HTTP ${answered} without taking it`
          : `service not reachable at ${serviceUrl()}`
    if (waiting === 0) return why
    const { events, wait } = theWaiting()
    // A URL, a port or a token set wrong fails the next call alike: they wait for it to be mended.
    const forWhat = setWrong !== undefined ? `for a call that can deliver ${waiting === 1 ? 'it' : 'them'}` : 'for the next call'
    return `${why}; ${events} spooled${inSpool ? ` in ${file}` : ''} ${wait} ${forWhat}`
  }
}
