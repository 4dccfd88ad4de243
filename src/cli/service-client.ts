import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { systemClock } from '../clock'
import { shellWord } from '../config/bin-path'
import { DEFAULT_POLICY_FILE, loadPolicy } from '../config/load-policy'
import { createDecisionMemory, type DecisionMemory } from '../decision-memory'
import { createDecisions, type Decisions } from '../decisions/decisions'
import { createWriteQueue } from '../memory/write-queue'
import { STORE_HEADER } from '../http/store-id'
import { barredFolderProblem, dataWithoutCurrentIn, foreignFileIn, namesIn, openStores, servedBy, StoreOpenError } from '../open-store'
import { issuesOf, issuesText } from './error-envelope'
import { takeLocalTurn } from './local-turn'
import { abortAfter, authHeaders, barredPortReason, dataDirectory, serviceUrl, serviceUrlProblem, urlMistakeReason } from './options'
import { printable } from '../terminal'

/** An answer of the running service, or of the store opened here when none runs. */
export interface Answer {
  status: number
  body: unknown
  via: 'service' | 'local'
}

/** What a command asks of the service or of the store: the route, and the use case for the store opened here. */
export interface StoreRequest {
  method: string
  path: string
  body?: unknown
  local: (memory: DecisionMemory, decisions: Decisions) => Promise<unknown>
  /** The --data flag as given (undefined without it). */
  dataDir?: string | undefined
  /** The store when no --data names one, no service runs and $DECISION_MEMORY_DATA is unset (default ./data). */
  defaultDataDir?: string | undefined
  policyFile?: string | undefined
  /**
   * Whether a successful (2xx) answer of the service is the route's: another program at
   * DECISION_MEMORY_URL answering `{}` with 200 was printed as done (`forgot undefined: undefined
   * entries deleted`, exit 0) or ended in a stack trace.
   */
  expect?: (body: unknown) => boolean
  /** How long to wait for the service; a scan of the whole store (forget, export) takes longer. */
  timeoutMs?: number
  /**
   * Whether, with no service, a store may be made where none is (an import, the MCP server run on
   * its own); else a missing data directory is an error: a toggle or a forget made in a new, empty
   * store beside the real one would say it worked and change nothing that is used.
   */
  createStore?: boolean
  /** The answer when no service runs and there is no store to open (and createStore is not set), instead of refusing. */
  whenNoStore?: () => unknown
  /**
   * Whether the command has nothing to do where there is no store: it shows what is stored (why,
   * preferences, export, toggle --show), deletes it (forget) or ages it (decay-scan). A folder with
   * none yet (empty) is then said to hold none, as one not there is, rather than opened, which made
   * an empty store in it: a forget on a mistyped --data said `forgot bob: 0 entries deleted`, exit 0.
   */
  makesNoStore?: boolean
  /**
   * Whether `local` only reads the store (preferences, export, a decision's why, a session's
   * setting shown): a failure of LevelDB is then said as a read's. Left out where the use case
   * writes, or may (a point's why rebuilds an aggregate not in core): said as a write's.
   */
  writesNothing?: boolean
}

/**
 * Runs a use case against the store the command is meant for. When --data names a store, that
 * store: through the running service if that service says it holds it (the id it wrote there), else
 * opened here; never another store. Asked of the service first, so that a store a service holds is
 * not opened here at all (LevelDB would rotate the service's LOG before it found the lock).
 * Otherwise through the running service when there is one, and else against the store in
 * $DECISION_MEMORY_DATA or ./data opened here. Both paths end in the same function of DecisionMemory.
 */
