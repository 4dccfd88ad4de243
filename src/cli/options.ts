import { isIPv6 } from 'node:net'
import { join, resolve } from 'node:path'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { optionArgs, shellWord } from '../config/bin-path'
import { IdentifierSchema, TimestampSchema, timestampIssue, TrimmedIdentifierSchema } from '../domain/observation'
import { DEFAULT_HOST, DEFAULT_PORT } from '../config/service-address'
import { homeFolder } from '../home-folder'
import { ipv4Address } from '../ipv4-address'

/**
 * DECISION_MEMORY_PORT, without the white space around it, as DECISION_MEMORY_URL and _TOKEN (a
 * `\r` kept from a `.env` line refused the port while the URL's was taken); white space alone is unset.
 */
export function envPort(env: NodeJS.ProcessEnv = process.env): number {
  const given = envValue('DECISION_MEMORY_PORT', env)
  const raw = given === undefined ? '' : withoutSurroundingSpace(given)
  return raw === '' ? DEFAULT_PORT : parsePort(raw, 'DECISION_MEMORY_PORT')
}

/** A port from a flag (`--port`) or a variable of the environment (`DECISION_MEMORY_PORT`), named in the error. */
export function parsePort(raw: string, name: string): number {
  // Digits only: Number() reads "" and " " as 0 (any free port) and "0x1f" or "1e3" as numbers.
  const port = /^\d+$/.test(raw) ? Number(raw) : Number.NaN
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    const message = `${name} must be a port number from 0 to 65535, not "${raw}"`
    // A flag is a mistake in the command (its help helps); a variable is one of the environment,
    // which the command's help does not show: the line alone, as for DECISION_MEMORY_URL.
    throw name.startsWith('-') ? new UsageError(message) : new EnvironmentError(message)
  }
  return port
}

/**
 * A variable of the environment, undefined when unset or empty: `DECISION_MEMORY_DATA= cmd` (or a
 * `.env` line left blank) means the default, as it does for the port, the token and the spool.
 */
export function envValue(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env[name]
  return value === undefined || value === '' ? undefined : value
}

/** Whose choices the agent's doorways (the hook, why, MCP) act for: the flag, else $DECISION_MEMORY_USER, else `default`. */
export function agentUser(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  return flag ?? envValue('DECISION_MEMORY_USER', env) ?? 'default'
}

/**
 * A value of the environment without the white space around it (a line end kept from a file, a
 * space after `=`), which is no part of a token or an address: DECISION_MEMORY_TOKEN's and _URL's.
 */
const withoutSurroundingSpace = (value: string) => value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '')

/**
 * The running service the CLI talks to: DECISION_MEMORY_URL, else loopback on the port. Without
 * the white space around it, as the token (a line end or a space kept from a `.env` line, which no
 * address holds: refused, the hook spooled every event); white space alone is unset, as empty is.
 */
export function serviceUrl(env: NodeJS.ProcessEnv = process.env): string {
  const given = envValue('DECISION_MEMORY_URL', env)
  const url = given === undefined ? '' : withoutSurroundingSpace(given)
  return (url === '' ? `http://${DEFAULT_HOST}:${envPort(env)}` : url).replace(/\/+$/, '')
}

/**
 * What is wrong with `url` (DECISION_MEMORY_URL) as the service's address, in words naming the
 * variable; undefined when nothing is. No http(s) address at all (`localhost:7420`): fetch refuses
 * it unsent, and "not reachable" would send a person looking for the service rather than at the
 * variable. One with a user name or password (`http://me:pw@host:7420`, a proxy's basic auth):
 * fetch refuses every request to it ("cannot be constructed from a URL that includes
 * credentials"), so the hook spooled every event as if no service ran, and each message naming the
 * URL printed the password; said once, the password left out, pointing at DECISION_MEMORY_TOKEN.
 * And one no URL can be read from (`http://localhost:74a0`).
 */
