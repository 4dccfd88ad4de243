import { open, rename, rm, stat, type FileHandle } from 'node:fs/promises'
import { randomHex } from '../random-hex'

/**
 * Where replacing a file failed: making the file beside it, writing it there, or renaming it over
 * the file once it was written whole there.
 */
export type ReplaceStep = 'beside' | 'write' | 'rename'

/** A failure of replaceFile, with the step it failed at and the system's code. */
export class ReplaceError extends Error {
  /** The system's code of the failure (`ENOSPC`, `EBUSY`), as the error it stands for has it. */
  readonly code: string | undefined

  constructor(
    readonly step: ReplaceStep,
    cause: unknown,
  ) {
    super((cause as Error).message, { cause })
    this.name = 'ReplaceError'
    this.code = (cause as NodeJS.ErrnoException).code
  }
}

/**
 * Replaces `target` with `text` whole, or leaves it as it was: written beside it under a name of
 * its own, synced, then renamed over it, so that no reader ever sees half a file and a crash or a
 * full disk cannot leave one cut short. `mode`, when given, is the new file's exactly (the mode
 * given to open is masked by the umask). When a step fails, the file beside it is removed, and a
 * ReplaceError says which step: `beside` (the folder takes no new file), `write` (a full disk
 * under it) or `rename` (a file that can be written but not replaced: a bind mount of it, EBUSY),
 * the text then written whole beside it before it was removed.
 */
export async function replaceFile(target: string, text: string, mode?: number): Promise<void> {
  // A device (`/dev/null`, run as root) or a named pipe is never renamed over: it would be made a
  // file, for every other program that uses it. Said as the step `beside`, with EINVAL: nothing is
  // made there. (Its callers say such a path before they come here; a folder fails the rename.)
  const found = await stat(target).catch(() => undefined)
  if (found !== undefined && !found.isFile() && !found.isDirectory()) {
    throw new ReplaceError('beside', Object.assign(new Error(`${target} is no file, and is not replaced`), { code: 'EINVAL' }))
  }
  // A name of its own ('wx': never a file already there, nor a link planted in its place).
  const temporary = `${target}.${process.pid}.${randomHex(4)}.tmp`
  let handle: FileHandle | undefined
  try {
    handle = await open(temporary, 'wx', mode ?? 0o666)
  } catch (error) {
    throw new ReplaceError('beside', error)
  }
  try {
    await handle.writeFile(text)
    if (mode !== undefined) await handle.chmod(mode)
    await handle.sync()
    await handle.close()
    handle = undefined
  } catch (error) {
    await handle?.close().catch(() => undefined)
    await rm(temporary, { force: true }).catch(() => undefined)
    throw new ReplaceError('write', error)
  }
  try {
    await rename(temporary, target)
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined)
    throw new ReplaceError('rename', error)
  }
}
