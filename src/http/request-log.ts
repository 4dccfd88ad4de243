import type { MiddlewareHandler } from 'hono'
import { tracingChannel } from 'node:diagnostics_channel'
import pino, { type Logger } from 'pino'
import { isAsteriskForm } from './asterisk-form'

export const REQUEST_ID_HEADER = 'X-Request-Id'

/** When a request began, set on Node's request by a path that read its body before the app (first-path.ts). */
export const REQUEST_STARTED = Symbol('request started')

/**
 * The id a request is answered and logged under: the caller's `X-Request-Id` when it is a
 * plausible one (hono's rule: at most 255 word characters, `-` or `=`), so that an orchestrator
 * can follow its own id through our logs; a new UUID otherwise.
 */
export function requestIdFor(sent: string | undefined): string {
  return sent === undefined || sent === '' || sent.length > 255 || /[^\w\-=]/.test(sent) ? crypto.randomUUID() : sent
}

/** A request's line: what `logRequest` logs. */
export interface RequestLine {
  requestId: string
  method: string
  path: string
  status: number
  /** performance.now() when the request began. */
  started: number
}

const {
  asJsonSym,
  chindingsSym,
  endSym,
  errorKeySym,
  formattersSym,
  hooksSym,
  lsCacheSym,
  messageKeySym,
  mixinSym,
  needsMetadataGsym,
  nestedKeySym,
  serializersSym,
  streamSym,
  stringifiersSym,
  timeSym,
  wildcardFirstSym,
  writeSym,
} = pino.symbols
// In pino's symbols, not in their type.
const msgPrefixSym = (pino.symbols as unknown as Record<string, symbol>).msgPrefixSym as symbol

/**
 * pino's own serialisation and write, as every logger has them unless an integration replaced them
 * (a logger of its own stream: pino's default one would open a writer on stdout at import).
 */
const PINO = pino({ enabled: false }, { write() {} }) as unknown as Record<symbol, unknown>

/** The channel pino publishes each line's serialisation on (pino's docs, "Diagnostics"). */
const AS_JSON = tracingChannel('pino_asJson')

/** The fields of a request line, in the order pino writes them (its message, `msg`, after them). */
const FIELDS = ['req_id', 'method', 'path', 'status', 'ms'] as const

/** What a logger writes a request line with, when nothing in its options can change the line (`plainInfoOf`). */
interface PlainInfo {
  head: string
  time: () => string
  stream: { write(line: string): void }
}

const plainInfos = new WeakMap<Logger, PlainInfo | null>()

/** A number as pino writes it: null when it is not finite. */
const number = (value: number): number | null => (Number.isFinite(value) ? value : null)

/**
 * The parts of `logger.info({ req_id, method, path, status, ms }, 'request')`'s line that do not
 * change from one request to the next, read once per logger through `pino.symbols` (pino's state,
 * exposed for library implementers), or null when the logger's options could make its line
 * differ from the one `logRequest` writes: a mixin, hooks, a log formatter, serializers or
 * redaction of these fields or of the message (an `errorKey` naming one of the fields included:
 * pino serialises that key with `serializers.err`), a nested or renamed message key, a message
 * prefix, a line ending other than `\n`, a stream that reads the line's metadata (multistream),
 * a custom `info` level, or pino's serialisation or write replaced on it. Such a logger is asked
 * through `info` every time. The service's logger (`pino({ level, base }, destination)`) is none
 * of these; request-log.test.ts holds the two lines equal, byte for byte, for it, for pino's
 * defaults and for a child, and holds each of these options to `info`'s line. An option changed on
 * a logger after its first request line is not seen (pino has no setter for any of them).
 */