export function serviceUrlProblem(url: string): string | undefined {
  // Quoted without what goes before an @ (`me:pw@host:7420`, the scheme forgotten, is no http
  // address, and its password was printed with it), the last one: a password that holds a `/`
  // (which ends the host) or an `@` was quoted from there on.
  const shown = url.replace(/^((?:[a-z][a-z0-9+.-]*:)?\/\/)?.*@/is, '$1…@')
  if (!/^https?:\/\/[^/]/i.test(url)) return `DECISION_MEMORY_URL is "${shown}": give the service's address as http://HOST:PORT`
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    // fetch refuses it as ERR_INVALID_URL (a port of letters, `http://localhost:74a0`), in a message
    // that quotes the URL, password and all; the hook said "not reachable", sending a person
    // looking for a service rather than at the variable. Said by every command, the MCP server at start.
    return `DECISION_MEMORY_URL is "${shown}", which is no address fetch can read (ERR_INVALID_URL): give the service's address as http://HOST:PORT`
  }
  // Paths are joined after it (`${url}/v1/…`): after a query or a fragment they are no path, and
  // every request went to `/` (`no route GET /`), as if the service were not decision-memory. An
  // empty one too (`http://127.0.0.1:7420/?`, `/#`), which the URL's search and hash leave out: a
  // `?` or `#` can only start one, none being allowed before the path.
  const after = url.search(/[?#]/)
  if (parsed.username === '' && parsed.password === '' && after !== -1) {
    return `DECISION_MEMORY_URL is "${shown}", which holds a query or fragment (${url.slice(after)}) the paths of the service would come after: give its address as http://HOST:PORT`
  }
  if (parsed.username === '' && parsed.password === '') return undefined
  return (
    `DECISION_MEMORY_URL holds a user name or password (${parsed.protocol}//…@${parsed.host}), which fetch, the client of the ` +
    `commands and hooks, sends no request with: give the service's address as http://HOST:PORT, and its token in DECISION_MEMORY_TOKEN`
  )
}

/**
 * The data directory: --data, else DECISION_MEMORY_DATA, else `fallback` (./data). An empty --data
 * is refused: resolved, it would be the current directory, and LevelDB would make its files there.
 */
export function dataDirectory(flag: string | undefined, env: NodeJS.ProcessEnv = process.env, fallback = 'data'): string {
  if (flag === '') throw new UsageError('--data is empty: give the data directory, or leave --data out')
  return resolve(homePath(flag ?? envValue('DECISION_MEMORY_DATA', env) ?? fallback))
}

/**
 * A path with a leading `~` (`~`, `~/…`) in the home folder. A shell expands it only at the start
 * of a word: not after `--data=`, nor in a variable set in quotes or in Claude Code's settings
 * `env`, where `~/spool.ndjson` would otherwise be a folder named `~` in the agent's project.
 */
export function homePath(path: string): string {
  if (path === '~') return homeFolder()
  return /^~[/\\]/.test(path) ? join(homeFolder(), path.slice(2)) : path
}

/**
 * A configuration file as the commands read it (--policy, serve's --auth or DECISION_MEMORY_AUTH):
 * a leading `~` in the home folder, as --data's (no shell expands `--policy=~/mine.yaml`, nor the
 * arguments of an MCP server in Claude Code's settings, nor a unit file's Environment=), then
 * resolved against the working folder.
 */
export function configFilePath(flag: string): string {
  return resolve(homePath(flag))
}

/**
 * The bearer token header for a service run with --auth (R-SVC-4): `DECISION_MEMORY_TOKEN`, else
 * nothing. Every command that talks to the service sends it, the hooks included. A token no header
 * may carry (a line break inside it, a control character, one past U+00FF) is refused here, naming
 * the variable: fetch's own refusal quotes the header, token and all, and that reached stderr.
 */
export function authHeaders(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const token = envValue('DECISION_MEMORY_TOKEN', env)
  if (token === undefined) return {}
  const problem = tokenProblem(env)
  if (problem !== undefined) throw new EnvironmentError(problem)
  return { authorization: `Bearer ${withoutSurroundingSpace(token)}` }
}

/**
 * What is wrong with DECISION_MEMORY_TOKEN, in words naming the variable and not quoting it;
 * undefined when nothing is (or it is unset). The hooks say it rather than "not reachable", as
 * they say a DECISION_MEMORY_URL they cannot use (serviceUrlProblem).
 */
export function tokenProblem(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const token = envValue('DECISION_MEMORY_TOKEN', env)
  if (token === undefined) return undefined
  // Only what is inside is checked.
  if (!/[\u0000-\u0008\u000a-\u001f\u007f]|[^\u0000-\u00ff]/.test(withoutSurroundingSpace(token))) return undefined
  return 'DECISION_MEMORY_TOKEN holds a line break, a control character or a character past U+00FF, which no HTTP header may carry: set it to the token alone (not shown here)'
}

/**
 * Ends a Claude Code hook's process with `code` once what it wrote is out, rather than when the
 * event loop empties: a fetch aborted at the hook's deadline stops waiting, but the DNS lookup it
 * started (getaddrinfo, on libuv's threads, which nothing cancels) runs on to the resolver's own
 * timeout, 5 s and more when the resolver cannot be reached (a service named by host, a VPN
 * down), and holds the process until then: past the entry's timeout (5 s), Claude Code kills it
 * and reports a hook error, and every question or Bash call it runs for waits that long.
 */
export function exitWhenWritten(code: number): void {
  const exit = () => process.stderr.write('', () => process.exit(code))
  // A turn later: an answer that could not be written (ENOSPC) is said on stderr by the 'error'
  // handler, which runs after the write's callback.
  process.stdout.write('', () => setImmediate(exit))
}

/**
 * An abort signal that fires after `ms`, with a timer that keeps the process alive meanwhile.
 * AbortSignal.timeout's timer does not: a fetch that never settles (undici, on a connection the
 * far side resets before answering) then leaves nothing to wait for, and node exits at once with
 * code 13 (unsettled top-level await), past every catch and finally of the command.
 */
export function abortAfter(ms: number): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), ms)
  return { signal: controller.signal, clear: () => clearTimeout(timer) }
}

