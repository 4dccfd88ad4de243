import { z } from '@hono/zod-openapi'
import type { IncomingMessage } from 'node:http'
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { Logger } from 'pino'
import { whereJsonBreaks } from '../config/json-scan'
import { shownText } from '../domain/shown-text'
import { JSON_REQUEST, SENT_TYPE } from './json-type'
import { fieldsOf, InputError, type Issue } from '../domain/errors'

export { fieldsOf }
import { CARRIED_PROTO_KEY } from '../domain/observation'
import { missingSaid, missingSaidOf, typeIssuesFirst } from '../domain/zod-issues'

/**
 * The one shape of every error answer (R-SVC-2), as the document says it. `request_id` is
 * required: the request log runs before everything else, so every answer has an id (its
 * `X-Request-Id`, required too), and a generated client need not test for one missing.
 */
export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: 'invalid_request' }),
      message: z.string(),
      issues: z.array(z.object({ path: z.string(), message: z.string() })),
      request_id: z.string().openapi({ description: 'The id the request is answered and logged under: its `X-Request-Id`.' }),
    }),
  })
  .openapi('Error')

export function errorBody(c: Context, code: string, message: string, issues: Issue[] = []) {
  // The request log, the app's first middleware, gives every request its id.
  return { error: { code, message, issues, request_id: c.get('requestId' as never) as string } }
}

export function errorBodyFor(requestId: string | undefined, code: string, message: string, issues: Issue[] = []) {
  return { error: { code, message, issues, ...(requestId === undefined ? {} : { request_id: requestId }) } }
}

type ZodIssueLike = {
  code: string
  path: PropertyKey[]
  message: string
  expected?: string
  keys?: string[]
  errors?: ZodIssueLike[][]
  issues?: ZodIssueLike[]
  values?: unknown[]
}

/**
 * Zod issues as `{path, message}`, the path dotted from the body's root (`all_options.2.label`).
 * A union's issue is replaced by the issues of the branch whose type the value had, so that the
 * answer names the field at fault rather than "invalid input" at the union. The fields a strict
 * object does not know, one issue to zod, are one issue each, named by their own path
 * (`decisionId: unknown field`), as the policy loader names them.
 */
export function issuesOf(error: { issues: readonly unknown[] }, input?: unknown): Issue[] {
  const out: Issue[] = []
  const visit = (issues: readonly ZodIssueLike[], prefix: PropertyKey[]) => {
    for (const issue of typeIssuesFirst(issues)) {
      const path = [...prefix, ...issue.path]
      if (issue.code === 'invalid_union' && issue.errors !== undefined && issue.errors.length > 0) {
        const sameType = issue.errors.filter(
          (branch) => !branch.some((i) => i.code === 'invalid_type' && i.path.length === 0),
        )
        const branch = sameType[0]
        if (branch !== undefined) {
          visit(branch, path)
          continue
        }
        // No branch takes the value's type: zod's own message is only "Invalid input"; say the
        // types the field takes (a message the schema gives of its own is kept).
        if (issue.message === 'Invalid input') {
          out.push({ path: shownPath(path), message: missingSaid(unionTypeMessage(issue.errors)) })
          continue
        }
      }
      if (issue.code === 'unrecognized_keys' && issue.keys !== undefined) {
        for (const key of issue.keys) out.push({ path: shownPath([...path, key]), message: 'unknown field' })
        continue
      }
      // A refused record key says why in its own issues; the carried `__proto__` key shows as sent.
      let message = issue.code === 'invalid_key' ? (issue.issues?.[0]?.message ?? issue.message) : issue.message
      // A record (`context`) is a JSON object: "expected record" is zod's word, not the client's.
      if (issue.code === 'invalid_type' && issue.expected === 'record') message = message.replace('expected record', 'expected object')
      // A field left out, an enum's too (its issue carries no input: the request's tells), is said missing.
      out.push({ path: shownPath(path), message: missingSaidOf({ code: issue.code, message, values: issue.values }, path, input) })
    }
  }
  visit(error.issues as ZodIssueLike[], [])
  // Each said once: a whole number's own bound and the safe-integer bound zod's int() adds are two
  // issues of one field that read alike (`records.0.origin.line: at most 9007199254740991`, twice).
  return out.filter((issue, i) => out.findIndex((other) => other.path === issue.path && other.message === issue.message) === i)
}