export async function throughServiceOrLocal(request: StoreRequest): Promise<Answer> {
  if (request.dataDir === undefined) return throughService(request, undefined, () => unnamedLocal(request))
  const dir = dataDirectory(request.dataDir)
  const id = await servedBy(dir)
  // Why the service at the URL is not the one to go through, should another process hold the store.
  // With no id there, the holder is another command, an MCP server without a service, or a service
  // of a version from before services wrote one (still running after an upgrade), which no request
  // can tell from one on another store: it is named, so that a DECISION_MEMORY_URL already set to
  // it is not taken for the mistake.
  let why =
    'no service has said it runs on it (another command or an MCP server may hold it, or a service of a version ' +
    'from before services said which store they hold, still running after an upgrade: restart that one)'
  // No service answers at the URL: there is none to leave --data out for.
  let noneAtUrl = false
  if (id !== undefined) {
    // A service may hold it: asked with its id. A service that stopped left the file behind (the
    // store is then free), and one at the URL running on another store answers 409.
    let none = false
    const probe = await throughService({ ...request, method: 'GET', path: '/healthz', body: undefined, timeoutMs: undefined, expect: undefined }, id, async () => {
      none = true
      return { status: 0, body: null, via: 'service' as const }
    })
    noneAtUrl = none
    why = none
      ? `no service runs at ${serviceUrl()}`
      : probe.status === 409
        ? `the service at ${serviceUrl()} runs on another store`
        : `the service at ${serviceUrl()} does not say it runs on it`
    if (probe.holds === true) {
      // Named again on the request itself: a service started on another store meanwhile acts on nothing (409).
      const { holds: _holds, ...answer } = await throughService(request, id, () => {
        throw refusal(dir, `no service runs at ${serviceUrl()}`, false)
      })
      return answer
    }
  }
  try {
    return await local(request, '--data')
  } catch (error) {
    if (!(error instanceof StoreOpenError && error.locked)) throw error
    // Held by another process that is not the service at the URL (another command, the MCP server,
    // a service elsewhere, or one from before services said which store they hold).
    throw refusal(dir, why, !noneAtUrl)
  }
}

/**
 * The store of $DECISION_MEMORY_DATA or ./data, opened here because no service answers at the URL.
 * Held by another process, it is most often the service's, started on another port
 * (`npm start -- --port 7421`) with DECISION_MEMORY_URL left at its default: "is the service
 * running?" sent a user whose service was running to look for one.
 */
async function unnamedLocal(request: StoreRequest): Promise<Answer> {
  try {
    return await local(request)
  } catch (error) {
    if (!(error instanceof StoreOpenError && error.locked)) throw error
    const dir = dataDirectory(undefined, process.env, request.defaultDataDir)
    throw new StoreOpenError(
      `the store in ${shellWord(dir)} is in use by another process, and no service runs at ${serviceUrl()}: ` +
        'if the service runs on it at another port or host, set DECISION_MEMORY_URL to it ' +
        '(http://127.0.0.1:PORT for serve --port PORT); else stop the process that holds it',
      { locked: true },
    )
  }
}

/**
 * The refusal to act on a store named by --data that another process holds. `serviceThere`: a
 * service may answer at the URL (on another store), which leaving --data out would use; with none
 * there, the holder is most often the service started on another port (`serve --port 7421 --data
 * DIR`), and "leave --data out to use the running service" sent the user to one that was not there.
 */
function refusal(dir: string, why: string, serviceThere = true): StoreOpenError {
  const instead = serviceThere
    ? 'set DECISION_MEMORY_URL to the service that runs on it, or stop the process that holds it, or leave --data out to use the running service'
    : 'set DECISION_MEMORY_URL to the service that runs on it (http://127.0.0.1:PORT for serve --port PORT), or stop the process that holds it'
  return new StoreOpenError(`the store in ${shellWord(dir)} (--data) is in use by another process, and ${why}: ${instead}`)
}

/**
 * The request to the running service, naming the store by `storeId` when given (store-id.ts); a
 * connection refused (no service there) is `whenNone`'s.
 */
