import type { Readable, Writable } from 'node:stream'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  ErrorCode,
  JSONRPCErrorResponseSchema,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  isJSONRPCNotification,
  isJSONRPCRequest,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js'
import { issuesOf } from '../http/errors'

/** The longest line read, as the SDK's own stdio transport has it: past it the transport closes. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024

/**
 * MCP's stdio transport (one JSON-RPC message a line), with the SDK's framing, that answers the
 * lines the SDK's transport drops without a word (a client would wait for good): a line that is
 * not JSON gets -32700 Parse error, and one that is no JSON-RPC 2.0 message gets -32600 Invalid
 * Request naming the field (a last line the input ends without a newline is read too). Both carry `id: null` only when no id can be read (JSON-RPC 2.0, §5):
 * a request with, say, `"jsonrpc": "1.0"` but `"id": 7` is answered at 7, so that the client's
 * call ends with the error instead of waiting. Only a message with a `method` gets its id back: the
 * id of a (malformed) response names a request of this server's, and an error sent at it would
 * end the client's own request of the same id. Each such line is also said through `report`.
 * A JSON-RPC batch (an array) is read as MCP 2025-03-26 wants, where the SDK's transport refuses it;
 * once `initialize` has agreed on another version (2025-06-18 dropped batches, and 2024-11-05 had
 * none), or while one asking another is answered, a batch is no MCP message and is refused.
 * An id past 2^53, which the SDK's schema refuses, is answered at the digits it was sent with, not
 * at the number JSON.parse rounds it to, which a client matching replies by id would never match;
 * so is an integer written otherwise than JSON writes it (`-0`, `0.0`), which JSON.parse reads as 0.
 * A request whose id is that of a request still in flight (MCP: an id is never reused in a session)
 * is answered with -32600 naming the id and goes no further: a batch waiting on the id would
 * otherwise take the other request's reply for its own.
 */
