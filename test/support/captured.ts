import { vi } from 'vitest'

/**
 * Runs a command's function in process with what it writes to stdout and stderr captured, not
 * printed: its exit code and the text. The spies stay until the test file's `vi.restoreAllMocks()`.
 */
export async function captured(run: () => Promise<number>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk)
    return true
  })
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk)
    return true
  })
  const code = await run()
  return { code, stdout, stderr }
}