/**
 * The ports fetch will not connect to, the "bad ports" of the Fetch standard (§ port blocking),
 * as Node's fetch (undici) bars them: kept for protocols other than HTTP.
 */
const FETCH_BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113,
  115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556,
  563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667,
  6668, 6669, 6679, 6697, 10080,
])

/** Whether fetch, the client of the commands and hooks, refuses to connect to `port` (barredPortReason). */
export function isFetchBarredPort(port: number): boolean {
  return FETCH_BAD_PORTS.has(port)
}

/**
 * Why fetch would not connect, when the URL's port is one the Fetch standard bars (6000, 10080,
 * and others kept for other protocols); else undefined. `serve` listens there and curl reaches
 * it, but fetch refuses before connecting, saying only "bad port": every command would fail with
 * that, and the hook spool every event as if no service ran.
 */
export function barredPortReason(error: unknown, url: string): string | undefined {
  const cause = (error as { cause?: { message?: unknown } } | null)?.cause
  if (cause?.message !== 'bad port') return undefined
  return barredPortSaid(new URL(url).port)
}

function barredPortSaid(port: string): string {
  return `port ${port} is one that fetch, the client of the commands and hooks, will not connect to (a "bad port" of the Fetch standard); run the service on another (serve --port, DECISION_MEMORY_PORT)`
}

/**
 * The same, known from the URL alone, before any request (`mcp` at start): undefined for a URL
 * whose port fetch connects to, or that is no URL (serviceUrlProblem says that).
 */
export function barredPortProblem(url: string): string | undefined {
  let port: string
  try {
    port = new URL(url).port
  } catch {
    return undefined
  }
  return port !== '' && isFetchBarredPort(Number(port)) ? barredPortSaid(port) : undefined
}

