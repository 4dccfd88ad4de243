import { constants } from 'node:fs'
import { open, stat, type FileHandle } from 'node:fs/promises'
import { codeInWords } from '../file-error'
import { specialFileKind } from '../file-kind'

/**
 * A configuration file's text, which is UTF-8 (its byte order mark kept, for the parser to pass
 * over). Read leniently, a file saved in another encoding was taken with U+FFFD for each byte it
 * could not decode: a Latin-1 `é` silently became another text (a match rule no question fits, a
 * token for a user no request names), and a file saved as UTF-16 (as Windows PowerShell 5.1's `>`
 * and `Out-File` save it) was refused for what it parsed as. Refused instead, as the service
 * refuses a body, with the line, and without quoting the text (a tokens file holds tokens):
 * `refuse` makes the error of the file's kind from the message.
 */
export function utf8FileText(bytes: Buffer, file: string, refuse: (message: string) => Error): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
      throw refuse(`${file}: not UTF-8 text: it is saved as UTF-16 (as Windows PowerShell 5.1's > and Out-File save it): save it as UTF-8`)
    }
    const lenient = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)
    const line = lenient.slice(0, lenient.indexOf('\uFFFD')).split('\n').length
    throw refuse(`${file}: not UTF-8 text at line ${line} (saved in another encoding, such as Latin-1?): save it as UTF-8`)
  }
}

/** The most of a policy or tokens file read: one larger is the wrong file (a log, a dump), not a configuration. */
export const CONFIG_FILE_MAX_BYTES = 4 * 1024 * 1024

/**
 * The bytes of a configuration file (`kind`, `policy file` or `tokens file`, given by `flag`), read
 * only if it is a file of at most CONFIG_FILE_MAX_BYTES. A named pipe nobody writes to held the
 * command at its open (O_NONBLOCK here: it never waits), `/dev/zero` was read for as long as memory
 * allowed, and a socket failed with a bare ENXIO: each is refused with what it is, naming the flag.
 * So are a folder and a path with nothing at it, which were said by their codes alone (`EISDIR`,
 * `ENOENT`), naming neither what was wrong nor the flag. `refuse` makes the error of the file's kind.
 */
export async function configFileBytes(file: string, kind: string, flag: string, refuse: (message: string) => Error): Promise<Buffer> {
  const cannot = (why: string) => refuse(`${file}: cannot read ${kind}: ${why}`)
  // A system error's code in words, the code kept beside them; where the path names no file to
  // read, what to give instead.
  const inWords = (code: string) => {
    const instead = `give ${flag} the path of a ${kind}`
    if (code === 'ENOENT') return `there is no such file (ENOENT): ${instead}`
    if (code === 'EISDIR') return `a folder, not a file (EISDIR): ${instead}`
    return codeInWords(code, { EACCES: 'this account may not read it', EPERM: 'this account may not read it' })
  }
  let handle: FileHandle
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (error) {
    // A socket cannot be opened (ENXIO): said as what it is, as a named pipe is.
    const code = (error as NodeJS.ErrnoException).code
    const found = code === 'ENXIO' ? await stat(file).catch(() => undefined) : undefined
    if (found?.isSocket() === true) throw cannot(`a socket, not a file: give ${flag} the path of a ${kind}`)
    throw cannot(code === undefined ? (error as Error).message : inWords(code))
  }
  try {
    const found = await handle.stat()
    if (found.isDirectory()) throw cannot(inWords('EISDIR'))
    if (!found.isFile()) {
      const what = specialFileKind(found) ?? 'not a file'
      throw cannot(`${what}, not a file: give ${flag} the path of a ${kind}`)
    }
    const limit = `more than ${CONFIG_FILE_MAX_BYTES / (1024 * 1024)} MB, more than any ${kind}: give ${flag} the path of a ${kind}`
    if (found.size > CONFIG_FILE_MAX_BYTES) throw cannot(`it holds ${found.size} bytes, ${limit}`)
    // Read to one byte past the limit at most, for a file that grew since its size was read.
    const chunks: Buffer[] = []
    let length = 0
    for (;;) {
      const chunk = Buffer.alloc(Math.min(64 * 1024, CONFIG_FILE_MAX_BYTES + 1 - length))
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null)
      if (bytesRead === 0) break
      chunks.push(chunk.subarray(0, bytesRead))
      length += bytesRead
      if (length > CONFIG_FILE_MAX_BYTES) throw cannot(`it holds ${limit}`)
    }
    return Buffer.concat(chunks, length)
  } catch (error) {
    // An error of the read itself (EIO), said as an open's is; one said above is no system error.
    const { code, errno } = error as NodeJS.ErrnoException
    throw typeof errno === 'number' && code !== undefined ? cannot(inWords(code)) : error
  } finally {
    await handle.close()
  }
}