/**
 * A dotted path as the answer shows it; the carried `__proto__` key shows as sent, and a field
 * named by the empty string as `""` (`scope."": unknown field`), so it is never taken for the body.
 */
function shownPath(path: PropertyKey[]): string {
  if (path.length === 0) return '(body)'
  return path.map((p) => (p === CARRIED_PROTO_KEY ? '__proto__' : p === '' ? '""' : String(p))).join('.')
}

/** `Invalid input: expected string or array, received object`, from the branches of a union none of which took the value's type. */
function unionTypeMessage(branches: ZodIssueLike[][]): string {
  const roots = branches.flatMap((branch) => branch.filter((i) => i.code === 'invalid_type' && i.path.length === 0))
  const expected = [...new Set(roots.map((i) => (i.expected === 'record' ? 'object' : i.expected)).filter((e): e is string => e !== undefined))]
  const received = roots.map((i) => /received (\S+)$/.exec(i.message)?.[1]).find((r) => r !== undefined)
  if (expected.length === 0) return 'Invalid input'
  return `Invalid input: expected ${expected.join(' or ')}${received === undefined ? '' : `, received ${received}`}`
}

/**
 * The issues of a query, each parameter given more than once said so: hono reads `?as_of=A&as_of=B`
 * as an array, which no query parameter takes, and the schema then described the parameter's
 * format (`an ISO time with seconds and a zone`) of a value that had it. One issue a parameter.
 */
function queryIssues(issues: Issue[], data: unknown): Issue[] {
  if (typeof data !== 'object' || data === null) return issues
  const repeated = new Set(Object.entries(data).filter(([, value]) => Array.isArray(value)).map(([name]) => name))
  if (repeated.size === 0) return issues
  const out: Issue[] = []
  const said = new Set<string>()
  for (const issue of issues) {
    const name = [...repeated].find((r) => issue.path === r || issue.path.startsWith(`${r}.`))
    if (name === undefined) out.push(issue)
    else if (!said.has(name)) {
      said.add(name)
      out.push({ path: name, message: 'given more than once in the query: give it once' })
    }
  }
  return out
}

type ValidationResult = { success: true } | { success: false; error: { issues: readonly unknown[] }; target?: string; data?: unknown }

function refusal(c: Context, issues: Issue[]) {
  return c.json(errorBody(c, 'invalid_request', `invalid request: ${fieldsOf(issues)}`, issues), 400)
}

function issuesOfTarget(result: ValidationResult & { success: false }): Issue[] {
  return result.target === 'query' ? queryIssues(issuesOf(result.error, result.data), result.data) : issuesOf(result.error, result.data)
}

/** The validation hook of every route: a 400 naming each field at fault. */
export function validationHook(result: ValidationResult, c: Context) {
  if (result.success) return undefined
  return refusal(c, issuesOfTarget(result))
}

/** A schema of a part of a request, as the router factory hands it over: only parsed here. */
export type PartSchema = { safeParseAsync(value: unknown): Promise<{ success: boolean; error?: { issues: readonly unknown[] } }> }

/** The parts of a route's request the validation of one part may leave unread: its path parameters and its JSON body. */
export interface RequestParts {
  params?: PartSchema
  body?: { schema: PartSchema; required: boolean }
}

/** The issue of a body sent in a type the route does not take, as answerError's 415 names it. */
const CONTENT_TYPE_ISSUE: Issue = { path: 'content-type', message: 'must be application/json' }

/** How much of a header's value a refusal quotes. */
const SHOWN_HEADER_LENGTH = 100

