import type { Readable } from 'node:stream'
import { LIMITS } from '../domain/limits'

/** What came on stdin: all of it (`whole`), or what had arrived when the time ran out. */
export interface StdinPayload {
  text: string
  /**
   * stdin was closed, or held one JSON object (or array) that had closed, with nothing but white
   * space after it: the payload has all arrived. False when the time ran out first.
   */
  whole: boolean
  /**
   * More came than is kept of a payload (PAYLOAD_KEPT_BYTES): `text` is then empty and `whole`
   * false, stdin closed or not.
   */
  tooLarge?: boolean
}

/**
 * The most of a payload kept in memory: 64 times the service's body limit (16 MB). Not the limit
 * itself: the hook sends a PostToolUse over it without the previews the service never reads
 * (hookBody), which Claude Code carries two or three times (tool_input, tool_response,
 * annotations), and the guard checks the start of a command too long to send whole; nor near it:
 * a capture of 4 MB of previews is one a user may make, and must not be lost. Nor far above it:
 * a payload takes about twelve times its size in memory while it is read, parsed and sent (60 MB
 * took 770 MB). Past it, the rest is read and let go: kept, `yes | decision-memory hook` held
 * gigabytes by the end of its budget, and crashed making them a string.
 */
export const PAYLOAD_KEPT_BYTES = 64 * LIMITS.bodyBytes

/**
 * What the hook and the guard say of a payload past PAYLOAD_KEPT_BYTES, as of one that did not
 * arrive whole: `who` is the command that read it.
 */
export function tooLargeWhy(who: string): string {
  return `the hook payload on stdin was over ${PAYLOAD_KEPT_BYTES / 1024 / 1024} MB, more than ${who} keeps of one, so it did not arrive whole`
}

/** JSON's white space (RFC 8259 § 2): what may follow a value. */
function isWhiteSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d
}

/** UTF-8's byte order mark, which an editor may put before a payload saved as a file. */
const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf]

/**
 * A payload's text without a byte order mark before it: RFC 8259 § 8.1 lets a parser ignore one,
 * and JSON.parse does not, so a payload saved with one was refused as no JSON.
 */
export function payloadText(text: string): string {
  return text.startsWith('\ufeff') ? text.slice(1) : text
}

/**
 * Follows bytes of JSON a chunk at a time, and says when they hold one object or array that has
 * closed, with nothing but white space after it. Only its brackets are counted, outside strings,
 * so a chunk that ends inside a string or a number (`{"a":1` then `2}`) is never taken for the
 * end, and a value that is not an object or array (`12`, which `3` may follow) never closes; a
 * byte order mark first is passed over, as payloadText takes it off. Bytes, not characters: every byte of a multi-byte UTF-8 character is 0x80 or more, never a
 * bracket, a quote or a backslash, so a chunk may split one. Each byte is read once.
 */
export function closedValue(): (chunk: Uint8Array) => boolean {
  let depth = 0
  let started = false
  let inString = false
  let escaped = false
  /** The value closed; whatever follows must be white space. */
  let closed = false
  /** Something it cannot be the end of: a value of another kind, or more after one that closed. */
  let never = false
  /** How many bytes came before the value, and how many of them began a byte order mark (payloadText). */
  let before = 0
  let mark = 0
  return (chunk) => {
    for (const byte of chunk) {
      if (never) return false
      if (closed) {
        if (!isWhiteSpace(byte)) never = true
        continue
      }
      if (inString) {
        if (escaped) escaped = false
        else if (byte === 0x5c) escaped = true
        else if (byte === 0x22) inString = false
        continue
      }
      if (!started) {
        const at = before++
        if (mark === at && byte === BYTE_ORDER_MARK[at]) {
          mark++
          continue
        }
        if (isWhiteSpace(byte)) continue
        if (byte !== 0x7b && byte !== 0x5b) {
          never = true
          continue
        }
        started = true
      }
      if (byte === 0x22) inString = true
      else if (byte === 0x7b || byte === 0x5b) depth += 1
      else if (byte === 0x7d || byte === 0x5d) {
        depth -= 1
        if (depth === 0) closed = true
      }
    }
    return closed && !never
  }
}

/**
 * Reads a hook payload from `stream` until it is closed, or until it holds one JSON object that
 * has closed (closedValue), or until `timeoutMs` has passed: undefined when reading fails.
 *
 * Claude Code closes a hook's stdin once it has written the payload, but a client that spawns the
 * hook and keeps the pipe open gave a payload all there that was waited on to the end of the
 * budget, then dropped, neither sent nor spooled: it is taken as soon as it has arrived. What
 * comes after it is read and let go, so that its writer is never held up nor met with EPIPE; so is
 * all that comes past `keptBytes` (PAYLOAD_KEPT_BYTES), the payload then said too large.
 */
export function readStdinPayload(stream: Readable, timeoutMs: number, keptBytes = PAYLOAD_KEPT_BYTES): Promise<StdinPayload | undefined> {
  return new Promise((resolve) => {
    let chunks: Buffer[] = []
    /** The bytes in `chunks`; once over keptBytes, what comes is let go, and the payload is none. */
    let kept = 0
    let tooLarge = false
    /** What was read, as the payload it is: none, past keptBytes. */
    const read = (whole: boolean): StdinPayload => (tooLarge ? { text: '', whole: false, tooLarge } : { text: Buffer.concat(chunks).toString('utf8'), whole })
    const arrived = closedValue()
    let settled = false
    const settle = (result: StdinPayload | undefined) => {
      settled = true
      clearTimeout(timer)
      resolve(result === undefined ? undefined : { ...result, text: payloadText(result.text) })
    }
    /** Whether stdin gave something since the time ran out. */
    let progress = false
    /**
     * Time is up, but a process held up (a loaded machine) finds its timer due before it has read
     * what is already waiting on stdin: timers run before I/O in an event loop turn. So it gives
     * up only after a turn that read nothing, never while the payload is still coming in.
     */
    const giveUp = () => {
      if (settled) return
      if (progress) {
        progress = false
        setImmediate(giveUp)
        return
      }
      stream.destroy()
      settle(read(false))
    }
    const timer = setTimeout(() => setImmediate(giveUp), Math.max(0, timeoutMs))
    stream.on('data', (chunk: Buffer | string) => {
      if (settled) return
      progress = true
      if (tooLarge) return
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk
      kept += bytes.length
      if (kept > keptBytes) {
        tooLarge = true
        chunks = []
        return
      }
      chunks.push(bytes)
      if (arrived(bytes)) settle(read(true))
    })
    stream.on('end', () => {
      if (!settled) settle(read(true))
    })
    stream.on('error', () => {
      if (!settled) settle(undefined)
    })
  })
}
