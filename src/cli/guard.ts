import { isAbsolute } from 'node:path'
import type { Readable } from 'node:stream'
import type { Verdict } from '../decisions/constraints'
import { decisionsNamed } from '../decisions/decisions-named'
import { LIMITS } from '../domain/limits'
import { rationalePart, rationaleQuoted, serviceUrlPrefix, withinHookLimit } from '../integrations/hook-text'
import { GUARDED_TOOLS } from '../integrations/shell-tools'
import { abortAfter, authHeaders, barredPortReason, EnvironmentError, envValue, msFlag, msOf, msRefusal, TIMEOUT_FLAG, urlMistakeReason, exitWhenWritten, serviceUrl, serviceUrlProblem, tokenProblem, parseFlags } from './options'
import { commandFolders } from './command-folders'
import { pathInRepository } from '../repository'
import { serviceErrorIn } from './error-envelope'
import { stdinFile } from './stdin-file'
import { readStdinPayload, tooLargeWhy } from './stdin-payload'
import { printable, printableLine } from '../terminal'

export const GUARD_HELP = `decision-memory guard [--fail-closed] [--timeout MS]

  A Claude Code PreToolUse hook for Bash and PowerShell (R-CON-3). Reads the hook payload on stdin,
  asks the service at $DECISION_MEMORY_URL whether the command breaks an accepted required decision
  (POST /v1/decisions/check, with the payload's cwd as the path, relative to the root of its git
  repository when it is in one; a Bash command's parts that a cd takes elsewhere, as in
  \`cd services/billing && rm -rf build\`, are checked where they run too, at once), and prints a PreToolUse "deny" citing the decision when it
  does; when an accepted advisory one does, a note for the agent and the user (additionalContext
  and systemMessage, no permission decision: the command goes on); when an accepted decision was not
  checked because its stored path scope is a glob, which applies to none of the paths it would match,
  and, read as scoped to the glob's folder, would have denied or warned of the command, a note for
  the user (systemMessage) naming it and what to supersede it with; otherwise nothing. It exits 0, also when its stdout is closed before it prints
  (1 for a mistake in its own flags, which Claude Code reports without blocking) and waits at most --timeout (default 1000 ms) for the payload
  (taken once its JSON object has arrived whole, stdin closed or not), then as long for the service: when the service is down or slow it lets the command through and
  says so on stderr, or with --fail-closed refuses it instead.
`

/** How long the guard waits for the service by default: well under Claude Code's patience. */
export const GUARD_TIMEOUT_MS = 1000

/** What the guard says when run by hand in a terminal with no payload piped to it, as the hook says it. */
const TERMINAL_STDIN =
  'stdin is a terminal, not a hook payload: the guard reads one hook payload on stdin, as Claude Code gives it (decision-memory guard < payload.json; see decision-memory guard --help)'

/** What the hook prints: on stdout for Claude Code, on stderr for the person reading logs. */
export interface GuardOutput {
  stdout: string
  stderr: string
}

function deny(reason: string): string {
  return (
    JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: withinHookLimit(reason) },
    }) + '\n'
  )
}

/**
 * An advisory decision's word on a command it does not block (R-CON-1: advisory warns): told to the
 * agent (`additionalContext`) and to the user (`systemMessage`), with no permission decision, so
 * that Claude Code's own permission checks run as they would without the guard. `unchecked`, the
 * decisions not checked for a glob path scope (scopeNote), is told to the user alone: theirs to
 * supersede, and nothing the agent could weigh the command against.
 */
function advise(text: string, unchecked = ''): string {
  const note = text === '' ? '' : withinHookLimit(text)
  const message = withinHookLimit([note, unchecked].filter((part) => part !== '').join(' '))
  const context = note === '' ? {} : { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: note } }
  return JSON.stringify({ systemMessage: message, ...context }) + '\n'
}