/** A header's value as a refusal quotes it: its first 100 characters, as JSON, controls escaped. */
export function quotedHeader(value: string): string {
  const characters = [...value]
  const cut = characters.length > SHOWN_HEADER_LENGTH ? `${characters.slice(0, SHOWN_HEADER_LENGTH).join('')}…` : value
  return shownText(JSON.stringify(cut))
}

/**
 * The content type a request sent, as a refusal quotes it (`not "text/plain;charset=UTF-8"`),
 * or that it sent none: `must be application/json` alone left a client that sent fetch's
 * default for a string body, or curl -d's form, to guess what it had sent, and one that sent
 * the header twice (joined, `application/json, text/plain`) told what it had.
 */
function sentType(c: Context): { issue: Issue; said: string } {
  // As sent, not as utf8Body (app.ts) handed it to the route: a type given twice, once not JSON.
  const type = (c.get(SENT_TYPE as never) as string | undefined) ?? c.req.header('content-type')
  if (type === undefined) return { issue: { path: 'content-type', message: 'missing: must be application/json' }, said: ': the request has none' }
  const quoted = quotedHeader(type)
  return { issue: { path: 'content-type', message: `must be application/json, not ${quoted}` }, said: `, not ${quoted}` }
}

function issuesOfParse(parsed: { success: boolean; error?: { issues: readonly unknown[] } }, input: unknown): Issue[] {
  return parsed.success || parsed.error === undefined ? [] : issuesOf(parsed.error, input)
}

/**
 * What the route would say of its body, were it read: as @hono/zod-openapi reads it (a type it does
 * not take is 415's `content-type`; no type and no body is `{}`, judged by the schema only when the
 * body is required), and a body that is not JSON said where it breaks, as its `invalid_json` says it.
 */
async function bodyIssues(c: Context, body: NonNullable<RequestParts['body']>): Promise<Issue[]> {
  const type = c.req.header('content-type')
  if (type !== undefined && !JSON_REQUEST.test(type)) return [sentType(c).issue]
  if (type === undefined) {
    if (c.req.raw.body !== null && (await c.req.arrayBuffer()).byteLength > 0) return [sentType(c).issue]
    return body.required ? issuesOfParse(await body.schema.safeParseAsync({}), {}) : []
  }
  let value: unknown
  try {
    value = await c.req.json()
  } catch (error) {
    // Only JSON that does not parse: a body that failed its read is answered as onError answers it.
    if (!(error instanceof SyntaxError)) throw error
    const where = await whereBodyBreaks(c)
    return [{ path: '(body)', message: where === undefined ? 'not valid JSON' : `not valid JSON at ${where}` }]
  }
  return issuesOfParse(await body.schema.safeParseAsync(value), value)
}

/**
 * The validation hook of a route with two or more of a query, path parameters and a JSON body
 * (`GET /v1/decisions/{key}/why`, `POST /v1/decisions/{key}/accept`, `POST /v1/hooks/claude-code`):
 * @hono/zod-openapi checks the query, then the path, then the body, and the first at fault answered
 * before the others were read, so `/v1/decisions/-x/why?as_of=bad` named `as_of` alone, where the
 * MCP `why` names both, and `POST /v1/decisions/-x/accept {"reason": 1}` named `key` alone. A part at
 * fault is refused with the issues of the parts after it too, in that order (the query's first, as
 * the tool names them); the parts before it passed. A request with one part at fault is answered as
 * by validationHook.
 */
export function everyPartHook(parts: RequestParts, queryFaults?: QueryFaults) {
  return async function everyPartHook(result: ValidationResult, c: Context) {
    if (result.success) return undefined
    const issues = [...(queryFaults?.(c) ?? []), ...issuesOfTarget(result)]
    if (result.target === 'query' && parts.params !== undefined) issues.push(...issuesOfParse(await parts.params.safeParseAsync(c.req.param()), c.req.param()))
    if ((result.target === 'query' || result.target === 'param') && parts.body !== undefined) issues.push(...(await bodyIssues(c, parts.body)))
    return refusal(c, issues)
  }
}