/**
 * What a mistyped DECISION_MEMORY_URL gives fetch, said as that mistake: a host not found (a code of
 * the resolver alone named no host; one it could not look up for now is said as that) and an
 * https:// to the service, which speaks plain HTTP (an OpenSSL code alone). For the commands, the
 * hook and the guard alike. Undefined for other failures.
 */
export function urlMistakeReason(error: unknown): string | undefined {
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code
  if (code === 'ENOTFOUND') {
    return `no host of that name was found (${code}): is the host in DECISION_MEMORY_URL right?`
  }
  // The resolver could not answer for now (no network, no DNS server reachable): the name may be right.
  if (code === 'EAI_AGAIN') {
    return `the host's name could not be looked up for now (${code}): is the network or DNS down, or the host in DECISION_MEMORY_URL wrong?`
  }
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER') {
    return `what answers there does not speak TLS (${code}): the service speaks plain HTTP; give DECISION_MEMORY_URL as http://, not https://`
  }
  return undefined
}

/**
 * A host as a URL writes it: an IPv6 address in brackets (`[::1]`), so that `http://HOST:PORT`
 * said by serve is an address a user can paste into DECISION_MEMORY_URL or curl.
 */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host
}

/**
 * Whether a host to bind is this machine only: 127.0.0.0/8 (in any form the resolver reads as an
 * address, `127.1` too), ::1 or localhost. `127.0.0.999` is none: the resolver asks DNS for it.
 */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase()
  const mapped = /^::ffff:(.*)$/.exec(bare)?.[1]
  return bare === 'localhost' || bare === '::1' || ipv4Address(bare)?.startsWith('127.') === true || (mapped !== undefined && /^127(\.\d{1,3}){3}$/.test(mapped) && isIPv6(bare))
}

/** A mistake in how a command was called: printed without a stack, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

/** A variable of the environment that is not valid: one line naming it, exit code 1. */
export class EnvironmentError extends Error {
  readonly code = 'ENVIRONMENT_INVALID'
  constructor(message: string) {
    super(message)
    this.name = 'EnvironmentError'
  }
}

/** The --user flag of a command, checked and normalised as the service's routes take it (IdentifierSchema). */
export function userFlag(raw: string | undefined, command: string): string {
  if (raw === undefined) throw new UsageError(`${command} needs --user USER`)
  return identifierFlag(raw, 'user')
}

/**
 * A flag naming a user, session, project or point, checked and normalised as the routes take it:
 * without a service, the store is written with what the command passes, unchecked by any route.
 * `written` for a command that writes under it (the hook, toggle), as the routes that write refuse
 * a name with spaces at its ends or blank; a command that reads (why, export, forget) still
 * reaches one stored so before.
 */
export function identifierFlag(raw: string, flag: string, variable?: string, { written = false }: { written?: boolean } = {}): string {
  const parsed = (written ? TrimmedIdentifierSchema : IdentifierSchema).safeParse(raw)
  if (!parsed.success) {
    // The value came from the environment when `variable` is given: named so, as that is where to
    // mend it, and a mistake of the environment, not of the command (one line, exit 1, no help).
    const why = parsed.error.issues[0]?.message ?? 'not a valid identifier'
    if (variable !== undefined) throw new EnvironmentError(`${variable} (the default of --${flag}): ${why}`)
    throw new UsageError(`--${flag}: ${why}`)
  }
  return parsed.data
}

/**
 * A flag giving a moment (`--as-of`, `--now`), refused as a usage error unless an ISO time with a
 * zone: one in that shape the calendar has not (`2026-02-30T10:00:00Z`) is said to be no moment,
 * rather than told to be an ISO time it already looks like.
 */
export function timestampFlag(raw: string, flag: string): string {
  if (TimestampSchema.safeParse(raw).success) return raw
  const issue = timestampIssue(raw)
  if (issue.startsWith('not ')) throw new UsageError(`--${flag} "${raw}" is ${issue}`)
  throw new UsageError(`--${flag} must be an ISO time with seconds and a zone, e.g. 2026-07-01T10:00:00Z, not "${raw}"`)
}