/**
 * What the user is told of the decisions a check did not check because their stored path scope is
 * a glob (the verdict's `scope_warnings`, R-CON-4): each one's key and its warning, which says what
 * to supersede it with. The guard said none of it, and a required decision so stored blocked
 * nothing, unsaid, in the folder it was written for.
 */
export function scopeNote(warnings: Array<{ key: string; message: string; where?: string | undefined }>): string {
  return warnings.map((w) => `Decision ${w.key} was not checked${w.where === undefined ? '' : ` (run in ${w.where})`}: ${w.message}.`).join(' ')
}

/**
 * The note of the advisory decisions a command goes against: each one's key, what it says and why
 * (a long rationale by its start, and where the whole is), within what Claude Code shows whole.
 */
export function adviceNote(warnings: Verdict['warnings'], where = ''): string {
  const note = warnings
    .map((v) => `Advisory decision ${v.key} (not enforced): ${v.title}. ${v.message}. Why: ${rationaleQuoted(v.key, v.rationale, where)}`)
    .join(' ')
  return withinHookLimit(note, warnings.map((v) => rationalePart(v.key, v.rationale, where)))
}

/**
 * The reason shown to the agent: each decision that blocks, its key, what it says and why (a long
 * rationale by its start, and where the whole is), within what Claude Code shows whole.
 */
export function denyReason(verdict: Verdict, where = ''): string {
  const reason = verdict.blocked_by
    .map((v) => `Blocked by decision ${v.key} (${v.enforce}): ${v.title}. ${v.message}. Why: ${rationaleQuoted(v.key, v.rationale, where)}`)
    .join(' ')
  return withinHookLimit(reason, verdict.blocked_by.map((v) => rationalePart(v.key, v.rationale, where)))
}

/**
 * The `error.message` of the service's error envelope, or undefined for any other answer; with its
 * control characters shown escaped (printable), as JSON had them, since stderr reaches a terminal.
 */
function serviceErrorMessage(text: string): string | undefined {
  const message = serviceErrorIn(text)?.message
  return typeof message === 'string' ? printable(message) : undefined
}

/**
 * Judges one PreToolUse payload: a shell command (GUARDED_TOOLS) is checked by the service; anything else passes
 * untouched. A service that cannot answer lets the command through (or, fail-closed, refuses it).
 */