export function createStdioTransport({
  input,
  output,
  report,
  maxLineBytes = MAX_LINE_BYTES,
}: {
  input: Readable
  output: Writable
  /** Says what was wrong with a line (on stderr: stdout carries nothing but the protocol). */
  report: (problem: string) => void
  maxLineBytes?: number
}): Transport {
  /** The chunks of the line not ended yet, and their length in bytes. */
  let pending: Buffer[] = []
  let pendingBytes = 0
  // A UTF-8 byte order mark before the first message (a .NET StreamWriter's default, PowerShell's
  // `Set-Content`) is passed over, as RFC 8259 allows and as the hook, the guard and the HTTP routes
  // read one: left, it made `initialize` a line that is not JSON, never answered.
  let atStart = true
  /** The batches read whose requests are not all answered yet: their answers go out as one array. */
  let batches: Batch[] = []
  /** The protocol version the server answered `initialize` with; undefined until it has. */
  let version: string | undefined
  /** The ids of the `initialize` requests passed on and not answered yet, each with the version it asks for. */
  const initializing = new Map<string | number, string | undefined>()
  /** The ids of the client's requests passed on and neither answered nor cancelled yet. */
  const inFlight = new Set<string | number>()
  /**
   * The digits, as sent, of an id past 2^53, by the refusal answering it. Only refusals are sent at
   * such an id (the SDK's schema takes none, so none is in flight); by the refusal, not by the number
   * JSON.parse rounded it to, which two ids of a batch may share (9007199254740995 and …996).
   */
  const sentAs = new WeakMap<object, string>()
  /**
   * The digits, as sent, of the ids of requests in flight that JSON.parse read as another number's
   * (`-0`, `0.0`, `1.0`, read as 0 and 1): their answers go out at the id as sent, as a client
   * matching replies by the id it wrote expects (JSON-RPC 2.0: the same value as the request's).
   */
  const writtenAs = new Map<string | number, string>()

  const transport: Transport = {
    async start() {
      input.on('data', ondata)
      input.on('end', onend)
      input.on('error', onerror)
    },
    send(message: JSONRPCMessage) {
      const id = 'method' in message || !('id' in message) ? undefined : message.id
      if (id !== undefined) inFlight.delete(id)
      const digits = id === undefined ? undefined : writtenAs.get(id)
      if (digits !== undefined && id !== undefined) {
        writtenAs.delete(id)
        at(message, digits)
      }
      if (id !== undefined && initializing.delete(id) && 'result' in message) {
        const agreed = (message.result as { protocolVersion?: unknown }).protocolVersion
        if (typeof agreed === 'string') version = agreed
      }
      const batch = id === undefined ? undefined : batches.find((b) => b.waiting.has(id))
      if (batch === undefined || id === undefined) return write(message)
      batch.replies.push(message)
      batch.waiting.delete(id)
      return flush(batch)
    },
    async close() {
      input.off('data', ondata)
      input.off('end', onend)
      input.off('error', onerror)
      if (input.listenerCount('data') === 0) input.pause()
      pending = []
      pendingBytes = 0
      batches = []
      initializing.clear()
      inFlight.clear()
      writtenAs.clear()
      transport.onclose?.()
    },
  }

  function onerror(error: Error) {
    transport.onerror?.(error)
  }

  function write(value: unknown): Promise<void> {
    const line = serialized(value)
    // A client that closed its end (EPIPE) reads no more: the answer goes nowhere, and is not kept waiting.
    if (output.destroyed || output.write(line + '\n')) return Promise.resolve()
    return drained()
  }

  /**
   * Once the output takes more, or is gone: one wait shared by every answer behind a slow reader (one
   * 'drain' listener each said MaxListenersExceededWarning on stderr past ten, and waited for ever
   * when the client closed its end, where no drain comes).
   */
  let draining: Promise<void> | undefined
  function drained(): Promise<void> {
    draining ??= new Promise<void>((done) => {
      const end = () => {
        output.off('drain', end)
        output.off('close', end)
        draining = undefined
        done()
      }
      output.on('drain', end)
      output.on('close', end)
    })
    return draining
  }

  /**
   * A message (or a batch of them) as JSON, its id past 2^53 written with the digits it was sent
   * with: JSON.parse rounds 9007199254740993 to 9007199254740992, and a client matching replies by
   * id (one whose integers are 64-bit) would wait for its own forever.
   */
  function serialized(value: unknown): string {
    if (Array.isArray(value)) return `[${value.map(serialized).join(',')}]`
    const digits = isObject(value) ? sentAs.get(value) : undefined
    if (digits === undefined || !isObject(value)) return JSON.stringify(value)
    const { id: _rounded, ...rest } = value
    const fields = JSON.stringify(rest).slice(1)
    return `{"id":${digits}${fields === '}' ? '' : ','}${fields}`
  }

  function ondata(chunk: Buffer) {
    // Only the new chunk is searched for newlines, and the chunks of a line are joined once, when
    // it ends: a line arriving a few bytes at a time costs its length, not its length squared.
    let start = 0
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      const tail = chunk.subarray(start, end)
      const line = pending.length === 0 ? tail : Buffer.concat([...pending, tail], pendingBytes + tail.length)
      pending = []
      pendingBytes = 0
      read(textOf(line).replace(/\r$/, ''))
      start = end + 1
    }
    if (start < chunk.length) {
      pending.push(start === 0 ? chunk : chunk.subarray(start))
      pendingBytes += chunk.length - start
    }
    if (pendingBytes > maxLineBytes) {
      // As the SDK's transport does: what the line asked cannot be known, nor answered.
      transport.onerror?.(new Error(`a line over ${maxLineBytes} bytes: the connection is closed`))
      void transport.close()
    }
  }

  /** A line's text, the stream's byte order mark passed over at its start. */
  function textOf(line: Buffer): string {
    const text = line.toString('utf8')
    if (!atStart) return text
    atStart = false
    return text.startsWith('\uFEFF') ? text.slice(1) : text
  }

  /**
   * The input ended: a last line without its newline is read as a line (a client writing its last
   * message so, `printf '%s'` by hand, was dropped unanswered, and the server exited 0 without a
   * word), and one cut off there, no JSON, is answered -32700 saying so, on stdout and stderr.
   */
  function onend() {
    if (pending.length === 0) return
    const line = textOf(Buffer.concat(pending, pendingBytes))
    pending = []
    pendingBytes = 0
    read(line, true)
  }

  function read(line: string, last = false) {
    if (line.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      const message = last ? 'Parse error: the input ended inside a message (its last line is not JSON, nor ended by a newline)' : 'Parse error: a line that is not JSON'
      report(message)
      return void write({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.ParseError, message } }).catch(onerror)
    }
    const digits = idsNotAsRead(value, line) ? idDigits(line) : []
    if (Array.isArray(value) && value.length > 0) {
      // Behind an initialize not answered yet, the version it asks for: the one agreed on when the server
      // has it, else its newest, which has no batches either (a client that does not wait for the answer).
      const asked = [...initializing.values()].at(-1)
      const inForce = asked ?? version
      if (inForce === undefined || inForce === BATCH_VERSION) return readBatch(value, digits)
      return refuseBatch(value, asked === undefined ? `${inForce} (the version agreed at initialize)` : `${asked} (the version the client's initialize asks for)`, digits)
    }
    const checked = check(value, false, digits[0])
    if ('refusal' in checked) return void write(at(checked.refusal, digits[0])).catch(onerror)
    const refusal = reused(checked.message, (id) => inFlight.has(id), digits[0])
    if (refusal !== undefined) return void write(refusal).catch(onerror)
    deliver(checked.message, digits[0])
  }

  /**
   * A JSON-RPC batch, which MCP 2025-03-26 servers must read (2025-06-18 dropped them): each
   * message is taken as if on a line of its own, and the answers to its requests, with the errors
   * of its invalid members, are sent together as one array once all are in (none when it holds
   * only notifications).
   */
  function readBatch(values: unknown[], digits: ReadonlyArray<string | undefined>) {
    const batch: Batch = { waiting: new Set(), replies: [] }
    const messages: Array<[JSONRPCMessage, string | undefined]> = []
    for (const [i, value] of values.entries()) {
      const checked = check(value, true, digits[i])
      if ('refusal' in checked) {
        batch.replies.push(at(checked.refusal, digits[i]))
        continue
      }
      // An id the batch itself has taken is reused too: its first request is in flight once passed on.
      const refusal = reused(checked.message, (id) => inFlight.has(id) || batch.waiting.has(id), digits[i])
      if (refusal !== undefined) {
        batch.replies.push(refusal)
        continue
      }
      messages.push([checked.message, digits[i]])
      if (isJSONRPCRequest(checked.message)) batch.waiting.add(checked.message.id)
    }
    batches.push(batch)
    void flush(batch).catch(onerror)
    for (const [message, digits] of messages) deliver(message, digits)
  }

  /**
   * A batch under a version without them is not a message (JSON-RPC's -32600 Invalid Request). Its
   * requests are answered each on its own line, at its id, so that the client's calls end with the
   * error rather than wait; a batch without a request whose id can be read, at id null. None of its
   * messages is passed on.
   */
  function refuseBatch(values: unknown[], version: string, digits: ReadonlyArray<string | undefined>) {
    const message = `Invalid Request: a JSON-RPC batch, which MCP ${version} does not have: send each message on a line of its own`
    report(message)
    // Not at the id of a request in flight: the error would end that request's call. Each id once,
    // told apart by its digits as sent, where two past 2^53 may be one number to JSON.parse.
    const ids = new Map<string, { id: string | number | null; digits?: string }>()
    for (const [i, value] of values.entries()) {
      const id = requestId(value)
      if (id === null || inFlight.has(id)) continue
      const sent = typeof id === 'number' ? digits[i] : undefined
      ids.set(sent === undefined ? JSON.stringify(id) : `digits ${sent}`, { id, digits: sent })
    }
    for (const { id, digits } of ids.size === 0 ? [{ id: null }] : ids.values()) {
      void write(at({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidRequest, message } }, digits)).catch(onerror)
    }
  }

  /** `refusal`, to be written at `digits`, the id as sent, when it has a number for id. */
  function at(refusal: unknown, digits: string | undefined): unknown {
    if (digits !== undefined && isObject(refusal) && typeof refusal.id === 'number') sentAs.set(refusal, digits)
    return refusal
  }

  /**
   * The -32600 error answering a request whose id is `taken` (said through `report`), at the id as
   * sent (`digits`); undefined for any other message. An id JSON.parse read as another number's
   * (`0.0`, `-0`) is taken when that number is: said so, the number beside its digits.
   */
  function reused(message: JSONRPCMessage, taken: (id: string | number) => boolean, digits: string | undefined): unknown {
    if (!isJSONRPCRequest(message) || !taken(message.id)) return undefined
    const read = JSON.stringify(message.id)
    const shown = typeof message.id === 'number' && digits !== undefined && digits !== read ? `${digits} (the number ${read})` : read
    const text = `Invalid Request: id ${shown} is that of a request still in flight (an id is never reused in a session)`
    report(text)
    return at({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InvalidRequest, message: text } }, digits)
  }

  /** Passes a message on; a request's id written otherwise than JSON writes what it read (`digits`) is kept to answer it at. */
  function deliver(message: JSONRPCMessage, digits?: string) {
    if (isJSONRPCRequest(message)) inFlight.add(message.id)
    if (isJSONRPCRequest(message) && typeof message.id === 'number' && digits !== undefined && digits !== JSON.stringify(message.id)) writtenAs.set(message.id, digits)
    if (isJSONRPCRequest(message) && message.method === 'initialize') {
      const asked = (message.params as { protocolVersion?: unknown } | undefined)?.protocolVersion
      initializing.set(message.id, typeof asked === 'string' ? asked : undefined)
    }
    // A cancelled request is never answered (MCP): its batch goes out without it.
    if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: unknown } | undefined)?.requestId as string | number
      inFlight.delete(id)
      writtenAs.delete(id)
      const batch = batches.find((b) => b.waiting.has(id))
      if (batch !== undefined) {
        batch.waiting.delete(id)
        void flush(batch).catch(onerror)
      }
    }
    transport.onmessage?.(message)
  }

  /** The message, or the -32600 error answering it, said through `report`. */
  function check(sent: unknown, inBatch: boolean, digits?: string): { message: JSONRPCMessage } | { refusal: unknown } {
    const value = withoutNullParams(sent)
    const parsed = JSONRPCMessageSchema.safeParse(value)
    const initialize = inBatch && parsed.success && isJSONRPCRequest(parsed.data) && parsed.data.method === 'initialize'
    // An id no whole number as its digits write it, which JSON.parse made one (`1e-400`, 0): the schema takes it.
    const idFault = isObject(value) && typeof value.id === 'number' ? numberIdFault(value.id, digits) : undefined
    if (parsed.success && !initialize && idFault === undefined) return { message: parsed.data }
    const message = initialize
      ? 'Invalid Request: initialize is never part of a batch'
      : `Invalid Request: not a JSON-RPC 2.0 message (${whyNot(value, digits)})`
    report(message)
    return { refusal: { jsonrpc: '2.0', id: requestId(value), error: { code: ErrorCode.InvalidRequest, message } } }
  }

  async function flush(batch: Batch): Promise<void> {
    if (batch.waiting.size > 0 || !batches.includes(batch)) return
    batches = batches.filter((b) => b !== batch)
    if (batch.replies.length > 0) await write(batch.replies)
  }

  return transport
}