/**
 * A flag's moment the store refused as in the future (`--now`, `--as-of`), from a command that
 * opened the store itself: it was read against this machine's clock, no service involved, and is
 * said so (a version before this said `ahead of the service clock` there too). A usage error.
 */
export function momentAheadLocally(flag: string, message: string): UsageError {
  return new UsageError(`--${flag}: ${message.replace(' ahead of the service clock (', " ahead of this machine's clock (")}`)
}

/**
 * A flag of the Claude Code hooks giving a number of ms (the hook's --budget, the guard's
 * --timeout), read by one rule (msFlag): `example`, its default, is said in the refusal, `range`
 * what it takes besides digits, `whole` whether a fraction of a ms is refused.
 */
export interface MsFlag {
  flag: string
  example: number
  max: number
  whole: boolean
  range: string
}

/**
 * The longest hook --budget: a minute, the longest the agent is kept waiting at a question. The
 * hook's own bound, not Claude Code's: its default hook timeout is 600 s (hooks reference,
 * `timeout`), and the entry's `timeout` is what ends the hook. Anything longer (`--budget 1e9`) is
 * a typo that would hold the agent up.
 */
export const MAX_BUDGET_MS = 60_000

/** The hook's --budget (hookBudgetMs): ms from its start to its exit. */
export const BUDGET_FLAG: MsFlag = {
  flag: '--budget',
  example: 2000,
  max: MAX_BUDGET_MS,
  whole: false,
  range: `at most ${MAX_BUDGET_MS} (a minute, the longest the agent is kept waiting at a question)`,
}

/** The guard's --timeout (guardTimeoutMs): ms it waits for the payload, then for the service. */
export const TIMEOUT_FLAG: MsFlag = { flag: '--timeout', example: 1000, max: 10_000, whole: true, range: 'from 1 to 10000' }

/**
 * The ms `raw` gives `spec`'s flag, undefined when it takes none: decimal digits, a fraction after
 * a point (`2000.5`; the guard's only when it is whole, `3000.0`), positive and at most its max.
 * Not Number(): it reads `0x10` as 16 ms, `1e3` as 1000 and ` 3000` as 3000, each a typo in a
 * settings file rather than a way to write ms (the guard took them so while the hook refused them).
 */
export function msOf(raw: string, spec: MsFlag): number | undefined {
  if (!/^\d+(\.\d+)?$/.test(raw)) return undefined
  const ms = Number(raw)
  return ms > 0 && ms <= spec.max && (!spec.whole || Number.isInteger(ms)) ? ms : undefined
}

/** What `spec`'s flag says of `raw` when msOf takes no ms from it: the flag, what it takes, and `raw`. */
export function msRefusal(raw: string, spec: MsFlag): string {
  return `${spec.flag} must be a ${spec.whole ? 'whole' : 'positive'} number of ms in decimal digits (${spec.example}), ${spec.range}, not "${raw}"`
}

/** The ms `raw` gives `spec`'s flag (msOf), else a UsageError saying msRefusal. */
export function msFlag(raw: string, spec: MsFlag): number {
  const ms = msOf(raw, spec)
  if (ms === undefined) throw new UsageError(msRefusal(raw, spec))
  return ms
}

/** A negative number (`-1`, `-0.5`, `-1e3`): no flag is named so. */
const NEGATIVE_NUMBER = /^-(?:\d|\.\d)/

/**
 * `--port -1` as `--port=-1`: parseArgs refuses a value starting with `-` as "ambiguous" (it may be
 * a flag whose value was forgotten), which no negative number is. Joined, the value reaches the
 * flag's own check, which says what it takes (`--port must be a port number from 0 to 65535, not
 * "-1"`), as `--port=-1` did. Not after `--`, where every argument is a positional. The scripts'
 * flags are read through it too (scripts/flags.ts).
 */
