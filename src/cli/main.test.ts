import { afterEach, describe, expect, it, vi } from 'vitest'
import { main } from './main'

/** Runs the CLI's main in process, with what it writes to stderr. */
async function run(argv: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = ''
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk)
    return true
  })
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
  const code = await main(argv)
  return { code, stderr }
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('decision-memory main', () => {
  it('exits 1 for an unknown command, never 2: a typo in a PreToolUse hook command must not block every tool call', async () => {
    const { code, stderr } = await run(['gaurd'])
    expect(code).toBe(1)
    expect(stderr).toContain('unknown command "gaurd"')
  })

  it('exits 1 for help on a command there is not, and 0 for help on one there is', async () => {
    const unknown = await run(['help', 'gaurd'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('no command "gaurd"')
    expect((await run(['help', 'guard'])).code).toBe(0)
    expect((await run(['help'])).code).toBe(0)
  })

  it('exits 0 for help on help and on version, which the help lists among the commands', async () => {
    for (const topic of ['help', 'version']) {
      const { code, stderr } = await run(['help', topic])
      expect(stderr).toBe('')
      expect(code).toBe(0)
    }
  })

  it('takes constructor for an unknown command, not an inherited property', async () => {
    expect((await run(['constructor'])).code).toBe(1)
  })

  it('exits 2 for a usage error of a known command, with its help', async () => {
    const { code, stderr } = await run(['forget', '--user', 'alice'])
    expect(code).toBe(2)
    expect(stderr).toContain('add --yes')
  })
})