export async function guard(input: {
  payload: string
  url: string
  failClosed: boolean
  timeoutMs: number
  /** The bearer token of a service run with --auth (DECISION_MEMORY_TOKEN). */
  token?: string | undefined
  /** stdin was still open at the deadline: `payload` is what had arrived by then. */
  payloadCut?: boolean
  /** More came on stdin than is kept of a payload (PAYLOAD_KEPT_BYTES): `payload` is none. */
  payloadTooLarge?: boolean
  /** stdin is a terminal (run by hand, nothing piped): no payload is coming. */
  payloadFromTerminal?: boolean
  /** Why no address of the service could be made (DECISION_MEMORY_PORT=abc): `url` is then none. */
  addressProblem?: string
  fetch?: typeof fetch
}): Promise<GuardOutput> {
  const doFetch = input.fetch ?? fetch
  const unavailable = (why: string): GuardOutput =>
    input.failClosed
      ? { stdout: deny(`decision-memory cannot check this command (${why}) and the guard is fail-closed`), stderr: `decision-memory guard: ${why}; refusing the command (--fail-closed)\n` }
      : { stdout: '', stderr: `decision-memory guard: ${why}; letting the command through\n` }
  // Past what is kept of one, the rest let go: said so, not called garbage nor late.
  if (input.payloadTooLarge === true) return unavailable(tooLargeWhy('the guard'))
  // Run by hand with nothing piped, said as the hook says it, not as garbage on stdin.
  if (input.payloadFromTerminal === true) return unavailable(TERMINAL_STDIN)
  let event: { hook_event_name?: unknown; tool_name?: unknown; tool_input?: { command?: unknown }; cwd?: unknown }
  try {
    event = JSON.parse(input.payload) as typeof event
  } catch {
    // Cut at the deadline, the payload may be good but late: said so, not called garbage.
    if (input.payloadCut === true) return unavailable(`the hook payload did not arrive on stdin within ${input.timeoutMs} ms (--timeout)`)
    return unavailable('stdin is not a JSON hook payload')
  }
  // An array (`[]`, `[{...}]`) is JSON but no payload, as null is: taken for one, nothing was said
  // and the command let through, with --fail-closed too.
  if (event === null || typeof event !== 'object' || Array.isArray(event)) return unavailable('stdin is not a JSON hook payload')
  if (event.hook_event_name !== 'PreToolUse' || typeof event.tool_name !== 'string' || !GUARDED_TOOLS.includes(event.tool_name)) {
    return { stdout: '', stderr: '' }
  }
  // A shell call always names its command: one without (or with no text there) is a payload the
  // guard cannot read, said as one that is no JSON is, not let through unsaid, --fail-closed too.
  const command = event.tool_input?.command
  if (typeof command !== 'string') {
    const said = command === undefined ? 'no tool_input.command' : `a tool_input.command that is no text (${command === null ? 'null' : Array.isArray(command) ? 'an array' : `a ${typeof command}`})`
    return unavailable(`stdin is a PreToolUse payload of ${event.tool_name} with ${said}, so no command to check`)
  }
  // A command of only white space runs nothing, and the service refuses it as no action: nothing to check, even fail-closed.
  if (command.trim() === '') return { stdout: '', stderr: '' }
  // No http(s) address at all (`localhost:7420`), or one with a password: fetch refuses it unsent,
  // and "not reachable" would send a person looking for the service rather than at the variable,
  // as the hook says it.
  const urlProblem = input.addressProblem ?? serviceUrlProblem(input.url)
  if (urlProblem !== undefined) return unavailable(urlProblem)
  // Nor is the service unreachable when the token is one no header may carry: the variable is said.
  const badToken = tokenProblem({ DECISION_MEMORY_TOKEN: input.token })
  if (badToken !== undefined) return unavailable(badToken)
  const body: { action: string; path?: string } = { action: command }
  if (typeof event.cwd === 'string' && event.cwd !== '') body.path = pathInRepository(event.cwd)
  // The parts a `cd` takes elsewhere (`cd services/billing && rm -rf build`, as Claude Code runs
  // commands from the root), each checked where it runs too: at the cwd alone, a decision scoped
  // to services/billing never met them. The whole command is still checked at the cwd, as before.
  const elsewhere = event.tool_name === 'Bash' && typeof event.cwd === 'string' && isAbsolute(event.cwd) ? checksElsewhere(command, event.cwd, body.path) : { checks: [], notes: [] }
  const checks = [{ body, where: undefined as string | undefined }, ...elsewhere.checks]
  // A command past what the service takes (its action limit, or the body limit for text of many
  // bytes a character) would be refused with a 400 or 413, and so let through: its start is checked
  // instead, which blocks whatever a pattern meets there, and the rest is said to be unchecked.
  const checked = checkableStart(body)
  for (const other of elsewhere.checks) checkableStart(other.body)
  const timeout = abortAfter(input.timeoutMs)
  let results: Array<{ verdict: Verdict; where: string | undefined } | { why: string }>
  try {
    // At once, within the one --timeout: a round trip each in turn could take it several times over.
    results = await Promise.all(checks.map(async (c) => {
      const answer = await checkAt(c.body, { ...input, fetch: doFetch }, timeout.signal)
      return 'why' in answer ? answer : { verdict: answer.verdict, where: c.where }
    }))
  } finally {
    timeout.clear()
  }
  const verdicts = results.filter((r): r is { verdict: Verdict; where: string | undefined } => 'verdict' in r)
  const blocking = verdicts.filter((r) => !r.verdict.allowed)
  // The command's own text, clipped: its control characters shown escaped, as stderr reaches a terminal.
  const notFollowed = elsewhere.notes.length > 0 ? `decision-memory guard: not followed (the command starts in ${body.path ?? 'its cwd'}): ${printable(elsewhere.notes.join('; '))}\n` : ''
  // The command that prints a long rationale whole names the service when a new shell would not find it.
  const where = serviceUrlPrefix(input.url)
  // Whatever else could not be checked, a part a required decision forbids where it runs is refused.
  if (blocking.length > 0) {
    // Each decision once: where the command starts if it blocks there, else the first folder it blocks in.
    const byKey = new Map<string, Verdict['blocked_by'][number]>()
    for (const r of blocking) {
      for (const v of r.verdict.blocked_by) if (!byKey.has(v.key)) byKey.set(v.key, r.where === undefined ? v : { ...v, message: `${v.message} (run in ${r.where})` })
    }
    const blockedBy = [...byKey.values()]
    return { stdout: deny(denyReason({ allowed: false, blocked_by: blockedBy, warnings: [], checked: [] }, where)), stderr: '' }
  }
  const failed = results.find((r): r is { why: string } => 'why' in r)
  if (failed !== undefined) return unavailable(failed.why)
  const verdict: Verdict = { allowed: true, blocked_by: [], warnings: mergedWarnings(verdicts), checked: [...new Set(verdicts.flatMap((r) => r.verdict.checked ?? []))] }
  const unscoped = scopeNote(mergedScopeWarnings(verdicts))
  // An advisory must_not the command matches: let through, and said, whatever else could not be
  // checked (the service marks a pattern left undecided in time: that one only warns on stderr, as
  // a check that could not be made).
  const advisory = (verdict.warnings ?? []).filter((w) => w.enforce === 'advisory' && w.constraint?.kind === 'must_not')
  const met = advisory.filter((w) => w.undecided !== true)
  const undecidedAdvice = advisory.filter((w) => w.undecided === true)
  // The advice met and the decisions left unchecked for a glob scope, when there is either.
  const said = met.length === 0 && unscoped === '' ? '' : advise(met.length === 0 ? '' : adviceNote(met, where), unscoped)
  const adviceLeft =
    undecidedAdvice.length > 0
      ? `decision-memory guard: advisory ${decisionsNamed([...new Set(undecidedAdvice.map((w) => w.key))])} could not be checked against this command in time; letting the command through\n${notFollowed}`
      : notFollowed
  const unchecked = (why: string): GuardOutput => {
    const output = unavailable(why)
    // Let through unchecked, what was checked is still said (the advice it met, the advice it could
    // not decide); refused, the deny says all.
    if (input.failClosed) return output
    return { stdout: said === '' ? output.stdout : said, stderr: output.stderr + adviceLeft }
  }
  if (checked < command.length) {
    return unchecked(`the command is ${command.length} characters long, and only its first ${checked} could be checked (the service takes at most ${LIMITS.actionLength})`)
  }
  // A required decision among the warnings of a command's check: its must_not pattern could not be
  // decided in time (an action meets no other constraint that warns for a required decision). The
  // service cannot tell whether the command is forbidden: said as any other failure to check, and
  // refused when fail-closed.
  const undecided = (verdict.warnings ?? []).filter((w) => w.enforce === 'required')
  if (undecided.length > 0) {
    return unchecked(`required ${decisionsNamed([...new Set(undecided.map((w) => w.key))])} could not be checked against this command in time`)
  }
  return { stdout: said, stderr: adviceLeft }
}