async function throughService(
  request: StoreRequest,
  storeId: string | undefined,
  whenNone: () => Promise<Answer>,
): Promise<Answer & { holds?: boolean }> {
  const url = serviceUrl() + request.path
  // fetch would say only "unknown scheme", ERR_INVALID_URL or "includes credentials" (printing the
  // password), naming neither the variable nor the fix.
  const problem = serviceUrlProblem(serviceUrl())
  if (problem !== undefined) throw new ServiceUnavailableError(problem)
  const timeoutMs = request.timeoutMs ?? 5_000
  let status: number
  let contentType: string
  let text: string
  let holds: boolean
  // A service run with --auth wants a bearer token (R-SVC-4); one no header may carry is said as
  // the variable's mistake, not as a request that failed.
  const headers: Record<string, string> = {
    ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(storeId === undefined ? {} : { [STORE_HEADER]: storeId }),
    ...authHeaders(),
  }
  const timeout = abortAfter(timeoutMs)
  try {
    const response = await fetch(url, {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: timeout.signal,
    })
    status = response.status
    contentType = response.headers.get('content-type') ?? ''
    holds = storeId !== undefined && response.headers.get(STORE_HEADER) === storeId
    text = await response.text()
  } catch (error) {
    if (!isConnectionRefused(error)) throw new ServiceUnavailableError(`${request.method} ${url}: ${barredPortReason(error, url) ?? whyUnreachable(error, timeoutMs)}`)
    return whenNone()
  } finally {
    timeout.clear()
  }
  // NDJSON (an export) stays text; every other answer is one JSON document.
  // Whether it holds the store named: only when one is.
  const held = storeId === undefined ? {} : { holds }
  let body: unknown
  if (text === '' || /ndjson/i.test(contentType)) body = text === '' ? null : text
  else {
    try {
      body = JSON.parse(text)
    } catch {
      throw new ServiceUnavailableError(
        `${request.method} ${url}: answered HTTP ${status} with a body that is not JSON (is DECISION_MEMORY_URL a decision-memory service?)`,
      )
    }
  }
  if (status >= 200 && status < 300 && request.expect !== undefined && !request.expect(body)) {
    throw new ServiceUnavailableError(
      `${request.method} ${url}: answered HTTP ${status} with what is not this route's answer (is DECISION_MEMORY_URL a decision-memory service?)`,
    )
  }
  return { status, body, via: 'service', ...held }
}

/** A JSON object whose fields `types` names have those types (`typeof`, or 'array'): a route's answer, roughly. */
export function hasFields(types: Record<string, 'string' | 'number' | 'boolean' | 'array'>): (body: unknown) => boolean {
  return (body) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return false
    const record = body as Record<string, unknown>
    return Object.entries(types).every(([field, type]) => (type === 'array' ? Array.isArray(record[field]) : typeof record[field] === type))
  }
}

/** The running service did not answer, or what answered is not it: the message names the URL and why. */
export class ServiceUnavailableError extends Error {
  readonly code = 'SERVICE_UNAVAILABLE'
  constructor(message: string) {
    super(message)
    this.name = 'ServiceUnavailableError'
  }
}

