import { closeSync, openSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sparseFile, tempDir } from '../../test/support/temp-dir'
import { PAYLOAD_KEPT_BYTES } from './stdin-payload'
import { stdinFile } from './stdin-file'

/** stdinFile of `file` given as stdin (`hook < file`). */
function asStdin(file: string, keptBytes?: number) {
  const fd = openSync(file, 'r')
  try {
    return stdinFile(fd, keptBytes)
  } finally {
    closeSync(fd)
  }
}

describe('stdinFile', () => {
  it('says a file over what is kept of a payload too large, unread, as a pipe is said: not held whole in memory', async () => {
    const dir = tempDir('dm-stdin-file-')
    // Sparse: 16 MB and a byte, written in no time. Read whole, 700 MB held 1 GB and was said as no payload.
    const big = sparseFile(join(dir, 'big.json'), PAYLOAD_KEPT_BYTES + 1)
    expect(asStdin(big)).toEqual({ text: '', whole: false, tooLarge: true })
    // Up to the bound, it is the payload, its byte order mark passed over.
    const small = join(dir, 'small.json')
    await writeFile(small, '\ufeff{"a":"xx"}')
    expect(asStdin(small, 13)).toEqual({ text: '{"a":"xx"}', whole: true })
    expect(asStdin(small, 12)).toEqual({ text: '', whole: false, tooLarge: true })
  })
})