/** The longest `path` POST /v1/decisions/check takes (CheckBody). */
const CHECK_PATH_LENGTH = 1000

/** At most this many cds not followed are said, each: the others are counted. */
const GUARD_MAX_NOTES = 5

/** At most this many folders besides the cwd are checked: the parts of a command in more are checked at the cwd only, and said so. */
export const GUARD_MAX_FOLDERS = 8

/**
 * A check for each folder other than the cwd's that a part of `command` runs in (commandFolders):
 * the parts run there, as written, the ones next to each other with what joins them, the others on
 * lines of their own; and what the guard did not follow, to be said.
 */
export function checksElsewhere(command: string, cwd: string, cwdPath: string | undefined): { checks: Array<{ body: { action: string; path: string }; where: string }>; notes: string[] } {
  const { parts, unfollowed } = commandFolders(command, cwd)
  // The first few said, then how many more: a chain of a thousand `cd "$D"` wrote a line of 100 KB on stderr.
  const notes = unfollowed.length > GUARD_MAX_NOTES ? [...unfollowed.slice(0, GUARD_MAX_NOTES), `${unfollowed.length - GUARD_MAX_NOTES} more not followed`] : [...unfollowed]
  const byPath = new Map<string, Array<{ start: number; end: number; index: number }>>()
  // Each folder looked up on disk once, however many parts run in it.
  const paths = new Map<string, string>()
  let tooMany = false
  let tooLong = false
  for (const [index, part] of parts.entries()) {
    if (part.folder === undefined) continue
    // A folder longer than the cwd by more than the route takes has a path over it (it is under the
    // repository's root as the cwd is, or absolute): refused unread, as looking up one of thousands
    // of folders (`cd a/a/a/…`) walked each above it and took most of a minute, past any --timeout.
    if (part.folder.length > cwd.length + 1 + CHECK_PATH_LENGTH) {
      tooLong = true
      continue
    }
    let path = paths.get(part.folder)
    if (path === undefined) {
      // Each lookup walks the folders above it: a chain of a thousand `cd a` would take seconds.
      if (paths.size >= 4 * GUARD_MAX_FOLDERS) {
        tooMany = true
        continue
      }
      path = pathInRepository(part.folder)
      paths.set(part.folder, path)
    }
    if (path === cwdPath) continue
    // A path the check route refuses (400) would have the whole command let through unchecked.
    if (path.length > CHECK_PATH_LENGTH) {
      tooLong = true
      continue
    }
    const runs = byPath.get(path)
    if (runs === undefined) {
      if (byPath.size >= GUARD_MAX_FOLDERS) {
        tooMany = true
        continue
      }
      byPath.set(path, [{ start: part.start, end: part.end, index }])
      continue
    }
    const last = runs[runs.length - 1] as { start: number; end: number; index: number }
    if (last.index === index - 1) {
      last.end = part.end
      last.index = index
    } else runs.push({ start: part.start, end: part.end, index })
  }
  if (tooLong) notes.push(`a folder whose path is over the ${CHECK_PATH_LENGTH} characters the service takes, so the commands in it are checked where the command starts`)
  if (tooMany) notes.push(`more than ${GUARD_MAX_FOLDERS} folders besides where the command starts, so the commands in the others are checked there`)
  const checks = [...byPath].map(([path, runs]) => ({ body: { action: runs.map((r) => command.slice(r.start, r.end)).join('\n'), path }, where: path }))
  return { checks, notes }
}