export function negativeValuesJoined(args: readonly string[], options: NonNullable<ParseArgsConfig['options']>): string[] {
  const joined: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (arg === '--') return [...joined, ...args.slice(i)]
    const next = args[i + 1]
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : undefined
    const takesValue = name !== undefined && Object.hasOwn(options, name) && options[name]?.type === 'string'
    if (takesValue && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      joined.push(`${arg}=${next}`)
      i++
    } else joined.push(arg)
  }
  return joined
}

/** Boolean flags a command refuses together (toggle's). */
const OPPOSITE_FLAGS: Readonly<Record<string, string>> = { on: 'off', off: 'on' }

/** The flags a value given alone is most likely for, first the likeliest: `toggle ID` is its session, `preferences NAME` its user. */
const STRAY_VALUE_FLAGS = ['session', 'user'] as const

/**
 * How a value given without its flag is likely meant, if it is: a boolean flag's name written bare
 * (`toggle --session S off`), a port number where the command takes one (`serve 7420`), a number of
 * ms where it takes a --timeout (`guard 3000`) or a --budget (`hook 3000`), else the
 * command's first name flag of STRAY_VALUE_FLAGS, unless given already. Once it is, the value is no
 * likelier the next one's: `toggle --session S x` is no likelier `--user x` (a user is seldom
 * given to toggle, whose session says whose) than a mistyped `--off`, and said so, it reads as the fix.
 */
function strayValueFlag(stray: string, options: NonNullable<ParseArgsConfig['options']>, args: readonly string[]): string | undefined {
  const given = (name: string) => args.some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`))
  const takes = (name: string, type: 'string' | 'boolean') => Object.hasOwn(options, name) && options[name]?.type === type
  // Not one given already: `toggle --session S --off off` told `--off` again reads as no fix. Nor
  // the opposite of one given: `toggle --session S --off on` told `--on` is refused in its turn
  // (`give --on or --off, not both`).
  const opposite = OPPOSITE_FLAGS[stray]
  if (takes(stray, 'boolean') && !given(stray) && !(opposite !== undefined && given(opposite))) return `as a flag, --${stray}`
  const flagged = (name: string) => `after its flag, ${optionArgs(`--${name}`, stray).map(shellWord).join(' ')}`
  // Only a port --port takes (parsePort): `serve 70000` told `--port 70000` is refused in its turn.
  if (/^\d{1,5}$/.test(stray) && Number(stray) <= 65535 && takes('port', 'string') && !given('port')) return flagged('port')
  // So with the guard's --timeout, only one it takes (msOf: 1 to 10000 ms): `guard 3000` is its
  // --timeout copied without the flag, and `guard 20000` is not told one it would refuse.
  if (msOf(stray, TIMEOUT_FLAG) !== undefined && takes('timeout', 'string') && !given('timeout')) return flagged('timeout')
  // And the hook's --budget: `hook 3000` is most likely its --budget copied without the flag. A
  // number is a user's name too (a uid, `1000`), the hook's --user then, so with no --user given
  // both readings are said: told only `--budget 1000`, a user named 1000 would have mended the line
  // to record every choice under `default`. A number it would refuse (`hook 70000`), or with
  // --budget given already, is told no flag: not --user either, under which the hook would take a
  // mistyped budget as a name and record every choice under it.
  if (/^\d+(\.\d+)?$/.test(stray) && takes('budget', 'string')) {
    if (msOf(stray, BUDGET_FLAG) === undefined || given('budget')) return undefined
    if (!takes('user', 'string') || given('user') || !TrimmedIdentifierSchema.safeParse(stray).success) return flagged('budget')
    const asUser = optionArgs('--user', stray).map(shellWord).join(' ')
    return `${flagged('budget')} if it is the hook's time in ms, or ${asUser} if it is the user whose choices these are`
  }
  const first = STRAY_VALUE_FLAGS.find((name) => takes(name, 'string'))
  return first === undefined || given(first) ? undefined : flagged(first)
}

