import { fstatSync, readFileSync } from 'node:fs'
import { PAYLOAD_KEPT_BYTES, payloadText, type StdinPayload } from './stdin-payload'

/**
 * Stdin's whole payload when it is a regular file (`hook < payload.json`, a script replaying one),
 * its byte order mark passed over (payloadText); undefined for a pipe (Claude Code's way), a
 * terminal or none. A file is all there already, so it is read at once: as a stream it is read on
 * libuv's thread pool, which a loaded machine can hold past a hook's time, so that a hook read
 * nothing of a payload it had been given. `fd` is stdin's, another in tests.
 */
export function stdinFile(fd = 0, keptBytes = PAYLOAD_KEPT_BYTES): StdinPayload | undefined {
  try {
    const stat = fstatSync(fd)
    if (!stat.isFile()) return undefined
    // Over what is kept of a payload, said too large unread, as on a pipe: read whole, a file of
    // hundreds of megabytes was held in memory, and one past 512 MB, too long for a string, was
    // then read as a pipe from its end, and said as no payload, or not at all.
    if (stat.size > keptBytes) return { text: '', whole: false, tooLarge: true }
    return { text: payloadText(readFileSync(fd, 'utf8')), whole: true }
  } catch {
    return undefined
  }
}
