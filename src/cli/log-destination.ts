import { write as fsWrite } from 'node:fs'

/** Writes bytes to the log's file descriptor, calling back with how many were written. */
export type WriteBytes = (bytes: Buffer, done: (error: NodeJS.ErrnoException | null, written: number) => void) => void

/** A pino destination: the lines of a short stretch of time go out in one write. */
export interface LogDestination {
  write(line: string): void
  /** Writes what waits now, and resolves once every line written so far is out (or could not be: a reader gone). */
  end(): Promise<void>
}

/** How long a line waits, at most, for the lines logged after it, before they go out together. */
export const GATHER_MS = 20

/** How many characters may wait before they go out without waiting longer. */
export const GATHER_CHARS = 64 * 1024

/**
 * How many characters may wait at most, behind a write that does not finish (a reader that does
 * not read): about 16,000 request lines. Lines past it are dropped and counted, and a line saying
 * how many takes their place once there is room again: memory stays bounded and the service runs.
 */
export const MAX_WAITING_CHARS = 4 * 1024 * 1024

const RETRY_MS = 10

/** Errors of a log file with no room left: the disk, the quota, the file size limit. Not a reader gone. */
const ROOM_LACKING = new Set(['ENOSPC', 'EDQUOT', 'EFBIG'])

/**
 * The service's log lines, written asynchronously and gathered: a line waits up to GATHER_MS (or
 * until GATHER_CHARS wait) for those logged after it, and they go out in one write. Lines logged
 * while a write is in flight wait for it to finish, then up to GATHER_MS more: a reader slower
 * than the log holds them, and past MAX_WAITING_CHARS they are dropped (and counted). Under load
 * a request is a line, and a turn of the event loop often holds a single request: a write per
 * turn, as pino's asynchronous destination (sonic-boom) and the first version of this one did,
 * cost a recommendation served from memory about 4 µs of CPU more than gathering does, a tenth of
 * the whole (bench/HISTORY.md). `end` (the service's stop) writes what waits at once; a kill -9
 * loses what has not been written, at least the lines of the last GATHER_MS, never an
 * acknowledged observation.
 *
 * A short write goes on with the rest; EAGAIN (a non-blocking pipe or terminal that is full) is
 * retried a moment later; a full disk (ENOSPC, EDQUOT, EFBIG) drops the lines of that write,
 * counted as those past MAX_WAITING_CHARS are, and tries the next ones; any other error (a reader
 * gone) drops what waits, and later lines, so that logging never stops the service.
 */
export function batchedDestination(
  fd: number,
  options: {
    writeBytes?: WriteBytes
    /** The line (ending in a newline) that says `count` lines were dropped. */
    droppedLine?: (count: number) => string
  } = {},
): LogDestination {
  const writeBytes = options.writeBytes ?? ((bytes, done) => fsWrite(fd, bytes, 0, bytes.length, null, done))
  const droppedLine = options.droppedLine ?? ((count) => `${JSON.stringify({ level: 40, time: Date.now(), event: 'log-lines-dropped', dropped: count, msg: `${count} log lines dropped` })}\n`)
  let pending: string[] = []
  let dropped = 0
  let pendingChars = 0
  let inFlight: Buffer | null = null
  let broken = false
  /** Whether the last write found no room (ENOSPC): the count of what was dropped waits for one that works. */
  let lacking = false
  let timer: NodeJS.Timeout | undefined
  const drained: Array<() => void> = []

  /** The lines dropped so far, said in their place (before the next line kept). */
  function noteDropped(): void {
    if (dropped === 0 || lacking) return
    const line = droppedLine(dropped)
    dropped = 0
    pending.push(line)
    pendingChars += line.length
  }

  function settle(): void {
    if (inFlight === null && (pending.length === 0 || broken)) for (const done of drained.splice(0)) done()
  }

  /** Writes what waits after GATHER_MS; at once when it is much, or when the stop waits for it. */
  function schedule(): void {
    if (inFlight !== null || broken || pending.length === 0) return settle()
    if (pendingChars >= GATHER_CHARS || drained.length > 0) flush()
    else timer ??= setTimeout(flush, GATHER_MS)
  }

  function send(bytes: Buffer): void {
    inFlight = bytes
    writeBytes(bytes, (error, written) => {
      if (error !== null) {
        if (error.code === 'EAGAIN') {
          setTimeout(() => send(bytes), RETRY_MS)
          return
        }
        if (error.code !== undefined && ROOM_LACKING.has(error.code)) {
          // A full disk under a log file (`serve >> dm.log`): these lines are lost, and counted,
          // but the next ones are tried, so that the log goes on once there is room again.
          for (const byte of bytes) if (byte === 0x0a) dropped++
          lacking = true
          inFlight = null
          schedule()
          return
        }
        broken = true
        pending = []
        inFlight = null
        settle()
        return
      }
      if (written < bytes.length) {
        send(bytes.subarray(written))
        return
      }
      inFlight = null
      // The count of the lines the full disk took, once a write shows there is room again.
      if (lacking) {
        lacking = false
        noteDropped()
      }
      schedule()
    })
  }

  function flush(): void {
    clearTimeout(timer)
    timer = undefined
    if (inFlight !== null || broken || pending.length === 0) return settle()
    const bytes = Buffer.from(pending.join(''), 'utf8')
    pending = []
    pendingChars = 0
    send(bytes)
  }

  return {
    write(line) {
      if (broken) return
      if (pendingChars + line.length > MAX_WAITING_CHARS) {
        dropped++
        return
      }
      noteDropped()
      pending.push(line)
      pendingChars += line.length
      schedule()
    },
    end() {
      return new Promise<void>((resolve) => {
        if (!broken) noteDropped()
        drained.push(resolve)
        schedule()
      })
    },
  }
}