function plainInfoOf(logger: Logger): PlainInfo | null {
  let plain = plainInfos.get(logger)
  if (plain !== undefined) return plain
  const state = logger as unknown as Record<symbol, unknown>
  const hooks = state[hooksSym] as { logMethod?: unknown; streamWrite?: unknown } | undefined
  const formatters = state[formattersSym] as { log?: unknown } | undefined
  const serializers = state[serializersSym] as Record<string, unknown> | undefined
  const stringifiers = state[stringifiersSym] as Record<string | symbol, unknown> | undefined
  const stream = state[streamSym] as ({ write?: unknown } & Record<symbol, unknown>) | undefined
  const head = (state[lsCacheSym] as Record<number, string> | undefined)?.[30]
  const time = state[timeSym]
  const keys = [...FIELDS, 'msg']
  const plainFields =
    serializers !== undefined &&
    stringifiers !== undefined &&
    keys.every((key) => serializers[key] === undefined && stringifiers[key] === undefined) &&
    stringifiers[wildcardFirstSym] === undefined &&
    !(FIELDS as readonly unknown[]).includes(state[errorKeySym]) &&
    state[messageKeySym] === 'msg' &&
    state[nestedKeySym] == null
  const plainOptions =
    hooks !== undefined &&
    hooks.logMethod === undefined &&
    hooks.streamWrite === undefined &&
    formatters !== undefined &&
    formatters.log === undefined &&
    !state[mixinSym] &&
    typeof state[msgPrefixSym] !== 'string' &&
    state[endSym] === '}\n' &&
    state[asJsonSym] === PINO[asJsonSym] &&
    state[writeSym] === PINO[writeSym]
  const plainLine =
    logger.levels.values.info === 30 &&
    typeof head === 'string' &&
    typeof time === 'function' &&
    typeof state[chindingsSym] === 'string' &&
    stream !== undefined &&
    typeof stream.write === 'function' &&
    stream[needsMetadataGsym] !== true
  plain =
    plainFields && plainOptions && plainLine
      ? { head, time: () => (time as (this: unknown) => string).call(logger), stream: stream as PlainInfo['stream'] }
      : null
  plainInfos.set(logger, plain)
  return plain
}

/**
 * The line logged for every request, whichever path answered it. Never the body or the headers:
 * they may carry tokens and personal data.
 *
 * It is `logger.info({ req_id, method, path, status, ms }, 'request')`, written as pino would write
 * it but without pino's general path through the fields, its options and its hooks (`plainInfoOf`
 * says when that path is needed). Side by side (`cpu-per-request.ts`, bench/HISTORY.md), in four
 * runs, an orchestrator's recommendation served from memory took 34 to 41 µs of CPU with its line
 * written here, 38 to 42 through `info` (1 to 6 µs more), and 32 to 36 with no line at all (the
 * lowest of each run's rounds; the bare baseline's request, 30 to 33).
 */
export function logRequest(logger: Logger, line: RequestLine): void {
  if (!logger.isLevelEnabled('info')) return
  const ms = Math.round((performance.now() - line.started) * 10) / 10
  // pino's own path, too, while anything listens on its diagnostics channel (an APM agent may add
  // to the line there).
  const plain = AS_JSON.hasSubscribers ? null : plainInfoOf(logger)
  if (plain === null) {
    logger.info({ req_id: line.requestId, method: line.method, path: line.path, status: line.status, ms }, 'request')
    return
  }
  // The bindings (`base`: the service's name) every time: `setBindings` may change them. Strings
  // are escaped by JSON.stringify, as pino escapes them, but for a lone surrogate (pino, on Node
  // before 25, writes it as it is, which reaches the file as U+FFFD; here it is written escaped).
  const bindings = (logger as unknown as Record<symbol, string>)[chindingsSym]
  plain.stream.write(
    `${plain.head}${plain.time()}${bindings},"req_id":${JSON.stringify(line.requestId)},"method":${JSON.stringify(line.method)},"path":${JSON.stringify(line.path)},"status":${number(line.status)},"ms":${number(ms)},"msg":"request"}\n`,
  )
}

/** Gives every request its id (in `c.get('requestId')` and the `X-Request-Id` answer header) and logs it once answered. */
export function requestLog(logger: Logger): MiddlewareHandler {
  return async function requestLog(c, next) {
    // From the moment the request began, its body's upload included, when a path before the app read it.
    const incoming = (c.env as { incoming?: { [REQUEST_STARTED]?: number } } | undefined)?.incoming
    const started = incoming?.[REQUEST_STARTED] ?? performance.now()
    const requestId = requestIdFor(c.req.header(REQUEST_ID_HEADER))
    c.set('requestId' as never, requestId as never)
    c.header(REQUEST_ID_HEADER, requestId)
    await next()
    // An `OPTIONS *` as it was sent, not as the path the app was handed it at (asterisk-form.ts).
    logRequest(logger, { requestId, method: c.req.method, path: isAsteriskForm(c) ? '*' : c.req.path, status: c.res.status, started })
  }
}
