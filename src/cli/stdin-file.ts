import { fstatSync, readFileSync } from 'node:fs'

/**
 * Stdin's whole text when it is a regular file (`hook < payload.json`, a script replaying one);
 * undefined for a pipe (Claude Code's way), a terminal or none. A file is all there already, so it
 * is read at once: as a stream it is read on libuv's thread pool, which a loaded machine can hold
 * past a hook's time, so that a hook read nothing of a payload it had been given.
 */
export function stdinFile(): string | undefined {
  try {
    return fstatSync(0).isFile() ? readFileSync(0, 'utf8') : undefined
  } catch {
    return undefined
  }
}