/** The one protocol version with JSON-RPC batches: 2025-03-26 added them, 2025-06-18 removed them. */
const BATCH_VERSION = '2025-03-26'

interface Batch {
  /** The ids of its requests not answered yet (each is in flight once: a reused id is refused). */
  waiting: Set<string | number>
  replies: unknown[]
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * A request or notification with `"params": null` as one without params: JSON-RPC 2.0 wants params,
 * when present, structured, but clients that serialise an absent field as null send it so
 * (`tools/list`, `ping`, `notifications/initialized`), and a -32600 for it ended a session at its
 * first request. A method that needs params is then refused for their lack, naming `params`.
 */
function withoutNullParams(value: unknown): unknown {
  if (!isObject(value) || !Object.hasOwn(value, 'method') || value.params !== null) return value
  const { params: _null, ...rest } = value
  return rest
}

/**
 * Whether a message, or one of a batch, may have a number for id that JSON.parse did not read as
 * written: one that is no safe integer (past 2^53, which it rounds; past what a double holds, `1e400`,
 * which it makes Infinity, written as null; a fraction), `-0`, or, on a line where a key `id` has a
 * number written with a fraction or an exponent or as `-0`, one written so (`0.0`, `1e-400`, both 0,
 * and `1.0`, 1). The line is then read for its ids' digits (idDigits), a walk of every token of it:
 * not for a number elsewhere on the line, as every line has one (`"jsonrpc":"2.0"`), nor for the
 * floats of a tool's arguments, which made each line of megabytes cost several times its parse.
 */
export function idsNotAsRead(value: unknown, line: string): boolean {
  const ids = (Array.isArray(value) ? value : [value]).flatMap((m) => (isObject(m) && typeof m.id === 'number' ? [m.id] : []))
  return ids.some((id) => !Number.isSafeInteger(id) || Object.is(id, -0)) || (ids.length > 0 && ID_NOT_AS_JSON_WRITES.test(line))
}

/**
 * A key `id` (or one of its spellings with escapes, `"\u0069d"`, the one way JSON has to write
 * an `i` or a `d` otherwise) whose number has a fraction or an exponent, or is `-0`: the ids JSON
 * would write otherwise. One nested in the params matches too, and the line is read for nothing.
 */
const ID_NOT_AS_JSON_WRITES = /"(?:i|\\u0069)(?:d|\\u0064)"\s*:\s*(?:-?\d+[.eE]|-0)/

/**
 * The number each message of a line JSON.parse took (the line's object, or each member of its
 * batch, by position) has as its `id`, as written there. Tokens, not a parser: in valid JSON a
 * string after `{` or `,` in an object is a key, decoded to compare it (`"\u0069d"` is `id` too),
 * and a later key of the same name wins, as it does for JSON.parse.
 */
function idDigits(line: string): Array<string | undefined> {
  const digits: Array<string | undefined> = []
  const tokens = jsonTokens(line)
  const open: string[] = []
  const batch = tokens[0] === '['
  const messageDepth = batch ? 2 : 1
  let member = 0
  tokens.forEach((token, i) => {
    if (token === '{' || token === '[') open.push(token)
    else if (token === '}' || token === ']') open.pop()
    else if (batch && token === ',' && open.length === 1) member++
    else if (open.length === messageDepth && open.at(-1) === '{' && (tokens[i - 1] === '{' || tokens[i - 1] === ',') && JSON.parse(token) === 'id') {
      const value = tokens[i + 2] as string
      digits[member] = /^-?\d/.test(value) ? value : undefined
    }
  })
  return digits
}

/**
 * The tokens of a line of valid JSON: each string (quotes and escapes as written), each of `[]{}:,`,
 * and each other value (a number, true, false, null); white space left out. A loop, not a regular
 * expression, whose stack a string of millions of characters overflowed (a line takes 10 MB).
 */
function jsonTokens(line: string): string[] {
  const tokens: string[] = []
  let i = 0
  while (i < line.length) {
    const c = line[i] as string
    let end = i + 1
    if (c === '"') {
      while (end < line.length && line[end] !== '"') end += line[end] === '\\' ? 2 : 1
      end++
    } else if (' \t\r\n'.includes(c)) {
      i = end
      continue
    } else if (!'[]{}:,'.includes(c)) {
      while (end < line.length && !' \t\r\n[]{}:,"'.includes(line[end] as string)) end++
    }
    tokens.push(line.slice(i, end))
    i = end
  }
  return tokens
}

/**
 * The id of what means to be a request, if it has one a client could have sent; else null. A number
 * past what a double holds (`1e400`, Infinity to JSON.parse) is one too: it is answered at the digits
 * it was sent with (sentAs), and JSON.stringify, which writes it null, never writes it.
 */
function requestId(value: unknown): string | number | null {
  if (!isObject(value) || !Object.hasOwn(value, 'method')) return null
  const { id } = value
  return typeof id === 'string' || typeof id === 'number' ? id : null
}

/**
 * What is wrong with a number a request has for id, as the digits it was sent with show it (else as
 * JSON.parse read it), or undefined when it is an id: MCP's ids are strings and integers, and its
 * SDK takes none past 2^53 - 1, the integers a double holds exactly (zod said `Too big: expected int
 * to be <=9007199254740991`, and of `1e400`, read as Infinity, `received Infinity`).
 */
function numberIdFault(id: number, digits: string | undefined): string | undefined {
  const shown = digits ?? String(id)
  // Before the bounds: `1e-400`, which JSON.parse makes 0, is no integer for all that.
  if ((Number.isFinite(id) && !Number.isInteger(id)) || (digits !== undefined && !wholeAsWritten(digits))) return `${shown} is no whole number: an id is a string or an integer`
  if (Number.isSafeInteger(id)) return undefined
  const bound = id > 0 ? 'past 9007199254740991 (2^53 - 1), the largest' : 'below -9007199254740991 (1 - 2^53), the least'
  return `${shown} is ${bound} integer an id may be: send it as a string`
}

/**
 * Whether a JSON number is a whole number as its digits write it: `9007199254740993.5` is not,
 * though JSON.parse rounds it to the integer 9007199254740994 (it was said past the largest integer
 * an id may be, and to be sent as a string); `1.0` and `25e-1` are read as they are by JSON.parse.
 */
function wholeAsWritten(digits: string): boolean {
  const parts = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(digits)
  if (parts === null) return true
  const [, whole = '', fraction = '', exponent = '0'] = parts
  const significant = (whole + fraction).replace(/^0+/, '')
  if (significant === '') return true
  const zeros = significant.length - significant.replace(/0+$/, '').length
  return Number(exponent) - fraction.length + zeros >= 0
}

/** The first field at fault, judged against the kind of message the value means to be. */
function whyNot(value: unknown, digits?: string): string {
  if (Array.isArray(value)) return value.length === 0 ? 'an empty batch' : 'a batch inside a batch'
  if (!isObject(value)) return 'not an object'
  const schema = Object.hasOwn(value, 'method')
    ? Object.hasOwn(value, 'id')
      ? JSONRPCRequestSchema
      : JSONRPCNotificationSchema
    : Object.hasOwn(value, 'error')
      ? JSONRPCErrorResponseSchema
      : JSONRPCResultResponseSchema
  const error = schema.safeParse(value).error
  // Said as a route's 400 says a field: one left out is missing (`jsonrpc: missing: expected "2.0"`),
  // one of a few types says them (`id: Invalid input: expected string or number, received object`).
  const [issue] = error === undefined ? [] : issuesOf(error, value)
  // A number past what an id may be is said so, at the digits sent: not in zod's words. So is one no
  // whole number as written that the schema takes, JSON.parse having made it 0 (`1e-400`).
  const idFault = (issue === undefined || issue.path === 'id') && typeof value.id === 'number' ? numberIdFault(value.id, digits) : undefined
  if (idFault !== undefined) return `id: ${idFault}`
  if (issue === undefined) return 'not a request, a notification nor a response'
  return issue.path === '(body)' ? issue.message : `${issue.path}: ${issue.message}`
}