/**
 * Faults of a request's query that its route judges once the request is valid (a `?user=` on a
 * route that reads its user from the body or the path, query-user.ts): named first, with the
 * query's, where the request is refused for others, so that one answer names every fault.
 */
export type QueryFaults = (c: Context) => Issue[]

/** validationHook, naming the query's faults `queryFaults` judges beside the part at fault. */
export function queryFaultsHook(queryFaults: QueryFaults) {
  return function queryFaultsHook(result: ValidationResult, c: Context) {
    if (result.success) return undefined
    return refusal(c, [...queryFaults(c), ...issuesOfTarget(result)])
  }
}

const CODE_BY_STATUS: Record<number, string> = {
  400: 'invalid_json',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'body_too_large',
  415: 'unsupported_media_type',
}

/**
 * The client stopped sending its body: its connection closed (or was closed, by a stop's grace
 * running out) before the length it declared. Not the service's error, and not malformed JSON.
 */
export class IncompleteBodyError extends Error {
  constructor(cause: unknown) {
    super('the body ended before its declared length: the client stopped sending it', { cause })
    this.name = 'IncompleteBodyError'
  }
}

/** Whether the request's body was cut short: its connection failed or closed before the end of it. */
export function cutShort(req: IncomingMessage): boolean {
  return !req.complete && (req.errored != null || req.destroyed)
}

/**
 * What to tell the client when LevelDB itself failed (a full disk, a file it cannot read or
 * write, a corrupt block): no bug of the service, and nothing the client can fix, so a 503 that
 * says LevelDB's reason rather than a 500 asking for a bug report. A write that fails stores
 * nothing (each is one atomic batch), so a client may send it again. After a failed write LevelDB
 * refuses every other until the store is opened again, hence the restart. `writes` false for a
 * request that writes nothing (a GET: a read of preferences, an export), told that what failed
 * was a read and nothing stored changed, not of a write it never made.
 */
export function storeFailureOf(error: Error, writes = true): string | undefined {
  const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code
  if (code === 'LEVEL_IO_ERROR') {
    // The same code for a full disk as for a table file damaged or cut short (`IO error:
    // …/000005.ldb: Invalid argument`), which no fix of the disk mends: both said.
    return `the store cannot be written or read (${error.message}); ${writes ? 'a write that failed stored nothing' : 'a read failed, and this request writes nothing'}: if a file of the store is damaged or cut short, stop the service and restore the store's folder from a backup; else, once the cause is fixed (a full disk, a file it may not read or write), restart the service, since LevelDB refuses every write after a failed one`
  }
  // What to do, as for an IO error: "damaged" alone left the person who runs it guessing.
  if (code === 'LEVEL_CORRUPTION') {
    return `the store is damaged (${error.message}): ${writes ? 'a write that failed stored nothing' : 'a read met a damaged file, and this request writes nothing'}; stop the service and restore the store's folder from a backup`
  }
  return undefined
}

/**
 * The answer to an error, in one place: InputError and HTTP errors are 4xx, and so is a body the
 * client stopped sending (400, logged as a warning: the client never reads the answer); work
 * aborted because the service is stopping (the only abort there is: a decay scan asked over
 * HTTP) is a 503; anything else is a bug (500), logged with the request's id. `writes` false for a
 * request that writes nothing, as storeFailureOf says its store failure.
 */
