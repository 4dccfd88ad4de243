import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'

/** Folders made outside a test (at a file's top, in beforeAll): removed when the file ends (remove-temp.ts). */
export const madeOutsideTests = new Set<string>()

/** Removes a folder made by a test, and all in it. */
export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
}

/** A file of `bytes` zero bytes, sparse: made in no time whatever its size (a payload too large to keep). */
export function sparseFile(path: string, bytes: number): string {
  const fd = openSync(path, 'w')
  try {
    ftruncateSync(fd, bytes)
  } finally {
    closeSync(fd)
  }
  return path
}

/**
 * A new folder under the system's temporary one (`prefix` and six random characters), removed
 * with all in it when the test that made it ends, after its `afterEach` hooks (which stop the
 * services it started on it); made outside a test, when its file ends, after its `afterAll`.
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  try {
    onTestFinished(() => removeTempDir(dir))
  } catch {
    // Not inside a test: the file's end removes it.
    madeOutsideTests.add(dir)
  }
  return dir
}