/** The warnings of several checks, each decision once: where it was met rather than where it could not be decided. */
function mergedWarnings(verdicts: Array<{ verdict: Verdict; where: string | undefined }>): Verdict['warnings'] {
  const byKey = new Map<string, Verdict['warnings'][number]>()
  const warnings = verdicts.flatMap((r) => (r.verdict.warnings ?? []).map((w) => (r.where === undefined ? w : { ...w, message: `${w.message} (run in ${r.where})` })))
  for (const warning of warnings) {
    const kept = byKey.get(warning.key)
    if (kept === undefined || (kept.undecided === true && warning.undecided !== true)) byKey.set(warning.key, warning)
  }
  return [...byKey.values()]
}

/** The scope warnings of several checks, each decision once: where the command starts if it is warned of there, else the first folder. */
function mergedScopeWarnings(verdicts: Array<{ verdict: Verdict; where: string | undefined }>): Array<{ key: string; message: string; where: string | undefined }> {
  const byKey = new Map<string, { key: string; message: string; where: string | undefined }>()
  for (const r of verdicts) {
    const warnings: unknown = r.verdict.scope_warnings
    if (!Array.isArray(warnings)) continue
    for (const w of warnings as Array<{ key?: unknown; message?: unknown } | null>) {
      // Another program's verdict may hold anything there: only a key and a message are said.
      if (typeof w?.key !== 'string' || typeof w.message !== 'string' || byKey.has(w.key)) continue
      byKey.set(w.key, { key: w.key, message: w.message, where: r.where })
    }
  }
  return [...byKey.values()]
}

