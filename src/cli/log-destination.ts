import { write as fsWrite } from 'node:fs'

/** Writes bytes to the log's file descriptor, calling back with how many were written. */
export type WriteBytes = (bytes: Buffer, done: (error: NodeJS.ErrnoException | null, written: number) => void) => void

/** A pino destination: the lines of one turn of the event loop go out in one write. */
export interface LogDestination {
  write(line: string): void
  /** Resolves once every line written so far is out (or could not be: a reader gone). */
  end(): Promise<void>
}

const RETRY_MS = 10

/**
 * The service's log lines, written asynchronously: every line logged in one turn of the event
 * loop (a line per request, under load many) is gathered and written at its end in one write,
 * and lines logged while a write is in flight go out together in the next. pino's asynchronous
 * destination (sonic-boom) wrote nearly every line on its own under the recommendation load and
 * measured every pending line's bytes as it appended one: side by side, this took a
 * recommendation served from memory from 44-57 µs of CPU to 38-40 (bench/README.md).
 *
 * A short write goes on with the rest; EAGAIN (a non-blocking pipe or terminal that is full) is
 * retried a moment later; any other error (a reader gone) drops what waits, and later lines, so
 * that logging never stops the service.
 */
export function batchedDestination(fd: number, writeBytes: WriteBytes = (bytes, done) => fsWrite(fd, bytes, 0, bytes.length, null, done)): LogDestination {
  let pending: string[] = []
  let inFlight: Buffer | null = null
  let broken = false
  let scheduled = false
  const drained: Array<() => void> = []

  function settle(): void {
    if (inFlight === null && (pending.length === 0 || broken)) for (const done of drained.splice(0)) done()
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
      flush()
    })
  }

  function flush(): void {
    scheduled = false
    if (inFlight !== null) return
    if (pending.length === 0 || broken) {
      settle()
      return
    }
    const bytes = Buffer.from(pending.join(''), 'utf8')
    pending = []
    send(bytes)
  }

  return {
    write(line) {
      if (broken) return
      pending.push(line)
      if (!scheduled && inFlight === null) {
        scheduled = true
        setImmediate(flush)
      }
    },
    end() {
      return new Promise<void>((resolve) => {
        drained.push(resolve)
        if (inFlight === null && !scheduled) flush()
        else settle()
      })
    },
  }
}
