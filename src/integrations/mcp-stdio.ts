import type { Readable, Writable } from 'node:stream'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  ErrorCode,
  JSONRPCErrorResponseSchema,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js'

/** The longest line read, as the SDK's own stdio transport has it: past it the transport closes. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024

/**
 * MCP's stdio transport (one JSON-RPC message a line), with the SDK's framing, that answers the
 * lines the SDK's transport drops without a word (a client would wait for good): a line that is
 * not JSON gets -32700 Parse error, and one that is no JSON-RPC 2.0 message gets -32600 Invalid
 * Request naming the field. Both carry `id: null` only when no id can be read (JSON-RPC 2.0, §5):
 * a request with, say, `"jsonrpc": "1.0"` but `"id": 7` is answered at 7, so that the client's
 * call ends with the error instead of waiting. Only a message with a `method` gets its id back: the
 * id of a (malformed) response names a request of this server's, and an error sent at it would
 * end the client's own request of the same id. Each such line is also said through `report`.
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
  let pending: Buffer = Buffer.alloc(0)

  const transport: Transport = {
    async start() {
      input.on('data', ondata)
      input.on('error', onerror)
    },
    send(message: JSONRPCMessage) {
      return new Promise<void>((sent) => {
        if (output.write(JSON.stringify(message) + '\n')) sent()
        else output.once('drain', sent)
      })
    },
    async close() {
      input.off('data', ondata)
      input.off('error', onerror)
      if (input.listenerCount('data') === 0) input.pause()
      pending = Buffer.alloc(0)
      transport.onclose?.()
    },
  }

  function onerror(error: Error) {
    transport.onerror?.(error)
  }

  function ondata(chunk: Buffer) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
    let start = 0
    for (let end = pending.indexOf(0x0a); end !== -1; end = pending.indexOf(0x0a, start)) {
      read(pending.toString('utf8', start, end).replace(/\r$/, ''))
      start = end + 1
    }
    pending = pending.subarray(start)
    if (pending.length > maxLineBytes) {
      // As the SDK's transport does: what the line asked cannot be known, nor answered.
      transport.onerror?.(new Error(`a line over ${maxLineBytes} bytes: the connection is closed`))
      void transport.close()
    }
  }

  function read(line: string) {
    if (line.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      return refuse(null, ErrorCode.ParseError, 'Parse error: a line that is not JSON')
    }
    const parsed = JSONRPCMessageSchema.safeParse(value)
    if (parsed.success) return transport.onmessage?.(parsed.data)
    refuse(requestId(value), ErrorCode.InvalidRequest, `Invalid Request: not a JSON-RPC 2.0 message (${whyNot(value)})`)
  }

  function refuse(id: string | number | null, code: number, message: string) {
    report(message)
    transport.send({ jsonrpc: '2.0', id, error: { code, message } } as never).catch(onerror)
  }

  return transport
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The id of what means to be a request, if it has one a client could have sent; else null. */
function requestId(value: unknown): string | number | null {
  if (!isObject(value) || !Object.hasOwn(value, 'method')) return null
  const { id } = value
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null
}

/** The first field at fault, judged against the kind of message the value means to be. */
function whyNot(value: unknown): string {
  if (Array.isArray(value)) return 'an array: send one message a line (JSON-RPC batches are not read)'
  if (!isObject(value)) return 'not an object'
  const schema = Object.hasOwn(value, 'method')
    ? Object.hasOwn(value, 'id')
      ? JSONRPCRequestSchema
      : JSONRPCNotificationSchema
    : Object.hasOwn(value, 'error')
      ? JSONRPCErrorResponseSchema
      : JSONRPCResultResponseSchema
  const [issue] = schema.safeParse(value).error?.issues ?? []
  if (issue === undefined) return 'not a request, a notification nor a response'
  const path = issue.path.join('.')
  return path === '' ? issue.message : `${path}: ${issue.message}`
}