/** Why a request to the service failed, in words: fetch's own messages ("fetch failed") say neither where nor why. */
function whyUnreachable(error: unknown, timeoutMs: number): string {
  if ((error as Error).name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s (is the service busy or stuck?)`
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  // undici's code alone ("UND_ERR_SOCKET") told a user nothing of what happened: the service, killed
  // or stopped mid-request (a decay scan cut short), hung up before it answered.
  if (cause?.code !== undefined && CUT_CONNECTION.has(cause.code)) {
    return `the service closed the connection before it answered (${cause.code}): did it stop or restart?`
  }
  // The codes a mistyped DECISION_MEMORY_URL gives, said as that: `the request failed: ENOTFOUND`
  // named no host, and an https:// to the service (which speaks HTTP) an OpenSSL code.
  const mistake = urlMistakeReason(error)
  if (mistake !== undefined) return mistake
  return `the request failed: ${cause?.code ?? cause?.message ?? (error as Error).message}`
}

/** The codes fetch gives a connection the other side closed or reset while a request was in flight. */
const CUT_CONNECTION = new Set(['UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNRESET', 'EPIPE'])

/**
 * Whether `dir` is a file (`'itself'`) or under one (`'above'`), so that no store can be there:
 * said by a command that only opens a store as that, not as a store it could not make.
 */
function fileAt(dir: string): 'itself' | 'above' | undefined {
  try {
    return statSync(dir).isDirectory() ? undefined : 'itself'
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? 'above' : undefined
  }
}

/**
 * Whether there is no store at `dir` to open: no folder there, or a folder of other files (a
 * project, a folder of documents: `--data .`, or a `./data` of the project's own), where opening
 * one would make LevelDB's files among them. An empty folder, or one of a store's files alone
 * (one being made), is the store's.
 */
function noStoreAt(dir: string): boolean {
  // A store that lost its CURRENT, a file of another beside it, is one: the open says it is damaged.
  const names = namesIn(dir)
  return names === undefined ? !existsSync(dir) : foreignFileIn(dir, names) !== undefined && dataWithoutCurrentIn(dir, names) === undefined
}

/**
 * Whether `dir` is a folder with no store in it yet, which opening it would make: empty, or holding
 * none of LevelDB's data (no CURRENT; a spool, a LOCK or a LOG alone). A store that lost its
 * CURRENT beside its data is one: the open says it is damaged.
 */
function noStoreYetAt(dir: string): boolean {
  const names = namesIn(dir)
  return names !== undefined && !names.includes('CURRENT') && dataWithoutCurrentIn(dir, names) === undefined
}

/**
 * A failure of LevelDB while a command works on the store it opened (a table file damaged or cut
 * short: `Corruption: not an sstable (bad magic number)`, `IO error: …/000005.ldb: Invalid
 * argument`; a full disk), said in one line that names the folder and what to do, as the service
 * answers it `store_unavailable`: it was thrown on, and printed as a crash with a stack trace.
 * `writesNothing` for a command that only reads, told that a read failed, not of a write it never
 * made. Any other error is returned as it is.
 */
function storeFailureIn(dir: string, error: unknown, writesNothing = false): unknown {
  const code = (error as { code?: unknown }).code ?? ((error as Error).cause as { code?: unknown } | undefined)?.code
  if (code === 'LEVEL_CORRUPTION') {
    return new StoreOpenError(`the store in ${shellWord(dir)} is damaged (${(error as Error).message}): restore the folder from a backup`)
  }
  if (code === 'LEVEL_IO_ERROR') {
    return new StoreOpenError(
      `the store in ${shellWord(dir)} could not be read or written (${(error as Error).message}): a file of it damaged or cut short, a full disk, a file it may not write; ${writesNothing ? 'a read failed, and this command writes nothing' : 'a write that failed stored nothing'}: if a file of it is damaged or cut short, restore the folder from a backup; else fix the cause and run the command again`,
    )
  }
  return error
}

/**
 * The use case against the store opened here: the one --data names (`named`), or, when none is
 * named, $DECISION_MEMORY_DATA or ./data because no service runs.
 */
function local(request: StoreRequest, named?: '--data'): Promise<Answer> {
  return inLocalTurn(async () => {
    const policy = await loadPolicy(resolve(request.policyFile ?? DEFAULT_POLICY_FILE))
    const dir = dataDirectory(request.dataDir, process.env, request.defaultDataDir)
    if (request.createStore !== true) {
      // A file, or a path under one, is no store to look for: said as that, since these commands
      // make no store (`cannot make the store` told of a store they never meant to make).
      const file = fileAt(dir)
      if (file !== undefined) {
        const what = file === 'itself' ? 'it is a file, not a folder' : 'a folder above it is a file'
        throw new StoreOpenError(`there is no store in ${shellWord(dir)}${named === undefined ? '' : ` (${named})`}: ${what}: give the data directory of a store`)
      }
    }
    // A command that says what it answers with no store (a dry run, an import of no records), or
    // that has nothing to do without one (makesNoStore), makes none in an empty folder either, where
    // opening one would make LevelDB's files.
    const showsNothing = request.whenNoStore !== undefined || request.makesNoStore === true
    if (request.createStore !== true && (noStoreAt(dir) || (showsNothing && noStoreYetAt(dir)))) {
      // Nor is one under a folder this account may not enter, which may well hold a store: said
      // as that, not as no store there.
      const barred = barredFolderProblem(dir)
      if (barred !== undefined) throw new StoreOpenError(barred)
      if (request.whenNoStore !== undefined) return { status: 200, body: request.whenNoStore(), via: 'local' }
      if (named !== undefined) throw new StoreOpenError(`there is no store in ${shellWord(dir)} (${named}): give the data directory of a store`)
      throw new ServiceUnavailableError(
        `no service at ${serviceUrl()} (connection refused), and no store in ${shellWord(dir)}: start the service, ` +
          'or set DECISION_MEMORY_URL to where it runs, or --data to its store',
      )
    }
    // Other processes that open the store themselves take turns with this one (local-turn.ts).
    const giveBack = await takeLocalTurn(dir)
    try {
      const { store, decisionStore, loss } = await openStores(dir, policy)
      if (loss !== undefined) process.stderr.write(`decision-memory: ${loss}\n`)
      try {
        const decisions = createDecisions({ store: decisionStore, clock: systemClock, policy })
        const memory = createDecisionMemory({ store, policy, clock: systemClock, decisions })
        return { status: 200, body: await request.local(memory, decisions), via: 'local' as const }
      } catch (error) {
        throw storeFailureIn(dir, error, request.writesNothing)
      } finally {
        await store.close()
      }
    } finally {
      await giveBack()
    }
  })
}

/**
 * The local calls of this process, one after the other: LevelDB's lock refuses a second open of
 * the store even from the process that holds it, and the MCP server answers concurrent tool calls
 * (an agent's parallel tool use) while no service runs.
 */
const inLocalTurn = createWriteQueue()

function isConnectionRefused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause
  return cause?.code === 'ECONNREFUSED'
}

/**
 * A service's error answer in words a person can act on: the message with what each field's
 * issue is (`invalid request: user` alone does not say what is wrong with it), and for the errors
 * of the command's setting rather than its input, which setting to look at.
 */
export function errorMessage(answer: Answer, userFrom: string = USER_FROM_FLAG): string {
  const error = (answer.body as { error?: { code?: string; message?: string; issues?: Array<{ path?: string; message?: string }> } } | null)?.error
  // An error without the service's envelope ({"error": {"message"}}) is another program's (a
  // FastAPI 404 {"detail": …}, a proxy's empty 502): `HTTP 404` alone sent nobody to the URL.
  let message =
    error?.message ??
    (answer.via === 'service'
      ? `HTTP ${answer.status} with no error of decision-memory's in its answer: is DECISION_MEMORY_URL (${serviceUrl()}) a decision-memory service?`
      : `HTTP ${answer.status}`)
  const issues = issuesOf(error)
  if (issues.length > 0) message += ` (${issuesText(error)})`
  // A user the token may not act for (`toggle --session s` under --auth asks for "default"): the
  // commands name their user with --user, and some with DECISION_MEMORY_USER too (the MCP tools,
  // which read settingHint, by `user`).
  if (answer.status === 403 && issues.some((i) => i.path === 'user')) message += `; name a user this token may act for with ${userFrom}, or set DECISION_MEMORY_TOKEN to a token of that user`
  return message + settingHint(answer)
}

