import type { Stats } from 'node:fs'

/** What a path that is neither a file nor a folder is (`a device`, `a named pipe (FIFO)`, `a socket`); undefined for a file or folder. */
export function specialFileKind(found: Stats): string | undefined {
  if (found.isCharacterDevice() || found.isBlockDevice()) return 'a device'
  if (found.isFIFO()) return 'a named pipe (FIFO)'
  if (found.isSocket()) return 'a socket'
  return undefined
}
