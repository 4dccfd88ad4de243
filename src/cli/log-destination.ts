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

const RETRY_MS = 10

/**
 * The service's log lines, written asynchronously and gathered: a line waits up to GATHER_MS (or
 * until GATHER_CHARS wait) for those logged after it, and they go out in one write; lines logged
 * while a write is in flight wait for the next. Under load a request is a line, and a turn of the
 * event loop often holds a single request: a write per turn, as pino's asynchronous destination
 * (sonic-boom) and the first version of this one did, cost a recommendation served from memory
 * more CPU than its own work (bench/README.md). A line is out GATHER_MS after it was logged at
 * the latest, and `end` (the service's stop) writes what waits at once; a kill -9 may lose the
 * lines of the last GATHER_MS, never an acknowledged observation.
 *
 * A short write goes on with the rest; EAGAIN (a non-blocking pipe or terminal that is full) is
 * retried a moment later; any other error (a reader gone) drops what waits, and later lines, so
 * that logging never stops the service.
 */
export function batchedDestination(fd: number, writeBytes: WriteBytes = (bytes, done) => fsWrite(fd, bytes, 0, bytes.length, null, done)): LogDestination {
  let pending: string[] = []
  let pendingChars = 0
  let inFlight: Buffer | null = null
  let broken = false
  let timer: NodeJS.Timeout | undefined
  const drained: Array<() => void> = []

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
      pending.push(line)
      pendingChars += line.length
      schedule()
    },
    end() {
      return new Promise<void>((resolve) => {
        drained.push(resolve)
        schedule()
      })
    },
  }
}