/** Whether the first argument parseArgs reads as a positional comes after `--`. */
function afterTerminator(args: string[], options: NonNullable<ParseArgsConfig['options']>): boolean {
  const { tokens } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true })
  const terminator = tokens.find((token) => token.kind === 'option-terminator')
  const first = tokens.find((token) => token.kind === 'positional')
  return terminator !== undefined && first !== undefined && first.index > terminator.index
}

/**
 * parseArgs, strict, refusing a flag that takes a value given twice: parseArgs keeps the last
 * silently, so `forget --user alice --user bob` (a line edited in a hurry) would forget bob. And
 * refusing one given empty (`--out "$FILE"` with FILE unset): resolved, an empty path is the
 * current directory (`install-hooks --project ""` wrote there), and an empty port is 0, any port.
 */
export function parseFlags<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  const args = negativeValuesJoined(config.args ?? [], config.options ?? {})
  let parsed
  try {
    parsed = parseArgs({ ...config, args, strict: true, tokens: true })
  } catch (error) {
    // Node's words for `--user --yes` ("argument is ambiguous. Did you forget …", three lines,
    // with a `-XYZ` of its own) said in one line naming the flag and the value, as the others are.
    const ambiguous = /^Option '(?:-\w, )?--([^' ]+)' argument is ambiguous/.exec((error as Error).message)
    const at = ambiguous === null ? -1 : args.findIndex((arg, i) => arg === `--${ambiguous[1]}` && args[i + 1]?.startsWith('-') === true)
    const value = args[at + 1]
    if (ambiguous !== null && at !== -1 && value !== undefined) {
      const name = ambiguous[1]
      throw new UsageError(`--${name} needs a value, and "${value}" after it reads as a flag: give --${name} its value (--${name}=VALUE for one starting with -)`)
    }
    // Last with no value (`hook --spool F --user`): Node's "Option '--user <value>' argument
    // missing" said in the words of `--user --spool F`'s line, as one mistake is one.
    const missing = /^Option '(?:-\w, )?--([^' ]+) <value>' argument missing/.exec((error as Error).message)
    if (missing !== null) {
      const name = missing[1]
      throw new UsageError(`--${name} needs a value, and nothing comes after it: give --${name} its value`)
    }
    // `preferences alice`, `forget alice --yes`, `toggle SESSION --off`: a value given without the
    // flag it is for. Node says only "does not take positional arguments"; the flag is named.
    const stray = /^Unexpected argument '(.*)'\. This command does not take positional arguments/s.exec((error as Error).message)?.[1]
    // Given as it would be taken: `--user -x` is refused in its turn (a flag where the value is),
    // `--user alice smith` is two words; an empty one is no value to give (`--user ""` is refused).
    const hint = stray === undefined || stray === '' ? undefined : strayValueFlag(stray, config.options ?? {}, args)
    // After `--` every word is an argument, as the user asked (`serve -- 7420`): said so, not as a
    // value whose flag was forgotten, with the flag it may be meant for (`-- -x`, where `--` was the
    // way to give a value starting with -, is `--user=-x`).
    if (stray !== undefined && afterTerminator(args, config.options ?? {})) {
      throw new UsageError(`this command takes no arguments, and "${stray}" after -- is one${hint === undefined ? '' : `: give it ${hint}`}`)
    }
    if (hint !== undefined) throw new UsageError(`"${stray}" is no argument of this command: give it ${hint}`)
    throw error
  }
  const given = new Map<string, string>()
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option' || token.value === undefined) continue
    if (token.value === '') throw new UsageError(`--${token.name} is empty: give its value, or leave --${token.name} out`)
    const earlier = given.get(token.name)
    if (earlier !== undefined) {
      throw new UsageError(`--${token.name} is given twice ("${earlier}" and "${token.value}"): give it once`)
    }
    given.set(token.name, token.value)
  }
  return parsed as unknown as ReturnType<typeof parseArgs<T>>
}