export function answerError(
  logger: Logger,
  error: Error,
  requestId: string | undefined,
  writes = true,
): { status: ContentfulStatusCode; body: ReturnType<typeof errorBodyFor> } {
  if (error instanceof IncompleteBodyError) {
    logger.warn({ event: 'body-incomplete', req_id: requestId }, 'the client stopped sending its body')
    return { status: 400, body: errorBodyFor(requestId, 'body_incomplete', error.message) }
  }
  if (error instanceof InputError) {
    return { status: error.status as ContentfulStatusCode, body: errorBodyFor(requestId, error.code, error.message, error.issues) }
  }
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode
    let message = error.message || 'bad request'
    if (status === 400 && /json/i.test(message)) message = 'the body is not valid JSON'
    // The field is a header: named as the refusal of a compressed body names content-encoding.
    const issues = status === 415 ? [CONTENT_TYPE_ISSUE] : undefined
    if (status === 415) message = 'send the body as JSON, with the header content-type: application/json'
    return { status, body: errorBodyFor(requestId, CODE_BY_STATUS[status] ?? 'bad_request', message, issues) }
  }
  if (error.name === 'AbortError') {
    logger.warn({ event: 'aborted-by-stop', req_id: requestId }, 'stopped by the service stopping')
    return { status: 503, body: errorBodyFor(requestId, 'stopping', 'the service is stopping: what was done is kept, and the next decay scan finishes the rest') }
  }
  const storeFailure = storeFailureOf(error, writes)
  if (storeFailure !== undefined) {
    logger.error({ event: 'store-failed', err: error, req_id: requestId }, 'the store failed')
    return { status: 503, body: errorBodyFor(requestId, 'store_unavailable', storeFailure) }
  }
  logger.error({ err: error, req_id: requestId }, 'unhandled error')
  return { status: 500, body: errorBodyFor(requestId, 'internal_error', 'internal error: this is a bug, please report it') }
}

/**
 * Where a body refused as not JSON breaks (`line 1, column 8`), so that a client finds the slip in
 * a long body: read again from the text the app kept (app.ts's utf8Body), on this path only.
 */
async function whereBodyBreaks(c: Context): Promise<string | undefined> {
  const kept = (c.req.bodyCache as { text?: Promise<string> }).text
  if (kept === undefined) return undefined
  const text = await kept.catch(() => undefined)
  if (text === undefined || text === '') return undefined
  try {
    JSON.parse(text)
    return undefined
  } catch (error) {
    return whereJsonBreaks(text, error)
  }
}

/** The methods of a request that writes nothing to the store. */
const READ_METHODS = new Set(['GET', 'HEAD'])

/** The context key markWrites and markWritesNothing set. */
const WRITES = 'writes'

/**
 * Marks a GET that writes to the store (GET /v1/decisions/applicable counts a recall pulse for
 * each decision it returns), so that a store failure of it is said as of a write, not of a read.
 */
export function markWrites(c: Context): void {
  c.set(WRITES as never, true as never)
}

/**
 * Marks a POST that writes nothing to the store (POST /v1/decisions/check with `as_of`, an audit,
 * counts no pulse), so that a store failure of it is said as of a read, not of a write it never made.
 */
export function markWritesNothing(c: Context): void {
  c.set(WRITES as never, false as never)
}

/** The app's error handler (R-SVC-2): every error answered by `answerError`. */
export function createErrorHandler(logger: Logger) {
  return async function onError(error: Error, c: Context) {
    // Behind @hono/node-server, Node's request: a body cut short fails its read (or its JSON parse).
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
    const cause = incoming !== undefined && cutShort(incoming) ? new IncompleteBodyError(error) : error
    // A GET or HEAD writes nothing, but a GET that counts recall pulses (markWrites); a POST, PUT,
    // PATCH or DELETE writes, but a check's audit (markWritesNothing).
    const marked = c.get(WRITES as never) as boolean | undefined
    const writes = typeof marked === 'boolean' ? marked : !READ_METHODS.has(c.req.method)
    const { status, body } = answerError(logger, cause, c.get('requestId' as never) as string | undefined, writes)
    // @hono/zod-openapi's refusal of the body's type, which answerError says without the request.
    if (status === 415 && cause instanceof HTTPException) {
      const { issue, said } = sentType(c)
      body.error.message = `${body.error.message}${said}`
      body.error.issues = [issue]
    }
    if (body.error.code === 'invalid_json') {
      const where = await whereBodyBreaks(c)
      if (where !== undefined) {
        body.error.message = `${body.error.message} (${where})`
        body.error.issues = [{ path: '(body)', message: `not valid JSON at ${where}` }]
      }
    }
    return c.json(body, status)
  }
}