/**
 * One `POST /v1/decisions/check` of the guard: the service's verdict, or why there is none (down,
 * slow, a token refused, another server at the URL), as the guard says it.
 */
async function checkAt(
  body: { action: string; path?: string },
  input: { url: string; token?: string | undefined; timeoutMs: number; fetch: typeof fetch },
  signal: AbortSignal,
): Promise<{ verdict: Verdict } | { why: string }> {
  let response: Response
  let text: string
  try {
    response = await input.fetch(`${input.url}/v1/decisions/check`, {
      method: 'POST',
      // Without the token a service run with --auth answers 401, and the guard would let every command through.
      headers: { 'content-type': 'application/json', ...authHeaders({ DECISION_MEMORY_TOKEN: input.token }) },
      body: JSON.stringify(body),
      signal,
    })
    text = await response.text()
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code
    const name = (error as Error).name
    const why = name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${input.timeoutMs} ms` : (cause ?? (error as Error).message)
    // A port fetch will not connect to, an https:// or a host not found: the URL's mistake, not a
    // service down (the hook and the commands say it so).
    const mistake = barredPortReason(error, input.url) ?? urlMistakeReason(error)
    if (mistake !== undefined) return { why: `the service at ${input.url}: ${mistake}` }
    return { why: `the service at ${input.url} is not reachable (${why})` }
  }
  if (response.status === 401) {
    // A token missing, mistyped, or rotated in the tokens file: said as the other commands say it,
    // naming the variable to mend, rather than as the service's JSON.
    const message = serviceErrorMessage(text)
    return {
      why: `the service refused the token (HTTP 401${typeof message === 'string' ? `: ${message.slice(0, 200)}` : ''}); set DECISION_MEMORY_TOKEN to a token of the service's tokens file`,
    }
  }
  // The service always has the check route: a 404 or 405 is the URL's fault (a path in it, another
  // server there), said as the other commands say it rather than as that server's page.
  if (response.status === 404 || response.status === 405) {
    return { why: `${input.url}/v1/decisions/check answered HTTP ${response.status}: is DECISION_MEMORY_URL the service's address, with no path?` }
  }
  // The service's own words (`the service is stopping`), not its JSON envelope with a request id;
  // another program's answer as it came, cut short.
  if (response.status !== 200) {
    const message = serviceErrorMessage(text)
    return { why: `the service answered HTTP ${response.status}: ${(message ?? printable(text)).slice(0, 200)}` }
  }
  let verdict: Verdict
  try {
    verdict = JSON.parse(text) as Verdict
  } catch {
    return { why: 'the service answered something that is not JSON' }
  }
  // Another program at the URL answering {} (a mock server's catch-all) is no verdict: taken for
  // one, every command went through unsaid, with --fail-closed too.
  if (typeof verdict !== 'object' || verdict === null || typeof verdict.allowed !== 'boolean') {
    return { why: `${input.url}/v1/decisions/check answered JSON that is no check's verdict: is DECISION_MEMORY_URL a decision-memory service?` }
  }
  return { verdict }
}