/** How export and forget, which take their user from --user alone, name it. */
export const USER_FROM_FLAG = '--user'
/**
 * How why, preferences and toggle name their user: --user, else DECISION_MEMORY_USER, as the hook
 * does. The variable, set for the hook, is the one to mend when --user is not given: a 403 naming
 * --user alone sent a person looking for a flag they never gave.
 */
export const USER_FROM_FLAG_OR_VARIABLE = '--user (or DECISION_MEMORY_USER, its default)'

/** For an error answer of the command's setting rather than its input, which setting to look at ('' for others). */
export function settingHint(answer: Answer): string {
  const error = (answer.body as { error?: { code?: string } } | null)?.error
  if (answer.status === 401) return '; set DECISION_MEMORY_TOKEN to a token of the service\'s tokens file'
  // The service has every route the commands use: a route it does not know is a URL with a path.
  if (error?.code === 'not_found') return `; is DECISION_MEMORY_URL (${serviceUrl()}) the service's address, with no path?`
  return ''
}

/** Prints a service's error answer for a command and gives its exit code. */
export function failure(command: string, answer: Answer, userFrom: string = USER_FROM_FLAG): number {
  process.stderr.write(`decision-memory ${command}: ${printable(errorMessage(answer, userFrom))}\n`)
  return 1
}