/**
 * Cuts `body.action` to what the service takes: at most its action limit, and a body within its
 * byte limit (with room to spare for the path). Returns the characters kept.
 */
export function checkableStart(body: { action: string; path?: string }): number {
  const bytesAllowed = LIMITS.bodyBytes - 1024
  let kept = Math.min(body.action.length, LIMITS.actionLength)
  for (;;) {
    // A surrogate pair is not split: its lone half would be sent as a character of its own.
    if (kept < body.action.length && /[\ud800-\udbff]/.test(body.action.charAt(kept - 1))) kept -= 1
    const action = body.action.slice(0, kept)
    const bytes = Buffer.byteLength(JSON.stringify({ ...body, action }))
    // Nothing left to cut (a path alone over the limit): the service refuses the empty action,
    // and the command is let through as unchecked, or denied with --fail-closed.
    if (bytes <= bytesAllowed || kept === 0) {
      body.action = action
      return kept
    }
    kept = Math.floor((kept * bytesAllowed) / bytes)
  }
}

/**
 * Reads stdin to its end, or until it holds one whole JSON object (readStdinPayload, as the hook
 * reads its own), or what arrived by the deadline (`cut`: it had not all arrived by then); a
 * terminal, nothing piped, is said so (`terminal`). `stdin` and `fileOf` are a test's to give.
 */
export async function readStdin(
  deadlineMs: number,
  stdin: Readable & { isTTY?: boolean } = process.stdin,
  fileOf: () => ReturnType<typeof stdinFile> = stdinFile,
): Promise<{ text: string; cut: boolean; tooLarge?: boolean; terminal?: boolean }> {
  // A file is read at once (stdinFile): given one on a loaded machine, the guard said the payload
  // had not arrived, and let the command through unchecked.
  // Its byte order mark passed over, as on a pipe (payloadText): saved so by an editor, it was said
  // to be no JSON, and let through unchecked.
  // Over what is kept of a payload, said too large, as on a pipe.
  const file = fileOf()
  if (file !== undefined) return { text: file.text, cut: false, tooLarge: file.tooLarge === true }
  if (stdin.isTTY === true) return { text: '', cut: false, terminal: true }
  // A client that spawns the guard and keeps the pipe open had a whole payload waited on to the
  // end of --timeout, holding up every Bash call by as much: it is taken once it has arrived.
  const read = await readStdinPayload(stdin, deadlineMs)
  // A stdin that cannot be read gave nothing: said as no JSON payload, and let through or refused.
  if (read === undefined) return { text: '', cut: false }
  return { text: read.text, cut: !read.whole, tooLarge: read.tooLarge === true }
}

/**
 * The ms the guard's `--timeout` value gives (GUARD_TIMEOUT_MS when not given), as the guard reads
 * it, install-hooks too (shortGuardTimeouts): a value it does not take is a UsageError. Read by the
 * rule the hook's --budget is (msFlag): decimal digits, where Number() took `0x10` for 16 ms; but a
 * value the guard took so before (timeoutAsBefore: `3e3`, `0x10`, ` 3000`) is still that many ms,
 * said on stderr (guardTimeoutNote): refused, a settings file that held one made the guard exit 1
 * on every call, which Claude Code takes as letting every command run unchecked, --fail-closed too.
 */
export function guardTimeoutMs(value: string | undefined): number {
  if (value === undefined) return GUARD_TIMEOUT_MS
  try {
    return msFlag(value, TIMEOUT_FLAG)
  } catch (error) {
    const before = timeoutAsBefore(value)
    if (before === undefined) throw error
    return before
  }
}

/** The ms Number() read a --timeout as, when it was a whole 1 to 10000 (the guard's rule before msFlag); else undefined. */
function timeoutAsBefore(value: string): number | undefined {
  const ms = Number(value)
  return Number.isInteger(ms) && ms >= 1 && ms <= 10_000 ? ms : undefined
}

/**
 * What the guard says on stderr of a --timeout it reads only as it read one before (timeoutAsBefore),
 * before it checks the command all the same: its refusal's words, the ms taken, and how to write them.
 */
export function guardTimeoutNote(value: string | undefined): string | undefined {
  if (value === undefined || msOf(value, TIMEOUT_FLAG) !== undefined) return undefined
  const before = timeoutAsBefore(value)
  if (before === undefined) return undefined
  return printableLine(`${msRefusal(value, TIMEOUT_FLAG)}; read as ${before} ms, as the guard read it before, so that it still checks commands: write --timeout ${before}`)
}

const GUARD_FLAGS = { 'fail-closed': { type: 'boolean' }, timeout: { type: 'string' } } as const

/**
 * A mistake in the guard's flags as the hook says its own (it prints no help either): a flag of
 * another command as that command's (`--budget is a flag of hook, not of guard`, an entry's flags
 * copied from the hook's), one no command takes with the flags the guard takes, and what it quotes
 * of the settings file escaped, on one line, rather than an escape sequence run in the terminal.
 */
async function flagMistakeWhy(error: unknown): Promise<string> {
  const code = (error as { code?: unknown }).code
  const message = (error as Error).message
  if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return printableLine(message)
  // Loaded only then, as the hook loads it: the guard starts on every Bash call.
  const owned = await (await import('./main')).flagOfOthers('guard', message)
  if (owned !== undefined) return printableLine(owned)
  const flag = /^Unknown option '(.*)'$/s.exec(message)?.[1]
  if (flag === undefined) return printableLine(message)
  const flags = Object.keys(GUARD_FLAGS).map((name) => `--${name}`)
  return printableLine(`${flag} is no flag of guard, nor of any other command: guard takes ${flags.join(' and ')}`)
}

function guardOptions(argv: string[]) {
  const { values } = parseFlags({ args: argv, options: GUARD_FLAGS, strict: true })
  const timeoutMs = guardTimeoutMs(values.timeout)
  // A DECISION_MEMORY_PORT that is no port gives no address: a check that cannot be made, as for a
  // DECISION_MEMORY_URL that is no http address (let through, or refused with --fail-closed), not
  // a mistake in the guard's flags, whose exit 1 Claude Code takes as letting every command run.
  let url = ''
  let addressProblem: string | undefined
  try {
    url = serviceUrl()
  } catch (error) {
    if (!(error instanceof EnvironmentError)) throw error
    addressProblem = error.message
  }
  return { timeoutMs, failClosed: values['fail-closed'] === true, url, addressProblem, token: envValue('DECISION_MEMORY_TOKEN'), timeoutNote: guardTimeoutNote(values.timeout) }
}

/**
 * `decision-memory guard`: exits 0 with the decision in what it prints. A mistake in its own
 * flags exits 1, which Claude Code reports without blocking (2 would block).
 */
export async function guardCommand(argv: string[]): Promise<number> {
  let options: ReturnType<typeof guardOptions>
  try {
    options = guardOptions(argv)
  } catch (error) {
    process.stderr.write(`decision-memory guard: ${await flagMistakeWhy(error)}\n`)
    return 1
  }
  const { timeoutNote, ...checking } = options
  if (timeoutNote !== undefined) process.stderr.write(`decision-memory guard: ${timeoutNote}\n`)
  const stdin = await readStdin(checking.timeoutMs)
  const out = await guard({ payload: stdin.text, payloadCut: stdin.cut, payloadTooLarge: stdin.tooLarge === true, payloadFromTerminal: stdin.terminal === true, ...checking })
  process.stdout.write(out.stdout)
  process.stderr.write(out.stderr)
  // Its answer given: what it gave up on (a DNS lookup) must not hold every Bash call past it.
  exitWhenWritten(0)
  return 0
}
